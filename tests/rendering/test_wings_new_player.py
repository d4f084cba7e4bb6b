"""A first Wings of War mission as a new player reads it (ux-wings3): his DM panel, the
status board and the mission's reports, in English and in French.

The campaign is played through the real service (``tests.service.wings_play``) and each
panel is composed as the DM shows it, the campaign's channel line included.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.i18n import t
from bot.panel import TEXT_LIMIT, compose, field_text
from bot.service_model import PanelData, StatusData
from engine.ruleset import Decision
from engine.zero.loader import default_catalog
from rendering.style import font, wrap
from tests.rendering.phone import recording
from tests.service.support import Env
from tests.service.wings_play import CENTRAL, ENTENTE, lock_all, start_wings

SCENARIO = "wings-1917"
CHANNEL_ID = 123456789012345678
LOCALES = ("en", "fr")


@pytest.fixture
async def played(tmp_path: Path) -> AsyncIterator[tuple[Env, int]]:
    """Turn 1 flown with each plane's second program: on turn 2 the Entente's panel holds
    two planes, a Knight's standing order, the flak gunner and the balloon winch."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(tmp_path / "run.db", default_catalog(), clock, SeededTokens(7)).open()
    cid = await start_wings(env, "ux", SCENARIO)
    picks = {}
    for user in (ENTENTE, CENTRAL):
        panel = await env.svc.panel(cid, user)
        picks[user] = {d.field: second(d) for d in panel.decisions if d.field[:8] == "program:"}
    await lock_all(env, cid, picks)
    try:
        yield env, cid
    finally:
        await env.close()


def second(decision: Decision) -> str:
    """A plane's second program on wings rules 12's menus, written: its rocket attack where
    it has one, else a bank left (a come-back or the sun: the second option)."""
    if not decision.written:
        return decision.options[1].id
    return decision.options[1].id if decision.options[1].id.startswith("LP") else "BL S S"


