"""Links of the Markdown body: what a link is (:class:`Link`), whether inline source may
hold one, and the links and plain text of one parsed inline token, each at its line.

markdown-it turns the line breaks of a paragraph into break tokens, except those a code
span, raw HTML, an image or a link destination consumes: :func:`counting_newlines` wraps
the inline rules so those are recorded (``meta[NEWLINES]``), and every line counted here (and
by :mod:`skillc_index.markdown.document` for inline HTML) is exact. It records each inline
link's and image's destination as written too, with the line it starts on
(``meta[DESTINATION]``), which the tokens only hold normalized.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote

if TYPE_CHECKING:
    from markdown_it.rules_inline import StateInline
    from markdown_it.token import Token

    from skillc_index.markdown.blocks import BlockToken

__all__ = [
    "NEWLINES",
    "Link",
    "bare_urls",
    "counting_newlines",
    "inline_links",
    "may_link",
    "plain_text",
    "shown_text",
]

# A bare URL in text (GFM "extended autolink"): http(s):// or www. up to whitespace or '<'.
_BARE_URL = re.compile(r"(?<![A-Za-z0-9])(?:https?://|www\.)[^\s<>]+", re.IGNORECASE)
_WWW = re.compile(r"www\.", re.IGNORECASE)
_URL_TRAILING = "?!.,:;*_~'\""
# GFM: a www. autolink needs a valid domain after "www." (a segment of letters, digits, "_" or "-").
_WWW_DOMAIN = re.compile(r"www\.[A-Za-z0-9_-]", re.IGNORECASE)

# Token.meta key: newlines a token consumed that no softbreak/hardbreak token stands for.
NEWLINES = "skillc_newlines"
# A destination as written (CommonMark): in <>, or a run without space or control character.
_ANGLED = re.compile(r"<((?:[^<>\n\\]|\\.)*)>")
_PLAIN = re.compile(r"([^\x00-\x20\x7f]+)")
# Token.meta key of a link_open or image token: its destination as written and the lines
# from the link's start to it (Link.written, Link.written_line), or for a reference-style
# one "", 0 and its own source's first line (Link.written_link).
DESTINATION = "skillc_destination"


@dataclass(frozen=True)
class Link:
    """A link or image of the Markdown body (inline, reference-style, autolink or bare URL)."""

    target: str
    """The destination, percent-decoded (``my%20file.md`` -> ``my file.md``), ``#anchor`` kept:
    to show; what it names is :attr:`path` and :attr:`fragment`."""
    line: int
    """Line the link starts on."""
    text: str
    """Plain text of the link (the alt text for an image)."""
    image: bool = False
    """``True`` for ``![alt](src)``."""
    written: str = ""
    """The destination as the source writes it (``my%20file.md``, backslash escapes kept,
    without ``<>``) for an inline link or image and a bare URL; ``""`` when the link's own
    text does not hold it (a reference-style link: its definition does; an autolink)."""
    written_line: int = 0
    """How many lines after :attr:`line` :attr:`written` starts (``[the guide](`` then
    ``guide.md)``: 1)."""
    path: str = ""
    """The destination's path, before its ``?`` and ``#``, split before it is decoded: a
    ``%3F`` or ``%23`` is part of the name (``q%3F.md`` -> ``q?.md``, where :attr:`target`
    reads as ``q`` and a query); a bare URL's as it is."""
    fragment: str = ""
    """What follows the destination's first ``#``, percent-decoded (``""``: none)."""
    written_link: str = ""
    """For a reference-style link or image (no :attr:`written`: ``[the guide][g]``,
    ``[g][]``, ``[g]``, ``![chart][c]``), its own source up to the end of its first line, as
    written: what finds its column on that line; ``""`` for any other."""


