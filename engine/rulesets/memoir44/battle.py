"""The dice of an air turn, in the order the rules give them.

During the move: the other side's answers to tokens placed on its units (Ambush, Flak) in
flight order, then an Interception at the end of the move; a plane shot down or forced off
there never makes its attack (IV, Ambush). Then the Battle phase: the plane's tokens in
flight order (III.f), its strategic bombing right after (III.g), its dogfight (III.i, with
a bomber's Defensive Gunners firing back), and last the ground units' fire at the enemy
plane (III.k). The rules let the active player order his battles; the bot plays them in
this fixed order, which the table sees before it orders (docs/memoir44.md).

Every hit on an airborne plane is confirmed by rerolling the dice that hit (III.h); a
landed plane dies on a grenade or a flag, unconfirmed (III.d).
"""

from __future__ import annotations

from collections.abc import Sequence

import engine.rulesets.memoir44.dice as dice
from engine.rng import Rng
from engine.ruleset import Event
from engine.rulesets.memoir44.catalog import Card, Catalog, SideId, card_key
from engine.rulesets.memoir44.deck import draw, next_stream, with_side
from engine.rulesets.memoir44.dice import Face
from engine.rulesets.memoir44.state import Fallen, GameState, Medal, Plane, Roll, Token, other

UNIT_DICE = {"infantry": 3, "armour": 3, "artillery": 4, "destroyer": 4}


