"""The Wings of War state (secrets included): planes in the air, damage decks, sealed
programs, pilots and squadrons. ``campaign.view`` strips what a viewer may not see.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.rulesets.wings.catalog import SideName

# "waiting": off the table until it enters out of the sun (seed F.VI.e, sun).
PlaneStatus = Literal["flying", "shot_down", "exploded", "crashed", "left", "landed", "waiting"]
PilotState = Literal["active", "wounded", "seriously_wounded", "captured", "missing", "dead"]
Status = Literal["rookie", "ace", "veteran", "ace_of_aces"]
SIDES: tuple[SideName, SideName] = ("entente", "central")


def other(side: SideName) -> SideName:
    return "central" if side == "entente" else "entente"


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Option(Model):
    id: str
    label: str
    detail: str = ""


class Excluded(Model):
    id: str
    label: str
    reason: str  # a short key, e.g. "steep-after-steep"


class Decision(Model):
    """One field one side must fill now; ``options`` are the only legal values.

    A program has too many combinations to list whole when a plane holds 20 cards, so for
    programs ``options`` lists the legal cards for the first slot and ``detail`` says how
    the value is written; ``check_program`` is the authority on the full program.
    """

    side: SideName
    field: str
    kind: Literal[
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
    options: tuple[Option, ...]
    excluded: tuple[Excluded, ...] = ()
    default: str
    detail: str = ""

    def allows(self, option_id: str) -> bool:
        return any(option.id == option_id for option in self.options)


class Event(Model):
    """Something that happened, in the game's words; ``secret_for`` limits who may read it."""

    kind: str
    turn: int
    phase: int = 0
    data: dict[str, Any] = Field(default_factory=dict)
    secret_for: SideName | None = None


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
    id: str
    type: str
    side: SideName
    pilot: str | None = None
    skills: tuple[str, ...] = ()
    behaviour: str | None = None
    tokens: int = 0
    x: float
    y: float
    heading: float
    level: int
    counters: int = 0
    status: PlaneStatus = "flying"
    damage: int = 0
    cards: tuple[tuple[str, int], ...] = ()  # (deck letter, card id), secret to the owner
    smoke: int = 0
    fire: int = 0
    jams: dict[str, int] = Field(default_factory=dict)  # gun name -> jam counters left
    rudder: Literal["L", "R"] | None = None  # side a jammed rudder forbids...
    rudder_until: int = 0  # ...in the programs of turns up to this one
    specials: tuple[str, ...] = ()  # every special taken this mission, for doubles (B.IX)
    permanent: tuple[str, ...] = ()  # specials made lasting by a double (B.IX)
    engine_hits: int = 0
    pilot_lp: int = 10
    observer_lp: int | None = None
    wounded: bool = False  # has taken a "pilot wounded" card this mission
    no_fire: int = 0  # maneuvers left without firing after a wound
    last_card: str | None = None
    last_steep: bool = False
    genius_turn: int = -99
    spin: bool = False  # authored 3.9: over-climbed, the next card becomes a stall
    aim: dict[str, str] = Field(default_factory=dict)  # gun -> target fired at last phase
    climbed_turn: int = 0  # the turn a climb counter was last gained (one per turn)
    last_hit_by: str | None = None  # the last plane whose fire hit this one
    hit_last: bool = False  # took damage in the last phase flown (aiming, tailing)
    destroyed_by: str | None = None
    destroyed_turn: int | None = None
    crash_zone: Literal["friendly", "enemy", "no_mans_land"] | None = None
    kills: tuple[str, ...] = ()  # planes this one shot down (last card dealt)
    kills_wounded: int = 0  # of those, shot down while the pilot was wounded (Hothead VP)
    power_used: bool = False  # the behaviour's once-a-game power (seed D.VI)
    power_target: str | None = None  # the plane the Soldier or Opportunist power hit
    ultimate_uses: int = 0  # an ultimate skill serves at most 3 times a game (seed D.VII)
    # Seed D.VII.a Ace of Aces: last cards changed this game (3 at most), and the turn of
    # the latest change (at most once every two turns). A counter of its own: an ultimate
    # serves 3 times a game, not 3 shared with another ultimate the pilot holds.
    swaps: int = 0
    swap_turn: int = -99
    bombs: int = 0  # bombs (or clusters, see ``cluster``) still aboard (seed A.IV.e, B.X)
    cluster: bool = False  # a two-seater's load is a cluster of three bombs (seed B.X)
    landed_turn: int | None = None  # the turn it came to rest on the ground (seed B.I)
    landed_at: str | None = None  # the rescue site it landed by (seed E.I.a)
    carrying: str | None = None  # the rescue site whose pilot it took aboard
    # Seed B.II: each gun's face-down ammunition cards (ids in its damage deck); None when
    # the rule is off, so the guns never run dry.
    ammo: dict[str, tuple[int, ...]] | None = None
    eyeing: tuple[str, ...] = ()  # enemy planes whose damage its Expert's eye saw last turn
    half_jams: dict[str, int] = Field(default_factory=dict)  # B.IV: twin gun -> counters
    rockets: int = 0  # Le Prieur rocket batches aboard (seed A.IV.j, E.II.b)
    jams_taken: tuple[str, ...] = ()  # jam results its fire drew this mission (seed B.IX)
    halved_guns: tuple[str, ...] = ()  # single guns at half damage after two green jams (B.IX)
    net_contact: bool = False  # touched a balloon net in the last maneuver (seed A.IV.i.2)
    # Seed D.V, B.VIII (J 3): a seriously wounded pilot must be on the ground by the end of
    # this turn, or the plane goes down as if shot down.
    land_by: int | None = None
    # Seed B.V cloud cover: in the layer, the base stays where it went in; the cards written
    # down since (its side's secret until it comes out) and the salt sealing its programs.
    in_cloud: bool = False
    cloud_cards: tuple[str, ...] = ()
    cloud_salt: str = ""
    # Seed A.IV.c (accidental exit): the turn it went off the table and the point on the
    # edge its centre crossed, where it comes back if its player brings it back.
    left_turn: int | None = None
    exit_at: tuple[float, float] | None = None
    # Seed E.IV: a reinforcement names the plane it took over from (its panel field too).
    replaces: str | None = None
    # Seed D.VI: the Knight who spared this plane's pilot (a prisoner now), and whether the
    # Rammer's collision downed the enemy it rammed (his VP bonus).
    captured_by: str | None = None
    power_downed: bool = False
    # Seed D.VIII: the pilot's equipment aboard (item -> uses left; the vest's points left
    # to absorb), his side's secret, and the items the enemy has seen act this mission.
    kit: dict[str, int] = Field(default_factory=dict)
    kit_shown: tuple[str, ...] = ()
    # Seed D.VII.c Système D: the last turn whose program an eased first engine hit binds
    # (None: a hit engine binds every turn, as the base rule says).
    engine_until: int | None = None
    # Seed F.VI.d.3 (a balloon surveillance role): the turns the enemy's efficient alert
    # limits its program to one card flown thrice, with no Immelmann nor Split-S.
    surprised_turns: tuple[int, ...] = ()
    # Seed A.I.b, C: a complex maneuver begun late in last turn's program and owed at the
    # start of this one (its key and how many of its cards were flown), its side's secret.
    sequence: str | None = None
    sequence_flown: int = 0


