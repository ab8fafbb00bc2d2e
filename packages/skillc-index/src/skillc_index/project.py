"""Where the project is: the walk up from a folder to the first ``.skillc/`` that makes its
folder a project root (DECISIONS "Paths and resolution"), and the ``.skillc/`` folders it
passes over: a global store's, and one another user owns (as git's ``safe.directory``).

:class:`~skillc_index.layout.Layout` and :func:`~skillc_index.layout.find_project_root` walk
with :func:`project_root_of`; :func:`~skillc_index.config.find_config` asks
:func:`may_hold_project` of a ``.skillc/config.toml`` it meets.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.layout import SKILLC_DIR, user_home

if TYPE_CHECKING:
    from skillc_index.layout import Layout


def project_root_of(current: Path, homes: tuple[Path, ...]) -> tuple[Path | None, tuple[Path, ...]]:
    """The first folder from ``current`` (a resolved path) up holding a ``.skillc/`` that is
    a project's (:func:`is_project_marker`), passing over the folders ``homes`` (the home
    folder and the user's own: their ``.skillc/`` is a global store) and a ``.skillc/`` of
    another user's (:func:`foreign`); None when there is none. Also the ``.skillc/``
    folders passed over as another user's, for a warning."""
    passed: list[Path] = []
    for folder in (current, *current.parents):
        if folder in homes or not is_project_marker(folder / SKILLC_DIR):
            continue
        if not foreign(folder / SKILLC_DIR):
            return folder, tuple(passed)
        passed.append(folder / SKILLC_DIR)
    return None, tuple(passed)


def is_project_marker(skillc_dir: Path) -> bool:
    """A ``.skillc/`` folder, unless all it holds is ``logs/``: the access-log fallback
    (RFC-0007:C-LOGGING) creates ``<cwd>/.skillc/logs/`` wherever a command ran, and that must
    not turn the working directory into a project."""
    try:
        names = [entry.name for entry in skillc_dir.iterdir()]
    except OSError:
        return False
    return names != ["logs"]


def foreign(path: Path) -> bool:
    """Whether ``path`` belongs to another user than the current one, root, or the owner of
    the folder holding it (never where files have no owner, Windows, nor when it cannot be
    looked at): anyone may make ``/tmp/.skillc`` in a folder they do not own; root's is
    trusted, as root may write the user's files anyway; and the ``.skillc/`` of a checkout
    is its owner's, whoever runs there (a CI container running as root over a checkout of
    uid 1001 keeps its project). A symlink there must pass both as itself and as what it
    leads to (another user's link to root's ``/tmp`` is theirs). As git's ``safe.directory``
    (CVE-2022-24765), for the folder an attacker could plant it in."""
    if not hasattr(os, "geteuid"):
        return False
    try:  # a link is judged by its own owner, then by its target's (/tmp/.skillc -> /tmp)
        owners = {path.lstat().st_uid, path.stat().st_uid}
        trusted = {os.geteuid(), 0, path.parent.stat().st_uid}
        return not owners <= trusted
    except OSError:
        return False


def may_hold_project(folder: Path, layout: Layout) -> bool:
    """Whether the ``.skillc/`` of ``folder`` (its ``config.toml`` included) may be a
    project's, as :func:`project_root_of` decides for ``layout``: not the home folder's nor
    the user's own home folder's (the default global store, while ``$SKILLC_HOME`` replaces
    it; the one ``layout`` was discovered with), and not another user's."""
    own = user_home() if layout.own_home is None else layout.own_home
    return folder not in (layout.home, own) and not foreign(folder / SKILLC_DIR)


def foreign_notice(skillc_dir: Path) -> str:
    """The warning for a ``.skillc/`` :func:`project_root_of` passed over as another user's."""
    return (
        f"{skillc_dir} is owned by another user, so it is not taken as the project: a "
        ".skillc/ counts only when the current user, root or the owner of its folder owns it "
        "(chown it if it is yours)"
    )
