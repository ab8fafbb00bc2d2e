"""The folders a skill was moved between (``route install`` and ``uninstall``), recorded in
its log beside the rows (:mod:`skillc_index.accesslog.moves`): what every reader counts."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from skillc_index import Layout
from skillc_index.accesslog import AccessRecord, insert, primary_log
from skillc_index.accesslog.moves import moves_of, record_move
from skillc_index.accesslog.reader import LocalRows, StatsLog, grouped_counts, usage_of


class AllRows(NamedTuple):
    since: str | None = None
    until: str | None = None
    projects: Sequence[str] = ()
    users: Sequence[str] = ()
    machines: Sequence[str] = ()


class Counted(LocalRows):
    """A local log that counts its reads of ``moved_folders``."""

    moves_read = 0

    def each(self, sql: str, params: Sequence[Any]) -> Iterator[Any]:
        self.moves_read += "FROM moved_folders" in sql
        return super().each(sql, params)


def test_a_move_takes_the_rows_logged_before_it(layout: Layout, project: Path) -> None:
    """The rows of the old folder up to the move are the new folder's, in every reader (a
    skill's stats, ``--all``, the trends, the listing's ranking); the ones logged there after
    the move stay the old folder's (another skill may be there now). Put back, every row is
    the old folder's again. No row is edited."""
    runtime = layout.runtime_store("project") / "s"
    log = primary_log(runtime)
    old, new = project / ".cursor" / "skills" / "s", project / ".skillc" / "skills" / "s"

    def use(folder: Path) -> None:
        insert(log, [AccessRecord("show", "s", str(folder), str(project))])

    def rows() -> list[tuple[object, ...]]:
        with closing(sqlite3.connect(log)) as db:
            return db.execute("SELECT * FROM access_log ORDER BY id").fetchall()

    def counts() -> dict[str, tuple[int, ...]]:
        """Each folder's uses: ``usage_of`` of every row, of the folders (the listing),
        ``StatsLog`` (``stats NAME``), ``grouped_counts`` (the trends)."""
        found: dict[str, tuple[int, ...]] = {}
        local = Counted(log)  # (its moves read by every reader unasked, once)
        try:
            every = {use.key: use.uses for use in usage_of(local, AllRows(), "skill_path")}
            for folder in (str(old), str(new)):
                listed = usage_of(local, AllRows(), "skill_path", [folder])
                one = StatsLog(local, "skill_path", folder, AllRows()).cwd_counts()
                grouped = grouped_counts(local, AllRows(), "skill_path", [folder], ("skill_path",))
                found[folder] = (
                    every.get(folder, 0),
                    sum(use.uses for use in listed if use.key == folder),
                    sum(count for _, count in one),
                    sum(count for key, _, count, _failed in grouped if key == folder),
                )
        finally:
            local.close()
        assert local.moves_read == 1
        return found

    assert record_move(layout, runtime, old, new) is None  # no log: nothing to carry
    assert not log.exists()
    use(old)
    before = rows()
    assert record_move(layout, runtime, old, new) is None
    use(old)  # after the move: not the moved skill's
    use(new)
    assert counts() == {str(old): (1, 1, 1, 1), str(new): (2, 2, 2, 2)}
    assert record_move(layout, runtime, new, old) is None  # put back
    assert counts() == {str(old): (3, 3, 3, 3), str(new): (0, 0, 0, 0)}
    assert rows()[:1] == before


def test_a_move_the_log_cannot_take_is_said(layout: Layout, project: Path) -> None:
    """A log that is not skillc's is never written: the move is a notice, not an error."""
    runtime = layout.runtime_store("project") / "s"
    log = primary_log(runtime)
    log.parent.mkdir(parents=True)
    with closing(sqlite3.connect(log)) as db:
        db.execute("CREATE TABLE access_log (id INTEGER PRIMARY KEY, extra)")
    notice = record_move(layout, runtime, project / "a" / "s", project / "b" / "s")
    assert notice is not None and "does not record the move" in str(notice)
    with closing(sqlite3.connect(log)) as db:
        tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    assert tables == [("access_log",)]


