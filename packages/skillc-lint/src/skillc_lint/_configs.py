"""Which config file configures a lint (:func:`nearest_config`, as ruff finds its own), the
folder it configures (:func:`config_root`), and whether it is a skill's own
(:func:`skills_own`), which cannot turn that skill's audit off. Only the standard library is
imported here: :mod:`skillc_lint.operations` imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_index import Layout

__all__ = ["config_root", "nearest_config", "skills_own"]


def nearest_config(
    start: Path, layout: Layout, cwd: Path, nearest: dict[Path, Path | None] | None = None
) -> Path | None:
    """The config file that configures the lint of ``start``: the one nearest it
    (:func:`skillc_index.find_config`); else, nothing being found above it, the one nearest
    ``cwd`` (the working folder, the language server's workspace folder) only when ``start``
    is inside the folder holding it (a skill that is a submodule of that repository, or a
    clone of its own in it: its walk ended at its ``.git``), as the project found from the
    working folder is used: a repository's ``pyproject.toml`` configures its submodules'
    skills, as its ``.skillc/config.toml`` does. Never for a skill of another repository,
    nor a global skill (in the skillc home, where its walk ended: a ``pyproject.toml`` above
    ``$SKILLC_HOME`` configures none, as :func:`~skillc_index.find_config` says). None when
    no walk finds one. ``nearest``: :func:`~skillc_index.find_config`'s. Each folder is
    compared by its real path, as :class:`~skillc_lint._baseline._Places` names them: a
    skill named through a symlink to the repository is still its skill."""
    import os
    from pathlib import Path

    from skillc_index import find_config

    found = find_config(start, layout, nearest)
    if found is not None:
        return found
    found = find_config(cwd, layout, nearest)
    if found is None:
        return None
    from skillc_index.files import real_path

    top, home = real_path(config_root(found)), real_path(layout.home)
    folder = Path(os.path.normpath(start.absolute()))  # (../other/skills/s leads out)
    for here in (folder, *folder.parents):  # compared as real paths: any spelling of them
        real = real_path(here)  # (../alias/mod/skill, alias a symlink to the repository)
        if real == top:
            return found  # a submodule's skill (or a clone's) of the working folder's project
        if real == home:
            return None  # a global skill
    return None  # another repository's skill


def config_root(file: Path) -> Path:
    """The folder a config file configures: its project's (``.skillc/config.toml``), the
    folder holding it (``pyproject.toml``, a file ``--config`` names)."""
    return file.parent.parent if file.parent.name == ".skillc" else file.parent


def skills_own(folder: Path, stop: Path | None) -> bool:
    """Whether the config file of ``folder`` (the folder it configures) is a skill's own:
    that folder, or one above it, holds a ``SKILL.md`` (a downloaded skill's
    ``pyproject.toml``, at its root or below: its ``[lint]`` cannot turn its own audit off,
    wherever the working folder is). The walk ends at a repository's root (``.git``) or
    ``stop`` (the home folder), each included."""
    for here in (folder, *folder.parents):
        if (here / "SKILL.md").is_file():
            return True
        if here == stop or (here / ".git").exists():
            return False
    return False