async def _played_out(tmp_path: Path) -> tuple[Env, StatusData]:
    """The review's campaign (seed "ux") locked with its defaults until it is over, and its
    status then (the service closed)."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(tmp_path / "run.db", default_catalog(), clock, SeededTokens(7)).open()
    cid = await start_wings(env, "ux", SCENARIO)
    for _ in range(300):
        if (await env.svc.status(cid)).campaign.status == "finished":
            break
        await lock_all(env, cid)
    status = await env.svc.status(cid)
    await env.close()
    return env, status


def _text(env: Env, panel: PanelData, locale: str) -> str:
    plugin = env.svc.rulesets.get("wings")
    return compose(
        plugin, panel, scenario=SCENARIO, locale=locale, commander_id=None, channel_id=CHANNEL_ID
    ).text


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_crowded_panel_keeps_every_field_and_how_to_lock(
    played: tuple[Env, int], locale: str
) -> None:
    """Five fields with long option lists: the DM still names each field and its pick, what
    is left to choose, and ends on how to lock; the option lists are what gets shortened."""
    env, cid = played
    panel = await env.svc.panel(cid, ENTENTE)
    fields = [d.field for d in panel.decisions]
    assert {"flak", "winch"} <= set(fields), fields  # the crowded panel this is about
    text = _text(env, panel, locale)
    assert len(text) <= TEXT_LIMIT
    lines = text.splitlines()
    names = [field_text(d.field, locale, d.label) for d in panel.decisions]
    for name in names:
        assert any(line.startswith(f"**{name}**") for line in lines), (name, text)
    missing = t("orders.missing", locale, fields=", ".join(names))
    assert missing in lines, text  # some menus on the next page: which fields are left
    assert lines[-1] == t("inputs.how", locale), lines[-1]  # written programs: the Write button


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_crowded_panel_is_no_wall_of_text(played: tuple[Env, int], locale: str) -> None:
    """Issue 27: the panel names each field and how to answer it, not every order of every
    menu. The flak gunner's eight orders are in his menu, each in words, not printed again
    as a grey line (it pushed the French panel past 2,000 characters, cut short); how to
    write a program is said once; the card legend is in small print."""
    env, cid = played
    panel = await env.svc.panel(cid, ENTENTE)
    assert "flak" in {d.field for d in panel.decisions}
    text = _text(env, panel, locale)
    assert t("wings.flak.hold", locale) not in text, text
    assert "…" not in text  # nothing cut to fit Discord's limit
    assert text.count("✎") == 1, text
    assert len(text) <= 1650, len(text)  # 1,914 in English before, the French cut at 2,000
    (legend,) = [line for line in text.splitlines() if "BL/BR" in line]
    assert legend.startswith("-# "), legend


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_program_menus_say_what_the_card_codes_mean(
    played: tuple[Env, int], locale: str
) -> None:
    """The menus write programs as card codes ("BL S S"): the panel has their legend, and
    each plain program's option says its cards in words, not the plane's id ("P1")."""
    env, cid = played
    panel = await env.svc.panel(cid, ENTENTE)
    text = _text(env, panel, locale)
    assert "-# " + t("wings.legend", locale) in text.splitlines()  # small print
    legend = {"en": ("BL/BR bank", "ST stall"), "fr": ("BL/BR virage léger", "ST décrochage")}
    assert all(words in text for words in legend[locale])
    spec = compose(env.svc.rulesets.get("wings"), panel, scenario=SCENARIO, locale=locale,
                   commander_id=None)  # fmt: skip
    plane1 = next(s for s in spec.selects if s.field.startswith("program:"))
    said = {o.label: o.description for o in plane1.options}
    expected = {
        "en": "turn left, then straight, then straight",
        "fr": "virage à gauche, puis ligne droite, puis ligne droite",
    }
    assert said["TL S S"] == expected[locale]
    # Every quick pick is said in words (a rocket attack, a maneuver too), none by an id.
    assert all(d and not d.startswith("P") for d in said.values()), said


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_gunners_menu_says_where_his_shell_goes(
    played: tuple[Env, int], locale: str
) -> None:
    """The flak gunner's own menu and his ✓ line read what the order does, not the seal
    the other side reads ("Flak order 585a660a60")."""
    env, cid = played
    panel = await env.svc.panel(cid, ENTENTE)
    flak = next(d for d in panel.decisions if d.field == "flak")
    await env.svc.draft(cid, ENTENTE, panel.round_id, "flak", flak.options[1].id)
    panel = await env.svc.panel(cid, ENTENTE)
    spec = compose(env.svc.rulesets.get("wings"), panel, scenario=SCENARIO, locale=locale,
                   commander_id=None)  # fmt: skip
    menu = next(s for s in spec.selects if s.field == "flak")
    seal = t("wings.flak.sealed", locale, code="")
    assert not any(o.label.startswith(seal) for o in menu.options), menu.options
    standing = {"en": "Standing order", "fr": "Consigne permanente"}[locale]
    assert menu.options[0].label.startswith(standing)
    gunner = f"**{field_text('flak', locale)}**"
    picked = next(line for line in spec.text.splitlines() if line.startswith(gunner))
    assert "✓" in picked and seal not in picked and menu.options[1].label in picked, picked


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_debrief_no_longer_counts_the_flown_missions_reserve(
    tmp_path: Path, locale: str
) -> None:
    """The reserve of Mission Points is lost when the mission ends: the debrief's panel
    does not tell the player about it as if he could still spend it."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(tmp_path / "run.db", default_catalog(), clock, SeededTokens(7)).open()
    cid = await start_wings(env, "ux", SCENARIO)
    reserve = t("wings.reinforce.reserve", locale, mp=2).split("2")[0]
    seen = []
    for _ in range(12):
        status = await env.svc.status(cid)
        assert status.round is not None
        text = _text(env, await env.svc.panel(cid, ENTENTE), locale)
        seen.append((status.round.kind, reserve in text))
        if status.round.kind == "debrief":
            break
        await lock_all(env, cid)
    await env.close()
    assert ("program", True) in seen, seen  # the reserve is told while it can be spent
    assert seen[-1] == ("debrief", False), seen


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_last_board_has_nobody_waiting_and_no_blank_turn(
    tmp_path: Path, locale: str
) -> None:
    """Once the campaign is over, its last board neither says a side is still waiting nor
    names a turn "—": it reads which mission it ended on and that the campaign is over."""
    env, status = await _played_out(tmp_path)
    assert status.campaign.status == "finished"
    presenter = env.svc.rulesets.get("wings").presenter
    with recording() as images:
        presenter.status_board(status.view, {"entente": False, "central": False}, None, locale)
    (board,) = images
    drawn = [text.text for text in board.texts]
    waiting = t("wings.waiting", locale, side="")
    assert not [line for line in drawn if waiting in line], drawn
    over = t("service.round.ended", locale)
    assert any(line.startswith("Mission ") and line.endswith(over) for line in drawn), drawn
    assert not any("—" in line for line in drawn if line.startswith("Mission ")), drawn
    assert not board.too_small()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_mission_report_offers_no_comeback_this_turn(tmp_path: Path, locale: str) -> None:
    """A plane that left the table in the mission's last turn: the report, made once the
    mission is over, says it left, not that its side may still bring it back this turn."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(tmp_path / "run.db", default_catalog(), clock, SeededTokens(7)).open()
    cid = await start_wings(env, "ux", SCENARIO)
    for _ in range(12):
        status = await env.svc.status(cid)
        if status.view.reports:
            break
        picks = {}
        for user in (ENTENTE, CENTRAL):
            panel = await env.svc.panel(cid, user)
            picks[user] = {  # each plane's third quick pick takes one off the table
                d.field: d.options[min(2, len(d.options) - 1)].id
                for d in panel.decisions
                if d.field[:8] == "program:"
            }
        await lock_all(env, cid, picks)
    await env.close()
    view = status.view
    (turn,) = view.reports
    assert view.data["mission"].get("may_come_back"), "no plane waits to come back"
    presenter = env.svc.rulesets.get("wings").presenter
    with recording() as images:
        report = presenter.report(SCENARIO, view, turn, 0, locale)
    assert report.image is not None
    drawn = re.sub(" +", " ", " ".join(text.text for image in images for text in image.texts))
    left = t("wings.status.left", locale)
    assert left in drawn, drawn
    assert t("wings.plane-note.may-come-back", locale) not in drawn, drawn
    # Every plane is off the table: its key explains no plane label the table does not draw.
    assert t("wings.key.head", locale, parts="") in drawn and " · 2 = " not in drawn, drawn
    assert view.stage == "debrief"  # and the debrief's board says the same
    with recording() as images:
        presenter.status_board(view, {"entente": False, "central": False}, None, locale)
    drawn = re.sub(" +", " ", " ".join(text.text for image in images for text in image.texts))
    assert left in drawn and t("wings.plane-note.may-come-back", locale) not in drawn, drawn


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_debrief_says_what_each_skill_does_and_what_buying_costs(
    tmp_path: Path, locale: str
) -> None:
    """The debrief's menus: each skill says what it does, each purchase its price in
    Campaign Points (not a bare "2 (new)"), and the panel says how many there are to spend."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(tmp_path / "run.db", default_catalog(), clock, SeededTokens(7)).open()
    cid = await start_wings(env, "ux", SCENARIO)
    for _ in range(12):
        panel = await env.svc.panel(cid, ENTENTE)
        if panel.kind == "debrief":
            break
        await lock_all(env, cid)
    await env.close()
    skill = next(d.field for d in panel.decisions if d.field.startswith("skill:"))
    assert panel.kind == "debrief"
    spec = compose(env.svc.rulesets.get("wings"), panel, scenario=SCENARIO, locale=locale,
                   commander_id=None)  # fmt: skip
    menus = {s.field: {o.value: o.description for o in s.options} for s in spec.selects}
    grass = {"en": "pursuit", "fr": "poursuite"}[locale]
    assert grass in (menus[skill]["grass_snake"] or ""), menus[skill]
    assert all(menus[skill].values()), menus[skill]  # every skill says something
    unit = {"en": "CP", "fr": "\u00a0PC"}[locale]
    # Sealed (seed E/F), each purchase reads on its owner's menu as its resource and price.
    (buy,) = [s for s in spec.selects if s.field == "purchase"]
    nothing = t("wings.nothing", locale)
    prices = [f"{o.label} {o.description}" for o in buy.options if o.label != nothing]
    assert prices and all(unit in d for d in prices), prices
    reserve = panel.view.data["squadrons"]["entente"]["reserve"]
    assert t("wings.debrief.cp", locale, cp=reserve) in spec.text.splitlines()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_field_to_choose_on_the_next_page_says_which_button_shows_it(
    played: tuple[Env, int], locale: str
) -> None:
    """Five fields, four menus a page: the balloon winch, still to choose, is not below the
    first page; the panel says which button shows it, and stops saying so once it is
    chosen."""
    env, cid = played
    plugin = env.svc.rulesets.get("wings")
    panel = await env.svc.panel(cid, ENTENTE)
    spec = compose(plugin, panel, scenario=SCENARIO, locale=locale, commander_id=None)
    assert "winch" not in {s.field for s in spec.selects}
    (page,) = [b for b in spec.buttons if b.action == "page"]
    # The button names the menu it shows: not "Menu 5 of 5", which reads as a page counter.
    assert field_text("winch", locale) in page.label, page.label
    assert not re.search(r"\d+ (of|sur) \d+", page.label), page.label
    assert t("orders.other-page", locale, button=page.label) in spec.text.splitlines()
    winch = next(d for d in panel.decisions if d.field == "winch")
    await env.svc.draft(cid, ENTENTE, panel.round_id, "winch", winch.options[0].id)
    panel = await env.svc.panel(cid, ENTENTE)
    spec = compose(plugin, panel, scenario=SCENARIO, locale=locale, commander_id=None)
    assert t("orders.other-page", locale, button=page.label) not in spec.text


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_board_has_a_key_to_its_marks(played: tuple[Env, int], locale: str) -> None:
    """Under the table: what "E1 · 2", the balloon's number, "F" and "dmg ?/12" stand for,
    each mark named as the table draws it, readable on a phone."""
    env, cid = played
    status = await env.svc.status(cid)
    presenter = env.svc.rulesets.get("wings").presenter
    with recording() as images:
        presenter.status_board(status.view, {"entente": False, "central": False}, None, locale)
    (board,) = images
    drawn = [text.text for text in board.texts]
    words = re.sub(" +", " ", " ".join(drawn))  # a wrapped line's rows, joined again
    head = t("wings.key.head", locale, parts="")
    assert head in words, drawn
    key = words[words.index(head) :]
    assert "E1 · 2" in drawn and "E1 · 2 = " in key  # the map's own label, explained
    expected = {
        "en": ("Entente plane 1, altitude 2", "F = flak battery", "dmg ?/12 = "),
        "fr": ("Entente, avion 1, altitude 2", "F = batterie de DCA", "dégâts ?/12 = "),
    }[locale]
    assert all(part in key for part in expected), key
    assert "F" in drawn and "3" in drawn  # the battery and the balloon's altitude on the table
    assert not board.too_small()


