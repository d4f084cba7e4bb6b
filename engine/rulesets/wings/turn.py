"""One turn of a Wings of War mission (authored 4.1 on the seed's A rules): start-of-turn
draws, then three simultaneous phases of reveal, move, altitude, collisions, fire and damage,
then the end-of-turn bookkeeping and the tailing check.

All randomness comes from named streams of the ``Rng`` handed in, so the same seed and
programs replay the same mission card for card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import replace

import engine.rulesets.wings.ace as ace
import engine.rulesets.wings.ammunition as ammunition
import engine.rulesets.wings.balloon_roles as balloon_roles
import engine.rulesets.wings.balloons as balloons
import engine.rulesets.wings.behaviours as behaviours
import engine.rulesets.wings.bombing as bombing
import engine.rulesets.wings.ceiling as ceiling
import engine.rulesets.wings.clouds as clouds
import engine.rulesets.wings.equipment as equipment
import engine.rulesets.wings.exits as exits
import engine.rulesets.wings.flak as flak
import engine.rulesets.wings.geometry as geo
import engine.rulesets.wings.gunner as gunner
import engine.rulesets.wings.landing as landing
import engine.rulesets.wings.majors as majors
import engine.rulesets.wings.nets as nets
import engine.rulesets.wings.objectives as obj
import engine.rulesets.wings.pistol as pistol
import engine.rulesets.wings.records as records
import engine.rulesets.wings.relief as relief
import engine.rulesets.wings.sequences as sequences
import engine.rulesets.wings.shooting as shooting
import engine.rulesets.wings.soldier_shot as soldier_shot
import engine.rulesets.wings.strafing as strafing
import engine.rulesets.wings.sun as sun
import engine.rulesets.wings.twin as twin
import engine.rulesets.wings.winch as winch
import engine.rulesets.wings.zones as zones
from engine.rng import Rng
from engine.rulesets.wings.catalog import Catalog, DamageCard, Gun, ManeuverCard, SideName, Step
from engine.rulesets.wings.fastcopy import built, evolve
from engine.rulesets.wings.fire import (
    base_polygon,
    check_at_ground,
    check_fire,
    check_from_ground,
    ground_polygon,
)
from engine.rulesets.wings.state import (
    SIDES,
    DeckState,
    Event,
    GroundElement,
    MissionState,
    Objective,
    PlaneState,
    Program,
    other,
)
from engine.rulesets.wings.work import Shot

PERMANENT = 10**6  # counters that never run out once a special is doubled (B.IX)
SWEEP_STEPS = 8  # authored 4.1: the collision sweep samples t = 1/8 ... 1
# The collision sweep's poses in the plane's own frame, by card and base length: the same
# few cards are swept thousands of times a mission. The card is kept with its poses so its
# id cannot be reused while the entry lives.
_SWEEPS: dict[tuple[int, float], tuple[ManeuverCard, list[tuple[float, float, float]]]] = {}


class Turn:
    """The working copy of a mission during one turn; ``finish`` freezes it again."""

    def __init__(self, catalog: Catalog, mission: MissionState, rng: Rng) -> None:
        self.catalog = catalog
        self.mission = mission
        self.rng = rng
        self.planes: dict[str, PlaneState] = dict(mission.planes)
        self.ground: dict[str, GroundElement] = dict(mission.ground)
        self.objectives: dict[str, Objective] = dict(mission.objectives)
        self.piles = {k: list(d.pile) for k, d in mission.decks.items()}
        self.spent = {k: list(d.spent) for k, d in mission.decks.items()}
        self.events: list[Event] = []
        self.turn = mission.turn
        self.phase = 0
        self.draws = 0
        self.radii: dict[str, float] = {}  # base half-diagonals, by plane type
        self.hit_this_phase: set[str] = set()
        # Counters given during this phase's fire start ticking at the end of the next
        # maneuver (seed A.II.b: "the next three maneuvers").
        self.fresh: set[tuple[str, str]] = set()
        self.exploded_now: list[str] = []
        self.pursuits: dict[str, str] = {}
        self.floor = mission.floor
        self.rocket_runs: dict[str, int] = {}  # plane -> specials it had when the run began
        # Life points as the turn began: a pilot hurt this turn opens his landing window.
        self.lp_at_start = {pid: plane.pilot_lp for pid, plane in mission.planes.items()}

    # --- small helpers ------------------------------------------------------------------

    def where(self) -> str:
        """Mission, turn and phase, for stream names: no two draws share a stream even if a
        caller hands the same ``Rng`` to several turns."""
        return f"{self.mission.number}.{self.turn}.{self.phase}"

    def ids(self) -> list[str]:
        return sorted(self.planes)

    def flying(self) -> list[PlaneState]:
        """The planes in play on the table (a plane in the clouds is not, seed B.V)."""
        return [
            self.planes[i]
            for i in self.ids()
            if self.planes[i].status == "flying" and not self.planes[i].in_cloud
        ]

    def aloft(self) -> list[PlaneState]:
        """Every plane in the air, in the clouds or not: what burns and heals goes on."""
        return [self.planes[i] for i in self.ids() if self.planes[i].status == "flying"]

    def update(self, pid: str, **changes: object) -> PlaneState:
        plane = evolve(self.planes[pid], changes)
        self.planes[pid] = plane
        return plane

    def event(self, kind: str, secret_for: SideName | None = None, **data: object) -> None:
        # Built without re-validation: every field comes typed from the engine itself, and
        # a turn emits dozens of events.
        self.events.append(
            built(
                Event,
                {
                    "kind": kind,
                    "turn": self.turn,
                    "phase": self.phase,
                    "data": dict(data),
                    "secret_for": secret_for,
                },
            )
        )

    def draw(self, letter: str, holder: str | None) -> tuple[int, DamageCard]:
        """Top card of a damage deck; an empty deck takes back the cards no flying plane
        holds and is reshuffled (authored 3.6)."""
        pile = self.piles[letter]
        if not pile:
            held = {
                card
                for plane in self.planes.values()
                if plane.status == "flying"
                for deck, card in plane.cards
                if deck == letter
            }
            size = len(self.catalog.damage_decks[letter].expanded)
            copies = self.mission.decks[letter].copies
            pile.extend(i for i in range(size * copies) if i not in held)
            self.draws += 1
            stream = self.rng.stream(f"reshuffle:{self.where()}:{letter}:{self.draws}")
            stream.shuffle(pile)
            self.spent[letter] = []
            self.event("deck-reshuffled", deck=letter, cards=len(pile))
        card_id = pile.pop(0)
        deck = self.catalog.damage_decks[letter].expanded
        card = deck[card_id % len(deck)]
        if holder is None:
            self.spent[letter].append(card_id)
        else:
            plane = self.planes[holder]
            self.update(holder, cards=(*plane.cards, (letter, card_id)))
        return card_id, card

    def spend_token(self, pid: str, skill: str) -> bool:
        """Skills cost one token a use (seed D.VII); the engine uses them when they apply."""
        plane = self.planes.get(pid)
        if plane is None or skill not in plane.skills or plane.tokens <= 0:
            return False  # ground elements have no skills
        self.update(pid, tokens=plane.tokens - 1)
        self.event("skill-used", secret_for=plane.side, plane=pid, skill=skill)
        return True

    # --- damage ---------------------------------------------------------------------------

    def add_damage(self, pid: str, points: int, source: str | None) -> None:
        plane = self.planes[pid]
        if points <= 0 or plane.status != "flying":
            return
        self.hit_this_phase.add(pid)
        if source is not None:
            plane = self.update(pid, last_hit_by=source)
        plane = self.update(pid, damage=plane.damage + points)
        if plane.damage >= self.catalog.planes[plane.type].damage_points:
            self.shoot_down(pid, "shot_down", plane.last_hit_by)

    def shoot_down(self, pid: str, status: str, source: str | None) -> None:
        plane = self.planes[pid]
        if plane.status != "flying":
            return
        self.update(pid, status=status, destroyed_by=source, destroyed_turn=self.turn)
        if source is not None and source in self.planes and source != pid:
            killer = self.planes[source]
            self.update(source, kills=(*killer.kills, pid))
            if killer.wounded:
                self.update(source, kills_wounded=killer.kills_wounded + 1)
        elif source is not None and source in self.ground:
            post = self.ground[source]
            self.ground[source] = post.model_copy(update={"kills": (*post.kills, pid)})
        self.event(status.replace("_", "-"), plane=pid, by=source)
        if status == "exploded":
            self.update(pid, pilot_lp=-1)
            self.exploded_now.append(pid)
        elif status in ("shot_down", "crashed"):
            self.crash(pid)

    def crash(self, pid: str) -> None:
        """Seed B.VIII: the wreck flies one ruler ahead (two above level 2); the pilot takes
        A cards, one per peg, counting only their points, wounds and explosions (J 16)."""
        plane = self.planes[pid]
        if plane.pilot_lp < 0:
            return
        if equipment.jump(self, pid):
            return  # seed D.VIII: the pilot jumped before the wreck went down
        if not self.mission.rules.shot_down_rule:
            self.update(pid, pilot_lp=-1)
            return
        ruler = self.catalog.rules.units.ruler
        glide = ruler * (1 if plane.level <= 2 else 2)
        x, y = geo.to_world(plane.x, plane.y, plane.heading, (glide, 0.0))
        lp = plane.pilot_lp
        for _ in range(max(0, plane.level) + 1):
            _, card = self.draw("A", None)
            if card.special == "explosion":
                lp = -1
                break
            lp -= card.value
            if card.special == "pilot_wounded":
                lp -= self.catalog.rules.pilot.wound_cost
        zone = self.zone(plane.side, x)
        self.update(pid, pilot_lp=lp, crash_zone=zone)
        self.event("crash", plane=pid, zone=zone, pilot_alive=lp >= 0, x=x, y=y)

    def zone(self, side: str, x: float) -> str:
        """Seed E.I.b: the zone under ``x`` for ``side`` (quarters, or the mission's own)."""
        return zones.zone_at(self.mission, side, x)

    def apply_card(
        self,
        target: str,
        card: DamageCard,
        shooter: str | None,
        gun: Gun | None,
        *,
        bonus: int = 0,
        aimed: bool = False,
        long_range: bool = False,
        seen: set[str] | None = None,
        sure: bool = False,
        soldier: bool = False,
    ) -> None:
        plane = self.planes[target]
        if plane.status != "flying":
            return
        value = equipment.bullets(self, shooter, card.value)  # seed D.VIII incendiaries
        # Seed A.II.c: the aiming +1 (and other +1s) never raise a 0 card.
        if value > 0:
            value += bonus
        value = self.halved(shooter, gun, value)
        if value in (1, 2) and not aimed and not sure and self.spend_token(target, "snake"):
            value = 0  # seed D.VII.d Snake: 1s and 2s count as 0 unless aimed at
        if long_range and value > 0 and not sure and self.spend_token(target, "viper"):
            value //= 2  # seed D.VII.d Viper: half damage from long range, rounded down
        self.event(
            "damage-card",
            secret_for=plane.side,
            plane=target,
            value=value,
            special=card.special,
            by=shooter,
        )
        special = card.special
        shooting.expert_sees(self, shooter, target, special)
        if seen is not None:
            # Seed A.II.b: one shot giving the same special twice only applies it once.
            if special in seen:
                special = "none"
            seen.add(special)
        self.apply_special(target, special, card.value, shooter, gun, soldier=soldier)
        if self.planes[target].status == "flying":
            self.add_damage(target, value, shooter)

    def halved(self, shooter: str | None, gun: Gun | None, value: int) -> int:
        """Seed B.IX: a single gun whose fire drew two green jams deals half its damage for
        the rest of the mission (rounded down, as the seed's other halvings, authored)."""
        owner = self.planes.get(shooter) if shooter is not None else None
        if owner is None or gun is None or gun.name not in owner.halved_guns:
            return value
        return value // 2

    def apply_special(
        self,
        pid: str,
        special: str,
        face: int,
        shooter: str | None,
        gun: Gun | None,
        *,
        soldier: bool = False,
    ) -> None:
        plane = self.planes[pid]
        rules = self.catalog.rules
        if special == "none":
            return
        if special == "fire" and equipment.extinguish(self, pid):
            return  # seed D.VIII: the extinguisher puts it out
        if soldier and special in soldier_shot.LASTING:
            lasting = None  # the attacker wins (seed D.VII): no skill shortens it
        else:
            special, lasting = self.skill_eases(pid, special)
        if special == "none":
            return
        doubled = self.mission.rules.doubled_specials and special in plane.specials
        if doubled and "tinkerer" in plane.skills and plane.specials.count(special) < 2:
            # Seed D.VII.c Tinkerer: a doubled special does not last; the third one does.
            doubled = False
        plane = self.update(pid, specials=(*plane.specials, special))
        public = special in ("smoke", "fire", "explosion")
        self.event("special", secret_for=None if public else plane.side, plane=pid, special=special)
        if special == "explosion":
            self.shoot_down(pid, "exploded", shooter)
        elif special in ("smoke", "fire") and lasting is not None:
            self.update(pid, smoke=max(plane.smoke, lasting))
            if special == "fire":
                self.update(pid, fire=max(plane.fire, lasting))
        elif special in ("jam_red", "jam_green"):
            if shooter is None or gun is None or shooter not in self.planes:
                return
            owner = self.planes[shooter]
            if self.spend_token(shooter, "conscientious"):
                return  # seed D.VII.c: the checked ammunition cancels a jam
            count = rules.fire.wounded_jam_counters if owner.wounded else rules.fire.jam_counters
            if twin.doubled_jam(self, shooter, gun, special):
                return  # seed B.IX: the same jam a second time lasts the mission
            if twin.one_gun(self, shooter, gun, special, count):
                return  # seed B.IV: one of the two guns jams
            self.update(shooter, jams={**owner.jams, gun.name: count})
            self.fresh.add((shooter, gun.name))
            self.event("jammed", secret_for=owner.side, plane=shooter, gun=gun.name)
        elif special == "smoke":
            smoke = PERMANENT if doubled or soldier else rules.fire.smoke_counters
            self.update(pid, smoke=max(plane.smoke, smoke))
        elif special == "fire":
            fire = PERMANENT if doubled or soldier else rules.fire.fire_counters
            fire = equipment.fire_counters(self, shooter, fire)
            self.update(pid, fire=max(plane.fire, fire), smoke=max(plane.smoke, fire))
        elif special in ("rudder_left", "rudder_right"):
            side = "L" if special == "rudder_left" else "R"
            lasts = soldier or (doubled and plane.rudder == side)
            until = PERMANENT if lasts else self.turn + 1
            self.update(pid, rudder=side, rudder_until=until)
        elif special == "engine":
            hits = plane.engine_hits + 1
            self.update(pid, engine_hits=hits)
            if lasting is not None:
                # Seed D.VII.c Système D: the first engine hit binds the next turn only.
                self.update(pid, engine_until=self.turn + lasting)
            if equipment.engine_smokes(self, shooter):
                self.update(pid, smoke=max(plane.smoke, rules.fire.smoke_counters))
            if hits >= 2:
                self.shoot_down(pid, "shot_down", shooter)  # seed A.II.b / B.IX
        elif special == "pilot_wounded":
            cost = rules.pilot.wound_cost
            # Seed A.II.b: on a two-seater the 3 card hits the pilot, the 5 the observer.
            if plane.observer_lp is not None and face == 5:
                self.update(pid, observer_lp=plane.observer_lp - cost)
                return
            if equipment.vest_stops_wound(self, pid):
                return  # seed D.VIII: the bulletproof vest
            lp = plane.pilot_lp - cost
            if soldier:
                lp = soldier_shot.seriously(self.catalog, lp)
            if plane.wounded and plane.behaviour == "hothead" and not plane.power_used:
                # Seed D.VI Hothead, once a game: a second wound leaves him only Wounded.
                lp = max(lp, rules.pilot.wounded_max_lp)
                self.update(pid, power_used=True)
                self.event("behaviour-power", secret_for=plane.side, plane=pid, power="hothead")
            self.update(pid, pilot_lp=lp, wounded=True, no_fire=rules.fire.wounded_no_fire)
            self.fresh.add((pid, "no_fire"))
            if lp < 0:
                # D.V: below 0 the pilot dies and the plane goes down (J 2: LP rule).
                self.shoot_down(pid, "crashed", shooter)

    def skill_eases(self, pid: str, special: str) -> tuple[str, int | None]:
        """Skills that soften a special as it is taken (seed D.VII.c-d), each one token:
        Ghost ignores the first pilot-wounded card, Tinkerer (at most 3 times) turns an
        explosion into 3 turns of fire, Système D ignores the first jammed rudder and keeps
        the first smoke or fire to one turn. Returns the special to apply and, for smoke or
        fire, its counters when a skill shortened them."""
        plane = self.planes[pid]
        taken = plane.specials
        ghost = "ghost" in plane.skills and "pilot_wounded" not in taken
        if special == "pilot_wounded" and ghost and self.spend_token(pid, "ghost"):
            self.update(pid, specials=(*taken, "pilot_wounded"))
            return "none", None
        tinkerer = "tinkerer" in plane.skills and plane.ultimate_uses < 3
        if special == "explosion" and tinkerer and self.spend_token(pid, "tinkerer"):
            self.update(pid, ultimate_uses=plane.ultimate_uses + 1)
            return "fire", self.catalog.rules.fire.fire_counters
        if "systeme_d" in plane.skills:
            first_rudder = not any(s.startswith("rudder") for s in taken)
            if special.startswith("rudder") and first_rudder and self.spend_token(pid, "systeme_d"):
                self.update(pid, specials=(*taken, special))
                return "none", None
            first = special in ("smoke", "fire", "engine") and special not in taken
            if first and self.spend_token(pid, "systeme_d"):
                return special, 1
        return special, None

    def explosion_blast(self) -> None:
        """Seed B.VI: an explosion gives one A card to every plane within R/2 at its level."""
        reach = self.catalog.rules.units.ruler / 2
        blasts, self.exploded_now = self.exploded_now, []
        for pid in blasts:
            centre = self.planes[pid]
            for plane in self.flying():
                if plane.level != centre.level:
                    continue
                if geo.distance((plane.x, plane.y), (centre.x, centre.y)) <= reach:
                    _, card = self.draw("A", plane.id)
                    self.apply_card(plane.id, card, None, None)

    # --- the turn -------------------------------------------------------------------------

    def start_of_turn(self) -> None:
        relief.crash_low(self)  # seed F.V: a plane put on the table too low over relief
        for plane in self.aloft():
            if plane.fire > 0:
                # Seed A.II.b: a burning plane discards a flame counter and draws an A card,
                # counting only its points and an explosion.
                left = plane.fire if plane.fire >= PERMANENT else plane.fire - 1
                self.update(plane.id, fire=left)
                _, card = self.draw("A", plane.id)
                self.event("flames", plane=plane.id)
                self.event("damage-card", secret_for=plane.side, plane=plane.id,
                           value=card.value, special="none", by=None)  # fmt: skip
                # The kill goes to the last plane that hit it (the fire's likely author).
                if card.special == "explosion":
                    self.shoot_down(plane.id, "exploded", plane.last_hit_by)
                else:
                    self.add_damage(plane.id, card.value, None)
            if (
                self.mission.weather == "heavy"
                and self.planes[plane.id].status == "flying"
                and not plane.in_cloud
            ):
                # Seed F.VI.c outside cloud: an odd B card costs 1 point, specials ignored.
                _, card = self.draw("B", None)
                if card.value % 2 == 1:
                    self.event("turbulence", plane=plane.id)
                    self.add_damage(plane.id, 1, None)
        self.burning_balloons()
        winch.haul(self)  # seed A.IV.i.3: balloons hauled down at their owner's wish
        self.lay_flak()
        self.explosion_blast()

    def card_for(self, plane: PlaneState, program: Program) -> ManeuverCard:
        deck = self.catalog.maneuver_decks[self.catalog.planes[plane.type].deck]
        code = program.cards[self.phase - 1]
        if plane.spin and deck.card("ST") is not None:
            code = "ST"
        card = deck.card(code)
        assert card is not None
        return card

    def step_effect(self, plane: PlaneState, program: Program) -> Step:
        # Seed A.I.b: a step keeps its effect when its maneuver runs over the turn's end.
        return sequences.step(self.catalog, plane, program, self.phase - 1)

    def altitude(self, pid: str, card: ManeuverCard, step: Step, program: Program) -> None:
        """Seed A.III with authored 3.9: climb counters, levels, ceiling and the floor."""
        plane = self.planes[pid]
        plane_type = self.catalog.planes[plane.type]
        level, counters = plane.level, plane.counters
        top = min(ceiling.game_ceiling(self), plane_type.ceiling)
        gain = 0
        if card.kind == "climb":
            gain = 1
        elif card.kind == "immelmann" and not sequences.in_sequence(
            self.catalog, plane, program, self.phase - 1
        ):
            gain = 1  # authored 3.5: the base-game (modern) Immelmann gains a counter
        gain += step.climb
        if plane.spin:
            # Authored 3.9: the spin costs a level, two if the card was a stall anyway.
            original = program.cards[self.phase - 1]
            level -= 2 if original == "ST" else 1
            self.update(pid, spin=False)
        over = False
        if gain and plane.climbed_turn != self.turn:
            counters += 1  # never two counters in one turn (seed A.III.a)
            self.update(pid, climbed_turn=self.turn)
            if counters >= plane_type.climb:
                if level >= top and clouds.may_enter(self, plane, level):
                    level, counters = level + 1, 0
                    clouds.enter(self, pid, program, level)  # seed B.V: into the layer
                elif level >= top:
                    counters = plane_type.climb - 1
                    over = True
                else:
                    level, counters = level + 1, 0
        if card.kind == "dive":
            # Seed A.III.b: lose a level and every counter; from level 1 keep one counter.
            level, counters = (level - 1, 1 if level == 1 else 0)
        for _ in range(step.descend):
            if counters > 0:
                counters -= 1
            else:
                level, counters = level - 1, plane_type.climb - 1
        if step.level:
            level, counters = level + step.level, 0
        if (level, counters) != (plane.level, plane.counters):
            self.update(pid, level=level, counters=counters)
        if level < 0:
            self.update(pid, level=0)
            self.event("crashed-into-ground", plane=pid)
            self.shoot_down(pid, "crashed", None)
        elif over:
            # Found (2.6): above the ceiling, 1 A card and a spin next phase.
            self.event("over-ceiling", plane=pid)
            self.update(pid, spin=True)
            _, damage = self.draw("A", pid)
            self.apply_card(pid, damage, None, None)

    def collision_pairs(
        self, moves: dict[str, tuple[ManeuverCard, float]]
    ) -> list[tuple[str, str]]:
        """Authored 4.1 step 3: pairs at the same altitude state whose bases meet on the way."""
        planes = self.flying()
        sizes: dict[str, tuple[float, float]] = {}
        reach: dict[str, float] = {}
        for plane in planes:
            card, length = moves[plane.id]
            width = self.catalog.base_size(self.catalog.planes[plane.type])[0]
            sizes[plane.id] = (width, length)
            move = self.catalog.move(self.catalog.planes[plane.type], card.code)
            reach[plane.id] = math.hypot(move.dx, move.dy) + math.hypot(width, length) / 2
        samples: dict[str, list[tuple[float, float, float]]] = {}

        def path(plane: PlaneState) -> list[tuple[float, float, float]]:
            if plane.id not in samples:
                card, length = moves[plane.id]
                rad = math.radians(plane.heading)
                cos, sin = math.cos(rad), math.sin(rad)
                x, y, heading = plane.x, plane.y, plane.heading
                samples[plane.id] = [
                    (x + lx * cos - ly * sin, y + lx * sin + ly * cos, heading + lh)
                    for lx, ly, lh in sweep(card, length)
                ]
            return samples[plane.id]

        pairs = []
        for i, first in enumerate(planes):
            for second in planes[i + 1 :]:
                # Seed B.III: same level, and either both without counters or both with some.
                if first.level != second.level:
                    continue
                if (first.counters > 0) != (second.counters > 0):
                    continue
                # Farther apart than both moves and both bases, they cannot meet.
                gap = geo.distance((first.x, first.y), (second.x, second.y))
                if gap > reach[first.id] + reach[second.id]:
                    continue
                if self._paths_meet(path(first), sizes[first.id], path(second), sizes[second.id]):
                    pairs.append((first.id, second.id))
        return pairs

    @staticmethod
    def _paths_meet(
        first: list[tuple[float, float, float]],
        first_size: tuple[float, float],
        second: list[tuple[float, float, float]],
        second_size: tuple[float, float],
    ) -> bool:
        # Two bases farther apart than their half-diagonals cannot touch: skip the
        # rectangle test for those samples.
        clear = (math.hypot(*first_size) + math.hypot(*second_size)) / 2
        for (ax, ay, ah), (bx, by, bh) in zip(first, second, strict=True):
            if geo.distance((ax, ay), (bx, by)) >= clear:
                continue
            if geo.overlaps(
                geo.rectangle(ax, ay, ah, *first_size), geo.rectangle(bx, by, bh, *second_size)
            ):
                return True
        return False

    def collide(self, pairs: Iterable[tuple[str, str]]) -> None:
        for first, second in pairs:
            a, b = self.planes[first], self.planes[second]
            if a.status != "flying" or b.status != "flying" or a.in_cloud or b.in_cloud:
                continue
            stream = self.rng.stream(f"collision:{self.where()}:{first}:{second}")
            friendly = self.mission.rules.friendly_collisions and a.side == b.side
            choices = ["L", "R", "S"] if friendly else ["L", "R"]
            picks = (stream.choice(choices), stream.choice(choices))
            self.event("collision-risk", planes=[first, second], cards=list(picks))
            if picks[0] != picks[1]:
                continue
            turn = abs(geo.normalise(a.heading - b.heading))
            letter = "A" if turn > 90 else "B"  # seed B.III: head-on hurts more
            self.event("collision", planes=[first, second], deck=letter)
            ramming = behaviours.rammer_in(self, first, second)
            if ramming is not None:
                behaviours.ram(self, *ramming, letter)
                continue
            for pid in (first, second):
                for _ in range(2):
                    _, card = self.draw(letter, pid)
                    # Seed B.III: collision cards count their points and explosions only.
                    if card.special == "explosion":
                        self.shoot_down(pid, "exploded", None)
                    else:
                        self.add_damage(pid, card.value, None)

    def radius(self, plane: PlaneState) -> float:
        """Half the base's diagonal: no part of the base is farther from its centre."""
        radius = self.radii.get(plane.type)
        if radius is None:
            width, length = self.catalog.base_size(self.catalog.planes[plane.type])
            radius = self.radii[plane.type] = math.hypot(width, length) / 2
        return radius

    def fire_phase(
        self, played: dict[str, tuple[ManeuverCard, Step]], overlapping: set[frozenset[str]]
    ) -> None:
        rules = self.mission.rules
        planes = self.flying()
        polygons = {plane.id: base_polygon(self.catalog, plane) for plane in planes}
        ruler = self.catalog.rules.units.ruler
        shots: list[Shot] = []
        ground_shots: list[Shot] = []
        infantry: list[tuple[str, str]] = []
        for shooter in planes:
            card, step = played[shooter.id]
            lost = card.kind == "dive" or step.descend > 0 or step.level < 0
            gained = card.kind == "climb"
            dived = card.kind == "dive" or step.dive_shot
            for gun in self.catalog.planes[shooter.type].guns:
                if shooter.ammo is not None and ammunition.dry(shooter, gun.name):
                    continue  # seed B.II: out of ammunition
                if shooter.half_jams:
                    gun = twin.working(shooter, gun)  # seed B.IV: the other gun alone
                if shooter.id in self.rocket_runs and self.phase <= 2:
                    continue  # seed A.IV.j: no gun fire during a rocket attack
                best: tuple[tuple[int, float, str], Shot] | None = None
                muzzle = math.hypot(*gun.point)
                for target in planes:
                    if target.side == shooter.side:
                        continue
                    gap = geo.distance((shooter.x, shooter.y), (target.x, target.y))
                    if gap > ruler + self.radius(target) + muzzle + geo.EPS:
                        continue  # out of any gun's reach: check_fire would say "range"
                    check = check_fire(
                        self.catalog,
                        shooter,
                        gun,
                        target,
                        planes,
                        rules,
                        last_kind=card.kind,
                        lost_height=lost,
                        gained_height=gained,
                        dived=dived,
                        overlapping=frozenset((shooter.id, target.id)) in overlapping,
                        polygons=polygons,
                    )
                    if not check.ok:
                        continue
                    fire = self.catalog.rules.fire
                    cards = fire.short_cards if check.short else fire.long_cards
                    if check.short:
                        cards += gun.short_bonus
                    bonus = 0
                    aimed = (
                        shooter.aim.get(gun.name) == target.id
                        and not shooter.hit_last
                        and "grass_snake" not in target.skills
                    )
                    if aimed:
                        bonus += 1  # seed A.II.c: consecutive fire on the same target
                    if rules.dive_shot and dived and shooter.level >= target.level:
                        cards += 1  # seed B.VII.a: the dive shot's extra card
                    elif rules.dive_shot and card.steep and shooter.level > target.level:
                        bonus += 1  # seed B.VII.a: a steep maneuver from above aims better
                    if step.extra_card:
                        cards += 1
                    # Standing order (authored): each gun takes the shot with most cards,
                    # then the nearest target.
                    key = (-cards, check.distance, target.id)
                    shot = Shot(shooter.id, gun, target.id, cards, bonus, aimed, check.short)
                    if best is None or key < best[0]:
                        best = (key, shot)
                if best is not None:
                    shots.append(self.behaviour_power(shooter, best[1], dived))
                elif self.ground or self.objectives:
                    self.aim_at_ground(shooter, gun, card.kind, planes, ground_shots, dived)
        shots.extend(self.ground_fire(planes, infantry))
        shots.extend(balloon_roles.basket_fire(self, planes))  # seed A.IV.i: air defence
        new_aim: dict[str, dict[str, str]] = {p.id: {} for p in planes}
        cancelled = behaviours.dodged(self, shots)
        for index, shot in enumerate(shots):
            if shot.shooter in new_aim:
                new_aim[shot.shooter][shot.gun.name] = shot.target
            # Seed D.VII.d Ghost: no shooting skill may single him out.
            ghost = shot.target in self.planes and "ghost" in self.planes[shot.target].skills
            unskilled = ghost or index in cancelled  # no token spent on a dodged shot either
            if not unskilled and self.spend_token(shot.shooter, "very_good_shot"):
                shot.bonus += 1  # seed D.VII.b
            if not unskilled and shot.target in self.planes:
                shooting.choose(self, shot)
            self.event(
                "fire",
                shooter=shot.shooter,
                gun=shot.gun.name,
                target=shot.target,
                range="short" if shot.short else "long",
                cards=shot.cards,
            )
            if index in cancelled:  # seed D.VI Artist: declared, then dodged
                self.event("shot-cancelled", plane=cancelled[index], shooter=shot.shooter,
                           gun=shot.gun.name, target=shot.target)  # fmt: skip
        for pid, aims in new_aim.items():
            if self.planes[pid].aim != aims:
                self.update(pid, aim=aims)
        self.deal([shot for index, shot in enumerate(shots) if index not in cancelled])
        self.hit_ground(ground_shots)
        for post_id, victim in infantry:
            # Seed A.IV.h: infantry fire draws one A card of which only the special counts.
            if self.planes[victim].status != "flying":
                continue
            _, damage = self.draw("A", victim)
            self.event("infantry-fire", post=post_id, target=victim)
            if damage.special not in ("none", "jam_red", "jam_green"):
                self.apply_special(victim, damage.special, damage.value, post_id, None)
        self.explosion_blast()

    def behaviour_power(self, shooter: PlaneState, shot: Shot, dived: bool) -> Shot:
        """Seed D.VI once-a-game powers that add a damage card: the Soldier's on a dive shot,
        the Opportunist's against a plane already smoking or burning from another's fire."""
        if shooter.power_used or shot.target not in self.planes:
            return shot
        target = self.planes[shot.target]
        soldier = (
            shooter.behaviour == "soldier"
            and dived
            and self.mission.rules.dive_shot
            and shooter.level >= target.level
        )
        opportunist = (
            shooter.behaviour == "opportunist"
            and (target.smoke > 0 or target.fire > 0)
            and target.last_hit_by not in (None, shooter.id)
        )
        guardian = behaviours.guards(self, shooter, target)
        if not (soldier or opportunist or guardian):
            return shot
        self.update(shooter.id, power_used=True, power_target=target.id)
        self.event("behaviour-power", plane=shooter.id, power=shooter.behaviour, target=target.id)
        # Seed D.VI: the Opportunist's and the Guardian Angel's card "cannot be cancelled
        # by any skill" (the Soldier's can).
        return replace(shot, cards=shot.cards + 1, sure=guardian or opportunist, soldier=soldier)

    def ground_fire(self, planes: list[PlaneState], infantry: list[tuple[str, str]]) -> list[Shot]:
        """Trenches and CAA posts fire all round at the nearest enemy plane in reach; a
        CAA's AA gun also shoots like an aircraft while it is not silenced (seed A.IV.h)."""
        shots: list[Shot] = []
        if not self.ground:
            return shots
        fire = self.catalog.rules.fire
        caa_gun = Gun(name="caa", deck=fire.caa_deck, axis=0, half_angle=89)
        for post in sorted(self.ground.values(), key=lambda g: g.id):
            if post.destroyed or post.kind == "dca":
                continue  # the flak battery fires only its shells (lay_flak, flak_bursts)
            best: tuple[float, str, bool] | None = None
            for plane in planes:
                if plane.side == post.side:
                    continue
                check = check_from_ground(self.catalog, post.x, post.y, plane, planes)
                if check.ok and (best is None or (check.distance, plane.id) < best[:2]):
                    best = (check.distance, plane.id, check.short)
            if best is None:
                continue
            infantry.append((post.id, best[1]))
            if post.kind == "caa" and not post.silenced:
                cards = fire.short_cards if best[2] else fire.long_cards
                shots.append(Shot(post.id, caa_gun, best[1], cards, 0, False, best[2]))
        return shots

    def aim_at_ground(
        self,
        shooter: PlaneState,
        gun: Gun,
        last_kind: str,
        planes: list[PlaneState],
        ground_shots: list[Shot],
        dived: bool = False,
    ) -> None:
        """With no plane to shoot at, a gun takes an enemy balloon in sight, else the
        nearest enemy ground element (authored standing order)."""
        if self.aim_at_balloon(shooter, gun, last_kind, planes, ground_shots, dived):
            return
        best: tuple[float, str, bool] | None = None
        for post in sorted(self.ground.values(), key=lambda g: g.id):
            if post.destroyed or post.side == shooter.side:
                continue
            check = check_at_ground(
                self.catalog, shooter, gun, post.x, post.y, planes, last_kind=last_kind
            )
            if check.ok and (best is None or (check.distance, post.id) < best[:2]):
                best = (check.distance, post.id, check.short)
        if best is not None:
            fire = self.catalog.rules.fire
            cards = fire.short_cards if best[2] else fire.long_cards
            ground_shots.append(Shot(shooter.id, gun, best[1], cards, 0, False, best[2]))
            self.event("fire-at-ground", shooter=shooter.id, gun=gun.name, target=best[1])

    def hit_ground(self, shots: list[Shot]) -> None:
        structure = self.catalog.rules.fire.ground_structure
        for shot in shots:
            ammunition.spend(self, shot)  # seed B.II: a round fired
            if shot.target in self.objectives:
                self.hit_balloon(shot)
                continue
            for _ in range(shot.cards):
                post = self.ground[shot.target]
                if post.destroyed:
                    break
                _, card = self.draw(shot.gun.deck, None)
                face = equipment.bullets(self, shot.shooter, card.value)  # seed D.VIII
                points = self.halved(shot.shooter, shot.gun, face)
                changes: dict[str, object] = {"damage": post.damage + points}
                if card.special in ("jam_red", "jam_green"):
                    self.apply_special(
                        shot.shooter, card.special, card.value, shot.shooter, shot.gun
                    )
                elif card.special != "none" and post.kind in ("caa", "dca"):
                    # Seed A.IV.h: any other special silences the AA gun (authored: the
                    # flak battery's too).
                    changes["silenced"] = True
                limit = (
                    self.catalog.rules.objectives.dca_structure if post.kind == "dca" else structure
                )
                if card.special == "explosion" or post.damage + points >= limit:
                    changes.update(destroyed=True, destroyed_by=shot.shooter)
                    self.event("ground-destroyed", post=post.id, by=shot.shooter)
                self.ground[post.id] = post.model_copy(update=changes)
                strafing.mirror(self, post.id, shot.shooter)  # seed E.I.a: a post to strafe

    # --- flak (seed A.IV.h) -------------------------------------------------------------

    def lay_flak(self) -> None:
        """Once the programs are in, an armed battery's gunner lays its burst counter (his
        order, ``gunner``), seen by his own side only until it bursts."""
        for pid in sorted(self.ground):
            if not gunner.ready(self.ground[pid], self.turn):
                continue
            burst = gunner.lay(self, pid)
            if burst is None:
                continue
            battery = self.ground[pid]
            self.ground[pid] = battery.model_copy(update={"burst": burst})
            self.event("flak-laid", secret_for=battery.side, battery=pid,
                       x=round(burst[0], 3), y=round(burst[1], 3), level=burst[2])  # fmt: skip

    def flak_bursts(self) -> None:
        """Seed A.IV.h: the shell bursts (in the second maneuver, or the next turn's first
        when its gunner delayed it); the battery then reloads for the whole next turn."""
        due = [
            pid
            for pid in sorted(self.ground)
            if self.ground[pid].kind == "dca"
            and self.ground[pid].burst is not None
            and self.ground[pid].burst_turn in (None, self.turn)
            and self.ground[pid].burst_phase == self.phase
        ]
        if self.phase != 2 and not due:
            return
        for pid in due:
            battery = self.ground[pid]
            assert battery.burst is not None
            self.ground[pid] = battery.model_copy(
                update={"burst": None, "ready_turn": self.turn + 2, "burst_turn": None,
                        "burst_phase": 2, "follow": None}
            )  # fmt: skip
            if battery.destroyed or battery.silenced:
                continue
            hits = flak.caught(
                self.catalog, battery.burst, self.flying(), self.mission.rules.flak_near
            )
            x, y, level = battery.burst
            self.event("flak-burst", battery=pid, planes=[plane for plane, _ in hits],
                       x=round(x, 3), y=round(y, 3), level=level)  # fmt: skip
            for target, letter in hits:
                _, card = self.draw(letter, target)
                self.apply_card(target, card, pid, None)
        self.explosion_blast()

    # --- objectives (seed A.IV.e-g, A.IV.i) ----------------------------------------------

    def objective_actions(
        self,
        played: dict[str, tuple[ManeuverCard, Step]],
        programs: dict[str, Program] | None = None,
    ) -> None:
        """After the maneuver and before fire (seed A.IV.e): bombs fall, and photographs
        and reconnaissance passes are noted."""
        if not self.objectives:
            return
        for plane in self.flying():
            card, _step = played[plane.id]
            for site in sorted(self.objectives.values(), key=lambda o: o.id):
                if site.side == plane.side or site.done_by is not None:
                    continue
                if site.kind == "photo" and obj.photographs(self.catalog, plane, card.kind, site):
                    kind = "photographed"
                elif site.kind == "recon" and obj.reconnoitres(self.catalog, plane, site):
                    kind = "reconnoitred"
                else:
                    continue
                self.objectives[site.id] = site.model_copy(update={"done_by": plane.id})
                self.event(kind, plane=plane.id, objective=site.id)
            bombing.act(self, plane, card.kind, (programs or {}).get(plane.id))

    def release_bomb(self, plane: PlaneState, last_kind: str, announced: bool = False) -> None:
        """Standing order (authored): a bomber releases when its bomb would land on an
        enemy target, never at level 0 (where the seed has it blow up with its bomb). A
        release the player ``announced`` falls whatever it lands on (bombing)."""
        pose = obj.bomb_fall(self.catalog, plane, last_kind)
        hits = [
            (obj.bomb_damage(self.catalog, pose, target, plane.cluster), target)
            for target in sorted(self.objectives.values(), key=lambda o: o.id)
            if target.kind == "target" and target.side != plane.side and not target.destroyed
        ]
        hits = [(points, target) for points, target in hits if points > 0]
        if not hits and not announced:
            return
        self.update(plane.id, bombs=plane.bombs - 1)
        self.event("bomb-released", plane=plane.id, x=round(pose[0], 3), y=round(pose[1], 3))
        if not hits:
            self.event("bomb-missed", plane=plane.id)  # spent: another pass needs another bomb
        for points, target in hits:
            damage = target.damage + points
            destroyed = damage >= majors.structure(self.catalog, target)
            self.objectives[target.id] = target.model_copy(
                update={"damage": damage, "destroyed": destroyed, "hit_by": plane.id}
            )
            self.event(
                "bomb-hit", plane=plane.id, objective=target.id, damage=points, destroyed=destroyed
            )

    def aim_at_balloon(
        self,
        shooter: PlaneState,
        gun: Gun,
        last_kind: str,
        planes: list[PlaneState],
        ground_shots: list[Shot],
        dived: bool,
    ) -> bool:
        """Seed A.IV.i: a balloon is fired at like a plane, but not from over its card
        unless with a dive shot."""
        best: tuple[float, str, bool] | None = None
        own = base_polygon(self.catalog, shooter)
        for balloon in sorted(self.objectives.values(), key=lambda o: o.id):
            if not winch.up(balloon) or balloon.side == shooter.side:
                continue
            over = geo.overlaps(own, ground_polygon(self.catalog, balloon.x, balloon.y))
            if over and not (dived and self.mission.rules.dive_shot):
                continue
            check = check_at_ground(
                self.catalog,
                shooter,
                gun,
                balloon.x,
                balloon.y,
                planes,
                last_kind=last_kind,
                level=balloon.level,
            )
            if check.ok and (best is None or (check.distance, balloon.id) < best[:2]):
                best = (check.distance, balloon.id, check.short)
        if best is None:
            return False
        fire = self.catalog.rules.fire
        cards = fire.short_cards if best[2] else fire.long_cards
        ground_shots.append(Shot(shooter.id, gun, best[1], cards, 0, False, best[2]))
        self.event("fire-at-balloon", shooter=shooter.id, gun=gun.name, target=best[1])
        return True

    def hit_balloon(self, shot: Shot) -> None:
        for _ in range(shot.cards):
            if self.objectives[shot.target].destroyed:
                break
            _, card = self.draw(shot.gun.deck, None)
            if card.special in ("jam_red", "jam_green"):
                self.apply_special(shot.shooter, card.special, card.value, shot.shooter, shot.gun)
            face = equipment.bullets(self, shot.shooter, card.value)  # seed D.VIII
            points = self.halved(shot.shooter, shot.gun, face)
            special = equipment.balloon_special(self, shot.shooter, card.special)
            self.damage_balloon(shot.target, points, special, shot.shooter)

    def damage_balloon(self, oid: str, points: int, special: str, source: str | None) -> None:
        """Seed A.IV.i: points count, and of the specials only fire (lasting, cumulative)
        and explosion; a balloon at 0 structure or exploded is down."""
        balloon = self.objectives[oid]
        changes: dict[str, object] = {"damage": balloon.damage + points}
        if source is not None and (points > 0 or special in ("fire", "explosion")):
            changes["hit_by"] = source
        if special == "fire":
            changes["fire"] = balloon.fire + 1
            if balloon.fired_by is None:
                changes["fired_by"] = source
            self.event("balloon-fire", objective=oid, by=source)
        balloon = balloon.model_copy(update=changes)
        self.objectives[oid] = balloon
        structure = self.catalog.rules.objectives.balloon_structure
        if special == "explosion" or balloon.damage >= structure:
            self.balloon_down(oid, explodes=special == "explosion" or balloon.fire > 0)

    def balloon_down(self, oid: str, explodes: bool) -> None:
        """Seed A.IV.i: a balloon destroyed while burning (or by an explosion) blows up: a
        C card to each plane at its level over its card, an A card to those within R/2."""
        balloon = self.objectives[oid].model_copy(update={"destroyed": True, "exploded": explodes})
        self.objectives[oid] = balloon
        self.event("balloon-destroyed", objective=oid, by=balloon.hit_by, exploded=explodes)
        if not explodes:
            return
        card_area = ground_polygon(self.catalog, balloon.x, balloon.y)
        reach = self.catalog.rules.units.ruler / 2
        for plane in self.flying():
            if plane.level != balloon.level:
                continue
            if geo.overlaps(base_polygon(self.catalog, plane), card_area):
                letter = "C"
            elif geo.distance((plane.x, plane.y), (balloon.x, balloon.y)) <= reach:
                letter = "A"
            else:
                continue
            _, card = self.draw(letter, plane.id)
            self.event("balloon-blast", plane=plane.id, objective=oid, deck=letter)
            self.apply_card(plane.id, card, None, None)

    def burning_balloons(self) -> None:
        """Seed A.IV.i at the start of a turn: a burning balloon draws an A card per fire
        result (points and explosion count), then is winched down one climb counter."""
        per_level = self.catalog.rules.objectives.balloon_counters_per_level
        for oid in sorted(self.objectives):
            balloon = self.objectives[oid]
            if not winch.up(balloon) or balloon.fire <= 0:
                continue
            for _ in range(balloon.fire):
                _, card = self.draw("A", None)
                special = "explosion" if card.special == "explosion" else "none"
                self.damage_balloon(oid, card.value, special, None)
                if self.objectives[oid].destroyed:
                    break
            balloon = self.objectives[oid]
            if balloon.destroyed:
                continue
            level, counters = balloon.level, balloon.counters - 1
            if counters < 0:
                level, counters = (level - 1, per_level - 1) if level > 0 else (0, 0)
            self.objectives[oid] = balloon.model_copy(update={"level": level, "counters": counters})
            self.event("balloon-winched", objective=oid, level=level)

    def deal(self, shots: list[Shot]) -> None:
        """Seed A.II.a: cards are dealt one at a time, first to the target whose deck letter
        is nearest Z, then back up the alphabet, round after round."""
        queue: dict[str, list[Shot]] = {}
        for shot in shots:
            queue.setdefault(shot.target, []).append(replace(shot, left=shot.cards))
        order = sorted(
            queue,
            key=lambda pid: (self.catalog.planes[self.planes[pid].type].deck, pid),
            reverse=True,
        )
        seen: dict[tuple[str, str], set[str]] = {}
        while any(shot.left > 0 for waiting in queue.values() for shot in waiting):
            for target in order:
                pending = [shot for shot in queue[target] if shot.left > 0]
                if not pending:
                    continue
                if self.planes[target].status != "flying":
                    # A destroyed plane takes no more cards from the shots still owed.
                    for shot in pending:
                        shot.left = 0
                    continue
                shot = pending[0]
                first = shot.left == shot.cards
                ammo_card = ammunition.first_card(self, shot, target) if first else None
                if (shot.sharp or shot.killer) and first:
                    shooting.pick(self, shot)
                    if shot.left <= 0 or self.planes[target].status != "flying":
                        continue
                shot.left -= 1
                if ammo_card is not None:
                    card = ammo_card
                elif shot.picked:
                    card = shooting.hand_over(self, shot.gun.deck, shot.picked.pop(0), target)
                else:
                    _, card = self.draw(shot.gun.deck, target)
                if (
                    shot.short
                    and card.value > 0
                    and self.planes[target].status == "flying"
                    and "ghost" not in self.planes[target].skills  # seed D.VII.d Ghost
                    and self.spend_token(shot.shooter, "excellent_shot")
                ):
                    # Seed D.VII.b Excellent shot: a point to the pilot per card at short range.
                    point = equipment.direct_wound(self, target, 1)  # seed D.VIII vest
                    hurt = self.update(target, pilot_lp=self.planes[target].pilot_lp - point)
                    if hurt.pilot_lp < 0:
                        self.shoot_down(target, "crashed", shot.shooter)  # D.V: he is dead
                        continue
                self.apply_card(
                    target,
                    card,
                    shot.shooter,
                    shot.gun,
                    bonus=shot.bonus,
                    aimed=shot.aimed,
                    long_range=not shot.short,
                    seen=seen.setdefault((shot.shooter, shot.gun.name), set()),
                    sure=shot.sure and shot.left == 0,
                    soldier=shot.soldier,
                )
        self.explosion_blast()

    def play_phase(self, programs: dict[str, Program]) -> None:
        table_w, table_h = self.mission.table
        if self.phase == 2:
            gunner.follow(self)  # seed A.IV.h: moved before the 2nd maneuver is revealed
        moves: dict[str, tuple[ManeuverCard, float]] = {}
        played: dict[str, tuple[ManeuverCard, Step]] = {}
        for plane in self.flying():
            program = programs[plane.id]
            card = self.card_for(plane, program)
            length = self.catalog.base_size(self.catalog.planes[plane.type])[1]
            moves[plane.id] = (card, length)
            played[plane.id] = (card, self.step_effect(plane, program))
            self.event("card-revealed", plane=plane.id, card=card.code)
        pairs = self.collision_pairs(moves) if self.mission.rules.collisions else []
        starts = {pid: (self.planes[pid].x, self.planes[pid].y) for pid in moves}
        # Each move is told once its altitude is set: where the step began and ended, and at
        # which level, so the turn can be drawn step by step from its public events.
        began = {pid: self.planes[pid] for pid in moves}
        for pid, (card, _length) in moves.items():
            plane = self.planes[pid]
            move = self.catalog.move(self.catalog.planes[plane.type], card.code)
            x, y, heading = geo.apply_move(plane.x, plane.y, plane.heading, move)
            self.update(pid, x=x, y=y, heading=heading, last_card=card.code, last_steep=card.steep)
        for pid, (card, step) in played.items():
            self.altitude(pid, card, step, programs[pid])
        for pid, (card, _length) in moves.items():
            before, after = began[pid], self.planes[pid]
            self.event(
                "moved",
                plane=pid,
                x=round(after.x, 3),
                y=round(after.y, 3),
                heading=round(after.heading, 1),
                card=card.code,
                start=[round(before.x, 3), round(before.y, 3), round(before.heading, 1)],
                level=after.level,
                counters=after.counters,
                level_before=before.level,
            )
        relief.crash_low(self)  # seed F.V: too low over a hill or a ridge
        for pid in moves:
            plane = self.planes[pid]
            if plane.status == "flying" and not (
                0 <= plane.x <= table_w and 0 <= plane.y <= table_h
            ):
                # Authored 3.2: off the table when the centre leaves it; it counts as fled.
                exits.mark_left(self, pid, starts[pid])
        self.collide(pairs)
        self.explosion_blast()
        landing.after_move(self, programs)
        balloons.cables(self)
        balloons.collisions(self)
        if self.mission.net_shape == "ring":
            nets.ring(self, starts)  # seed A.IV.i.2: the protective ring
        else:
            balloons.nets(self, starts)
        self.objective_actions(played, programs)
        self.flak_bursts()  # seed A.IV.h: in the 2nd maneuver's fire step, or a delayed one
        flying = self.flying()
        polys = {p.id: base_polygon(self.catalog, p) for p in flying}
        overlapping = {
            frozenset((a.id, b.id))
            for i, a in enumerate(flying)
            for b in flying[i + 1 :]
            # Bases whose circumscribed circles are apart cannot overlap.
            if geo.distance((a.x, a.y), (b.x, b.y)) <= self.radius(a) + self.radius(b) + geo.EPS
            and geo.overlaps(polys[a.id], polys[b.id])
        }
        self.fire_phase(played, overlapping)
        pistol.act(self, programs)  # seed D.VIII: after the machine guns
        if self.phase == 2:
            balloons.fire_rockets(self)
        ammunition.return_unused(self)
        twin.tick(self)
        for pid in self.ids():
            plane = self.planes[pid]
            # Seed A.II.c: a plane hit during a maneuver loses its aiming bonus next maneuver.
            changes: dict[str, object] = {}
            if plane.hit_last != (pid in self.hit_this_phase):
                changes["hit_last"] = pid in self.hit_this_phase
            if plane.status == "flying" and plane.jams:
                changes["jams"] = {
                    gun: left if (pid, gun) in self.fresh or left >= PERMANENT else left - 1
                    for gun, left in plane.jams.items()
                    if left > 1 or (pid, gun) in self.fresh
                }
            if plane.status == "flying" and plane.no_fire and (pid, "no_fire") not in self.fresh:
                changes["no_fire"] = plane.no_fire - 1
            if changes:
                self.update(pid, **changes)
        self.hit_this_phase = set()
        self.fresh = set()
        behaviours.spare(self)  # seed D.VI Knight: a pilot dead this maneuver may be spared

    def end_of_turn(self) -> None:
        landing.landing_window(self)
        behaviours.spare(self)
        for plane in self.aloft():
            if 0 < plane.smoke < PERMANENT:
                self.update(plane.id, smoke=plane.smoke - 1)
        self.pursuits = self.tailing() if self.mission.rules.tailing else {}
        shooting.experts_look(self)
        ceiling.move_floor(self)
        clouds.seal_the_edge(self)
        exits.bring_back(self)  # seed A.IV.c: once the turn after the exit is over
        # Seed F.VI.e: out of the sun once the chosen turn is over, lining up on the planes
        # just back on the table too. With no climb counter it is never at the cloud edge
        # with the shipped planes (all climb 2 or more), so the edge sealed above holds.
        sun.enter(self)
        balloon_roles.raise_alert(self)  # seed A.IV.i surveillance: F.VI.d's alert

    def tailing(self) -> dict[str, str]:
        """Authored 4.5 on seed A.IV.d: front edge to rear edge within a ruler, crossing no
        base; the pursuer no more than one level above, unhurt in phase 3, not smoking."""
        if self.mission.weather == "medium":
            return {}  # seed F.VI.b: no pursuit in medium cloudiness
        ruler = self.catalog.rules.units.ruler
        planes = self.flying()
        polys = {p.id: base_polygon(self.catalog, p) for p in planes}
        result: dict[str, str] = {}
        for pursuer in planes:
            if pursuer.smoke > 0 or pursuer.fire > 0 or pursuer.hit_last:
                continue
            best: tuple[float, str] | None = None
            for target in planes:
                if target.side == pursuer.side or "grass_snake" in target.skills:
                    continue
                if pursuer.level - target.level not in (0, 1):
                    continue
                if geo.distance((pursuer.x, pursuer.y), (target.x, target.y)) > ruler + 4.0:
                    continue  # edges cannot be a ruler apart: two half-bases are under 2 bw
                length = self._tail_segment(pursuer, target, planes, polys, ruler)
                if length is not None and (best is None or (length, target.id) < best):
                    best = (length, target.id)
            if best is not None:
                result[pursuer.id] = best[1]
                self.event("tailing", pursuer=pursuer.id, target=best[1])
        return result

    def _tail_segment(
        self,
        pursuer: PlaneState,
        target: PlaneState,
        planes: list[PlaneState],
        polys: dict[str, geo.Polygon],
        ruler: float,
    ) -> float | None:
        front = _edge_points(polys[pursuer.id][3], polys[pursuer.id][0])
        rear = _edge_points(polys[target.id][1], polys[target.id][2])
        ahead = _unit(pursuer.heading)
        onward = _unit(target.heading)

        def forward(p: geo.Point, q: geo.Point) -> bool:
            # The ruler leaves the pursuer's nose forwards and meets the target's tail from
            # behind; a ruler grazing along a base's side would otherwise pass the test.
            d = (q[0] - p[0], q[1] - p[1])
            return d[0] * ahead[0] + d[1] * ahead[1] > 0 and d[0] * onward[0] + d[1] * onward[1] > 0

        segments = sorted(
            (geo.distance(p, q), p, q)
            for p in front
            for q in rear
            if geo.distance(p, q) <= ruler and forward(p, q)
        )
        for length, p, q in segments:
            if not any(geo.segment_hits_polygon(p, q, polys[other.id]) for other in planes):
                return length
        return None

    def snapshot(self) -> MissionState:
        """The mission with its planes and objectives as they stand now, for the objective
        rules (what is achieved, who won)."""
        return self.mission.model_copy(
            # the ground too: a strafing mission's posts are trenches (strafing)
            update={"planes": self.planes, "objectives": self.objectives, "ground": self.ground}
        )

    def objective_mission_over(self, alive: dict[SideName, list[PlaneState]]) -> bool:
        """A mission against objectives (seed E.I.a) goes on while the aggressor can act:
        his enemies gone from the sky, he still has the objectives and the ground defences
        before him (authored: the seed names no end). It is over when none of his planes is
        left in it, or when nobody opposes him in the air and every objective is achieved."""
        defender = next(iter(self.objectives.values())).side
        if not alive[other(defender)]:
            return True
        return not alive[defender] and obj.all_achieved(self.snapshot())

    def decks(self) -> dict[str, DeckState]:
        return {
            letter: DeckState(
                letter=letter,
                copies=self.mission.decks[letter].copies,
                pile=tuple(self.piles[letter]),
                spent=tuple(self.spent[letter]),
            )
            for letter in self.mission.decks
        }

    def pause(self, programs: dict[str, Program], aces: list[str]) -> MissionState:
        """The mission stopped after the second maneuver for the Aces' last-card change
        (seed D.VII.a): what the third maneuver and the turn's end need is kept in it."""
        return self.mission.model_copy(
            update={
                "planes": self.planes,
                "ground": self.ground,
                "objectives": self.objectives,
                "decks": self.decks(),
                "programs": programs,
                "round": "swap",
                "floor": self.floor,
                "lp_at_start": self.lp_at_start,
                "programmed": {
                    pid: ace.as_programmed(self.mission.planes[pid], self.turn) for pid in aces
                },
            }
        )

    def finish(self) -> MissionState:
        decks = self.decks()
        turn = self.turn + 1
        # A plane on the ground (seed B.I) is still in the mission, unless a seriously
        # wounded pilot brought it down for good.
        aloft = [
            p
            for p in self.planes.values()
            if p.status == "flying"
            or (p.status == "landed" and not landing.grounded(self.catalog, p))
            # Off the table this turn, its player may still bring it back (seed A.IV.c).
            or exits.may_come_back(self.mission, p, turn)
            # Waiting to enter out of the sun: in the mission, not fled (seed F.VI.e).
            or p.status == "waiting"
        ]
        alive = {side: [p for p in aloft if p.side == side] for side in SIDES}
        finished, winner = False, None
        if self.objectives:
            finished = turn > self.mission.max_turns or self.objective_mission_over(alive)
        elif not alive["entente"] or not alive["central"]:
            finished = True
            if alive["entente"]:
                winner = "entente"
            elif alive["central"]:
                winner = "central"
            else:
                winner = "draw"
        elif turn > self.mission.max_turns:
            finished, winner = True, "draw"
        # Seed A.IV.i artillery spotting: no balloon burning by its last turn, the guns fire.
        shelled = bool(self.objectives) and balloon_roles.artillery_fires(self)
        finished = finished or shelled
        if finished:
            clouds.at_mission_end(self)
            landing.stranded(self)
            if self.objectives:
                winner = obj.mission_result(self.snapshot())
            self.event("mission-over", winner=winner)
        return self.mission.model_copy(
            update={
                "planes": self.planes,
                "ground": self.ground,
                "objectives": self.objectives,
                "decks": decks,
                "turn": turn,
                "programs": {},
                "returning": (),
                "round": "program",
                "pursuits": self.pursuits,
                "finished": finished,
                "winner": winner,
                "floor": self.floor,
                "lp_at_start": {},
                "programmed": {},
                "flak_orders": {},
            }
        )


def sweep(card: ManeuverCard, length: float) -> list[tuple[float, float, float]]:
    """The card's sampled path in the plane's frame (authored 4.1), computed once."""
    key = (id(card), length)
    cached = _SWEEPS.get(key)
    if cached is None:
        poses = [
            geo.path_pose(card, length, step / SWEEP_STEPS) for step in range(1, SWEEP_STEPS + 1)
        ]
        cached = _SWEEPS[key] = (card, poses)
    return cached[1]


def _unit(heading: float) -> geo.Point:
    rad = math.radians(heading)
    return (math.cos(rad), math.sin(rad))


def _edge_points(start: geo.Point, end: geo.Point) -> list[geo.Point]:
    """Five points along an edge: its ends and quarter points (authored 4.5)."""
    return [
        (start[0] + (end[0] - start[0]) * k / 4, start[1] + (end[1] - start[1]) * k / 4)
        for k in range(5)
    ]


def play_turn(
    catalog: Catalog,
    mission: MissionState,
    programs: dict[str, Program],
    rng: Rng,
    *,
    aces: bool = False,
) -> tuple[MissionState, list[Event]]:
    """Fly one full turn with every flying plane's (already validated) program; with
    ``aces``, stop it after the second maneuver when an Ace of Aces may change his last
    card (the mission's round is then ``swap``; ``resume_turn`` flies the rest)."""
    work = Turn(catalog, mission, rng)
    work.event("turn-started")
    clouds.before_turn(work, programs)
    landing.take_off(work, programs)
    balloons.arm_rockets(work, programs)
    work.start_of_turn()
    for phase in (1, 2, 3):
        if phase == 3 and aces:
            waiting = ace.swappers(work.planes, programs, work.turn)
            if waiting:
                return work.pause(programs, waiting), work.events
        work.phase = phase
        if not work.flying():
            break
        work.play_phase(programs)
        records.phase_flown(work)
    work.phase = 0
    carry_sequences(work, programs)
    work.end_of_turn()
    state = work.finish()
    return state, work.events


def carry_sequences(work: Turn, programs: Mapping[str, Program]) -> None:
    """Seed A.I.b: a complex maneuver begun late is owed next turn; one done is dropped."""
    for pid, (key, flown) in sequences.carry_over(work.catalog, work.planes, programs).items():
        work.update(pid, sequence=key, sequence_flown=flown)


def resume_turn(
    catalog: Catalog, mission: MissionState, rng: Rng
) -> tuple[MissionState, list[Event]]:
    """The third maneuver and the turn's end, after the Aces' last-card change."""
    work = Turn(catalog, mission, rng)
    work.lp_at_start = dict(mission.lp_at_start)
    work.phase = 3
    if work.flying():
        work.play_phase(dict(mission.programs))
        records.phase_flown(work)
    work.phase = 0
    carry_sequences(work, mission.programs)
    work.end_of_turn()
    return work.finish(), work.events


def shuffled_deck(letter: str, size: int, copies: int, stream: random.Random) -> DeckState:
    pile = list(range(size * copies))
    stream.shuffle(pile)
    return DeckState(letter=letter, copies=copies, pile=tuple(pile))


def copies_needed(users: int) -> int:
    """Found (2.4): one deck per four planes in play."""
    return max(1, math.ceil(users / 4))
