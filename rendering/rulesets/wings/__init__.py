"""The Wings of War presenter: plane boards, mission reports, after-action, words.

Every image is a plain list of lines on an 800 px card (text 24 px and up), drawn from a
Wings view (``engine.rulesets.wings.WingsView``): what one viewer (or the public) may see.
A value the view does not hold (another side's damage, a pilot's life points) shows as "?",
never as a guess. Like every renderer, this module imports no engine module but the seam's:
the view is read through the ``WingsViewLike`` protocol, and plane names come in the view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any, Protocol

from PIL import Image, ImageDraw

from engine.ruleset import Decision, Option
from rendering.i18n import t, word
from rendering.presenter import NO_DRAFTS, Presenter, Report, RevealLine, TurnEvents, TurnTold
from rendering.rulesets.wings.dam import (
    DAM_LIGHTS,
    DAM_LIGHTS_WORDS,
    DAM_NIGHT,
    DAM_NIGHT_WORDS,
    DAM_START,
    DAM_START_WORDS,
    complex_lines,
    complex_plane_line,
    complex_score,
    dam_heading_words,
    dorsal_lines,
    gun_name,
    night_card_detail,
    night_card_words,
    night_lines,
)
from rendering.rulesets.wings.dam_map import dam_board
from rendering.rulesets.wings.front import front_words
from rendering.rulesets.wings.log_words import WingsLogWords
from rendering.rulesets.wings.majors import major_lines, major_name, mission_key
from rendering.rulesets.wings.map import table_map
from rendering.rulesets.wings.preview import drafted_programs, preview_board, preview_lines
from rendering.rulesets.wings.relief import relief_lines
from rendering.rulesets.wings.roles import role_lines
from rendering.rulesets.wings.story import Names, raid_story, story
from rendering.rulesets.wings.sun import sun_lines
from rendering.rulesets.wings.turn import Flown, TurnPainter, animation, flown, still
from rendering.style import font, to_png, wrap

WIDTH = 800
MARGIN = 24
TITLE_SIZE = 32
TITLE_LINE = 40
TEXT_SIZE = 24
LINE = 34
INK = (30, 30, 30)
MUTED = (95, 95, 95)
PAPER = (246, 242, 232)
# A turn's public events a channel line counts (ux-wings4): a plane's fall, once however
# it came down, and what the sides did to the ground and to the objectives.
PLANE_DOWN = ("shot-down", "exploded", "crashed")
HAPPENINGS = (
    ("balloons", ("balloon-destroyed",)),
    ("ground", ("ground-destroyed",)),
    ("objectives", ("photographed", "reconnoitred")),
    ("left", ("left-table",)),
)
_SIDE_ORDER = {"entente": 0, "central": 1}
SIDE_INK = {"entente": (46, 109, 180), "central": (122, 74, 30)}

Line = tuple[str, tuple[int, int, int], bool]  # text, colour, bold
SEALED = "cloud-"  # a program flown blind in the clouds, as the rules seal it (seed B.V)
SEQUENCE_SEALED = "seq-"  # how wings rules 10 sealed a maneuver begun late (old records)
# Seed A.I.b: cards that could begin a maneuver finished next turn, then a seal (the rules'
# sequence_seal); the words are the cards', whatever the seal hides.
SEQUENCE_MARK = " #"
KIT_SEALED = "kit-"  # a pilot's equipment choice, sealed by the rules (seed D.VIII)
BUY_SEALED = "buy-"  # a squadron's purchase, sealed by the rules (seed E/F)
BUY_WORDS = "buy|"  # ...its detail on the owner's panel: "buy|fuel|1", "buy|rookie|1|new"
SWAP_WORDS = "ace-swap."  # an Ace of Aces' option (keep / change), as the rules mark it
EXIT_WORDS = "exit."  # a plane off the table: come back or stay out (seed A.IV.c)
SUN_WORDS = "sun."  # planes waiting out of the sun: enter or wait (seed F.VI.e)
SUN_OPTIONS = ("enter", "wait")
COMEBACK_OPTIONS = ("come-back", "stay-out")
# Seed E.IV: a reinforcement order on a downed plane's field, as the rules mark it.
REINFORCE_NO = "no-reinforcement"
REINFORCE_TYPE = "reinforce:"
REINFORCE_WORDS = "reinforce."
ORDER_WORDS = "order."  # a Knight's or an Artist's standing order (seed D.VI)
RELEASE = " bomb@"  # a program's last word announcing its bomb release (seed A.IV.e)
RELEASE_WORDS = "bomb-release."  # the option detail saying when, as the rules mark it
PISTOL = " pistol@"  # a program's last word announcing a pistol shot (seed D.VIII)
PISTOL_WORDS = "pistol."  # ...its detail on the owner's panel: "pistol.2.no-bullets"
ABOARD = {"bullets": "bullets-aboard"}  # an item named apart from its purchase ("6 bullets")
ORDER_BEHAVIOURS = ("knight", "artist")  # the behaviours whose power is a standing order
NOTHING = "none"  # the rules' option id for buying nothing (a select value cannot be empty)
FLAK_SEALED = "flak-"  # a flak gunner's order, sealed by the rules (seed A.IV.h)
FLAK_WORDS = "flak."  # ...its detail: "flak.fire.P3.2" (order, plane, altitude)
FLAK_FIELD = "flak"  # the gunners' fields: "flak", "flak2"...
SMALL_PRINT = "-# "  # Discord's small grey line: a note read once, then skipped


class WingsViewLike(Protocol):
    """The parts of ``engine.rulesets.wings.WingsView`` this presenter reads."""

    @property
    def turn(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def stage(self) -> str: ...
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def shown(self) -> dict[str, str]: ...
    @property
    def slots(self) -> dict[str, str]: ...
    @property
    def reports(self) -> dict[int, int]: ...
    @property
    def plane_types(self) -> dict[str, tuple[str, int]]: ...
    @property
    def viewer(self) -> str | None: ...
    @property
    def flight(self) -> dict[str, Any]: ...


def _side(side: str, locale: str) -> str:
    return t(f"service.side.{side}", locale)


def _render(title: str, lines: Sequence[Line], board: Image.Image | None = None) -> bytes:
    # Long lines wrap (up to three rows) rather than lose their end to an ellipsis.
    rows: list[Line] = []
    for text, colour, bold in lines:
        fnt = font(TEXT_SIZE, "bold" if bold else "regular")
        indent = text[: len(text) - len(text.lstrip())]  # wrap() drops leading spaces
        wrapped = wrap(text, fnt, WIDTH - 2 * MARGIN - int(fnt.getlength(indent)))
        rows += [(indent + row, colour, bold) for row in wrapped]
    # The title wraps too: "Mission 2/3 (balloon busting, 3 balloons), turn 8 · Tailing
    # reorder" is half as wide again as the card, and its end (the round) is what matters.
    title_font = font(TITLE_SIZE, "bold")
    titles = wrap(title, title_font, WIDTH - 2 * MARGIN)
    top = MARGIN + TITLE_LINE * len(titles) + 16 - (TITLE_LINE - TITLE_SIZE)
    map_top = top
    if board is not None:
        top += board.height + 16  # the table first, the lines under it
    height = top + MARGIN + LINE * max(1, len(rows))
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    for index, text in enumerate(titles):
        draw.text((MARGIN, MARGIN + TITLE_LINE * index), text, font=title_font, fill=INK)
    if board is not None:
        image.paste(board, (MARGIN - 8, map_top))
        # Its pixels are the canvas's now: the table (768 × 768, 2.3 MiB) is not held while
        # the picture is encoded, the drawing process's peak for a Wings board (issue 29).
        del board
    y = top
    for text, colour, bold in rows:
        fnt = font(TEXT_SIZE, "bold" if bold else "regular")
        draw.text((MARGIN, y), text, font=fnt, fill=colour)
        y += LINE
    return to_png(image)


def _entry_lines(mission: Mapping[str, Any], locale: str) -> list[Line]:
    """Seed A.IV.i.2: on the first turn, why the attackers stand higher than usual
    (``engine.rulesets.wings.net_entry``)."""
    entry = mission.get("net_entry")
    if not entry or mission.get("turn", 1) != 1:
        return []
    balloons = [o for o in (mission.get("objectives") or {}).values() if o["kind"] == "balloon"]
    attacker = "central" if balloons and balloons[0]["side"] == "entente" else "entente"
    level, counters = entry
    text = t(
        "wings.net.entry", locale, side=_side(attacker, locale), level=level, counters=counters
    )
    return [(text, SIDE_INK.get(attacker, INK), False)]


def _net_lines(mission: Mapping[str, Any], locale: str) -> list[Line]:
    """Seed A.IV.i.2: the barrage net along the balloons' line, section by section, from
    one table edge to the other, each as high as the lower of its balloons or down with
    one of them (as the engine hangs it: ``engine.rulesets.wings.balloons.net_height``)."""
    line = sorted(
        (o for o in (mission.get("objectives") or {}).values() if o["kind"] == "balloon"),
        key=lambda b: (b["y"], b["id"]),
    )
    if not mission.get("nets") or len(line) < 2:
        return []
    if mission.get("ring"):
        return _ring_lines(mission, locale)
    edge = t("wings.net.edge", locale)
    ends: list[Mapping[str, Any] | None] = [None, *line, None]
    sections = []
    for start, end in pairwise(ends):
        framing = [b for b in (start, end) if b is not None]
        names = {
            "start": start["id"] if start else edge,
            "end": end["id"] if end else edge,
        }
        if any(b["destroyed"] or b.get("hauled_down") for b in framing):
            sections.append(t("wings.net.down", locale, **names))
        else:
            level = min(b["level"] for b in framing)
            sections.append(t("wings.net.section", locale, level=level, **names))
    x = sum(b["x"] for b in line) / len(line)
    text = t("wings.net.line", locale, x=f"{x:.1f}", sections=" · ".join(sections))
    return [(text, SIDE_INK.get(line[0]["side"], INK), False)]


def _ring_lines(mission: Mapping[str, Any], locale: str) -> list[Line]:
    """Seed A.IV.i.2: the protective ring, section by section round the balloons (as the
    engine hangs it: ``engine.rulesets.wings.nets``), with what the defender paid for it if
    bought."""
    objectives = mission["objectives"]
    sections = []
    for first, second in mission["ring"]:
        framing = [objectives[first], objectives[second]]
        names = {"start": first, "end": second}
        if any(b["destroyed"] or b.get("hauled_down") for b in framing):
            sections.append(t("wings.net.down", locale, **names))
        else:
            level = min(b["level"] for b in framing)
            sections.append(t("wings.net.section", locale, level=level, **names))
    text = t("wings.net.ring-line", locale, sections=" · ".join(sections))
    return [(text, SIDE_INK.get(objectives[mission["ring"][0][0]]["side"], INK), False)]


class WingsPresenter(WingsLogWords, Presenter[WingsViewLike]):
    tells_turns = True  # a turn is shown flown, its programs with it (issue 27)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _slot(view: WingsViewLike, pid: str, locale: str) -> str:
        """The plane's field in the reader's words ("Plane 1"), as its panel names it."""
        slot = view.slots.get(pid)
        return t(f"service.field.{slot}", locale) if slot is not None else pid

    @staticmethod
    def _plane_name(view: WingsViewLike, key: str) -> str:
        known = view.plane_types.get(key)
        return known[0] if known is not None else key

    @staticmethod
    def _structure(view: WingsViewLike, key: str) -> str:
        known = view.plane_types.get(key)
        return str(known[1]) if known is not None else "?"

    @staticmethod
    def _dam_lines(dam: Mapping[str, Any], locale: str, structure: int = 32) -> list[Line]:
        """A Dambuster raid: every Lancaster with its bomb, then the AA guns."""
        lines: list[Line] = complex_lines(dam, locale)
        current = dam["roster"][dam["run"]]
        for reg in dam["roster"]:
            plane = dam["planes"][reg]
            bomb = plane["bomb"]
            bomb_text = t(
                f"wings.bomb.{bomb['stage']}",
                locale,
                bounce=bomb["bounce"],
                outcome=word(f"log.outcome.{bomb['outcome']}", str(bomb["outcome"]), locale),
            )
            text = t(
                "wings.lancaster-line",
                locale,
                reg=reg,
                status=t(f"wings.lancaster.{plane['status']}", locale),
                level=plane["level"],
                damage=plane["damage"],
                bomb=bomb_text,
            )
            if dam.get("target") is not None:  # the industrial raid: bomb cards, its points
                text = complex_plane_line(dam, plane, structure, locale)
            if plane["status"] == "flying":
                text += " · " + t(
                    "wings.at", locale, x=f"{plane['x']:.1f}", y=f"{plane['y']:.1f}",
                    heading=f"{plane['heading']:.0f}",
                )  # fmt: skip
            if plane["searchlights"]:
                text += " · " + t("wings.searchlights", locale)
            colour = INK if reg == current and not dam["finished"] else MUTED
            lines.append((text, colour, reg == current))
        for gun in sorted(dam["guns"].values(), key=lambda g: g["id"]):
            state = gun["damage"] >= gun["structure"]
            lines.append(
                (
                    t(
                        "wings.aa-line",
                        locale,
                        id=gun_name(gun["id"], locale),  # as the map labels it
                        damage=gun["damage"],
                        structure=gun["structure"],
                        state=t("wings.aa-out" if state else "wings.aa-firing", locale),
                    ),
                    SIDE_INK["central"],
                    False,
                )
            )
        # DB 6: the turn waits on the crew's pick; the board says so, never the cards.
        lines += [(text, SIDE_INK["central"], False) for text in night_lines(dam, "", locale)]
        return lines

    def _plane_lines(self, view: WingsViewLike, locale: str, ended: bool = False) -> list[Line]:
        """Each plane's pilot and state; ``ended``: the mission report's, where no plane
        can still come back nor be reinforced "this turn"."""
        if "dam" in view.data:
            structure = int(view.data.get("dam_structure", 32))
            return self._dam_lines(view.data["dam"], locale, structure)
        mission = view.data.get("mission")
        if not mission:
            return [(t("wings.no-mission", locale), MUTED, False)]
        ended = ended or view.stage in ("debrief", "ended")  # the mission flown: no turn left
        pilots = view.data.get("pilots", {})
        lines: list[Line] = []
        for side in ("entente", "central"):
            lines.append((_side(side, locale), SIDE_INK[side], True))
            planes = [p for p in mission["planes"].values() if p["side"] == side]
            for plane in sorted(planes, key=lambda p: (len(p["id"]), p["id"])):
                pilot = pilots.get(plane.get("pilot") or "", {})
                damage = plane.get("damage")
                name = t(
                    "wings.plane-line",
                    locale,
                    slot=self._slot(view, plane["id"], locale),
                    pilot=pilot.get("name", plane["id"]),
                    plane=self._plane_name(view, plane["type"]),
                )
                where = t(
                    "wings.plane-state",
                    locale,
                    # Climb counters are on the table for all to see, as the map's "3+1".
                    level=f"{plane['level']} +{plane['counters']}"
                    if plane.get("counters")
                    else plane["level"],
                    damage="?" if damage is None else damage,
                    structure=self._structure(view, plane["type"]),
                    x=f"{plane['x']:.1f}",
                    y=f"{plane['y']:.1f}",
                    heading=f"{plane['heading']:.0f}",
                )
                if plane["status"] == "waiting":
                    where = t("wings.status.waiting", locale)  # off the table (seed F.VI.e)
                elif plane["status"] != "flying":
                    where += " · " + t(f"wings.status.{plane['status']}", locale)
                    if plane["id"] in mission.get("may_come_back", ()) and not ended:
                        where += " · " + t("wings.plane-note.may-come-back", locale)
                    if plane["id"] in mission.get("may_reinforce", ()) and not ended:  # own side
                        where += " · " + t("wings.plane-note.may-reinforce", locale)
                elif plane.get("in_cloud"):
                    where += " · " + self._cloud_note(plane, locale)
                elif plane.get("cloud_salt"):
                    # Only its own side's view holds the salt: why its menu reads sealed.
                    where += " · " + t("wings.cloud.edge", locale)
                if plane["status"] == "flying" and plane.get("sequence"):
                    # Only the owner's view holds it (seed A.I.b): what his program owes.
                    where += " · " + t(
                        "wings.sequence.under-way",
                        locale,
                        maneuver=word(
                            f"wings.maneuver.{plane['sequence']}", plane["sequence"], locale
                        ),
                        count=plane["sequence_flown"],
                        flown=plane["sequence_flown"],
                    )
                if plane["status"] == "flying" and plane.get("land_by") is not None:
                    # Only the owner's view holds it: his pilot's wounds are his secret.
                    where += " · " + t("wings.plane-note.must-land", locale, turn=plane["land_by"])
                if plane["status"] == "flying" and plane.get("kit"):
                    # Only the owner's view holds it: what his pilot carries (seed D.VIII).
                    where += self._kit_note(plane["kit"], locale)
                colour = INK if plane["status"] == "flying" else MUTED
                lines += [(name, colour, False), (where, colour, False)]
        return lines + self._objective_lines(mission, locale)

    @staticmethod
    def _kit_note(kit: Mapping[str, int], locale: str) -> str:
        items = [
            word(f"wings.equipment.{ABOARD.get(item, item)}", item, locale)
            + (
                f" {left}/5"
                if item == "vest"
                else f" ×{left}"
                if left > 1 or item == "bullets"
                else ""
            )
            for item, left in sorted(kit.items())
            if left > 0
        ]
        return " · " + t("wings.equipment.aboard", locale, items=", ".join(items)) if items else ""

    @staticmethod
    def _cloud_note(plane: Mapping[str, Any], locale: str) -> str:
        """In the clouds (seed B.V): its own side also reads the cards written down, which
        only its own view holds; the base shown is where it went in."""
        cards = plane.get("cloud_cards")
        if cards is None:
            return t("wings.cloud.public", locale)
        return t("wings.cloud.own", locale, cards=" ".join(cards) or "—")

    @staticmethod
    def _objective_lines(mission: Mapping[str, Any], locale: str) -> list[Line]:
        """Each objective of a mission other than a patrol, with how it stands (public)."""
        objectives = mission.get("objectives") or {}
        if not objectives:
            return []
        lines: list[Line] = [(t("wings.objectives", locale), INK, True)]
        for site in sorted(objectives.values(), key=lambda o: o["id"]):
            if site["destroyed"]:
                state = t("wings.objective-state.destroyed", locale)
            elif site.get("hauled_down"):  # seed A.IV.i.3: on the ground, out of the fight
                state = t("wings.objective-state.hauled-down", locale)
            elif site["kind"] == "balloon" and site.get("winching") and not site["fire"]:
                state = t("wings.objective-state.winching", locale, level=site["level"])
            elif site["kind"] == "balloon" and site["fire"]:
                state = t("wings.objective-state.burning", locale, level=site["level"])
            elif site["damage"]:
                state = t("wings.objective-state.damaged", locale, damage=site["damage"])
            elif site["done_by"]:
                state = t("wings.objective-state.done", locale)
            elif site["kind"] == "balloon":
                state = t("wings.objective-state.aloft", locale, level=site["level"])
            else:
                state = t("wings.objective-state.intact", locale)
            if site.get("deep"):  # seed E.I.b: double VP to the aggressor
                state = t("wings.objective-state.deep", locale, state=state)
            text = t(
                "wings.objective-line",
                locale,
                kind=major_name(site, locale) or t(f"wings.objective.{site['kind']}", locale),
                id=site["id"],
                side=_side(site["side"], locale),
                state=state,
            )
            lines.append((text, SIDE_INK.get(site["side"], INK), False))
        if mission.get("nets") and mission.get("net_price"):  # seed E.II.b: bought
            lines.append((t("wings.net.bought", locale, mp=mission["net_price"]), INK, False))
        return lines + _net_lines(mission, locale) + _entry_lines(mission, locale)

    def _scores(self, view: WingsViewLike, locale: str) -> str:
        if "dam" in view.data and view.data["dam"].get("target") is not None:
            return complex_score(view.data, locale)
        if "dam" in view.data:
            outcome = view.data["dam_result"]
            return t(
                "wings.dam-score",
                locale,
                hits=view.data["dam"]["hits"],
                result=t(
                    f"wings.raid.{outcome['result']}"
                    if view.data["dam"]["finished"]
                    else "wings.raid.ongoing",
                    locale,
                ),
                vp=outcome.get("vp", "—"),
            )
        squadrons = view.data["squadrons"]
        return " – ".join(
            f"{_side(side, locale)} {squadrons[side]['score']}" for side in ("entente", "central")
        )

    def _where(self, view: WingsViewLike, locale: str) -> str:
        if "dam" in view.data:
            dam = view.data["dam"]
            return t(
                "wings.dam-where",
                locale,
                dam=t(f"wings.dam.{dam['kind']}", locale),
                run=dam["run"] + 1,
                runs=len(dam["roster"]),
                turn=dam["turn"],
                round=t(f"service.round.{view.stage}", locale),
            )
        mission = view.data.get("mission")
        # Between missions, or the campaign over (since wings rules 14 it may end with its
        # last mission still on the table): no turn to name.
        if not mission or view.stage == "ended":
            return t(
                "wings.where-between",
                locale,
                mission=view.data.get("mission_number", 0),
                missions=view.data.get("missions_planned", 0),
                round=t(f"service.round.{view.stage}", locale),
            ) + front_words(view.data, locale)
        # The channel counts the campaign's turns ("Turn 7/27"), a mission its own: the
        # board names both when they differ, or its "turn 2" contradicts the message's 7.
        key = "wings.where" if mission["turn"] == view.turn else "wings.where-campaign"
        return t(
            key,
            locale,
            campaign_turn=view.turn,
            mission=view.data.get("mission_number", 0),
            missions=view.data.get("missions_planned", 0),
            kind=t(
                "wings.where-kind",
                locale,
                kind=t(f"wings.kind.{mission_key(mission)}", locale),
            )
            if mission
            else "",
            turn=mission["turn"] if mission else "—",
            round=t(f"service.round.{view.stage}", locale),
        ) + front_words(view.data, locale)  # seed F.VI.e: the Eastern Front, public

    def _record(self, view: WingsViewLike, number: int) -> Mapping[str, Any] | None:
        return next((r for r in view.data.get("history", ()) if r["number"] == number), None)

    def _mission_lines(
        self, record: Mapping[str, Any], locale: str, view: WingsViewLike | None = None
    ) -> list[str]:
        # Seed E.III.a: a failed mission is the defender's only if he also held the air.
        drawn = not record["success"] and record.get("winner") == "draw"
        key = (
            "wings.success"
            if record["success"]
            else "wings.failure-draw"
            if drawn
            else "wings.failure"
        )
        result = t(key, locale)
        return [
            t(
                "wings.mission-head",
                locale,
                number=record["number"],
                side=_side(record["active"], locale),
                kind=t(f"wings.kind.{mission_key(record)}", locale),
                result=result,
            ),
            t(
                "wings.mission-score",
                locale,
                entente=record["vp"].get("entente", 0),
                central=record["vp"].get("central", 0),
                lost_entente=record["losses"].get("entente", 0),
                lost_central=record["losses"].get("central", 0),
            ),
            *self._victory_lines(record, locale, view),
        ]

    def _victory_lines(
        self, record: Mapping[str, Any], locale: str, view: WingsViewLike | None
    ) -> list[str]:
        """Seed E.III.b: each kill of the mission, confirmed or not for want of a witness."""
        lines = []
        for victory in record.get("victories", ()):
            victim = victory["victim"]
            if victim == "balloon":
                name = t("kill-confirm.balloon", locale)
            else:
                name = self._plane_name(view, victim) if view is not None else victim
            verdict = "confirmed" if victory["confirmed"] else "unconfirmed"
            lines.append(
                t(
                    "kill-confirm.victory",
                    locale,
                    name=victory["name"],
                    victim=name,
                    zone=t(f"kill-confirm.zone.{victory['zone']}", locale),
                    verdict=t(f"kill-confirm.{verdict}", locale),
                )
            )
        return lines

    # ------------------------------------------------------------------ words

    def option_text(
        self,
        scenario: str,
        field: str,
        value: str,
        locale: str,
        view: WingsViewLike | None = None,
    ) -> str:
        if field == DAM_START and value.lstrip("-").isdigit():  # DB 8.d: the start's angle
            return dam_heading_words(int(value), locale)
        if field == DAM_LIGHTS:  # DB 6: the searchlight switch
            return word(f"wings.dam-lights.{value}", value, locale)
        if field == DAM_NIGHT:  # DB 6: the crew's pick of a night card
            return night_card_words(value, locale)
        if _program_field(field) and value in COMEBACK_OPTIONS:
            return t(f"wings.exit.{value}", locale)
        if _program_field(field) and value == REINFORCE_NO:
            return t("wings.reinforce.no", locale)
        if _program_field(field) and value.startswith(REINFORCE_TYPE):
            plane = value.removeprefix(REINFORCE_TYPE)
            name = word(f"wings.plane.{plane}", plane, locale)
            return t("wings.reinforce.send", locale, plane=name)
        if _program_field(field) and value in SUN_OPTIONS:
            return t(f"wings.sun.{value}", locale)
        if _program_field(field) and SEQUENCE_MARK in value:
            cards = value.partition(SEQUENCE_MARK)[0]
            return self.option_text(scenario, field, cards, locale)
        if _program_field(field) and RELEASE in value:
            program, _, when = value.rpartition(RELEASE)
            return t(
                "wings.bomb-release.program",
                locale,
                program=program,
                when=t(f"wings.bomb-release.{when}", locale),
            )
        if _program_field(field) and PISTOL in value:
            program, _, after = value.rpartition(PISTOL)
            when = t(f"wings.pistol.{after}", locale)
            return t("wings.pistol.program", locale, program=program, when=when)
        if _program_field(field) and value.startswith(SEALED):
            # A program flown blind in the clouds: public words must not carry its cards.
            return t("wings.cloud.sealed", locale, code=value.removeprefix(SEALED))
        if _program_field(field) and ":" in value and " " in value.strip():
            return _maneuver_words(value, locale)  # "split_s: ST IM S" (seed C)
        if _program_field(field) and value.startswith(SEQUENCE_SEALED):
            # A complex maneuver begun late: public words must not say what it still owes.
            return t("wings.sequence.sealed", locale, code=value.removeprefix(SEQUENCE_SEALED))
        if field == "purchase" and value.startswith(BUY_SEALED):
            # Seed E/F: a squadron's purchase, sealed: public words never name the resource.
            return t("wings.purchase.sealed", locale, code=value.removeprefix(BUY_SEALED))
        if field == "mission":
            return word(f"wings.kind.{value}", value, locale)
        if field == "purchase":
            return _purchase_words(value, locale)
        if field.startswith("skill"):  # "skill:P3": a pilot's new skill
            return word(f"wings.skill.{value}", value, locale)
        if field.startswith("wound"):  # "wound:P3": a wounded pilot rests or flies
            return word(f"wings.wound.{value}", value, locale)
        if field.startswith("order"):  # "order:P2": a plane's standing order
            return word(f"wings.order.{value}", value, locale)
        if field.startswith("equip") and value.startswith(KIT_SEALED):
            # A pilot's equipment (seed D.VIII), sealed: the orders never name the item.
            return t("wings.equipment.sealed", locale, code=value.removeprefix(KIT_SEALED))
        if field.startswith("equip"):
            return word(f"wings.equipment.{value}", value, locale)
        if field == "winch":  # seed A.IV.i.3: "keep", or "winch:c-B1+c-B2"
            if value == "keep":
                return t("wings.winch.keep", locale)
            balloons = value.removeprefix("winch:").replace("+", ", ")
            return t("wings.winch.down", locale, balloons=balloons)
        if field.startswith("flak") and value.startswith(FLAK_WORDS):
            # Opened once the campaign is over: over a plane named as its panel named it.
            return _flak_words(value, locale, _flak_target(view, value))
        if field.startswith("flak") and value.startswith(FLAK_SEALED):
            # Seed A.IV.h: public words must not tell where a shell still waits.
            return t("wings.flak.sealed", locale, code=value.removeprefix(FLAK_SEALED))
        return value

    def step_text(self, field: str, option: Option, locale: str) -> str:
        """A maneuver card of a program picked card by card: its code, as players write
        it, and its name in the reader's language ("BL · virage incliné à gauche")."""
        name = word(f"wings.card.{option.id}", "", locale)
        return f"{option.label} · {name}" if name else option.label

    def option_description(self, field: str, option: Option, locale: str) -> str:
        if option.detail == DAM_START_WORDS or option.detail.startswith(DAM_LIGHTS_WORDS):
            return t(f"wings.{option.detail}-detail", locale)
        if option.detail.startswith(DAM_NIGHT_WORDS):  # DB 6: what keeping the card does
            return night_card_detail(option.detail, locale)
        if option.detail.startswith(SWAP_WORDS):  # the Ace of Aces' keep / change
            return t(f"wings.{option.detail}", locale)
        if option.detail.startswith(EXIT_WORDS):  # off the table: what each choice means
            return t(f"wings.{option.detail}-detail", locale)
        if option.detail.startswith(SUN_WORDS):  # out of the sun: enter now or wait
            return t(f"wings.{option.detail}-detail", locale)
        if option.detail.startswith(REINFORCE_WORDS + "cost."):  # seed E.IV: its price
            points = option.detail.removeprefix(REINFORCE_WORDS + "cost.")
            return t("wings.reinforce.cost-detail", locale, mp=points)
        if option.detail == REINFORCE_WORDS + "no":
            return t("wings.reinforce.no-detail", locale)
        if SEQUENCE_MARK in option.id and ":" in option.detail:  # begun late: its own panel
            return _program_words(option.detail, locale) or _maneuver_words(option.detail, locale)
        if option.detail.startswith(RELEASE_WORDS):  # seed A.IV.e: what the release does
            return t(f"wings.{option.detail}-detail", locale)
        if option.detail.startswith(PISTOL_WORDS):  # seed D.VIII: fires, or why it will not
            return t(f"wings.pistol.{option.detail.split('.')[-1]}-detail", locale)
        if option.detail.startswith(ORDER_WORDS):  # "order.artist.short": what it does
            return t(f"wings.order-detail.{option.detail.split('.')[-1]}", locale)
        if option.detail.startswith("equipment."):  # the sealed item, its price and effect
            item = word(f"wings.{option.detail}", option.detail, locale)
            effect = t(f"wings.{option.detail}-detail", locale)
            return t("wings.equipment.described", locale, item=item, detail=effect)
        if option.detail.startswith(FLAK_WORDS):  # the gunner's order, on his side's panel
            return _flak_words(option.detail, locale, option.label if _aimed_flak(option) else None)
        if option.detail.startswith("winch."):  # seed A.IV.i.3: what the order does
            return t(f"wings.{option.detail}-detail", locale)
        if field.startswith("skill"):  # what the skill does (seed D.VII), authored
            return word(f"wings.skill-detail.{option.id}", option.detail, locale)
        if option.detail.startswith(BUY_WORDS):  # a sealed purchase: its price, if new
            _kind, price, fresh = _bought(option.detail)
            key = "wings.debrief.cost-new" if fresh else "wings.debrief.cost"
            return t(key, locale, cp=price) if price else ""
        if field == "purchase" and option.detail:  # "2 (new)": its price, a kind never owned
            cost, _, new = option.detail.partition(" ")
            key = "wings.debrief.cost-new" if new else "wings.debrief.cost"
            return t(key, locale, cp=cost) if cost.isdigit() else option.detail
        if _program_field(field) and (words := _program_words(_program_of(option), locale)):
            return words  # the program in words: the label gives its codes
        return option.detail

    @staticmethod
    def sealed_option(field: str, option: Option) -> bool:
        """Whether its owner's menu names the option in its own words rather than as it
        reads once opened: a seal ("Flak order 585a660a60" says nothing to the gunner's
        side), or a purchase, whose menu line carries its price."""
        return option.id.startswith((SEALED, KIT_SEALED, BUY_SEALED)) or (
            option.detail.startswith(BUY_WORDS)
            or (option.id.startswith(FLAK_SEALED) and option.detail.startswith(FLAK_WORDS))
            or _aimed_flak(option)  # names the enemy plane by its pilot, not by its id
        )

    def option_lines(self, scenario: str, decision: Decision, locale: str) -> list[str]:
        # A sealed program (clouds) reads as its cards on its own side's panel.
        labels = [
            o.detail
            if o.id.startswith(SEALED)
            else _maneuver_words(o.detail, locale)
            if o.id.startswith(SEQUENCE_SEALED) or (SEQUENCE_MARK in o.id and ":" in o.detail)
            else word(f"wings.{o.detail}", o.detail, locale)
            if o.id.startswith(KIT_SEALED)  # a sealed equipment choice: the item's name
            else _bought_words(o.detail, locale)
            if o.detail.startswith(BUY_WORDS)  # a purchase: the resource and its price
            else _flak_words(o.detail, locale)
            if o.id.startswith(FLAK_SEALED) and o.detail.startswith(FLAK_WORDS)
            else _flak_words(o.detail, locale, o.label)
            if _aimed_flak(o)
            else self.option_text(scenario, decision.field, o.id, locale)
            for o in decision.options
        ]
        if decision.field.startswith((FLAK_FIELD, "order", "winch")) and len(decision.options) > 1:
            # The gunner's eight long orders, a standing order, the winch: the menu says
            # each with what it does; the panel says only the pick, so its picture stays
            # near the top of a phone's screen.
            return []
        pilot = decision.options[0].detail if decision.options else ""
        if decision.field.startswith("skill") and pilot:  # whose skill: the seam names him
            return [t("wings.debrief.skill-for", locale, pilot=pilot, skills=" · ".join(labels))]
        if decision.field.startswith("wound") and pilot:  # whose wound: the seam names him
            return [t("wings.debrief.wound-for", locale, pilot=pilot, choices=" · ".join(labels))]
        return [" · ".join(labels)]

    def excluded_lines(
        self, scenario: str, decision: Decision, locale: str
    ) -> list[tuple[str, str]]:
        return [
            (self._excluded_label(decision.field, e.id, e.label, locale), reason)
            for e in decision.excluded
            for reason in [t(f"service.reason.{e.reason}", locale)]
        ]

    def _excluded_label(self, field: str, key: str, label: str, locale: str) -> str:
        """The engine's label ("veteran (3 CP)", "Rescue") in the reader's words; a cost the
        label carries after the id stays."""
        if _program_field(field) and key == PISTOL.strip():  # seed D.VI: the Knight's
            return t("wings.pistol.shot", locale)
        if _program_field(field) and key == "swap":  # an Ace who may only keep his card
            return t("wings.ace-swap.swap", locale)
        if field in ("mission", "purchase") or field.startswith(("skill", "wound", "equip")):
            rest = label[len(key) :] if label.startswith(key) else ""
            return self.option_text("", field, key, locale) + rest
        return label

    def panel_notes(
        self,
        scenario: str,
        view: WingsViewLike,
        side: str,
        drafts: Mapping[str, str],
        locale: str,
    ) -> tuple[list[str], list[str]]:
        stage = view.stage
        if stage == "reorder" and not view.shown:
            stage = "fly"  # no plane of this side tails anyone: locking flies the turn
        before = [t(f"wings.help.{stage}", locale)] if stage != "ended" else []
        if "dam" in view.data and stage == "program":
            # A raid flies one card a turn, and its own codes and bomb orders (DB 2, 5).
            return [t(f"dambuster.panel.{key}", locale) for key in ("one-card", "legend")], []
        if stage == DAM_NIGHT and side != "entente":  # the guns' side: not their Lancaster
            before = [t("wings.night.guns", locale)]
        # Seed E.IV: only this side's own view holds its reserve of Mission Points.
        reserve = (view.data.get("mission") or {}).get("reserve", {}).get(side)
        if reserve and stage not in ("ended", "debrief"):  # spent only while flying
            before.append(SMALL_PRINT + t("wings.reinforce.reserve", locale, mp=reserve))
        for pursuer, card in sorted(view.shown.items()):
            slot = self._slot(view, pursuer, locale)
            before.append(t("wings.shown", locale, slot=slot, card=card))
        squadron = view.data.get("squadrons", {}).get(side) or {}
        if stage == "debrief" and squadron.get("reserve") is not None:  # what buys with
            before.append(t("wings.debrief.cp", locale, cp=squadron["reserve"]))
        if view.stage == DAM_NIGHT:
            before += night_lines(view.data.get("dam") or {}, side, locale)
        if view.stage == "program":
            # The programs are written as card codes: their legend, in small print.
            before.append(SMALL_PRINT + t("wings.legend", locale))
            before += self._flak_names(view, side, locale)
            before += self._order_notes(view, side, locale)
            before += relief_lines(view.data, locale)  # seed F.V: what to fly above
            before += sun_lines(view.data, locale)  # seed F.VI.e: who waits in the sun
            before += role_lines(view.data, locale)  # seed A.IV.i: the balloons' role
        return before, []

    def _flak_names(self, view: WingsViewLike, side: str, locale: str) -> list[str]:
        """A gunner's orders name the enemy pilots ("Over Karl Allmenröder · Albatros
        D.III"), the table their planes by labels ("C2"): which is which, for a side with a
        battery."""
        mission = view.data.get("mission") or {}
        turn = mission.get("turn", 0)
        batteries = [  # only a battery whose gunner gives an order this turn (A.IV.h)
            g
            for g in (mission.get("ground") or {}).values()
            if g.get("side") == side
            and g["kind"] not in ("trench", "caa")
            and not g.get("destroyed")
            and not g.get("silenced")
            and turn >= g.get("ready_turn", 0)
        ]
        enemies = sorted(
            (
                p
                for p in (mission.get("planes") or {}).values()
                if p["side"] != side and p["status"] == "flying"
            ),
            key=lambda p: (len(p["id"]), p["id"]),
        )
        if not batteries or not enemies:
            return []
        pilots = view.data.get("pilots", {})
        names = []
        for plane in enemies:
            slot = view.slots.get(plane["id"], plane["id"]).removeprefix("plane")
            label = t(f"wings.map.initial.{plane['side']}", locale) + slot
            pilot = pilots.get(plane.get("pilot") or "", {}).get("name", "")
            names.append(t("wings.flak-name", locale, id=plane["id"], label=label, pilot=pilot))
        return [SMALL_PRINT + t("wings.flak-names", locale, names=", ".join(names))]

    def _order_notes(self, view: WingsViewLike, side: str, locale: str) -> list[str]:
        """Seed D.VI: which of the reader's planes holds a power its standing order plays
        (``power_used`` is in a side's own view only, so an enemy's never shows)."""
        mission = view.data.get("mission") or {}
        notes = []
        for pid, plane in sorted(mission.get("planes", {}).items()):
            if (
                plane.get("side") == side
                and plane.get("behaviour") in ORDER_BEHAVIOURS
                and plane.get("power_used") is False
                and plane.get("status") == "flying"
            ):
                slot = self._slot(view, pid, locale)
                # Small print: the standing order's menu says what each order does.
                notes.append(
                    SMALL_PRINT + t(f"wings.order-help.{plane['behaviour']}", locale, slot=slot)
                )
        return notes

    def board_summary(self, view: WingsViewLike, locale: str) -> str:
        return f"{self._where(view, locale)} · {self._scores(view, locale)}"

    def panel_summary(self, view: WingsViewLike, side: str, locale: str) -> str:
        return self.board_summary(view, locale)

    def turn_summary(self, view: WingsViewLike, turn: int, locale: str) -> list[str]:
        lines = [t("wings.scores", locale, scores=self._scores(view, locale))]
        number = view.reports.get(turn)
        record = self._record(view, number) if number is not None else None
        if record is not None:
            lines += self._mission_lines(record, locale, view)
        return lines + self._early_end(view, locale)

    @staticmethod
    def turn_happenings(
        view: WingsViewLike, events: Sequence[tuple[str, Mapping[str, Any]]], locale: str
    ) -> list[str]:
        """One line of what a flown turn did, from its public events: planes down by side,
        balloons and ground posts destroyed, objectives photographed or reconnoitred. A turn
        nothing flew in (a debrief) says nothing; a raid has its own score line."""
        kinds = [kind for kind, _ in events]
        if "dam" in view.data or "card-revealed" not in kinds:
            return []
        planes = (view.data.get("mission") or {}).get("planes", {})
        down: dict[str, set[str]] = {}
        for kind, data in events:
            if kind in PLANE_DOWN:
                side = planes.get(str(data.get("plane")), {}).get("side", "")
                down.setdefault(side, set()).add(str(data.get("plane")))
        parts = []
        if down:
            sides = ", ".join(
                t("wings.turn-story.side-count", locale, side=_side(side, locale), count=len(ids))
                if side
                else str(len(ids))
                for side, ids in sorted(down.items(), key=lambda item: _SIDE_ORDER.get(item[0], 2))
            )
            parts.append(t("wings.turn-story.planes-down", locale, sides=sides))
        for key, counted in HAPPENINGS:
            if count := sum(kinds.count(kind) for kind in counted):
                parts.append(t(f"wings.turn-story.{key}", locale, count=count))
        if not parts:
            return [t("wings.turn-story.happened-none", locale)]
        return [t("wings.turn-story.happened", locale, parts=" · ".join(parts))]

    @staticmethod
    def _early_end(view: WingsViewLike, locale: str) -> list[str]:
        """Why a campaign ended before its last planned mission (seed F.III.d), read from
        the public state: the loser's airfield destroyed, or his score below a third of the
        winner's; otherwise he had no plane left to fly."""
        data = view.data
        winner, number = data.get("winner"), data.get("mission_number", 0)
        if not view.finished or winner not in SIDE_INK or "dam" in data:
            return []
        if number >= data.get("missions_planned", 0):
            return []
        loser = "central" if winner == "entente" else "entente"
        squadrons = data.get("squadrons", {})
        score = {side: squadrons.get(side, {}).get("score", 0) for side in SIDE_INK}
        airfield = squadrons.get(loser, {}).get("majors", {}).get("airfield", {})
        if data.get("airfield_assault") and airfield.get("destroyed"):
            why = "airfield"
        elif score[loser] * 3 < score[winner]:
            why = "third"
        else:
            why = "grounded"
        return [
            t(
                f"wings.end.{why}",
                locale,
                number=number,
                missions=data.get("missions_planned", 0),
                loser=_side(loser, locale),
                winner=_side(winner, locale),
                loser_vp=score[loser],
                winner_vp=score[winner],
            )
        ]

    def campaign_length(self, scenario: str, view: WingsViewLike | None, locale: str) -> str | None:
        """A squadron campaign counts missions, each as long as it lasts (issue 27: the
        card said "27 turns"); a raid counts its runs. Flown missions say their turns."""
        if view is None or "dam" in view.data:
            return None
        data = view.data
        planned = int(data.get("missions_planned") or 0)
        mission = data.get("mission") or {}
        most = int(mission.get("max_turns") or 0)
        words = t("wings.length.missions", locale, missions=planned, turns=most or "?")
        flown = self._flown_lengths(view, locale)
        return t("wings.length.with-flown", locale, planned=words, flown=flown) if flown else words

    @staticmethod
    def _flown_lengths(view: WingsViewLike, locale: str) -> str:
        """ "mission 1 lasted 6 turns, mission 2 lasted 4 turns" from the records."""
        parts = [
            t("wings.length.flown", locale, number=record["number"], count=record["turns"])
            for record in view.data.get("history", ())
            if "turns" in record
        ]
        return ", ".join(parts)

    def status_lines(self, view: WingsViewLike, locale: str) -> list[str]:
        flown = self._flown_lengths(view, locale) if "dam" not in view.data else ""
        return [
            self._where(view, locale),
            t("wings.scores", locale, scores=self._scores(view, locale)),
            *([t("wings.length.status", locale, flown=flown)] if flown else []),
            *major_lines(view.data, locale, bool(view.data.get("airfield_assault"))),
            *relief_lines(view.data, locale),
            *sun_lines(view.data, locale),
            *role_lines(view.data, locale),
            *dorsal_lines(view.data, locale),
        ]

    # ------------------------------------------------------------------ images

    @staticmethod
    def _board(view: WingsViewLike, locale: str) -> Image.Image | None:
        """The table from above, when a mission is on it (``rendering.rulesets.wings.map``)."""
        if "dam" in view.data:  # DB 8: the raid's own table (``rendering.rulesets.wings.dam_map``)
            return dam_board(view.data["dam"], WIDTH - 2 * MARGIN + 16, locale)
        mission = view.data.get("mission")
        if not mission or not mission.get("planes"):
            return None
        return table_map(mission, view.slots, WIDTH - 2 * MARGIN + 16, locale)

    def _map_key(self, view: WingsViewLike, locale: str) -> list[Line]:
        """What the table's marks stand for, those on this table only, under the table."""
        mission = view.data.get("mission")
        if "dam" in view.data or not mission or not mission.get("planes"):
            return []
        planes = sorted(mission["planes"].values(), key=lambda p: (len(p["id"]), p["id"]))
        # The table labels the planes on it (not those gone off it, nor the wrecks' crosses).
        gone = ("left", "waiting", "shot_down", "crashed", "exploded")
        labelled = [p for p in planes if p["status"] not in gone]
        parts = []
        if labelled:
            plane = labelled[0]
            slot = view.slots.get(plane["id"], plane["id"]).removeprefix("plane")  # as drawn
            label = t(
                "wings.map.plane",
                locale,
                side=t(f"wings.map.initial.{plane['side']}", locale),
                slot=slot,
                level=plane["level"],
            )
            side = _side(plane["side"], locale)
            key = "wings.key.plane"
            parts.append(t(key, locale, label=label, side=side, slot=slot, level=plane["level"]))
        if any(p.get("counters") for p in labelled):
            parts.append(t("wings.key.counters", locale))
        sites = (mission.get("objectives") or {}).values()
        balloon = next(
            (
                o
                for o in sites
                if o["kind"] == "balloon" and "level" in o and not o.get("destroyed")
            ),
            None,
        )
        if balloon is not None:
            parts.append(t("wings.key.balloon", locale, level=balloon["level"]))
        if any(o["kind"] == "post" and not o.get("destroyed") for o in sites):
            parts.append(t("strafing.key.post", locale))  # seed E.I.a: the ring's meaning
        kinds = {g["kind"] for g in (mission.get("ground") or {}).values()}
        if kinds - {"trench", "caa"}:  # the table marks every other battery "F"
            parts.append(t("wings.key.flak", locale))
        if "caa" in kinds:
            parts.append(t("wings.key.caa", locale))
        hidden = next((p for p in planes if p.get("damage") is None), None)
        if hidden is not None:
            structure = self._structure(view, hidden["type"])
            parts.append(t("wings.key.damage", locale, structure=structure))
        if not parts:
            return []
        return [(t("wings.key.head", locale, parts=" · ".join(parts)), MUTED, False)]

    def status_board(
        self, view: WingsViewLike, locked: Mapping[str, bool], deadline: str | None, locale: str
    ) -> bytes:
        lines = [(self._scores(view, locale), INK, True), *self._plane_lines(view, locale)]
        lines[1:1] = self._map_key(view, locale)
        majors = major_lines(view.data, locale, bool(view.data.get("airfield_assault")))
        lines += [(text, INK, index == 0) for index, text in enumerate(majors)]
        lines += [
            (text, INK, index == 0) for index, text in enumerate(relief_lines(view.data, locale))
        ]
        lines += [(text, INK, False) for text in sun_lines(view.data, locale)]
        lines += [(text, INK, False) for text in role_lines(view.data, locale)]
        for side, flag in () if view.finished else locked.items():  # over: nobody waits
            key = "wings.locked" if flag else "wings.waiting"
            lines.append((t(key, locale, side=_side(side, locale)), MUTED, False))
        if deadline:
            lines.append((t("wings.deadline", locale, deadline=deadline), MUTED, False))
        return _render(self._where(view, locale), lines, self._board(view, locale))

    def panel_image(
        self, view: WingsViewLike, locale: str, drafts: Mapping[str, str] = NO_DRAFTS
    ) -> bytes:
        """The side's table with its drafted programs flown as ghost paths (issue 27): its
        own view and drafts only, so nothing of the other side's choices can show."""
        drafted = drafted_programs(view, drafts)
        lines = preview_lines(view, drafted, locale, self._slot, self._pilot)
        lines += [*self._map_key(view, locale), *self._plane_lines(view, locale)]
        for pursuer, card in sorted(view.shown.items()):
            slot = self._slot(view, pursuer, locale)
            lines.append((t("wings.shown", locale, slot=slot, card=card), INK, True))
        # (The table handed over, not kept here: ``_render`` lets it go once pasted.)
        return _render(self._where(view, locale), lines, self._ghosts(view, drafted, locale))

    def _ghosts(
        self, view: WingsViewLike, drafted: Mapping[str, tuple[str, ...]], locale: str
    ) -> Image.Image | None:
        """The table with the drafted programs flown on it, or as it stands without any."""
        board = preview_board(view, drafted, WIDTH - 2 * MARGIN + 16, locale)
        return self._board(view, locale) if board is None else board

    @staticmethod
    def _pilot(view: WingsViewLike, pid: str) -> str:
        """The pilot flying plane ``pid``, by name, as the table knows him."""
        mission = view.data.get("mission") or {}
        plane = (mission.get("planes") or {}).get(pid, {})
        pilot = (view.data.get("pilots") or {}).get(plane.get("pilot") or "", {})
        return str(pilot.get("name", pid))

    def reveal_image(self, title: str, sides: Sequence[RevealLine], locale: str) -> bytes:
        lines: list[Line] = []
        for line in sides:
            lines.append((_side(line.side, locale), SIDE_INK.get(line.side, INK), True))
            lines += [(f"{field}: {value}", INK, False) for field, value in line.pairs]
            lines.append((t("wings.receipt", locale, receipt=line.receipt[:16]), MUTED, False))
        return _render(title, lines)

    def after_action(self, scenario: str, view: WingsViewLike, locale: str) -> bytes:
        lines: list[Line] = [(self._scores(view, locale), INK, True)]
        if "dam" in view.data:
            for what, reg, value in view.data["dam_result"].get("lines", ()):
                text = t(f"wings.vp-line.{what}", locale, reg=reg, vp=f"{value:+d}")
                lines.append((text, INK, False))
            structure = int(view.data.get("dam_structure", 32))
            lines += self._dam_lines(view.data["dam"], locale, structure)
            return _render(t("wings.after-action", locale), lines)
        winner = view.data.get("winner")
        if winner is not None:
            name = _side(winner, locale) if winner in SIDE_INK else t("wings.draw", locale)
            lines.append((t("wings.winner", locale, side=name), INK, True))
        lines += [(text, INK, False) for text in self._early_end(view, locale)]
        for record in view.data.get("history", ()):
            lines += [(text, INK, False) for text in self._mission_lines(record, locale, view)]
        for side in ("entente", "central"):
            lines.append((_side(side, locale), SIDE_INK[side], True))
            pilots = [p for p in view.data.get("pilots", {}).values() if p["side"] == side]
            for pilot in sorted(pilots, key=lambda p: (len(p["id"]), p["id"])):
                lines.append(
                    (
                        t(
                            # seed E.III.b: the roundels too, once there are kills
                            "kill-confirm.pilot-line"
                            if pilot["kills"]
                            else "kill-confirm.pilot-line-none",
                            locale,
                            name=pilot["name"],
                            plane=self._plane_name(view, pilot["plane"]),
                            kills=pilot["kills"],
                            confirmed=pilot.get("confirmed", 0),
                            vp=pilot["vp"],
                            state=t(f"wings.pilot.{pilot['state']}", locale),
                        ),
                        INK,
                        False,
                    )
                )
        return _render(t("wings.after-action", locale), lines)

    # ------------------------------------------------------------------ the turn shown

    def names(self, view: WingsViewLike) -> Mapping[str, str]:
        """Plane and pilot ids -> the pilot's name, for the log ("P3 fires at P1" reads
        "Kurt Wolff fires at Albert Ball"): every pilot of the campaign, then the planes of
        the mission on the table (a reinforcement flies under an id of its own)."""
        names = {pid: str(p["name"]) for pid, p in (view.data.get("pilots") or {}).items()}
        named = Names(view)
        for pid in (view.data.get("mission") or {}).get("planes", {}):
            names[pid] = named.pilot(pid)
        return names

    def turn_told(
        self, scenario: str, view: WingsViewLike, events: TurnEvents, turn: int, locale: str
    ) -> TurnTold | None:
        """A flying turn (issue 27): a line a plane (its cards by pilot name, its shots, what
        it took), a picture of every path, step and shot, and the same as an animation. A
        debrief, a raid or a turn logged before the moves said where they began: None."""
        if "dam" in view.data:
            return self._raid_told(view, events, turn, locale)
        mission = view.data.get("mission")
        if not mission or not view.flight:
            return None
        turn_flown = flown(events)
        if not turn_flown.steps:
            return None
        lines = [
            *self.turn_happenings(view, events, locale),
            *story(view, turn_flown, events, locale),
        ]
        png = self.turn_picture(view, turn_flown, locale)
        gif = self.turn_animation(view, turn_flown, locale)
        alt = described_turn(lines)
        return TurnTold(
            tuple(lines),
            (
                (f"turn-{turn}.png", png, alt),
                (f"turn-{turn}.gif", gif, t("wings.flown.animation-alt", locale, what=alt)),
            ),
        )

    def _raid_told(
        self, view: WingsViewLike, events: TurnEvents, turn: int, locale: str
    ) -> TurnTold | None:
        """A raid's turn: the Lancaster's card, its bomb and the guns' fire, in words, and
        the dam's table as the turn left it."""
        lines = raid_story(events, locale)
        if not lines:
            return None
        board = self._board(view, locale)
        title = t("dambuster.raid.title", locale, turn=turn)
        png = _render(title, [(self._scores(view, locale), INK, True)], board)
        return TurnTold(tuple(lines), ((f"turn-{turn}.png", png, described_turn(lines)),))

    def turn_picture(self, view: WingsViewLike, turn_flown: Flown, locale: str) -> bytes:
        """The turn on one picture: every path, step and shot, and under it each plane's
        mark, pilot and cards with the marks' key."""
        title = t(
            "wings.flown.title",
            locale,
            turn=turn_flown.turn or "?",
            mission=view.data.get("mission_number", "?"),
        )
        mission = view.data["mission"]
        width = WIDTH - 2 * MARGIN + 16
        board = still(mission, view.slots, view.flight, turn_flown, width, locale)
        return _render(title, self._flown_key(view, turn_flown, locale), board)

    def turn_animation(self, view: WingsViewLike, turn_flown: Flown, locale: str) -> bytes:
        """The turn flown card by card, as an animated GIF Discord plays inline."""
        mission = view.data["mission"]
        return animation(mission, view.slots, view.flight, turn_flown, locale)

    def _flown_key(self, view: WingsViewLike, turn_flown: Flown, locale: str) -> list[Line]:
        """Under the turn's picture: each plane's mark, pilot and cards, then the marks' key."""
        names = Names(view)
        painter = TurnPainter(view.data["mission"], view.flight, turn_flown, view.slots, locale)
        lines: list[Line] = []

        def order(pid: str) -> tuple[int, str]:  # as the table marks them: E1, E2, C1, C2
            return (_SIDE_ORDER.get(painter.side(pid), 2), painter.label(pid))

        for pid in sorted(turn_flown.steps, key=order):
            text = t(
                "wings.flown.plane",
                locale,
                mark=painter.label(pid),
                pilot=names.pilot(pid),
                cards=" ".join(turn_flown.cards(pid)),
            )
            lines.append((text, SIDE_INK.get(painter.side(pid), INK), False))
        lines += [(t(f"wings.flown.{key}", locale), MUTED, False) for key in ("key", "key2")]
        return lines

    # ------------------------------------------------------------------ mission reports

    def report_count(self, view: WingsViewLike, turn: int) -> int:
        return 1 if turn in view.reports else 0

    def report(
        self, scenario: str, view: WingsViewLike, turn: int, index: int, locale: str
    ) -> Report:
        number = view.reports.get(turn)
        record = self._record(view, number) if number is not None else None
        if record is None:
            return Report(t("wings.no-report", locale, turn=turn))
        text = self._mission_lines(record, locale, view)
        lines: list[Line] = [(line, INK, False) for line in text]
        lines += self._map_key(view, locale)
        lines += self._plane_lines(view, locale, ended=True)
        title = t("wings.report-title", locale, number=record["number"])
        png = _render(title, lines, self._board(view, locale))
        return Report("\n".join(text), f"mission-{record['number']}.png", png)

    def after_action_turn(
        self,
        scenario: str,
        view: WingsViewLike,
        turn: int,
        locale: str,
        images: Mapping[str, str],
    ) -> list[str]:
        number = view.reports.get(turn)
        record = self._record(view, number) if number is not None else None
        if record is None:
            return []
        lines = ["- " + line for line in self._mission_lines(record, locale, view)]
        key = f"mission-{record['number']}"
        if key in images:
            lines.append(f"  ![{key}]({images[key]})")
        return [*lines, ""]