class _Battle:
    """One turn's battle, threading the state through every roll."""

    def __init__(self, catalog: Catalog, state: GameState, rng: Rng) -> None:
        self.catalog = catalog
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        plan = state.plan
        assert plan is not None
        self.plan = plan
        self.attacker: SideId = plan.side
        self.defender: SideId = other(plan.side)
        self.card: Card | None = catalog.card(plan.effect) if plan.effect else None
        answer = catalog.card(card_key(plan.reaction)) if plan.reaction else None
        self.answer: Card | None = answer
        # Evasive Action: the first hit the defender's plane takes this turn goes away.
        self.shield = answer is not None and answer.cancel_hits > 0

    # -- dice and records
    def roll(self, count: int) -> tuple[Face, ...]:
        self.state, stream = next_stream(self.state, self.rng, "dice")
        return dice.roll(stream, count)  # type: ignore[arg-type]

    def record(self, roll: Roll, **extra: object) -> None:
        self.state = self.state.model_copy(update={"rolled": (*self.state.rolled, roll)})
        data: dict[str, object] = {
            "side": roll.side,
            "purpose": roll.purpose,
            "faces": list(roll.faces),
            "hits": roll.hits,
        }
        if roll.flags:
            data["flags"] = roll.flags
        if roll.token:
            data["token"] = roll.token
        if roll.outcome:
            data["outcome"] = roll.outcome
        data.update(extra)
        self.events.append(Event(kind="m44-roll", turn=self.state.turn, data=data))

    def plane_of(self, side: SideId) -> object:
        return self.state.side(side).plane

    # -- shooting at planes
    def at_plane(
        self,
        shooter: SideId,
        count: int,
        purpose: str,
        *,
        faces: Sequence[str] = (),
        confirm: Sequence[str] = ("grenade",),
        token: int = 0,
    ) -> int:
        """Roll ``count`` dice at ``shooter``'s enemy plane; return the hits to confirm."""
        victim = other(shooter)
        plane = self.state.side(victim).plane
        if plane is None:
            return 0
        rolled = self.roll(count)
        if plane.status == "airborne":
            hits = dice.grenades(rolled, faces)
            cancelled = 0
            if hits and victim == self.defender and self.shield:
                self.shield = False
                cancelled = 1
                hits -= 1
            extra = {"cancelled": cancelled} if cancelled else {}
            self.record(
                Roll(side=shooter, purpose=purpose, faces=rolled, hits=hits, token=token), **extra
            )
            return hits
        # III.d: on the ground any grenade or flag destroys it, with no confirmation.
        hits = sum(1 for face in rolled if face in ("grenade", "flag"))
        self.record(Roll(side=shooter, purpose=purpose, faces=rolled, hits=hits, token=token))
        if hits:
            self.down(victim, shooter, confirmed=False)
        return 0

    def confirm(self, shooter: SideId, hits: int, shoot_down: Sequence[str] = ("grenade",)) -> None:
        victim = other(shooter)
        plane = self.state.side(victim).plane
        if not hits or plane is None:
            return
        rolled = self.roll(hits)
        outcome = dice.confirm(rolled, shoot_down)
        self.record(Roll(side=shooter, purpose="confirm", faces=rolled, outcome=outcome))
        if outcome == "shot-down":
            self.down(victim, shooter, confirmed=True)
        elif outcome == "forced-off":
            self.fall(victim, plane, "forced-off")
            self.events.append(
                Event(
                    kind="m44-forced-off",
                    turn=self.state.turn,
                    data={"side": victim, "model": plane.model},
                )
            )
            self.state = with_side(self.state, victim, plane=None)

    def down(self, victim: SideId, shooter: SideId | None, *, confirmed: bool) -> None:
        """A plane destroyed: its type is lost for the game; the shooter takes its marker as
        a medal and an Air Combat card (III.h, III.d), unless it sank with its carrier."""
        mine = self.state.side(victim)
        plane = mine.plane
        assert plane is not None
        lost = (*mine.lost, plane.type) if plane.type not in mine.lost else mine.lost
        self.fall(victim, plane, "shot-down")
        self.state = with_side(self.state, victim, plane=None, lost=lost)
        self.events.append(
            Event(
                kind="m44-shot-down",
                turn=self.state.turn,
                data={
                    "side": victim,
                    "model": plane.model,
                    "type": plane.type,
                    "by": shooter or "",
                    "confirmed": confirmed,
                },
            )
        )
        if shooter is None:
            return
        medals = (
            *self.state.side(shooter).medals,
            Medal(kind="kill", turn=self.state.turn, detail=plane.model),
        )
        self.state = with_side(self.state, shooter, medals=medals)
        self.state, drew = draw(self.state, self.rng, shooter, 1, "kill")
        self.events += drew

    def fall(self, side: SideId, plane: Plane, outcome: str) -> None:
        fallen = Fallen(side=side, model=plane.model, hex=plane.hex, outcome=outcome)
        self.state = self.state.model_copy(update={"fallen": (*self.state.fallen, fallen)})

    def fire(self, shooter: SideId, count: int, purpose: str, token: int = 0) -> None:
        self.confirm(shooter, self.at_plane(shooter, count, purpose, token=token))

    # -- the turn
    def answers(self) -> None:
        plan = self.plan
        moments: list[tuple[int, int, str, int]] = []
        if plan.ambush and plan.ambush_unit in UNIT_DICE:
            moments.append((plan.ambush, 0, "ambush", UNIT_DICE[plan.ambush_unit]))
        answer = self.answer
        if answer is not None and answer.ground_fire and plan.reaction_token:
            moments.append((plan.reaction_token, 1, "flak", answer.ground_fire))
        for token, _order, purpose, count in sorted(moments):
            if self.plane_of(self.attacker) is None:
                break
            # The answer comes as the token is placed: the plane is over that hex then.
            self.move_attacker(self.plan.tokens[token - 1].hex)
            self.fire(self.defender, count, purpose, token)
        if self.plan.path:
            self.move_attacker(self.plan.path[-1])
        if answer is not None and answer.intercept and self.plane_of(self.attacker) is not None:
            fighter = self.state.side(self.defender).plane
            if fighter is not None:
                self.fire(self.defender, self.catalog.types[fighter.type].dogfight, "interception")

    def move_attacker(self, hexlabel: str) -> None:
        plane = self.state.side(self.attacker).plane
        if plane is not None and plane.hex != hexlabel:
            moved = plane.model_copy(update={"hex": hexlabel})
            self.state = with_side(self.state, self.attacker, plane=moved)

    def land(self) -> None:
        plane = self.state.side(self.attacker).plane
        finish = self.plan.finish
        if plane is None or finish not in ("airfield", "carrier"):
            return
        landed = plane.model_copy(update={"status": finish, "refill": True})
        self.state = with_side(self.state, self.attacker, plane=landed)
        self.events.append(
            Event(
                kind="m44-landed",
                turn=self.state.turn,
                data={"side": self.attacker, "model": plane.model, "hex": plane.hex, "on": finish},
            )
        )

    def token_dice(self, number: int, token: Token) -> tuple[int, tuple[str, ...]]:
        card = self.card
        faces: tuple[str, ...]
        if card is None:
            count, faces = 1, (("symbol",) if token.kind == "mg" else ("symbol", "grenade"))
        elif token.kind == "mg":
            count, faces = card.mg_dice, tuple(card.mg_faces)
        else:
            count, faces = card.bomb_dice, tuple(card.bomb_faces)
        if card is not None and number == 1 and card.first_dice:
            count, faces = card.first_dice, tuple(card.first_faces)
        if card is not None and token.target == "armour" and card.armour_dice:
            count, faces = max(count, card.armour_dice), faces + tuple(card.armour_faces)
        return count + self.plan.markers, faces

    def attack(self) -> None:
        for number, token in enumerate(self.plan.tokens, 1):
            count, faces = self.token_dice(number, token)
            rolled = self.roll(count)
            hits = dice.hits(rolled, faces, token.target)
            flags = sum(1 for face in rolled if face == "flag")
            self.record(
                Roll(
                    side=self.attacker,
                    purpose="token",
                    faces=rolled,
                    hits=hits,
                    flags=flags,
                    token=number,
                ),
                hex=token.hex,
                kind=token.kind,
                target=token.target,
                **({"stick": True} if self.card is not None and self.card.flags_stick else {}),
            )

    def bombing(self) -> None:
        plane = self.state.side(self.attacker).plane
        if self.plan.finish != "bombing" or plane is None:
            return
        rolled = self.roll(1)
        won = "grenade" in rolled
        self.record(
            Roll(side=self.attacker, purpose="bombing", faces=rolled, hits=int(won)), hex=plane.hex
        )
        if won:
            medal = Medal(kind="bombing", turn=self.state.turn, detail=plane.hex)
            self.state = with_side(
                self.state, self.attacker, medals=(*self.state.side(self.attacker).medals, medal)
            )
            bombed = {**self.state.bombed, plane.hex: self.attacker}
            self.state = self.state.model_copy(update={"bombed": bombed})

    def dogfight(self) -> None:
        plane = self.state.side(self.attacker).plane
        enemy = self.state.side(self.defender).plane
        if self.plan.finish != "dogfight" or plane is None or enemy is None:
            return
        if enemy.status != "airborne":
            return
        card = self.card
        count = self.catalog.types[plane.type].dogfight + self.plan.markers
        faces: tuple[str, ...] = ("grenade",)
        shoot_down: tuple[str, ...] = ("grenade",)
        if card is not None:
            count += card.dogfight_bonus
            faces, shoot_down = tuple(card.dogfight_faces), tuple(card.confirm_faces)
        rolled = self.roll(count)
        if card is not None and card.dogfight_reroll:
            missed = [face for face in rolled if face not in faces]
            kept = tuple(face for face in rolled if face in faces)
            self.record(Roll(side=self.attacker, purpose="dogfight-first", faces=rolled))
            rolled = kept + self.roll(len(missed))
        hits = sum(1 for face in rolled if face in faces)
        cancelled = 0
        if hits and self.shield:
            self.shield, hits, cancelled = False, hits - 1, 1
        self.record(
            Roll(side=self.attacker, purpose="dogfight", faces=rolled, hits=hits),
            **({"cancelled": cancelled} if cancelled else {}),
        )
        back = 0
        answer = self.answer
        if answer is not None and answer.fire_back:
            back = self.at_plane(self.defender, answer.fire_back, "fire-back")
        self.confirm(self.attacker, hits, shoot_down)
        self.confirm(self.defender, back)

    def ground_fire(self) -> None:
        for shot in self.plan.shots:
            enemy = self.state.side(self.defender).plane
            if enemy is None:
                break
            if shot.unit == "sunk":
                self.down(self.defender, None, confirmed=False)
                continue
            self.fire(self.attacker, shot.dice, "close-assault" if shot.close_assault else "ground")


def resolve_battle(catalog: Catalog, state: GameState, rng: Rng) -> tuple[GameState, list[Event]]:
    fight = _Battle(catalog, state, rng)
    flew = fight.plan.action in ("fly", "deploy")
    if flew:
        fight.answers()
        if fight.plane_of(fight.attacker) is None:
            fight.events.append(
                Event(kind="m44-attack-ended", turn=state.turn, data={"side": fight.attacker})
            )
        else:
            fight.land()
            fight.attack()
            fight.bombing()
            fight.dogfight()
    fight.ground_fire()
    return fight.state, fight.events
