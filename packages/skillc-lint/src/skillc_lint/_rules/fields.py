"""What the rules share: frontmatter lookups, type names and the semver pattern."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeAlias

from skillc_index import SKILL_FILE, CodeBlock, split_lines, type_name
from skillc_index.dialect import text_length
from skillc_index.files import is_utf8
from skillc_index.text import TEXT_NOT_UTF8, any_of
from skillc_lint._registry import Finding
from skillc_lint._skill import Skill

__all__ = [
    "SEMVER",
    "Findings",
    "Options",
    "Words",
    "any_of",
    "code_blocks",
    "encoding_of",
    "field_line",
    "frontmatter",
    "frontmatter_name",
    "holds_line_of",
    "in_code",
    "line_ends",
    "line_of",
    "lines_holding",
    "lowered_text",
    "placeholder",
    "position_of",
    "scalar_texts",
    "text_files",
    "type_name",
    "white_space_note",
]

Options = Mapping[str, Any]
Findings = Iterator[Finding]

#: Semantic Versioning 2.0.0: MAJOR.MINOR.PATCH, optional -pre-release and +build.
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?\Z"
)


def frontmatter(skill: Skill) -> dict[str, Any]:
    """SKILL.md's frontmatter, or ``{}`` when it is missing or invalid (SKL100 reports it)."""
    return skill.frontmatter or {}


def frontmatter_name(skill: Skill) -> str | None:
    """The frontmatter ``name`` when it is a non-empty string, else None."""
    data = skill.frontmatter
    value = data.get("name") if data else None
    return value if isinstance(value, str) and value else None


def field_line(skill: Skill, key: str, inner: str | None = None) -> int:
    """Line of a top-level frontmatter key, or 1 when it is absent; with ``inner``, of that
    key in the mapping under it (``metadata``'s ``version``), else (a key a merge brings in)
    of ``key``: from the block's one reading (``Frontmatter.field_lines``)."""
    lines = skill.skill_md.frontmatter.field_lines
    line = lines.get(key, 1)
    return line if inner is None else lines.get((key, inner), line)


def scalar_texts(skill: Skill) -> dict[tuple[str, ...], str]:
    """The source's own text of SKILL.md's booleans and numbers, at the top level and in a
    mapping under it (``1.10``, not 1.1: :func:`~skillc_index.markdown.yaml12.scalar_texts`,
    which reads the block again when there is one), read once a skill for the rules that
    quote them (SKL502, SKL931)."""
    found = skill.shared.get(("scalar texts", SKILL_FILE))
    if found is None:
        from skillc_index.markdown.yaml12 import scalar_texts as read

        found = skill.shared["scalar texts", SKILL_FILE] = read(skill.skill_md.frontmatter)
    return found


def white_space_note(value: str, limit: int) -> str:
    """What a length finding adds when ``value`` is over ``limit`` only for the white space
    around it, which the limits count (:func:`~skillc_index.dialect.text_length`): a YAML
    block's final line break, mostly; empty otherwise."""
    if text_length(value.strip()) > limit:
        return ""
    return "; the white space around it counts (`|-` drops a block's final line break)"


#: Words example text writes where a real name goes (a link's ``url``, a runner's
#: ``package-name``): the names of nothing.
_PLACEHOLDER_WORDS = frozenset(("url", "link", "path", "uri", "href", "src", "package-name"))


def placeholder(word: str) -> bool:
    """Whether ``word`` stands in for a real name in example text: a bare placeholder word
    (``url``, ``link``, ``path``, ``package-name``; any case), ``...``, a word written
    ``<...>``, or ``your-...`` (no file name: ``your-guide.md`` may be a file). SKL522 (a
    package) and SKL523 (a user name) leave such words alone; a link target is narrower
    (:func:`link_placeholder`)."""
    lowered = word.lower()
    return (
        "<" in word
        or "..." in word
        or "\u2026" in word
        or lowered in _PLACEHOLDER_WORDS
        or (lowered.startswith("your") and "." not in word)
    )


#: The link targets example text writes (``[links](url)``, ``![images](URL)``,
#: ``[click here](link)``, ``(path)``, ``(...)``, ``(<...>)``): exactly these, as a missing
#: ``(your-notes)`` or ``(Path)`` may be a real folder's link, broken.
_LINK_PLACEHOLDERS = frozenset(("url", "URL", "link", "path", "...", "\u2026", "<...>"))


