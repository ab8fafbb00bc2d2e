"""The compiled stub: the SKILL.md agents see in the runtime (RFC-0001:C-STUB, C-SECTIONS,
C-CONSTRAINTS, DECISIONS "Stub").

It holds the source's ``name`` and ``description``, tells agents to go through the gateway
(MCP tools first, the ``skc`` CLI as fallback) and lists the skill's top sections. It never
holds source content beyond headings, file listings, or any filesystem path.

Limits: the SKILL.md group lists H1 and H2 headings only, at most 15 entries and at most 12
H1s (RFC-0001:C-CONSTRAINTS "at most 12 top-level headings"); the References group at most
15 files; each cut is shown as ``... (N more)``. With those limits the stub stays far below
100 lines whatever the skill holds, and :func:`render_stub` checks it anyway.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "MAX_DESCRIPTION",
    "MAX_ENTRIES",
    "MAX_LINES",
    "MAX_TOP_LEVEL",
    "REFERENCES_LABEL",
    "STUB_FORMAT",
    "Reference",
    "render_stub",
]

MAX_LINES = 100
MAX_ENTRIES = 15
MAX_TOP_LEVEL = 12
MAX_DESCRIPTION = 120
REFERENCES_LABEL = "References (query by title only)"
#: Bumped whenever the stub's text changes, so unchanged skills get the new stub on rebuild.
STUB_FORMAT = 1

# Anything str.splitlines() splits on, and other control characters: a stub line is one line.
_LINE_BREAKING = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass(frozen=True)
class Reference:
    """One non-SKILL.md Markdown file as the References group lists it."""

    path: str
    """Relative path in the skill."""
    title: str | None
    """Its first H1, if any."""
    description: str | None
    """Its frontmatter ``description``, if any."""


def _one_line(text: str) -> str:
    return " ".join(_LINE_BREAKING.sub(" ", text).split())


def _truncate(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """At most ``limit`` characters; a cut text ends with ``…`` (counted in the limit)."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def _yaml_string(value: str) -> str:
    """A YAML double-quoted scalar on one line: any text (quotes, colons, newlines, ``#``,
    non-printable characters) round-trips exactly through a YAML loader."""
    import yaml

    dumped: str = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=math.inf)
    return dumped.rstrip("\n")


def _shell_word(text: str) -> str:
    """``text`` as one shell word that pastes as printed: ``shlex.quote`` when it is
    printable, else bash's ``$'...'`` with escapes, so a line break never splits the line
    (and a backquote never ends the Markdown code span around the command)."""
    if text.isprintable() and "`" not in text:
        import shlex

        return shlex.quote(text)
    escaped = []
    for char in text:
        if char in "\\'":
            escaped.append("\\" + char)
        elif char.isprintable() and char != "`":
            escaped.append(char)
        elif ord(char) < 0x100:
            escaped.append(f"\\x{ord(char):02x}")
        elif ord(char) < 0x10000:
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(f"\\U{ord(char):08x}")
    return "$'" + "".join(escaped) + "'"


def _commands(skill: str) -> list[str]:
    """The command lines of the stub; a name starting with ``-`` comes after ``--`` (and
    after the options), so that it is never read as an option."""
    arg = _shell_word(skill)
    if skill.startswith("-"):
        return [
            f"- `skc outline -- {arg}`: list every section",
            f'- `skc show --section "<heading>" -- {arg}`: read one section',
            f'- `skc search -- {arg} "<query>"`: full-text search',
            f"- `skc open -- {arg} <path>`: read one file",
            f"- `skc sources -- {arg}`: list the files",
        ]
    return [
        f"- `skc outline {arg}`: list every section",
        f'- `skc show {arg} --section "<heading>"`: read one section',
        f'- `skc search {arg} "<query>"`: full-text search',
        f"- `skc open {arg} <path>`: read one file",
        f"- `skc sources {arg}`: list the files",
    ]


def _skill_entries(headings: Sequence[tuple[int, str]]) -> list[str]:
    """RFC-0001:C-SECTIONS for SKILL.md: H1 at indent 0, H2 at indent 1 under the preceding
    H1 (at indent 0 when no H1 precedes it), at most 15 entries and 12 H1s."""
    entries = [(level, _one_line(text)) for level, text in headings if level <= 2]
    entries = [(level, text) for level, text in entries if text]
    lines: list[str] = []
    seen_h1 = 0
    for level, text in entries:
        if len(lines) == MAX_ENTRIES or (level == 1 and seen_h1 == MAX_TOP_LEVEL):
            break
        if level == 1:
            seen_h1 += 1
        indent = "  " if level == 2 and seen_h1 else ""
        lines.append(f"{indent}- {text}")
    if len(lines) < len(entries):
        lines.append(f"- ... ({len(entries) - len(lines)} more)")
    return lines


def _reference_entries(references: Sequence[Reference]) -> list[str]:
    """RFC-0001:C-SECTIONS for the other Markdown files, in the order given (by path)."""
    if not references:
        return []
    lines = [f"- {REFERENCES_LABEL}"]
    for reference in references[:MAX_ENTRIES]:
        label = _one_line(reference.title or "") or _one_line(reference.path)
        description = _one_line(reference.description or "")
        if description:
            label = f"{label} — {_truncate(description)}"
        lines.append(f"  - {label}")
    if len(references) > MAX_ENTRIES:
        lines.append(f"  - ... ({len(references) - MAX_ENTRIES} more)")
    return lines


def render_stub(
    *,
    skill: str,
    name: str,
    description: str,
    headings: Sequence[tuple[int, str]],
    references: Sequence[Reference],
) -> str:
    """The stub's text.

    ``skill`` is what ``skc`` resolves (the source folder's name), used in the command
    examples; ``name`` and ``description`` are the source frontmatter's, kept exactly;
    ``headings`` are SKILL.md's ``(level, text)`` in file order; ``references`` the other
    ``.md`` files by path.
    """
    lines = [
        "---",
        f"name: {_yaml_string(name)}",
        f"description: {_yaml_string(description)}",
        "---",
        "",
        f"# {_one_line(name) or _one_line(skill)}",
        "",
        "This skill is served by skillc. Do not read its source files directly: retrieve the",
        "content you need, section by section, through the skillc gateway commands below.",
        "",
        "If the skillc MCP server is available, prefer its tools (`skc_outline`, `skc_show`,",
        "`skc_search`, `skc_open`, `skc_sources`) for better performance and structured output.",
        "Otherwise, use the `skc` command line:",
        "",
        *_commands(skill),
        "",
        "## Top Sections",
        "",
    ]
    sections = _skill_entries(headings) + _reference_entries(references)
    lines += sections or ["- (no sections)"]
    if len(lines) > MAX_LINES:  # cannot happen with the limits above; never exceed it anyway
        lines = [*lines[: MAX_LINES - 1], "- ... (truncated)"]
    return "\n".join(lines) + "\n"
