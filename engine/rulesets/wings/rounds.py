"""The rounds a Wings turn is made of on the seam, the fields each asks, and when each
field's choice opens; with the prefixes by which an option's detail names the words the
presenter gives it."""

from __future__ import annotations

import engine.rulesets.wings.behaviours as behaviours
import engine.rulesets.wings.dam as dam_rules
import engine.rulesets.wings.flak_fields as flak_rules
import engine.rulesets.wings.sequence_seal as sequence_seal
from engine.ruleset import FieldSpec, RoundSpec, SideSpec

SIDES = (
    SideSpec("entente", {"en": "Entente", "fr": "Entente"}, "#2e6db4"),
    SideSpec("central", {"en": "Central Powers", "fr": "Empires centraux"}, "#7a4a1e"),
)
PROGRAM, REORDER, SWAP, DEBRIEF = "program", "reorder", "swap", "debrief"
# ``swap`` (seed D.VII.a) exists only in a turn where an Ace of Aces may change his last
# card: ``reorder`` then flies two maneuvers and ``swap`` the third, closing the turn.
ROUNDS = (
    RoundSpec(PROGRAM),
    RoundSpec(REORDER, closes_turn=True),
    RoundSpec(SWAP, closes_turn=True, optional=True),
    RoundSpec(DEBRIEF, True),
    # DB 6: a Dambuster turn stopped at night for the crew's pick of two C cards (as often
    # as a gun asks); the last one closes the turn.
    RoundSpec(dam_rules.NIGHT, closes_turn=True, optional=True),
)
WINCH_FIELD = "winch"  # one field a side: every set of its balloons fits a select
PURCHASE_FIELD = "purchase"  # one field a side: the squadron's purchases (seed E/F)
# A plane's program is a field of its own, ``program:<plane id>`` (a per-unit family):
# the panel shows one for each plane asked, however many fly. A pursuer's reordered
# program and an Ace's last card are programs too: all open when the turn ends, which the
# ``swap`` round may put after ``reorder``.
PROGRAM_FIELD = "program"
FIELDS = tuple(
    FieldSpec(PROGRAM_FIELD, kind, opens="turn-end", per_unit=True)
    for kind in (PROGRAM, REORDER, SWAP)
)
# A Dambuster raid's Lancaster on the table, and Gibson's beside it (DB 8.e): one each.
FIELDS += tuple(
    FieldSpec(name, kind, opens="turn-end")
    for name in (dam_rules.FIELD, dam_rules.ESCORT_FIELD)
    for kind in (PROGRAM, REORDER)
)
# A Knight's or an Artist's standing order (seed D.VI), sealed with the programs: the
# engine's own field, ``order:<plane id>``.
ORDER_FIELD = behaviours.ORDER_PREFIX.rstrip(":")
FIELDS += (FieldSpec(ORDER_FIELD, PROGRAM, opens="turn-end", per_unit=True),)
# Seed A.IV.h: the flak gunner's order, his side's until the campaign ends: a shell may
# wait into the next turn, so the turn's end must not tell where. (A second battery's
# field, ``flak2``..., is undeclared: it opens then too.)
FIELDS += (FieldSpec(flak_rules.FIELD, PROGRAM, opens="campaign-end"),)
# Seed E/F: a squadron's purchases are its secret until the campaign ends.
FIELDS += (FieldSpec(PURCHASE_FIELD, DEBRIEF, opens="campaign-end"),)
# Seed A.IV.i.3: the balloon owner's winch order, secret until the turn flies.
FIELDS += (FieldSpec(WINCH_FIELD, PROGRAM, opens="turn-end"),)
# DB 6: the crew's night card; the pick is played, and both cards told, when it resolves.
FIELDS += (FieldSpec(dam_rules.NIGHT, dam_rules.NIGHT),)
QUICK_PICKS = 8  # a short select beside the Write button: never a whole menu of programs
NOTHING = "none"  # a select option cannot be empty; the engine's "buy nothing" is ""
SWAP_WORDS = "ace-swap."  # an option detail so prefixed names a ``wings.ace-swap`` string
EXIT_WORDS = "exit."  # an option detail so prefixed names a ``wings.exit`` string (A.IV.c)
ORDER_WORDS = "order."  # ... a ``wings.order`` string: a standing order (seed D.VI)
SUN_WORDS = "sun."  # ... a ``wings.sun`` string: enter out of the sun or wait (seed F.VI.e)
WINCH_WORDS = "winch."  # ... a ``wings.winch`` string: keep flying or haul down (A.IV.i.3)
RELEASE_WORDS = "bomb-release."  # an option detail so prefixed names a ``wings`` string
PISTOL_WORDS = "pistol."  # likewise for the pistol shot: "pistol.2.ready"

# A program flown blind in the clouds, or by a plane at their edge that could go in during
# the turn (seed B.V), reaches the seam sealed: its option id is a digest of the program
# under the plane's secret salt, so the orders opened at the turn's end say nothing of where
# the plane went. Only its own side's menu pairs each with its cards.
SEALED = "cloud-"
# Seed A.I.b, C: a program beginning a complex maneuver it finishes next turn, and every
# program flying cards that could begin one, opens as its cards and a seal
# (engine.rulesets.wings.sequence_seal): what is owed stays its side's until flown.
SEQUENCE_MARK = sequence_seal.MARK
