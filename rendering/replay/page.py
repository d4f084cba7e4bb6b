"""What a replay page shows, and the page itself: a Jinja2 template, every text escaped.

The application hands a ``Page`` of public facts in the campaign's own words; nothing here
reads a state or a choice. Texts may carry the little Markdown the bot posts in Discord
(``**bold**``, ```code```): ``markdown`` escapes them first and then marks those up, so a
name typed by a player can never become HTML.
"""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape
from PIL import Image

from rendering.i18n import normalize, t

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Picture:
    """An image embedded in the page, with the words that stand for it."""

    data: bytes
    alt: str
    caption: str = ""

    @property
    def mime(self) -> str:
        return "image/gif" if self.data[:4] == b"GIF8" else "image/png"

    @property
    def uri(self) -> str:
        return f"data:{self.mime};base64,{base64.b64encode(self.data).decode('ascii')}"

    @property
    def size(self) -> tuple[int, int]:
        """Width and height, written into the page so nothing moves as images decode."""
        with Image.open(io.BytesIO(self.data)) as image:
            return image.size


@dataclass(frozen=True)
class Chosen:
    """One side's lock in a round: its choice in words (empty while sealed), and its receipt."""

    side: str
    colour: str
    pairs: tuple[tuple[str, str], ...]
    note: str
    receipt: str


@dataclass(frozen=True)
class RoundShown:
    title: str
    chosen: tuple[Chosen, ...]
    note: str = ""  # "sealed until the turn ends", "locks so far"


@dataclass(frozen=True)
class Told:
    """A report the channel got (a strike, a mission, a turn flown): its lines, its images."""

    lines: tuple[str, ...]
    pictures: tuple[Picture, ...] = ()


@dataclass(frozen=True)
class TurnShown:
    anchor: str  # the section's id: "turn-3"
    heading: str
    when: str  # the turn's date(s), or ""
    board: Picture | None
    rounds: tuple[RoundShown, ...]
    told: tuple[Told, ...]
    story: tuple[str, ...]
    short: str  # the turn list's label: "T3"
    running: bool = False  # the turn the campaign stands in, not over yet
    # Where the campaign stood as the turn opened, in the game's words (markdown): "Mission
    # 2/3 (…), turn 1" under the campaign's turn 10, say.
    where: str = ""


@dataclass(frozen=True)
class SideShown:
    name: str
    colour: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Ending:
    headline: str
    lines: tuple[str, ...]
    pictures: tuple[Picture, ...]


@dataclass(frozen=True)
class Page:
    locale: str
    title: str  # the scenario's name
    game: str
    facts: tuple[tuple[str, str], ...]  # the title card's (label, value) rows
    sides: tuple[SideShown, ...]
    checked: str  # what verify checked, in a sentence
    checked_ok: bool
    notes: tuple[str, ...]  # rollbacks, a running campaign's warning
    turns: tuple[TurnShown, ...]
    ending: Ending | None


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def markdown(text: str) -> Markup:
    """The bot's Discord Markdown as HTML: escaped first, then bold and code put back."""
    safe = str(escape(text))
    safe = _CODE.sub(r"<code>\1</code>", safe)
    safe = _BOLD.sub(r"<strong>\1</strong>", safe)
    return Markup(safe)


@cache
def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(HERE),
        autoescape=True,  # every value escaped; Markup only from ``markdown`` above
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = markdown
    return env


def render_page(page: Page) -> str:
    """The whole page as one HTML document; the same ``Page`` gives the same text."""
    locale = normalize(page.locale)

    def words(key: str, **params: object) -> str:
        return t(f"replay.{key}", locale, **params)

    sections = 1 + len(page.turns) + (page.ending is not None)
    template = _environment().get_template("replay.html.j2")
    return template.render(page=page, w=words, lang=locale, sections=sections)
