"""What git tracks, asked of ``git ls-files`` (run without a shell): the one place skillc
runs git. ``skc init`` keeps tracked folders out of ``.gitignore``; a deployment never
replaces a tracked file, folder or symlink."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def tracked(root: Path, paths: Sequence[str]) -> set[str] | None:
    """Which of ``paths`` (relative to ``root``, ``/``-separated) git tracks, or holds
    tracked files; None when ``root`` is in no git work tree or git cannot be run.

    An argument list, ``--`` before the paths and ``--literal-pathspecs``: no shell, no path
    read as an option, a glob or pathspec magic (``*``, ``:(top)``). Git is not started when
    no ``.git`` is in ``root`` or a folder above it and no ``GIT_DIR`` says where one is
    (what git's own discovery looks for: a build in a folder outside git costs no process).
    """
    import subprocess

    from skillc_index.programs import on_path

    git = on_path("git") if _maybe_in_work_tree(root) else None
    if git is None:
        return None
    try:
        done = subprocess.run(
            [git, "--literal-pathspecs", "-C", str(root), "ls-files", "-z", "--", *paths],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    files = [name for name in done.stdout.decode("utf-8", "surrogateescape").split("\0") if name]
    return {
        path for path in paths if any(name == path or name.startswith(path + "/") for name in files)
    }


def _maybe_in_work_tree(root: Path) -> bool:
    """Whether ``root`` may be in a git work tree: ``GIT_DIR`` is set, or ``root`` or a folder
    above it holds a ``.git`` (a folder, or a file: worktrees and submodules)."""
    import os

    if os.environ.get("GIT_DIR"):
        return True
    folder = os.path.abspath(root)  # noqa: PTH100
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):  # noqa: PTH118
            return True
        parent = os.path.dirname(folder)  # noqa: PTH120
        if parent == folder:
            return False
        folder = parent
