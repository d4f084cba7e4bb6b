"""One strike flown from Target-Bound to Home-Bound (23.0, 25.62), fully automatically.

``fly_strike`` plays every turn with the card model of ``engine.zero.dogfight``, the flak of
``engine.zero.flak`` and the bombing of ``engine.zero.bombing``. All randomness is the ``deck`` the
caller shuffled; the same deck order gives the same report.

Turn structure: ``target_bound`` Target-Bound turns (a phase of 0 or less is skipped,
23.25), the three Over-Target turns (Ingress, Bomb, Egress, 23.4-23.7), then
``home_bound`` Home-Bound turns (23.8). In each turn the sides alternate element turns,
the defender's element first (authored 3.2.1 leaves the first side to a coin; here the
interceptor always has the initiative), and the side that moves first skips its Wingman
attack in the strike's first turn (15.2). An element's turn runs the steps of 15.2:
jettison decision, Wingman attack, altitude change, bomb/strafe (Bomb turn), play cards,
discard, draw. Formation aircraft have no turns: they defend when attacked and bomb at the
end of the Bomb turn (21.12, 23.63). A hidden strike (Out of Sight) never finds its
target: its Target-Bound and Home-Bound turns are flown (the CAP still meets it), but
there are no Over-Target turns, so no flak and no damage. A scout mission (kind "scout")
is flown the same way, and a scout still flying after its turns then makes its report
draw against the target's Area Flak (23.64, authored 3.4).

Doctrine (``engine.zero.orders.Doctrine``) steers the deterministic tactical policy:
- Starting bands: the CAP at the defender's ``cap_band``; torpedo carriers Very Low
  (21.53), dive bombers Medium (21.41), formations at their set-up band (17.24), other
  strike aircraft at their set-up band; all clamped to bands the aircraft may fly.
- Altitude (one band per turn, a climb costs a Leader one card, a dive gives one, 3.2.2):
  loaded fighter-bombers hold their bombing band (torpedo VL, dive M, level L);
  ``escort`` fighters go to the nearest band where the CAP is among their bombers, else
  stay with the main body (the first bomber still flying); ``sweep`` fighters go to the
  nearest CAP Leader's band; the CAP goes to the nearest
  bomber (``escort`` value) or the nearest enemy fighter (``sweep`` value). An Engaged
  Leader holds its band.
- Targets: the CAP attacks formations, then loaded fighter-bombers, then fighters
  (``sweep``: fighters first). Escorts attack the CAP aircraft that attacked their bombers
  first, then any CAP Leader. Loaded strike aircraft never start a fight (their Wingman
  may, when its Leader is Engaged, 17.15); with ``jettison_when_engaged`` a loaded
  aircraft that was attacked drops its load at the start of its next turn outside the
  Bomb turn (15.2 step 1, 17.15).
- ``disengage_over_target``: fighter elements that carry nothing stay outside the target
  area for Ingress, Bomb and Egress (23.51-23.53), the defender deciding first; they take
  no flak and fight only the other side's disengaged aircraft; after the Egress flak they
  rejoin and every pairing except an outside, still Engaged one returns to Neutral (23.72).
- Strafing: only at Very Low, never a carrier fleet or a sheet that cannot be strafed
  (21.71), and only when ``bombing.strafe_worthwhile`` says the cards beat the flak.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeVar, cast

from pydantic import BaseModel

from engine.zero.bombing import (
    Target,
    bomb_run,
    choose_mode,
    recon_run,
    strafe_run,
    strafe_worthwhile,
)
from engine.zero.bombing import target_flak_count as tf_count
from engine.zero.cards import Deck
from engine.zero.catalog import AircraftType, Catalog
from engine.zero.dogfight import (
    BANDS,
    DIVE,
    FIGHTER_BOMBER,
    LEVEL,
    NO_LOAD,
    SATURATION,
    TORPEDO,
    VH,
    VL,
    L,
    M,
    Plane,
    Sky,
    attack_formation,
    break_off,
    discard_and_draw,
    drop_worst,
    fire,
    maneuver,
    opening_hand,
    unpair,
    wingman_shot,
)
from engine.zero.flak import area_flak, target_flak
from engine.zero.mirror import mirror
from engine.zero.orders import Doctrine, FlightUnit, StrikeSetup
from engine.zero.report import (
    AircraftOutcome,
    BandMove,
    BombRun,
    CardDraw,
    Exchange,
    FlakShot,
    Phase,
    StrikeReport,
    TurnBands,
)
from engine.zero.trusted import trusted, trusted_dicts
from engine.zero.types import AircraftState, Band, BombMode, Ordnance, Side

__all__ = ["Strike", "fly_strike", "fly_unrecorded"]

_M = TypeVar("_M", bound=BaseModel)


def fly_strike(setup: StrikeSetup, catalog: Catalog, deck: Deck) -> StrikeReport:
    """Fly one strike from Target-Bound to Home-Bound and report what happened."""
    return Strike(setup, catalog, deck).run()


def fly_unrecorded(setup: StrikeSetup, catalog: Catalog, deck: Deck) -> StrikeReport:
    """``fly_strike`` for a caller that reads only the outcome (an odds preview): the same
    play, card for card, and the same aircraft, bomb runs and points in its report, but
    none of the export's records (draws, exchanges, flak shots, band moves, turns)."""
    return Strike(setup, catalog, deck, records=False).run()