def test_a_move_is_written_as_rows_are(
    layout: Layout, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move goes through the store's one writer of a log (``write_log``: its checks,
    its transaction), as a row logged by ``log_access`` does: never a second copy of it."""
    from skillc_index.accesslog import log_access, store

    runtime = layout.runtime_store("project") / "s"
    written: list[str] = []
    write_log = store.write_log

    def recorded(path: Path, statement: str, *args: Any, **kwargs: Any) -> None:
        written.append(statement.split("(")[0].strip())
        write_log(path, statement, *args, **kwargs)

    monkeypatch.setattr(store, "write_log", recorded)
    folder = project / "a" / "s"
    assert log_access(layout, runtime, AccessRecord("show", "s", str(folder), str(project))).path
    assert record_move(layout, runtime, folder, project / "b" / "s") is None
    assert written == ["INSERT INTO access_log", "INSERT INTO moved_folders"]
    local = LocalRows(primary_log(runtime))
    try:
        assert moves_of(local) == ((str(folder), 1, str(project / "b" / "s")),)
    finally:
        local.close()


class Recorded(Counted):
    """A local log that keeps the statements run on it and their parameters."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.run: list[tuple[str, list[Any]]] = []

    def each(self, sql: str, params: Sequence[Any]) -> Iterator[Any]:
        self.run.append((sql, list(params)))
        return super().each(sql, params)


def test_only_the_moves_that_concern_the_folders_asked_for_are_read(
    layout: Layout, project: Path
) -> None:
    """A folder moved twice (to ``b``, then to ``c``) keeps both moves wherever one of its
    rows counts (``c``'s rows are not ``b``'s); a folder no move leads to or from is read
    with no test of the moves, and the working folders of a skill in several logs
    (``spread``) are read from its own folders and those moved to it, no other."""
    runtime = layout.runtime_store("project") / "s"
    log = primary_log(runtime)
    a, b, c, d = (str(project / name / "s") for name in "abcd")
    other, elsewhere = str(project / "o" / "s"), str(project / "e" / "s")

    def use(folder: str) -> None:
        insert(log, [AccessRecord("show", "s", folder, str(project))])

    use(a)
    assert record_move(layout, runtime, Path(a), Path(b)) is None
    use(a)
    assert record_move(layout, runtime, Path(a), Path(c)) is None
    use(a)
    use(d)
    use(other)
    assert record_move(layout, runtime, Path(other), Path(elsewhere)) is None
    local = Recorded(log)
    try:
        for folder in (a, b, c):
            listed = usage_of(local, AllRows(), "skill_path", [folder])
            assert [(use.key, use.uses) for use in listed if use.key == folder] == [(folder, 1)]
            grouped = grouped_counts(local, AllRows(), "skill_path", [folder], ("skill_path",))
            assert [(key, count) for key, _, count, _ in grouped if key == folder] == [(folder, 1)]
            assert sum(n for _, n in StatsLog(local, "skill_path", folder, AllRows()).cwd_counts())
        local.run.clear()
        assert [use.uses for use in usage_of(local, AllRows(), "skill_path", [d])] == [1]
        grouped_counts(local, AllRows(), "skill_path", [d], ("skill_path",))
        StatsLog(local, "skill_path", d, AllRows()).cwd_counts()
        assert local.run and not any("CASE WHEN skill_path" in sql for sql, _ in local.run)
        local.run.clear()
        spread = usage_of(local, AllRows(), "skill_path", spread={c})
        assert {use.key: use.folders for use in spread}[c] == (str(project),)
        ((sql, params),) = [run for run in local.run if "DISTINCT key, cwd" in run[0]]
        read = params[len(params) - sql.split("FROM access_log")[1].count("?") :]  # its WHERE
        assert a in read and c in read and other not in read
    finally:
        local.close()


