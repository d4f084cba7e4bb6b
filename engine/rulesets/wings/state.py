"""The Wings of War state (secrets included): planes in the air, damage decks, sealed
programs, pilots and squadrons.

Every field says who may see it (``engine.sight``): public, its side's (a plane's, a
pilot's, a squadron's, a ground element's ``side``; the plane's for an entry keyed by plane
id), or sealed from everyone; all of it opens when the campaign ends. A field left without
a label is its owner's secret, so a new one is hidden until someone decides otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.ruleset import Excluded, Option
from engine.rulesets.wings.catalog import SideName
from engine.sight import SIDE, Own, Owner, Public, Sealed, own, public_record, sealed

# "waiting": off the table until it enters out of the sun (seed F.VI.e, sun).
PlaneStatus = Literal["flying", "shot_down", "exploded", "crashed", "left", "landed", "waiting"]
PilotState = Literal["active", "wounded", "seriously_wounded", "captured", "missing", "dead"]
Status = Literal["rookie", "ace", "veteran", "ace_of_aces"]
SIDES: tuple[SideName, SideName] = ("entente", "central")


def other(side: SideName) -> SideName:
    return "central" if side == "entente" else "entente"


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


DecisionKind = Literal[
    "program",
    "reorder",
    "swap",
    "comeback",
    "reinforce",
    "order",
    "skill",
    "wound",
    "purchase",
    "mission",
    "equipment",
    "sun",
    "flak",
    "winch",
]


class Decision(Model):
    """One field one side must fill now; ``options`` are the only legal values.

    A program has too many combinations to list whole when a plane holds 20 cards, so for
    programs ``options`` lists the legal cards for the first slot and ``detail`` says how
    the value is written; ``check_program`` is the authority on the full program.
    """

    side: SideName
    field: str
    kind: DecisionKind
    options: tuple[Option, ...]
    excluded: tuple[Excluded, ...] = ()
    default: str
    detail: str = ""

    def allows(self, option_id: str) -> bool:
        return any(option.id == option_id for option in self.options)

    @classmethod
    def of(
        cls,
        side: SideName,
        field: str,
        kind: DecisionKind,
        options: Iterable[Option],
        default: str,
        excluded: Iterable[Excluded] = (),
        detail: str = "",
    ) -> Decision:
        """A decision from its facts in the order a rule has them."""
        return cls(
            side=side,
            field=field,
            kind=kind,
            options=tuple(options),
            excluded=tuple(excluded),
            default=default,
            detail=detail,
        )


class Event(Model):
    """Something that happened, in the game's words; ``secret_for`` limits who may read it."""

    kind: str
    turn: int
    phase: int = 0
    data: dict[str, Any] = Field(default_factory=dict)
    secret_for: SideName | None = None


def _counted(ammo: Mapping[str, tuple[int, ...]]) -> dict[str, int]:
    # Seed B.II: ammunition lies face down; even its owner only counts the cards.
    return {gun: len(cards) for gun, cards in ammo.items()}


class DeckState(Model):
    """A damage deck in play: ``pile`` is the draw order (card ids, top first).

    A card id indexes the deck's expanded card list repeated ``copies`` times (authored 3.6:
    one copy of the list per four planes using that letter). Drawn cards stay with the plane
    that took them; ``spent`` holds those that went to no plane (flame and weather draws).
    """

    letter: str
    copies: int
    pile: tuple[int, ...]
    spent: tuple[int, ...] = ()


