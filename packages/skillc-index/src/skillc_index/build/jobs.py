"""What a batch ``skc build`` builds (:mod:`.batch`): whether the arguments stand for several
skills (:func:`is_batch`), and the skills they and ``--all`` stand for, each once
(:func:`batch_jobs`): names, skill folders, folders holding skill folders at any depth
(:func:`~skillc_index.walk.build_walk`), every skill of the project and global stores."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.command_errors import NameInSeveralFolders, NoSkillBeforeCut
from skillc_index.diagnostics import Diagnostic, NotASkill, Notice, SkillcError
from skillc_index.import_record import import_origin
from skillc_index.layout import (
    SKILL_FILE,
    Layout,
    Scope,
    expand_user,
    pasted_path,
    resolve_skill,
)
from skillc_index.option_errors import InvalidOption, WordedOption
from skillc_index.record import Record
from skillc_index.spelling import PARAMETER_NAMES, Spelling
from skillc_index.walk import SkillFolders, build_walk, crowded, cut_short, walked

if TYPE_CHECKING:
    from skillc_index.operation import Session
    from skillc_index.operations import BuildParams

__all__ = [
    "BatchJob",
    "NoSkillToBuild",
    "NothingToBuild",
    "batch_jobs",
    "is_batch",
    "is_folder_of_skills",
    "package_output",
]


class NoSkillToBuild(WordedOption):
    """E100: a build given no skill: neither ``skill`` nor ``skills`` nor ``all``. The
    command line says it as click says a missing argument, its quotes double as E100 renders
    click's (``Missing argument "SKILL...".``): ``SKILL...`` is its argument."""

    usage = True

    def worded(self, spelling: Spelling) -> str:
        if spelling.option_prefix:
            return 'Missing argument "SKILL...".'
        return "no skill to build: give skill, skills or all"


class NothingToBuild(InvalidOption):
    """E100: ``all`` with empty stores (and no skill named): nothing to build."""

    def __init__(self) -> None:
        super().__init__("no skills to build: the stores hold none")


def is_batch(params: BuildParams, session: Session) -> bool:
    """Whether ``params`` asks for a batch: ``all_``, several skills, or the command line's
    one argument naming a folder of skills. ``skill`` (the tool's) is always one skill."""
    named = len(params.skills) + (params.skill is not None)
    if params.all_ or named > 1:
        return True
    if params.skill is not None or named != 1:
        return False
    return is_folder_of_skills(params.skills[0], session.layout, walked(session))


def is_folder_of_skills(
    argument: str,
    layout: Layout,
    walk: Callable[[Path], SkillFolders] | None = None,
) -> bool:
    """Whether ``argument`` names no skill but a folder holding skill folders (``skills/``),
    as ``walk`` (default :func:`build_walk`) finds them."""
    walk = walk or build_walk
    try:
        resolve_skill(argument, layout)
    except NotASkill:
        folder = layout.cwd / expand_user(argument)
        if not folder.is_dir():
            return False
        skills = walk(folder)
        # a walk stopped at a bound, or that left out what skc package wrote: its error is the
        # batch's (it says why no skill was found)
        return bool(skills) or skills.stopped or skills.package_output is not None
    except SkillcError:
        return False
    return False


class BatchJob(Record):
    """One skill to build: ``given`` (what :func:`~skillc_index.build.skill.build_skill` is
    called with: a name, or a folder's absolute path), its ``name`` (the folder's), its
    ``label`` for people (what was typed, or the folder's path as the layout displays it),
    the ``error`` that already stopped it (an argument naming nothing), and whether it is a
    skill of the global store (``global_``: built there, as ``--global`` builds, even when
    ``given`` is the folder it was imported from and the batch runs in a project); ``stored``:
    a store skill ``--all`` found (``given`` its store copy), which a batch given no target
    builds for the targets it is deployed to (:func:`_targets`)."""

    given: str
    name: str
    label: str
    error: Diagnostic | None = None
    global_: bool = False
    stored: bool = False


