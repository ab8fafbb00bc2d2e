"""The compiled stub: the SKILL.md agents see in the runtime (RFC-0001:C-STUB, C-SECTIONS,
C-CONSTRAINTS, DECISIONS "Stub").

Its frontmatter is the source's, every field kept in the source's order (``allowed-tools``,
``disable-model-invocation``, ``context``, ``hooks``, ``metadata``...), re-serialised as
YAML that loads back to the same data: an agent loads the stub exactly as it would load the
source. Only the body is replaced: it tells agents to go through the gateway (MCP tools first,
the ``skc`` CLI as fallback), lists the skill's top sections and, when the skill has files
other than Markdown (scripts, assets), says that they run from the skill's folder with
``skc exec``. The body never holds source content beyond headings, file listings, or any
filesystem path.

Limits: the SKILL.md group lists H1 and H2 headings only, at most 15 entries and at most 12
H1s (RFC-0001:C-CONSTRAINTS "at most 12 top-level headings"); the References group at most
15 files; each cut is shown as ``... (N more)``. With those limits the body stays far below
100 lines whatever the skill holds, and :func:`render_stub` checks it anyway. The
frontmatter is the source's own and is never cut (a cut field would change what the skill
does): its size is the source's (at most 64 KiB, the frontmatter reader's bound).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from skillc_index.index.schema import IndexedHeading
from skillc_index.layout import SKILL_FILE
from skillc_index.text import one_line, printable, shell_word, stub_label

if TYPE_CHECKING:
    from skillc_index.index.queries import HeadingMatcher

__all__ = [
    "MAX_DESCRIPTION",
    "MAX_ENTRIES",
    "MAX_LINES",
    "MAX_TOP_LEVEL",
    "REFERENCES_LABEL",
    "SCRIPTS_LINE",
    "STUB_FORMAT",
    "Reference",
    "render_stub",
    "with_frontmatter",
]

MAX_LINES = 100
MAX_ENTRIES = 15
MAX_TOP_LEVEL = 12
MAX_DESCRIPTION = 120
REFERENCES_LABEL = "References (query by title only)"
#: Bumped whenever the stub's text changes, so unchanged skills get the new stub on rebuild.
#: 2: the whole source frontmatter, and the ``skc exec`` line. 3: that frontmatter as YAML 1.2
#: reads it (``no`` a string, ``012`` twelve). 4: at most 12 top-level headings, the H2s
#: before any H1 counted (54 of the 11,593 public SKILL.md files we hold listed up to 15).
#: 5: the commands quote ``'<heading>'`` (single quotes: a pasted heading is never expanded),
#: and an entry the template would not read exactly gives its own command. 6: a heading whose
#: text an earlier one has (``Examples`` under two H1s) gives its ``--nth``. 7: each command is
#: computed by ``show``'s own matching (``## Part 2  APIs`` beside ``## Part 2 APIs`` is read by
#: its text as written; a label that reaches its heading alone needs no command). 8: the
#: ``skc exec`` line says a file of the user's is given by its absolute path (``exec`` runs in
#: the skill's folder: a relative output was written into the skill's source). 9: and that a
#: ``${CLAUDE_SKILL_DIR}``/``$SKILL_DIR`` word is single-quoted (a shell expanded it to nothing).
#: 10: emoji and other characters past U+FFFF written as they are in the frontmatter (not
#: ``\\U0001F680``), a joiner no reason to quote; descriptions cut where no grapheme splits;
#: a heading holding an emoji sequence quoted as ``sh`` reads it (not bash's ``$'...'``).
#: 11: a bidirectional control or a character that shows as nothing escaped in the
#: frontmatter (``\\u202e``, not the character inside double quotes). 12: a label starting
#: with a block marker (``# Config keys``, ``> Note``, ``1. Steps``) escaped, with its command.
#: 13: ``show`` prefers the heading as written (``## Maße`` beside ``## Masse``, ``⚠️`` beside
#: ``⚠``; ``Résumé`` beside ``Resume``): an older stub's ``--nth 2`` for one is E020 now; a
#: right-to-left mark of a heading listed as it is. 14: a reference's description escaped, then
#: cut to 120 with each escape whole (``\\u20…`` was half an escape); a zero-width space between two
#: Thai, Chinese or Japanese letters, a CJK ideograph's variation selector listed as they are.
STUB_FORMAT = 14

# A line width no scalar reaches: PyYAML never folds a long string over lines (the C emitter
# takes an int, not math.inf).
_NO_WRAP = 2**31 - 1
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


def _yaml_string(value: str) -> str:
    """A YAML double-quoted scalar on one line: any text (quotes, colons, newlines, ``#``,
    non-printable characters) round-trips exactly through a YAML loader (the router's
    description)."""
    import yaml

    dumped: str = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=_NO_WRAP)
    return dumped.rstrip("\n")


def _represent_str(dumper: Any, value: str) -> Any:
    """A string with a line break or another control character (one that text output
    escapes, :func:`~skillc_index.text.printable`: a bidirectional control, a zero-width
    space) is double-quoted, on one line with escapes; one that a YAML 1.2 reader would take
    for a number, a boolean or null when plain (``0o17``) is single-quoted; any other string
    is left to PyYAML (plain, or quoted when YAML 1.1 would read it otherwise: ``'no'``), a
    joiner in an emoji sequence (👩‍💻) included."""
    from skillc_index.markdown.yaml12 import CORE_NOT_STRING

    style = '"' if _LINE_BREAKING.search(value) or printable(value) != value else None
    if style is None and CORE_NOT_STRING.fullmatch(value):
        style = "'"
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


@functools.cache
def _dumper(astral: bool = False) -> type:
    """PyYAML's safe dumper (the C one when built; the Python one for a text holding a
    character past U+FFFF, an emoji or a CJK extension B character, which libyaml writes as a
    ``\\U0001F680`` escape), with :func:`_represent_str` and without anchors: a value the
    source shared through an alias is written out again."""
    import yaml

    base = yaml.SafeDumper if astral else getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class StubDumper(base):  # type: ignore[misc,valid-type]
        def ignore_aliases(self, data: object) -> bool:
            return True

    StubDumper.add_representer(str, _represent_str)
    return StubDumper


def _frontmatter_yaml(frontmatter: Mapping[str, Any]) -> str:
    """The frontmatter as block YAML, keys in the given order, without the ``---`` lines.

    What PyYAML writes loads back to the same data, and it cannot end the block early: a top
    level key is a plain or quoted scalar on its line, every other line of a value is
    indented (or a ``- `` item), a string that reads as ``---``/``...`` is quoted, and a
    string with a line break is one double-quoted line. A bidirectional control or a
    character that shows as nothing, which PyYAML writes as it is inside double quotes, is
    written as its escape (:func:`~skillc_index.text.printable`, line by line: each such string
    is double-quoted, :func:`_represent_str`), so the stub reads as the data it holds."""
    import yaml

    data = dict(frontmatter)
    # libyaml escapes every character past U+FFFF; the Python emitter writes the printable
    # ones as they are (``repr`` shows those, and escapes the others, which both escape)
    astral = any(ord(char) > 0xFFFF for char in repr(data))
    dumped: str = yaml.dump(
        data,
        Dumper=_dumper(astral),
        sort_keys=False,
        allow_unicode=True,
        width=_NO_WRAP,
        default_flow_style=False,
    )
    return "\n".join(printable(line) for line in dumped.split("\n"))


#: What the show command line says of the entries listed with their own command.
_OWN_COMMAND = "read one section (or the command an entry gives)"


def _commands(skill: str) -> list[str]:
    """The command lines of the stub; a name starting with ``-`` comes after ``--`` (and
    after the options), so that it is never read as an option. ``'<heading>'`` in single
    quotes: a heading pasted in is never expanded by the shell (``$(...)``, backquotes,
    ``$VAR``, ``"``, ``\\``); a listed heading holding ``'`` gives its own command."""
    arg = shell_word(skill)
    if skill.startswith("-"):
        return [
            f"- `skc outline -- {arg}`: list every section",
            f"- `skc show --section '<heading>' -- {arg}`: {_OWN_COMMAND}",
            f"- `skc search -- {arg} '<query>'`: full-text search",
            f"- `skc open -- {arg} <path>`: read one file",
            f"- `skc sources -- {arg}`: list the files",
        ]
    return [
        f"- `skc outline {arg}`: list every section",
        f"- `skc show {arg} --section '<heading>'`: {_OWN_COMMAND}",
        f"- `skc search {arg} '<query>'`: full-text search",
        f"- `skc open {arg} <path>`: read one file",
        f"- `skc sources {arg}`: list the files",
    ]


def _command(skill: str, verb: str, *words: str, options: Sequence[tuple[str, str]] = ()) -> str:
    """``skc VERB SKILL [WORDS] [OPTIONS]``, every text one shell word (``shell_word``: it
    pastes as printed); the skill and words after ``--`` (after the options) when one of
    them starts with ``-``, so that none is read as an option."""
    option = "".join(f" {flag} {shell_word(value)}" for flag, value in options)
    positional = " ".join(shell_word(word) for word in (skill, *words))
    if any(word.startswith("-") for word in (skill, *words)):
        return f"skc {verb}{option} -- {positional}"
    return f"skc {verb} {positional}{option}"


#: Where a label starts a block inside its list item, as CommonMark reads it, not text: an ATX
#: heading, a quote, a list item (``-``, ``+``, ``*``, or digits then ``.``/``)``: only their
#: delimiter can be escaped), a thematic break, a fence, a link definition (which shows
#: nothing). Not HTML (``<Connector Name>``): raw either way, it is listed as written.
_BLOCK_START = re.compile(
    r"#{1,6}(?: |$)|>|[-+*](?: |$)|(?:[-*_] ?){3,}$|```|~~~|\[[^\]]*\]:|[0-9]{1,9}(?=[.)](?: |$))"
)


def _listed(label: str) -> str:
    """``label`` (one line) as a list item's text: its block marker backslash-escaped (the
    digits' ``.`` of ``1. Steps``), so it shows as written and adds no heading, quote, list
    or fence to the stub."""
    found = _BLOCK_START.match(label)
    if found is None:
        return label
    at = found.end() if label[0].isdigit() else 0
    return f"{label[:at]}\\{label[at:]}"


def _entry(indent: str, label: str, command: str | None) -> str:
    """One listed entry: its label (:func:`_listed`), and the command that reads it when the
    show template with the label would not (in a code span: :func:`shell_word` writes no
    backquote)."""
    return f"{indent}- {_listed(label)}" + ("" if command is None else f" (`{command}`)")


def _show_command(
    skill: str, heading: IndexedHeading, matcher: HeadingMatcher | None, *, other: str | None = None
) -> str | None:
    """The command an entry (``heading``) is listed with; None: the template ``--section
    '<label>'`` reads it as listed. Computed by ``show``'s own matching over every heading
    of the skill (``matcher``: :meth:`~skillc_index.index.queries.HeadingMatcher.matches`;
    None: each entry taken as read by its label), so that, pasted, it reads this entry: the
    label, else the heading's text as written (``## Part 2  APIs`` beside ``## Part 2
    APIs``, whose label it has), with the options :func:`_reaching` gives; when neither
    reaches it, ``other`` (a reference's ``skc open``) or the ``skc open`` of its file."""
    label = stub_label(heading.text)
    as_listed = "'" not in label and _listed(label) == label  # the template reads it as shown
    if matcher is None:
        return None if as_listed else _command(skill, "show", options=[("--section", label)])
    for section in dict.fromkeys((label, heading.text)):
        options = _reaching(matcher, heading, section)
        if options is None:
            continue
        if not options and section == label and as_listed:
            return None
        return _command(skill, "show", options=[("--section", section), *options])
    return other or _command(skill, "open", heading.file)


def _reaching(
    matcher: HeadingMatcher, heading: IndexedHeading, section: str
) -> list[tuple[str, str]] | None:
    """The options after ``--section SECTION`` with which ``show`` serves ``heading``: none
    when it is the first match; ``--nth N`` when it is the Nth and the first is in its file;
    else ``--file`` (and ``--nth`` among that file's matches: a heading text used twice,
    ``Examples`` under two H1s); None when ``SECTION`` does not reach it (another heading's
    exact text beats a label's match)."""
    everywhere = matcher.matches(section)
    if everywhere[:1] == [heading]:
        return []
    if heading in everywhere and everywhere[0].file == heading.file:
        return [("--nth", str(everywhere.index(heading) + 1))]
    in_file = matcher.matches(section, heading.file)
    if heading in in_file:
        nth = in_file.index(heading) + 1
        return [("--file", heading.file)] + ([] if nth == 1 else [("--nth", str(nth))])
    if heading in everywhere:
        return [("--nth", str(everywhere.index(heading) + 1))]
    return None


def _exec_word(skill: str) -> str:
    """The skill as ``skc exec`` takes it: a name starting with ``-`` after ``--``."""
    word = shell_word(skill)
    return f"-- {word}" if skill.startswith("-") else word


def _stored(
    matcher: HeadingMatcher | None, file: str, level: int, text: str, number: int | None = None
) -> IndexedHeading:
    """The heading ``matcher`` holds for an entry: the ``number``-th of ``file``, else its
    first H1 (a reference's title); without a matcher, a record of the entry alone."""
    of_file = [] if matcher is None else matcher.of_file(file)
    if number is not None and number < len(of_file):
        return of_file[number]
    first = next((h for h in of_file if h.level == 1), None) if number is None else None
    return first or IndexedHeading(file, text, level, 0, 0)


def _skill_entries(
    skill: str, headings: Sequence[tuple[int, str]], matcher: HeadingMatcher | None
) -> list[str]:
    """RFC-0001:C-SECTIONS for SKILL.md: H1 at indent 0, H2 at indent 1 under the preceding
    H1 (at indent 0 when no H1 precedes it), at most 15 entries and 12 at indent 0 (the
    top-level headings of RFC-0001:C-CONSTRAINTS: H1s, and the H2s before any H1). An entry
    the template would not read (:func:`_show_command`) gives its own command. None listed:
    SKILL.md by its path, with the ``skc open`` that reads it (nothing else reaches it)."""
    entries = [
        (number, level, text)
        for number, (level, text) in enumerate(headings)
        if level <= 2 and stub_label(text)
    ]
    if not entries:
        return [_entry("", SKILL_FILE, _command(skill, "open", SKILL_FILE))]
    lines: list[str] = []
    seen_h1 = top_level = 0
    for number, level, text in entries:
        top = level == 1 or not seen_h1
        if len(lines) == MAX_ENTRIES or (top and top_level == MAX_TOP_LEVEL):
            break
        seen_h1 += level == 1
        top_level += top
        heading = _stored(matcher, SKILL_FILE, level, text, number)
        command = _show_command(skill, heading, matcher)
        lines.append(_entry("" if top else "  ", stub_label(text), command))
    if len(lines) < len(entries):
        lines.append(f"- ... ({len(entries) - len(lines)} more)")
    return lines


def _reference_entries(
    skill: str, references: Sequence[Reference], matcher: HeadingMatcher | None
) -> list[str]:
    """RFC-0001:C-SECTIONS for the other Markdown files, in the order given (by path). A
    file without H1, listed by its path, gives the ``skc open`` that reads it; a title the
    template would not read, the ``show --file`` (or ``open``) that does."""
    if not references:
        return []
    lines = [f"- {REFERENCES_LABEL}"]
    for reference in references[:MAX_ENTRIES]:
        title = stub_label(reference.title or "")
        opened = _command(skill, "open", reference.path)
        if title and reference.title is not None:
            heading = _stored(matcher, reference.path, 1, reference.title)
            command = _show_command(skill, heading, matcher, other=opened)
        else:
            command = opened
        label = title or stub_label(reference.path, code=True)
        description = one_line(reference.description or "")
        if description:  # escaped, then cut: an escape (``\\u202e``) is never cut in half
            label = f"{label} — {stub_label(description, limit=MAX_DESCRIPTION)}"
        lines.append(_entry("  ", label, command))
    if len(references) > MAX_ENTRIES:
        lines.append(f"  - ... ({len(references) - MAX_ENTRIES} more)")
    return lines


#: The body's lines for a skill with files other than Markdown (``{skill}``: the name as the
#: command examples quote it).
SCRIPTS_LINE = (
    "Scripts and other files of this skill run from its folder: run each command it documents\n"
    "through `skc exec {skill} -- <command>`, as written except that a file of the user's\n"
    "(input or output) is given by its absolute path, and a word holding `${{CLAUDE_SKILL_DIR}}`\n"
    "or `$SKILL_DIR` is single-quoted (your shell would empty it; `skc` fills it in)."
)


def render_stub(
    *,
    skill: str,
    frontmatter: Mapping[str, Any],
    headings: Sequence[tuple[int, str]],
    references: Sequence[Reference],
    has_files: bool = False,
    matcher: HeadingMatcher | None = None,
) -> str:
    """The stub's text.

    ``skill`` is what ``skc`` resolves (the source folder's name), used in the command
    examples; ``frontmatter`` is the source's whole frontmatter (with ``name`` and
    ``description``), kept exactly; ``headings`` are SKILL.md's ``(level, text)`` in file
    order; ``references`` the other ``.md`` files by path; ``has_files``: the skill has files
    other than Markdown (the body then names ``skc exec``); ``matcher``: every heading of the
    skill, which each entry's command is computed over by ``show``'s matching (None: every
    entry taken as read by its label).
    """
    raw_name = frontmatter.get("name")
    name = raw_name if isinstance(raw_name, str) else ""
    body = [
        f"# {stub_label(name, code=True) or stub_label(skill, code=True)}",
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
    ]
    if has_files:
        body += [*SCRIPTS_LINE.format(skill=_exec_word(skill)).split("\n"), ""]
    body += ["## Top Sections", ""]
    body += _skill_entries(skill, headings, matcher)
    body += _reference_entries(skill, references, matcher)
    if len(body) > MAX_LINES:  # cannot happen with the limits above; never exceed it anyway
        body = [*body[: MAX_LINES - 1], "- ... (truncated)"]
    return "---\n" + _frontmatter_yaml(frontmatter) + "---\n\n" + "\n".join(body) + "\n"


def with_frontmatter(text: str, frontmatter: Mapping[str, Any]) -> str:
    """A SKILL.md's ``text`` (a stub, or a source) with ``frontmatter`` in place of its own,
    written as the stub writes it; the body is kept (line breaks made ``\n``, a BOM dropped).
    What a target or a package reading another dialect gets (:mod:`skillc_index.build.project`).
    """
    from skillc_index.markdown.frontmatter import parse_frontmatter
    from skillc_index.text import BOM, normalize_newlines

    text = normalize_newlines(text.removeprefix(BOM))
    start = parse_frontmatter(text).body_start
    body = "".join(text.splitlines(keepends=True)[start - 1 :]) if start > 1 else "\n" + text
    return "---\n" + _frontmatter_yaml(frontmatter) + "---\n" + body
