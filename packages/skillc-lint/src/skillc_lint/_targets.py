"""What a command line's arguments stand for: the skill folders to lint (RFC-0007:C-RESOLUTION,
extended to folders of skills, plugins and marketplaces). A skill named by its name (and the
project store's skills, with no argument) is linted where a build of it builds from: the folder
its store copy was imported from when there (:func:`~skillc_index.build.origin.built_folder`),
what the author edits, never an older copy."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index import (
    SKILL_FILE,
    Diagnostic,
    Layout,
    NotASkill,
    Notice,
    find_skill_folders,
    is_file,
    is_folder,
    resolve_skill,
)
from skillc_index.walk import SkillFolders
from skillc_lint._engine import is_compiled

if TYPE_CHECKING:
    from skillc_index import ResolvedSkill

__all__ = [
    "PLUGIN_MANIFESTS",
    "Target",
    "is_plugin",
    "plugin_copy",
    "resolve_target",
    "resolve_targets",
]

#: The manifests of a Claude Code plugin and of a marketplace, under ``.claude-plugin/``.
PLUGIN_MANIFESTS = ("plugin.json", "marketplace.json")


@dataclass(frozen=True)
class Target:
    """Skill folders one command-line argument stands for."""

    argument: str | None
    """What the user typed; None for "every skill of the project store"."""
    skills: tuple[Path, ...]
    collection: bool
    """True when the argument is a folder of skills rather than one skill."""
    folder: Path | None = None
    """The folder searched, for a collection."""
    named: bool = False
    """True when the argument is a skill's name (found in a store, an agent folder...), not
    its folder, and for no argument (the project store's skills, found as by their names):
    its fixes write only in the project or the skillc home
    (:func:`~skillc_index.inventory.folders.write_places`), E012 elsewhere."""
    cut_short: str = ""
    """The bound the walk of ``folder`` stopped at with folders left (``"folders"``,
    ``"depth"``; ``""``: none): skills past it are not linted
    (:func:`~skillc_index.cut_short`)."""
    crowded: tuple[Path, ...] = ()
    """The folders of ``folder`` whose entries past the walk's bound were not read
    (:attr:`~skillc_index.walk.SkillFolders.crowded`): skills past them are not linted."""
    notices: tuple[Diagnostic | Notice, ...] = ()
    """The warnings of its resolution (:attr:`~skillc_index.ResolvedSkill.notices`: W001 for
    a name several installed skills have, the first linted), printed before it is linted."""


def resolve_targets(arguments: Sequence[str] | str, layout: Layout) -> list[Target]:
    """What to lint for each argument (:func:`resolve_target`); one ``str`` is one argument,
    not its characters (:func:`~skillc_index.items.as_items`). No argument means every skill
    of the project store; without a project that is a usage error
    (:class:`~skillc_index.NoSkillGiven`, E100); arguments that are no names or paths
    (``5``, ``[5]``) are InvalidOption (E100), each checked before any is resolved.
    """
    from skillc_index import InvalidOption, NoSkillGiven
    from skillc_index.items import checked_items
    from skillc_index.layout import checked_skill

    def wrong(value: object, _listed: bool) -> InvalidOption:
        return InvalidOption(f"arguments must be names or paths, not {type(value).__name__}")

    arguments = [checked_skill(item) for item in checked_items(arguments, object, wrong)]
    if not arguments:
        if layout.project_root is None:
            raise NoSkillGiven(
                "no skill given and no skillc project here; name a skill or a folder of "
                "skills (skillc-lint skills/), or run 'skc init' to make a project"
            )
        store = layout.store("project")
        found = (
            find_skill_folders(store, linked_entries=True) if is_folder(store) else SkillFolders()
        )
        # the project's, as by name: each where its build builds from (what is edited)
        return [
            Target(
                None,
                tuple(_built(folder, layout) for folder in found),
                True,
                store,
                cut_short=found.cut_short,
                crowded=found.crowded,
                named=True,
            )
        ]
    return [resolve_target(argument, layout) for argument in arguments]


def resolve_target(argument: str, layout: Layout) -> Target:
    """What one argument stands for (RFC-0007:C-RESOLUTION, extended to folders of skills).

    An argument is a skill path or name (:func:`~skillc_index.resolve_skill`); failing that, a
    folder holding skill folders at any depth (``skills/``) stands for all of them. A file
    stands for the skill holding it, and a plugin or marketplace folder (:func:`is_plugin`) for
    its skills, even none. Raises :class:`~skillc_index.NotASkill` (E010) or
    :class:`~skillc_index.diagnostics.SkillNotFound` (E001) when the argument stands for no skill
    (:class:`~skillc_index.NoSkillBeforeCut`, E100, when the walk of the folder stopped at its
    bound first): a multi-target run reports that argument and goes on with the others.
    InvalidOption (E100) for an argument that is no ``str`` or ``os.PathLike``.
    """
    from skillc_index import NoSkillBeforeCut, expand_user
    from skillc_index.layout import checked_skill

    argument = checked_skill(argument)
    given = layout.cwd / expand_user(argument)
    if is_file(given):  # a file of a skill (an editor or pre-commit passing file names)
        owner = next((p for p in given.parents if is_file(p / SKILL_FILE)), None)
        if owner is None:
            raise NotASkill(argument)
        return Target(argument, (owner,), False)
    if is_folder(given) and is_compiled(given):  # itself (skipped, SKL001), not its store skill
        return Target(argument, (given,), False)
    try:
        resolved = resolve_skill(argument, layout)
    except NotASkill:
        found = (
            find_skill_folders(given, linked_entries=True) if is_folder(given) else SkillFolders()
        )
        if not found and not is_plugin(given):
            stopped = NoSkillBeforeCut.of(argument, given, found)  # not E010 past a bound
            if stopped is not None:
                raise stopped from None
            raise
        return Target(
            argument, tuple(found), True, given, cut_short=found.cut_short, crowded=found.crowded
        )
    named = not is_file(given / SKILL_FILE)  # found by its name, not given as its folder
    folder = skill_folder(given, resolved, layout)
    return Target(argument, (folder,), False, named=named, notices=resolved.notices)


def skill_folder(given: Path, skill: ResolvedSkill, layout: Layout) -> Path:
    """The folder to lint for ``skill``, resolved from the path ``given``: ``given`` when it
    is the skill (a symlink to it kept, so its files have one path in every format and in a
    baseline, that of a folder of skills holding the link too) or a compiled one (a deployed
    skill resolves to its store skill, but lint skips what was compiled: SKL001); else the
    resolved one. An imported folder is linted itself, not its store copy: it is what is
    edited; so is a store skill named by its name whose build imports its folder again
    (:func:`~skillc_index.build.origin.built_folder`)."""
    from skillc_index.build.origin import built_folder

    by_name = not (is_file(given) or is_file(given / SKILL_FILE))
    folder = built_folder(skill, layout) if by_name else skill.imported_from or skill.source
    if os.path.realpath(given) == str(folder) or (is_folder(given) and is_compiled(given)):
        return given
    return folder


def _built(folder: Path, layout: Layout) -> Path:
    """The folder to lint for the project store's skill ``folder`` (no argument): where a
    build of it builds from (:func:`~skillc_index.build.origin.built_folder`); ``folder``
    itself when it does not resolve (its lint reports why)."""
    from skillc_index import SkillcError
    from skillc_index.build.origin import built_folder

    try:
        return built_folder(resolve_skill(str(folder), layout), layout)
    except (SkillcError, OSError, RuntimeError):
        return folder


def is_plugin(folder: Path) -> bool:
    """Whether ``folder`` is a Claude Code plugin or marketplace root (it holds
    ``.claude-plugin/plugin.json`` or ``.claude-plugin/marketplace.json``; a folder or FIFO
    there too, which SKL611/SKL612 report): linted as a target even when it holds no skill."""
    manifests = (folder / ".claude-plugin" / name for name in PLUGIN_MANIFESTS)
    return any(os.path.exists(path) for path in manifests)  # noqa: PTH110 - never raises


def plugin_copy(real: str, layout: Layout) -> Diagnostic | None:
    """E100 for a skill folder (``real``: its real path) in Claude Code's copy of an installed
    plugin, by its name or its folder: a fix or a suppression comment written there is lost
    at the plugin's next update
    (:func:`~skillc_index.inventory.plugins.check_not_plugin_copy`); else None."""
    from skillc_index import CLI_SPELLING, SkillcError
    from skillc_index.inventory.plugins import check_not_plugin_copy

    try:
        check_not_plugin_copy(real, layout)
    except SkillcError as exc:
        return exc.spelled(CLI_SPELLING)
    return None
