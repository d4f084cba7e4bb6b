"""Deflate dictionaries of ``db.packing``: data files, never edited once released."""
