"""Game systems as rulesets: one package each, behind ``engine.ruleset.Rules``.

The ZERO! strike rules (15.0-23.0: dogfights, flak, bombing) live in ``engine/`` itself,
shared by the ZERO! campaign systems; a ruleset package holds one campaign system's loop.
"""