def test_a_move_a_full_disk_refuses_says_the_disk(
    layout: Layout, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move a full disk kept the log from recording (``route uninstall``, ``install``) was
    a notice ending ``(disk I/O error)``, SQLite's words, which do not say the disk is full:
    it says it as :func:`~skillc_index.atomic.disk_failure` does."""
    from skillc_index.accesslog import store
    from skillc_index.atomic import disk_failure

    runtime = layout.runtime_store("project") / "s"
    log = primary_log(runtime)
    log.parent.mkdir(parents=True)
    with closing(sqlite3.connect(log)) as db:
        db.execute("CREATE TABLE access_log (id INTEGER PRIMARY KEY)")
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = 4874  # type: ignore[attr-defined]
    error.sqlite_errorname = "SQLITE_IOERR_SHMSIZE"  # type: ignore[attr-defined]

    def full(*_: object, **__: object) -> None:
        raise error

    monkeypatch.setattr(store, "writable_primary", lambda *_: log)
    monkeypatch.setattr(store, "write_log", full)
    notice = record_move(layout, runtime, project / "a" / "s", project / "b" / "s")
    assert notice is not None
    reason = disk_failure(error, log)
    assert reason is not None and reason.startswith("disk I/O error (SQLITE_IOERR_SHMSIZE)")
    assert f"'{layout.display(project / 'b' / 's')}' ({reason}): the uses" in str(notice)


def _old_route(project: Path, uses: int) -> Path:
    """A project as an older skillc's ``route install`` left it (its files' shape copied from
    that version's output): the user's ``.claude/skills/user-own``, read ``uses`` times, moved
    to the store; the manifest records the move (a folder entry, its device and inode), the
    router is in its place, and the log (schema 5: no ``moved_folders``) holds the rows of the
    folder it left and no move."""
    from skillc_index.accesslog.schema import SCHEMA

    store = project / ".skillc" / "skills" / "user-own"
    store.mkdir(parents=True)
    (store / "SKILL.md").write_text(
        "---\nname: user-own\ndescription: Use when testing the user own skill.\n---\n"
        "# User Own\n\n## Usage\n\nhello\n"
    )
    router = project / ".claude" / "skills" / "skill-router"
    router.mkdir(parents=True)
    (router / "SKILL.md").write_text("---\nname: skill-router\ndescription: Routes.\n---\n")
    info = store.lstat()
    manifest = {
        "version": 1,
        "agent": "claude",
        "folder": ".claude/skills",
        "state": "installed",
        "router_sha256": "0" * 64,
        "entries": [{"name": "user-own", "kind": "folder", "dev": info.st_dev, "ino": info.st_ino}],
        "runtimes": [],
        "runtimes_held": {"user-own": [".skillc-meta/logs.db"]},
        "made": [],
        "gitignore": ["/.skillc/router/"],
        "gitignore_newline": False,
    }
    (project / ".skillc" / "router").mkdir()
    (project / ".skillc" / "router" / "claude.json").write_text(json.dumps(manifest, indent=2))
    log = primary_log(project / ".skillc" / "runtime" / "user-own")
    log.parent.mkdir(parents=True)
    left = str(project / ".claude" / "skills" / "user-own")
    with closing(sqlite3.connect(log)) as db, db:
        for statement in SCHEMA:
            if "moved_folders" not in statement:
                db.execute(statement)
        db.execute("INSERT INTO log_identity VALUES (1, 'old-log', NULL, 0)")
        db.executemany(
            "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd, args)"
            " VALUES (?, ?, 'show', 'user-own', ?, ?, '{}')",
            [(f"2026-12-01T10:00:0{n}Z", f"run-{n}", left, str(project)) for n in range(uses)],
        )
        db.execute("PRAGMA user_version = 5")
    return log


def test_a_move_an_older_route_install_made_counts_its_uses(project: Path) -> None:
    """An older skillc's ``route install`` recorded no move in the log, only in its route
    manifest: while the skill stays routed its uses count as the store skill's (``skc stats``
    said "Uses: 0" and "never": the uses are read as here, by ``usage_of`` over the log's
    moves), and not once a skill of that name is in the agent folder again."""
    log = _old_route(project, uses=2)
    store = str(project / ".skillc" / "skills" / "user-own")

    def uses() -> int:
        local = LocalRows(log)
        try:
            found = usage_of(local, AllRows(), "skill_path", [store])
        finally:
            local.close()
        return sum(use.uses for use in found if use.key == store)

    assert uses() == 2
    with closing(sqlite3.connect(log)) as db:  # nothing written: the move is read, not kept
        assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'moved_folders'").fetchall()
    # a skill of that name back in the agent folder by the user's hand: its rows are its own
    (project / ".claude" / "skills" / "user-own").mkdir()
    assert uses() == 0


def test_an_older_route_install_s_uses_follow_its_project_when_it_moves(
    project: Path, tmp_path: Path
) -> None:
    """An older skillc's ``route install`` (the move in its route manifest, none in the log),
    then ``mv`` of the project: each rule alone held (the store skill's rows before the base
    moved are its, the rows of the folder a route left are its), but the move the readers
    took from the manifest left the agent folder of the project where it is now, while the
    rows name the one where it was: ``skc stats --all`` and ``stats NAME`` said 0 uses (a
    move the log records kept them). They compose now, in every reader; a skill at the old
    place keeps its rows."""
    from skillc_index.accesslog.reader import add_versions

    log = _old_route(project, uses=2)
    with closing(sqlite3.connect(log)) as db, db:  # the build its route install logged
        db.execute(
            "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd, args)"
            " VALUES ('2026-12-01T10:01:00Z', 'run-b', 'build', 'user-own', ?, ?, '{}')",
            (str(project / ".skillc" / "skills" / "user-own"), str(project)),
        )
    moved = tmp_path / "moved"
    project.rename(moved)
    log = moved / log.relative_to(project)
    store = str(moved / ".skillc" / "skills" / "user-own")

    def counted() -> tuple[int, int, int, tuple[str | None, str | None]]:
        """The uses ``stats --all`` (``usage_of``), its trends (``grouped_counts``) and
        ``stats NAME`` (``StatsLog`` of its folders) count, and the period of its uses."""
        local = LocalRows(log)
        try:
            folders = {store: store}
            same = add_versions(local, folders)  # (its folder before the project moved)
            listed = usage_of(local, AllRows(), "skill_path", list(folders), same)
            keys = ("skill_path",)  # (its trends name each key's skill: folders)
            grouped = grouped_counts(local, AllRows(), "skill_path", list(folders), keys, same)
            one = StatsLog(local, "skill_path", list(folders), AllRows(), same)
            return (
                sum(use.uses for use in listed if use.key == store),
                sum(n for key, verb, n, _ in grouped if folders[key] == store and verb == "show"),
                sum(n for _, n in one.cwd_counts()),
                one.period(uses=True),
            )
        finally:
            local.close()

    period = ("2026-12-01T10:00:00Z", "2026-12-01T10:00:01Z")
    assert counted() == (2, 2, 2, period)
    (project / ".claude" / "skills" / "user-own").mkdir(parents=True)  # a skill at the old place
    assert counted() == (0, 0, 0, (None, None))


def _store_uses(log: Path, store: Path) -> int:
    """The uses of the store skill ``store`` its log ``log`` counts, as ``skc stats`` does."""
    local = LocalRows(log)
    try:
        found = usage_of(local, AllRows(), "skill_path", [str(store)])
    finally:
        local.close()
    return sum(use.uses for use in found if use.key == str(store))


def test_a_base_s_route_manifests_are_read_once_for_all_its_logs(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The readers open one log per skill (``skc list``'s ranking, ``stats --all``): a base's
    route manifests are read once for them all (each read of every log took 2,000 routed
    skills 21 s), and again once a manifest changed."""
    import skillc_index.route.manifest as manifest_module
    from skillc_index.accesslog.moves import routed_moves

    log = _old_route(project, uses=2)
    store = project / ".skillc" / "skills" / "user-own"
    read = manifest_module.read_route_manifest
    reads: list[Path] = []

    def counted(path: Path) -> Any:
        reads.append(path)
        return read(path)

    monkeypatch.setattr(manifest_module, "read_route_manifest", counted)
    for _ in range(5):
        assert _store_uses(log, store) == 2
    for n in range(20):  # the logs of other skills of the base
        assert routed_moves(primary_log(project / ".skillc" / "runtime" / f"s{n}"), ()) == []
    assert len(reads) == 1
    manifest = project / ".skillc" / "router" / "claude.json"
    data = json.loads(manifest.read_text())
    data["state"] = "installing"  # a route install under way again
    manifest.write_text(json.dumps(data))
    assert _store_uses(log, store) == 0
    assert len(reads) == 2