class Element:
    """A Leader and its Wingman (one plane if it flies alone)."""

    __slots__ = ("key", "planes", "side")

    def __init__(self, key: str, side: Side, planes: list[Plane]) -> None:
        self.key = key
        self.side = side
        self.planes = planes

    def leader(self) -> Plane | None:
        for p in self.planes:
            if p.lead and not p.destroyed:
                return p
        return None

    def wingman(self) -> Plane | None:
        for p in self.planes:
            if not p.lead and not p.destroyed:
                return p
        return None

    def alive(self) -> list[Plane]:
        return [p for p in self.planes if not p.destroyed]


# (ordnance, mode) by aircraft type (kept in the entry), group, ordnance, target and
# doctrine: the same few combinations come back strike after strike (issue 13).
_loadouts: dict[tuple[int, str, Ordnance, bool, bool], tuple[Any, Ordnance, BombMode | None]] = {}


def _loadout(
    kind: AircraftType, group: str, ordnance: Ordnance, naval: bool, torpedo: bool
) -> tuple[Ordnance, BombMode | None]:
    """What the aircraft really carries against this target and the mode it uses."""
    key = (id(kind), group, ordnance, naval, torpedo)
    hit = _loadouts.get(key)
    if hit is None or hit[0] is not kind:
        carried = _ordnance(group, ordnance, kind, naval, torpedo)
        mode = choose_mode(kind, carried, naval)
        if len(_loadouts) >= 4096:
            _loadouts.clear()
        hit = _loadouts[key] = (kind, carried if mode is not None else NO_LOAD, mode)
    return hit[1], hit[2]


def _ordnance(
    group: str, ordnance: Ordnance, kind: AircraftType, naval: bool, torpedo: bool
) -> Ordnance:
    """17.14, 18.11, 21.52: what the aircraft really carries against this target."""
    if group != "strike" or ordnance is NO_LOAD:
        return NO_LOAD
    bomb = kind.undamaged.bomb
    torpedo_ok = TORPEDO in bomb and naval and torpedo
    if ordnance is Ordnance.TORPEDO and torpedo_ok:
        return Ordnance.TORPEDO
    # 17.14b: against a ground target (or by doctrine) a torpedo bomber carries bombs.
    others = (LEVEL, DIVE, SATURATION)
    return Ordnance.BOMB if any(m in bomb for m in others) else NO_LOAD


def _clamp(plane: Plane, band: Band) -> Band:
    band = min(band, plane.kind.max_band)
    while band > VL and not plane.can_fly(band):
        band = BANDS[band - 1]
    while band < VH and not plane.can_fly(band):
        band = BANDS[band + 1]
    return band


