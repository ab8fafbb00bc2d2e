"""Where ``skc package`` may write (:func:`skillc_index.package.make.package_skills`): never
out of the project through a symlink, never into a skill, nor into skillc's own folders."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.layout import SKILL_FILE, Layout
from skillc_index.option_errors import InvalidOption

if TYPE_CHECKING:
    from skillc_index.package.make import PackedSkill

__all__ = ["check_output", "check_place"]


def check_output(output: Path, what: str = "output") -> None:
    """E100 when the output is not a folder, or cannot be one: what is there above it is a
    file (``-o /etc/passwd/x``: NotADirectoryError, E999, once the files were written);
    CannotCreate (E999) when it cannot be looked up (a name too long). ``what`` names the
    folder (``build``'s: a ``target`` written as a folder path)."""
    from skillc_index.atomic import creation_start

    found = creation_start(output)
    if found.is_dir():
        return
    if found == output:
        raise InvalidOption(f"the {what} '{output}' is not a folder")
    raise InvalidOption(f"the {what} '{output}' cannot be a folder: '{found}' is not one")


def check_place(
    output: Path, files: Iterable[str], packed: Iterable[tuple[str, PackedSkill]], layout: Layout
) -> None:
    """E012 when a folder the package is written into leads out of the project through a
    symlink (``dist/beta -> /elsewhere``, as ``-o`` leading out); E100 when the output
    folder, or any folder the package is written into, really (symlinks followed) is in a
    skill it packages, in a folder holding a SKILL.md but the package's own (an installed
    skill: ``-o .agents/skills/pdf``), in a store or runtime folder of skillc, or in a copy
    deployment of skillc's (:func:`~skillc_index.build.deploy.is_skillc_copy`): an agent
    folder's entry is the skill agents load (``-o .claude/skills/demo``, ``--to plugin -o
    .claude/skills``, ``out/kit/skills -> .skillc/skills/other``: the package was written
    into it)."""
    from skillc_index.build.deploy import is_skillc_copy
    from skillc_index.files import inside, is_file, real_path
    from skillc_index.inventory.folders import check_project_write
    from skillc_index.layout import META_DIR

    folders = {(output / rel).parent for rel in files}
    for folder in sorted(folders):
        check_project_write(folder, layout)  # each folder written into, links followed
    places = [(skill.source, f"the skill '{given}'") for given, skill in packed]
    for scope in layout.scopes():
        for folder in (layout.store(scope), layout.runtime_store(scope)):
            places.append((real_path(folder), f"skillc's folder '{layout.display(folder)}'"))
    real_output = real_path(output)
    # where the package really lands: each top entry and each folder written into (a link
    # below the top, out/kit/skills -> a store's skill, had the package written into it)
    reals = {real_path(output / rel.split("/", 1)[0]) for rel in files}
    reals.update(real_path(folder) for folder in folders)
    above = {str(up) for real in {*reals, real_output} for up in (Path(real), *Path(real).parents)}
    # the package's own skill folders (a plugin's skills/<name>, well-known's <name>/), where
    # no link below the output leads elsewhere
    own = {str(Path(real_output, rel).parent) for rel in files if rel.endswith(f"/{SKILL_FILE}")}
    for folder in map(Path, sorted(above)):
        if (folder / META_DIR).is_dir() and is_skillc_copy(folder, folder.name):
            places.append((str(folder), f"skillc's copy deployment '{layout.display(folder)}'"))
        elif is_file(folder / SKILL_FILE) and str(folder) not in own:  # an installed skill
            places.append((str(folder), f"the skill folder '{layout.display(folder)}'"))
    for place, what in places:
        if inside(real_output, place):
            raise InvalidOption(
                f"the output folder '{output}' is inside {what}: give one outside it"
            )
        if any(inside(real, place) for real in reals):  # `-o skills` of `skills/notes`
            raise InvalidOption(
                f"the package would be written into {what}: give a folder outside it"
            )
