"""The crew's own pick of the night card (DB 6, 8.c): the raid's turn stops at the gun, the
player keeps one of the two C cards, the turn goes on from there with the same streams."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings import dam as dam_rules
from engine.rulesets.wings import dambuster as db
from engine.rulesets.wings import night_pick as night
from engine.rulesets.wings.catalog import DamageCard
from rendering.rulesets.wings import dam as wings_dam
from tests.wings.helpers import catalog, menu_words, random_raid


def kinds(events: list[dict[str, object]]) -> list[object]:
    return [e["kind"] for e in events]


def beside_the_guns(*guns: str) -> db.DamState:
    """AJ-G placed beside the dam's guns, in the dark, its gunners hurt (so its own fire
    never makes it seen); only the guns named stay."""
    state = db.new_dam("mohne")
    plane = state.planes["AJ-G"].model_copy(
        update={"x": 17.0, "y": 5.5, "heading": 90.0, "placed": True, "hurt": ("front", "rear")}
    )
    return state.model_copy(
        update={
            "planes": {**state.planes, "AJ-G": plane},
            "guns": {g: state.guns[g] for g in guns},
        }
    )


def pair(seed: Rng, gun: str = "dam-1") -> tuple[DamageCard, DamageCard]:
    return (
        db.draw(catalog(), seed, "C", f"0.1:aa:{gun}:1"),
        db.draw(catalog(), seed, "C", f"0.1:aa:{gun}:2"),
    )


def seed_where(test: Callable[[Rng], bool]) -> Rng:
    """The first of a fixed list of seeds (a raid's first turn) that passes ``test``."""
    for n in range(2000):
        seed = Rng(f"pick-{n}", 1, "reorder")
        if test(seed):
            return seed
    raise AssertionError("no seed in the list draws such a pair")


def plain_and_different(seed: Rng) -> bool:
    first, second = pair(seed)
    return first.special == second.special == "none" and first.value != second.value


def test_the_turn_stops_at_the_gun_and_the_pick_sets_the_damage_both_ways() -> None:
    seed = seed_where(plain_and_different)
    first, second = pair(seed)
    paused, events = db.play(catalog(), beside_the_guns("dam-1"), "SS", seed, asks=True)
    pick = paused.night_pick
    assert pick is not None and (pick.gun, pick.plane) == ("dam-1", "AJ-G")
    assert pick.cards == (first, second)
    assert kinds(events)[-2:] == ["aa-fire", "night-pick-asked"]
    assert "damage-card" not in kinds(events)
    assert (paused.turn, paused.planes["AJ-G"].damage) == (1, 0)  # the turn is not over
    one, two = night.options(pick)
    kept_first, told = db.resume(catalog(), paused, one, Rng(seed.seed, 9, "night"))
    kept_second, _ = db.resume(catalog(), paused, two, Rng(seed.seed, 9, "night"))
    assert kept_first.planes["AJ-G"].damage == first.value
    assert kept_second.planes["AJ-G"].damage == second.value
    assert kept_first.night_pick is None and kept_first.turn == 2  # the turn went on to its end
    (logged,) = [e for e in told if e["kind"] == "night-pick"]
    assert (logged["first"], logged["second"], logged["kept"]) == (first.value, second.value, 1)
    assert logged["first_special"] == "no-special"


def test_the_default_keeps_the_old_rule_and_the_raid_comes_out_the_same() -> None:
    """Whole Möhne raids with random orders, flown with the old automatic pick and with the
    turn stopped at every night draw and the default kept: the same raid, turn by turn."""
    pauses = 0
    for n in range(6):
        orders = random.Random(n)
        old = new = db.new_dam("mohne")
        for turn in range(200):
            if old.finished:
                break
            legal, _refused = db.legal_orders(catalog(), old)
            order = orders.choice(legal)
            lights = orders.choice(db.lights_options(old) or ("auto",))
            escort = orders.choice(db.escort_orders(catalog(), old) or [db.STAYS_OUT])
            start = orders.choice(db.start_headings(old)) if db.start_headings(old) else None
            rng = Rng(f"same-{n}", turn, "reorder")
            old, _ = db.play(catalog(), old, order, rng, escort, start=start, lights=lights)
            new, _ = db.play(
                catalog(), new, order, rng, escort, start=start, lights=lights, asks=True
            )
            while new.night_pick is not None:
                pauses += 1
                new, _ = db.resume(
                    catalog(), new, night.default(new.night_pick), Rng(f"same-{n}", 0, "night")
                )
            assert new == old
    assert pauses >= 5  # the raids did stop for the crew


def test_the_old_rule_is_the_default_never_an_explosion_then_fewer_points() -> None:
    def card(value: int, special: str = "none") -> DamageCard:
        return DamageCard(value=value, special=special, count=1)  # type: ignore[arg-type]

    assert night.kept_for_him(card(0, "explosion"), card(6)) == 1
    assert night.kept_for_him(card(4), card(2, "fire")) == 1
    assert night.kept_for_him(card(3, "fire"), card(3)) == 1
    assert night.kept_for_him(card(3), card(3, "smoke")) == 0


def test_two_identical_cards_do_not_stop_the_turn() -> None:
    seed = seed_where(lambda rng: night.same(*pair(rng)))
    first, _ = pair(seed)
    flown, events = db.play(catalog(), beside_the_guns("dam-1"), "SS", seed, asks=True)
    assert flown.night_pick is None and flown.turn == 2
    assert flown.planes["AJ-G"].damage == first.value or first.special == "explosion"
    (logged,) = [e for e in events if e["kind"] == "night-pick"]
    assert logged["first"] == logged["second"]


def test_a_fire_card_kept_makes_the_plane_seen_by_the_next_gun() -> None:
    """Two guns in reach: keeping the first gun's fire card lights the plane, so the second
    gun draws one card and nobody is asked; keeping the other card, it asks again."""

    def fire_and_plain(seed: Rng) -> bool:
        first = {c.special for c in pair(seed)} == {"fire", "none"}
        return first and not night.same(*pair(seed, "dam-2"))

    seed = seed_where(fire_and_plain)
    state = beside_the_guns("dam-1", "dam-2")
    paused, _ = db.play(catalog(), state, "SS", seed, asks=True)
    pick = paused.night_pick
    assert pick is not None and pick.gun == "dam-1"
    offered = dict(zip(night.options(pick), pick.cards, strict=True))
    fire = next(o for o, c in offered.items() if c.special == "fire")
    plain = next(o for o, c in offered.items() if c.special == "none")
    lit, events = db.resume(catalog(), paused, fire, seed)
    assert lit.night_pick is None and lit.planes["AJ-G"].fire
    hits = [e for e in events if e["kind"] == "damage-card"]
    assert [e["by"] for e in hits] == ["dam-1", "dam-2"]
    assert hits[1]["value"] == pair(seed, "dam-2")[0].value  # seen: its first card, no pick
    dark, _ = db.resume(catalog(), paused, plain, seed)
    second = dark.night_pick
    assert second is not None and second.gun == "dam-2"
    assert second.cards == pair(seed, "dam-2")


def stopped_raid(cards: tuple[DamageCard, DamageCard] | None = None) -> tuple[WingsRules, object]:
    """The Möhne raid through the seam, stopped at its first night pick (its pair replaced
    by ``cards`` when given)."""
    rules = WingsRules(catalog())
    state = rules.new("dambuster-mohne", "stop")
    state = state.model_copy(update={"dam": beside_the_guns("dam-1")})
    seed = seed_where(plain_and_different)
    orders = {"entente": {"plane1": "SS", "lights": "auto"}}
    held, _ = rules.resolve(state, orders, Rng(seed.seed, 1, "program"))
    stopped, _ = rules.resolve(held, {}, Rng(seed.seed, 1, "reorder"))
    if cards is not None:
        assert stopped.dam is not None and stopped.dam.night_pick is not None
        pick = stopped.dam.night_pick.model_copy(update={"cards": cards})
        stopped = stopped.model_copy(
            update={"dam": stopped.dam.model_copy(update={"night_pick": pick})}
        )
    return rules, stopped


def test_the_seam_asks_the_crew_alone_in_a_night_round_of_the_same_turn() -> None:
    rules, stopped = stopped_raid()
    progress = rules.progress(stopped)  # type: ignore[arg-type]
    assert (progress.turn, progress.round) == (1, "night")
    assert rules.ends_turn("reorder", 1, progress) is False
    (decision,) = rules.pending(stopped)  # type: ignore[arg-type]
    assert (decision.side, decision.field) == ("entente", "night")
    pick = stopped.dam.night_pick  # type: ignore[attr-defined]
    assert decision.default == night.default(pick)
    other = next(o.id for o in decision.options if o.id != decision.default)
    after, events = rules.resolve(
        stopped,  # type: ignore[arg-type]
        {"entente": {"night": other}},
        Rng("stop", 1, "night"),
    )
    assert rules.progress(after).turn == 2 and rules.ends_turn("night", 1, rules.progress(after))
    told = next(e for e in events if e.kind == "night-pick")
    assert told.data["kept"] == 1 + [o.id for o in decision.options].index(other)


def test_the_pair_is_secret_to_the_guns_and_the_public_until_it_is_played() -> None:
    """Two raids stopped at the same gun, differing only in the two cards drawn: the Central
    Powers' view and the public's are the same; the crew's is not."""

    def card(value: int, special: str) -> DamageCard:
        return DamageCard(value=value, special=special, count=1)  # type: ignore[arg-type]

    rules, low = stopped_raid((card(1, "none"), card(2, "none")))
    _, high = stopped_raid((card(6, "none"), card(5, "fire")))
    for viewer in (None, "central"):
        seen = [rules.view(s, viewer).model_dump_json() for s in (low, high)]  # type: ignore[arg-type]
        assert seen[0] == seen[1], viewer
        assert '"gun":"dam-1"' in seen[0] and '"cards"' not in seen[0]
    crew = [rules.view(s, "entente").model_dump_json() for s in (low, high)]  # type: ignore[arg-type]
    assert crew[0] != crew[1]


def test_the_panel_words_each_card_in_both_languages() -> None:
    _, stopped = stopped_raid()
    (decision,) = WingsRules(catalog()).pending(stopped)  # type: ignore[arg-type]
    words = menu_words("dambuster-mohne", "night", decision.options[0])
    value = decision.options[0].id.split(":")[1]
    assert words["en"] == (f"Card 1: {value} points", f"{value} points · no special damage")
    assert words["fr"] == (
        f"Jeton 1\u00a0: {value}\u00a0points",
        f"{value}\u00a0points · sans dégât spécial",
    )
    # This seed's pair is plain; a fire card reads so.
    option = decision.options[0].model_copy(
        update={"id": "2:4:fire", "detail": "night-pick.4.fire"}
    )
    words = menu_words("dambuster-mohne", "night", option)
    assert words["en"][0] == "Card 2: 4 points, fire"
    assert words["en"][1].startswith("4 points · on fire: every gun sees it")
    assert all(len(text) <= 100 for pair_ in words.values() for text in pair_)
    one = option.model_copy(update={"id": "2:1:none", "detail": "night-pick.1.none"})
    assert menu_words("dambuster-mohne", "night", one)["en"][0] == "Card 2: 1 point"
    zero = option.model_copy(update={"id": "1:0:explosion", "detail": "night-pick.0.explosion"})
    assert menu_words("dambuster-mohne", "night", zero)["fr"] == (
        "Jeton 1\u00a0: 0\u00a0point, explosion",
        "0\u00a0point · le Lancaster explose",
    )


def test_the_renderer_uses_the_seams_night_names() -> None:
    assert (wings_dam.DAM_NIGHT, wings_dam.DAM_NIGHT_WORDS) == (
        dam_rules.NIGHT,
        dam_rules.NIGHT_WORDS,
    )


def test_raids_with_random_picks_replay_byte_for_byte() -> None:
    """The Möhne raid with every field, night cards included, picked at random, twice."""
    first = random_raid("dambuster-mohne", "p3", 600)
    assert first == random_raid("dambuster-mohne", "p3", 600)
    assert any('"night_pick":{' in dump for dump in first)  # it did stop for the crew