class GroundElement(Model):
    """A trench, AA machine-gun post or flak battery (seed A.IV.h): an immobile aircraft at
    level 0."""

    id: str
    kind: Literal["trench", "caa", "dca"]
    side: SideName
    x: float
    y: float
    damage: int = 0
    destroyed: bool = False
    silenced: bool = False  # a CAA whose AA gun is out of action (infantry fire goes on)
    destroyed_by: str | None = None
    kills: tuple[str, ...] = ()
    # A flak battery (DCA): the first turn it may aim (it arms for a turn, and reloads for
    # the turn after each shot), and its burst counter (x, y, level) while one is placed.
    ready_turn: int = 0
    burst: tuple[float, float, int] | None = None
    # Seed A.IV.h, the gunner's choices: when the counter bursts (None: this turn's second
    # maneuver), and the plane a moved counter follows before the second maneuver.
    burst_turn: int | None = None
    burst_phase: int = 2
    follow: str | None = None


ObjectiveKind = Literal["recon", "photo", "target", "balloon", "rescue", "post"]


class Objective(Model):
    """A mission objective owned by the defending side (seed E.I.a, A.IV.e-g, A.IV.i): a
    site to reconnoitre or photograph, a target to bomb, or an observation balloon."""

    id: str
    kind: ObjectiveKind
    side: SideName  # the defender
    x: float
    y: float
    deep: bool = False  # deep enemy territory doubles the attacker's award (seed E.I.b)
    damage: int = 0
    destroyed: bool = False
    done_by: str | None = None  # the plane that reconnoitred or photographed it
    hit_by: str | None = None  # the last plane that damaged it (bomb or gun)
    # A balloon's height and flames (seed A.IV.i): level and climb counters, fire results
    # taken (each draws an A card every turn), winched down while burning.
    level: int = 0
    counters: int = 0
    fire: int = 0
    fired_by: str | None = None  # the plane that first set it on fire
    exploded: bool = False
    person: str | None = None  # a rescue site: the pilot waiting there (seed E.I.a)
    major: str | None = None  # a squadron's major objective (seed F.III.c): 10 structure
    # Seed A.IV.i.3: a balloon its owner ordered down, hauled a counter a turn, and one that
    # reached the ground (level 0): out of the fight for the rest of the mission.
    winching: bool = False
    hauled_down: bool = False
    # A strafing mission's post (seed E.I.a): the ground element (a trench) it stands for.
    post: str | None = None


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


