"""What git tracks (``git ls-files``) and ignores (``git check-ignore``), run
without a shell: the one place skillc runs git. ``skc init`` keeps tracked folders out of
``.gitignore`` and adds no line for what it ignores already; a deployment never replaces a
tracked file, folder or symlink; an import leaves out of a store copy what git ignores in the
folder.

Three answers (:func:`_git`): no work tree (no ``.git`` in the folder or above it: git is not
started), git's answer, or :class:`GitUnanswered` where a ``.git`` marks a work tree but git
cannot answer (the checkout is another user's: "detected dubious ownership"; git is not on
``PATH``; git fails). A caller that would replace, move or leave out what git might track or
ignore refuses then (fail closed), never reads it as "nothing tracked".

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
#: ``safe.bareRepository=explicit`` (git 2.38): a skill folder shaped like a bare repository
#: (``HEAD``, ``objects/``, ``refs/``, a ``config`` whose ``core.worktree`` names another
#: folder) is not taken for the repository before the ``.git`` above it.
_NEUTRAL = (
    "-c",
    "core.fsmonitor=",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "safe.bareRepository=explicit",
)

#: The environment added to the user's for every git run: no transport (a partial clone's
#: lazy fetch of a missing ``.gitignore`` would start ``ssh``, ``remote.*.uploadpack`` or an
#: ``ext::`` command its config names): ``GIT_ALLOW_PROTOCOL`` empty allows none, whatever the
#: config says; ``GIT_NO_LAZY_FETCH`` (git 2.44) says so earlier. The user's own ``GIT_DIR``,
#: ``GIT_WORK_TREE`` and ``GIT_CONFIG_*`` are kept: they are the user's, not a skill's (a
#: dotfiles repo named by ``GIT_DIR``; ``safe.directory`` given as ``GIT_CONFIG_KEY_0``).
_NEUTRAL_ENV = {
    "GIT_ALLOW_PROTOCOL": "",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "LC_ALL": "C",  # git's messages untranslated: :data:`_NO_REPOSITORY` is read
}

NO_GIT = "git is not on PATH"

#: What git says (``LC_ALL=C``) when it found no repository in the folder or above it (a
#: ``.git`` that is none, a mount point it does not cross): no work tree, git's own answer.
#: Not "not a git repository: <path>", a ``.git`` file naming a repository that is gone.
_NO_REPOSITORY = b"fatal: not a git repository (or any "


class GitUnanswered(Exception):
    """Git could not answer where a ``.git`` marks a work tree: ``reason`` is git's own (its
    whole ``fatal:`` message, ``fatal: `` left out, bounded and escaped) or :data:`NO_GIT`;
    ``top`` is the folder the ``.git`` is in (what ``safe.directory`` names); ``ran``: git
    ran and failed there (not: it could not be started or did not answer in time); ``bare``:
    the folder git would not take for a bare repository, as git named it (not escaped), or
    None."""

    def __init__(
        self, top: str, reason: str, *, ran: bool = False, bare: str | None = None
    ) -> None:
        super().__init__(reason)
        self.top = top
        self.reason = reason
        self.ran = ran
        self.bare = bare

    @property
    def hint(self) -> str:
        """What to do about it, for the hint of the error that refuses: ``safe.directory``
        only where git says the checkout is another user's; only what to do where git named
        the folder shaped like a bare repository (``bare``: the reason names it, not twice);
        every path a shell word, escaped (:func:`~skillc_index.text.shell_word`: a space or a
        newline in it neither breaks the command nor the one line of the hint)."""
        from skillc_index.text import shell_word

        if self.reason == NO_GIT:
            return "install git, or put it on PATH"
        top = shell_word(self.top)
        if _DUBIOUS in self.reason:
            add = f"git config --global --add safe.directory {top}"
            return f"`{add}` or run as the checkout's owner"
        if self.bare is not None:  # safe.bareRepository=explicit (:data:`_NEUTRAL`)
            return "move it out of the skill, or remove it"  # the reason names the folder
        if _BARE in self.reason:  # (git's words other than this code reads)
            return "a folder there is shaped like a bare git repository: move it out"
        if not self.ran:
            return f"check that `git -C {top} status` runs"
        dot_git = shell_word(os.path.join(self.top, ".git"))  # noqa: PTH118
        return (
            f"git fails there: repair {dot_git} (`git -C {top} status` says what is wrong), "
            "or remove it if the folder is no checkout (a copied submodule's .git file)"
        )

    def asking(self, what: str) -> str:
        """``cannot ask git <what>: <reason>; <hint>``: the words of every refusal."""
        return f"cannot ask git {what}: {self.reason}; {self.hint}"


#: What git says (``LC_ALL=C``) of a checkout another user owns.
_DUBIOUS = "detected dubious ownership"
#: What git says of a folder shaped like a bare repository it was started in (``_NEUTRAL``).
_BARE = "cannot use bare repository"


def tracked(root: Path, paths: Sequence[str]) -> set[str] | None:
    """Which of ``paths`` (relative to ``root``, ``/``-separated) git tracks, or holds
    tracked files; None when ``root`` is in no git work tree; :class:`GitUnanswered` when
    git cannot answer there.

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
    (``.skillc/`` ignores ``.skillc/runtime/``): none when ``root`` is in no work tree;
    :class:`GitUnanswered` when git cannot answer. The paths are read from stdin,
    NUL-separated (``--stdin -z``)."""
    found = _git(root, ["check-ignore", "-z", "--stdin", "--no-index"], "\0".join(paths))
    return set(found or ()) & set(paths)


def ignored_below(root: Path, paths: Sequence[str]) -> set[str]:
    """Which of ``paths`` (relative to the folder ``root``, none through a symlink) a commit
    of the work tree holding ``root`` leaves out: by all of git's ignore rules (the
    ``.gitignore`` files above ``root`` and in it, ``.git/info/exclude``,
    ``core.excludesFile``), a tracked file never. An empty set when ``root`` itself is
    ignored (so is all it holds, which says nothing of each) or in no work tree;
    :class:`GitUnanswered` when git cannot answer. Git is asked about ``root`` itself (apart:
    a path above the top of the work tree fails the whole call, which then reads as "not
    ignored": what git ignores in it is left out) only when some path is ignored: one process
    for a folder in git that ignores none of it."""
    if not paths:
        return set()
    found = set(_git(root, ["check-ignore", "-z", "--stdin"], "\0".join(paths)) or ())
    found &= set(paths)
    if not found:
        return found
    name = Path(os.path.realpath(root)).name  # the name git knows it by (root may be a link)
    try:
        whole = _git(root, ["check-ignore", "-z", "--stdin"], f"../{name}/")
    except GitUnanswered:
        whole = None  # root is the top of its work tree (git answered just now)
    return set() if whole else found


def _git(root: Path, args: Sequence[str], stdin: str | None = None) -> list[str] | None:
    """The NUL-separated names ``git -C root ARGS`` prints (exit 1 of a command given
    ``stdin`` counts as none: what ``check-ignore`` says when nothing matches); None when
    ``root`` is in no work tree (:func:`work_tree_mark`: git is not started);
    :class:`GitUnanswered` when it is in one and git is not on ``PATH``, cannot be started or
    fails. Run with :data:`_NEUTRAL` and :data:`_NEUTRAL_ENV`: nothing a repository's config
    names is run."""
    from skillc_index.programs import on_path

    real = os.path.realpath(root)  # a stow-folded agent folder: git runs where the files are
    top = _mark_above(real)
    if top is None:
        return None  # outside git: not even subprocess imported (3.6 ms of every build)
    git = on_path("git")
    if git is None:
        raise GitUnanswered(top, NO_GIT)
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
    except subprocess.TimeoutExpired:
        raise GitUnanswered(top, "git did not answer within 60 seconds") from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitUnanswered(top, f"git cannot be run: {exc}") from None
    if done.returncode not in (0, 1) or (done.returncode == 1 and stdin is None):
        if done.stderr.startswith(_NO_REPOSITORY):
            return None  # git's own answer: the .git found is none (no HEAD), nor any above
        reason = _reason(done.stderr, done.returncode)
        raise GitUnanswered(top, reason, ran=True, bare=_bare_folder(done.stderr))
    return [name for name in done.stdout.decode("utf-8", "surrogateescape").split("\0") if name]


#: The most of git's stderr read for its reason (its message quotes a path: bounded).
_MAX_STDERR = 8192


def _reason(stderr: bytes, code: int) -> str:
    """Git's reason: its whole ``fatal:`` message (to the end of ``stderr``: a path it quotes
    may hold a newline; ``fatal: `` left out, as is the ``safe.directory`` command git
    suggests, the hint's), else its first line, else its exit status; cut and its control
    characters, newlines included, escaped (:func:`~skillc_index.layout.shown`): one line,
    which a path a skill's ``.git`` file names cannot break into lines of its own."""
    from skillc_index.layout import shown

    text = stderr[:_MAX_STDERR].decode("utf-8", "replace").strip()
    at = 0 if text.startswith("fatal: ") else text.find("\nfatal: ") + 1  # 0: none
    if text.startswith("fatal: ", at):
        text = text[at + len("fatal: ") :].split("\nTo add an exception for this directory")[0]
    elif text:
        text = text.splitlines()[0].removeprefix("error: ")
    return shown(text or f"git exited with status {code}")


def _bare_folder(stderr: bytes) -> str | None:
    """The folder git's ``fatal: cannot use bare repository '<folder>' (safe.bareRepository
    is 'explicit')`` names (read up to :data:`_MAX_STDERR`, a quote in it kept), else None."""
    text = stderr[:_MAX_STDERR].decode("utf-8", "surrogateescape")
    start = text.find(f"fatal: {_BARE} '")
    end = text.rfind("' (safe.bareRepository")
    if start < 0 or end < start:
        return None
    return text[start + len(f"fatal: {_BARE} '") : end]


def work_tree_mark(root: Path) -> str | None:
    """The folder whose ``.git`` (a folder, or a file: worktrees and submodules) marks
    ``root``'s real path as in a git work tree, the nearest above it; ``root`` when
    ``GIT_DIR`` is set; None when neither (no work tree: git is not asked). The real path, as
    git looks: ``~/.claude/skills`` linked into a dotfiles repo (GNU stow) is in that repo's
    work tree, though no folder above the link's own path is."""
    return _mark_above(os.path.realpath(root))


def _mark_above(folder: str) -> str | None:
    """:func:`work_tree_mark` of ``folder``, a real path already (not resolved again)."""
    if os.environ.get("GIT_DIR"):
        return folder
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):  # noqa: PTH118
            return folder
        parent = os.path.dirname(folder)  # noqa: PTH120
        if parent == folder:
            return None
        folder = parent


def maybe_in_work_tree(root: Path) -> bool:
    """Whether ``root`` may be in a git work tree (:func:`work_tree_mark`)."""
    return work_tree_mark(root) is not None