@pytest.mark.parametrize("outside", ["../other/.claude/skills", "absolute", ".skillc/router"])
def test_a_route_manifest_s_folder_outside_its_base_adds_no_move(
    project: Path, outside: str
) -> None:
    """A manifest a checkout ships may name any folder: one that leads out of the base (or
    into skillc's own folder) moved nothing there, and the rows of that folder's skill of the
    name stay its own, not the store skill's."""
    log = _old_route(project, uses=2)
    store = project / ".skillc" / "skills" / "user-own"
    elsewhere = project.parent / "other" / ".claude" / "skills"
    folder = str(elsewhere) if outside == "absolute" else outside
    there = os.path.realpath(project / folder) if outside != "absolute" else str(elsewhere)
    manifest = project / ".skillc" / "router" / "claude.json"
    data = json.loads(manifest.read_text())
    data["folder"] = folder
    manifest.write_text(json.dumps(data))
    with closing(sqlite3.connect(log)) as db, db:
        db.executemany(
            "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd, args)"
            " VALUES (?, ?, 'show', 'user-own', ?, ?, '{}')",
            [(f"2026-12-02T10:00:0{n}Z", f"out-{n}", f"{there}/user-own", "/") for n in range(3)],
        )
    assert _store_uses(log, store) == 0


def test_a_store_skill_that_replaced_the_one_routed_takes_none_of_its_uses(
    project: Path, build: Any
) -> None:
    """A route manifest's entry was taken as a move by the store folder's name alone: a
    store skill of that name that replaced the one moved (a new folder, built since) counted
    the moved folder's uses. The store folder is the entry moved when its device and inode
    are the entry's, or else (a copy: new ones) when its runtime's last build hashed what
    the entry records, which a build refreshes; a record without content says nothing."""
    import shutil

    from skillc_index.build.manifest import read_manifest

    log = _old_route(project, uses=2)
    store = project / ".skillc" / "skills" / "user-own"
    manifest = project / ".skillc" / "router" / "claude.json"
    assert _store_uses(log, store) == 2  # its device and inode
    build("user-own", deploys=False)  # it records what the moved folder holds
    [entry] = json.loads(manifest.read_text())["entries"]
    runtime = read_manifest(project / ".skillc" / "runtime" / "user-own")
    assert runtime is not None and entry["content"] == f"sha256:{runtime.source_hash}"
    copy = store.with_name("copy")
    shutil.copytree(store, copy)  # the same skill, in a folder of another inode
    store.rename(project / "moved-aside")  # kept: no folder made next gets the entry's inode
    copy.rename(store)
    assert _store_uses(log, store) == 2  # the content the runtime's build hashed
    data = json.loads(manifest.read_text())
    data["entries"][0].pop("content")
    manifest.write_text(json.dumps(data))
    assert _store_uses(log, store) == 0  # neither: no move
    manifest.write_text(json.dumps({**data, "entries": [entry]}))
    assert _store_uses(log, store) == 2
    other = store.with_name("other")  # another skill of the name in its place, built
    other.mkdir()
    (other / "SKILL.md").write_text(
        "---\nname: user-own\ndescription: Use when testing another skill.\n---\n# Other\n"
    )
    shutil.rmtree(store)
    other.rename(store)
    # not built yet: its runtime still holds the moved skill's build (no folder is hashed
    # per read), and it takes the moved folder's uses until it is built (the README says so)
    assert _store_uses(log, store) == 2
    build("user-own", deploys=False)
    assert _store_uses(log, store) == 0


