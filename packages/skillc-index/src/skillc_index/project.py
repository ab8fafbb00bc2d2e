"""Where the project is: the walk up from a folder to the first ``.skillc/`` that makes its
folder a project root (DECISIONS "Paths and resolution"), passing over a global store's.

:class:`~skillc_index.layout.Layout` and :func:`~skillc_index.layout.find_project_root` walk
with :func:`project_root_of`; :func:`~skillc_index.config.find_config` asks
:func:`may_hold_project` of a ``.skillc/config.toml`` it meets.
"""

from __future__ import annotations

from pathlib import Path

from skillc_index.layout import SKILLC_DIR, user_home


def project_root_of(current: Path, homes: tuple[Path, ...]) -> Path | None:
    """The first folder from ``current`` (a resolved path) up holding a ``.skillc/`` that is
    a project's (:func:`is_project_marker`), passing over the folders ``homes`` (the home
    folder and the user's own: their ``.skillc/`` is a global store); None when there is
    none."""
    for folder in (current, *current.parents):
        if folder not in homes and is_project_marker(folder / SKILLC_DIR):
            return folder
    return None


def is_project_marker(skillc_dir: Path) -> bool:
    """A ``.skillc/`` folder, unless all it holds is ``logs/``: the access-log fallback
    (RFC-0007:C-LOGGING) creates ``<cwd>/.skillc/logs/`` wherever a command ran, and that must
    not turn the working directory into a project."""
    try:
        names = [entry.name for entry in skillc_dir.iterdir()]
    except OSError:
        return False
    return names != ["logs"]


def may_hold_project(folder: Path, home: Path) -> bool:
    """Whether the ``.skillc/`` of ``folder`` (its ``config.toml`` included) may be a
    project's, as :func:`project_root_of` decides: not the home folder's (``home``) nor the
    user's own home folder's (the default global store, while ``$SKILLC_HOME`` replaces it)."""
    return folder not in (home, user_home())