def may_link(content: str, *, inline_only: bool = False) -> bool:
    """Whether inline source ``content`` may hold a link, an image, an autolink or a bare
    URL: a ``[``, ``<``, ``://`` or ``www.`` (any case); with ``inline_only`` (a body without
    link reference definitions, where a link or image is inline) a ``[`` counts only with a
    ``](``. Substring tests, not a case-insensitive regular expression of alternatives (slow
    on the corpus's 200,000 blocks); the tests check they answer as those patterns."""
    if "<" in content or "://" in content:
        return True  # both patterns match
    if ("w." in content or "W." in content) and _WWW.search(content):
        return True  # www., in any case: both match
    return "[" in content and (not inline_only or "](" in content)


def plain_text(tokens: Iterable[Token]) -> str:
    """Text of inline tokens: text, code spans and image alt text; breaks become spaces."""
    parts: list[str] = []
    for token in tokens:
        kind = token.type
        if kind in ("text", "code_inline"):
            parts.append(token.content)
        elif kind in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif kind == "image":
            parts.append(plain_text(token.children or ()))
    return "".join(parts)


def shown_text(tokens: Iterable[Token]) -> tuple[str, list[int]]:
    """What a reader sees of parsed inline tokens: their :func:`plain_text` (markup and HTML
    dropped, entities decoded, breaks as spaces), a code span kept in backticks (what is
    code to the reader); and where in it each source line of the tokens starts (a line a
    token consumes, :func:`counting_newlines`, starts after that token)."""
    parts: list[str] = []
    starts = [0]
    size = 0
    for token in tokens:
        kind = token.type
        part = ""
        if kind == "text":
            part = token.content
        elif kind == "code_inline":
            part = f"`{token.content}`"
        elif kind in ("softbreak", "hardbreak"):
            part = " "
        elif kind == "image":
            part = plain_text(token.children or ())
        parts.append(part)
        size += len(part)
        newlines = 1 if kind in ("softbreak", "hardbreak") else 0
        starts += [size] * (newlines + (token.meta.get(NEWLINES, 0) if token.meta else 0))
    return "".join(parts), starts


def counting_newlines(
    rule: Callable[[StateInline, bool], bool],
) -> Callable[[StateInline, bool], bool]:
    """Wrap an inline rule so the newlines it consumes without a break token are recorded.

    markdown-it turns the newlines of a paragraph into softbreak/hardbreak tokens, except
    inside a code span (they become spaces), raw inline HTML, an image (its alt text is parsed
    apart) and a link's destination and title. For those, the wrapped rule stores the missing
    count in ``meta[NEWLINES]`` of the last token it pushed, so link lines stay exact. The
    destination of an inline link or image, as written, and the lines before it go in
    ``meta[DESTINATION]`` of its first token (:func:`_written_destination`).
    """

    def counted(state: StateInline, silent: bool) -> bool:
        if silent:
            return rule(state, silent)
        start, before = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        tokens = state.tokens
        # the first token pushed may be the text pending before the link's own
        for first in tokens[before : before + 2]:
            if first.type in ("link_open", "image"):
                image = first.type == "image"
                first.meta[DESTINATION] = _written_destination(state, start, image)
                break
        newlines = state.src.count("\n", start, state.pos)
        if newlines:
            seen = 0
            for index in range(before, len(tokens)):
                token = tokens[index]
                if token.type in ("softbreak", "hardbreak"):
                    seen += 1
                elif token.meta:
                    seen += token.meta.get(NEWLINES, 0)
            if newlines > seen and len(tokens) > before:
                meta = tokens[-1].meta
                meta[NEWLINES] = meta.get(NEWLINES, 0) + newlines - seen
        return True

    return counted