def test_the_readers_know_the_folder_moved_by_the_rule_route_commands_use(
    project: Path, build: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``routed_moves`` re-implemented ``route.manifest.is_ours``; it asks it, with the
    runtime's last build as the content (``content``: called only when the inode changed, and
    then instead of hashing the folder), read once for every agent folder's entry."""
    import shutil

    import skillc_index.build.manifest as build_manifest
    from skillc_index.accesslog.moves import routed_moves
    from skillc_index.route.manifest import MoveRecord, is_ours

    store = project / ".skillc" / "skills" / "user-own"
    log = _old_route(project, uses=2)
    info = store.lstat()
    asked: list[str] = []

    def content() -> str | None:
        asked.append("asked")
        return "sha256:" + "a" * 64

    same = MoveRecord("user-own", "folder", info.st_dev, info.st_ino, "sha256:" + "b" * 64)
    assert is_ours(same, store, content) and asked == []  # its inode: nothing else asked
    other = same._replace(ino=info.st_ino + 1)
    assert not is_ours(other, store, content) and asked == ["asked"]  # holds another
    assert is_ours(other._replace(content="sha256:" + "a" * 64), store, content)
    assert not is_ours(other._replace(content=None), store, content) and len(asked) == 2
    assert not is_ours(other, project / "none", content) and len(asked) == 2
    # two agents' routes moved a folder of the name; the store folder is a copy (new inode)
    build("user-own", deploys=False)
    router = project / ".skillc" / "router"
    claude = json.loads((router / "claude.json").read_text())
    (project / ".agents" / "skills").mkdir(parents=True)
    (router / "codex.json").write_text(
        json.dumps({**claude, "agent": "codex", "folder": ".agents/skills"})
    )
    copy = store.with_name("copy")
    shutil.copytree(store, copy)
    store.rename(project / "moved-aside")
    copy.rename(store)
    read = build_manifest.read_manifest
    reads: list[Path] = []

    def counted(path: Path) -> Any:
        reads.append(path)
        return read(path)

    monkeypatch.setattr(build_manifest, "read_manifest", counted)
    moves = routed_moves(log, ())
    assert sorted(old for old, _, _ in moves) == [
        os.path.realpath(project / folder / "user-own")
        for folder in (".agents/skills", ".claude/skills")
    ]
    assert reads == [project / ".skillc" / "runtime" / "user-own"]  # one small read


