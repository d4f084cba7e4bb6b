"""Wings of War (issue 15) as a ruleset: the engine's campaign behind the common seam.

The seam knows turns made of a fixed list of round kinds, fields of declared families, one
option list or written text per field, and events labelled by who may see them. A Wings
campaign is shaped differently; these modules map it:

- ``rules``: ``WingsRules``, the seam's entry points, each handing over to one of these.
- ``stored``: the campaign as the seam stores it (``WingsState``) and the round it stands
  at. A seam turn is one Wings game turn (three maneuvers) or one debrief; its number is a
  counter kept there, so every round has its own (turn, kind) and its own random stream.
- ``rounds``: the rounds (``program``, ``reorder``, ``swap``, ``debrief``, a raid's
  ``night``), the fields each asks and when each opens.
- ``scenarios``: the authored scenarios and the switches a GM may change.
- ``asked``: what each round asks each side, worded for its panel.
- ``picks``: a plane's quick picks and refused programs, and how a program is stored
  (sealed in the clouds, or as its cards and a seal) and read back.
- ``choices``: a written program checked, and the seam's choices in the engine's names.
- ``resolution``: a round resolved, the briefing the seam has no round for, and the
  engine's events labelled (``events`` gives each kind its label).
- ``seen``: the view the gate builds from what a viewer may see (``state`` labels the
  engine's fields).
"""

from engine.rulesets.wings.picks import quick_picks
from engine.rulesets.wings.rounds import QUICK_PICKS, SEALED, SEQUENCE_MARK
from engine.rulesets.wings.rules import WingsRules
from engine.rulesets.wings.scenarios import FIRST_MISSION, SCENARIO_RULES, SCENARIOS
from engine.rulesets.wings.seen import WingsView
from engine.rulesets.wings.stored import WingsState

__all__ = [
    "FIRST_MISSION",
    "QUICK_PICKS",
    "SCENARIOS",
    "SCENARIO_RULES",
    "SEALED",
    "SEQUENCE_MARK",
    "WingsRules",
    "WingsState",
    "WingsView",
    "quick_picks",
]
