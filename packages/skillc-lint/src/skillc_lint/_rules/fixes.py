"""The fixes the rules attach to their findings (``--fix``, ``--unsafe-fixes``).

Each function returns a :class:`~skillc_lint._fixes.Fix` or None when no fix is certain.
Every frontmatter fix is checked before it is offered: the edited text is parsed again with
the frontmatter parser the rules read, and the fix is given only when it gives the data it
promises (a lower-cased name must not turn into a boolean or a number, a quoted value must
read back as the text it held).

Safe fixes keep what the author wrote: quoting a value YAML cannot read, lower-casing a name
whose only fault is case, trailing whitespace the frontmatter's data does not hold, the
closing ``---`` of a frontmatter, a link's case where the file exists in another case.
Unsafe fixes change meaning: renaming a skill (to its folder's name, or to a valid form of
an invalid name); trailing whitespace that the data holds (inside a block scalar).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from skillc_index import SKILL_FILE, parse_frontmatter
from skillc_index.markdown.frontmatter import TOO_LARGE, too_large
from skillc_index.text import normalize_newlines
from skillc_lint._destinations import code_spans
from skillc_lint._fixes import Fix, TextEdit, line_break
from skillc_lint._skill import LinkRef, Skill

__all__ = [
    "close_frontmatter",
    "link_case",
    "quote_values",
    "rename",
    "strip_trailing_whitespace",
]

# ``key: value`` at column 0, the value a plain scalar on one line (groups: key, value).
# Neither regex crosses NEL, U+2028 or U+2029: YAML ends a line there, skillc's lines do not.
_PLAIN_FIELD = re.compile(
    r"([A-Za-z_][A-Za-z0-9_-]*):[ \t]+([^ \t\"'\[\]{}|>&*!%@`#\x85\u2028\u2029]"
    r"[^\x85\u2028\u2029]*?)[ \t]*"
)
# A top-level key line whose value may be a plain or simply quoted scalar (groups: the part
# before the value, the value, a comment after it).
_VALUE = re.compile(
    r"""([A-Za-z_][A-Za-z0-9_-]*:[ \t]*)("[^"\\\x85\u2028\u2029]*"|'[^'\x85\u2028\u2029]*'"""
    r"""|[^\s#'"][^#\x85\u2028\u2029]*?)([ \t]*(?:#[^\x85\u2028\u2029]*)?)"""
)
_TRAILING = re.compile(r"[ \t]+\Z")
_NAME_INVALID = re.compile(r"[^a-z0-9]+")


def _content(line: str) -> str:
    """A line without its line break."""
    return line.rstrip("\r\n")


def _parsed(text: str, edits: tuple[TextEdit, ...]) -> dict[str, Any] | None:
    """The frontmatter data of ``text`` once ``edits`` are applied (None: invalid)."""
    from skillc_lint._fixes import apply_edits

    new = apply_edits(text, edits)
    return None if new is None else parse_frontmatter(new).data


def name_from(value: str) -> str:
    """A valid name made of ``value``: lower case, its letters without their accents
    (``café`` -> ``cafe``, ``größe`` -> ``grosse``: decomposed, NFKD, the marks dropped;
    ``ß`` as ``ss``), each run of other characters one hyphen, at most 64 characters (``""``
    when nothing is left: ``日本語``)."""
    value = value.lower()
    if not value.isascii():
        import unicodedata

        decomposed = unicodedata.normalize("NFKD", value.translate(_SPELLED))
        value = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return _NAME_INVALID.sub("-", value).strip("-")[:64].rstrip("-")