CARD_CODES = frozenset(
    [
        "S",
        "SF",
        "SS",
        "BL",
        "BR",
        "TL",
        "TR",
        "HL",
        "HR",
        "SL",
        "SR",
        "WL",
        "WR",
        "ST",
        "IM",
        "CL",
        "DV",
    ]
)


def _program_field(field: str) -> bool:
    """A plane's program field: ``program:P3`` (a Dambuster raid's ``plane1``, older
    campaigns' ``plane2``)."""
    return field.startswith(("program:", "plane"))


def _program_of(option: Option) -> str:
    """The program an option stands for: a sealed one keeps it in its detail."""
    if option.id.startswith(SEALED) or (SEQUENCE_MARK in option.id and option.detail):
        return option.detail
    return option.id


DECLARED = ("LP", "LD", "TO", "GD")  # written before the cards: rockets, landing, take-off


def _program_words(program: str, locale: str) -> str:
    """A program in words, whatever it declares ("" for what is no program): its cards in
    order, a complex maneuver named where it begins, a declaration before them (rockets, a
    landing), a bomb release or a pistol shot after."""
    body = program.partition(SEQUENCE_MARK)[0].strip()
    head, colon, rest = body.partition(":")
    plain, name = (head.split()[:-1], head.split()[-1]) if colon and head.split() else ([], "")
    tokens = (rest if colon else body).split()
    declared = ""
    if len(tokens) > 3 and tokens[0] in DECLARED:
        declared, tokens = tokens[0], tokens[1:]
    cards = [token for token in tokens if "@" not in token]
    codes = [*plain, *cards]
    if len(codes) != 3 or any(code not in CARD_CODES for code in codes):
        return ""
    then = t("wings.then", locale)

    def said(part: list[str]) -> str:
        return then.join(t(f"wings.card.{code}", locale) for code in part)

    parts = [said(plain)] if plain else []
    if name:
        maneuver = word(f"wings.maneuver.{name}", name, locale)
        parts.append(t("wings.sequence.declared", locale, maneuver=maneuver, cards=said(cards)))
    else:
        parts.append(said(cards))
    text = then.join(parts)
    if declared:
        text = t("written.declared", locale, what=t(f"written.{declared}", locale), cards=text)
    for token in tokens:
        kind, _, when = token.partition("@")
        if kind == "bomb":
            text += " · " + t(f"wings.bomb-release.{when}", locale)
        elif kind == "pistol":
            text += " · " + t(f"wings.pistol.{when}", locale)
    return text


