"""ZERO!'s strike rules and data, shared by the carrier, land and Pearl Harbor rulesets.

The Action deck, the aircraft and Target Sheets (``catalog``, ``loader``, ``data/``), the
dogfight, flak and bombing of one strike (``strike``), the pilots and the forces a side
fields. Each ruleset built on ZERO! (``engine.rulesets.carrier``, ``land``,
``pearl_harbor``) keeps its own campaign around these.
"""