def test_a_copy_without_sessions_holds_a_row_a_move_took_to_its_folder(tmp_path: Path) -> None:
    """A transcript's call imported under the folder a skill left (``route install``) is
    held by a copy naming its new folder, and one imported while routed by a copy naming the
    folder it was put back in (``uninstall``): rows a move took count for where it took them
    (as every reader counts them). A row written under the old folder after the move is that
    folder's own: not held for the new one."""
    from skillc_index.accesslog.merge import FallbackRows, copy_missing

    log, old, new = tmp_path / "logs.db", "/p/.claude/skills/iota", "/p/.skillc/skills/iota"

    def call(folder: str, tool: str, session: str = "s1") -> AccessRecord:
        args = {"agent": "claude-code", "id": tool, "tool": "Skill"}
        return AccessRecord(
            "activate", "iota", folder, "/p", args, timestamp="2026-12-06T16:00:00Z", run_id=session
        )

    def copy(*records: AccessRecord) -> int:
        rows = FallbackRows([(tuple(record.values()), 1) for record in records])
        return copy_missing(log, rows, sessions=False)

    insert(log, [call(old, "toolu_1")])
    with closing(sqlite3.connect(log)) as db, db:
        db.execute(
            "INSERT INTO moved_folders (timestamp, from_path, to_path, upto) "
            "VALUES ('2026-12-06T16:30:00Z', ?, ?, 1)",
            (old, new),
        )
    assert copy(call(new, "toolu_1", "s2")) == 0  # the resumed session's copy: held
    assert copy(call(new, "toolu_2")) == 1  # (row 2, under the store folder)
    insert(log, [call(old, "toolu_3")])  # (row 3: the old folder's own, after the move)
    assert copy(call(new, "toolu_3")) == 1  # (ids of the old folder past the move: not held)
    with closing(sqlite3.connect(log)) as db, db:
        db.execute(
            "INSERT INTO moved_folders (timestamp, from_path, to_path, upto) "
            "VALUES ('2026-12-06T17:00:00Z', ?, ?, 4)",
            (new, old),
        )
    assert copy(call(old, "toolu_2"), call(old, "toolu_1")) == 0  # a lost state file