class ReliefZone(Model):
    """Seed F.V: an area of the table whose floor stands ``floor`` levels above the plain;
    a convex polygon (its corners in bw, in order round it)."""

    id: str
    floor: int
    corners: tuple[tuple[float, float], ...]


class MissionState(Model):
    number: int = 1
    kind: Literal["patrol", "recon", "photography", "bombing", "balloon", "rescue", "strafing"] = (
        "patrol"
    )
    date: str = "1917-09"
    weather: Literal["clear", "medium", "heavy"] = "clear"
    time_of_day: str = "morning"
    active: SideName = "entente"
    rules: MissionRules = MissionRules()
    table: tuple[float, float]
    max_turns: int = 8
    turn: int = 1
    # "swap": the turn is stopped after its second maneuver for an Ace of Aces' last-card
    # change (seed D.VII.a); ``programs`` still hold the whole turn's cards.
    round: Literal["program", "reorder", "swap"] = "program"
    planes: dict[str, PlaneState]
    ground: dict[str, GroundElement] = Field(default_factory=dict)
    objectives: dict[str, Objective] = Field(default_factory=dict)
    decks: dict[str, DeckState]
    programs: dict[str, Program] = Field(default_factory=dict)  # sealed until played
    # Seed A.IV.c: planes off the table whose players bring them back at this turn's end.
    returning: tuple[str, ...] = ()
    pursuits: dict[str, str] = Field(default_factory=dict)  # pursuer -> pursued
    finished: bool = False
    winner: SideName | Literal["draw"] | None = None
    floor: int = 0  # B.V: the level the table's lowest peg stands for
    # Seed A.IV.i.2: a barrage net hangs along the line of the balloons, edge to edge.
    nets: bool = False
    # While the turn waits on a swap: each pilot's life points as the turn began (the
    # landing window counts this turn's wounds), and each Ace's plane as it was programmed
    # (his new last card is judged against that hand, as his program was).
    lp_at_start: dict[str, int] = Field(default_factory=dict)
    programmed: dict[str, PlaneState] = Field(default_factory=dict)
    # Seed E.IV: each side's Mission Points left after the forces were bought, spent on
    # reinforcements and lost at the mission's end; and this turn's sealed orders
    # (downed plane -> the type sent in its place), carried out as the turn ends.
    reserve: dict[str, int] = Field(default_factory=dict)
    reinforcing: dict[str, str] = Field(default_factory=dict)
    # Seed D.VI: each Knight's and Artist's standing order (plane -> order), sealed like a
    # program and kept from turn to turn (behaviours).
    orders: dict[str, str] = Field(default_factory=dict)
    major: str | None = None  # flown against the enemy's major objective (seed F.III.c)
    # Seed E.I.b: the x of the Entente zone's border and of the Central zone's border; None
    # for the quarters of a mission in the conflict zone (zones).
    zones: tuple[float, float] | None = None
    # Seed F.VI.e: the side the sun favours (None: nobody, or the rule not played), the
    # A cards read for it, and this turn's sealed choice of its player to enter now.
    sun_side: SideName | None = None
    sun_cards: tuple[int, ...] = ()
    sun_enter: bool = False
    # Seed A.IV.h: this turn's flak gunner orders (battery -> order, gunner),
    # sealed like a program, and the secret that seals them on the seam.
    flak_orders: dict[str, str] = Field(default_factory=dict)
    flak_salt: str = ""
    # Seed A.IV.i, a balloon mission's strategic role (balloon_roles): which
    # one (None: purely defensive), the turn whose end the spotted artillery fires if no
    # balloon burns by then, and the turns of the surveillance's efficient alert.
    balloon_role: str | None = None
    artillery_turn: int | None = None
    alert_turns: tuple[int, ...] = ()
    # Seed F.VI.e, K.1: the front the campaign is fought on (front).
    front: Literal["western", "eastern"] = "western"
    # Seed F.V: the hills and ridges on the table (public, relief).
    relief: tuple[ReliefZone, ...] = ()
    # Seed A.IV.i.2-3: the net's shape, and this turn's sealed winch orders (balloon ids its
    # owner hauls down from this turn on, winch).
    net_shape: Literal["barrage", "ring"] = "barrage"
    winch_orders: tuple[str, ...] = ()
    net_price: int = 0  # MP the defender paid for the net (seed E.II.b; 0: free or none)
    # Seed A.IV.i.2: the height (level, counters) the attackers came in at over the net
    # (net_entry); None when no one did.
    net_entry: tuple[int, int] | None = None