#: The Latin letters NFKD leaves whole, as they are spelled in ASCII.
_SPELLED = str.maketrans(
    {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"}
)


def rename(skill: Skill, new: str, description: str, *, safe: bool) -> Fix | None:
    """Set the frontmatter ``name`` to ``new``, written as the old value was (plain or
    quoted); None when the line is not a simple ``name: value`` or the result would not read
    back as the same data with ``name`` set to ``new`` (every other field unchanged)."""
    line = skill.skill_md.frontmatter.field_lines.get("name")
    text = skill.skill_md_text
    lines = skill.lines(SKILL_FILE)
    if line is None or line > len(lines):
        return None
    match = _VALUE.fullmatch(_content(lines[line - 1]))
    if match is None or not match.group(1).startswith("name:"):
        return None
    written = match.group(2)
    quote = written[0] if written[0] in "\"'" else ""
    column = len(match.group(1)) + 1
    before = skill.skill_md.frontmatter.data
    if before is None:
        return None
    for form in (f"{quote}{new}{quote}", f'"{new}"'):
        edits = (TextEdit(line, column, line, column + len(written), form),)
        if _parsed(text, edits) == {**before, "name": new}:  # nothing else changed
            return Fix(description, edits, safe)
    return None


def _quote_edits(lines: list[str], end: int) -> tuple[list[TextEdit], dict[str, str]]:
    """Edits double-quoting the one-line plain values of the frontmatter (lines 2 to
    ``end - 1``) that YAML cannot read, and the text each value must read back as."""
    import json

    from skillc_index.markdown.frontmatter import YAMLProblem, load_bounded_yaml

    edits: list[TextEdit] = []
    wanted: dict[str, str] = {}
    for index in range(1, end - 1):
        match = _PLAIN_FIELD.fullmatch(_content(lines[index]))
        if match is None:
            continue
        following = _content(lines[index + 1]) if index + 1 < end - 1 else ""
        if following[:1] in (" ", "\t") and following.strip():
            continue  # a value continued on the next lines: not a one-line value
        key, value = match.groups()
        try:
            load_bounded_yaml(f"{key}: {value}")
            continue  # YAML reads this line; the problem is elsewhere
        except YAMLProblem:
            pass  # e.g. an impossible date (2024-02-30), which quoting makes text
        column = match.start(2) + 1
        quoted = json.dumps(value, ensure_ascii=False)  # JSON strings are YAML strings
        edits.append(TextEdit(index + 1, column, index + 1, column + len(value), quoted))
        wanted[key] = value
    return edits, wanted


def _reads_as(text: str, edits: tuple[TextEdit, ...], wanted: dict[str, str]) -> bool:
    """Whether the frontmatter of ``text`` with ``edits`` is a mapping holding ``wanted``."""
    data = _parsed(text, edits)
    return data is not None and bool(data) and all(data.get(k) == v for k, v in wanted.items())


def quote_values(skill: Skill) -> Fix | None:
    """SKL100: double-quote the one-line plain values YAML cannot read (``description: Use
    when: ...``), when the frontmatter then reads and each quoted value holds its text."""
    if skill.skill_md.frontmatter.error == TOO_LARGE:
        return None  # no fix could read back: none is looked for (a 5 MB block took 90 s)
    lines, end = skill.lines(SKILL_FILE), skill.skill_md.frontmatter.end_line
    edits, wanted = _quote_edits(lines, end)
    if not edits or not _reads_as(skill.skill_md_text, tuple(edits), wanted):
        return None
    return Fix(f"quote the value of {', '.join(wanted)}", tuple(edits))


# A line that may belong to a YAML mapping: a key, an indented line, a list item, blank.
_YAML_LINE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*:(?:[ \t].*)?|[ \t].*|-(?:[ \t].*)?|")


def close_frontmatter(skill: Skill) -> Fix | None:
    """SKL100 "no closing ---": insert it after the lines that read as YAML (keys, indented
    lines, list items), before the first line that does not (the body's ``# Title``), when
    the frontmatter then reads as a mapping with at least one key (quoting, in the same fix,
    the values YAML cannot read, as :func:`quote_values` does)."""
    text = skill.skill_md_text
    lines = skill.lines(SKILL_FILE)
    last = 0  # 0-based index of the last line of the YAML block
    for index in range(1, len(lines)):
        content = _content(lines[index])
        if not _YAML_LINE.fullmatch(content):
            break
        if content.strip():
            last = index
    if last == 0:
        return None
    eol = line_break(lines)
    if lines[last].endswith(("\n", "\r")):
        edit = TextEdit(last + 2, 1, last + 2, 1, f"---{eol}")
    else:  # the file ends on the block's last line
        column = len(lines[last]) + 1
        edit = TextEdit(last + 1, column, last + 1, column, f"{eol}---{eol}")
    description = f"close the frontmatter with --- after line {last + 1}"
    if too_large(normalize_newlines("".join(lines[1 : last + 1]))):
        return None  # the block as the reader would count it: no fix of it could read back
    if _reads_as(text, (edit,), {}):
        return Fix(description, (edit,))
    quotes, wanted = _quote_edits(lines, last + 2)
    edits = (*quotes, edit)
    if quotes and _reads_as(text, edits, wanted):
        return Fix(f"{description}, and quote the value of {', '.join(wanted)}", edits)
    return None


def strip_trailing_whitespace(skill: Skill, end_line: int) -> tuple[list[int], Fix | None]:
    """SKL510: the frontmatter lines (1 to ``end_line``, the fences included) ending in
    spaces or tabs, and the fix removing them: safe when the frontmatter's data stays the same
    (plain values drop trailing blanks anyway), unsafe when it changes (a block scalar keeps
    them)."""
    text = skill.skill_md_text
    lines = skill.lines(SKILL_FILE)
    found: list[int] = []
    edits: list[TextEdit] = []
    for index in range(min(end_line, len(lines))):
        content = _content(lines[index])
        match = _TRAILING.search(content)
        if match:
            found.append(index + 1)
            edits.append(TextEdit(index + 1, match.start() + 1, index + 1, len(content) + 1, ""))
    if not edits:
        return found, None
    before = skill.skill_md.frontmatter
    after = _parsed(text, tuple(edits))
    safe = after == before.data
    description = "remove trailing whitespace" + (
        "" if safe else " (the frontmatter's data changes)"
    )
    return found, Fix(description, tuple(edits), safe)


def link_case(skill: Skill, link: LinkRef) -> Fix | None:
    """SKL301: a link whose target exists only in another case (``References/API.md`` for
    ``references/api.md``): rewrite the path as the file is named, in every link on the line
    written the same way, never in a code span of the line. None when several files match,
    the target cannot be found as written on the line (percent-encoded, split over lines),
    or the line's backticks do not pair (a code span over lines)."""
    candidates = skill.by_lower_case.get(link.path.lower(), [])
    if len(candidates) != 1:
        return None
    real = candidates[0].split("/")
    written = link.target.partition("#")[0].partition("?")[0]
    folder = link.source.rpartition("/")[0]
    depth = len([part for part in folder.split("/") if part])
    parts = []
    for part in written.split("/"):
        if part == "..":
            depth -= 1
        elif part not in ("", "."):
            if 0 <= depth < len(real) and part.lower() == real[depth].lower():
                part = real[depth]
            depth += 1
        parts.append(part)
    fixed = "/".join(parts)
    if fixed == written:
        return None
    if posixpath.normpath(posixpath.join(folder, fixed)) != candidates[0]:
        return None
    lines = skill.lines(link.source)
    if link.line > len(lines):
        return None
    content = _content(lines[link.line - 1])
    spans = code_spans(content)
    if spans is None:
        return None  # backticks that do not pair on the line: what is code is unknown
    destination = re.compile(r"\]\(\s*<?(" + re.escape(written) + r")(?=[)\s#?>]|$)")
    edits = tuple(
        TextEdit(link.line, m.start(1) + 1, link.line, m.end(1) + 1, fixed)
        for m in destination.finditer(content)
        if not any(start < m.start() < end for start, end in spans)  # a code span's text
    )
    if not edits:
        return None
    return Fix(f"write the link as '{fixed}' (the file's name)", edits)
