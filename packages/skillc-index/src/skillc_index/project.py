"""Where the project is: the walk up from a folder to the first ``.skillc/`` that makes its
folder a project root (DECISIONS "Paths and resolution"), and the ``.skillc/`` folders it
passes over: a global store's, and one another user owns (as git's ``safe.directory``).

:class:`~skillc_index.layout.Layout` and :func:`~skillc_index.layout.find_project_root` walk
with :func:`project_root_of`; :func:`~skillc_index.config.find_config` asks
:func:`may_hold_project` of a ``.skillc/config.toml`` it meets.

:func:`foreign` is the one rule of what another user owns, for every folder skillc reads its
user's state from: a project's ``.skillc/``, the skillc home (:func:`foreign_home`: every
command refuses another user's), a fallback access log's folders (:func:`foreign_below`:
neither written nor synced) and skillc-lint's result cache (never trusted).
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
        owners = {owner(path, follow=False), owner(path)}
        trusted = {os.geteuid(), 0, owner(path.parent)}
        return not owners <= trusted
    except OSError:
        return False


def owner(path: Path, *, follow: bool = True) -> int:
    """The user id owning ``path`` (with ``follow=False``, a symlink's own): the one lookup
    :func:`foreign` makes (tests replace it to play another user). ``OSError`` when it
    cannot be looked at."""
    # os, not pathlib: every command asks it (a Path.stat is a few calls more)
    return (os.stat(path) if follow else os.lstat(path)).st_uid  # noqa: PTH116


def foreign_below(base: Path, path: Path) -> Path | None:
    """The first entry from ``base`` (excluded) down to ``path`` (included) that is
    :func:`foreign`, looking no further than what exists; None when there is none. A
    fallback access log (``<base>/.skillc/logs/<skill>/.skillc-meta/logs.db``) in a folder
    another user made (``/tmp/.skillc/logs``, planted to read the queries, or to hand forged
    rows to ``sync``) is neither written nor synced."""
    here = base
    for part in path.relative_to(base).parts:
        here = here / part
        if not os.path.lexists(here):
            return None
        if foreign(here):
            return here
    return None


def foreign_home(home: Path, own: Path) -> Path | None:
    """The first of the skillc home's folders and files that is :func:`foreign`, or None: the
    home folder itself when ``$SKILLC_HOME`` names it (``home`` is not ``own``, the user's
    own home folder, which the system gives: a predictable ``/tmp/skc-ci`` another user made
    first), its ``.skillc/`` and that folder's ``config.toml`` (whose ``[stats] url`` gets
    the user's usage rows). Judged as a project's ``.skillc/`` is: root's and the
    current user's count, and one owned by the owner of its folder (root in a CI container
    over a home of uid 1001)."""
    store = home / SKILLC_DIR
    judged = [store, store / "config.toml"] if home == own else [home, store, store / "config.toml"]
    return next((path for path in judged if foreign(path)), None)


def refuse_foreign_home(home: Path, own: Path) -> None:
    """Raise :class:`~skillc_index.command_errors.ForeignHome` (E999) when
    :func:`foreign_home` finds a part of the skillc home another user owns: what
    :meth:`~skillc_index.layout.Layout.discover` asks for every command."""
    found = foreign_home(home, own)
    if found is not None:
        from skillc_index.command_errors import ForeignHome
        from skillc_index.layout import shown

        raise ForeignHome(shown(str(home)), shown(str(found)), owner_name(found))


def owner_name(path: Path) -> str:
    """Who owns ``path``, for a message: the user's name and id (the id alone when it has no
    name; ``uid unknown`` when it cannot be looked at)."""
    try:  # a link's own owner, else its target's (whichever is another user)
        uids = [owner(path, follow=False), owner(path)]
    except OSError:
        return "uid unknown"
    uid = next((uid for uid in uids if uid not in (os.geteuid(), 0)), uids[0])
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name}, uid {uid}"
    except (ImportError, KeyError):
        return f"uid {uid}"


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
