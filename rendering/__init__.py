"""Pillow images from engine views: status board, order panel, reveal, strike report, report.

Belongs here: pure functions ``view -> PNG bytes``, the fonts (files in ``fonts/``, with
their licence) and the shared visual language. Does not belong here: Discord, the
database, or anything that reads state the view does not carry (that is how secrets stay
out of images).
"""
