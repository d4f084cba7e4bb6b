"""Pearl Harbor, the ZERO! solitaire campaign (26.0), as a ruleset for one player.

Two waves; each is one round, ``wave``, where the player assigns each strike group of the
wave to a target (one field per group). Resolving the round draws, for each assigned group
in turn, the defence card (26.0) and then the group's attack cards, without the strike or
flak rules. After the last wave the Japanese score the damage levels of the Target Sheets,
the Americans the aircraft lost, and the difference gives the performance. The procedure
is authored (docs/pearl-harbor.md): the seed gives none of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.rng import Rng
from engine.ruleset import (
    Decision,
    Event,
    FieldSpec,
    HistorySplit,
    Option,
    Progress,
    RoundSpec,
    Rules,
    ScenarioSpec,
    SideSpec,
    StoredInRows,
)
from engine.rulesets.pearl_harbor.view import (
    NONE,
    Attack,
    PearlGroup,
    PearlSheet,
    PearlView,
    WaveRecord,
    load_pearl,
)
from engine.sight import Eyes, Public, kinds
from engine.zero.cards import Deck
from engine.zero.catalog import Catalog
from engine.zero.types import BombResult

KEY = "pearl-harbor"
PLAYER = "japanese"
DEFENDER = "allied"  # the bot's Americans; scored, never a seat
ROUND = "wave"
SIDES = (SideSpec(PLAYER, {"en": "Japanese", "fr": "Japonais"}, "#c0392b"),)


class IllegalChoice(ValueError):
    """A pick that ``pending`` did not offer."""


class PearlState(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: Public[int] = 1  # the wave being planned
    waves: Public[int]
    damage: Public[dict[str, int]] = Field(default_factory=dict)
    lost: Public[dict[str, int]] = Field(default_factory=dict)
    history: Public[tuple[WaveRecord, ...]] = ()
    vp: Public[dict[str, int]] = Field(default_factory=dict)
    finished: Public[bool] = False
    winner: Public[str | None] = None
    performance: Public[str | None] = None


class PearlRules(StoredInRows[PearlState], Rules[PearlState, PearlView]):
    stored = HistorySplit(PearlState, ("history",))
    key = KEY
    sides = SIDES
    rounds = (RoundSpec(ROUND, closes_turn=True),)

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.sheet: PearlSheet = load_pearl()
        self.fields = tuple(FieldSpec(group.key, ROUND) for group in self.sheet.groups)

    def scenarios(self) -> Mapping[str, ScenarioSpec]:
        return {KEY: ScenarioSpec(KEY, self.sheet.name, self.sheet.waves)}

    def new(self, scenario: str, seed: str) -> PearlState:
        if scenario != KEY:
            raise KeyError(f"unknown Pearl Harbor scenario {scenario!r}")
        return PearlState(waves=self.sheet.waves, vp={PLAYER: 0, DEFENDER: 0})

    def flying(self, group: PearlGroup, state: PearlState) -> int:
        """Aircraft of the group in this wave, less those lost in earlier waves."""
        return max(0, group.count[state.turn - 1] - state.lost.get(group.key, 0))

    def pending(self, state: PearlState) -> list[Decision]:
        if state.finished:
            return []
        out: list[Decision] = []
        for group in self.sheet.groups:
            if self.flying(group, state) == 0:
                continue  # not in this wave (no torpedoes in the second) or all lost
            options = (
                Option(id=NONE, label="Hold back"),
                *(Option(id=t.key, label=t.name) for t in self.sheet.allowed(group)),
            )
            # Missing the deadline keeps the group home: nothing is attacked for the player.
            out.append(Decision(side=PLAYER, field=group.key, options=options, default=NONE))
        return out

    def resolve(
        self, state: PearlState, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[PearlState, list[Event]]:
        if state.finished:
            raise IllegalChoice("the campaign is over")
        picks = choices.get(PLAYER, {})
        wave = state.turn
        alert = wave - 1  # each wave after the first finds the defence one level readier
        damage = dict(state.damage)
        lost = dict(state.lost)
        assignments: dict[str, str] = {}
        attacks: list[Attack] = []
        events: list[Event] = []
        for decision in self.pending(state):
            target_key = picks.get(decision.field, decision.default)
            if not decision.allows(target_key):
                raise IllegalChoice(f"{decision.field}={target_key!r} is not a legal target")
            assignments[decision.field] = target_key
            if target_key == NONE:
                continue
            group = self.sheet.group(decision.field)
            target = self.sheet.target(target_key)
            sheet = self.catalog.targets[target.sheet]
            # 26.0: one card tests the defence, then the group attacks.
            card = Deck(self.catalog.deck.cards, rng.stream(f"defence:{group.key}")).draw("defence")
            row = self.sheet.defence_for(card.bombing, alert)
            flying = self.flying(group, state)
            down = min(flying, row.lost)
            lost[group.key] = lost.get(group.key, 0) + down
            count = max(0, flying - down + row.cards)
            deck = Deck(self.catalog.deck.cards, rng.stream(f"attack:{group.key}"))
            cards = deck.draw_many(count, "attack")
            points = 0
            for drawn in cards:
                if group.mode == "strafe":
                    points += (sheet.strafe or 0) if drawn.strafe_hit else 0
                elif group.mode == "torpedo":
                    points += 2 * sheet.points.get(drawn.bombing, 0)  # 21.55
                else:
                    points += sheet.points.get(drawn.bombing, 0)
            damage[target.key] = damage.get(target.key, 0) + points
            attacks.append(
                Attack(
                    group=group.key,
                    target=target.key,
                    defence_card=card.id,
                    defence=row.name,
                    lost=down,
                    cards=tuple(c.id for c in cards),
                    points=points,
                )
            )
            events.append(
                Event(
                    kind="pearl-attack",
                    turn=wave,
                    data={
                        "group": group.key,
                        "target": target.name,
                        "defence": row.name,
                        "lost": down,
                        "points": points,
                    },
                )
            )
        vp = self._score(damage, lost)
        record = WaveRecord(
            wave=wave, assignments=assignments, attacks=tuple(attacks), damage=damage
        )
        update: dict[str, object] = {
            "damage": damage,
            "lost": lost,
            "vp": vp,
            "history": (*state.history, record),
        }
        if wave >= state.waves:
            performance = self.sheet.performance_for(vp[PLAYER] - vp[DEFENDER])
            # A solitaire is won by reaching a victory level; otherwise nobody wins.
            winner = PLAYER if performance != "defeat" else "draw"
            update.update(finished=True, winner=winner, performance=performance)
            events.append(
                Event(
                    kind="pearl-ended",
                    turn=wave,
                    data={"japanese": vp[PLAYER], "allied": vp[DEFENDER], "level": performance},
                )
            )
        else:
            update["turn"] = wave + 1
        return state.model_copy(update=update), events

    def _score(self, damage: Mapping[str, int], lost: Mapping[str, int]) -> dict[str, int]:
        japanese = 0
        for target in self.sheet.targets:
            level = self.catalog.targets[target.sheet].level(damage.get(target.key, 0))
            japanese += level.vp if level is not None else 0
        allied = sum(
            count * self.catalog.aircraft[self.sheet.group(key).aircraft].vp
            for key, count in lost.items()
        )
        return {PLAYER: japanese, DEFENDER: allied}

    event_sights = kinds(public=("pearl-attack", "pearl-ended"))  # every wave is told to all

    def project(self, kept: Any, eyes: Eyes) -> PearlView:
        return PearlView(
            viewer=eyes.side,
            turn=kept["turn"],
            waves=kept["waves"],
            damage=kept["damage"],
            lost=kept["lost"],
            history=kept["history"],
            vp=kept["vp"],
            finished=kept["finished"],
            performance=kept["performance"],
        )

    def progress(self, state: PearlState) -> Progress:
        return Progress.of(state, ROUND, dict(state.vp))

    def resolves_from_snapshot(self, state: PearlState) -> bool:
        return True  # a round appends to the history, and reads none of it

    def view_records(self, state: PearlState) -> int | None:
        # The turn just played's record (its reports), finished or not: the after-action,
        # which reads them all, is drawn from the whole state apart.
        return 1


__all__ = ["BombResult", "IllegalChoice", "PearlRules", "PearlState"]