def _store_skills(layout: Layout) -> list[tuple[Path, Scope]]:
    """Every skill of the project and global stores, with its store's scope."""
    skills: list[tuple[Path, Scope]] = []
    for scope in layout.scopes():
        store = layout.store(scope)
        try:
            names = sorted(name for name in os.listdir(store) if not name.startswith("."))  # noqa: PTH208
        except OSError:
            continue
        for name in names:
            folder = store / name
            if (folder / SKILL_FILE).is_file():
                skills.append((folder, scope))
    return skills


def batch_jobs(
    arguments: Sequence[str] | str,
    layout: Layout,
    *,
    all_skills: bool = False,
    spelling: Spelling = PARAMETER_NAMES,
    warn: Callable[[Notice], object] | None = None,
    walk: Callable[[Path], SkillFolders] | None = None,
) -> list[BatchJob]:
    """The skills ``arguments`` (names, skill folders, folders of skills, as ``walk``,
    default :func:`build_walk`, finds them) and, with ``all_skills``, the stores
    stand for, each once, in the order given. An argument that names nothing is a job that
    failed already (its diagnostic, as ``spelling`` writes it); a folder whose walk stopped
    at its bound is a failed job when the walk found no skill
    (:class:`~skillc_index.command_errors.NoSkillBeforeCut`, not E010), else ``warn`` is
    told (:func:`~skillc_index.walk.cut_short`). A name found in several folders is one
    failed job naming them all (:func:`_one_folder_a_name`). One ``str`` is one argument, not
    its characters (:func:`~skillc_index.items.as_items`)."""
    from skillc_index.items import as_items

    arguments = as_items(arguments)
    walk = walk or build_walk
    jobs: list[BatchJob] = []
    seen: set[str] = set()
    sources: dict[int, str] = {}  # a job's folder (by its index): a store copy's, its origin
    stores = {os.path.realpath(layout.store(scope)): scope for scope in layout.scopes()}

    def add(
        given: str,
        folder: Path,
        label: str | None = None,
        global_: bool = False,
        stored: bool = False,
    ) -> None:
        key = os.path.realpath(folder)
        if key not in seen:
            seen.add(key)
            real = Path(key)
            display = label or layout.display(real)
            scope = stores.get(os.path.dirname(key))  # noqa: PTH120
            try:
                origin = import_origin(real, scope, layout) if scope is not None else None
            except SkillcError as exc:  # its folder cannot be read: that skill fails alone
                failure = exc.spelled(spelling)
                jobs.append(BatchJob(given, real.name, display, failure, global_, stored))
                return
            sources[len(jobs)] = key if origin is None else os.path.realpath(origin)
            jobs.append(BatchJob(given, real.name, display, None, global_, stored))

    for argument in arguments:
        try:
            resolved = resolve_skill(argument, layout)
        except NotASkill as exc:
            folder = layout.cwd / expand_user(argument)
            skills = walk(folder) if folder.is_dir() else SkillFolders()
            if not skills:  # past a bound the walk stopped at, not "missing SKILL.md"
                error = NoSkillBeforeCut.of(argument, folder, skills) or package_output(
                    exc, argument, layout, skills
                )
                jobs.append(BatchJob(argument, argument, argument, error.spelled(spelling)))
            elif skills.cut_short and warn is not None:
                warn(cut_short(argument, "skills past them are not built", skills.cut_short))
            for full in skills.crowded if skills else ():  # none found: the error says it
                if warn is not None:
                    warn(crowded(layout.display(full), "skills past them are not built"))
            for skill in skills:
                add(str(skill.resolve()), skill)
        except SkillcError as exc:
            jobs.append(BatchJob(argument, argument, argument, exc.spelled(spelling)))
        else:
            add(argument, resolved.imported_from or resolved.source, argument)
    if all_skills:
        for copy, scope in _store_skills(layout):
            # built as the store skill, which build_skill imports again from the folder it
            # was imported from when that is still there, as a build by name does; named
            # after that folder, so that the folder named too is built once
            try:
                origin = import_origin(copy, scope, layout) or copy
            except SkillcError:  # its folder cannot be read: add fails that skill alone
                origin = copy
            add(str(copy.resolve()), origin, global_=scope == "global", stored=True)
    return _one_folder_a_name(jobs, sources, layout, spelling)