def _cards_words(program: str, locale: str) -> str:
    """A plain program ("BL S S") as its cards in words, in order; "" for anything else."""
    codes = program.partition(SEQUENCE_MARK)[0].split()  # a plain twin's seal is not a card
    if not codes or any(code not in CARD_CODES for code in codes):
        return ""
    then = t("wings.then", locale)
    return then.join(t(f"wings.card.{code}", locale) for code in codes)


def _purchase_words(kind: str, locale: str) -> str:
    """A resource the squadron buys, in the reader's words ("Sopwith Camel", "Fuel")."""
    if kind == NOTHING:
        return t("wings.nothing", locale)
    if kind.startswith("plane:"):
        plane = kind.removeprefix("plane:")
        return word(f"wings.plane.{plane}", plane, locale)
    return word(f"wings.purchase.{kind}", kind, locale)


def _bought(detail: str) -> tuple[str, str, bool]:
    """A sealed purchase's detail ("buy|plane:spad7|2|new"): the resource, its price in
    CP ("" for nothing) and whether the squadron never owned it."""
    parts = detail.removeprefix(BUY_WORDS).split("|")
    return parts[0], parts[1] if len(parts) > 1 else "", "new" in parts[2:]


def _bought_words(detail: str, locale: str) -> str:
    """A sealed purchase on its owner's menu: the resource and its price ("Fuel (1 CP)")."""
    kind, cost, _new = _bought(detail)
    item = _purchase_words(kind, locale)
    if not cost:
        return item
    return t(
        "wings.purchase.item", locale, item=item, price=t("wings.debrief.cost", locale, cp=cost)
    )


