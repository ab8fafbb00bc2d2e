"""Where a model may read: the folders and files a model names in a tool's arguments (MCP
``skc_find``'s and ``skc_eval``'s ``path``, a skill given as a path to any tool,
``skc_lint``'s ``baseline``) must really lie (symlinks followed) in the project, the working
folder (where the user started the server), the home folder, a folder of installed skills or
a ``$SKILL_ROUTING_ROOTS`` folder (:func:`model_folders`); any other is
:class:`PathNotSearched` (E100) before anything is read (:func:`confine`). The command line's
paths are the user's, never confined.

A folder of installed skills (:func:`~.folders.search_roots`) counts whole, each of its
descendants, but for a project's store or agent folder that leads out of the project
(:func:`~.folders.in_project`: a checkout's ``.gemini/skills -> /tmp``): that one counts
only for the skills its agent loads from it, the inventory's entries of it
(:func:`~.entries.root_listing`), each skill's folder and below; never for the folder the
checkout's link names (a model's ``path: ["/tmp"]`` walked all of ``/tmp``, and ``skc_open``
read another user's skill there), nor its other entries. A home agent folder that is a link
(a dotfile manager's ``~/.claude/skills -> ~/dotfiles/claude/skills``) is the user's own,
and counts whole; so does a plugin's skills folder (Claude Code's records are the user's).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.option_errors import InvalidOption

if TYPE_CHECKING:
    from skillc_index.inventory.folders import Root
    from skillc_index.layout import Layout

__all__ = ["PathNotSearched", "confine", "model_folders", "readable", "skill_folders"]


class PathNotSearched(InvalidOption):
    """E100: a folder or file a model named in a tool's argument (MCP ``skc_find``'s or
    ``skc_eval``'s ``path``, a skill's path, ``skc_lint``'s ``baseline``) that lies outside the
    project, the working folder, the home folder and the folders of installed skills
    (:func:`confine`)."""

    def __init__(
        self, given: str, real: str, command: str = "find", option: str = "--path DIR"
    ) -> None:
        where = "is" if os.path.abspath(given) == real else f"leads to {real},"  # noqa: PTH100
        super().__init__(
            f"path '{given}' {where} outside the project, the working folder, the home folder "
            "and the folders of installed skills, which are all this server reads (the user "
            f"can give any folder: 'skc {command} {option}')"
        )
        self.given = given
        self.real = real


def confine(
    given: str,
    path: Path,
    allowed: Sequence[Path],
    command: str = "find",
    option: str = "--path DIR",
) -> None:
    """:class:`PathNotSearched` (E100) for a folder or file a model gave ``command`` (its
    ``option``; ``path``: ``given`` from the working directory) that does not really lie
    (symlinks followed) in a folder of ``allowed`` (:func:`model_folders`): a model does not
    walk the disk (nor fill the user's catalog with every skill on it), nor read a folder
    that is no skill of the user's."""
    from skillc_index.files import real_path

    if not readable(path, allowed):
        raise PathNotSearched(given, real_path(path), command, option)


def readable(path: Path | str, allowed: Sequence[Path]) -> bool:
    """Whether ``path`` really lies (symlinks followed) in a folder of ``allowed``
    (:func:`model_folders`): what a model may read, and what :func:`confine` refuses else
    (``skc_eval`` leaves out a skill behind a router that does not)."""
    from skillc_index.files import within

    return any(within(path, base) for base in allowed)


def model_folders(layout: Layout, roots: Sequence[Root]) -> tuple[Path, ...]:
    """The folders a model may read (:func:`confine`): the working folder, the home, the
    folders of ``roots`` (the inventory's: :func:`skill_folders`), the
    ``$SKILL_ROUTING_ROOTS`` folders and the project; the working folder and the project
    only when neither is ``/`` nor holds the home folder (a server started in ``/``); a
    home (``$SKILLC_HOME`` when set) that is ``/`` (``HOME=/``: a service's, a container
    user's with no home entry) or holds the user's home only for its ``.skillc`` (its
    agent folders are among ``roots``)."""
    from skillc_index.inventory.folders import holds_home, routing_roots

    # `/` or a folder holding the home (`/home`) is no project (:func:`~.folders.holds_home`)
    cwd = () if holds_home(layout.cwd, layout) else (layout.cwd,)
    root = layout.project_root
    project = () if root is None or holds_home(root, layout) else (root,)
    home = layout.global_dir if holds_home(layout.home, layout) else layout.home
    read = skill_folders(layout, roots)
    return (*cwd, home, *read, *map(Path, routing_roots()), *project)


def skill_folders(layout: Layout, roots: Sequence[Root]) -> list[Path]:
    """The folders of installed skills ``roots`` a model may read (see the module): each
    root, but a project's store or agent folder leading out of the project, which gives the
    real folders of its skills instead (none when it holds none, or is not there)."""
    from skillc_index.inventory.folders import in_project

    found: list[Path] = []
    for root in roots:
        if root.scope != "project" or root.kind == "plugin" or in_project(root.path, layout):
            found.append(root.path)
            continue
        from skillc_index.inventory.entries import root_listing  # a checkout's link out

        found += (location.real for location in root_listing(root, layout).locations)
    return found