class PlaneState(Model):
    id: Public[str]
    type: Public[str]
    side: Owner[SideName]
    pilot: Public[str | None] = None
    skills: Public[tuple[str, ...]] = ()
    behaviour: Public[str | None] = None
    tokens: Own[int] = 0
    x: Public[float]
    y: Public[float]
    heading: Public[float]
    level: Public[int]
    counters: Public[int] = 0
    status: Public[PlaneStatus] = "flying"
    damage: Annotated[int, own(glimpse="eyeing")] = 0
    cards: Annotated[
        tuple[tuple[str, int], ...], own(glimpse="eyeing")
    ] = ()  # (deck letter, card id), secret to the owner
    smoke: Public[int] = 0
    fire: Public[int] = 0
    jams: Own[dict[str, int]] = Field(default_factory=dict)  # gun name -> jam counters left
    rudder: Own[Literal["L", "R"] | None] = None  # side a jammed rudder forbids...
    rudder_until: Own[int] = 0  # ...in the programs of turns up to this one
    specials: Own[tuple[str, ...]] = ()  # every special taken this mission, for doubles (B.IX)
    permanent: Public[tuple[str, ...]] = ()  # specials made lasting by a double (B.IX)
    engine_hits: Own[int] = 0
    pilot_lp: Own[int] = 10
    observer_lp: Own[int | None] = None
    wounded: Own[bool] = False  # has taken a "pilot wounded" card this mission
    no_fire: Own[int] = 0  # maneuvers left without firing after a wound
    last_card: Annotated[str | None, own(unless="in_cloud")] = None
    last_steep: Annotated[bool, own(unless="in_cloud")] = False
    genius_turn: Public[int] = -99
    spin: Public[bool] = False  # authored 3.9: over-climbed, the next card becomes a stall
    aim: Public[dict[str, str]] = Field(default_factory=dict)  # gun -> target fired at last phase
    climbed_turn: Public[int] = 0  # the turn a climb counter was last gained (one per turn)
    last_hit_by: Public[str | None] = None  # the last plane whose fire hit this one
    hit_last: Public[bool] = False  # took damage in the last phase flown (aiming, tailing)
    destroyed_by: Public[str | None] = None
    destroyed_turn: Public[int | None] = None
    crash_zone: Public[Literal["friendly", "enemy", "no_mans_land"] | None] = None
    kills: Public[tuple[str, ...]] = ()  # planes this one shot down (last card dealt)
    kills_wounded: Own[int] = 0  # of those, shot down while the pilot was wounded (Hothead VP)
    power_used: Own[bool] = False  # the behaviour's once-a-game power (seed D.VI)
    power_target: Public[str | None] = None  # the plane the Soldier or Opportunist power hit
    ultimate_uses: Public[int] = 0  # an ultimate skill serves at most 3 times a game (seed D.VII)
    # Seed D.VII.a Ace of Aces: last cards changed this game (3 at most), and the turn of
    # the latest change (at most once every two turns). A counter of its own: an ultimate
    # serves 3 times a game, not 3 shared with another ultimate the pilot holds.
    swaps: Public[int] = 0
    swap_turn: Public[int] = -99
    bombs: Public[int] = 0  # bombs (or clusters, see ``cluster``) still aboard (seed A.IV.e, B.X)
    cluster: Public[bool] = False  # a two-seater's load is a cluster of three bombs (seed B.X)
    landed_turn: Public[int | None] = None  # the turn it came to rest on the ground (seed B.I)
    landed_at: Public[str | None] = None  # the rescue site it landed by (seed E.I.a)
    carrying: Public[str | None] = None  # the rescue site whose pilot it took aboard
    # Seed B.II: each gun's face-down ammunition cards (ids in its damage deck); None when
    # the rule is off, so the guns never run dry.
    ammo: Annotated[dict[str, tuple[int, ...]] | None, sealed(owner_sees=_counted)] = None
    eyeing: Own[tuple[str, ...]] = ()  # enemy planes whose damage its Expert's eye saw last turn
    half_jams: Own[dict[str, int]] = Field(default_factory=dict)  # B.IV: twin gun -> counters
    rockets: Public[int] = 0  # Le Prieur rocket batches aboard (seed A.IV.j, E.II.b)
    jams_taken: Public[tuple[str, ...]] = ()  # jam results its fire drew this mission (seed B.IX)
    halved_guns: Own[tuple[str, ...]] = ()  # single guns at half damage after two green jams (B.IX)
    net_contact: Public[bool] = False  # touched a balloon net in the last maneuver (seed A.IV.i.2)
    # Seed D.V, B.VIII (J 3): a seriously wounded pilot must be on the ground by the end of
    # this turn, or the plane goes down as if shot down.
    land_by: Own[int | None] = None
    # Seed B.V cloud cover: in the layer, the base stays where it went in; the cards written
    # down since (its side's secret until it comes out) and the salt sealing its programs.
    in_cloud: Public[bool] = False
    cloud_cards: Own[tuple[str, ...]] = ()
    cloud_salt: Own[str] = ""
    # Seed A.IV.c (accidental exit): the turn it went off the table and the point on the
    # edge its centre crossed, where it comes back if its player brings it back.
    left_turn: Public[int | None] = None
    exit_at: Public[tuple[float, float] | None] = None
    # Seed E.IV: a reinforcement names the plane it took over from (its panel field too).
    replaces: Public[str | None] = None
    # Seed D.VI: the Knight who spared this plane's pilot (a prisoner now), and whether the
    # Rammer's collision downed the enemy it rammed (his VP bonus).
    captured_by: Public[str | None] = None
    power_downed: Public[bool] = False
    # Seed D.VIII: the pilot's equipment aboard (item -> uses left; the vest's points left
    # to absorb), his side's secret, and the items the enemy has seen act this mission.
    kit: Own[dict[str, int]] = Field(default_factory=dict)
    kit_shown: Public[tuple[str, ...]] = ()
    # Seed D.VII.c Système D: the last turn whose program an eased first engine hit binds
    # (None: a hit engine binds every turn, as the base rule says).
    engine_until: Own[int | None] = None
    # Seed F.VI.d.3 (a balloon surveillance role): the turns the enemy's efficient alert
    # limits its program to one card flown thrice, with no Immelmann nor Split-S.
    surprised_turns: Public[tuple[int, ...]] = ()
    # Seed A.I.b, C: a complex maneuver begun late in last turn's program and owed at the
    # start of this one (its key and how many of its cards were flown), its side's secret.
    sequence: Own[str | None] = None
    sequence_flown: Own[int] = 0