def _flak_words(detail: str, locale: str, plane: str | None = None) -> str:
    """A flak gunner's order in the reader's words: "flak.auto", "flak.hold", or
    "flak.fire.P3.2" (the order, the enemy plane, its altitude); ``plane``: that plane as
    players know it (the option's label on the gunner's own panel), else its id."""
    parts = detail.removeprefix(FLAK_WORDS).split(".")
    if len(parts) == 3:
        kind, plane_id, level = parts
        return t(f"wings.flak.{kind}", locale, plane=plane or plane_id, level=level)
    return t(f"wings.flak.{parts[0]}", locale)


def _flak_target(view: WingsViewLike | None, detail: str) -> str | None:
    """The plane an opened flak order ("flak.fire.P4.2") was aimed over, as the gunner's
    panel named it ("Karl Allmenröder · Albatros D.III"), from the view it is read in: its
    pilots are the campaign's, so a plane of an earlier mission is still known. None where
    no view is at hand or the order names no plane the view knows."""
    parts = detail.removeprefix(FLAK_WORDS).split(".")
    if view is None or len(parts) != 3:
        return None
    pid = parts[1]
    plane = ((view.data.get("mission") or {}).get("planes") or {}).get(pid) or {}
    pilot = (view.data.get("pilots") or {}).get(plane.get("pilot") or pid)
    if pilot is None:
        return None
    kind = view.plane_types.get(plane.get("type") or pilot.get("plane") or "")
    return f"{pilot['name']} · {kind[0]}" if kind is not None else str(pilot["name"])


def _aimed_flak(option: Option) -> bool:
    """A gunner's order aimed over an enemy plane, on his own panel (its label names it)."""
    return option.id.startswith(FLAK_WORDS) and len(option.detail.split(".")) == 4


def _maneuver_words(program: str, locale: str) -> str:
    """A program declaring a complex maneuver ("S split_s: ST IM") with its name worded."""
    head, colon, cards = program.partition(":")
    if not colon:
        return program
    *plain, key = head.split() or [""]
    name = word(f"wings.maneuver.{key}", key, locale)
    declared = t("wings.sequence.declared", locale, maneuver=name, cards=cards.strip())
    return " ".join([*plain, declared])


def described_turn(lines: Sequence[str]) -> str:
    """The turn's lines as one plain sentence for a picture's alt text (no Markdown)."""
    return " ".join(line.replace("**", "").replace("`", "") for line in lines)
