"""``skc find``'s answer as it is printed, by its click command (:mod:`.cli_find`) and by its
quick path (:mod:`.find_quick`) alike: the JSON of ``--format json``, else one block of text
per skill (rank, name, score; folder; description; how to read its best section).

Imported by the quick path: the standard library only at module level.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from skillc_gateway.catalog import FindResult, FoundSkill
    from skillc_index import Layout

    #: How the program the user ran writes an ``skc`` command (``show``): the click
    #: command's :func:`skillc_index.helppage.program_command`, the quick path's own.
    Spell = Callable[[str], str]


__all__ = ["print_answer", "render_text"]


def print_answer(layout: Layout, result: FindResult, output_format: str, spell: Spell) -> None:
    """Print ``result`` on stdout as ``skc find`` does (both paths): the JSON of
    ``--format json``, else the text form, one block per skill (its hints written by
    ``spell``)."""
    if output_format == "json":
        from skillc_index import json_text

        text = json_text(result.to_dict())
    else:
        text = render_text(layout, result, spell)
    from skillc_index.streams import write_stdout  # UTF-8 whatever the stream's encoding

    write_stdout(text + "\n")


def render_text(layout: Layout, result: FindResult, spell: Spell) -> str:
    """The text form of an answer: one block per skill (rank, name, score; folder;
    description; how to read its best section, a command line to paste as ``spell`` writes
    it: ``skillc-gateway show ...`` under the gateway's own script), each line one line: what
    a skill says of itself shows its control characters as escapes, so it cannot make up a
    result."""
    from skillc_index import counted, printable
    from skillc_index.text import printable_cut

    if not result.skills:
        return f"No skill fits this query ({counted(result.searched, 'skill')} searched)."
    blocks = []
    for rank, skill in enumerate(result.skills, 1):
        lines = [f"{rank}. {printable(skill.name)}  (score {skill.score:.2f})"]
        lines.append(f"   {printable(layout.display(Path(skill.path)))}")
        if skill.description:
            one_line = " ".join(skill.description.split())
            lines.append(f"   {printable_cut(one_line, 160)}")
        if skill.sections:  # its words are shell words: control characters escaped too
            lines.append(f"   {_read_hint(layout, skill, spell)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _read_hint(layout: Layout, skill: FoundSkill, spell: Spell) -> str:
    """How to read the skill's best section: ``skc show NAME --section`` when the skill is a
    built store skill that its name resolves to (show reads the index), else ``skc open
    FOLDER SKILL.md --offset`` (open reads the sources: an agent folder's or a plugin's skill
    is not built; a global store skill whose name a project store skill shadows is named by
    its folder, as ``pasted_path`` writes it for every hint: ``~/`` outside the quotes)."""
    from skillc_index.layout import pasted_path

    source, name = Path(skill.path), skill.name  # its entry's name (``alpha-x -> repo/skill``)
    section = skill.sections[0]
    if skill.in_store and _shown_by_name(layout, name, source):
        heading = _quoted(section.heading, force=True)
        if name.startswith("-"):  # after --: never read as an option
            return f"{spell('show')} --section {heading} -- {_quoted(name)}"
        return f"{spell('show')} {_quoted(name)} --section {heading}"
    target = pasted_path(layout, source)  # `./-x`, never an option
    return f"{spell('open')} {target} SKILL.md --offset {section.line - 1}"


def _shown_by_name(layout: Layout, name: str, source: Path) -> bool:
    """Whether ``skc show NAME`` reads this store skill's index: ``name``, as ``skc list``
    names it (its store entry's, not its folder's: ``alpha-x -> repo/skill``), is a name
    (not the path find gives when the name reads another skill) that resolves to it (as show
    resolves it: a project store skill of that name comes before a global one) and it is
    built."""
    from skillc_index import SkillcError, index_path, resolve_skill

    if "/" in name or os.sep in name:
        return False
    try:
        resolved = resolve_skill(name, layout)
    except SkillcError:
        return False
    return resolved.source == source and index_path(resolved.runtime, source).is_file()


def _quoted(word: str, *, force: bool = False) -> str:
    """``word`` (a name, a heading; a path is ``layout.pasted_path``'s) as a shell word: in
    double quotes (always with ``force``) when that is enough, else in single quotes; one
    holding a control character (an escape sequence, a newline) as
    :func:`~skillc_index.shell_word` writes it (``$'...'`` with escapes), which a shell reads
    back as the name or heading it is."""
    if not word.isprintable():
        from skillc_index import shell_word

        return shell_word(word)
    if not force and word and all(c.isalnum() or c in "-_." for c in word):  # `~x`: a home
        return word
    if not any(c in word for c in '"\\$`!'):
        return f'"{word}"'
    import shlex

    return shlex.quote(word)
