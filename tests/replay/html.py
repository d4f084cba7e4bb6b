"""The replay page read back as a tree of what matters: sections, headings, images, links."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Section:
    id: str
    headings: list[tuple[int, str]] = field(default_factory=list)
    images: list[dict[str, str]] = field(default_factory=list)
    text: str = ""


class PageReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[Section] = []
        self.headings: list[tuple[int, str]] = []  # every heading of the page, in order
        self.images: list[dict[str, str]] = []
        self.urls: list[str] = []  # every src and href
        self.metas: list[dict[str, str]] = []
        self.lang = ""
        self.scripts = 0
        self.styles = 0
        self._heading: int | None = None
        self._words: list[str] = []
        self._in_main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        for name in ("src", "href", "action", "srcset", "poster", "data"):
            if name in found:
                self.urls.append(found[name])
        if tag == "html":
            self.lang = found.get("lang", "")
        elif tag == "meta":
            self.metas.append(found)
        elif tag == "script":
            self.scripts += 1
        elif tag == "style":
            self.styles += 1
        elif tag == "main":
            self._in_main = True
        elif tag == "section" and self._in_main:
            self.sections.append(Section(found.get("id", "")))
        elif tag == "img":
            self.images.append(found)
            if self.sections:
                self.sections[-1].images.append(found)
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = int(tag[1])
            self._words = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self._in_main = False
        if self._heading is not None and tag == f"h{self._heading}":
            heading = (self._heading, " ".join("".join(self._words).split()))
            self.headings.append(heading)
            if self.sections and self._in_main:
                self.sections[-1].headings.append(heading)
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._words.append(data)
        if self.sections and self._in_main:
            self.sections[-1].text += data


def read_page(html: str) -> PageReader:
    reader = PageReader()
    reader.feed(html)
    reader.close()
    return reader


class _Text(HTMLParser):
    """The words a reader meets: text outside scripts and styles, and every alt text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif tag == "img":
            self.parts.append("\n" + (dict(attrs).get("alt") or "") + "\n")
        elif tag in ("p", "li", "tr", "dt", "dd", "h1", "h2", "h3", "figcaption", "br"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def text_lines(html: str) -> list[str]:
    reader = _Text()
    reader.feed(html)
    reader.close()
    # Only ASCII blanks fold: a no-break space is part of what is read.
    lines = (
        re.sub(r"[ \t\r\f\v]+", " ", line).strip(" ") for line in "".join(reader.parts).split("\n")
    )
    return [line for line in lines if line]