class Pilot(Model):
    id: str
    name: str
    side: SideName
    behaviour: str
    skills: tuple[str, ...] = ()
    skill_picks: int = 0  # skills earned and not yet chosen
    kills: int = 0
    vp: int = 0
    vp_spent: int = 0
    lp: int = 10
    state: PilotState = "active"
    rest: int = 0  # missions left on the ground before the state improves
    wounded_flights: int = 0  # missions left flying at 5 LP with one skill (D.IV)
    plane: str
    missions: int = 0
    killed_by: str | None = None
    # Seed D.VIII: equipment owned (item -> uses left; the vest's points left to absorb).
    equipment: dict[str, int] = Field(default_factory=dict)
    # Seed E.III.b: of his kills, those confirmed (a roundel each, confirmation).
    confirmed: int = 0

    @property
    def status(self) -> Status:
        # Seed D.VIII: VP spent on equipment no longer count towards progression.
        if self.vp - self.vp_spent >= 160:
            return "ace_of_aces"
        if self.vp - self.vp_spent >= 80:
            return "veteran"
        return "ace" if self.kills >= 5 else "rookie"


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
    side: SideName
    name: str
    players: int
    reserve: int  # Campaign Points that may be spent
    score: int = 0  # Total Campaign Score: every Campaign Point won, never spent
    stock: dict[str, int] = Field(default_factory=dict)  # resources bought, by kind
    owned: tuple[str, ...] = ()  # resource kinds ever bought (F.III.b "new resource")
    lost_half: bool = False  # lost half its flying strength last mission (F.III.a)
    majors: dict[str, MajorSite] = Field(default_factory=dict)  # seed F.III.c, by kind


class CampaignState(Model):
    seed_commitment: str
    date: str
    mission_number: int = 0
    active: SideName = "entente"
    phase: Literal["briefing", "mission", "debrief", "ended"] = "briefing"
    squadrons: dict[SideName, Squadron]
    pilots: dict[str, Pilot]
    mission: MissionState | None = None
    history: tuple[dict[str, Any], ...] = ()
    missions_planned: int = 3
    winner: SideName | Literal["draw"] | None = None
    next_pilot: int = 1
    rules: MissionRules = MissionRules()  # the scenario's switches for the optional rules (B)
    # Seed F.III.d option: destroying the enemy airfield ends the campaign.
    airfield_assault: bool = False
    # Seed F.I, I.I: the period's start bonus as drawn (period, side, roll, modifier, points).
    period_bonus: dict[str, Any] | None = None
    # Seed D.VIII: drawn when a mission ends, it seals each debrief's equipment choices so
    # the orders opened at the debrief's end do not name an item (no viewer ever sees it).
    kit_salt: str = ""
    # Seed K.1: the front, Western or Eastern (the sun's sides swap: front).
    front: Literal["western", "eastern"] = "western"