class Strike:
    """The state machine of one strike (23.x); ``run`` plays it once."""

    def __init__(
        self, setup: StrikeSetup, catalog: Catalog, deck: Deck, records: bool = True
    ) -> None:
        self.setup = setup
        self.records = records  # the export's records kept (``fly_unrecorded``: not)
        # The set-up's fields read from its dict, once: a pydantic model's own reads take
        # the slow path (see engine.zero.mirror), and the strike asks for some of them often.
        fields = setup.__dict__
        self.setup_fields: dict[str, Any] = fields
        self.area_flak_mod: int = fields["area_flak_mod"]
        sheet = _mirror(catalog.targets[fields["sheet"]])  # read very often
        self.target = Target(
            sheet,
            carrier_fleet=fields["carrier_fleet"],
            flak_mod=fields["target_flak_mod"],
            shift=fields["result_shift"],
            damage_bonus=fields["damage_bonus"],
        )
        self.sky = Sky(deck, catalog.deck.answers, records)
        attacker: Side = fields["attacker"]
        self.attacker = attacker
        self.defender = JAPANESE if attacker is ALLIED else ALLIED
        self.first_turn = True
        # The export's records (issue 11): the fields of each ``BandMove`` and ``TurnBands``.
        self.moves: list[dict[str, Any]] = []
        self.start_bands: dict[str, Band] = {}
        self.turns: list[dict[str, Any]] = []
        self.last_bands: tuple[int, dict[str, Band]] = (0, {})  # (sky.losses, bands) then
        self.elements: dict[Side, list[Element]] = {Side.JAPANESE: [], Side.ALLIED: []}
        keyed: dict[tuple[str, str], Element] = {}
        units = (*fields["strike"], *fields["cap"])
        aircraft = catalog.aircraft
        doctrines = {  # each side's doctrine, mirrored once (read very often)
            self.defender: _mirror(fields["defender_doctrine"]),
            self.attacker: _mirror(fields["attacker_doctrine"]),
        }
        planes = self.sky.planes
        for order, unit in enumerate(units):
            plane = self._plane(unit, order, aircraft, doctrines)
            planes.append(plane)
            if plane.is_formation:
                continue
            key = (plane.group, plane.element)
            element = keyed.get(key)
            if element is None or len(element.planes) >= 2:
                element = Element(plane.element, plane.side, [])
                keyed[key] = element
                self.elements[plane.side].append(element)
            element.planes.append(plane)
        for elements in self.elements.values():
            for element in elements:
                self._link(element)
        self.turn_order = self.order()  # elements never join or leave a strike

    def _plane(
        self,
        unit: FlightUnit,
        order: int,
        aircraft: Mapping[str, AircraftType],
        doctrines: Mapping[Side, Doctrine],
    ) -> Plane:
        # The unit's fields read from its dict: a pydantic model's own reads take the
        # slow path (see engine.zero.mirror), and a strike sets up some five planes.
        fields = unit.__dict__
        group, side, band = fields["group"], fields["side"], fields["band"]
        kind = _mirror(aircraft[fields["aircraft"]])  # read very often
        doctrine = doctrines[side]
        ordnance, mode = _loadout(
            kind, group, fields["ordnance"], self.target.sheet.naval, doctrine.torpedo
        )
        face = fields["pilot"]
        skills: tuple[str, ...] = ()
        pilot = None
        if face is not None:
            skills = face.skills
            pilot = face.name + (f" ({', '.join(skills)})" if skills else "")
        plane = Plane(
            fields["uid"],
            kind,
            side=side,
            role=fields["role"],
            group=group,
            element=fields["element"],
            order=order,
            doctrine=doctrine,
            band=band,
            ordnance=ordnance,
            mode=mode,
            skills=skills,
            pilot=pilot,
            damage=fields["damage"],
        )
        if group == "cap" and not plane.is_formation:
            band = doctrine.cap_band
        elif mode is TORPEDO:
            band = VL  # 21.53
        elif mode is DIVE and not plane.is_formation:
            band = M  # 21.41
        # else the set-up band (17.24 for formations)
        plane.band = _clamp(plane, band)
        return plane

    @staticmethod
    def _link(element: Element) -> None:
        planes = element.planes  # one plane or two
        if len(planes) == 1:
            planes[0].lead = True  # a Wingman left alone flies as a Leader (3.7.1)
            return
        first, second = planes
        if first.lead:
            second.lead = False  # one Leader to an element
        elif not second.lead:
            first.lead = True  # two Wingmen: the first leads (3.7.1)
        first.mate, second.mate = second, first
        if second.lead:
            planes.reverse()
        planes[1].band = planes[0].band  # the Wingman flies with its Leader
        if planes[0].destroyed and not planes[1].destroyed:
            planes[1].lead = True  # carried-in damage already destroyed the Leader

    # -- the phases ------------------------------------------------------------------

    def run(self) -> StrikeReport:
        setup = self.setup_fields
        hidden: bool = setup["hidden"]
        target_bound: int = setup["target_bound"]
        home_bound: int = setup["home_bound"]
        sky = self.sky
        if self.records:
            self.start_bands = self.bands()
            self.last_bands = (sky.losses, self.start_bands)
        if hidden:
            sky.notes.append("hidden")  # Out of Sight: the target is never found
        for plane in sky.planes:
            if plane.lead and not plane.destroyed:
                opening_hand(sky, plane)
        if target_bound <= 0:
            sky.notes.append("phase-skipped:target-bound")  # 23.25
        for turn in range(1, target_bound + 1):
            self.play_turn("target-bound", turn)
        if setup["kind"] == "scout":
            self.scout_report()
        if not hidden:
            self.over_target()
        if home_bound <= 0:
            sky.notes.append("phase-skipped:home-bound")
        for turn in range(1, home_bound + 1):
            self.play_turn("home-bound", turn)
        return self.report()

    def over_target(self) -> None:
        """23.4-23.7 and the Over-Target state machine."""
        sky = self.sky
        for side in (self.defender, self.attacker):  # 23.51: the defender announces first
            for element in self.elements[side]:
                planes = element.alive()
                if not planes or not planes[0].doctrine.disengage_over_target:
                    continue
                if any(p.loaded for p in planes):
                    continue
                for p in planes:
                    p.out = p.was_out = True
                sky.notes.append(f"disengaged:{element.key}")
        for p in sky.planes:
            if p.foe is not None and p.foe.out != p.out:
                unpair(p)
        sky.over_target = True
        self.play_turn("ingress", 1)
        self.area_flak()  # 22.11, 23.54
        self.play_turn("bomb", 1)
        self.formations_bomb()  # 21.12, 23.63
        for p in sky.planes:
            p.runner = False
        self.play_turn("egress", 1)
        self.area_flak()  # 23.71
        for p in sky.planes:  # 23.72
            if not (p.out and p.foe is not None and p.foe.out):
                unpair(p)
        for p in sky.planes:
            p.out = False
        sky.over_target = False

    def scout_report(self) -> None:
        """Authored 3.4 steps 2-3: a scout still flying after its turns makes its report
        draw (23.64: found like bombing); one lost or gone before then reports nothing."""
        sky = self.sky
        sky.phase = "scout"
        count = self.target.sheet.area_flak + self.area_flak_mod
        for p in sky.planes:
            if p.group == "scout" and not p.destroyed and not p.was_out:
                recon_run(sky, p, self.target, count)

    def area_flak(self) -> None:
        count = self.target.sheet.area_flak + self.area_flak_mod
        for p in self.sky.planes:
            if not p.destroyed and not p.out:
                area_flak(self.sky, p, count)

    def formations_bomb(self) -> None:
        """21.12 / 22.22 / 22.24: each formation aircraft bombs, then takes unanswered flak."""
        sky = self.sky
        sky.phase = "bomb"
        for p in sky.planes:
            if p.destroyed or not p.is_formation or p.out:
                continue
            if p.mode is not None and p.ordnance is not NO_LOAD:
                bomb_run(sky, p, self.target)
            else:
                self.idle_flak(p)

    def idle_flak(self, p: Plane) -> None:
        """22.21: over the target in the Bomb turn without bombing (3.4 idle row)."""
        sheet = self.target.sheet
        target_flak(
            self.sky, p, tf_count(sheet.target_flak, None, p.band, mod=self.target.flak_mod)
        )

    def order(self) -> list[Element]:
        """Alternate element turns, the defender first; extra elements go last (3.2.1)."""
        first, second = self.elements[self.defender], self.elements[self.attacker]
        out: list[Element] = []
        for index in range(max(len(first), len(second))):
            for elements in (first, second):
                if index < len(elements):
                    out.append(elements[index])
        return out

    def play_turn(self, phase: Phase, turn: int) -> None:
        sky = self.sky
        sky.phase = phase
        sky.turn = turn
        if phase == "bomb":
            for p in sky.planes:
                p.runner = not p.destroyed and not p.out and p.loaded
        records = self.records
        start = self.bands_now() if records else None
        bomb_turn = phase == "bomb"
        for element in self.turn_order:
            self.element_turn(element, bomb_turn)
        self.first_turn = False
        if not records:
            return
        # self.turn_order always gives the defender's elements the first move (15.2).
        end = self.bands()
        self.last_bands = (sky.losses, end)
        self.turns.append(
            {"phase": phase, "turn": turn, "first": self.defender, "start": start, "end": end}
        )

    def bands(self) -> dict[str, Band]:
        """The band of every aircraft still flying, for the export."""
        return {p.uid: p.band for p in self.sky.planes if not p.destroyed}

    def bands_now(self) -> dict[str, Band]:
        """``bands()`` between turns: bands change only inside element turns, so unless an
        aircraft fell since (flak, bombing) they are those the last turn ended with."""
        losses, last = self.last_bands
        return dict(last) if losses == self.sky.losses else self.bands()

    # -- one element's turn (15.2) ----------------------------------------------------

    def element_turn(self, element: Element, bomb_turn: bool) -> None:
        sky = self.sky
        lead = wing = None  # ``element.leader()`` and ``element.wingman()`` in one pass
        for p in element.planes:
            if p.destroyed:
                continue
            if p.lead:
                if lead is None:
                    lead = p
            elif wing is None:
                wing = p
        if lead is None:
            return
        lead.spent = 0
        for p in element.planes:  # step 1
            if (
                p.loaded
                and p.attacked
                and not p.destroyed
                and p.doctrine.jettison_when_engaged
                and not bomb_turn
            ):
                p.unload()
                sky.notes.append(f"jettison:{p.uid}")
        if bomb_turn:
            bombers, strafers = self.plan_runs(element)
            runs = bool(bombers or strafers)
        else:
            bombers = strafers = _NOBODY
            runs = False
        skip = self.first_turn and element.side is self.defender  # 15.2 step 2 exception
        if wing is not None and not skip and wing not in bombers and wing not in strafers:
            self.wingman_turn(wing, lead)  # step 2 (23.62: a bombing Wingman skips it)
        if not runs and not lead.destroyed:
            self.move(element, lead)  # step 3
        ran = bomb_turn and not lead.out and self.bomb_step(element, bombers, strafers)
        if lead.destroyed or not lead.lead:
            return
        if not ran:
            self.leader_turn(lead)  # step 5 (23.62: a bombing Leader skips it)
        if not lead.destroyed:
            discard_and_draw(sky, lead)  # steps 6-7

    def plan_runs(self, element: Element) -> tuple[list[Plane], list[Plane]]:
        """Bomb turn: who bombs (still loaded, over the target) and who will strafe."""
        lead = element.leader()
        if lead is None or lead.out or element.side is not self.attacker:
            return [], []  # the defenders over their own target neither bomb nor strafe
        planes = element.alive()
        bombers = [p for p in planes if p.loaded]
        drop = any(p.mode is DIVE for p in bombers) and lead.band in (M, L)
        band_then = BANDS[lead.band - 1] if drop else lead.band
        strafers = [p for p in planes if strafe_worthwhile(p, self.target, band_then)]
        for p in strafers:
            p.runner = True  # 23.66
        return bombers, strafers

    def bomb_step(self, element: Element, bombers: list[Plane], strafers: list[Plane]) -> bool:
        """15.2 step 4 over the target (23.61-23.65, the Over-Target state machine step 3):
        the dive drop (21.42), then for the Leader and then the Wingman either its bomb run
        with Target Flak or, not bombing, Target Flak alone (22.21-22.22); then the strafes
        (21.72, 22.27). True if the Leader bombed or strafed (it then skips play cards)."""
        sky = self.sky
        lead = element.leader()
        if lead is None:
            return False
        planes = element.alive()
        if any(p.mode is DIVE for p in bombers) and lead.band in (M, L):
            lower = BANDS[lead.band - 1]
            self.record_move(element, planes, lead.band, lower, dive_brakes=True)
            for p in planes:
                p.band = BANDS[p.band - 1]  # 21.42: dive brakes, no card for it
                unpair(p)
        for p in planes:
            if p.destroyed:
                continue
            if p.loaded and p in bombers:  # planes compare by identity
                bomb_run(sky, p, self.target)
            else:
                self.idle_flak(p)
        for p in strafers:
            if not p.destroyed:
                strafe_run(sky, p, self.target)
        ran = lead in bombers or lead in strafers
        if ran and lead.pos > 0:
            unpair(lead)  # 23.65: bombing gives up an advantage
        return ran

    def wingman_turn(self, wing: Plane, lead: Plane) -> None:
        """15.2 step 2 with the doctrine's choice of target."""
        if wing.loaded and lead.foe is None:
            return  # 17.15: a loaded Wingman attacks only while its Leader is Engaged
        sky = self.sky
        bombers: list[Plane] = []  # ``sky.enemies_near(wing)`` split in the same pass
        fighters: list[Plane] = []
        side, band, out, anywhere = wing.side, wing.band, wing.out, not sky.over_target
        for q in sky.planes:
            if q.side is side or q.destroyed or q.band != band or not (anywhere or q.out == out):
                continue
            (bombers if q.is_formation else fighters).append(q)
        if not bombers and not fighters:
            return
        if wing.group == "cap":
            loaded = [q for q in fighters if q.loaded]
            if wing.doctrine.escort == "escort" and bombers:
                attack_formation(sky, wing, bombers)
                return
            pick = _softest(loaded) or _foe_first(lead, fighters) or None
            if pick is None and bombers:
                attack_formation(sky, wing, bombers)
                return
        else:
            threats = [q for q in fighters if q.threat]
            pick = _softest(threats) or _foe_first(lead, fighters)
            if pick is None and bombers:
                attack_formation(sky, wing, bombers)
                return
        if pick is not None:
            wingman_shot(sky, wing, pick)

    def leader_turn(self, lead: Plane) -> None:
        """15.2 step 5: fight the current pairing, else pick a target by doctrine."""
        sky = self.sky
        foe = lead.foe
        if foe is not None and (
            foe.destroyed or foe.band != lead.band or not sky.same_area(lead, foe)
        ):
            unpair(lead)
            foe = None
        if foe is not None:
            if lead.pos < 0:
                maneuver(sky, lead, foe)
                if lead.foe is foe and lead.pos <= -2:
                    break_off(sky, lead)
            if lead.foe is foe:
                maneuver(sky, lead, foe)
                fire(sky, lead, foe)
                return
        if lead.loaded or lead.destroyed:
            return
        bombers: list[Plane] = []  # ``sky.enemies_near(lead)`` sorted in the same pass
        leaders: list[Plane] = []  # enemy Leaders (fighters holding a hand)
        side, band, out, anywhere = lead.side, lead.band, lead.out, not sky.over_target
        for q in sky.planes:
            if q.side is side or q.destroyed or q.band != band or not (anywhere or q.out == out):
                continue
            if q.is_formation:
                bombers.append(q)
            elif q.lead:
                leaders.append(q)
        if lead.group == "cap":
            loaded = [q for q in leaders if q.loaded]
            if lead.doctrine.escort == "escort":
                if bombers:
                    attack_formation(sky, lead, bombers)
                    return
                pick = _softest(loaded) or _softest(leaders)
            else:
                pick = _softest([q for q in leaders if not q.loaded]) or _softest(leaders)
        else:
            threats = [q for q in leaders if q.threat or (q.mate is not None and q.mate.threat)]
            pick = _softest(threats) or _softest(leaders)
        if pick is not None:
            maneuver(sky, lead, pick)
            fire(sky, lead, pick)
        elif bombers:
            attack_formation(sky, lead, bombers)

    # -- altitude (15.2 step 3, 3.2.2) ------------------------------------------------

    def move(self, element: Element, lead: Plane) -> None:
        """Step 3 for the element's Leader (still flying) and its Wingman."""
        if lead.foe is not None:
            return
        want = self.desired(lead)
        if want == lead.band:
            return
        new = BANDS[lead.band + (1 if want > lead.band else -1)]
        planes = []  # ``element.alive()``, each checked for the new band in the same pass
        for p in element.planes:
            if not p.destroyed:
                if not p.now.flies[new]:
                    return
                planes.append(p)
        if new > lead.band:
            if not lead.hand:
                return  # a Leader with no card cannot climb
            drop_worst(self.sky, lead)
        else:
            lead.hand.extend(self.sky.draw(1, "dive", lead.uid))
        self.record_move(element, planes, lead.band, new, dive_brakes=False)
        for p in planes:
            p.band = new

    def record_move(
        self, element: Element, planes: list[Plane], before: Band, after: Band, dive_brakes: bool
    ) -> None:
        """The export's record of a band change (issue 11)."""
        if not self.records:
            return
        sky = self.sky
        self.moves.append(
            {
                "phase": sky.phase,
                "turn": sky.turn,
                "element": element.key,
                "uids": tuple([p.uid for p in planes]),
                "before": before,
                "after": after,
                "dive_brakes": dive_brakes,
            }
        )

    def desired(self, lead: Plane) -> Band:
        if lead.loaded:
            if lead.mode is TORPEDO:
                return VL
            if lead.mode is DIVE:
                return M if lead.can_fly(M) else L
            return L
        # One pass over the sky for every candidate the doctrine may ask for, each the
        # nearest band, the first plane on a tie: enemies (any, bombers, Leaders) and, for
        # the escort, the bands of the enemy fighters and our own bombers and
        # fighter-bombers (``_main_body``).
        sky = self.sky
        side, out, anywhere, here = lead.side, lead.out, not sky.over_target, lead.band
        far = 1 << 30
        any_gap = bomber_gap = leader_gap = far
        any_band = bomber_band = leader_band = here
        fighter_bands: set[Band] = set()
        ours: list[Plane] = []  # our bombers, and fighter-bombers, in launch order
        for q in sky.planes:
            if q.destroyed or not (anywhere or q.out == out):
                continue
            band = q.band
            if q.side is side:
                if (
                    q.group == "strike"
                    and q is not lead
                    and (q.is_formation or q.loaded or q.kind.cls is FIGHTER_BOMBER)
                ):
                    ours.append(q)
                continue
            gap = band - here if band >= here else here - band
            if gap < any_gap:
                any_gap, any_band = gap, band
            if q.is_formation:
                if gap < bomber_gap:
                    bomber_gap, bomber_band = gap, band
            else:
                fighter_bands.add(band)
                if q.loaded and gap < bomber_gap:
                    bomber_gap, bomber_band = gap, band
                if q.lead and gap < leader_gap:
                    leader_gap, leader_band = gap, band
        if lead.group == "cap":
            if lead.doctrine.escort == "escort":
                if bomber_gap < far:
                    return bomber_band
            elif leader_gap < far:
                return leader_band
            # not `or`: Very Low is band 0, and torpedo bombers fly there
            return any_band
        if lead.doctrine.escort == "sweep":
            if leader_gap < far:
                return leader_band
        elif any_gap < far:
            # Escorts go where the CAP is at their bombers, else stay with the main body.
            guard_gap = far
            for q in ours:
                band = q.band
                if (q.is_formation or q.loaded) and band in fighter_bands:
                    gap = band - here if band >= here else here - band
                    if gap < guard_gap:
                        guard_gap, guard_band = gap, band
            if guard_gap < far:
                return guard_band
        # else no CAP anywhere near: nothing to guard the bombers from
        return _main_body(ours, here)

    # -- report ----------------------------------------------------------------------

    def report(self) -> StrikeReport:
        """The frozen report models, built once at the end of the strike: each from a dict
        of its fields in the model's order (``trusted_dicts``)."""
        setup = self.setup_fields  # the set-up's own fields (see ``__init__``)
        sky = self.sky
        ok, damaged, destroyed = AircraftState.OK, AircraftState.DAMAGED, AircraftState.DESTROYED
        aircraft = [
            {
                "uid": p.uid,
                "aircraft": p.kind.code,
                "side": p.side,
                "role": p.role,
                "group": p.group,
                "element": p.element,
                "band": p.band,
                "pilot": p.pilot,
                "ordnance": p.loadout,
                "damage": p.damage,
                "state": destroyed if p.destroyed else damaged if p.damaged else ok,
                "disengaged": p.was_out,
                "lost_on_recovery": False,  # the campaign step fills it in (25.7)
            }
            for p in sky.planes
        ]
        return trusted(
            StrikeReport,
            id=setup["id"],
            turn=setup["turn"],
            kind=setup["kind"],
            attacker=setup["attacker"],
            origin=setup["origin"],
            target=setup["target"],
            order=setup["order"],
            simultaneous=setup["simultaneous"],
            target_bound=setup["target_bound"],
            home_bound=setup["home_bound"],
            hidden=setup["hidden"],
            aircraft=trusted_dicts(AircraftOutcome, aircraft),
            exchanges=trusted_dicts(Exchange, sky.exchanges),
            flak=trusted_dicts(FlakShot, sky.flak),
            bomb_runs=trusted_dicts(BombRun, sky.runs),
            target_points=sum(r["points"] for r in sky.runs),
            scout_success=None,
            notes=tuple(sky.notes),
            start_bands=self.start_bands,
            turns=trusted_dicts(TurnBands, self.turns),
            moves=trusted_dicts(BandMove, self.moves),
            draws=trusted_dicts(CardDraw, sky.draws),
            reshuffles=tuple(sky.deck.reshuffled_at) if self.records else (),
        )