def link_placeholder(target: str) -> bool:
    """Whether the link target ``target`` (as written) is a bare placeholder of example text,
    no link (SKL301): only the words of :data:`_LINK_PLACEHOLDERS`, a file or folder named
    otherwise is a link, its absence an error."""
    return target in _LINK_PLACEHOLDERS


def code_blocks(skill: Skill, rel: str = SKILL_FILE) -> tuple[CodeBlock, ...]:
    """The code blocks of the Markdown file ``rel`` of ``skill`` (SKILL.md by default), fenced
    or indented, in a list item or a block quote too: from the file's one parse
    (:attr:`~skillc_index.MarkdownDoc.code_blocks`), as a reader's Markdown sees them."""
    return skill.docs[rel].code_blocks


def lowered_text(skill: Skill, rel: str, text: str) -> str:
    """The lowercase of the file ``rel`` of ``skill`` (its ``text``), made once for the
    rules that look for words in it (SKL903, SKL905)."""
    key = ("lowered", rel)
    found = skill.shared.get(key)
    if found is None:
        found = skill.shared[key] = text.lower()
    return found


def line_ends(skill: Skill, rel: str, text: str) -> list[int]:
    """Where each line of ``text``, the text of the file ``rel`` of ``skill``, ends (its line
    break included; lines as :func:`~skillc_index.split_lines`, the parse and the code
    frames number them): listed once per file, for :func:`line_of`; a Markdown file's from
    its lines split once (:meth:`~skillc_lint._skill.Skill.lines`: ``text`` may be a copy of
    the same line lengths)."""
    key = ("line ends", rel)
    ends = skill.shared.get(key)
    if ends is None:
        lines = skill.lines(rel) if rel in skill.texts else split_lines(text)
        ends = skill.shared[key] = _ends(lines)
    return ends


def _ends(lines: Sequence[str]) -> list[int]:
    """Where each of ``lines`` (each with its line break) ends in their text."""
    return list(itertools.accumulate(map(len, lines)))


def line_of(skill: Skill, rel: str, text: str, offset: int) -> int:
    """The line (from 1) holding ``offset`` of ``text``, the text of the file ``rel`` of
    ``skill``, found among :func:`line_ends`: a rule reporting each of many matches does
    work linear in the text, not in its length times its matches."""
    return bisect.bisect_right(line_ends(skill, rel, text), offset) + 1


def position_of(skill: Skill, rel: str, text: str, offset: int) -> tuple[int, int]:
    """The line and column (both from 1, the column in characters) of ``offset`` of
    ``text``, as :func:`line_of` finds the line: where a finding's caret points."""
    line = line_of(skill, rel, text, offset)
    start = line_ends(skill, rel, text)[line - 2] if line > 1 else 0
    return line, offset - start + 1


#: What :func:`lines_holding` looks for: words, or patterns of :func:`any_of`.
Words: TypeAlias = Sequence[str | re.Pattern[str]]


def _find(searched: str, word: str | re.Pattern[str], start: int) -> int:
    """Where ``word`` (a word, or a pattern of :func:`any_of`) is first found in
    ``searched`` from ``start``; -1 when it is not."""
    if isinstance(word, str):
        return searched.find(word, start)
    found = word.search(searched, start)
    return found.start() if found else -1


def lines_holding(
    text: str,
    words: Words,
    *,
    searched: str | None = None,
    lines: Sequence[str] | None = None,
) -> list[tuple[int, str]]:
    """The lines of ``text`` (ended by ``\n``, ``\r\n`` or ``\r``: numbered from 1 as the
    parse and ``show`` number them, in order) holding one of
    ``words`` (a pattern of :func:`any_of` stands for its words, which may run over a line
    break with its ``space`` ``\\s+``: the line where one starts holds it); with
    ``searched`` (the text's lowercase), the lines whose lowercase holds one.
    Each word is looked for in the whole text (``str.find``, much faster than a test of
    every line), its line found around it. Lowercasing a text lowercases each line apart
    (no line break is the lowercase of a character), so the lines are those of a test of
    each line. ``lines``: the lines of ``text`` when split already (a Markdown file's
    :meth:`~skillc_lint._skill.Skill.lines`), not split again."""
    searched = text if searched is None else searched
    if len(searched) != len(text) or "\r" in searched:
        return _lines_holding_split(text, words, searched, lines)
    # the lines are between the "\n"s, at the same offsets in the text and its lowercase
    # (of the same length, each character lowercased to one)
    ends: dict[int, int] = {}  # where each line holding a word starts: where it ends
    for word in words:
        at = _find(searched, word, 0)
        while at >= 0:
            start = searched.rfind("\n", 0, at) + 1
            end = searched.find("\n", at)
            end = ends[start] = end if end >= 0 else len(searched)
            at = _find(searched, word, end)  # the next line holding the word
    found: list[tuple[int, str]] = []
    number, counted = 1, 0
    for start in sorted(ends):
        number += searched.count("\n", counted, start)
        counted = start
        found.append((number, text[start : ends[start]]))
    return found


