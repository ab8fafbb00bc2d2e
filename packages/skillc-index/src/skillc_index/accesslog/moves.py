"""The folders a skill was moved between (``route install`` puts an agent folder's skill in
the store, ``uninstall`` puts it back): its uses stay its own wherever they were logged.

A row names the folder the skill was read from (``skill_path``), and no row is ever edited
(a team store compares a log's rows with the ones it holds: :mod:`.identity`). So the move is
recorded beside them, in the log of the skill's runtime, which stays the same across the
move: :func:`record_move` appends ``(from_path, to_path, upto)`` to ``moved_folders``,
``upto`` the highest row ``id`` then. The readers (``skc stats``, ``stats --all``, the
listing's ranking) read the moves with :func:`moves_of`, once per log
(:attr:`~.reader.LocalRows.moves`, which they take unasked), and count a row of
``from_path`` whose ``id`` is at most ``upto`` as ``to_path``'s (:func:`folder_key`); rows
of ``from_path`` written after the move stay that folder's (another may live there now).
Moves chain: a skill routed and put back again counts every row as its folder's.
An older skillc's ``route install`` recorded no move in the log, only in its route manifest:
a reader given the log's path takes such a move from the manifest while the skill stays
routed (:func:`routed_moves`), below the base's former places too (the project moved since).

A move nobody recorded is a store skill's base moving (``mv`` of its project, a moved skillc
home): its log moves with it, and its rows name the folder it was at. A store skill's
runtime log is its own (same-named folders share it, but only the store's is
``<base>/.skillc/skills/<name>``), so the rows of a ``<any base>/.skillc/skills/<name>``
folder that is gone are its too (:func:`former_stores`, added by
:func:`~.reader.add_versions` as a plugin's other versions are), and their working folders
below its former base are the same folders below its base now (:func:`cwd_key`): ``skc stats
--project <the project now>`` counts the uses logged before the project moved.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index.text import valid_utf8

if TYPE_CHECKING:
    from skillc_index.accesslog.reader import Rows
    from skillc_index.diagnostics import Notice
    from skillc_index.layout import Layout
    from skillc_index.route.manifest import MoveRecord

__all__ = [
    "MAX_MOVES",
    "BaseMove",
    "Move",
    "base_moves",
    "cwd_key",
    "cwds_before",
    "folder_key",
    "former_stores",
    "log_folders",
    "moves_of",
    "record_move",
    "routed_moves",
]

#: The most moves of a log read, the latest (a log is one skill's: two per install and
#: uninstall).
MAX_MOVES = 1_000

#: ``(folder, upto, now)``: the rows of ``folder`` whose ``id`` is at most ``upto`` (and
#: above the ``upto`` of the folder's move before, if any) are the skill's now at ``now``.
Move = tuple[str, int, str]

_INSERT = (
    "INSERT INTO moved_folders (timestamp, from_path, to_path, upto) "
    "VALUES (?, ?, ?, (SELECT COALESCE(MAX(id), 0) FROM access_log))"
)


def record_move(layout: Layout, runtime: Path, old: Path, new: Path) -> Notice | None:
    """Record in ``runtime``'s primary log that its skill moved from the folder ``old`` to
    ``new`` (both as rows name them: real paths), in one transaction; no row changes. A log
    that is not there (never made, or of no byte) holds no row to carry: nothing is made. A
    log that cannot be written (misplaced, not skillc's, locked, a full disk) is a notice:
    the uses before the move then stay the old folder's."""
    from skillc_index.accesslog.schema import empty_log
    from skillc_index.accesslog.store import primary_log, writable_primary, write_log
    from skillc_index.clock import utc_now

    path = primary_log(runtime)
    if not os.path.lexists(path) or empty_log(path):
        return None
    try:
        if writable_primary(layout, runtime) is None:
            raise OSError("it lies outside its runtime's base, or its project was removed")
        # the default busy timeout, not the primary's short one: a move has no fallback log
        write_log(path, _INSERT, [(utc_now(), valid_utf8(str(old)), valid_utf8(str(new)))])
    except (OSError, sqlite3.Error) as exc:
        from skillc_index.atomic import failure_reason
        from skillc_index.diagnostics import Notice

        return Notice(
            f"the access log '{layout.display(path)}' does not record the move of "
            f"'{layout.display(old)}' to '{layout.display(new)}' ({failure_reason(exc, path)}):"
            " the uses before it stay the old folder's"
        )
    return None


def moves_of(rows: Rows, log: Path | None = None) -> tuple[Move, ...]:
    """The moves the log ``rows`` records (the latest :data:`MAX_MOVES`), as :data:`Move`
    rules in the order :func:`folder_key` tests them: each folder's by ``upto``; given the
    ``log``'s path, then the moves of its skill's route that it does not record
    (:func:`routed_moves`). None recorded in a log without ``moved_folders`` (older, or
    another tool's) or whose table of that name cannot be read as skillc's."""
    from skillc_index.diagnostics import UnreadableFile

    moves: list[tuple[str, str, int]] = []
    exists = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'moved_folders'"
    if rows(exists, []):
        try:
            found = rows(
                "SELECT from_path, to_path, upto FROM moved_folders ORDER BY id DESC LIMIT ?",
                [MAX_MOVES],
            )
        except UnreadableFile:  # another tool's table of that name
            found = []
        moves = [
            (old, new, upto)
            for old, new, upto in reversed(found)
            if isinstance(old, str) and isinstance(new, str) and type(upto) is int
        ]
    if log is not None:
        moves += routed_moves(log, {(old, new) for old, new, _ in moves}, rows)
    return _rules(moves)


#: The ``upto`` of a move :func:`routed_moves` takes from a route (when it was made is not
#: known): every row of the folder it left, which holds no skill while it is routed.
ALL_ROWS = (1 << 63) - 1


def routed_moves(
    log: Path, recorded: Collection[tuple[str, str]], rows: Rows | None = None
) -> list[tuple[str, str, int]]:
    """The moves of the skill whose primary log is ``log`` (``<base>/.skillc/runtime/<name>/
    .skillc-meta/logs.db``) that a route of its base holds and ``recorded`` (``(from_path,
    to_path)`` pairs) does not: a folder entry ``<name>`` of an installed route manifest
    (``<base>/.skillc/router/<agent>.json``) whose agent folder is in the base (not in
    skillc's own folder: a manifest a checkout ships may name any), whose place there is free
    and whose store folder ``<base>/.skillc/skills/<name>`` is a folder, was moved from that
    place to the store. An older skillc's ``route install`` recorded no move in the log: its
    uses count as the store skill's all the same, every row of the folder it left
    (:data:`ALL_ROWS`). A manifest that cannot be read adds none (``route status`` says why).
    Given the log's ``rows``, the moves made before the base moved too (``mv`` of the project:
    the rows name the old base): from the same place below each former base of the store
    skill (:func:`former_stores`) to its store folder there, as an older skillc would have
    recorded it, which the readers count as the store skill's now (as they do a recorded
    move's rows, through its former store folder); not from a place that is there.

    A base's manifests are read once per process while they stay as they were
    (:func:`_routes`), not once per log: the readers open one log per skill. The store
    folder must be the entry moved (:func:`~skillc_index.route.manifest.is_ours`, the one
    rule route commands use too), as cheaply as that is known (no folder hashed per read:
    that cost seconds): its device and inode, which a rename keeps; else (a copied project
    gives every folder new ones) the content the entry records (a build refreshes it,
    :func:`~skillc_index.route.parked.refresh_moved`) is the source hash of the runtime's
    last build, which its manifest says, read once. A store skill of that name that
    replaced the one moved (a new folder) takes none of the moved folder's rows once it is
    built; until then its runtime still holds the moved skill's build, and it takes them."""
    routed = _routed(log)
    if routed is None:
        return []
    new, found, places = routed
    found = [move for move in found if move[:2] not in recorded]
    formers = _formers(rows, new, places) if rows is not None else []
    for former in formers:  # the rows name the base it was at: the move was made there
        for place_there in places:
            old = os.path.normpath(os.path.join(_base_of(former), place_there))  # noqa: PTH118
            if (
                (old, former) not in recorded
                and (old, former, ALL_ROWS) not in found
                and not os.path.lexists(old)  # a skill there keeps its rows
            ):
                found.append((old, former, ALL_ROWS))
    return found


def _routed(log: Path) -> tuple[str, list[tuple[str, str, int]], list[str]] | None:
    """What :func:`routed_moves` takes from the routes of the base of the skill whose primary
    log is ``log``: the real path of its store folder, the moves from each place it was
    moved from (:data:`ALL_ROWS`) and those places relative to the base (where it was below
    each former base too); None when no installed route moved it."""
    from skillc_index.accesslog.store import primary_log
    from skillc_index.files import inside, real_path
    from skillc_index.layout import RUNTIME_FOLDER, SKILLC_DIR, STORE_FOLDER

    runtime = log.parent.parent
    skillc = runtime.parent.parent
    if (
        primary_log(runtime) != log
        or runtime.parent.name != RUNTIME_FOLDER
        or skillc.name != SKILLC_DIR
    ):
        return None
    name, base = runtime.name, skillc.parent
    entries = _routes(skillc).get(name)
    store = skillc / STORE_FOLDER / name
    try:
        info = store.lstat() if entries else None
    except OSError:
        info = None
    if info is None or not stat.S_ISDIR(info.st_mode):  # (a link to a folder is none)
        return None
    from skillc_index.route.manifest import is_ours

    new = os.path.realpath(store)
    real_base, real_skillc = real_path(base), real_path(skillc)
    found: list[tuple[str, str, int]] = []
    built: str | None = None  # the store skill's last build (read once, when an inode changed)
    read = False

    def last_build() -> str | None:
        nonlocal built, read
        if not read:
            built, read = _built_content(runtime), True
        return built

    places: list[str] = []  # where each folder moved was, relative to the base
    for folder, record in entries or ():
        parent = real_path(base / folder)
        place = base / folder / name
        if (
            not inside(parent, real_base)
            or inside(parent, real_skillc)
            or os.path.lexists(place)  # the user's own skill of that name is back there
            or not is_ours(record, store, last_build)  # the store folder is not the one moved
        ):
            continue
        old = str(Path(parent) / name)
        places.append(os.path.relpath(old, real_base))
        if (old, new, ALL_ROWS) not in found:
            found.append((old, new, ALL_ROWS))
    return (new, found, places) if places else None


#: The most route manifests of a base :func:`routed_moves` reads (one per agent).
MAX_ROUTES = 64

#: Each ``.skillc`` folder's installed routes read (:func:`_routes`): the stats of its
#: manifests then, and each store skill's name -> the agent folders (relative to the base)
#: its manifests moved a folder of that name from.
#: The most bases :data:`_ROUTES` holds (it starts again past them).
MAX_BASES = 1_024

#: A folder entry of a route manifest (:func:`_routes`): the agent folder it was moved from
#: (as the manifest writes it, relative to the base) and the manifest's record of the move.
_Moved = tuple[str, "MoveRecord"]

_ROUTES: dict[str, tuple[tuple[Any, ...], dict[str, list[_Moved]]]] = {}


def _built_content(runtime: Path) -> str | None:
    """What the store skill held when ``runtime`` was last built, as a route records it
    (``sha256:<source hash>``, :func:`~skillc_index.route.manifest.folder_content`): its
    runtime manifest's source hash, a small read; None without one."""
    from skillc_index.build.manifest import read_manifest
    from skillc_index.route.manifest import folder_content

    manifest = read_manifest(runtime)
    return None if manifest is None else folder_content(manifest.source_hash)


def _routes(skillc: Path) -> Mapping[str, Sequence[_Moved]]:
    """The folder entries of the installed route manifests of the ``.skillc`` folder
    ``skillc`` (the first :data:`MAX_ROUTES`), by name (:data:`_Moved`: each agent folder
    it was moved from, in manifest order, with the entry's identity and content). Read once
    per process while the manifests' stats stay the same."""
    from skillc_index.diagnostics import SkillcError
    from skillc_index.route import ROUTES_DIR
    from skillc_index.route.manifest import read_route_manifest

    routes = skillc / ROUTES_DIR
    try:
        manifests = sorted(routes.glob("*.json")) if routes.is_dir() else []
        stats = tuple(
            (path.name, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
            for path in manifests[:MAX_ROUTES]
            for info in [path.stat()]
        )
    except OSError:
        return {}
    cached = _ROUTES.get(str(skillc))
    if cached is not None and cached[0] == stats:
        return cached[1]
    by_name: dict[str, list[_Moved]] = {}
    for path in manifests[:MAX_ROUTES]:
        try:
            route = read_route_manifest(path)
        except SkillcError:
            continue
        if route is None or route.state != "installed" or Path(route.folder).is_absolute():
            continue
        for record in route.records:
            if record.kind != "folder":
                continue
            entries = by_name.setdefault(record.name, [])
            if all(folder != route.folder for folder, _ in entries):
                entries.append((route.folder, record))
    if len(_ROUTES) >= MAX_BASES:
        _ROUTES.clear()
    _ROUTES[str(skillc)] = (stats, by_name)
    return by_name


def _rules(moves: Sequence[tuple[str, str, int]]) -> tuple[Move, ...]:
    """Each moved folder's ids cut into spans by the moves, in order: a move takes the spans
    now at its ``from_path`` up to its ``upto`` to its ``to_path``. A folder's last span (the
    ids after its last move) is its own: no rule, the row's own folder."""
    spans: dict[str, list[tuple[int | None, str]]] = {}  # folder -> [(last id or None, now)]
    for old, new, upto in moves:
        spans.setdefault(old, [(None, old)])
        for folder, parts in spans.items():
            cut: list[tuple[int | None, str]] = []
            low: int | None = None
            for high, now in parts:
                if now != old or (low is not None and low >= upto):
                    cut.append((high, now))
                elif high is not None and high <= upto:
                    cut.append((high, new))
                else:
                    cut += [(upto, new), (high, now)]
                low = high
            merged: list[tuple[int | None, str]] = []
            for high, now in cut:  # neighbours at the same folder are one span
                if merged and merged[-1][1] == now:
                    merged.pop()
                merged.append((high, now))
            spans[folder] = merged
    return tuple(
        (folder, high, now)
        for folder, parts in spans.items()
        for high, now in parts
        if high is not None
    )


def folder_key(
    column: str, same: Mapping[str, str] | None = None, moves: Sequence[Move] = ()
) -> tuple[str, list[Any]]:
    """SQL of the folder a row counts for, and its parameters: the folder a move took its
    rows to (``moves``, :func:`moves_of`), then the one a folder of ``same`` counts as (a
    folder imported into a store: its store copy), else the row's own ``column``."""
    if not same and not moves:
        return column, []
    same = same or {}
    tests = [f"WHEN {column} = ? AND id <= ? THEN ?"] * len(moves)
    tests += [f"WHEN {column} = ? THEN ?"] * len(same)
    params: list[Any] = [
        value for folder, upto, now in moves for value in (folder, upto, same.get(now, now))
    ]
    params += [text for pair in same.items() for text in pair]
    params = [valid_utf8(value) if isinstance(value, str) else value for value in params]
    return f"CASE {' '.join(tests)} ELSE {column} END", params


#: The most distinct folders of a log :func:`log_folders` looks at (one index lookup each).
MAX_FOLDER_LOOKUPS = 1_000


def log_folders(rows: Rows, low: str = "", end: str | None = None) -> Iterator[str]:
    """The distinct folders (``skill_path``) the rows of the log ``rows`` name, in order, each
    above ``low`` and, given ``end``, below it: one index lookup each, at most
    :data:`MAX_FOLDER_LOOKUPS`. A folder with bad bytes is as a row reads it
    (:func:`~.schema.log_text`); a row whose folder is no text (a BLOB, which sorts after
    every text) ends them. What :func:`former_stores` and
    :func:`~.reader.other_versions` look through."""
    from skillc_index.accesslog.schema import text_param

    query = "SELECT MIN(skill_path) FROM access_log WHERE skill_path > CAST(? AS TEXT)"
    if end is not None:
        query += " AND skill_path < CAST(? AS TEXT)"
    for _ in range(MAX_FOLDER_LOOKUPS):
        got = rows(query, [text_param(low)] if end is None else [text_param(low), text_param(end)])
        if not got or not isinstance(got[0][0], str):  # none left
            return
        low = got[0][0]
        yield low


def former_stores(rows: Rows, folder: str, log: Path | None = None) -> list[str]:
    """The folders the store skill at ``folder`` was at before its base moved (or the
    folder holding its base: a ``mv`` of any folder above it): each
    ``<any base>/.skillc/skills/<name>`` but ``folder`` that is gone (a folder there, its
    skill's or another's, keeps its rows), named by the log ``rows``: by a row
    (:func:`log_folders`), by a move the log records (``route install`` took the skill
    there, :func:`moves_of`: its old store folder, even when no row names it), or, given
    the ``log``'s path, as the base of a place the skill's route moved it from that a row
    names (``<former base>/.claude/skills/<name>``: an older skillc's route, which
    recorded no move, :func:`routed_moves`); ``[]`` for a folder that is no store skill's.
    What every reader and ``sync``'s transcript import count a moved base's rows by
    (:func:`base_moves`, :func:`cwd_key`)."""
    routed = _routed(log) if log is not None and _is_store_folder(folder) else None
    return _formers(rows, folder, routed[2] if routed is not None else ())


def _formers(rows: Rows, folder: str, places: Sequence[str]) -> list[str]:
    """:func:`former_stores`, the places the skill's route moved it from (relative to its
    base) given."""
    from skillc_index.layout import SKILLC_DIR, STORE_FOLDER, store_skill_name

    name = store_skill_name(folder)
    if name is None:
        return []
    named = list(log_folders(rows))
    named += [end for old, _, now in moves_of(rows) for end in (old, now)]
    for place in places:
        tail = os.sep + place
        named += [
            os.path.join(low[: -len(tail)], SKILLC_DIR, STORE_FOLDER, name)  # noqa: PTH118
            for low in log_folders(rows)
            if low.endswith(tail) and len(low) > len(tail) and not os.path.lexists(low)
        ]
    return [
        low
        for low in dict.fromkeys(named)
        if low != folder
        and store_skill_name(low) == name
        and valid_utf8(low) == low  # (bad bytes: bound as they are read, never)
        and _gone(low, folder)
    ]


def _gone(former: str, folder: str) -> bool:
    """Whether ``former`` no longer holds a folder of its own: nothing is there, or a link
    left where the base was (``mv`` then ``ln -s``) leads to ``folder`` itself."""
    return not os.path.lexists(former) or os.path.realpath(former) == os.path.realpath(folder)


#: ``(folder, old, new)``: the rows of the store skill's ``folder`` were logged while its base
#: was ``old`` (:func:`former_stores`); that base is ``new`` now.
BaseMove = tuple[str, str, str]


def base_moves(same: Mapping[str, str]) -> list[BaseMove]:
    """The moves of a store skill's base among ``same`` (a folder -> the folder its rows count
    as): each ``<old>/.skillc/skills/<name>`` counted as ``<new>/.skillc/skills/<name>``,
    of the same name (:func:`former_stores`' folders)."""
    from skillc_index.layout import store_skill_name

    moved: list[BaseMove] = []
    for folder, now in same.items():
        name = store_skill_name(folder)
        if name is not None and folder != now and store_skill_name(now) == name:
            moved.append((folder, _base_of(folder), _base_of(now)))
    return moved


def _is_store_folder(folder: str) -> bool:
    from skillc_index.layout import store_skill_name

    return store_skill_name(folder) is not None


def _base_of(store_folder: str) -> str:
    """``<base>`` of ``<base>/.skillc/skills/<name>``."""
    return store_folder.rsplit(os.sep, 3)[0] or os.sep


def cwd_key(moved: Sequence[BaseMove], column: str = "skill_path") -> tuple[str, list[Any]]:
    """SQL of the working folder a row counts as made in, and its parameters: a row of a
    folder in the old base of a move of ``moved`` (:func:`base_moves`; ``column`` names a
    row's folder: the store folder itself, or the agent folder a route moved the skill from
    there, whose rows count for it) made in that old base or below it, the same place in
    the new base (the project was moved with its skill: ``skc stats --project`` of the
    project where it is now counts it); else the row's own ``cwd``. For a local log (a team
    store holds no folder moved)."""
    if not moved:
        return "cwd", []
    tests: list[str] = []
    params: list[Any] = []
    for old, new in dict.fromkeys((old, new) for _, old, new in moved):
        below, there = (base if base.endswith(os.sep) else base + os.sep for base in (old, new))
        inside_old = f"substr({column}, 1, ?) = ?"
        tests += [
            f"WHEN {inside_old} AND cwd = ? THEN ?",
            f"WHEN {inside_old} AND substr(cwd, 1, ?) = ? THEN ? || substr(cwd, ?)",
        ]
        params += [len(below), below, old, new]
        params += [len(below), below, len(below), below, there, len(below) + 1]
    params = [valid_utf8(value) if isinstance(value, str) else value for value in params]
    return f"CASE {' '.join(tests)} ELSE cwd END", params


def cwds_before(moved: Sequence[BaseMove], folder: str, cwd: str) -> list[str]:
    """The working folders a row of ``folder`` may name for a row made in ``cwd`` now:
    ``cwd`` itself and, for each move of ``moved`` (:func:`base_moves`) whose old base holds
    ``folder``, the same place in the old base when ``cwd`` is in the new one: the rows
    :func:`cwd_key` counts as made in ``cwd`` (``sync``'s transcript import finds a call's
    row logged before the project moved by them)."""
    found = [cwd]
    for old, new in dict.fromkeys((old, new) for _, old, new in moved):
        below, there = (base if base.endswith(os.sep) else base + os.sep for base in (old, new))
        if not folder.startswith(below):
            continue
        if cwd == new:
            found.append(old)
        elif cwd.startswith(there):
            found.append(below + cwd[len(there) :])
    return list(dict.fromkeys(found))
