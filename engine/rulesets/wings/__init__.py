"""Wings of War (issue 15) as a ruleset: ``campaign`` behind the common seam.

The seam knows turns made of a fixed list of round kinds, fields with fixed names, one
option list per field and public events. The Wings campaign is shaped differently, so this
module maps it:

- **Turns.** A seam turn is one Wings game turn (three maneuvers) or one debrief. Its
  number is a counter kept here (``WingsState.turn``), so every round of the campaign has
  its own (turn, kind) and therefore its own random stream.
- **Rounds.** A flying turn is ``program`` (every plane's three cards, sealed) then
  ``reorder``, which flies the turn and closes it. In ``reorder`` only a pursuer that tails
  an enemy decides (it has seen the enemy's first card); without a pursuit the round has
  no decisions, and the service plays it at once (a side asked nothing is locked for it).
  It always exists because the seam fixes which round closes a turn: if ``program``
  closed it, the programs would open at its reveal, before the pursuer reorders, and the
  pursuer would see the whole enemy program instead of its first card. ``debrief``
  (skills, wounded pilots, purchases) is a turn of its own.
- **Briefing.** The seam has no briefing round, so the briefing is resolved here: the first
  mission's type comes from the scenario (in ``new``, with the seed); each later one is
  chosen by the next active squadron in the debrief round (field ``mission``), and the
  briefing runs with the debrief's stream (the debrief itself draws nothing). The first
  briefing's public events are the ruleset's ``opening``: logged as the campaign is created.
- **Fields.** Wings names fields after planes and pilots ("P3", "skill:P3"); the seam's
  are fixed strings shared by both sides. A side's planes in a mission are numbered
  ``plane1``, ``plane2``... in id order (stable for the whole mission); skills and wounds
  likewise ``skill1``..., ``wound1``...; ``purchase`` is one field.
- **Options.** A program is three cards out of about twenty, too many to list; the menu
  offers up to ``MAX_PROGRAMS`` legal programs (the default first, then one opening with
  each legal card) and the refused opening cards as excluded, with the engine's reason.
- **Events.** Engine events marked ``secret_for`` a side (its own damage cards, jams, the
  first card a pursuer saw, purchases) come out labelled its side's own; every other
  event takes its kind's label (``engine.rulesets.wings.events``): a kind not listed public
  there is sealed until the campaign ends.
- **Views.** The state's fields carry their labels (``engine.rulesets.wings.state``); the gate keeps
  what a viewer may see and ``engine.rulesets.wings.seen`` builds the view from that.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict

import engine.rulesets.wings.behaviours as behaviours
import engine.rulesets.wings.bombing as bombing
import engine.rulesets.wings.campaign as wings
import engine.rulesets.wings.dam as dam_rules
import engine.rulesets.wings.dambuster as db
import engine.rulesets.wings.flak_fields as flak_rules
import engine.rulesets.wings.front as front
import engine.rulesets.wings.landing as landing
import engine.rulesets.wings.legacy as legacy
import engine.rulesets.wings.pistol as pistol
import engine.rulesets.wings.purchase as purchase
import engine.rulesets.wings.seen as seen
import engine.rulesets.wings.sequence_seal as sequence_seal
import engine.rulesets.wings.sequences as sequences
import engine.rulesets.wings.winch as winch
import engine.rulesets.wings.written as written
from engine.rng import Rng
from engine.ruleset import (
    Decision,
    Event,
    Excluded,
    FieldSpec,
    HistorySplit,
    Option,
    Progress,
    Refusal,
    RoundSpec,
    Rules,
    ScenarioSpec,
    SideSpec,
    StoredInRows,
    SwitchSpec,
    unit_field,
    unit_of,
)
from engine.rulesets.wings.balloons import rocket_programs
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.events import SIGHTS
from engine.rulesets.wings.program import (
    check_program,
    legal_first_cards,
    parse_program,
    program_text,
)
from engine.rulesets.wings.reinforce import reinforce_decision
from engine.rulesets.wings.seen import WingsView
from engine.rulesets.wings.state import SIDES as WINGS_SIDES
from engine.rulesets.wings.state import (
    CampaignState,
    MissionRules,
    MissionState,
    PlaneState,
    Program,
)
from engine.rulesets.wings.written import rescuer
from engine.sight import Derived, Eyes, Public, Sealed, own

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
FIELDS += (FieldSpec("purchase", DEBRIEF, opens="campaign-end"),)
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

Stage = Literal["program", "reorder", "swap", "debrief", "ended", "night"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WingsState(_Model):
    """The engine's campaign state plus what the mapping needs: the seam turn and the
    programs sealed in ``program`` and held until ``reorder`` flies them."""

    scenario: Public[str]
    turn: Public[int] = 1
    campaign: Public[CampaignState | None] = None  # a squadron campaign...
    dam: Public[db.DamState | None] = None  # ...or a Dambuster raid
    held: Sealed[dict[str, str]] = {}  # plane id -> program text, sealed until the turn flies
    # Seam turn -> the mission whose last turn it flew: the turn's closing round posts that
    # mission's report.
    reports: Public[dict[int, int]] = {}
    # The first briefing is played inside ``new`` (see the module note); its public events
    # wait here until the service logs them with the campaign's creation, and go with the
    # first round.
    opening: list[Event] = []
    # Wings rules 13 and before sealed the flak orders, equipment and purchases as digests
    # and kept here what each stood for; a snapshot of those days still holds them. Nothing
    # writes them now: those fields open with the campaign's end instead.
    flak_opened: Sealed[dict[str, str]] = {}
    kit_opened: Sealed[dict[str, str]] = {}
    buy_opened: Sealed[dict[str, str]] = {}
    # Plane id -> the program it was last given, offered again as a quick pick on its own
    # side's panel (``pending``); no view needs it.
    flown: Sealed[dict[str, str]] = {}

    @property
    def camp(self) -> CampaignState:
        assert self.campaign is not None, "a Dambuster raid has no squadron campaign"
        return self.campaign


# --- scenarios (authored, see docs/wings-data.md) -------------------------------------------


def _pilot(name: str, behaviour: str, plane: str) -> wings.PilotSetup:
    return wings.PilotSetup(name=name, behaviour=behaviour, plane=plane)


# The first mission of each scenario (authored): the later ones are chosen at the debrief.
FIRST_MISSION = {"wings-1917": "balloon", "wings-1918": "bombing"}

SCENARIOS: dict[str, tuple[str, str, int, dict[SideName, wings.SquadronSetup]]] = {
    "wings-1917": (
        "Autumn 1917: two pilots a side",
        "1917-09",
        3,
        {
            "entente": wings.SquadronSetup(
                name="No. 56 Squadron",
                players=2,
                pilots=(
                    _pilot("Albert Ball", "hothead", "nieuport17"),
                    _pilot("Cecil Lewis", "knight", "spad7"),
                ),
            ),
            "central": wings.SquadronSetup(
                name="Jasta 11",
                players=2,
                pilots=(
                    _pilot("Kurt Wolff", "soldier", "albatros_d3"),
                    _pilot("Karl Allmenröder", "opportunist", "albatros_d3"),
                ),
            ),
        },
    ),
    "wings-1918": (
        "Summer 1918: three pilots a side",
        "1918-06",
        3,
        {
            "entente": wings.SquadronSetup(
                name="SPA 3",
                players=2,
                pilots=(
                    _pilot("Georges Guynemer", "knight", "se5a"),
                    _pilot("René Dorme", "soldier", "se5a"),
                    _pilot("Albert Deullin", "guardian_angel", "se5a"),
                ),
            ),
            "central": wings.SquadronSetup(
                name="Jasta 2 Boelcke",
                players=2,
                pilots=(
                    _pilot("Otto Bernert", "soldier", "albatros_d5"),
                    _pilot("Hermann Frommherz", "hothead", "albatros_d5"),
                    _pilot("Paul Bäumer", "artist", "albatros_d5"),
                ),
            ),
        },
    ),
}


# Scenario switches for the optional rules (B, and the flak option of A.IV.h): a scenario
# not listed plays them all. "Base rules only" keeps the A rules (tailing included).
BASE_RULES_ONLY = MissionRules(
    collisions=False,
    friendly_collisions=False,
    dive_shot=False,
    fire_prohibition=False,
    shot_down_rule=False,
    doubled_specials=False,
    flak_near=False,
    ammunition=False,
    twin_guns=False,
    real_ceiling=False,
    come_back=False,
)
SCENARIOS["wings-1917-basic"] = (
    "Autumn 1917, base rules only (optional rules off)",
    *SCENARIOS["wings-1917"][1:],
)
FIRST_MISSION["wings-1917-basic"] = FIRST_MISSION["wings-1917"]
# Seed F.III.c-d and F.I: a longer campaign where the major objectives matter, the enemy
# airfield bombed ends it (the F.III.d option) and the period's side starts with its 1D10
# (I.I, the digest's tentative reading). Authored scenario: 1917's squadrons, six missions.
# Each squadron adds a two-seater crew, without which no major objective can be
# photographed (seed E.I.a).
_FRONT = SCENARIOS["wings-1917"][3]
SCENARIOS["wings-1917-front"] = (
    "Autumn 1917, the long campaign: period bonus, the airfield decides",
    SCENARIOS["wings-1917"][1],
    6,
    {
        "entente": _FRONT["entente"].model_copy(
            update={
                "pilots": (
                    *_FRONT["entente"].pilots,
                    _pilot("Andrew McKeever", "soldier", "bristol_f2b"),
                )
            }
        ),
        "central": _FRONT["central"].model_copy(
            update={
                "pilots": (
                    *_FRONT["central"].pilots,
                    _pilot("Friedrich Huffzky", "soldier", "halberstadt_cl2"),
                )
            }
        ),
    },
)
# It opens on the first step against a major objective (seed F.III.c): photographing the
# enemy's railway station, which the next mission may bomb.
FIRST_MISSION["wings-1917-front"] = "photography:station"
CAMPAIGN_SWITCHES: dict[str, dict[str, bool]] = {
    "wings-1917-front": {"airfield_assault": True, "period_bonus": True},
}
# Seed B.V's cloud cover is "by agreement": the full-rules scenarios agree to it, and to
# the sun position (F.VI.e, which replaces the efficient alert of F.VI.d, played only by the
# balloons' surveillance role, below). Summer 1918 is flown over the hills (seed F.V's
# relief, relief.py).
SCENARIO_RULES: dict[str, MissionRules] = {
    "wings-1917": MissionRules(cloud_cover=True, sun=True),
    "wings-1918": MissionRules(cloud_cover=True, sun=True, relief=True),
    "wings-1917-basic": BASE_RULES_ONLY,
    # Seed A.IV.i.2: the long campaign's balloons hang a protective ring, not a barrage.
    "wings-1917-front": MissionRules(cloud_cover=True, net_shape="ring"),
}
# Seed A.IV.i's optional strategic roles of balloons: 1917's squadrons opening on balloon
# busting, each balloon mission given a role. No sun: F.VI.d's efficient alert, which the
# surveillance role grants, is the rule the sun position replaces.
SCENARIOS["wings-1917-balloons"] = (
    "Autumn 1917, balloons with strategic roles",
    *SCENARIOS["wings-1917"][1:],
)
FIRST_MISSION["wings-1917-balloons"] = "balloon"
SCENARIO_RULES["wings-1917-balloons"] = MissionRules(cloud_cover=True, balloon_roles=True)
# Seed F.VI.e, K.1: the Eastern Front, summer 1917 (the Kerensky offensive), authored: a
# Russian corps detachment against an Austro-Hungarian company, the 1917 squadrons' planes
# and behaviours, so only the front and the season differ. The sun is played, and in
# medium cloudiness too (the missions flown above the layer, front).
SCENARIOS["wings-1917-east"] = (
    "Summer 1917 on the Eastern Front: the sun's sides swapped",
    "1917-07",
    3,
    {
        "entente": wings.SquadronSetup(
            name="19th Corps Air Detachment",
            players=2,
            pilots=(
                _pilot("Alexander Kazakov", "hothead", "nieuport17"),
                _pilot("Ivan Smirnov", "knight", "spad7"),
            ),
        ),
        "central": wings.SquadronSetup(
            name="Flik 41J",
            players=2,
            pilots=(
                _pilot("Godwin Brumowski", "soldier", "albatros_d3"),
                _pilot("Frank Linke-Crawford", "opportunist", "albatros_d3"),
            ),
        ),
    },
)
FIRST_MISSION["wings-1917-east"] = "balloon"
SCENARIO_RULES["wings-1917-east"] = MissionRules(cloud_cover=True, sun=True, sun_above_clouds=True)
SCENARIO_FRONT: dict[str, str] = {"wings-1917-east": "eastern"}
# The switches a GM may set on ``/campaign new`` (seed K.1's optional rules and front), in
# the order they are shown: the campaign's own first, then every optional mission rule.
CAMPAIGN_FLAGS = ("airfield_assault", "period_bonus")
FIRST_FLAGS = ("sun", "sun_above_clouds")
ON, OFF = "on", "off"
# Mission rules that are not on/off, with the values a GM may give them.
_CHOICE_RULES: dict[str, tuple[str, ...]] = {
    name: tuple(str(v) for v in get_args(field.annotation))
    for name, field in MissionRules.model_fields.items()
    if field.annotation is not bool
}

# A program flown blind in the clouds, or by a plane at their edge that could go in during
# the turn (seed B.V), reaches the seam sealed: its option id is a digest of the program
# under the plane's secret salt, so the orders opened at the turn's end say nothing of where
# the plane went. Only its own side's menu pairs each with its cards.
SEALED = "cloud-"
# Seed A.I.b, C: a program beginning a complex maneuver it finishes next turn, and every
# program flying cards that could begin one, opens as its cards and a seal
# (engine.rulesets.wings.sequence_seal): what is owed stays its side's until flown.
SEQUENCE_MARK = sequence_seal.MARK

# --- mapping helpers -----------------------------------------------------------------------


def _slots(mission: MissionState) -> dict[str, str]:
    """Plane id -> its number on the board ("plane2": the side's second plane), per side,
    as the view draws the table; a reinforcement takes the number of the plane it was sent
    for. Fields are no longer numbered: each plane's is ``program:<its id>``."""
    return legacy.plane_slots(mission)


def _seam_field(decision: Any) -> str:
    """A flying round's engine field -> its seam field: a plane's decision (its program,
    or what stands for it: a come-back, a reinforcement, the sun) is ``program:<id>``; a
    standing order keeps the engine's ``order:<id>``."""
    if decision.field.startswith(behaviours.ORDER_PREFIX):
        return str(decision.field)
    return unit_field(PROGRAM_FIELD, decision.field)


RELEASE_WORDS = "bomb-release."  # an option detail so prefixed names a ``wings`` string
PISTOL_WORDS = "pistol."  # likewise for the pistol shot: "pistol.2.ready"


def _pistol_detail(plane: PlaneState, program: str) -> str:
    """Seed D.VIII: on the owner's panel only, whether the shot can go (and why not)."""
    _cards, after = pistol.split(program)
    if after is None:
        return ""
    return f"{PISTOL_WORDS}{after}.{pistol.why_not(plane) or 'ready'}"


def _pistol_refused(
    catalog: Catalog, plane: PlaneState, mission: MissionState
) -> tuple[Excluded, ...]:
    """Seed D.VI: a Knight near an enemy is told why his menu has no pistol shot."""
    if plane.behaviour != "knight" or not pistol.offered(
        plane, list(mission.planes.values()), catalog.rules.units.ruler
    ):
        return ()
    return (Excluded(id=pistol.WORD, label=pistol.WORD, reason="knight-refuses"),)


def _release_detail(program: str) -> str:
    """Seed A.IV.e: a program announcing its bomb release says when on the owner's panel."""
    _cards, release = bombing.split(program)
    if release is None:
        return ""
    return f"{RELEASE_WORDS}{bombing.HOLD if release == bombing.HOLD_RELEASE else release}"


def _worded(d: Any, field: str, words: str, label: str = "") -> Decision:
    """An engine choice whose every option's detail names a locale key's tail (``words`` +
    its id), for the presenter to word."""
    options = tuple(Option(id=o.id, label=o.label, detail=f"{words}{o.id}") for o in d.options)
    return Decision(side=d.side, field=field, options=options, default=d.default, label=label)


def _deck_secret(mission: MissionState) -> str:
    """A digest of the damage decks' order, a secret of the GM's alone (the view strips the
    decks from both sides)."""
    decks = json.dumps({k: list(d.pile) for k, d in sorted(mission.decks.items())})
    return hashlib.sha256(decks.encode()).hexdigest()


class _Seal:
    """Seals one plane's program options as the orders will open (``sequence_seal``); the
    decks' digest is taken once, and only if an option needs it."""

    def __init__(self, catalog: Catalog, mission: MissionState, plane: PlaneState) -> None:
        self.catalog, self.mission, self.plane = catalog, mission, plane
        self.deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
        self._secret: str | None = None

    def secret(self) -> str:
        if self._secret is None:
            self._secret = _deck_secret(self.mission)
        return self._secret

    def id(self, program: str) -> str | None:
        return sequence_seal.sealed(
            self.catalog, self.deck, self.secret, self.plane, self.mission.turn, program
        )

    def unseal(self, value: str) -> str | None:
        """The program a seal of ``id`` stands for: the cards it shows, declaring nothing
        or any complex maneuver from any card (each asked until one seals the same)."""
        shown = parse_program(value.partition(SEQUENCE_MARK)[0])
        candidates = [shown] + [
            shown.model_copy(update={"maneuver": name, "start": start})
            for name in sorted(self.catalog.complex)
            for start in range(len(shown.cards))
        ]
        for program in candidates:
            text = program_text(program)
            if self.id(text) == value:
                return text
        return None

    def option(self, option: Option) -> Option:
        """The option sealed when its cards could begin a straddling maneuver; a program
        that does begin one keeps it in its detail, for its own side's panel."""
        sealed = self.id(option.id)
        if sealed is None:
            return option
        label = sealed.partition(SEQUENCE_MARK)[0]
        detail = option.id if ":" in option.id else option.detail
        return Option(id=sealed, label=label, detail=detail)


def _landing_refused(
    catalog: Catalog, plane: PlaneState, mission: MissionState
) -> tuple[Excluded, ...]:
    """The landing a rescuer or a seriously wounded pilot cannot fly yet, with the reason."""
    wanted = rescuer(catalog, plane, mission) or landing.must_land(catalog, plane)
    if not wanted or plane.status != "flying":
        return ()
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    program = Program(cards=landing.cards_of(deck, landing.LAND), maneuver=landing.LAND)
    reasons = landing.check(catalog, plane, program, mission.turn)
    if not reasons:
        return ()
    return (Excluded(id=program_text(program), label=program_text(program), reason=reasons[0]),)


def _rockets_refused(
    catalog: Catalog, plane: PlaneState, mission: MissionState
) -> tuple[Excluded, ...]:
    """A plane with rockets aboard that can fly no rocket attack this turn: why not."""
    attacks = rocket_programs(catalog, plane)
    refusals = [check_program(catalog, plane, a, mission.rules, mission.turn) for a in attacks]
    if not attacks or any(not refused for refused in refusals):
        return ()
    text = program_text(attacks[0])
    return (Excluded(id=text, label=text, reason=refusals[0][0].reason),)


# --- the rules -----------------------------------------------------------------------------


class WingsRules(StoredInRows[WingsState], Rules[WingsState, WingsView]):
    stored = HistorySplit(WingsState, ("campaign", "history"))
    key = "wings"
    # 2: mission types beyond the patrol (the scenarios open with one; the debrief chooses
    # the next), objectives in the mission record.
    # 3: balanced mission generator: a recon mission has four sites, a photo site lies on
    # the no-man's-land side of the border, a recon site half a ruler inside (authored).
    # 4: Sharpshooter, Killer and Expert's eye played (they spend tokens other skills used);
    # optional rules B.II, B.IV, B.V (floor) and B.IX jams on by default; rockets and balloon
    # cables; the number of objectives and the rescue mission chosen at the debrief.
    # 5: ground element ids as short codes (c-I1); B.IX halves a single gun after two green
    # jams (it used to jam); a plane and a balloon collide (A.IV.i); a plane may land on its
    # own airfield in any mission (B.I.a); two balloons or more hang a barrage net (A.IV.i.2).
    # 6: a mission against objectives goes on while the aggressor flies (the defenders gone,
    # it ends once every objective is achieved); its winner is the aggressor who achieved
    # them, the defender who held both them and the air, else a draw (E.I.a, E.III.a); a
    # reconnaissance pass is measured to the site's card, as every range; the flak battery,
    # trenches and CAA posts keep within R/2 of the border and R/2 clear of each other and
    # of the objectives (E.I.b, E.II.c).
    # 7: a seriously wounded pilot must land within two full turns or go down (D.V, B.VIII,
    # J 3); a plane taking off away from a strip takes 2 B cards (B.I.b); cloud cover (B.V)
    # agreed in wings-1917 and wings-1918, programs at the clouds' edge and in them sealed;
    # a pilot killed by an Excellent shot's point goes down (he flew on).
    # 8: an Ace of Aces may change his last card after the second maneuver (D.VII.a): the
    # turn then flies its third maneuver in a round of its own (``swap``), with its stream.
    # 9: the accidental exit's come-back, reinforcements, behaviour powers, equipment, major
    # objectives, the sun, the announced bomb release and the flak gunner (docs/wings-data.md).
    # 10: the first briefing's events (and the period bonus, the first sun) are told when the
    # campaign is created, not with its first turn; the rules of docs/wings-data.md played
    # since wings rules 9.
    # 11: the Dambuster crew's own night pick (a ``night`` round), an order that may begin a
    # two-turn maneuver opened as its cards and a seal, a plane coming back over relief set
    # above its floor, GM switches changed before the start, sealed picks opened at the end.
    # 12: a flight briefed on a balloon net comes in over it, its reinforcements too
    # (``net_entry``); enemy-zone defences placed by that zone's rule; a pilot
    # whose plane type is lost flies a spare of the same seating (``hangar``);
    # debrief purchases sealed until the campaign ends (``purchase_seal``); the strafing
    # mission offered at the briefing (``strafing``); victories confirmed at
    # the debrief (``confirmation``: the record only, no outcome changes).
    # 13: no digest seals: the flak gunner's orders, equipment and purchases are the items
    # themselves, their fields opening with the campaign's end (the receipts of their rounds
    # with them); each phase's planes written down as their side's sealed record.
    # 14: a patrol succeeds only if one of its planes came home, flying or off the table
    # over its own edge (seed E.I.a, F.III.a); one gone over the enemy's edge fled.
    # 15: a campaign decided at a mission's end ends there, without a debrief nobody needs
    # (the winner and the scores are those the debrief led to before).
    version = "15"
    sides = SIDES
    rounds = ROUNDS
    fields = FIELDS

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._derived: tuple[Derived, ...] | None = None

    def scenarios(self) -> Mapping[str, ScenarioSpec]:
        # The seam counts turns; a Wings campaign's length is in missions, each at most
        # ``max_turns`` flying turns and a debrief, so the spec gives that upper bound.
        per_mission = MissionState.model_fields["max_turns"].default + 1
        specs = {
            key: ScenarioSpec(key, name, missions * per_mission)
            for key, (name, _date, missions, _setup) in SCENARIOS.items()
        }
        for key, (name, _kind) in dam_rules.DAM_SCENARIOS.items():
            # The raids are a game of their own now (``raid.DambusterRules``, one player
            # against the bot's defences); those begun as Wings campaigns play on here.
            specs[key] = ScenarioSpec(key, name, dam_rules.turns(key), offered=False)
        return specs

    def switches(self, scenario: str) -> Sequence[SwitchSpec]:
        if scenario in dam_rules.DAM_SCENARIOS:
            return ()  # a Dambuster raid has no squadron campaign to switch
        rules = SCENARIO_RULES.get(scenario) or MissionRules()
        camp = CAMPAIGN_SWITCHES.get(scenario, {})
        flags = [(name, getattr(rules, name)) for name in FIRST_FLAGS]
        flags += [(name, camp.get(name, False)) for name in CAMPAIGN_FLAGS]
        flags += [
            (name, getattr(rules, name))
            for name in MissionRules.model_fields
            if name not in FIRST_FLAGS and name not in _CHOICE_RULES
        ]
        front_spec = SwitchSpec("front", front.FRONTS, SCENARIO_FRONT.get(scenario, "western"))
        # A mission rule with named values (the net's shape, seed A.IV.i.2) offers those.
        choices = [
            SwitchSpec(name, values, str(getattr(rules, name)))
            for name, values in _CHOICE_RULES.items()
        ]
        return (
            front_spec,
            *(SwitchSpec(n, (ON, OFF), ON if v else OFF) for n, v in flags),
            *choices,
        )

    def new(self, scenario: str, seed: str) -> WingsState:
        return self.new_switched(scenario, seed, {})

    def new_switched(self, scenario: str, seed: str, switches: Mapping[str, str]) -> WingsState:
        if scenario in dam_rules.DAM_SCENARIOS:
            if switches:
                raise ValueError("a Dambuster raid declares no switches")
            return WingsState(scenario=scenario, dam=dam_rules.new_raid(scenario))
        _name, date, missions, setup = SCENARIOS[scenario]
        specs = {spec.name: spec for spec in self.switches(scenario)}
        for name, value in switches.items():
            if name not in specs or value not in specs[name].values:
                raise ValueError(f"switch {name}={value} is not one of {scenario}'s")
        given = {name: switches.get(name, spec.default) for name, spec in specs.items()}
        rules = MissionRules.model_validate(
            {
                n: given[n] if n in _CHOICE_RULES else given[n] == ON
                for n in MissionRules.model_fields
            }
        )
        state = wings.new_campaign(
            self.catalog,
            seed,
            dict(setup),
            date=date,
            missions=missions,
            rules=rules,
            **{n: given[n] == ON for n in CAMPAIGN_FLAGS},
        )
        # Seed K.1: the front, before the first briefing so its mission is fought there.
        state = state.model_copy(update={"front": given["front"]})
        # The first briefing has no real choice (see the module note); its stream is one no
        # round uses, since seam turns start at 1.
        first = FIRST_MISSION.get(scenario, "patrol")
        state, events = self._brief(state, Rng(seed, 0, "briefing"), first)
        bonus = state.period_bonus  # seed F.I: drawn before the first briefing
        told = [] if bonus is None else [Event(kind="period-bonus", turn=1, data=dict(bonus))]
        return WingsState(
            scenario=scenario, campaign=state, opening=[*told, *self._public(1, events)]
        )

    def opening(self, state: WingsState) -> list[Event]:
        return list(state.opening)

    def _brief(
        self, state: CampaignState, rng: Rng, kind: str = "patrol"
    ) -> tuple[CampaignState, list[Any]]:
        if state.phase != "briefing":
            return state, []
        choices = wings.defaults(wings.pending(self.catalog, state))
        if wings.mission_decision(self.catalog, state).allows(kind):
            choices[state.active]["mission"] = kind
        return wings.resolve(self.catalog, state, choices, rng)

    def _stage(self, state: WingsState) -> Stage:
        if state.dam is not None:
            if state.dam.finished:
                return "ended"
            if state.dam.night_pick is not None:
                return "night"
            return "reorder" if state.held else "program"
        campaign = state.camp
        if campaign.phase == "ended":
            return "ended"
        if campaign.phase == "debrief":
            return "debrief"
        assert campaign.mission is not None
        if campaign.mission.round == "swap":
            return "swap"
        if state.held or campaign.mission.round == "reorder":
            return "reorder"
        return "program"

    # -- pending

    def pending(self, state: WingsState) -> list[Decision]:
        stage = self._stage(state)
        if state.dam is not None:
            return dam_rules.pending(self.catalog, state.dam, stage)
        campaign = state.camp
        if stage == "ended":
            return []
        engine_decisions = wings.pending(self.catalog, campaign)
        if stage == "debrief":
            return self._debrief_decisions(campaign, engine_decisions)
        mission = campaign.mission
        assert mission is not None
        if stage == "swap":
            # Only the Ace's side is asked: keep his last card or fly another. The detail is
            # a locale key's tail (``wings.ace-swap.keep``), for the presenter to word. Its
            # programs are sealed as in the program round: keeping a maneuver begun late
            # must open like keeping the same cards flown plainly (seed A.I.b).
            swaps = []
            for d in engine_decisions:
                seal = _Seal(self.catalog, mission, mission.planes[d.field])
                kept_or_changed = []
                for o in d.options:
                    token = seal.id(o.id)
                    label = o.label if token is None else token.partition(SEQUENCE_MARK)[0]
                    detail = f"{SWAP_WORDS}{o.detail}"
                    kept_or_changed.append(Option(id=token or o.id, label=label, detail=detail))
                swaps.append(
                    Decision(
                        side=d.side,
                        field=_seam_field(d),
                        label=self._label(campaign, mission.planes[d.field]),
                        options=tuple(kept_or_changed),
                        excluded=tuple(
                            Excluded(id=e.id, label=e.label, reason=e.reason) for e in d.excluded
                        ),
                        default=seal.id(d.default) or d.default,
                    )
                )
            return swaps
        if stage == "reorder":
            if mission.round != "reorder":
                return []  # no pursuit this turn: the round only flies the held programs
            # A program owing cards next turn is only kept; every order is sealed as in
            # the program round, so keeping it opens the same.
            reorders = []
            for d in engine_decisions:
                seal = _Seal(self.catalog, mission, mission.planes[d.field])
                reorders.append(
                    Decision(
                        side=d.side,
                        field=_seam_field(d),
                        label=self._label(campaign, mission.planes[d.field]),
                        options=tuple(
                            seal.option(Option(id=o.id, label=o.label, detail=d.detail))
                            for o in d.options
                        ),
                        default=seal.id(d.default) or d.default,
                    )
                )
            return reorders
        decisions = []
        flak_fields = flak_rules.fields(mission)
        for d in engine_decisions:
            if d.kind == "flak":
                who = {pid: self._label(campaign, p) for pid, p in mission.planes.items()}
                decisions.append(flak_rules.flak_decision(d, flak_fields[d.field], who))
                continue
            if d.kind == "winch":
                # Seed A.IV.i.3: "winch.keep" or "winch.down", for the presenter to word.
                options = tuple(
                    Option(
                        id=o.id,
                        label=o.label,
                        detail=WINCH_WORDS + (winch.KEEP if o.id == winch.KEEP else "down"),
                    )
                    for o in d.options
                )
                decisions.append(
                    Decision(side=d.side, field=WINCH_FIELD, options=options, default=d.default)
                )
                continue
            pid = d.field.removeprefix(behaviours.ORDER_PREFIX)
            label = self._label(campaign, mission.planes[pid])
            if d.kind == "order":
                # Seed D.VI: the detail names a locale key's tail (``wings.order.knight.spare``).
                options = tuple(
                    Option(id=o.id, label=o.label, detail=f"{ORDER_WORDS}{o.detail}.{o.id}")
                    for o in d.options
                )
                decisions.append(
                    Decision(
                        side=d.side,
                        field=_seam_field(d),
                        label=label,
                        options=options,
                        default=d.default,
                    )
                )
                continue
            if d.kind == "comeback":
                # Seed A.IV.c: off the table last turn (``wings.exit.come-back``).
                decisions.append(_worded(d, _seam_field(d), EXIT_WORDS, label))
                continue
            if d.kind == "reinforce":
                decisions.append(reinforce_decision(d, _seam_field(d), label))
                continue
            if d.kind == "sun":
                # Seed F.VI.e: on the first waiting plane's field, which has no program yet.
                decisions.append(_worded(d, _seam_field(d), SUN_WORDS, label))
                continue
            decisions.append(self._program_decision(state, mission, d, label))
        return decisions

    def _label(self, campaign: CampaignState, plane: PlaneState) -> str:
        """A plane in public words, as its panel names its field: "Albert Ball · Nieuport
        17" (a plane without a pilot of the roster by its id)."""
        pilot = campaign.pilots.get(plane.pilot or "")
        kind = self.catalog.planes.get(plane.type)
        who = pilot.name if pilot is not None else plane.id
        return f"{who} · {kind.name}" if kind is not None else who

    def _program_decision(
        self, state: WingsState, mission: MissionState, d: Any, label: str
    ) -> Decision:
        """A plane's program, written (issue 27): any legal program of its deck may be
        typed; a few quick picks stand beside it, each sealed as a written one would be."""
        plane = mission.planes[d.field]
        legal = [o.id for o in d.options]
        picks = quick_picks(
            self.catalog, mission, plane, legal, d.default, state.flown.get(d.field)
        )
        options = tuple(self._stored_option(mission, plane, p) for p in picks)
        return Decision(
            side=d.side,
            field=_seam_field(d),
            input="text",
            label=label,
            options=options,
            excluded=(
                *(Excluded(id=e.id, label=e.label, reason=e.reason) for e in d.excluded),
                *_landing_refused(self.catalog, plane, mission),
                *_rockets_refused(self.catalog, plane, mission),
                *_pistol_refused(self.catalog, plane, mission),
            ),
            default=options[0].id,
        )

    def _stored_option(self, mission: MissionState, plane: PlaneState, program: str) -> Option:
        """A program as the seam stores it: sealed in the clouds (the detail keeps the
        cards for the owner's panel), as its cards and a seal when it could begin a
        maneuver the next turn finishes, else as written."""
        option = Option(
            id=program,
            label=program,
            detail=_release_detail(program) or _pistol_detail(plane, program),
        )
        if plane.cloud_salt:
            sealed = written.seal(plane.cloud_salt, mission.turn, plane.id, program)
            assert sealed is not None, program  # every deck's codes pack
            return Option(id=sealed, label=sealed, detail=program)
        return _Seal(self.catalog, mission, plane).option(option)

    # -- inputs (issue 27): a program written as players write them

    def _plane_of(
        self, state: WingsState, decision: Decision
    ) -> tuple[MissionState, PlaneState] | None:
        if state.campaign is None or state.camp.mission is None:
            return None
        mission = state.camp.mission
        plane = mission.planes.get(unit_of(decision.field))
        return None if plane is None else (mission, plane)

    def read_text(self, state: WingsState, decision: Decision, text: str) -> str | Refusal:
        found = self._plane_of(state, decision) if decision.input == "text" else None
        if found is None:
            return super().read_text(state, decision, text)
        mission, plane = found
        program = self._program_of(mission, plane, text)
        if program is None:
            return Refusal("unknown-option")
        refusals = check_program(
            self.catalog, plane, parse_program(program), mission.rules, mission.turn
        )
        if refusals:
            first = refusals[0]
            where: dict[str, str | int] = {}
            if first.position >= 0 and first.code:
                where = {"at": first.code, "position": first.position + 1}
            return Refusal(first.reason, where)
        if (
            text.startswith(SEALED)
            and written.unseal(plane.cloud_salt, mission.turn, plane.id, text) is None
        ):
            return text  # an older campaign's digest, drafted before this release
        return self._stored_option(mission, plane, program).id

    def text_of(self, state: WingsState, decision: Decision, value: str) -> str:
        found = self._plane_of(state, decision) if decision.input == "text" else None
        if found is None:
            return value
        return self._program_of(*found, value) or value

    def _program_of(self, mission: MissionState, plane: PlaneState, text: str) -> str | None:
        """The program text a stored value or a written text stands for (None for a seal
        that opens to nothing)."""
        if text.startswith(SEALED):
            opened = written.unseal(plane.cloud_salt, mission.turn, plane.id, text)
            if opened is not None:
                return opened
            first = legal_first_cards(self.catalog, plane, mission.rules, mission.turn)[0]
            menu = legacy.program_options(
                self.catalog, plane, mission, [] if plane.status == "landed" else first
            )
            return next((p for p in menu if legacy.menu_seal(plane, mission.turn, p) == text), None)
        if SEQUENCE_MARK in text:
            return _Seal(self.catalog, mission, plane).unseal(text)
        deck = self.catalog.maneuver_decks[self.catalog.planes[plane.type].deck]
        return written.read(deck, text)

    def _debrief_decisions(self, campaign: CampaignState, engine: list[Any]) -> list[Decision]:
        # Each pilot's fields are the engine's own, one per pilot asked ("skill:P3"); the
        # label names him.
        result = []
        # The next active squadron (already known at the debrief) picks the next mission.
        upcoming = (
            wings.mission_decision(self.catalog, campaign)
            if campaign.missions_planned > campaign.mission_number
            else None
        )
        # The panel shows four selects: equipment (safe at "nothing") comes last, so a full
        # debrief cuts it off before the next mission's choice.
        ordered = [d for d in engine if d.kind != "equipment"] + ([upcoming] if upcoming else [])
        ordered += [d for d in engine if d.kind == "equipment"]
        for d in ordered:
            field = d.field
            pilot_id = d.field.partition(":")[2]
            label = campaign.pilots[pilot_id].name if pilot_id in campaign.pilots else ""
            if d.kind == "purchase":
                # Seed E/F: a squadron's purchases are its secret until the campaign ends
                # (the field opens then, and the debrief's receipts with it).
                options = purchase.options(d)
                field, default = "purchase", d.default or NOTHING
            elif d.kind == "equipment":
                # Seed D.VIII: what a pilot buys is his side's secret until the campaign
                # ends (an ``equip`` field is undeclared: it opens then); the detail names
                # the item for the owner's panel.
                options = tuple(
                    Option(id=o.id, label=o.label, detail=f"equipment.{o.id}") for o in d.options
                )
                default = d.default
            elif d.kind == "skill":
                # "Skill 1" alone does not say whose: each option's detail is the pilot's
                # name ("skill:P3" -> P3's), for his side's panel to name him.
                pilot = campaign.pilots[d.field.removeprefix("skill:")].name
                options = tuple(Option(id=o.id, label=o.label, detail=pilot) for o in d.options)
                default = d.default
            elif d.kind == "wound":
                # "Wounded pilot 1" alone does not say who either: the detail names him.
                pilot = campaign.pilots[d.field.removeprefix("wound:")].name
                options = tuple(Option(id=o.id, label=o.label, detail=pilot) for o in d.options)
                default = d.default
            else:
                options = tuple(Option(id=o.id, label=o.label, detail=o.detail) for o in d.options)
                default = d.default
            result.append(
                Decision(
                    side=d.side,
                    field=field,
                    options=options,
                    excluded=tuple(
                        Excluded(id=e.id, label=e.label, reason=e.reason) for e in d.excluded
                    ),
                    default=default,
                    label=label,
                )
            )
        return result

    def _engine_choices(
        self, state: WingsState, choices: Mapping[str, Mapping[str, str]]
    ) -> dict[SideName, dict[str, str]]:
        """The seam's {side: {program:P3: ...}} back in the engine's field names and values."""
        campaign = state.camp
        engine = wings.pending(self.catalog, campaign)
        result: dict[SideName, dict[str, str]] = {side: {} for side in WINGS_SIDES}
        if campaign.phase == "debrief":
            for d in engine:
                seam = "purchase" if d.kind == "purchase" else d.field
                value = choices.get(d.side, {}).get(seam, d.default)
                if d.kind == "equipment":
                    result[d.side][d.field] = value
                    continue
                result[d.side][d.field] = "" if value == NOTHING else value
            return result
        assert campaign.mission is not None
        mission = campaign.mission
        flak_fields = flak_rules.fields(mission)
        for d in engine:
            if d.kind == "flak":
                picked = choices.get(d.side, {}).get(flak_fields[d.field])
                if picked is None:
                    raise wings.IllegalChoice(d.side, d.field, "", "missing")
                result[d.side][d.field] = flak_rules.order_of(d, picked)
                continue
            if d.kind == "winch":
                result[d.side][d.field] = choices.get(d.side, {}).get(WINCH_FIELD, d.default)
                continue
            picked = choices.get(d.side, {}).get(_seam_field(d))
            if picked is None:
                raise wings.IllegalChoice(d.side, d.field, "", "missing")
            plane = mission.planes.get(d.field)
            if plane is not None and (
                (plane.cloud_salt and picked.startswith(SEALED)) or SEQUENCE_MARK in picked
            ):
                # A sealed program back to the one it seals (a written one, a quick pick,
                # or an older campaign's menu digest).
                picked = self._program_of(mission, plane, picked) or picked
            result[d.side][d.field] = picked
        return result

    # -- resolve

    def resolve(
        self, state: WingsState, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[WingsState, list[Event]]:
        stage = self._stage(state)
        if stage == "ended":
            raise wings.IllegalChoice("entente", "phase", "", "campaign-over")
        if legacy.is_old(choices) and state.campaign is not None:
            # Locked before fields were named after their planes (an older export).
            choices = legacy.current_choices(
                choices, state.camp.mission, wings.pending(self.catalog, state.camp)
            )
        # Only legal choices reach the engine: an option of a menu, a program the rules
        # accept (``read_text``) for a written one.
        for decision in self.pending(state):
            value = choices.get(decision.side, {}).get(decision.field)
            refusal = Refusal("missing") if value is None else self.accept(state, decision, value)
            if refusal is not None:
                raise wings.IllegalChoice(decision.side, decision.field, str(value), refusal.reason)
        if state.dam is not None:
            return self._resolve_dam(state, state.dam, stage, choices, rng)
        campaign = state.camp
        if stage == "program":
            engine = self._engine_choices(state, choices)
            state = _remember(state, engine)
            assert campaign.mission is not None
            live = {
                p: t
                for p, t in campaign.mission.pursuits.items()
                if campaign.mission.planes[p].status == "flying"
                and campaign.mission.planes[t].status == "flying"
            }
            if live:
                # The engine seals the programs and waits for the pursuers' reorder; it
                # draws nothing on this path, and its "first card shown" events are secret.
                campaign, events = wings.resolve(self.catalog, campaign, engine, rng)
                return state.model_copy(update={"campaign": campaign, "opening": []}), [
                    *self._public(state.turn, events)
                ]
            held = {pid: value for side in engine.values() for pid, value in side.items()}
            return state.model_copy(update={"held": held, "opening": []}), []
        if stage in ("reorder", "swap"):
            if state.held:
                flown: dict[SideName, dict[str, str]] = {side: {} for side in WINGS_SIDES}
                assert campaign.mission is not None
                for pid, program in state.held.items():
                    flown[behaviours.side_of(campaign.mission, pid)][pid] = program
            else:
                flown = self._engine_choices(state, choices)
            campaign, events = wings.resolve(self.catalog, campaign, flown, rng)
            state = _remember(state, flown)  # a pursuer's reordered program
            if campaign.mission is not None and campaign.mission.round == "swap":
                # Two maneuvers flown; the turn waits on the Aces' last cards (its own round).
                new = state.model_copy(update={"campaign": campaign, "held": {}})
                return new, self._public(state.turn, events)
            reports = dict(state.reports)
            if campaign.phase in ("debrief", "ended"):  # a mission flown: its report posts
                reports[state.turn] = campaign.mission_number
            new = state.model_copy(
                update={
                    "campaign": campaign,
                    "held": {},
                    "turn": state.turn + 1,
                    "reports": reports,
                }
            )
            return new, self._public(state.turn, events)
        engine = self._engine_choices(state, choices)
        chooser = campaign.active
        campaign, events = wings.resolve(self.catalog, campaign, engine, rng)
        # The debrief draws nothing, so its stream is still unused for the next briefing.
        kind = choices.get(chooser, {}).get("mission", "patrol")
        campaign, briefed = self._brief(campaign, rng, kind)
        new = state.model_copy(update={"campaign": campaign, "turn": state.turn + 1})
        return new, self._public(state.turn, [*events, *briefed])

    def _resolve_dam(
        self,
        state: WingsState,
        dam: db.DamState,
        stage: str,
        choices: Mapping[str, Mapping[str, str]],
        rng: Rng,
    ) -> tuple[WingsState, list[Event]]:
        if stage == "program":
            held = dam_rules.sealed(choices.get("entente", {}))
            return state.model_copy(update={"held": held}), []
        if stage == dam_rules.NIGHT:
            orders = choices.get("entente", {})
            dam, events = dam_rules.pick(self.catalog, dam, orders, rng, state.turn)
        else:
            dam, events = dam_rules.fly_held(self.catalog, dam, state.held, rng, state.turn)
        # A turn stopped for the crew's night pick goes on in a round of the same turn.
        going_on = dam.night_pick is not None and not dam.finished
        turn = state.turn if going_on else state.turn + 1
        new = state.model_copy(update={"dam": dam, "held": {}, "turn": turn})
        return new, events

    @staticmethod
    def _public(turn: int, events: list[Any]) -> list[Event]:
        """The engine's events on the seam, each one a side's own secret labelled so (the
        rest take their kind's label, ``engine.rulesets.wings.events``). The maneuver (1-3)
        an event happened in goes with it: the channel draws and tells the turn step by
        step from these events alone."""
        return [
            Event(
                kind=e.kind,
                turn=turn,
                data={
                    **({"mission_turn": e.turn} if e.turn else {}),
                    **({"phase": e.phase} if e.phase else {}),
                    **e.data,
                },
                sight=None if e.secret_for is None else own(),
                owner=e.secret_for,
            )
            for e in events
        ]

    # -- view

    event_sights = SIGHTS

    def derived(self) -> tuple[Derived, ...]:
        # Made once per rules object: its flight paths (``seen.derived``'s memo, a few
        # milliseconds per set of plane types) then outlive one view, as they were meant to.
        if self._derived is None:
            self._derived = seen.derived(self.catalog, WingsState, self._stage, _slots)
        return self._derived

    def project(self, kept: Any, eyes: Eyes) -> WingsView:
        return seen.project(self.catalog, kept, eyes)

    def progress(self, state: WingsState) -> Progress:
        stage = self._stage(state)
        if state.dam is not None:
            return dam_rules.progress(state.dam, state.turn, stage)
        campaign = state.camp
        return Progress(
            turn=state.turn,
            round=DEBRIEF if stage in ("debrief", "ended") else stage,
            finished=stage == "ended",
            winner=campaign.winner,
            vp={side: campaign.squadrons[side].score for side in WINGS_SIDES},
        )

    def resolves_from_snapshot(self, state: WingsState) -> bool:
        return True  # a round appends to the history, and reads none of it

    def view_records(self, state: WingsState) -> int | None:
        # Every record: the board and /status say how long each flown mission lasted, and a
        # campaign holds one record a mission (six at most), so reading them all stays flat.
        return None


def quick_picks(
    catalog: Catalog,
    mission: MissionState,
    plane: PlaneState,
    legal_first: list[str],
    first: str,
    last: str | None = None,
) -> list[str]:
    """A few programs beside the Write button, every one legal now: the default (what a
    missed deadline flies, ``first``), what finishes a maneuver under way, what the plane
    must or may do on the ground, the bomb run and the pistol shot where they serve, the
    plane's ``last`` program, a rocket attack, then common shapes."""
    rules, turn = mission.rules, mission.turn
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    straight = next((c.code for c in deck.cards if c.is_straight), deck.cards[0].code)

    def legal(program: Program) -> bool:
        return not check_program(catalog, plane, program, rules, turn)

    candidates = [first]
    if plane.bombs > 0 and plane.status == "flying" and not parse_program(first).maneuver:
        candidates += bombing.variants(first)  # seed A.IV.e: the release announced
    if legacy.pistol_offered(catalog, plane, mission, first):
        # Seed D.VIII: the pistol shot, offered by public facts alone (the Knight's refusal
        # is public too), so the quick picks tell nothing of a pistol aboard.
        candidates += pistol.variants(first)
    candidates += [program_text(p) for p in sequences.completions(catalog, deck, plane)]
    home = landing.lands_home(catalog, mission, plane)
    down = rescuer(catalog, plane, mission) or landing.must_land(catalog, plane)
    if down or plane.status == "landed" or home:
        candidates += [program_text(p) for p in landing.programs(catalog, plane, turn)]
    if last is not None:
        candidates.append(last)
    if not plane.in_cloud:  # seed A.IV.j: the first rocket attack it can fly now
        attacks = [a for a in rocket_programs(catalog, plane) if legal(a)]
        candidates += [program_text(a) for a in attacks[:1]]
    shapes = [("S", "S", "S"), ("TL", "S", "S"), ("TR", "S", "S"), ("BL", "BL", "S")]
    shapes += [("BR", "BR", "S"), ("S", "S", "ST"), ("ST", "S", "S")]
    shapes += [(code, "S", "S") for code in legal_first]
    # Held by the enemy's efficient alert, a plane flies one card thrice (seed F.VI.d.3).
    shapes += [(code, code, code) for code in legal_first]
    candidates += [" ".join(straight if c == "S" else c for c in shape) for shape in shapes]
    picks: list[str] = []
    for text in candidates:
        if len(picks) == QUICK_PICKS:
            break
        if text in picks:
            continue
        if text == first or legal(parse_program(text)):
            picks.append(text)
    return picks


def _remember(state: WingsState, given: Mapping[Any, Mapping[str, str]]) -> WingsState:
    """The programs just given (a plane's come-back or sun choice is no program), for the
    next turn's quick picks."""
    programs = {pid: v for side in given.values() for pid, v in side.items() if " " in v.strip()}
    return state.model_copy(update={"flown": {**state.flown, **programs}}) if programs else state