@pytest.mark.parametrize("kind", ["reorder", "swap", "night", "program"])
def test_a_french_reveal_title_reads_with_one_colon_at_most(kind: str) -> None:
    """The title read "Tour 1 · Poursuite : réordonner : révélation", two labels stacked: a
    round whose name has a colon keeps it, the reveal says itself another way."""
    title = t("service.reveal.title", "fr", turn=1, round=t(f"service.round.{kind}", "fr"))
    assert title.count("\u00a0:") <= 1 and title.endswith("révélation"), title


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_later_missions_board_names_the_turn_the_channel_names(
    tmp_path: Path, locale: str
) -> None:
    """The channel counts the campaign's turns ("Turn 7"), each mission its own: in the
    second mission the board's title names the channel's turn as well as the mission's, so
    its "turn 2" does not contradict the message it comes with."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(tmp_path / "run.db", default_catalog(), clock, SeededTokens(7)).open()
    cid = await start_wings(env, "ux", SCENARIO)
    for _ in range(12):
        status = await env.svc.status(cid)
        assert status.round is not None
        if status.view.data.get("mission_number") == 2 and status.round.kind == "program":
            break
        await lock_all(env, cid)
    await env.close()
    view = status.view
    mission_turn = view.data["mission"]["turn"]
    assert view.turn != mission_turn, (view.turn, mission_turn)
    presenter = env.svc.rulesets.get("wings").presenter
    (where, *_) = presenter.status_lines(view, locale)
    turn = {"en": "Turn", "fr": "Tour"}[locale]
    assert where.startswith(f"{turn} {view.turn} · Mission 2/"), where
    assert f" {mission_turn} · " in where, where


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_campaign_over_before_its_last_mission_says_why(
    tmp_path: Path, locale: str
) -> None:
    """Three missions planned, over after the second: the last turn's summary and the
    after-action report say why (the loser's score below a third of the winner's)."""
    env, status = await _played_out(tmp_path)
    view = status.view
    number, planned = view.data["mission_number"], view.data["missions_planned"]
    assert number < planned, (number, planned)  # the case this is about
    scores = {s: view.data["squadrons"][s]["score"] for s in ("entente", "central")}
    winner = view.data["winner"]
    loser = "central" if winner == "entente" else "entente"
    assert scores[loser] * 3 < scores[winner]
    why = t(
        "wings.end.third", locale, number=number, missions=planned,
        loser=t(f"service.side.{loser}", locale), winner=t(f"service.side.{winner}", locale),
        loser_vp=scores[loser], winner_vp=scores[winner],
    )  # fmt: skip
    presenter = env.svc.rulesets.get("wings").presenter
    assert why in presenter.turn_summary(view, view.turn, locale)
    with recording() as images:
        presenter.after_action(SCENARIO, view, locale)
    drawn = re.sub(" +", " ", " ".join(text.text for image in images for text in image.texts))
    assert why in drawn, drawn


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_gunner_reads_which_enemy_plane_his_order_names(
    played: tuple[Env, int], locale: str
) -> None:
    """His flak orders name the enemy pilot ("Over Karl Allmenröder · Albatros D.III"),
    never the engine's id ("Over P4"); the table labels that plane "C2": his panel says
    which is which (and the enemy's panel, with no battery, does not)."""
    env, cid = played
    panel = await env.svc.panel(cid, ENTENTE)
    flak = next(d for d in panel.decisions if d.field == "flak")
    text = _text(env, panel, locale)
    named = {"en": "C2 is Karl Allmenröder", "fr": "C2 est Karl Allmenröder"}[locale]
    over = {"en": "Over ", "fr": "Sur "}[locale]
    plane = over + "Karl Allmenröder · Albatros D.III"
    presenter = env.svc.rulesets.get("wings").presenter
    said = [presenter.option_description("flak", o, locale) for o in flak.options]
    assert any(plane in words for words in said), said
    assert not any(over + "P" in words for words in said), said
    assert not any(over + "P" in line for line in text.splitlines()), text
    assert named in text, text
    enemy = _text(env, await env.svc.panel(cid, CENTRAL), locale)
    assert named not in enemy


# A DM panel's words as a phone shows them (Discord at about 400 px): a text column of
# about 310 px, 16 px text in lines of 22 px, small print ("-# ") 13 px in lines of 18.
# DejaVu Sans Condensed stands in for Discord's face. Checked against simcord's preview
# photographed in Chromium (scripts/wings_screenshots.py): within a tenth of the height.
PHONE_COLUMN = 310
PHONE_LINES = {False: (16, 22), True: (13, 18)}
# Turn 1's words above the picture, in px by that model: 672 and 822 before (the picture
# then began about 950 px down the panel in simcord's preview, its menus included).
PHONE_TEXT_MOST = {"en": 540, "fr": 650}


def _phone_height(text: str) -> int:
    height = 0
    for line in text.splitlines():
        small = line.startswith("-# ")
        size, step = PHONE_LINES[small]
        words = re.sub(r"\*\*|\*|^-# ", "", line)
        height += step * len(wrap(words, font(size, "cond"), PHONE_COLUMN, max_lines=50) or [""])
    return height


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_first_panels_picture_is_near_the_top_of_a_phone(
    tmp_path: Path, locale: str
) -> None:
    """Turn 1's panel on a phone: the words above its picture fit in about a screen, and
    still hold what a first-time player needs (how a program is written, the card codes,
    each plane's field and what a Knight's standing order is, how to lock). Nothing is
    said twice: the fields left are counted, not named again; the flak gunner's names wait
    for the turn his battery can fire; a menu's options are in the menu."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(tmp_path / "run.db", default_catalog(), clock, SeededTokens(7)).open()
    try:
        cid = await start_wings(env, "ux", SCENARIO)
        panel = await env.svc.panel(cid, ENTENTE)
        text = _text(env, panel, locale)
    finally:
        await env.close()
    assert _phone_height(text) <= PHONE_TEXT_MOST[locale], (_phone_height(text), text)
    lines = text.splitlines()
    assert t("wings.help.program", locale) in lines
    assert "-# " + t("wings.legend", locale) in lines
    for decision in panel.decisions:
        name = field_text(decision.field, locale, decision.label)
        assert any(line.startswith(f"**{name}**") for line in lines), (name, text)
    assert any("Knight" in line or "Chevalier" in line for line in lines), text
    assert lines[-1] == t("inputs.how", locale)
    assert t("orders.missing-count", locale, count=len(panel.missing)) in lines
    assert "Allmenröder" not in text  # no flak order to give yet: no pilot names for it