def test_a_copy_without_sessions_reads_a_folder_s_other_folders_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A transcript's calls of a store skill made in many working folders: the copy looked
    for the folders counting for the skill's (its plugin's other versions, its store
    folders before its base moved, the moves) again for each working folder, reading every
    folder the log names each time (1,000 rows of 20 skills in 50 working folders: 6.5 s).
    They are read once a folder; the working folders a row may name in the old base are
    still found for each (``cwds_before``): a call logged before the project moved is held,
    one made elsewhere is not."""
    from skillc_index.accesslog import merge, moves, reader

    log = tmp_path / "logs.db"
    old, new = tmp_path / "old", tmp_path / "new"  # the project, before and after its mv
    folders = [f".skillc/skills/s{n}" for n in range(3)]

    def call(base: Path, folder: str, cwd: str) -> AccessRecord:
        return AccessRecord("show", folder.rpartition("/")[2], str(base / folder),
                            str(base / cwd), {}, timestamp="2026-12-06T16:00:00Z")  # fmt: skip

    insert(log, [call(old, folder, "sub0") for folder in folders])
    reads: list[str] = []
    for module, name in ((moves, "former_stores"), (reader, "other_versions")):
        real = getattr(module, name)

        def counted(rows: Any, folder: str, *rest: Any, real: Any = real) -> Any:
            reads.append(folder)
            return real(rows, folder, *rest)

        monkeypatch.setattr(module, name, counted)
    rows = merge.FallbackRows(
        [(tuple(call(new, folder, f"sub{n}").values()), 1) for folder in folders for n in range(5)]
    )
    assert merge.copy_missing(log, rows, sessions=False) == 12  # sub0's held, as made there
    assert sorted(reads) == sorted(str(new / folder) for folder in folders for _ in range(2))


def test_a_copy_without_sessions_holds_a_row_an_older_route_install_took(project: Path) -> None:
    """A call imported under the folder an older skillc's ``route install`` left (its route
    manifest records the move, the log none) is held by a copy naming the store folder, as
    the readers count it there (:func:`~skillc_index.accesslog.moves.routed_moves`): the
    copy read only ``moved_folders``, and the call was imported again under the store
    folder (counted twice). Counted alike by ``count_missing``."""
    from skillc_index.accesslog.merge import FallbackRows, copy_missing, count_missing

    log = _old_route(project, uses=1)
    store = str(project / ".skillc" / "skills" / "user-own")
    assert _store_uses(log, Path(store)) == 1  # what the readers count
    with closing(sqlite3.connect(log)) as db:
        (row,) = db.execute(
            "SELECT timestamp, command, skill, cwd FROM access_log WHERE skill_path != ?",
            (store,),
        ).fetchall()
    timestamp, command, skill, cwd = row
    again = AccessRecord(command, skill, store, cwd, {}, timestamp=timestamp, run_id="s2")
    rows = FallbackRows([(tuple(again.values()), 1)])
    assert count_missing(log, rows, sessions=False) == 0
    assert copy_missing(log, rows, sessions=False) == 0  # held: nothing imported again
    assert _store_uses(log, Path(store)) == 1
    with closing(sqlite3.connect(log)) as db:
        assert db.execute("SELECT COUNT(*) FROM access_log").fetchone() == (1,)
    other = AccessRecord(command, skill, store, cwd, {"n": 1}, timestamp=timestamp, run_id="s2")
    assert copy_missing(log, FallbackRows([(tuple(other.values()), 1)]), sessions=False) == 1
