"""What git tracks (``git ls-files``) and ignores (``git check-ignore``), run
without a shell: the one place skillc runs git. ``skc init`` keeps tracked folders out of
``.gitignore`` and adds no line for what it ignores already; a deployment never replaces a
tracked file, folder or symlink; an import leaves out of a store copy what git ignores in the
folder.

No program a repository's config names is run (a skill folder may ship its own ``.git``):
:data:`_NEUTRAL` turns off what would make the commands skillc runs start one."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

#: Config for every git run (``-c`` wins over every config file, those ``include.path`` and
#: ``includeIf`` pull in as well): no fsmonitor hook (``core.fsmonitor`` names a command git
#: runs through a shell as it reads the index; empty is "off" for git before 2.36, where
#: ``false`` would name a program, and after), no hooks (none is run by ``ls-files`` or
#: ``check-ignore``; ``post-index-change`` would be, if the index were written).
_NEUTRAL = ("-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null")

#: The environment added to the user's for every git run: no transport (a partial clone's
#: lazy fetch of a missing ``.gitignore`` would start ``ssh``, ``remote.*.uploadpack`` or an
#: ``ext::`` command its config names): ``GIT_ALLOW_PROTOCOL`` empty allows none, whatever the
#: config says; ``GIT_NO_LAZY_FETCH`` (git 2.44) says so earlier. The user's own ``GIT_DIR``,
#: ``GIT_WORK_TREE`` and ``GIT_CONFIG_*`` are kept: they are the user's, not a skill's (a
#: dotfiles repo named by ``GIT_DIR``; ``safe.directory`` given as ``GIT_CONFIG_KEY_0``).
_NEUTRAL_ENV = {"GIT_ALLOW_PROTOCOL": "", "GIT_NO_LAZY_FETCH": "1", "GIT_TERMINAL_PROMPT": "0"}


def tracked(root: Path, paths: Sequence[str]) -> set[str] | None:
    """Which of ``paths`` (relative to ``root``, ``/``-separated) git tracks, or holds
    tracked files; None when ``root`` is in no git work tree or git cannot be run.

    An argument list, ``--`` before the paths and ``--literal-pathspecs``: no shell, no path
    read as an option, a glob or pathspec magic (``*``, ``:(top)``). Git is not started when
    no ``.git`` is in ``root`` or a folder above it and no ``GIT_DIR`` says where one is
    (what git's own discovery looks for: a build in a folder outside git costs no process).
    """
    files = _git(root, ["--literal-pathspecs", "ls-files", "-z", "--", *paths])
    if files is None:
        return None
    return {
        path for path in paths if any(name == path or name.startswith(path + "/") for name in files)
    }


def ignored(root: Path, paths: Sequence[str]) -> set[str]:
    """Which of ``paths`` (relative to ``root``, ``/``-separated; a folder written with a
    trailing ``/``, as a rule ``/x/`` matches only a folder) git's ignore rules ignore already
    (``.skillc/`` ignores ``.skillc/runtime/``): none when ``root`` is in no work tree or git
    cannot be run. The paths are read from stdin, NUL-separated (``--stdin -z``)."""
    found = _git(root, ["check-ignore", "-z", "--stdin", "--no-index"], "\0".join(paths))
    return set(found or ()) & set(paths)


def ignored_below(root: Path, paths: Sequence[str]) -> set[str]:
    """Which of ``paths`` (relative to the folder ``root``, none through a symlink) a commit
    of the work tree holding ``root`` leaves out: by all of git's ignore rules (the
    ``.gitignore`` files above ``root`` and in it, ``.git/info/exclude``,
    ``core.excludesFile``), a tracked file never. An empty set when ``root`` itself is
    ignored (so is all it holds, which says nothing of each), in no work tree, or git cannot
    answer. Git is asked about ``root`` itself (apart: a path above the top of the work tree
    fails the whole call) only when some path is ignored: one process for a folder in git
    that ignores none of it."""
    if not paths:
        return set()
    found = set(_git(root, ["check-ignore", "-z", "--stdin"], "\0".join(paths)) or ())
    found &= set(paths)
    name = Path(os.path.realpath(root)).name  # the name git knows it by (root may be a link)
    if found and _git(root, ["check-ignore", "-z", "--stdin"], f"../{name}/"):
        return set()
    return found


def _git(root: Path, args: Sequence[str], stdin: str | None = None) -> list[str] | None:
    """The NUL-separated names ``git -C root ARGS`` prints (exit 1 counts as none: what
    ``check-ignore`` says when nothing matches); None when ``root`` is in no work tree, git
    cannot be run or fails. Run with :data:`_NEUTRAL` and :data:`_NEUTRAL_ENV`: nothing a
    repository's config names is run."""
    from skillc_index.programs import on_path

    real = os.path.realpath(root)  # a stow-folded agent folder: git runs where the files are
    git = on_path("git") if maybe_in_work_tree(Path(real)) else None
    if git is None:
        return None  # outside git: not even subprocess imported (3.6 ms of every build)
    import subprocess

    data = None if stdin is None else stdin.encode("utf-8", "surrogateescape")
    try:
        done = subprocess.run(
            [git, *_NEUTRAL, "-C", real, *args],
            input=data,
            stdin=subprocess.DEVNULL if data is None else None,
            capture_output=True,
            timeout=60,
            check=False,
            env={**os.environ, **_NEUTRAL_ENV},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode not in (0, 1) or (done.returncode == 1 and stdin is None):
        return None
    return [name for name in done.stdout.decode("utf-8", "surrogateescape").split("\0") if name]


def maybe_in_work_tree(root: Path) -> bool:
    """Whether ``root`` may be in a git work tree: ``GIT_DIR`` is set, or ``root``'s real path
    or a folder above it holds a ``.git`` (a folder, or a file: worktrees and submodules).
    The real path, as git looks: ``~/.claude/skills`` linked into a dotfiles repo (GNU stow)
    is in that repo's work tree, though no folder above the link's own path is."""
    if os.environ.get("GIT_DIR"):
        return True
    folder = os.path.realpath(root)
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):  # noqa: PTH118
            return True
        parent = os.path.dirname(folder)  # noqa: PTH120
        if parent == folder:
            return False
        folder = parent
