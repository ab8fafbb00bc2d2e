"""Scaffolding: ``skc init`` and ``skc init <name>`` (RFC-0006:C-INIT).

Making a project also adds what skillc generates there to the project's ``.gitignore``
(:func:`ignore_generated`): ``.skillc/runtime/``, ``.skillc/logs/`` and the agent folders
builds deploy into by default (symlinks to the runtime), each only where git tracks nothing in
it and, for an agent folder, where it holds nothing but skillc's deployments (not the user's
skills, ones another tool installed included). ``.skillc/`` itself never: ``.skillc/skills/``
holds the sources. A build that deploys into another agent folder of the project adds that
one the same way, or, where the folder holds skills of the user's, the entries it deployed
(:func:`ignore_agent_folders`, issue 34). The one home of the project's ``.gitignore``:
:func:`ignore_folders` (and :func:`unignore_lines`, which takes out the lines ``route
install`` added once ``route uninstall`` is done).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Literal, NamedTuple

from skillc_index._git import GitUnanswered, maybe_in_work_tree
from skillc_index._git import ignored as git_ignored
from skillc_index._git import tracked as git_tracked
from skillc_index.command_errors import (
    CannotCreate,
    PathEscapesProject,
    ProjectInSkill,
    SkillExists,
)
from skillc_index.diagnostics import NotARegularFile, Notice
from skillc_index.files import inside, is_file, is_folder, regular_fd, within
from skillc_index.layout import (
    SKILL_FILE,
    SKILLC_DIR,
    Layout,
    Scope,
    require_skill_name,
)
from skillc_index.option_errors import WordedOption
from skillc_index.spelling import Spelling
from skillc_index.streams import write_all
from skillc_index.targets import KNOWN_TARGETS

if TYPE_CHECKING:
    from skillc_index.build.shapes import InitShape

GITIGNORE = ".gitignore"
#: What skillc writes inside ``.skillc/``, ignored one by one when git tracks files there
#: (skill sources kept in ``.skillc/skills/``).
_GENERATED = tuple(f"{SKILLC_DIR}/{name}" for name in ("runtime", "logs"))


class NameNeeded(WordedOption):
    """E100: a skill in the global store was asked for without its name (the global store
    holds skills; only a project folder is made without a name). The message names both
    parameters as the front end spells them: ``global needs a skill name`` (bare, as every
    argument is named inside E100's quotes), on the command line ``--global needs a skill
    NAME`` (NAME is its argument). The command line's missing argument: a usage error."""

    usage = True

    def worded(self, spelling: Spelling) -> str:
        if spelling.option_prefix:
            return f"{spelling.option('global')} needs a skill NAME"
        return "global needs a skill name"


@dataclass(frozen=True)
class InitResult:
    """What ``init`` did."""

    kind: Literal["project", "global", "skill"]
    """``project`` (the ``.skillc/`` structure), ``global`` (``init`` run in the skillc home,
    which is never a project: its store is the global store) or ``skill`` (a new SKILL.md)."""
    path: Path
    """The project's (or the global) ``.skillc/skills`` folder, or the new skill's folder."""
    created: bool
    """False when a project structure already existed (``init`` is idempotent)."""
    scope: Scope | None = None
    """For a skill: the store it was created in."""
    name: str | None = None
    gitignore: tuple[str, ...] = ()
    """The lines added to the project's ``.gitignore`` (none when all were there)."""
    notices: tuple[Notice, ...] = ()
    """Git could not say what it tracks there (:attr:`Appended.unanswered`)."""
    layout: Layout = field(kw_only=True, repr=False, compare=False)
    """The layout that holds what was made (not in :meth:`to_dict`): the one given, or, when
    init made the working folder a project, that layout with it as the project (what
    ``Layout.discover`` finds there now; the one given has no project and does not resolve
    the new skill: E001)."""

    @property
    def warnings(self) -> tuple[Notice, ...]:
        """What ``init`` warns about (the operation result protocol): git could not answer,
        so only skillc's own folders were added to ``.gitignore``."""
        return self.notices

    def to_dict(self) -> InitShape:
        return {
            "kind": self.kind,
            "name": self.name,
            "scope": self.scope,
            "path": str(self.path),
            "created": self.created,
            "gitignore": list(self.gitignore),
        }


def skill_template(name: str) -> str:
    """The minimal SKILL.md of RFC-0006: frontmatter, then ``# <Name>`` title-cased."""
    title = " ".join(part.capitalize() for part in name.split("-"))
    return f'---\nname: {name}\ndescription: "TODO: Add skill description"\n---\n\n# {title}\n'


def init_project(layout: Layout) -> InitResult:
    """Create ``.skillc/skills/`` in the working directory (succeed if it is already there)
    and add what skillc generates to its ``.gitignore`` (:func:`ignore_generated`); E012
    (nothing made) when a symlink there (``.skillc`` of a checkout) leads out of it."""
    skills = layout.new_project_store
    existed = skills.is_dir()
    if _in_home(layout):  # the global store: no project, no .gitignore in the home folder
        try:
            skills.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CannotCreate(str(skills), exc.strerror or str(exc)) from exc
        return InitResult(
            kind="global", path=skills, created=not existed, scope="global", layout=layout
        )
    _refuse_project_in_skill(layout)
    _require_working_folder(layout)
    if not within(skills, layout.cwd):  # a checkout's .skillc symlink leads out: E012
        raise PathEscapesProject(layout.display(skills), os.path.realpath(skills))
    check_gitignore(layout.cwd, layout)  # first: nothing made if it cannot be written
    said: list[str] = []  # what git could not answer: the warning
    from skillc_index.atomic import folders_made

    with folders_made(skills):  # the lines cannot be written (a full disk): none left
        try:
            _make_in_working_folder(layout, skills)
        except OSError as exc:
            raise CannotCreate(str(skills), exc.strerror or str(exc)) from exc
        added = ignore_generated(layout.cwd, layout, said)
    notices = tuple(Notice(text) for text in said)
    return InitResult(
        kind="project", path=skills, created=not existed, gitignore=added, notices=notices,
        layout=_project_here(layout),
    )  # fmt: skip


def _project_here(layout: Layout) -> Layout:
    """``layout`` once its working folder holds a project's ``.skillc/``: that folder is its
    project (the first one up from it, which ``Layout.discover`` finds, no other user's
    ``.skillc/`` passed over on the way)."""
    if layout.project_root == layout.cwd:
        return layout
    return layout._replace(project_root=layout.cwd, foreign=())


def _make_in_working_folder(layout: Layout, folder: Path) -> None:
    """Make ``folder`` (below the working folder) and its missing parents there, each in
    the folder before it, never the working folder itself: one removed since
    :func:`_require_working_folder` looked (``mkdir(parents=True)`` made it again) is E022,
    as is a part removed as it is made."""
    path = layout.cwd
    for part in folder.relative_to(layout.cwd).parts:
        path = path / part
        try:
            path.mkdir(exist_ok=True)
        except FileNotFoundError as exc:
            from skillc_index.diagnostics import SkillDirectoryNotFound

            raise SkillDirectoryNotFound(str(path.parent), "no such folder") from exc


def _require_working_folder(layout: Layout) -> None:
    """E022 unless the working folder a project would be made in is a folder: one never made
    (``Layout.discover`` looks from any path, a mistyped one too) or gone since is not made,
    nor its parents; a file is no folder either."""
    if not is_folder(layout.cwd):
        from skillc_index.diagnostics import SkillDirectoryNotFound

        why = "not a folder" if os.path.lexists(layout.cwd) else "no such folder"
        raise SkillDirectoryNotFound(str(layout.cwd), why)


def _in_home(layout: Layout) -> bool:
    """Whether the working directory is the skillc home: its ``.skillc`` holds the global
    store, and it is never a project."""
    return os.path.realpath(layout.cwd / SKILLC_DIR) == os.path.realpath(layout.global_dir)


def _refuse_project_in_skill(layout: Layout, name: str | None = None) -> None:
    """:class:`ProjectInSkill` (E100) when the working directory, which ``init`` would make
    a project, is in the skillc home's ``.skillc/`` (skillc's own: the global store and
    runtimes) or in a skill of an agent folder (a folder holding ``SKILL.md`` whose parent is
    one of :data:`~skillc_index.targets.KNOWN_TARGETS`' folders, ``~/.claude/skills/<name>``).
    A checkout whose root is a skill may be made a project (its ``.skillc/`` is hidden: never
    packaged)."""
    if within(layout.cwd, layout.global_dir):
        raise ProjectInSkill(f"skillc's own folder {layout.global_dir}", name)
    agents = KNOWN_TARGETS.values()
    folders = {path for agent in agents for path in (agent.project, agent.home) if path}
    for folder in (layout.cwd, *layout.cwd.parents):
        parent = folder.parent.as_posix()
        if any(parent.endswith(f"/{agent}") for agent in folders) and is_file(folder / SKILL_FILE):
            raise ProjectInSkill(f"the skill {folder}", name)


def default_agent_folders() -> tuple[str, ...]:
    """The project agent folders a build deploys into without ``target`` (relative)."""
    from skillc_index.build.deploy import parse_targets

    folders = (KNOWN_TARGETS[name].project for name in parse_targets(()))
    return tuple(folder for folder in folders if folder is not None)


def ignore_generated(root: Path, layout: Layout, said: list[str] | None = None) -> tuple[str, ...]:
    """Add to ``<root>/.gitignore`` the folders skillc generates (:func:`ignore_folders`):
    ``.skillc/`` itself is never ignored (its ``skills/`` holds the skill sources); its
    generated ``runtime/`` and ``logs/`` are, and in a git work tree the agent folders of the
    default targets (:func:`default_agent_folders`, where builds put their symlinks) that
    hold nothing but skillc's deployments. What git could not answer is appended to
    ``said`` (``init``'s warning: :attr:`Appended.unanswered`)."""
    added = ignore_folders(root, default_agent_folders(), layout, generated=_GENERATED)
    if said is not None:
        said.extend(added.unanswered)
    return added.lines


def _generated_lines(root: Path, text: str, layout: Layout) -> list[str]:
    """The lines :func:`ignore_generated` adds to a ``.gitignore`` holding ``text``."""
    return _to_add(root, text, default_agent_folders(), layout, _GENERATED, ())


def ignore_agent_folders(
    layout: Layout, deployed: Iterable[Path], said: list[str] | None = None
) -> tuple[str, ...]:
    """Add to the project's ``.gitignore`` the agent folder of each deployment of
    ``deployed`` (its path: ``<agent folder>/<name>``) that lies in the project (as written
    and as a real path), as :func:`ignore_folders` adds agent folders: the whole folder, or
    the deployments alone where the folder holds the user's skills too; returns the lines
    added. Never a folder outside the project (the home's, a path target elsewhere), the
    project itself, nor one in ``.skillc/``; nothing without a project. What git could not
    answer is appended to ``said`` (``build``'s notice), as :func:`ignore_generated` does."""
    project = layout.project_root
    if project is None:
        return ()
    folders: list[str] = []
    entries: list[str] = []
    for path in deployed:
        folder = path.parent
        if not (inside(str(folder), str(project)) and within(folder, project)):
            continue
        rel = Path(os.path.relpath(folder, project)).as_posix()
        if rel == "." or rel.split("/")[0] == SKILLC_DIR:
            continue
        if rel not in folders:
            folders.append(rel)
        entries.append(f"{rel}/{path.name}")
    if not folders:
        return ()
    added = ignore_folders(project, folders, layout, deployed=entries)
    if said is not None:
        said.extend(added.unanswered)
    return added.lines


class Appended(NamedTuple):
    """What :func:`ignore_folders` added to ``.gitignore``."""

    lines: tuple[str, ...] = ()
    """The lines added, in order (none: the file is as it was)."""
    made: bool = False
    """The file was made for them (it was not there)."""
    newline: bool = False
    """The file's last line had no newline: one was written before the lines."""
    unanswered: tuple[str, ...] = ()
    """Git could not answer in a work tree (:class:`~skillc_index._git.GitUnanswered`): the
    warning; only skillc's own folders were added, as outside a work tree."""


def ignore_folders(
    root: Path,
    folders: Sequence[str],
    layout: Layout,
    *,
    generated: Sequence[str] = (),
    deployed: Sequence[str] = (),
    files: Sequence[str] = (),
) -> Appended:
    """Add to ``<root>/.gitignore`` a line ``/<folder>/`` for each folder (relative to
    ``root``, ``/``-separated) not there already (``.skillc/logs``, ``/.skillc/logs`` and
    ``.skillc/logs/`` are one line); returns what was added.

    ``generated`` (skillc's own folders) are added unless git tracks files in them;
    ``folders`` (agent folders, which may hold the user's skills) only in a git work tree
    (``git ls-files``, run without a shell) where git tracks nothing in them and they hold
    nothing but deployments skillc made (:func:`_only_deployments`; a skill another tool
    installed is the user's). An agent folder that fails this gets instead a line
    ``/<folder>/<name>`` for each of its entries in ``deployed`` (what a build deployed
    there: a symlink, which a line ending in ``/`` would not match) that git does not track.
    ``files`` (a file skillc made: ``.claude/settings.local.json``) get a line ``/<file>``
    in a git work tree only, where git does not track it.
    A line for what git's rules ignore already (``git check-ignore``: a ``.skillc/`` line
    ignores ``.skillc/runtime/``) is not added. Without git, or outside a work tree, agent
    folders are left out. A line already there (the folder's, which may be the user's) is
    never removed nor repeated. Git runs only when a line may be added. The file is read
    once, under an exclusive lock held until the lines are appended (concurrent builds add a
    line once; what is decided, the newline before the lines included, is decided on the
    text written to); only appended to. CannotCreate (E999) when the file cannot be written,
    PathEscapesProject (E100) when it is a symlink leading out of ``root``.
    """
    path = check_gitignore(root)
    said: list[str] = []
    with _locked(path) as held:
        if held is not None:
            lines = _to_add(root, held.text, folders, layout, generated, deployed, said, files)
            return _append(held, lines)._replace(unanswered=tuple(said))
        lines = _to_add(root, "", folders, layout, generated, deployed, said, files)  # none yet
    if not lines:
        return Appended(unanswered=tuple(said))
    with _locked(path, create=True) as made:  # made for the lines (unless made meanwhile)
        assert made is not None  # create=True opens or raises
        return _append(made, _missing(made.text, lines))._replace(unanswered=tuple(said))


def _to_add(
    root: Path,
    text: str,
    folders: Sequence[str],
    layout: Layout,
    generated: Sequence[str],
    deployed: Sequence[str],
    said: list[str] | None = None,
    files: Sequence[str] = (),
) -> list[str]:
    """The lines :func:`ignore_folders` adds to a ``.gitignore`` holding ``text``. Where git
    cannot answer (:class:`~skillc_index._git.GitUnanswered`), those it adds outside a work
    tree (skillc's own folders), the warning appended to ``said``."""
    missing = _missing(text, (*generated, *folders, *files))
    # outside a work tree what is the user's cannot be told: agent folders are left out
    skillcs_only = [f"/{_ignore_key(folder)}/" for folder in missing if folder in generated]
    if not maybe_in_work_tree(root):  # none of them looked at
        return skillcs_only
    whole = [f for f in missing if f in generated or _only_deployments(root / f, layout)]
    entries = [entry for entry in _missing(text, deployed) if _folder_of(entry) in missing]
    new_files = [f for f in missing if f in files]
    if not (whole or entries or new_files):
        return []
    try:
        tracked = git_tracked(root, [*whole, *entries, *new_files])
    except GitUnanswered as exc:  # as outside a work tree: none of the user's folders
        if said is not None:
            what = f"what it tracks in {root}"
            said.append(f"{exc.asking(what)}; only skillc's own folders were added to .gitignore")
        return skillcs_only
    if tracked is None:  # no work tree after all
        return skillcs_only
    lines = []
    for folder in missing:
        if folder in whole and folder not in tracked:
            lines.append(f"/{_ignore_key(folder)}/")
        elif folder in new_files:
            lines.extend([f"/{_ignore_key(folder)}"] if folder not in tracked else [])
        elif folder not in generated:  # the user's skills are there too: only skillc's
            mine = (entry for entry in entries if _folder_of(entry) == folder)
            lines.extend(f"/{_ignore_key(entry)}" for entry in mine if entry not in tracked)
    if lines:  # what git ignores already (`.skillc/` holds `.skillc/runtime/`) gets no line
        try:
            ignored = git_ignored(root, [line[1:] for line in lines])
        except GitUnanswered:  # answered just now: a line more is harmless
            ignored = set()
        lines = [line for line in lines if line[1:] not in ignored]
    return lines


def _folder_of(entry: str) -> str:
    """The agent folder of a deployment ``<folder>/<name>``."""
    return entry.rpartition("/")[0]


def _only_deployments(folder: Path, layout: Layout) -> bool:
    """Whether the agent folder ``folder`` holds nothing but deployments skillc made (a link
    to a runtime, a copy of a stub: :func:`~skillc_index.inventory.deployed.deployed_source`)
    and the router of ``skc route``, or is not there. skillc's own temporary names
    (:func:`~skillc_index.atomic.temporary_pid`: a copy another build is writing, staged
    there) are passed over. Anything else (a skill folder, a link to a skill another tool
    installed, a file) is the user's; so is a folder that cannot be read."""
    from skillc_index.atomic import temporary_pid
    from skillc_index.inventory.deployed import ROUTER_MARK, ROUTER_NAME, deployed_source

    try:  # what is no link first: a user's skill is most often a folder, and one ends the look
        names = [e.name for e in sorted(os.scandir(folder), key=lambda e: e.is_symlink())]
    except FileNotFoundError:
        return True
    except OSError:
        return False
    for name in names:
        entry = folder / name
        if name == ROUTER_NAME and (entry / ROUTER_MARK).is_file():
            continue
        if temporary_pid(name) is not None:  # a batch's other build: a half-written copy
            continue
        if deployed_source(os.path.realpath(entry), layout, gone=True) is None:
            return False
    return True


def check_gitignore(root: Path, layout: Layout | None = None) -> Path:
    """``<root>/.gitignore``, once it is known that it can be added to, or the error that
    writing it would meet: PathEscapesProject (E012) for a symlink leading out of ``root``,
    CannotCreate (E999) for what is not a regular file (a folder, a FIFO) or is too large.
    Looked at, not read: ``init`` asks first, so that nothing is made when the file cannot
    be written, and the write reads it. With ``layout`` (``init``), also CannotCreate for a
    file this process may not write when :func:`ignore_generated` would add a line to it
    (read, and decided as that write decides: the agent folders of a git work tree too; a
    file whose lines, or git's rules, ignore them all needs no write)."""
    import stat

    path = root / GITIGNORE
    if not within(path, root):  # a symlink in the checkout leads out
        raise PathEscapesProject(GITIGNORE, os.path.realpath(path))
    try:
        found = path.stat()
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise CannotCreate(str(path), exc.strerror or str(exc)) from exc
    if not stat.S_ISREG(found.st_mode):
        raise CannotCreate(str(path), "not a regular file")
    if found.st_size > MAX_GITIGNORE_BYTES:
        raise CannotCreate(str(path), f"larger than {MAX_GITIGNORE_BYTES >> 20} MiB")
    if layout is not None:
        with _locked(path) as held:
            if held is not None and held.refused and _generated_lines(root, held.text, layout):
                raise CannotCreate(str(path), held.refused)
    return path


#: The most of a ``.gitignore`` read (a checkout's file: bounded like every input).
MAX_GITIGNORE_BYTES = 16 << 20


class _Held(NamedTuple):
    """``.gitignore`` opened and locked by :func:`_locked`, and its text."""

    path: Path
    handle: BinaryIO
    text: str
    made: bool
    refused: str | None
    """Why the file cannot be written (it was opened to be read only), or None."""


@contextlib.contextmanager
def _locked(path: Path, *, create: bool = False) -> Iterator[_Held | None]:
    """``path`` (a ``.gitignore``) opened for reading and writing under an exclusive lock
    (:func:`_lock`, held until the block ends), and its text, read once: None when there is
    no file, unless ``create`` (then it is made, and ``made`` says so). A file that may only
    be read is read (``refused`` says why it cannot be written: nothing may need writing).
    Only a regular file is opened (:func:`~skillc_index.files.regular_fd`, a symlink
    followed), without blocking (a FIFO hung ``build`` and ``init`` for ever): anything else,
    more than :data:`MAX_GITIGNORE_BYTES`, a failed open or a lock another process holds
    past :data:`GITIGNORE_LOCK_WAIT_S` is CannotCreate."""
    name = str(path)
    opened = functools.partial(regular_fd, name, None, name, follow=True, mode=0o666)
    made, refused = False, None
    try:
        if create:
            try:
                fd = opened(flags=os.O_RDWR | os.O_CREAT | os.O_EXCL)
                made = True
            except FileExistsError:
                fd = opened(flags=os.O_RDWR | os.O_CREAT)
        else:
            try:
                fd = opened(flags=os.O_RDWR)
            except OSError as exc:
                if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                    raise
                fd, refused = opened(), exc.strerror or str(exc)
    except FileNotFoundError:
        if create:
            raise CannotCreate(name, os.strerror(errno.ENOENT)) from None
        yield None
        return
    except NotARegularFile:
        raise CannotCreate(name, "not a regular file") from None
    except OSError as exc:
        raise CannotCreate(name, exc.strerror or str(exc)) from exc
    # unbuffered: a write that failed (a full disk) is not tried again, bare, at the close
    with os.fdopen(fd, "rb" if refused else "r+b", buffering=0) as handle:
        try:
            _lock(fd, name)
            data = b""
            while len(data) <= MAX_GITIGNORE_BYTES:
                more = handle.read(MAX_GITIGNORE_BYTES + 1 - len(data))
                if not more:
                    break
                data += more
        except OSError as exc:
            raise CannotCreate(name, exc.strerror or str(exc)) from exc
        if len(data) > MAX_GITIGNORE_BYTES:
            raise CannotCreate(name, f"larger than {MAX_GITIGNORE_BYTES >> 20} MiB")
        text = data.decode("utf-8", errors="surrogateescape")
        yield _Held(path, handle, text, made, refused)


def _missing(text: str, folders: Sequence[str]) -> list[str]:
    """The folders of ``folders`` that no line of ``text`` names, each once (its lines as git
    reads them: a lone ``\\r`` ends none)."""
    from skillc_index.glob import ignore_lines

    present = {_ignore_key(line) for line in ignore_lines(text)}
    missing: list[str] = []
    for folder in folders:
        key = _ignore_key(folder)
        if key not in present:
            present.add(key)
            missing.append(folder)
    return missing


def _append(held: _Held, lines: Sequence[str]) -> Appended:
    """Append ``lines`` to the file :func:`_locked` holds, after a newline ending its last
    line when it has none; each ends as the file's first line does (``\r\n`` or ``\n``).
    All or nothing: a write that fails (a full disk) is cut off the file again, and a file
    made for the lines is removed (CannotCreate)."""
    if not lines:
        return Appended()
    if held.refused:
        raise CannotCreate(str(held.path), held.refused)
    newline = bool(held.text) and not held.text.endswith("\n")
    first = held.text.find("\n")
    eol = "\r\n" if first > 0 and held.text[first - 1] == "\r" else "\n"
    data = ((eol if newline else "") + eol.join(lines) + eol).encode("utf-8", "surrogateescape")
    end = 0
    try:
        end = held.handle.seek(0, os.SEEK_END)
        write_all(held.handle, data)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(held.handle.fileno(), end)
            if held.made and end == 0:
                held.path.unlink()
        raise CannotCreate(str(held.path), exc.strerror or str(exc)) from exc
    return Appended(tuple(lines), held.made, newline)


def unignore_lines(
    root: Path, lines: Sequence[str], *, remove_empty: bool = False, newline: bool = False
) -> None:
    """Take out of ``<root>/.gitignore`` each line of ``lines``, once each: lines a command
    added and recorded (``route install``'s, taken out by ``route uninstall``); read and
    written under the lock :func:`ignore_folders` takes (:func:`_locked`). With ``newline``
    (the command ended the file's last line before adding its own), that newline goes too
    when the lines taken out were the file's last. The file goes when it is then empty and
    ``remove_empty`` (the command made it). One that cannot be read or written (not a
    regular file, a symlink leading out) is left as it is."""
    from skillc_index.diagnostics import SkillcError
    from skillc_index.glob import ignore_lines

    try:
        path = check_gitignore(root)
        with _locked(path) as held:
            if held is None or held.refused:  # nothing there, or it cannot be written
                return
            original = ignore_lines(held.text)  # as git reads them: the ones _append wrote
            removed: set[int] = set()
            for line in lines:
                found = [i for i, have in enumerate(original) if have.rstrip("\r\n") == line]
                removed.update([i for i in found if i not in removed][:1])
            kept = [have for i, have in enumerate(original) if i not in removed]
            last = removed and all(i in removed for i in range(min(removed), len(original)))
            if newline and last and kept:  # the lines were the last: the file ends as it did
                eol = "\r\n" if original[-1].endswith("\r\n") else "\n"  # as it was added
                kept[-1] = kept[-1].removesuffix(eol)
            if removed:
                held.handle.seek(0)
                held.handle.truncate()
                write_all(held.handle, "".join(kept).encode("utf-8", errors="surrogateescape"))
        if remove_empty and not kept:
            path.unlink()
    except (SkillcError, OSError):
        return


#: How long a command waits for another's lock on a ``.gitignore`` (held while it asks git
#: and appends: moments); then CannotCreate, naming the file.
GITIGNORE_LOCK_WAIT_S = 30.0


def _lock(fd: int, name: str) -> None:
    """An exclusive ``flock`` on ``fd`` (the ``.gitignore`` ``name``), released when it is
    closed (none where there is no ``flock``: Windows, or a file system without it), waited
    for at most :data:`GITIGNORE_LOCK_WAIT_S` (:func:`~skillc_index.locks.flock_within`):
    any user who may read the file can lock it, which hung ``init`` and ``build`` for ever;
    CannotCreate then."""
    from skillc_index.locks import flock_within

    if not flock_within(fd, GITIGNORE_LOCK_WAIT_S):
        waited = f"{GITIGNORE_LOCK_WAIT_S:g} s"
        reason = f"another process holds a lock on it (waited {waited}); try again when it is done"
        raise CannotCreate(name, reason)


def _ignore_key(line: str) -> str:
    """A ``.gitignore`` line as the folder it names: ``/.skillc/logs/`` -> ``.skillc/logs``."""
    return line.strip().strip("/")


def init_skill(name: str, layout: Layout, *, global_store: bool = False) -> InitResult:
    """Create ``<store>/<name>/SKILL.md`` from the template (E050 if it already exists).

    Without ``global_store`` the skill goes into the project store; with no project yet, the
    working directory becomes one (its ``.skillc/skills/`` is created and its ``.gitignore``
    updated as by :func:`init_project`): the result's ``layout`` then holds that project,
    and resolves the new skill where the ``layout`` given does not. A ``name`` that is no
    ``str`` is E100.
    """
    from skillc_index.arguments import checked

    require_skill_name(checked("name", name, {"type": "string"}))
    if global_store or _in_home(layout):  # the home first, as init_project: never a project
        scope: Scope = "global"
        store = layout.store("global")
    elif layout.project_root is not None:
        scope = "project"
        store = layout.store("project")
    else:
        scope = "project"
        store = layout.new_project_store
    folder = store / name
    project = layout.project_root or layout.cwd
    new_project = layout.project_root is None
    if scope == "project" and new_project:
        _require_working_folder(layout)
        _refuse_project_in_skill(layout, name)
    if scope == "project" and not within(folder, project):  # a symlink in the checkout leads out
        raise PathEscapesProject(layout.display(folder), os.path.realpath(folder))
    skill_file = folder / SKILL_FILE
    if skill_file.exists():
        raise SkillExists(name)
    added: tuple[str, ...] = ()
    said: list[str] = []
    if scope == "project" and new_project:
        check_gitignore(project, layout)  # first: nothing made if it cannot be written
        # before the skill: once it exists the project is no longer new, and a run stopped
        # between the two (Ctrl-C while git is asked) left the .gitignore without its lines
        added = ignore_generated(project, layout, said)
    from skillc_index.atomic import folders_made, write_file_atomic

    try:
        with folders_made(folder):  # SKILL.md cannot be written (a full disk): none left
            if new_project and scope == "project":  # the working folder is not made again
                _make_in_working_folder(layout, folder)
            else:
                folder.mkdir(parents=True, exist_ok=True)  # a file of that name: E999, not E050
            # never overwrite, even if another process created the file meanwhile; whole or
            # not at all (created, then written: a kill between the two left it empty)
            write_file_atomic(skill_file, skill_template(name).encode("utf-8"), replace=False)
    except FileExistsError as exc:
        if not folder.is_dir():
            raise CannotCreate(str(folder), os.strerror(errno.EEXIST)) from exc
        raise SkillExists(name) from exc
    except OSError as exc:
        raise CannotCreate(str(skill_file), exc.strerror or str(exc)) from exc
    notices = tuple(Notice(text) for text in said)
    made = _project_here(layout) if scope == "project" and new_project else layout
    return InitResult(
        kind="skill", path=folder, created=True, scope=scope, name=name, gitignore=added,
        notices=notices, layout=made,
    )  # fmt: skip
