"""The pure rules of the carrier campaign (ZERO! 25.0 and the strike rules 15.0-23.0).

Belongs here: the campaign state, the legal options (``pending``), resolution of locked
choices (``resolve``), what each side may see (``view``), and the data files that feed
them. Does not belong here: Discord, asyncio, the database, the clock, or any randomness
that does not come from the ``rng`` argument. Same inputs, same outputs, always.
"""