class GroundElement(Model):
    """A trench, AA machine-gun post or flak battery (seed A.IV.h): an immobile aircraft at
    level 0."""

    id: Public[str]
    kind: Public[Literal["trench", "caa", "dca"]]
    side: Owner[SideName]
    x: Public[float]
    y: Public[float]
    damage: Public[int] = 0
    destroyed: Public[bool] = False
    silenced: Public[bool] = False  # a CAA whose AA gun is out of action (infantry fire goes on)
    destroyed_by: Public[str | None] = None
    kills: Public[tuple[str, ...]] = ()
    # A flak battery (DCA): the first turn it may aim (it arms for a turn, and reloads for
    # the turn after each shot), and its burst counter (x, y, level) while one is placed.
    ready_turn: Public[int] = 0
    burst: Own[tuple[float, float, int] | None] = None
    # Seed A.IV.h, the gunner's choices: when the counter bursts (None: this turn's second
    # maneuver), and the plane a moved counter follows before the second maneuver.
    burst_turn: Own[int | None] = None
    burst_phase: Own[int] = 2
    follow: Own[str | None] = None


ObjectiveKind = Literal["recon", "photo", "target", "balloon", "rescue", "post"]


class Objective(Model):
    """A mission objective owned by the defending side (seed E.I.a, A.IV.e-g, A.IV.i): a
    site to reconnoitre or photograph, a target to bomb, or an observation balloon."""

    id: Public[str]
    kind: Public[ObjectiveKind]
    side: Owner[SideName]  # the defender
    x: Public[float]
    y: Public[float]
    deep: Public[bool] = False  # deep enemy territory doubles the attacker's award (seed E.I.b)
    damage: Public[int] = 0
    destroyed: Public[bool] = False
    done_by: Public[str | None] = None  # the plane that reconnoitred or photographed it
    hit_by: Public[str | None] = None  # the last plane that damaged it (bomb or gun)
    # A balloon's height and flames (seed A.IV.i): level and climb counters, fire results
    # taken (each draws an A card every turn), winched down while burning.
    level: Public[int] = 0
    counters: Public[int] = 0
    fire: Public[int] = 0
    fired_by: Public[str | None] = None  # the plane that first set it on fire
    exploded: Public[bool] = False
    person: Public[str | None] = None  # a rescue site: the pilot waiting there (seed E.I.a)
    major: Public[str | None] = None  # a squadron's major objective (seed F.III.c): 10 structure
    # Seed A.IV.i.3: a balloon its owner ordered down, hauled a counter a turn, and one that
    # reached the ground (level 0): out of the fight for the rest of the mission.
    winching: Public[bool] = False
    hauled_down: Public[bool] = False
    # A strafing mission's post (seed E.I.a): the ground element (a trench) it stands for.
    post: Public[str | None] = None