def _written_destination(state: StateInline, start: int, image: bool) -> tuple[str, int, str]:
    """The destination of the inline link or image whose source runs from ``start`` (its
    ``[`` or ``!``) to ``state.pos`` (after its ``)``), as written: the first run of
    characters after the label's ``](`` and blanks (a destination holds no space nor
    control character; a title follows it after blanks), or what ``<>`` enclose; ``""``
    for a reference-style one; the line breaks from ``start`` to it; and a reference-style
    one's own source up to its first line's end (``""`` for another). The label ends at
    the first ``](`` unless it holds a character that may hide one (a bracket, a code span,
    HTML, an escape): then it is found again as the rule found it (its tokens are cached).
    Only the link's own source is read (``start`` to ``state.pos``): a reference-style link,
    which holds no ``](``, searched the rest of the body for one (quadratic in them)."""
    src = state.src
    opening = start + 1 if image else start
    end = src.find("](", opening, state.pos)
    if end < 0 or any(char in src[opening + 1 : end] for char in "[]`<\\"):
        end = state.md.helpers.parseLinkLabel(state, opening, not image)
    if end < 0 or src[end + 1 : end + 2] != "(":
        return "", 0, src[start : state.pos].partition("\n")[0]  # reference-style
    inner = src[end + 2 : state.pos - 1]
    blanks = len(inner) - len(inner.lstrip(" \t\n"))
    found = (_ANGLED if inner[blanks:].startswith("<") else _PLAIN).match(inner, blanks)
    if found is None:
        return "", 0, ""
    return found.group(1), src.count("\n", start, end + 2 + blanks), ""


def _split(href: str) -> tuple[str, str]:
    """The path (before any ``?`` and ``#``) and the fragment of a destination as markdown-it
    holds it (percent-encoded), each decoded once split: decoded first, ``q%3F.md`` was the
    path ``q`` and a query, ``c%23sharp.md`` the path ``c`` and an anchor."""
    rest, _, fragment = href.partition("#")
    return unquote(rest.partition("?")[0]), unquote(fragment)


def bare_urls(text: str, line: int) -> list[Link]:
    """Bare ``http(s)://`` and ``www.`` URLs in one text token (GFM extended autolinks)."""
    links: list[Link] = []
    for match in _BARE_URL.finditer(text):
        url = match.group(0)
        while url:
            if url[-1] in _URL_TRAILING or (url[-1] == ")" and url.count(")") > url.count("(")):
                url = url[:-1]
            else:
                break
        if url.endswith("://") or not ("://" in url or _WWW_DOMAIN.match(url)):
            continue  # "without the www. prefix": what trimming left ("www") is no URL
        target = "http://" + url if url.lower().startswith("www.") else url
        path, _, fragment = target.partition("#")
        links.append(Link(target, line, url, False, url, 0, path.partition("?")[0], fragment))
    return links


def inline_links(inline: BlockToken, first_line: int) -> list[Link]:
    """Links and images in one inline token whose source starts on ``first_line``.

    Each link's line is ``first_line`` plus the line breaks before its start: soft and hard
    breaks, and the newlines hidden inside earlier tokens (code spans, raw HTML, image alt
    text, link destinations and titles), which :func:`counting_newlines` recorded.
    """
    children = inline.children or []
    links: list[Link] = []
    line = first_line
    # (target, line, link_open's index, its DESTINATION)
    open_link: tuple[str, int, int, tuple[str, int, str]] | None = None
    for index, token in enumerate(children):
        kind = token.type
        if kind in ("softbreak", "hardbreak"):
            line += 1
            continue
        if kind == "link_open":
            href = str(token.attrs.get("href", ""))
            open_link = (href, line, index, token.meta.get(DESTINATION, ("", 0, "")))
        elif kind == "link_close" and open_link is not None:
            href, link_line, start, (written, lines, source) = open_link
            text = plain_text(children[start + 1 : index]).strip()
            target, path = unquote(href), _split(href)
            links.append(Link(target, link_line, text, False, written, lines, *path, source))
            open_link = None
        elif kind == "image":
            src = str(token.attrs.get("src", ""))
            alt = plain_text(token.children or ()).strip()
            written, lines, source = token.meta.get(DESTINATION, ("", 0, ""))
            links.append(Link(unquote(src), line, alt, True, written, lines, *_split(src), source))
        elif kind == "text" and open_link is None:
            links.extend(bare_urls(token.content, line))
        if token.meta:
            line += token.meta.get(NEWLINES, 0)
    return links