_NOBODY: list[Plane] = []  # no bombers, no strafers (read only)
JAPANESE: Final = Side.JAPANESE
ALLIED: Final = Side.ALLIED

# ``engine.zero.mirror.mirror``'s cache looked up here, compiled (``mirror`` itself runs
# interpreted): a strike asks for some eight mirrors, nearly always the same few.
_mirrors: dict[int, tuple[Any, Any]] = {}


def _mirror(model: _M) -> _M:
    hit = _mirrors.get(id(model))
    if hit is None or hit[0] is not model:
        if len(_mirrors) >= 4096:
            _mirrors.clear()  # only tests and reloaded states make many models
        hit = _mirrors[id(model)] = (model, mirror(model))
    return cast(_M, hit[1])


def _main_body(ours: list[Plane], here: Band) -> Band:
    """The band of the strike's first bomber still flying (formation or loaded), else
    of its first fighter-bomber, else ``here``: ``ours`` holds those, in launch order."""
    for q in ours:
        if q.is_formation or q.loaded:
            return q.band
    for q in ours:
        if q.kind.cls is FIGHTER_BOMBER:
            return q.band
    return here


def _softest(planes: list[Plane]) -> Plane | None:
    """The enemy closest to its next damage step (flip or destruction); first on a tie."""
    best: Plane | None = None
    best_gap = 1 << 30
    for q in planes:
        gap = (q.destroy_at if q.damaged else q.flip_at) - q.damage
        if gap < best_gap:
            best, best_gap = q, gap
    return best


def _foe_first(lead: Plane, fighters: list[Plane]) -> Plane | None:
    """A Wingman backs its Leader: the Leader's foe (or its Wingman), else the softest."""
    foe = lead.foe
    if foe is not None and foe in fighters:
        return foe
    return _softest(fighters)