def holds_line_of(text: str, width: int) -> bool:
    """Whether a line of ``text`` (ended by ``\n``, ``\r\n`` or ``\r``, as
    :func:`~skillc_index.split_lines` and the parse end them; its break not counted) is
    ``width`` characters long or longer: found by looking for the last line break of each
    ``width`` characters from a line's start (none: a line that long), without splitting
    the text."""
    if len(text) < width:
        return False
    if "\r" in text:
        return max(len(line.rstrip("\r\n")) for line in split_lines(text)) >= width
    start = 0
    while start + width <= len(text):
        last = text.rfind("\n", start, start + width)
        if last < 0:
            return True
        start = last + 1  # the lines starting before it end before it: shorter
    return False


def _lines_holding_split(
    text: str, words: Words, searched: str, lines: Sequence[str] | None
) -> list[tuple[int, str]]:
    """:func:`lines_holding` of a text with other line breaks than ``\n`` (``\r\n``,
    ``\r``) or whose lowercase is longer: each hit's line found among the lines' ends."""
    pieces: Sequence[str] = []
    ends: list[int] = []
    numbers: set[int] = set()
    for word in words:
        at = _find(searched, word, 0)
        if at < 0:
            continue
        if not ends:  # where each line ends (its line break included)
            pieces = lines if searched is text and lines is not None else split_lines(searched)
            ends = _ends(pieces)
        while at >= 0:
            index = bisect.bisect_right(ends, at)
            numbers.add(index + 1)
            at = _find(searched, word, ends[index])  # the next line holding the word
    if not numbers:
        return []
    if searched is text:
        return [(n, pieces[n - 1].rstrip("\r\n")) for n in sorted(numbers)]
    own = [line.rstrip("\r\n") for line in (split_lines(text) if lines is None else lines)]
    if len(own) != len(ends):  # cannot happen (see above); a test of each line if it did
        return [
            (n, line)
            for n, line in enumerate(own, 1)
            if any(_find(line.lower(), w, 0) >= 0 for w in words)
        ]
    return [(n, own[n - 1]) for n in sorted(numbers)]


def in_code(blocks: Sequence[CodeBlock], number: int) -> bool:
    """Whether line ``number`` is inside one of the code ``blocks`` (:func:`code_blocks`)."""
    at = bisect.bisect_right(blocks, number, key=_first_line) - 1
    return at >= 0 and blocks[at].last >= number


def _first_line(block: CodeBlock) -> int:
    return block.line


def markdown_texts(skill: Skill) -> Iterator[tuple[str, str]]:
    """Every Markdown file of the skill with its text (what the agent reads as prose)."""
    for rel in skill.docs:
        text = skill.text(rel)
        if text is not None:
            yield rel, text


def text_files(skill: Skill) -> Iterator[tuple[str, str]]:
    """Every text file of the skill with its text (binary ones skipped)."""
    for rel in skill.files:
        text = skill.text(rel)
        if text is not None:
            yield rel, text


def encoding_of(skill: Skill, rel: str) -> str | None:
    """What is wrong with the bytes of the Markdown file ``rel`` for a reader of UTF-8 (an
    agent), said after its name (``is UTF-16 (BOM FF FE): save it as UTF-8``); None for UTF-8
    (:func:`~skillc_index.files.encoding_problem`). A text holding a lone surrogate (an
    editor's unsaved text, the bytes UTF-8 cannot read kept as ``surrogateescape`` does) is
    not UTF-8, as its file holding those bytes would be; the disk is asked only when its text
    holds U+FFFD, which the bytes UTF-8 cannot read became, or its first bytes are a BOM of
    UTF-16 or UTF-32 (whose text skillc reads, :func:`~skillc_index.files.decoded`)."""
    text = skill.texts.get(rel)
    if text and not is_utf8(text):
        return f"{TEXT_NOT_UTF8}: save it as UTF-8"
    if not text or ("\ufffd" not in text and skill.bom(rel) in (None, "UTF-8")):
        return None
    problem = skill.encoding_problem(rel)
    return f"{problem}: save it as UTF-8" if problem else None