class Program(Model):
    cards: tuple[str, ...]
    maneuver: str | None = None  # a declared complex maneuver (authored 3.5)
    # Seed A.IV.e: the maneuver (1-3) after which the bomber releases, announced with the
    # program; 0 holds the bomb all turn; None leaves it to the standing order (authored).
    release: int | None = None
    # Seed D.VIII: the maneuver (1-3) after which the pilot fires his pistol, announced
    # with the program (pistol); None: no shot.
    pistol: int | None = None
    # The slot where the declared complex maneuver begins ("S split_s: ST IM" starts at 1);
    # cards of it past the third are owed at the start of the next turn (seed A.I.b).
    start: int = 0


@public_record
class MissionRules(Model):
    """Scenario switches for the seed's optional rules (B)."""

    altitude: bool = True
    collisions: bool = True  # B.III
    friendly_collisions: bool = True  # B.III option: a straight added to the draw
    dive_shot: bool = True  # B.VII.a
    fire_prohibition: bool = True  # B.VII.c
    shot_down_rule: bool = True  # B.VIII: the pilot may survive a crash
    doubled_specials: bool = True  # B.IX
    tailing: bool = True  # A.IV.d
    flak_near: bool = True  # A.IV.h option: an A card within R/2 of a flak burst
    ammunition: bool = True  # B.II: ammunition cards, guns that run dry
    twin_guns: bool = True  # B.IV: a green jam stops one of a twin-gun plane's two guns
    real_ceiling: bool = True  # B.V: the floor moves up so planes reach their real ceiling
    cloud_cover: bool = False  # B.V: a cloud layer above the game ceiling ("by agreement")
    come_back: bool = True  # A.IV.c option: a plane that flew off by accident may come back
    sun: bool = False  # F.VI.e: the side with the sun at its back enters by surprise
    balloon_roles: bool = False  # A.IV.i: a balloon mission's optional strategic role
    # F.VI.e: medium-cloudiness missions are flown above the cloud layer, so the sun plays
    # in them too (front: the engine has no heights for F.VI.a's layer).
    sun_above_clouds: bool = False
    relief: bool = False  # F.V: the generator lays hills and ridges that raise the floor
    blind_spots: bool = True  # DB 11.d option: a dorsal turret's black zones at the tail

    # Seed A.IV.i.2: the shape of a balloon mission's net (a barrage edge to edge, or a ring
    # round the balloons), and whether the defender buys it with Mission Points (E.II.b)
    # instead of getting it free (nets).
    net_shape: Literal["barrage", "ring"] = "barrage"
    nets_bought: bool = False


@public_record
class ReliefZone(Model):
    """Seed F.V: an area of the table whose floor stands ``floor`` levels above the plain;
    a convex polygon (its corners in bw, in order round it)."""

    id: str
    floor: int
    corners: tuple[tuple[float, float], ...]


