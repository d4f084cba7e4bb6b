"""Wings of War: the dogfight engine, pilots and the squadron campaign (issue 15).

Pure and deterministic: no Discord, no I/O beyond this package's own data files. The public
API lives in ``engine.wings.campaign`` (``new_campaign``, ``pending``, ``defaults``,
``resolve``, ``view``); the data in ``engine/wings/data`` is read by
``engine.wings.catalog.load_catalog``.
"""
