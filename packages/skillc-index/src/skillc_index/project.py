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

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.homes import user_home
from skillc_index.layout import SKILLC_DIR

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


def foreign(path: Path, *, folder_owner: bool = True) -> bool:
    """Whether ``path`` belongs to another user than the current one, root, or (with
    ``folder_owner``) the owner of the folder holding it (never where files have no owner,
    Windows; nor when nothing is there): anyone may make ``/tmp/.skillc`` in a folder they
    do not own; root's is trusted, as root may write the user's files anyway; and the
    ``.skillc/`` of a checkout is its owner's, whoever runs there (a CI container running as
    root over a checkout of uid 1001 keeps its project). A symlink there is judged by its
    own owner first (another user's link is theirs, whatever it leads to, a dangling one
    too), then by what it leads to (another user's link to root's ``/tmp`` is theirs; the
    user's own link to another user's folder is theirs too). A link of a trusted owner (the
    user's own, root's) leading nowhere is as nothing there (``~/.skillc/config.toml`` linked
    to a dotfile not there: no config); what cannot be looked at (another user's link
    leading nowhere, a link leading round, a folder that may not be searched) is foreign:
    every answer decides where skillc writes, and "cannot tell" must not open a way in. As
    git's ``safe.directory`` (CVE-2022-24765), for the folder an attacker could plant it in."""
    if not hasattr(os, "geteuid"):
        return False
    try:
        itself = owner(path, follow=False)
    except (FileNotFoundError, NotADirectoryError):
        return False  # nothing there (yet): whatever skillc makes there is its user's
    except OSError:
        return True  # there, and cannot be looked at
    trusted = {os.geteuid(), 0}
    if folder_owner:
        with contextlib.suppress(OSError):  # the folder's owner unknown: only the two
            trusted.add(owner(path.parent))
    if itself not in trusted:
        return True
    try:
        return owner(path) not in trusted
    except (FileNotFoundError, NotADirectoryError):
        return False  # a trusted link leading nowhere: as nothing there
    except OSError:  # a link leading round, or past a folder that may not be searched
        return True


def owner(path: Path, *, follow: bool = True) -> int:
    """The user id owning ``path`` (with ``follow=False``, a symlink's own): the one lookup
    :func:`foreign` makes (tests replace it to play another user). ``OSError`` when it
    cannot be looked at."""
    # os, not pathlib: every command asks it (a Path.stat is a few calls more)
    return (os.stat(path) if follow else os.lstat(path)).st_uid  # noqa: PTH116


def first_foreign(path: Path, top: Path, *, folder_owner: bool = True) -> Path | None:
    """The first entry from ``top`` (excluded) down to ``path`` (included) that is
    :func:`foreign` (``folder_owner`` as there); None when there is none: the one walk over
    a path's folders, for the skillc home, the lint cache (from :func:`trusted_top`) and a
    fallback access log (from its base). An entry that cannot be looked at (its folder may
    not be searched: ``EACCES``) is foreign, as :func:`foreign` rules; one not there
    (``ENOENT``, ``ENOTDIR``) is not, nor is anything below it. Each entry is looked at once,
    by :func:`foreign` (every command asks this of the skillc home)."""
    if not hasattr(os, "geteuid"):
        return None
    here = top
    for part in path.relative_to(top).parts:
        here = here / part
        if foreign(here, folder_owner=folder_owner):
            return here
    return None


def trusted_top(path: Path, own: Path) -> Path:
    """Where :func:`first_foreign` starts judging the folders of ``path`` (absolute): the
    user's own home folder ``own`` when ``path`` is it or below it (the system's word, as
    git trusts ``~/.gitconfig``: not judged), else the root of the file system. So every
    folder above a skillc home or a lint cache up to there is judged: another user's
    ``/tmp/x`` (in root's ``/tmp``) holding ``skc`` of theirs is refused, where judging the
    home alone trusted it as its folder's owner's."""
    return own if path == own or own in path.parents else Path(path.anchor)


def foreign_below(base: Path, path: Path) -> Path | None:
    """The first entry from ``base`` (excluded) down to ``path`` (included) that is not the
    current user's nor root's (:func:`first_foreign` trusting no folder's owner), or
    ``base`` itself when another user owns it and others may write it (``/srv/scratch``,
    mode 1777, bob's: bob may rename what anyone made there); None when there is none. A
    fallback access log (``<base>/.skillc/logs/<skill>/.skillc-meta/logs.db``) holds the
    user's queries word for word, and ``sync`` merges its rows: one in a folder another
    user made (``/tmp/.skillc/logs``, planted to read the queries, or to hand forged rows to
    ``sync``), even one the working folder's owner made, is neither written nor synced."""
    if open_to_others(base):
        return base
    return first_foreign(path, base, folder_owner=False)


def open_to_others(folder: Path) -> bool:
    """Whether ``folder`` is another user's (not the current one's, not root's) that others
    may write (a shared scratch folder, mode 1777); one that cannot be looked at counts."""
    if not hasattr(os, "geteuid"):
        return False
    try:
        return owner(folder) not in (os.geteuid(), 0) and bool(folder.stat().st_mode & 0o002)
    except OSError:
        return True


def foreign_home(home: Path, own: Path) -> Path | None:
    """The first of the skillc home's folders and files that is :func:`foreign`, or None:
    each folder down to the home from the user's own home folder ``own`` (which the system
    gives: not judged) or, for a home elsewhere, from ``/`` (a predictable ``/tmp/skc-ci``,
    or ``/tmp/x/skc`` under ``/tmp/x``, another user made first: :func:`trusted_top`), the
    home folder, its ``.skillc/`` and that folder's ``config.toml`` (whose ``[stats] url``
    gets the user's usage rows). Judged as a project's ``.skillc/`` is: root's and the
    current user's count, and one owned by the owner of its folder (root in a CI container
    over a home of uid 1001, ``HOME=/github/home``)."""
    return first_foreign(home / SKILLC_DIR / "config.toml", trusted_top(home, own))


def refuse_foreign_home(home: Path, own: Path) -> None:
    """Raise :class:`~skillc_index.command_errors.ForeignHome` (E999) when
    :func:`foreign_home` finds a part of the skillc home another user owns: what
    :meth:`~skillc_index.layout.Layout.discover` asks for every command."""
    found = foreign_home(home, own)
    if found is not None:
        from skillc_index.command_errors import ForeignHome
        from skillc_index.layout import shown

        above, named = found in home.parents, home != own
        raise ForeignHome(
            shown(str(home)), shown(str(found)), owner_name(found), above=above, named=named
        )


def owner_name(path: Path) -> str:
    """Who owns ``path``, for a message: the user's name and id (the id alone when it has no
    name) of the first owner that is another user, the link's own first; ``uid unknown``
    when none is (what :func:`foreign` could not look at: a link leading nowhere)."""
    uids: list[int] = []
    for follow in (False, True):
        with contextlib.suppress(OSError):
            uids.append(owner(path, follow=follow))
    uid = next((uid for uid in uids if uid not in (os.geteuid(), 0)), None)
    if uid is None:
        return "uid unknown"
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