class MissionState(Model):
    number: Public[int] = 1
    kind: Public[
        Literal["patrol", "recon", "photography", "bombing", "balloon", "rescue", "strafing"]
    ] = "patrol"
    date: Public[str] = "1917-09"
    weather: Public[Literal["clear", "medium", "heavy"]] = "clear"
    time_of_day: Public[str] = "morning"
    active: Public[SideName] = "entente"
    rules: Public[MissionRules] = MissionRules()
    table: Public[tuple[float, float]]
    max_turns: Public[int] = 8
    turn: Public[int] = 1
    # "swap": the turn is stopped after its second maneuver for an Ace of Aces' last-card
    # change (seed D.VII.a); ``programs`` still hold the whole turn's cards.
    round: Public[Literal["program", "reorder", "swap"]] = "program"
    planes: Public[dict[str, PlaneState]]
    ground: Public[dict[str, GroundElement]] = Field(default_factory=dict)
    objectives: Public[dict[str, Objective]] = Field(default_factory=dict)
    decks: Sealed[dict[str, DeckState]]
    programs: Annotated[dict[str, Program], own(key="planes")] = Field(
        default_factory=dict
    )  # sealed until played
    # Seed A.IV.c: planes off the table whose players bring them back at this turn's end.
    returning: Annotated[tuple[str, ...], own(item="planes")] = ()
    pursuits: Public[dict[str, str]] = Field(default_factory=dict)  # pursuer -> pursued
    finished: Public[bool] = False
    winner: Public[SideName | Literal["draw"] | None] = None
    floor: Public[int] = 0  # B.V: the level the table's lowest peg stands for
    # Seed A.IV.i.2: a barrage net hangs along the line of the balloons, edge to edge.
    nets: Public[bool] = False
    # While the turn waits on a swap: each pilot's life points as the turn began (the
    # landing window counts this turn's wounds), and each Ace's plane as it was programmed
    # (his new last card is judged against that hand, as his program was).
    lp_at_start: Sealed[dict[str, int]] = Field(default_factory=dict)
    programmed: Sealed[dict[str, PlaneState]] = Field(default_factory=dict)
    # Seed E.IV: each side's Mission Points left after the forces were bought, spent on
    # reinforcements and lost at the mission's end; and this turn's sealed orders
    # (downed plane -> the type sent in its place), carried out as the turn ends.
    reserve: Annotated[dict[str, int], own(key=SIDE)] = Field(default_factory=dict)
    reinforcing: Annotated[dict[str, str], own(key="planes")] = Field(default_factory=dict)
    # Seed D.VI: each Knight's and Artist's standing order (plane -> order), sealed like a
    # program and kept from turn to turn (behaviours).
    orders: Annotated[dict[str, str], own(key="planes")] = Field(default_factory=dict)
    major: Public[str | None] = None  # flown against the enemy's major objective (seed F.III.c)
    # Seed E.I.b: the x of the Entente zone's border and of the Central zone's border; None
    # for the quarters of a mission in the conflict zone (zones).
    zones: Public[tuple[float, float] | None] = None
    # Seed F.VI.e: the side the sun favours (None: nobody, or the rule not played), the
    # A cards read for it, and this turn's sealed choice of its player to enter now.
    sun_side: Public[SideName | None] = None
    sun_cards: Public[tuple[int, ...]] = ()
    sun_enter: Annotated[bool, own(by="sun_side")] = False
    # Seed A.IV.h: this turn's flak gunner orders (battery -> order, gunner),
    # each its battery's side's until the campaign ends.
    flak_orders: Annotated[dict[str, str], own(key="ground")] = Field(default_factory=dict)
    # Wings rules 12 sealed the orders with this (a digest on the seam); older snapshots hold
    # one, nothing draws it now.
    flak_salt: Sealed[str] = ""
    # Seed A.IV.i, a balloon mission's strategic role (balloon_roles): which
    # one (None: purely defensive), the turn whose end the spotted artillery fires if no
    # balloon burns by then, and the turns of the surveillance's efficient alert.
    balloon_role: Public[str | None] = None
    artillery_turn: Public[int | None] = None
    alert_turns: Public[tuple[int, ...]] = ()
    # Seed F.VI.e, K.1: the front the campaign is fought on (front).
    front: Public[Literal["western", "eastern"]] = "western"
    # Seed F.V: the hills and ridges on the table (public, relief).
    relief: Public[tuple[ReliefZone, ...]] = ()
    # Seed A.IV.i.2-3: the net's shape, and this turn's sealed winch orders (balloon ids its
    # owner hauls down from this turn on, winch).
    net_shape: Public[Literal["barrage", "ring"]] = "barrage"
    winch_orders: Annotated[tuple[str, ...], own(item="objectives")] = ()
    net_price: Public[int] = 0  # MP the defender paid for the net (seed E.II.b; 0: free or none)
    # Seed A.IV.i.2: the height (level, counters) the attackers came in at over the net
    # (net_entry); None when no one did.
    net_entry: Public[tuple[int, int] | None] = None


