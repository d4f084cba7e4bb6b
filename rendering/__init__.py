"""Pillow images from engine views, and the words on them.

Belongs here: pure functions ``view -> PNG bytes``, the fonts (files in ``fonts/``, with
their licence), the shared visual language (``style``, ``text``), the words in every
language (``i18n``, ``locales/``) and the presenter protocol every game fills
(``presenter``). Each game's own images are in ``rendering.rulesets.<game>``; those the
ZERO! games share (the Action card, the reveal, the strike report) in ``rendering.zero``.
Does not belong here: Discord, the database, or anything that reads state the view does
not carry (that is how secrets stay out of images).
"""
