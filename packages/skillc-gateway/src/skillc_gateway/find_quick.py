"""``skc find`` without click: a find server's answer, printed as the command prints it.

An agent runs ``skc find`` before anything else, many times a session. With a find server
running (``skc watch``), the server's part of the answer takes a few milliseconds; the rest
is the process starting, and importing click costs about as much as starting Python. So
``skc`` first offers the command line to :func:`run` (the ``skillc.quick`` entry point of
``find``), which reads the usual forms itself: a query, ``--limit N``, ``--path DIR``
(repeated), ``--format text|json``, as ``--name value`` or ``--name=value``, ``--`` before a
query that starts with ``-``. When the server answers, it prints the answer as the click
command does (:func:`print_answer` prints it for both) and returns 0. For anything
else it returns None before it printed anything, and the click command runs, as it does
without a server: ``--help``, ``-v``, an option or a value it does not read, bad input (the
command's error), no server (the command answers itself, and may start one), a
configuration with problems (the command prints them). A server that did not answer is not
asked again by the command (:func:`.catalog.client.ask`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_gateway._limits import DEFAULT_FIND_LIMIT

if TYPE_CHECKING:
    from skillc_gateway.catalog import FindResult, FoundSkill
    from skillc_index import Layout

__all__ = ["plural", "print_answer", "run"]

#: The values of ``--format`` (the click command's choices).
FORMATS = ("text", "json")


def run(args: list[str]) -> int | None:
    """Answer ``skc find ARGS`` from the find server: 0 once printed; None when the click
    command is to run instead (nothing was printed)."""
    parsed = _parse(args)
    if parsed is None:
        return None
    query, limit, paths, output_format = parsed
    from skillc_gateway.catalog import client, served_answer
    from skillc_index import Layout, SkillcError, load_config
    from skillc_index.installed import trusted_targets

    try:
        layout = Layout.discover()
    except SkillcError:
        return None
    if not client.usable(layout):  # before reading the configuration: no server, no cost
        return None
    config = load_config(layout)
    if config.notices:
        return None
    result = served_answer(layout, query, limit, paths, trusted_targets(layout, config))
    if result is None:
        return None
    if result.warnings:
        from skillc_index.console import report_all

        report_all(result.warnings)
    print_answer(layout, result, output_format)
    return 0


def print_answer(layout: Layout, result: FindResult, output_format: str) -> None:
    """Print ``result`` on stdout as ``skc find`` does (both paths): the JSON of
    ``--format json``, else the text form, one block per skill."""
    if output_format == "json":
        from skillc_index import json_text

        text = json_text(result.to_dict())
    else:
        text = _render_text(layout, result)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _parse(args: list[str]) -> tuple[str, int, list[str], str] | None:
    """``(query, limit, paths, format)`` of a command line of the usual forms, else None."""
    query: str | None = None
    limit, paths, output_format = DEFAULT_FIND_LIMIT, [], FORMATS[0]
    rest = iter(args)
    options = True
    for arg in rest:
        if options and arg == "--":
            options = False
        elif options and arg.startswith("-"):
            name, equals, value = arg.partition("=")
            if not equals:
                value = next(rest, "-")
            if value.startswith("-") or name not in ("--limit", "--path", "--format"):
                return None  # help, -v, a value like an option: as click reads them
            if name == "--path":
                paths.append(value)
            elif name == "--format" and value in FORMATS:
                output_format = value
            elif name == "--limit" and value.isascii() and value.isdigit():
                limit = int(value)
            else:
                return None
        elif query is None:
            query = arg
        else:
            return None
    return None if query is None else (query, limit, paths, output_format)


def _render_text(layout: Layout, result: FindResult) -> str:
    """The text form of an answer: one block per skill (rank, name, score; folder;
    description; how to read its best section), each line one line: what a skill says of
    itself shows its control characters as escapes, so it cannot make up a result."""
    from skillc_index import printable

    if not result.skills:
        return f"No skill fits this query ({plural(result.searched, 'skill')} searched)."
    blocks = []
    for rank, skill in enumerate(result.skills, 1):
        lines = [f"{rank}. {printable(skill.name)}  (score {skill.score:.2f})"]
        lines.append(f"   {printable(layout.display(Path(skill.path)))}")
        if skill.description:
            lines.append(f"   {printable(_shorten(skill.description, 160))}")
        if skill.sections:
            lines.append(f"   {printable(_read_hint(layout, skill))}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _read_hint(layout: Layout, skill: FoundSkill) -> str:
    """How to read the skill's best section: ``skc show --section`` when the skill is a
    built store skill (show reads the index), else ``skc open SKILL.md --offset`` (open
    reads the sources: an agent folder's or a plugin's skill is not built)."""
    from skillc_index import index_path

    source = Path(skill.path)
    section = skill.sections[0]
    if skill.in_store:
        for scope in layout.scopes():
            if (
                source.parent == layout.store(scope)
                and index_path(layout.runtime_store(scope) / source.name, source).is_file()
            ):
                heading = _quoted(section.heading, force=True)
                if source.name.startswith("-"):  # after --: never read as an option
                    return f"skc show --section {heading} -- {_quoted(source.name)}"
                return f"skc show {_quoted(source.name)} --section {heading}"
    shown = layout.display(source)
    target = _quoted(f"./{shown}" if shown.startswith("-") else shown)
    return f"skc open {target} SKILL.md --offset {section.line - 1}"


def plural(number: int, noun: str) -> str:
    """``1 skill``, ``2,320 skills``."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _shorten(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"


def _quoted(word: str, *, force: bool = False) -> str:
    """``word`` as a shell word: in double quotes (always with ``force``) when that is
    enough, else in single quotes."""
    if not force and word and all(c.isalnum() or c in "-_./~" for c in word):
        return word
    if not any(c in word for c in '"\\$`!'):
        return f'"{word}"'
    import shlex

    return shlex.quote(word)