class Pilot(Model):
    id: Public[str]
    name: Public[str]
    side: Owner[SideName]
    behaviour: Public[str]
    skills: Public[tuple[str, ...]] = ()
    skill_picks: Public[int] = 0  # skills earned and not yet chosen
    kills: Public[int] = 0
    vp: Public[int] = 0
    vp_spent: Public[int] = 0
    lp: Own[int] = 10
    state: Public[PilotState] = "active"
    rest: Public[int] = 0  # missions left on the ground before the state improves
    wounded_flights: Public[int] = 0  # missions left flying at 5 LP with one skill (D.IV)
    plane: Public[str]
    missions: Public[int] = 0
    killed_by: Public[str | None] = None
    # Seed D.VIII: equipment owned (item -> uses left; the vest's points left to absorb).
    equipment: Own[dict[str, int]] = Field(default_factory=dict)
    # Seed E.III.b: of his kills, those confirmed (a roundel each, confirmation).
    confirmed: Public[int] = 0

    @property
    def status(self) -> Status:
        # Seed D.VIII: VP spent on equipment no longer count towards progression.
        if self.vp - self.vp_spent >= 160:
            return "ace_of_aces"
        if self.vp - self.vp_spent >= 80:
            return "veteran"
        return "ace" if self.kills >= 5 else "rookie"


@public_record
class MajorSite(Model):
    """One of a squadron's major objectives (seed F.III.c): station, depot, factory or
    airfield, with the damage raids left on it and the mission whose enemy photograph of it
    succeeded (which opens the bombing of it in the next mission)."""

    kind: str
    damage: int = 0
    destroyed: bool = False
    photographed: int | None = None
    structure: int = 10  # seed F.III.c (the campaign sets it from majors.toml)


class Squadron(Model):
    side: Owner[SideName]
    name: Public[str]
    players: Public[int]
    reserve: Own[int]  # Campaign Points that may be spent
    score: Public[int] = 0  # Total Campaign Score: every Campaign Point won, never spent
    stock: Own[dict[str, int]] = Field(default_factory=dict)  # resources bought, by kind
    owned: Own[tuple[str, ...]] = ()  # resource kinds ever bought (F.III.b "new resource")
    lost_half: Public[bool] = False  # lost half its flying strength last mission (F.III.a)
    majors: Public[dict[str, MajorSite]] = Field(default_factory=dict)  # seed F.III.c, by kind


class CampaignState(Model):
    seed_commitment: Public[str]
    date: Public[str]
    mission_number: Public[int] = 0
    active: Public[SideName] = "entente"
    phase: Public[Literal["briefing", "mission", "debrief", "ended"]] = "briefing"
    squadrons: Public[dict[SideName, Squadron]]
    pilots: Public[dict[str, Pilot]]
    mission: Public[MissionState | None] = None
    history: Public[tuple[dict[str, Any], ...]] = ()
    missions_planned: Public[int] = 3
    winner: Public[SideName | Literal["draw"] | None] = None
    next_pilot: Public[int] = 1
    rules: Public[MissionRules] = (
        MissionRules()
    )  # the scenario's switches for the optional rules (B)
    # Seed F.III.d option: destroying the enemy airfield ends the campaign.
    airfield_assault: Public[bool] = False
    # Seed F.I, I.I: the period's start bonus as drawn (period, side, roll, modifier, points).
    period_bonus: Public[dict[str, Any] | None] = None
    # Wings rules 12 sealed the debrief's equipment and purchases with this; older snapshots
    # hold one, nothing draws it now (those fields open with the campaign's end instead).
    kit_salt: Sealed[str] = ""
    # Seed K.1: the front, Western or Eastern (the sun's sides swap: front).
    front: Public[Literal["western", "eastern"]] = "western"
