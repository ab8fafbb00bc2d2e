"""Storage layout and skill resolution: the one place that knows where skillc keeps things.

ADR-0001/ADR-0002, RFC-0007:C-RESOLUTION, RFC-0009:C-ENV-OVERRIDE and DECISIONS.md
"Paths and resolution". No other module joins ``.skillc`` paths by hand.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from skillc_index.diagnostics import (
    Diagnostic,
    FolderChanged,
    NotASkill,
    Notice,
    PathEscapesRoot,
    SkillDirectoryNotFound,
    SkillNotFound,
)
from skillc_index.dialect import skill_name_problem
from skillc_index.homes import home_dir, user_home
from skillc_index.inventory.links import store_entry  # stdlib only
from skillc_index.option_errors import UnknownTarget
from skillc_index.record import Record
from skillc_index.targets import KNOWN_TARGETS as KNOWN_TARGETS  # the README's API table
from skillc_index.targets import AgentTarget as AgentTarget  # the facade's _MOVED sends here
from skillc_index.targets import agent_targets, is_folder_target
from skillc_index.text import MAX_SHOWN, printable_cut

if TYPE_CHECKING:
    from skillc_index.inventory.folders import Root

Scope = Literal["project", "global"]
#: A skill as the API takes it: a name or a path, as a ``str`` or a ``pathlib.Path`` (any
#: ``os.PathLike``); :func:`resolve_skill` reads it as ``os.fspath`` gives it.
SkillArgument = str | os.PathLike[str]

SKILLC_DIR = ".skillc"
#: The folders of a ``.skillc`` folder that hold skills: its source store, its runtimes.
STORE_FOLDER, RUNTIME_FOLDER = "skills", "runtime"
SKILL_FILE = "SKILL.md"
META_DIR = ".skillc-meta"
#: In a store copy made by importing a folder: where from, and the source hash of what was
#: copied (:class:`~skillc_index.import_record.ImportRecord`). Hidden, so it is not one of
#: the skill's files.
IMPORT_RECORD = ".skillc-import.json"
#: A skill's trigger cases: the files of its ``evals/`` folder that ``skc eval`` reads, in this
#: order (skillc-gateway's ``evaluate.cases``); skillc-lint's SKL521 asks no Markdown to name
#: them. ``eval_queries.json`` is agentskills.io's name for a trigger set ("Optimizing skill
#: descriptions"); its 60/40 split (``train_queries.json``, ``validation_queries.json``) holds
#: the same queries again, and is not read.
CASE_FILES = (
    "evals/evals.json",
    "evals/trigger-eval.json",
    "evals/triggers.json",
    "evals/eval_queries.json",
    "evals/triggers.yaml",
)
#: The folders at a skill's root that hold no part of it: ``evals/``, its tests (the trigger
#: cases of :data:`CASE_FILES`, agentskills.io's split of them).
NOT_PACKAGED_AT_ROOT = frozenset({"evals"})


def in_tests(rel: str, folder: bool = False) -> bool:
    """Whether ``rel`` (relative to a skill's root, POSIX) is in a folder of
    :data:`NOT_PACKAGED_AT_ROOT` (``evals/x.json``), or with ``folder`` is one (``evals``):
    the skill's tests, not the skill. No file of it (:func:`~skillc_index.skill_files.walk_skill`),
    so not in its source hash, nor served to agents (:func:`~skillc_index.files.
    evals_refusal`); ``skc eval``, lint and the import of a folder read it."""
    top, slash, _ = rel.partition("/")
    return (bool(slash) or folder) and top in NOT_PACKAGED_AT_ROOT


def not_packaged(rel: str, real_root: str | None = None) -> bool:
    """Whether the file ``rel`` of a skill (relative, POSIX) is no part of it, left out of
    every package (``skc package``) and named by no Markdown (skillc-lint's SKL521): in a
    folder of :data:`NOT_PACKAGED_AT_ROOT` (:func:`in_tests`), or compiled Python (``.pyc``);
    given the skill's ``real_root``, a symlink leading to one too (``compiled.bin ->
    scripts/m.pyc``: what the walk lists stays inside the root)."""
    left_out = in_tests(rel) or rel.endswith(".pyc")
    if left_out or real_root is None:
        return left_out
    from skillc_index.files import real_path

    target = real_path(f"{real_root}/{rel}")[len(real_root) + 1 :]
    return target != rel and not_packaged(target)


def expand_user(path: str | os.PathLike[str]) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded as a shell does, and left as it is
    when that user is unknown: ``Path.expanduser`` raises there (``skc outline '~nouser/x'``
    was E999 "Could not determine home directory"; a folder of that name is just not found)."""
    return Path(os.path.expanduser(path))  # noqa: PTH111


#: The home folder of a user who has none: no absolute ``$HOME`` and no entry in the password
#: database (``docker run -u 4321``). Debian's home of system users without one: nothing is
#: there and such a user cannot make it, so skillc's global store, catalog and logs are absent
#: (the catalog is in memory, with a warning) and what needs only the project works.
NO_HOME = Path("/nonexistent")


def in_no_home(path: Path) -> bool:
    """Whether ``path`` lies in :data:`NO_HOME` (no home found, or ``HOME=/nonexistent`` as
    Debian gives system users): nothing is made there, which root could (the catalog is in
    memory, the lint cache off, no record kept of what is written elsewhere)."""
    return path == NO_HOME or NO_HOME in path.parents


def find_project_root(start: Path, home: Path) -> Path | None:
    """Walk up from ``start`` to the first folder holding a ``.skillc/`` directory (one that
    holds more than the log fallback's ``logs/``) that the current user or root owns. The home
    folder (``$SKILLC_HOME`` when set) never counts, nor the user's own home folder: their
    ``.skillc/`` is a global store, not a project (:mod:`skillc_index.project`)."""
    from skillc_index.project import project_root_of

    return project_root_of(start.resolve(), (home, user_home()))[0]


def shown(text: str) -> str:
    """``text`` for a one-line message: its control characters escaped
    (:func:`~skillc_index.text.printable`, as text output shows them), then cut to
    :data:`MAX_SHOWN` characters, its start and its end kept (a long path keeps its file's
    name), each escape whole (:func:`~skillc_index.text.printable_cut`)."""
    return printable_cut(text, MAX_SHOWN, middle=True)


def require_skill_name(name: str) -> None:
    """Raise :class:`~skillc_index.command_errors.InvalidSkillName` (E100) unless ``name`` is
    a valid Agent Skills name: the one rule for ``skc init`` and for imports (a folder named
    ``-x``, ``.x`` or with a newline would become an option, a hidden folder or a heading)."""
    problem = skill_name_problem(name)
    if problem:
        from skillc_index.command_errors import InvalidSkillName

        raise InvalidSkillName(name, problem)


class Layout(Record):
    """Where the stores are for one working directory: home, project (if any) and their paths."""

    cwd: Path
    home: Path
    project_root: Path | None
    foreign: tuple[Path, ...] = ()
    """``.skillc/`` folders above ``cwd`` passed over as another user's (``load_config`` warns)."""
    own_home: Path | None = None  # the user's home as discover read it (None: the process's)
    agent_env: tuple[tuple[str, str], ...] | None = None
    """The agents' folder variables discover's env sets (``agent_variable``); None: no env."""

    @classmethod
    def discover(
        cls, cwd: Path | str | None = None, env: Mapping[str, str] | None = None
    ) -> Layout:
        """The layout seen from ``cwd`` (default: the current directory; E022 when it was
        removed; E999 when another user owns the skillc home: :func:`~.project.foreign_home`)."""
        if cwd is None:
            try:
                cwd = Path.cwd()
            except FileNotFoundError:
                where = os.environ.get("PWD") or "."
                raise SkillDirectoryNotFound(where, "the working directory was removed") from None
        from skillc_index.project import project_root_of, refuse_foreign_home

        here, home, own = Path(cwd).resolve(), home_dir(env), user_home(env)
        refuse_foreign_home(home, own)
        root, foreign = project_root_of(here, (home, own))
        agents = None
        if env is not None:
            from skillc_index.inventory.folders import AGENT_VARIABLES

            agents = tuple((name, env[name]) for name in AGENT_VARIABLES if name in env)
        return cls(
            cwd=here, home=home, project_root=root, foreign=foreign, own_home=own, agent_env=agents
        )

    # -- global ------------------------------------------------------------------------------
    @property
    def global_dir(self) -> Path:
        return self.home / SKILLC_DIR

    @property
    def global_config(self) -> Path:
        return self.global_dir / "config.toml"

    # -- project -----------------------------------------------------------------------------
    @property
    def project_dir(self) -> Path | None:
        return None if self.project_root is None else self.project_root / SKILLC_DIR

    @property
    def project_config(self) -> Path | None:
        return None if self.project_dir is None else self.project_dir / "config.toml"

    # -- by scope ----------------------------------------------------------------------------
    def base(self, scope: Scope) -> Path:
        """The folder a scope hangs off: the project root or the home folder."""
        if scope == "project":
            if self.project_root is None:
                raise ValueError("no project here")
            return self.project_root
        return self.home

    def store(self, scope: Scope) -> Path:
        """The source store: ``<base>/.skillc/skills``."""
        return self.base(scope) / SKILLC_DIR / STORE_FOLDER

    @property
    def new_project_store(self) -> Path:
        """``<cwd>/.skillc/skills``: the store of a project made here (``skc init`` where
        there is no project; the global store when the working directory is the home)."""
        return self.cwd / SKILLC_DIR / STORE_FOLDER

    def runtime_store(self, scope: Scope) -> Path:
        """The runtime (SSOT) store: ``<base>/.skillc/runtime``."""
        return self.base(scope) / SKILLC_DIR / RUNTIME_FOLDER

    @property
    def fallback_base(self) -> Path:
        """The folder fallback logs hang off: the project root, else the working directory
        (so ``skc sync`` run from the root finds the rows of commands run in subfolders)."""
        return self.cwd if self.project_root is None else self.project_root

    @property
    def fallback_logs_root(self) -> Path:
        """``<project root or cwd>/.skillc/logs``: one folder per skill whose runtime could
        not be written."""
        return self.fallback_base / SKILLC_DIR / "logs"

    @property
    def fallback_logs_roots(self) -> tuple[Path, ...]:
        """Where ``sync`` looks: :attr:`fallback_logs_root`, then ``<cwd>/.skillc/logs`` when
        the working directory is a subfolder of the project (where earlier versions wrote the
        rows of commands run there)."""
        own = self.cwd / SKILLC_DIR / "logs"
        root = self.fallback_logs_root
        return (root,) if own == root else (root, own)

    def fallback_log_dir(self, skill: str) -> Path:
        """Where logs go when the runtime cannot be written (RFC-0007:C-LOGGING)."""
        return self.fallback_logs_root / skill / META_DIR

    def display(self, path: Path) -> str:
        """A path for people: relative to the working directory when inside it, ``~/...``
        when inside the home folder, absolute otherwise."""
        for base, prefix in ((self.cwd, ""), (self.home, "~/")):
            try:
                relative = path.relative_to(base)
            except ValueError:
                continue
            text = relative.as_posix()
            return prefix + text if text != "." else (prefix.rstrip("/") or ".")
        return str(path)

    def scopes(self) -> tuple[Scope, ...]:
        """The stores to look in, in resolution order: project first, then global."""
        return ("project", "global") if self.project_root is not None else ("global",)

    def target_root(
        self, target: str, scope: Scope, configured: Mapping[str, str] | None = None
    ) -> Path:
        """The agent folder a target deploys into for a scope (ADR-0002, DECISIONS).

        A target containing a path separator is a folder path (relative to the working
        directory). Otherwise it is looked up in ``[targets]`` from config, then in the built-in
        targets; relative paths there hang off the scope's base, ``~`` is the home folder.
        """
        if is_folder_target(target):
            from skillc_index.files import real_path

            return Path(real_path(self.cwd / expand_user(target)))
        # this target's entry alone (not agent_targets(), which parses every entry: a caller
        # asking for each of 4,000 [targets] made a build and a listing quadratic)
        entry = configured.get(target) if configured else None
        spec = KNOWN_TARGETS.get(target) if entry is None else AgentTarget.parse(entry)
        if spec is None:
            raise UnknownTarget(target, tuple(sorted(agent_targets(configured))))
        project = self.base(scope) if scope == "project" else self.home
        folder = spec.folder(scope, project, self.home, self)
        # a home-only target ("~/x") of a project skill deploys into the home folder
        return self.home / spec.home if folder is None else folder


class ResolvedSkill(Record):
    """A skill found by :func:`resolve_skill`."""

    name: str
    """Its runtime's name, the skill's for logs (RFC-0007): its store entry's, else its folder's."""
    source: Path
    """Canonical absolute path of the source folder."""
    scope: Scope
    """Whose runtime it uses: ``project`` or ``global``."""
    runtime: Path
    """Its runtime (SSOT) folder."""
    in_store: bool
    """Whether the source lives in the source store of its scope (not given by an outside path)."""
    imported_from: Path | None = None
    """The folder that was named when it resolved to the store copy imported from it
    (``source`` is then that store copy): what ``build`` imports again and ``lint`` checks."""
    notices: tuple[Diagnostic | Notice, ...] = ()
    """The resolution's warnings (a folder shadowing a store skill, W001): front ends print."""
    called: str | None = None
    """What reads it again when ``name`` does not: ``plugin:skill``, or a path (read_back)."""

    @property
    def skill_file(self) -> Path:
        return self.source / SKILL_FILE

    @property
    def shown(self) -> str:  # what a reply names it: :attr:`called`, else :attr:`name`
        return self.called or self.name


def _is_plain_name(text: str) -> bool:
    return bool(text) and text not in {".", ".."} and "/" not in text and os.sep not in text


def runtime_for(
    source: Path,
    layout: Layout,
    *,
    force_global: bool = False,
    entry: tuple[Scope, str] | None = None,
) -> tuple[Scope, Path, bool]:
    """Scope, runtime folder and store membership for a canonical source folder.

    Project sources use the project runtime, global sources the global one (a store's
    entry that links to the folder is that store's skill: :func:`store_entry`); a skill of
    another project's store (a nested project's, read from the outer one:
    :func:`store_owner`) uses that project's runtime, as it does there (not in this layout's
    stores); any other source uses the project runtime when there is a project, else the
    global one. ``force_global`` (``--global``) always picks the global runtime. The runtime
    is named after the store's entry (``alpha-x`` of ``alpha-x -> repo/skill``: the name
    ``skc list`` gives it), else after the folder; ``entry``: the store entry it was found
    as by name (that store's links are not all looked at: :func:`store_entry`)."""
    known = dict([entry]) if entry else {}
    in_project = known.get("project")
    if layout.project_root:
        in_project = store_entry(layout.store("project"), source, in_project)
    in_global = store_entry(layout.store("global"), source, known.get("global"))
    if force_global:
        scope: Scope = "global"
    elif in_project:
        scope = "project"
    elif in_global:
        scope = "global"
    else:
        owner = _store_root(source, layout)  # no store of layout holds it (just seen)
        if owner is not None:
            runtime = layout._replace(project_root=owner).runtime_store("project")
            return "project", runtime / source.name, False
        scope = "project" if layout.project_root is not None else "global"
    in_store = bool(in_project if scope == "project" else in_global)
    return scope, layout.runtime_store(scope) / (in_project or in_global or source.name), in_store


def store_owner(source: Path, layout: Layout) -> Path | None:
    """The root of the project whose store holds the canonical folder ``source``
    (``<root>/.skillc/skills/<name>``) when that is not ``layout``'s project: a project
    nested in it, or beside it. None for a folder in no project's store (the home's is the
    global store: never a project, as :func:`find_project_root` walks), and for one that a
    store of ``layout`` holds too, as a link (:func:`store_entry`)."""
    owner = _store_root(source, layout)
    if owner is None or any(store_entry(layout.store(scope), source) for scope in layout.scopes()):
        return None
    return owner


def _store_root(source: Path, layout: Layout) -> Path | None:
    """:func:`store_owner` of a ``source`` whether or not a store of ``layout`` holds it (as
    a link): :func:`runtime_for` knows it holds none."""
    skillc = source.parent.parent
    root = skillc.parent
    if store_skill_name(source) is None or root == layout.project_root:
        return None
    from skillc_index.project import is_project_marker, may_hold_project

    return root if may_hold_project(root, layout) and is_project_marker(skillc) else None


def store_skill_name(path: str | os.PathLike[str], folder: str = STORE_FOLDER) -> str | None:
    """The name of the skill at ``path`` when it is ``<base>/.skillc/skills/<name>``, where
    every store keeps its skills (``folder`` :data:`RUNTIME_FOLDER`: every runtime store,
    ``<base>/.skillc/runtime/<name>``), any base; else None."""
    held, _, name = os.fspath(path).rpartition(os.sep)
    skillc, _, store = held.rpartition(os.sep)
    return name if name and store == folder and skillc.rpartition(os.sep)[2] == SKILLC_DIR else None


def _as_path(layout: Layout, path: Path) -> str:
    """A folder as a path people can paste: ``./gt`` rather than ``gt``; absolute rather than
    ``~/gt`` when ``~`` is ``$SKILLC_HOME`` here, not the home a shell expands it to (the
    user's, as :meth:`Layout.discover` read it)."""
    text = layout.display(path)
    shell_home = layout.own_home or expand_user("~")
    if text.startswith("~") and layout.home != shell_home.resolve():
        return str(path)
    return text if text.startswith(("/", "~", ".")) else f"./{text}"


def pasted_path(layout: Layout, path: Path) -> str:
    """:func:`_as_path` as one shell word (:func:`~skillc_index.text.shell_word`: quoted
    where a shell would split or expand it, ``/tmp/my home/x`` included), a leading ``~/``
    left out of the quotes for the shell to expand."""
    from skillc_index.text import shell_word

    text = _as_path(layout, path)
    head, rest = ("~/", text[2:]) if text.startswith("~/") else ("", text)
    return head + shell_word(rest) if rest else text


def _from_folder(
    skill: str, source: Path, layout: Layout, force_global: bool, plain: bool,
    plugins: tuple[Root, ...] | None = None,
) -> ResolvedSkill:  # fmt: skip
    """A skill found as a folder (step 1): the store skill of a folder skillc deployed (a
    runtime, a ``--copy`` stub); the store copy of one imported (:func:`~.import_record.
    imported_copy`); else the folder, warned of when a bare name of it names a store skill
    not imported from it.
    ``plugins``: the plugins' roots, when read already (to name a plugin's: ``called``)."""
    from skillc_index.inventory.deployed import deployed_source

    scope, runtime, in_store = runtime_for(source, layout, force_global=force_global)
    if in_store:
        return ResolvedSkill(runtime.name, source, scope, runtime, in_store)
    stands_for = deployed_source(str(source), layout)
    if stands_for is not None:
        source = Path(stands_for)
        scope, runtime, in_store = runtime_for(source, layout, force_global=force_global)
        return ResolvedSkill(runtime.name, source, scope, runtime, in_store)
    from skillc_index.import_record import imported_copy

    copy = imported_copy(source, layout, force_global)
    if copy is not None:
        scope, runtime, in_store = runtime_for(copy, layout, force_global=force_global)
        return ResolvedSkill(runtime.name, copy, scope, runtime, in_store, source)
    notices: tuple[Diagnostic | Notice, ...] = ()
    if plain:
        for store_scope in layout.scopes():
            shadowed = layout.store(store_scope) / skill
            if (shadowed / SKILL_FILE).is_file():
                if shadowed.resolve() != source:
                    notices = (
                        Notice(
                            f"'{shown(skill)}' is the folder {shown(_as_path(layout, source))}, "
                            f"not the {store_scope} store skill "
                            f"{shown(layout.display(shadowed))} (not imported from it): a "
                            "folder of the working directory comes first; give the store "
                            "skill's path to read it"
                        ),
                    )
                break
    from skillc_index.inventory.resolve import plugin_called  # a plugin's: devkit:pdf-tools

    called = plugin_called(source, Path(skill).name, layout, plugins)
    return ResolvedSkill(runtime.name, source, scope, runtime, in_store, None, notices, called)


def checked_skill(skill: object, name: str = "skill", kind: str = "a name or a path") -> str:
    """``skill``'s text, a skill's name or path (a ``str`` or an ``os.PathLike`` giving one);
    else E100 (:class:`~skillc_index.InvalidOption`) naming the parameter ``name`` and what it
    takes (``kind``), before any work: never a bare ``TypeError`` (None, 5, a ``bytes`` name,
    a path object whose ``__fspath__`` gives ``bytes`` or fails:
    :func:`~skillc_index.arguments.path_text`)."""
    from skillc_index.arguments import path_text

    text = path_text(skill)
    if not isinstance(text, str):
        from skillc_index.option_errors import InvalidOption

        raise InvalidOption(f"{name} must be {kind}, not {type(skill).__name__}")
    return text


def resolve_skill(
    skill: SkillArgument, layout: Layout, *, force_global: bool = False, stores_only: bool = False
) -> ResolvedSkill:
    """Find a skill's source folder from a path or a name (RFC-0007:C-RESOLUTION); ``skill``
    is a ``str`` or a ``pathlib.Path`` (:data:`SkillArgument`).

    1. a folder path (relative to the working directory, or absolute) holding ``SKILL.md``,
       or the path of that ``SKILL.md`` file itself (as skillc-lint takes it);
    2. a name in the project store, then 3. in the global store;
    4. a name among the other installed skills: the project's agent folders (its nested
       Claude Code folders after its own), the home folder's, then the installed Claude Code
       plugins' skills (``plugin:skill`` names one of these); W001 when several distinct
       skills have the name (:func:`~skillc_index.inventory.resolve.resolve_installed`).
       Step 4 runs only when steps 1 to 3 found no folder at all: a store skill costs what it
       did before the inventory.

    A ``skill://`` URI (the MCP Skills extension's: :mod:`skillc_index.inventory.uris`)
    names the installed skill at that path (a nested one included), read as its folder would
    be; not with ``stores_only``.

    With ``stores_only`` (commands that execute a skill's code: ``run``), a bare word (no
    path separator, not ``.`` or ``..``) is a name in the stores only (steps 2 and 3), or a
    plugin's skill named ``plugin:skill``, never a folder of the working directory nor another
    installed skill: a folder is taken when written as a path (``./gt``, ``gt/``, absolute).

    A folder that was imported into a store (its
    :class:`~skillc_index.import_record.ImportRecord`; the project store, then the global
    one, as ``build --global`` imports) resolves to the store copy, with
    :attr:`ResolvedSkill.imported_from` set. A bare name that finds a folder of
    the working directory while a store holds another skill of that name carries a warning
    (:attr:`ResolvedSkill.notices`). A store copy stranded by an import that was killed is
    put back first (:func:`~skillc_index.build.store.recover_stranded`).

    Raises :class:`NotASkill` (E010) when a folder was found at some step but has no
    ``SKILL.md``, :class:`SkillNotFound` (E001) when nothing was found (with the hint
    ``'X' is a file; name the skill's folder`` when the path names another file), and
    :class:`PathEscapesRoot` (E012) when the ``SKILL.md`` found is a symlink leading out of
    its folder (every command refuses it, not only those that walk its files), and
    :class:`FolderChanged` (E022) when a part of the path was swapped as it was resolved
    (``os.path.realpath`` raised: every command's error line, never an ``OSError``).
    A ``skill`` that is neither (None, 5, bytes) is E100 (:func:`checked_skill`).
    """
    text = checked_skill(skill)
    try:
        return _resolved(text, layout, force_global, stores_only)
    except (OSError, RuntimeError) as exc:
        if not FolderChanged.raised_by(exc):
            raise
        raise FolderChanged(shown(text)) from None


def _resolved(skill: str, layout: Layout, force_global: bool, stores_only: bool) -> ResolvedSkill:
    """:func:`resolve_skill`'s work."""
    from skillc_index.files import entry_named, inside, is_file, is_folder

    if skill[:8].lower() == "skill://" and not stores_only:
        from skillc_index.inventory.resolve import read_back
        from skillc_index.inventory.uris import uri_folder

        folder = uri_folder(skill, layout)
        if folder is None:
            raise SkillNotFound(shown(skill), ())
        return read_back(folder.name, folder, layout, force_global, False)
    plain = _is_plain_name(skill)
    first_folder: str | None = None
    candidates: list[tuple[Path, str, tuple[Scope, str] | None]] = []
    if skill and not (stores_only and plain):
        written = layout.cwd / expand_user(skill)
        if os.path.basename(skill) == SKILL_FILE and is_file(written):  # noqa: PTH119 (as written)
            parent = skill[: -len(SKILL_FILE)] or "."  # its folder, as skillc-lint takes it:
            # `demo/` (a path, as it was written, never a store's name)
            return resolve_skill(parent, layout, force_global=force_global, stores_only=stores_only)
        candidates.append((written, skill, None))
    if plain:  # a store's entry, found by name: its store's links are not all looked at
        for scope in layout.scopes():
            folder = layout.store(scope) / entry_named(layout.store(scope), skill)
            candidates.append((folder, str(folder), (scope, folder.name)))
    for folder, where, entry in candidates:
        given = entry is None
        if not is_folder(folder):
            from skillc_index.import_record import recovered  # a killed import's copy back

            if not given and recovered(folder):
                return resolve_skill(
                    skill, layout, force_global=force_global, stores_only=stores_only
                )
            continue
        if is_file(folder / SKILL_FILE, denied=True):
            source = folder.resolve()
            if not inside(os.path.realpath(source / SKILL_FILE), str(source)):
                raise PathEscapesRoot(str(folder / SKILL_FILE))  # as lint names it
            if given:
                from skillc_index.inventory.resolve import read_back

                return read_back(skill, source, layout, force_global, plain)
            scope, runtime, in_store = runtime_for(
                source, layout, force_global=force_global, entry=entry
            )
            notices: tuple[Diagnostic | Notice, ...] = ()
            if stores_only and scope == "project":  # a checkout's skill runs, not the user's
                from skillc_index.build.store import shadow_notice

                shadow = shadow_notice(source, layout, runs=True)
                notices = () if shadow is None else (shadow,)
            return ResolvedSkill(runtime.name, source, scope, runtime, in_store, None, notices)
        if first_folder is None:
            first_folder = where
    if first_folder is not None:
        raise NotASkill(shown(first_folder))
    if stores_only and plain and is_file(layout.cwd / skill / SKILL_FILE):
        from skillc_index.command_errors import SkillNotInStores

        raise SkillNotInStores(shown(skill), f"./{shown(skill)}")
    a_file = ""
    if skill and not (stores_only and plain) and is_file(layout.cwd / expand_user(skill)):
        a_file = f"'{shown(skill)}' is a file; name the skill's folder"
    if plain:  # step 4, else E001 (its hints from the inventory)
        from skillc_index.inventory.resolve import installed_or_not_found

        return installed_or_not_found(skill, layout, force_global, stores_only, a_file)
    raise SkillNotFound(shown(skill), (), a_file)