class PackageOutput(NotASkill):
    """E010 of a folder holding no skill but what ``skc package`` wrote (``output``, as
    :func:`~skillc_index.layout.pasted_path` names it: one shell word, a newline or an escape
    sequence in its name escaped, never a line of its own), with a hint saying so: ``not
    {done}`` (``built``, ``evaluated``), ``{verb}`` the skills' sources instead; the command
    named as each front end spells it (:meth:`spelled`)."""

    def __init__(self, path: str, output: str, done: str, verb: str) -> None:
        self.output, self.done, self.verb = output, done, verb
        super().__init__(path, self._hint(PARAMETER_NAMES))

    def _hint(self, spelling: Spelling) -> str:
        from skillc_index.walk import PACKAGE_RECORD as RECORD

        package = spelling.command("package")
        wrote = f"{self.output} holds what {package} wrote (its {RECORD} lists it)"
        return f"{wrote}, not {self.done}: {self.verb} the skills' sources, or a copy's folder"

    def spelled(self, spelling: Spelling) -> Diagnostic:
        return self.diagnostic._replace(detail=f"hint: {self._hint(spelling)}")


def package_output(
    exc: NotASkill,
    argument: str,
    layout: Layout,
    found: SkillFolders | None = None,
    *,
    done: str = "built",
    verb: str = "build",
) -> NotASkill:
    """E010 ``exc`` of the folder ``argument`` names, as :class:`PackageOutput` when the
    folder holds no skill but what ``skc package`` wrote: the one rule of ``build`` (one
    folder or a batch: ``found``, its walk), the ``skc_build`` tool and ``eval``
    (``done="evaluated"``, ``verb="evaluate"``). The walk (:func:`build_walk`, bounded) is
    made here when not given, on this error's path only; a walk that finds skills, or no
    :attr:`~skillc_index.walk.SkillFolders.package_output` (kept even in the folder named,
    which may be a project ``-o .`` filled), leaves ``exc`` as it is."""
    if found is None:
        from skillc_index.files import is_folder

        folder = layout.cwd / expand_user(argument)
        found = build_walk(folder) if is_folder(folder) else SkillFolders()
    if found or found.package_output is None:
        return exc
    return PackageOutput(exc.path, pasted_path(layout, found.package_output), done, verb)


def _one_folder_a_name(
    jobs: list[BatchJob], sources: dict[int, str], layout: Layout, spelling: Spelling
) -> list[BatchJob]:
    """``jobs`` with the jobs of one name (and store: ``global_``) from several folders
    (``sources``: each job's folder by its index, a store copy's the folder it was imported
    from) replaced by one failed job, where the first was, naming the name and every folder
    (:class:`~skillc_index.command_errors.NameInSeveralFolders`): the store holds one skill of
    a name, and building the first met (a bundler's stale ``dist/`` copy) refused the other
    (E050), or with ``force`` replaced it."""
    folders: dict[tuple[str, bool], set[str]] = {}
    for index, source in sources.items():
        folders.setdefault((jobs[index].name, jobs[index].global_), set()).add(source)
    kept: list[BatchJob] = []
    said: set[tuple[str, bool]] = set()
    for index, job in enumerate(jobs):
        key = (job.name, job.global_)
        several = sorted(folders[key], key=os.fsencode) if index in sources else ()
        if len(several) < 2:
            kept.append(job)
        elif key not in said:
            said.add(key)
            shown = [layout.display(Path(folder)) for folder in several]
            error = NameInSeveralFolders(job.name, shown).spelled(spelling)
            kept.append(BatchJob(job.name, job.name, job.name, error, job.global_))
    return kept
