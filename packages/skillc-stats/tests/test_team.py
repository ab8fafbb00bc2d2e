"""The team store on a real PostgreSQL server (the ``postgres_url`` fixture of the checkout's
conftest.py starts one): uploads once per row, the RFC-0003 queries and ``--all`` over it,
the user and machine filters, the schema's version, passwords never shown, errors as lines."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_index import (
    DriverMissing,
    InvalidOption,
    Layout,
    ResolvedSkill,
    TeamStoreUnavailable,
    format_diagnostic,
    resolve_skill,
)
from skillc_index.accesslog import (
    INSERT_ROW,
    AccessRecord,
    insert,
    open_log,
    primary_log,
    read_identity,
)
from skillc_index.accesslog.schema import SCHEMA
from skillc_stats import QUERY_TYPES, query_all, query_stats, upload_logs
from skillc_stats._log_keys import legacy_log_key, machine_id
from skillc_stats._report import upload_lines
from skillc_stats._team import TeamStore
from skillc_stats._team_sql import REBUILD_ROLLUPS, SCHEMA_VERSION
from skillc_stats._team_url import masked, team_url

from .conftest import record

Run = Callable[..., subprocess.CompletedProcess[str]]


def rows_of(skill: ResolvedSkill, cwd: str = "/work/app", run: str = "run-1") -> list[AccessRecord]:
    """A realistic mix: sections read, a file opened, searches, failures, other commands."""
    show = {"section": "Installation", "file": None, "max_lines": None}
    return [
        record(skill, "show", show, cwd=cwd, run_id=run),
        record(skill, "show", show, cwd=cwd, run_id=run, timestamp="2026-01-31T10:00:00Z"),
        record(skill, "show", {"section": "advanced", "file": None, "max_lines": None}, cwd=cwd),
        record(skill, "open", {"path": "references/api.md"}, cwd=cwd, run_id=run),
        record(skill, "search", {"query": "install", "result_count": 1, "limit": 10}, cwd=cwd),
        record(skill, "show", {"section": "Nope"}, error="error[E020]: not found", cwd=cwd),
        record(skill, "outline", {}, cwd=cwd + "/sub", timestamp="2026-02-01T09:00:00Z"),
    ]


def team_count(url: str) -> int:
    with TeamStore(url, write=False) as store:
        return int(store("SELECT COUNT(*) FROM access_log", [])[0][0])


def test_upload_adds_each_row_once(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    log = log_rows(*rows_of(demo))
    first = upload_logs(postgres_url, layout, user="alice", machine="m1")
    assert first.ok and first.added == 7
    assert [(Path(entry.path), entry.added) for entry in first.logs] == [(log, 7)]
    again = upload_logs(postgres_url, layout, user="alice", machine="m1")
    assert again.added == 0
    assert team_count(postgres_url) == 7
    # two identical accesses (same second, same run) are two rows, new ones are sent
    log_rows(*rows_of(demo)[:2])
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 2
    assert team_count(postgres_url) == 9
    with TeamStore(postgres_url, write=False) as store:
        recorded = store("SELECT DISTINCT username, machine, skill FROM access_log", [])
    assert recorded == [("alice", "m1", "demo")]


def test_a_log_created_again_is_a_new_log(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """Row ids restart in a log made anew: its rows are not taken for ones already sent."""
    log = log_rows(*rows_of(demo))
    assert upload_logs(postgres_url, layout).added == 7
    for suffix in ("", "-wal", "-shm"):
        Path(f"{log}{suffix}").unlink(missing_ok=True)
    log_rows(*rows_of(demo, run="run-2"))
    assert upload_logs(postgres_url, layout).added == 7
    assert team_count(postgres_url) == 14


def test_every_query_reads_the_same_from_the_team_store(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """One query layer: the team store answers what the local log answers, for every
    query type, with and without filters."""
    log_rows(*rows_of(demo), *rows_of(demo, cwd="/work/other"))
    upload_logs(postgres_url, layout)
    filters: list[dict[str, Any]] = [
        {},
        {"since": "2026-01-31", "until": "2026-02-01T09:00:00Z"},
        {"projects": ["/work/app"]},
    ]
    for group_by in QUERY_TYPES:
        for given in filters:
            local = query_stats(demo, layout, group_by=group_by, **given)
            team = query_stats(demo, layout, group_by=group_by, store=postgres_url, **given)
            assert team == local, (group_by, given)
            assert team["data"] or given, group_by  # a query that found something


def test_user_and_machine_filters(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    tmp_path: Path,
    env: dict[str, str],
    demo_skill: Callable[[Path], Path],
) -> None:
    log_rows(*rows_of(demo))
    upload_logs(postgres_url, layout, user="alice", machine="laptop")
    # another project (another machine's folder): the same skill under another path
    other = tmp_path / "other"
    demo_skill(other / ".skillc" / "skills" / "demo")
    other_layout = Layout.discover(other, env)
    theirs = resolve_skill("demo", other_layout)
    insert(primary_log(theirs.runtime), rows_of(theirs)[:3])
    upload_logs(postgres_url, other_layout, user="bob", machine="ci")

    def total(**given: Any) -> int:
        answer = query_stats(demo, layout, store=postgres_url, **given)
        return int(answer["data"]["total_accesses"])

    assert total() == 10  # a skill is every skill of its name in the team
    assert total(users=["alice"]) == 7
    assert total(users=["bob"]) == 3
    assert total(machines=["ci"]) == 3
    assert total(users=["alice"], machines=["ci"]) == 0
    assert total(users=["carol"]) == 0
    answer = query_stats(demo, layout, store=postgres_url, users=["bob", "bob"])
    assert answer["filters"]["users"] == ["bob"]
    with pytest.raises(InvalidOption):  # there are no users in a local log
        query_stats(demo, layout, users=["alice"])


def test_a_run_id_naming_a_user_keeps_the_rows_the_uploaders(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run id of ``$SKC_RUN_ID`` holding an ``@`` (a CI job's ``nightly@ci.example.com``,
    or ``x@alice``) leaves the rows the uploader's: only ``skc mcp --http`` names a token's
    user so (they were stored as ``ci.example.com``'s and ``alice``'s)."""
    for run in ("nightly@ci.example.com", "x@alice"):
        monkeypatch.setenv("SKC_RUN_ID", run)
        log_rows(record(demo, "outline", {}, run_id=""))  # written with $SKC_RUN_ID's
    upload_logs(postgres_url, layout, user="bob", machine="m1")
    with TeamStore(postgres_url, write=False) as store:
        stored = store("SELECT run_id, username FROM access_log ORDER BY 1", [])
    assert stored == [("nightly%40ci.example.com", "bob"), ("x%40alice", "bob")]
    assert (
        query_stats(demo, layout, store=postgres_url, users=["bob"])["data"]["total_accesses"] == 2
    )


def test_all_over_the_team(
    postgres_url: str,
    demo: ResolvedSkill,
    project: Path,
    layout: Layout,
    log_rows: Callable[..., Path],
    demo_skill: Callable[[Path], Path],
) -> None:
    demo_skill(project / ".skillc" / "skills" / "idle")  # installed here, used by nobody
    log_rows(*rows_of(demo))
    # rows of a skill not installed here (a teammate's)
    insert(
        primary_log(demo.runtime),
        [
            AccessRecord(
                command="show",
                skill="theirs",
                skill_path="/home/bob/theirs",
                cwd="/b",
                args={},
                timestamp="2026-03-01T00:00:00Z",
            )
        ],
    )
    upload_logs(postgres_url, layout, user="alice")
    answer = query_all(layout, store=postgres_url)
    summary = [(e["skill"], e["uses"], e["projects"], e["last_used"]) for e in answer["data"]]
    assert summary == [
        ("idle", 0, 0, None),
        ("demo", 6, 2, "2026-02-01T09:00:00Z"),  # the failed show: no use
        ("theirs", 1, 1, "2026-03-01T00:00:00Z"),
    ]
    assert answer["data"][2]["skill_path"] is None  # not installed here
    only_bob = query_all(layout, store=postgres_url, users=["bob"])
    assert [e["uses"] for e in only_bob["data"]] == [0, 0]  # idle, demo: none of bob's


def test_cli_sync_to_and_stats_from(
    postgres_url: str,
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    stats_cli: Run,
    home: Path,
) -> None:
    log_rows(*rows_of(demo))
    url = postgres_url.replace("skillc@", "skillc:hunter2@")  # trust auth: any password
    uploaded = stats_cli("sync", "--to", url)
    assert uploaded.returncode == 0, uploaded.stderr
    assert uploaded.stdout.startswith("Uploaded 7 entries from 1 log to postgresql://skillc:***@")
    assert "hunter2" not in uploaded.stdout + uploaded.stderr
    again = stats_cli("sync", "--to", url, "--format", "json")
    assert json.loads(again.stdout)["added"] == 0
    import jsonschema  # the JSON is the operations' shapes (skillc_stats.shapes)

    from skillc_stats.operations import STATS, SYNC

    jsonschema.validate(json.loads(again.stdout), SYNC.output_schema())
    # the URL from the global config, named `team`
    (home / ".skillc").mkdir(exist_ok=True)
    (home / ".skillc" / "config.toml").write_text(f'[stats]\nurl = "{url}"\n', encoding="utf-8")
    shown = stats_cli("stats", "demo", "--from", "team", "--group-by", "commands")
    assert shown.returncode == 0, shown.stderr
    assert "show" in shown.stdout and "hunter2" not in shown.stdout + shown.stderr
    every = stats_cli("stats", "--all", "--from", "team", "--user", "root", "--format", "json")
    assert every.returncode == 0, every.stderr
    assert json.loads(every.stdout)["filters"]["users"] == ["root"]
    jsonschema.validate(json.loads(every.stdout), STATS.output_schema())
    # the access of `stats --from` is logged, without the password
    with closing(sqlite3.connect(primary_log(demo.runtime))) as db:
        logged = db.execute("SELECT args FROM access_log WHERE command = 'stats'").fetchall()
    args = [json.loads(row[0]) for row in logged]
    assert args[-1]["from"] == "team" and "hunter2" not in json.dumps(args)


def test_a_teammates_row_with_deep_args_is_skipped_and_counted(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Run,
) -> None:
    """One teammate with INSERT must not break ``stats --from team`` for everyone (deep
    ``args`` were E999 RecursionError)."""
    psycopg = pytest.importorskip("psycopg")
    show = {"section": "Installation", "file": None, "max_lines": None}
    log_rows(record(demo, "show", show))
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 1
    deep = '{"section": ' + "[" * 200_000 + "]" * 200_000 + "}"
    with psycopg.connect(postgres_url, autocommit=True) as db:
        columns = [
            str(row[0])
            for row in db.execute(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_name = 'access_log' AND column_name <> 'id' "
                "ORDER BY ordinal_position"
            )
        ]
        fresh = {"args": "%s", "source_id": "source_id + 1000"}
        chosen = ", ".join(fresh.get(column, column) for column in columns)
        db.execute(
            f"INSERT INTO access_log ({', '.join(columns)}) "
            f"SELECT {chosen} FROM access_log LIMIT 1",
            [deep],
        )
        with db.transaction():  # counted as an upload counts it (in the rollups)
            db.execute("SET LOCAL search_path TO skillc")
            for statement in REBUILD_ROLLUPS:
                db.execute(statement)  # type: ignore[arg-type]
    answer = query_stats(demo, layout, group_by="sections", store=postgres_url)
    assert answer["data"] == [{"section": "Installation", "file": "SKILL.md", "count": 1}]
    result = stats_cli("stats", "demo", "--from", postgres_url)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("warning: 1 row of the log skipped: args that are not JSON")
    assert "Total accesses: 2" in result.stdout


def test_project_config_cannot_choose_the_store(
    postgres_url: str, demo: ResolvedSkill, project: Path, stats_cli: Run
) -> None:
    """A checkout's config.toml must not send the user's rows to a server of its choosing."""
    (project / ".skillc" / "config.toml").write_text(
        f'[stats]\nurl = "{postgres_url}"\n', encoding="utf-8"
    )
    result = stats_cli("sync", "--to", "team")
    assert result.returncode == 1
    assert "'stats.url' is only read from the global config" in result.stderr
    assert "error[E100]" in result.stderr and "no team store is configured" in result.stderr
    # the environment variable does name it
    named = stats_cli("sync", "--to", "team", env_extra={"SKILLC_STATS_URL": postgres_url})
    assert named.returncode == 0, named.stderr


def test_unreachable_store_is_an_error_line_without_the_password(
    stats_cli: Run, demo: ResolvedSkill, tmp_path: Path
) -> None:
    url = f"postgresql://me:s3cr%40t@/db?host={tmp_path}&port=1&password=other"
    for args in (
        ("sync", "--to", url),
        ("stats", "demo", "--from", url),
        ("stats", "--all", "--from", url),
    ):
        result = stats_cli(*args)
        assert result.returncode == 1
        first, *rest = result.stderr.splitlines()
        assert first.startswith("error[E043]: team store unavailable: 'postgresql://me:***@/db")
        assert rest and rest[0].startswith("hint: ")
        assert "Traceback" not in result.stderr
        for secret in ("s3cr", "other"):
            assert secret not in result.stderr + result.stdout


def emoji_rows(skill: ResolvedSkill) -> list[AccessRecord]:
    """Rows whose section, working folder and run hold characters only UTF-8 has."""
    show = {"section": "\u00c9moji \U0001f389", "file": None, "max_lines": None}
    cwd = "/work/caf\u00e9 \U0001f389"
    return [record(skill, "show", show, cwd=cwd, run_id=f"run-{n}\u2615") for n in range(3)]


def has_schema(url: str) -> bool:
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        found = db.execute("SELECT 1 FROM pg_namespace WHERE nspname = 'skillc'").fetchone()
    return found is not None


def test_a_database_not_in_utf8_is_refused_before_anything_is_sent(
    postgres_server: Any,
    cli: Callable[..., Run],
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
) -> None:
    """A LATIN1 store failed ``sync --to`` with E999 UnicodeEncodeError after some logs were
    sent; a SQL_ASCII one gave bytes for text (``Uses: 0``, E999 in JSON): both are E043 at
    connect, for the writer and the readers, and nothing is created or sent."""
    skc = cli("skillc-stats", script=True)
    log_rows(*emoji_rows(demo))
    for encoding in ("LATIN1", "SQL_ASCII"):
        url = postgres_server.database(encoding)
        for args in (
            ("sync", "--to", url),
            ("sync", "--to", url, "--format", "json"),
            ("stats", "demo", "--from", url),
            ("stats", "demo", "--from", url, "--format", "json"),
            ("stats", "--all", "--from", url),
        ):
            result = skc(*args)
            assert result.returncode == 1, (args, result.stdout, result.stderr)
            first, hint, *rest = result.stderr.splitlines()
            assert first.startswith("error[E043]: team store unavailable: 'postgresql://")
            assert hint == (
                f"hint: its database's encoding is {encoding}: a skillc team store needs a "
                "UTF8 database (CREATE DATABASE ... ENCODING 'UTF8' TEMPLATE template0)"
            ), args
            assert not rest and "Traceback" not in result.stderr
        assert not has_schema(url), encoding  # nothing created, nothing uploaded


def test_skillc_talks_utf8_whatever_the_client_encoding_says(
    postgres_url: str, cli: Callable[..., Run], demo: ResolvedSkill, log_rows: Callable[..., Path]
) -> None:
    """``PGCLIENTENCODING=SQL_ASCII`` made text bytes (``Uses: 0``, a Period of ``b'...'``,
    E999 in JSON and ``--all``), ``LATIN1`` (or the URL's ``client_encoding``) E043 on an
    emoji row and E999 in ``sync --to``: the store is read and written in UTF-8 always."""
    skc = cli("skillc-stats", script=True)
    log_rows(*rows_of(demo))
    assert (
        skc("sync", "--to", postgres_url, env_extra={"PGCLIENTENCODING": "LATIN1"}).returncode == 0
    )
    log_rows(*emoji_rows(demo))
    uploaded = skc("sync", "--to", postgres_url, env_extra={"PGCLIENTENCODING": "SQL_ASCII"})
    assert uploaded.returncode == 0, uploaded.stderr
    assert team_count(postgres_url) == 10
    readings = (
        ("stats", "demo"),
        ("stats", "demo", "--format", "json"),
        ("stats", "demo", "--group-by", "sections", "--format", "json"),
        ("stats", "--all"),
        ("stats", "--all", "--format", "json"),
    )
    expected = {args: skc(*args, "--from", postgres_url) for args in readings}
    text = expected[("stats", "demo")].stdout
    assert "Period: 2026-01-30T10:00:00Z to 2026-02-01T09:00:00Z\n" in text
    assert (
        "Uses: 9\nFailed reads: 1 (not uses)\n" in text
        and "1. \u00c9moji \U0001f389 (-, 3 accesses)" in text
    )
    assert (
        "\u00c9moji \U0001f389"
        in expected[("stats", "demo", "--group-by", "sections", "--format", "json")].stdout
    )
    for client in ({"PGCLIENTENCODING": "SQL_ASCII"}, {"PGCLIENTENCODING": "LATIN1"}, {}):
        url = postgres_url if client else f"{postgres_url}&client_encoding=LATIN1"
        for args in readings:
            result = skc(*args, "--from", url, env_extra=client)
            assert result.returncode == 0, (client, args, result.stderr)
            wanted = expected[args].stdout
            if not client:  # the URL differs, as shown in JSON
                wanted = wanted.replace(postgres_url, url)
            assert result.stdout == wanted, (client, args)


def test_bad_store_values_are_e100(stats_cli: Run, demo: ResolvedSkill) -> None:
    for args in (
        ("stats", "demo", "--from", "mysql://x"),
        ("sync", "--to", "/tmp/x.db"),
        ("stats", "demo", "--user", "alice"),  # no team store: there are no users
        ("stats", "demo", "--from", "team"),  # none configured
        ("sync", "demo", "--to", "team"),
    ):
        result = stats_cli(*args)
        assert result.returncode == 1, args
        assert result.stderr.startswith("error[E100]"), (args, result.stderr)


def test_a_reader_changes_nothing_and_a_writer_migrates(postgres_url: str) -> None:
    with pytest.raises(TeamStoreUnavailable, match="team store unavailable") as caught:
        TeamStore(postgres_url, write=False)
    assert "no skillc team store" in caught.value.reason
    with TeamStore(postgres_url) as store:  # a writer creates the schema
        assert store("SELECT version FROM schema_version", []) == [(SCHEMA_VERSION,)]
        store.db.execute("UPDATE skillc.schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(TeamStoreUnavailable) as newer:
        TeamStore(postgres_url)
    assert "newer than this skillc's" in newer.value.reason


def test_a_reader_told_a_migration_is_under_way(postgres_url: str) -> None:
    """A reader of a store an upload is migrating (it holds the migration's lock) is told to
    try again shortly, not to run the migration itself."""
    import psycopg

    from skillc_stats._team_sql import LOCK, LOCK_KEY

    TeamStore(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("UPDATE skillc.schema_version SET version = %s", (SCHEMA_VERSION - 1,))
        with pytest.raises(TeamStoreUnavailable) as idle:
            TeamStore(postgres_url, write=False)
        assert f"version {SCHEMA_VERSION - 1}: run 'skc sync --to'" in idle.value.reason
        with db.transaction():  # an upload migrating it
            db.execute(LOCK, (LOCK_KEY,))
            with pytest.raises(TeamStoreUnavailable) as busy:
                TeamStore(postgres_url, write=False)
        assert "being migrated by another upload: try again shortly" in busy.value.reason


def test_a_reader_of_an_older_store_is_told_the_upload_of_the_program_run(
    postgres_url: str, demo: ResolvedSkill, cli: Callable[..., Run]
) -> None:
    """``skillc-stats stats --from URL`` on a store of an older schema, no upload migrating
    it: the error names the upload to run as the user runs it, ``skillc-stats sync --to``
    (it said ``skc sync --to``, a program a skillc-stats user may not have)."""
    import psycopg

    TeamStore(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("UPDATE skillc.schema_version SET version = %s", (SCHEMA_VERSION - 1,))
    result = cli("skillc-stats", script=True)("stats", "demo", "--from", postgres_url)
    assert result.returncode == 1 and result.stderr.startswith("error[E043]"), result.stderr
    assert result.stderr.rstrip("\n").endswith(
        f"its schema is version {SCHEMA_VERSION - 1}: run 'skillc-stats sync --to' to migrate it"
    ), result.stderr
    assert "'skc " not in result.stderr


def test_a_reader_while_the_first_upload_creates_the_store(postgres_url: str) -> None:
    """A reader of a database whose first upload is creating the store (its lock held, no
    schema yet) is told there is no store yet, an upload creating it: not that one is being
    migrated (the stress test's readers wait for that wording)."""
    import psycopg

    from skillc_stats._team_sql import LOCK, LOCK_KEY

    with psycopg.connect(postgres_url, autocommit=True) as db, db.transaction():
        db.execute(LOCK, (LOCK_KEY,))
        with pytest.raises(TeamStoreUnavailable) as creating:
            TeamStore(postgres_url, write=False)
    assert creating.value.reason == (
        "no skillc team store in this database yet: an upload is creating it"
    )


def test_every_connection_asks_for_keepalives_and_a_tcp_user_timeout(postgres_url: str) -> None:
    """Keepalives and a TCP user timeout on every connection (the parameters libpq was given:
    a server gone silent mid-upload, a network lost, then ends it after a bounded wait, E043,
    instead of a wait without end)."""
    from skillc_stats._team import KEEPALIVES

    TeamStore(postgres_url).close()
    with TeamStore(postgres_url, write=False) as store:
        sent = store.db.info.get_parameters()
    assert {name: sent.get(name) for name in KEEPALIVES} == {
        name: str(value) for name, value in KEEPALIVES.items()
    }


def test_the_summary_reads_a_skills_groups_from_the_store_a_few_at_a_time(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """The summary's one pass over a skill's ``(command, args)`` groups streams from the team
    store as from a local log (a skill's distinct searches are unbounded): an iterator, its
    rows fetched in chunks, the same rows as the statement read whole."""
    import collections.abc

    from skillc_stats._filters import Filters

    searches = [
        record(demo, "search", {"query": f"q{n}", "result_count": 1, "limit": 10})
        for n in range(1200)
    ]
    log_rows(*rows_of(demo), *searches)
    upload_logs(postgres_url, layout)
    with TeamStore(postgres_url, write=False) as store:
        log = store.stats_log("demo", Filters())
        groups = log.command_args_counts()
        assert isinstance(groups, collections.abc.Iterator)
        assert not isinstance(groups, (list, tuple))
        first = next(groups)
        assert store.db.info.transaction_status != 0  # a statement under way: not all read
        streamed = [first, *groups]
        assert store.db.info.transaction_status == 0
        whole = store(*store_statement(log))
    assert sorted(map(tuple, streamed)) == sorted(map(tuple, whole))
    assert len(streamed) == 1200 + 6 and query_stats(demo, layout, store=postgres_url)


def test_the_url_s_own_keepalive_settings_win(postgres_url: str) -> None:
    """A URL setting a keepalive parameter keeps its value (``**KEEPALIVES`` overrode
    ``keepalives_idle=5`` and ``tcp_user_timeout=0`` with 30 and 60000); the others are
    still added."""
    TeamStore(postgres_url).close()
    joined = "&" if "?" in postgres_url else "?"
    url = f"{postgres_url}{joined}keepalives_idle=5&tcp_user_timeout=0&keepalives_count=7"
    with TeamStore(url, write=False) as store:
        sent = store.db.info.get_parameters()
    assert sent.get("keepalives_idle") == "5" and sent.get("keepalives_count") == "7"
    assert sent.get("tcp_user_timeout", "0") == "0"  # (a default value is not listed)
    assert sent.get("keepalives_interval") == "10"


def test_the_summary_streams_from_the_store_with_a_libpq_older_than_17(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Cursor.stream(size=500)`` needs libpq 17 (psycopg's ``has_stream_chunked``): with an
    older one every ``skc stats SKILL --from URL`` was E043. The rows stream all the same,
    in chunks, when psycopg reports the capability absent."""
    import psycopg

    from skillc_stats._filters import Filters

    def absent(self: Any, check: bool = False) -> bool:
        if check:
            raise psycopg.NotSupportedError("the feature is not available: libpq 16.4")
        return False

    monkeypatch.setattr(type(psycopg.capabilities), "has_stream_chunked", absent)
    assert not psycopg.capabilities.has_stream_chunked()
    searches = [
        record(demo, "search", {"query": f"q{n}", "result_count": 1, "limit": 10})
        for n in range(1200)
    ]
    log_rows(*rows_of(demo), *searches)
    upload_logs(postgres_url, layout)
    with TeamStore(postgres_url, write=False) as store:
        log = store.stats_log("demo", Filters())
        groups = log.command_args_counts()
        first = next(groups)
        assert store.db.info.transaction_status != 0  # not all read
        streamed = [first, *groups]
        whole = store(*store_statement(log))
    assert sorted(map(tuple, streamed)) == sorted(map(tuple, whole)) and len(whole) == 1206
    assert query_stats(demo, layout, store=postgres_url)


def test_a_select_only_reader_after_a_migration_committed_reads(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A migration that commits between a reader's read of the version and its try of the
    migration's lock (free then): the version is read again and the store used (it was told
    "its schema is version N: run 'skc sync --to' to migrate it"), without the migration's
    branch, so a role that may only read (USAGE on the schema, SELECT on its tables) reads (it
    ran CREATE SCHEMA: E043 "permission denied for database")."""
    import os

    import psycopg

    TeamStore(postgres_url).close()
    role = f"reader_{os.getpid()}"
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute(f"CREATE ROLE {role} LOGIN")
        db.execute(f"GRANT USAGE ON SCHEMA skillc TO {role}")
        db.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA skillc TO {role}")
    url = postgres_url.replace("skillc@", f"{role}@", 1)
    real = TeamStore._version
    reads: list[int] = []

    def before_the_commit(self: TeamStore) -> int:
        reads.append(1)
        return SCHEMA_VERSION - 1 if len(reads) == 1 else real(self)

    monkeypatch.setattr(TeamStore, "_version", before_the_commit)
    with TeamStore(url, write=False) as store:
        assert store("SELECT version FROM schema_version", []) == [(SCHEMA_VERSION,)]
        assert store("SELECT current_user", []) == [(role,)]
    assert len(reads) >= 2


def test_one_stream_at_a_time_a_second_is_e043_and_the_first_goes_on(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """Two streams open at once nested their transactions (closing the outer first failed):
    the second is refused with an error line, the first reads every row and ends."""
    log_rows(*rows_of(demo))
    upload_logs(postgres_url, layout)
    with TeamStore(postgres_url, write=False) as store:
        first = store.each("SELECT source_id FROM access_log ORDER BY source_id", [])
        head = next(first)
        with pytest.raises(TeamStoreUnavailable, match="skillc_each"):
            next(store.each("SELECT 1", []))
        assert [head, *first] == [(n,) for n in range(1, 8)]
        assert store.db.info.transaction_status == 0
        assert [*store.each("SELECT 1", [])] == [(1,)]


def test_a_suspended_stream_lets_a_migration_through(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reader stopped mid-stream (``stats --from`` under Ctrl-Z, a slow pipe) sat idle in
    its transaction holding ACCESS SHARE: a migration's ALTER waited for it (and every writer
    behind the migration). The server ends it after the idle timeout: the ALTER's lock is
    had, the reader's stream is E043."""
    import time

    import psycopg

    from skillc_stats import _team

    log_rows(*rows_of(demo))
    upload_logs(postgres_url, layout)
    monkeypatch.setattr(_team, "IDLE_TIMEOUT", "1s")
    with TeamStore(postgres_url, write=False) as store:
        rows = store.each("SELECT source_id FROM access_log", [])
        next(rows)  # suspended inside its transaction
        started = time.monotonic()
        with psycopg.connect(postgres_url, autocommit=True) as db, db.transaction():
            db.execute("SET LOCAL lock_timeout = '8s'")
            db.execute("LOCK TABLE skillc.access_log IN ACCESS EXCLUSIVE MODE")
        assert time.monotonic() - started < 6
        with pytest.raises(TeamStoreUnavailable):
            list(rows)


def test_the_url_s_own_connect_timeout_wins(postgres_url: str) -> None:
    """``?connect_timeout=3`` in the URL was overridden by the default 10 s."""
    TeamStore(postgres_url).close()
    joined = "&" if "?" in postgres_url else "?"
    with TeamStore(f"{postgres_url}{joined}connect_timeout=3", write=False) as store:
        assert store.db.info.get_parameters().get("connect_timeout") == "3"
    with TeamStore(postgres_url, write=False) as store:
        assert store.db.info.get_parameters().get("connect_timeout") == "10"


def store_statement(log: Any) -> tuple[str, list[Any]]:
    from skillc_stats import _team_reads as reads

    return reads.skill_statement(log._filters, log._skill, *reads.COMMAND_TARGETS, ())


def test_masked() -> None:
    assert masked("postgresql://u:p%40ss@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert masked("postgresql://u@h/db?password=x&sslmode=require") == (
        "postgresql://u@h/db?password=***&sslmode=require"
    )
    assert masked("postgresql://h/db") == "postgresql://h/db"
    assert masked("team") == "team"


def test_a_store_that_is_neither_a_url_nor_team_is_e100() -> None:
    """The value named inside the message, not at its end: no quote doubled before the one
    closing E100's ``invalid option: '...'``."""
    with pytest.raises(InvalidOption) as raised:
        team_url("mysql://u:pw@h/db", "", "--from")
    assert format_diagnostic(raised.value.diagnostic) == (
        "error[E100]: invalid option: '--from 'mysql://u:***@h/db' is not a team store: "
        "give a postgresql:// URL or 'team' (the configured one)'"
    )


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # issue 32: a query password was masked only when its text equalled its decoded value
        ("postgresql://u@h/db?password=p%40ss", "postgresql://u@h/db?password=***"),
        ("postgresql://u@h/db?password=p+ss&x=1", "postgresql://u@h/db?password=***&x=1"),
        ("postgresql://u@h/db?sslpassword=zz9", "postgresql://u@h/db?sslpassword=***"),
        ("postgresql://u@h/db?PassWord=zz9", "postgresql://u@h/db?PassWord=***"),
        ("postgresql://u@h/db?pass%77ord=zz9", "postgresql://u@h/db?pass%77ord=***"),
        (
            "postgresql://u@h/db?oauth_client_secret=zz9",
            "postgresql://u@h/db?oauth_client_secret=***",
        ),
        # user info read as libpq reads it, and with an unencoded '/' in the password
        ("postgresql://u:pa?ss@h/db", "postgresql://u:***@h/db"),
        ("postgresql://u:ab/cd@h/db", "postgresql://u:***@h/db"),
        ("postgresql://u:p@ss@h/db?password=a&b=c", "postgresql://u:***@h/db?password=***&b=c"),
        ("postgresql://u:@h/db", "postgresql://u:***@h/db"),
        ("postgresql://u@/db?host=/x?password=zz9", "postgresql://u@/db?host=/x?password=***"),
        ("postgres://u@h:5432/db?sslmode=require", "postgres://u@h:5432/db?sslmode=require"),
        ("mysql://u:zz9@h", "mysql://u:***@h"),  # a mistyped scheme (the E100 message)
    ],
)
def test_masked_hides_every_form_of_a_password(url: str, shown: str) -> None:
    assert masked(url) == shown


def test_a_query_password_is_never_printed_nor_logged(
    postgres_url: str, demo: ResolvedSkill, log_rows: Callable[..., Path], stats_cli: Run
) -> None:
    """Issue 32: ``?password=p%40ss`` was printed by ``sync --to`` and stored in the access
    row of ``stats --from`` (which ``sync --to`` then uploads for the whole team)."""
    log_rows(*rows_of(demo))
    for secret in ("p%40ss", "p+ss", "p%2Bss"):
        url = f"{postgres_url}&password={secret}"  # trust auth: any password
        for args in (
            ("sync", "--to", url),
            ("sync", "--to", url, "--format", "json"),
            ("stats", "demo", "--from", url),
        ):
            result = stats_cli(*args)
            assert result.returncode == 0, result.stderr
            for text in (secret, "p@ss", "p ss", "p+ss"):
                assert text not in result.stdout + result.stderr, (args, text)
        with closing(sqlite3.connect(primary_log(demo.runtime))) as db:
            logged = db.execute("SELECT args FROM access_log WHERE command = 'stats'").fetchall()
        args_logged = json.loads(logged[-1][0])
        assert args_logged["from"] == f"{postgres_url}&password=***"
    # the E043 line and its hint, and the E100 of a mistyped scheme
    for args in (
        ("stats", "demo", "--from", "postgresql://u@/db?host=/nowhere&port=1&password=p%40ss"),
        ("sync", "--to", "postgresq://u:p%40ss@h/db"),
    ):
        failed = stats_cli(*args)
        assert failed.returncode == 1 and "error[E" in failed.stderr
        assert "p%40ss" not in failed.stderr and "p@ss" not in failed.stderr, failed.stderr


def test_without_the_driver_it_is_e044(
    demo: ResolvedSkill, clean_env: dict[str, str], project: Path
) -> None:
    """psycopg is imported only for a team store; without it, E044 says what to install."""
    probe = (
        "import sys; sys.modules['psycopg'] = None\n"
        "from skillc_stats.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "assert 'psycopg' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
        "sys.exit(code)\n"
    )
    for args, code in (
        (["stats", "demo"], 0),
        (["stats", "--all"], 0),
        (["stats", "demo", "--from", "postgresql://x/db"], 1),
    ):
        result = subprocess.run(
            [sys.executable, "-c", probe, *args],
            cwd=project,
            env=clean_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == code, result.stderr
        if code:
            assert result.stderr.splitlines() == [
                "error[E044]: the PostgreSQL driver is not installed",
                "hint: install it: pip install 'skillc-stats[postgres]'",
            ]
    with pytest.raises(DriverMissing):
        sys.modules["psycopg"] = None  # type: ignore[assignment]
        try:
            TeamStore("postgresql://x/db")
        finally:
            del sys.modules["psycopg"]


def test_all_reads_the_same_from_the_team_store(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """``--all`` over the team (whole days from the daily rollup, the ends of a time range
    from the rows) answers what the local logs answer, whatever the range cuts."""
    times = [f"2026-01-{day:02d}T{hour:02d}:30:00Z" for day in (29, 30, 31) for hour in (0, 11, 23)]
    log_rows(
        *[
            record(demo, "show", {"section": "Usage"}, timestamp=stamp, cwd=f"/p{n % 4}")
            for n, stamp in enumerate(times * 3)
        ]
    )
    upload_logs(postgres_url, layout)
    assert upload_logs(postgres_url, layout).added == 0  # the rollup is not counted twice
    ranges: list[dict[str, Any]] = [
        {},
        {"since": "2026-01-30"},
        {"until": "2026-01-30"},
        {"since": "2026-01-29T11:00:00Z"},
        {"until": "2026-01-31T11:30:00Z"},
        {"since": "2026-01-29T23:00:00Z", "until": "2026-01-31T00:30:00Z"},
        {"since": "2026-01-30T05:00:00Z", "until": "2026-01-30T12:00:00Z"},
        {"since": "2026-01-30T00:00:00Z", "until": "2026-01-30T23:59:59Z"},
        {"since": "2026-01-30T11:30:00Z", "until": "2026-01-30T11:30:00Z"},
        {"since": "2026-02-02"},
        {"since": "2026-01-29T11:00:00Z", "projects": ["/p1"]},
    ]
    for given in ranges:
        local = query_all(layout, **given)["data"]
        team = query_all(layout, store=postgres_url, **given)["data"]
        assert team == local, given
    assert query_all(layout, store=postgres_url)["data"][0]["uses"] == 27


def test_a_plugin_skill_over_its_versions_reads_the_same_from_the_team_store(
    postgres_url: str, home: Path, layout: Layout, demo_skill: Callable[[Path], Path]
) -> None:
    """A Claude Code plugin's skill is counted over every version's cache folder, locally as
    in the team store (where a skill is its name)."""
    cache = home / ".claude/plugins/cache/m/kit"
    (home / ".claude/plugins").mkdir(parents=True)
    for version in ("1.0", "1.1"):
        folder = demo_skill(cache / version / "skills/review")
        record_ = {"scope": "user", "installPath": str(cache / version)}
        plugins = {"version": 2, "plugins": {"kit@m": [record_]}}
        (home / ".claude/plugins/installed_plugins.json").write_text(json.dumps(plugins))
        (home / ".claude/settings.json").write_text('{"enabledPlugins": {"kit@m": true}}')
        skill = resolve_skill("kit:review", layout)
        stamp = f"2026-01-{30 + (version == '1.1')}T10:00:00Z"
        insert(primary_log(skill.runtime), [record(skill, "show", {}, timestamp=stamp)])
    upload_logs(postgres_url, layout)
    local = query_all(layout)["data"]
    assert local[0]["skill_path"] == str(folder) and local[0]["uses"] == 2
    assert query_all(layout, store=postgres_url)["data"] == local
    for store in (None, postgres_url):
        assert query_stats("kit:review", layout, store=store)["data"]["uses"] == 2


def test_a_version_1_store_is_migrated(postgres_url: str, layout: Layout) -> None:
    """A store written by schema version 1 gains the daily rollup of its rows."""
    import psycopg

    from skillc_stats._team_sql import MIGRATIONS

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE SCHEMA skillc")
        db.execute("SET search_path TO skillc")
        for statement in MIGRATIONS[0]:
            db.execute(statement)  # type: ignore[arg-type]
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (1)")
        db.execute(
            "INSERT INTO access_log (log_key, source_id, machine, username, timestamp, run_id, "
            "command, skill, skill_path, cwd, args) VALUES ('k', 1, 'm', 'u', "
            "'2026-01-30T10:00:00Z', 'r', 'show', 'old', '/s/old', '/p', '{}')"
        )
    with pytest.raises(TeamStoreUnavailable, match="unavailable"):
        TeamStore(postgres_url, write=False)  # a reader does not migrate
    TeamStore(postgres_url).close()
    data = query_all(layout, store=postgres_url)["data"]
    assert [(e["skill"], e["uses"], e["last_used"]) for e in data] == [
        ("old", 1, "2026-01-30T10:00:00Z")
    ]


def test_uses_and_author_activity_read_the_same_from_the_team_store(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """Issue 34: the team store counts uses apart from the author's own runs, as the local
    logs do: per skill and for every skill (the daily rollup by command, the rows of the
    days a time range cuts)."""
    commands = ("show", "build", "lint", "stats", "activate", "search", "frobnicate")
    log_rows(
        *[
            record(demo, command, {}, timestamp=f"2026-01-{day:02d}T{hour:02d}:00:00Z", cwd=cwd)
            for day in (29, 30, 31)
            for hour, command, cwd in zip(
                (1, 5, 9, 13, 17, 21, 23),
                commands,
                ("/a", "/m", "/m", "/m", "/b", "/a", "/c"),
                strict=True,
            )
        ]
    )
    upload_logs(postgres_url, layout)
    for given in (
        {},
        {"since": "2026-01-30"},
        {"since": "2026-01-29T12:00:00Z", "until": "2026-01-31T06:00:00Z"},
        {"projects": ["/m"]},
    ):
        local = query_all(layout, **given)["data"]
        assert query_all(layout, store=postgres_url, **given)["data"] == local, given
        for group_by in ("summary", "projects", "commands"):
            mine = query_stats(demo, layout, group_by=group_by, **given)
            assert query_stats(demo, layout, group_by=group_by, store=postgres_url, **given) == mine
    every = query_all(layout, store=postgres_url)["data"]
    assert [(e["uses"], e["author_activity"], e["projects"]) for e in every] == [(9, 9, 2)]
    assert every[0]["first_used"] == "2026-01-29T01:00:00Z"  # not the author's build
    summary = query_stats(demo, layout, store=postgres_url)["data"]
    assert (summary["total_accesses"], summary["uses"], summary["author_activity"]) == (21, 9, 9)


def test_a_version_2_store_is_migrated_and_its_rows_classified(
    postgres_url: str, layout: Layout
) -> None:
    """Rows uploaded before issue 34 (a version 2 store: its rollup had no command) count as
    uses or author activity by their command, as new ones do."""
    import psycopg

    from skillc_stats._team_sql import MIGRATIONS

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE SCHEMA skillc")
        db.execute("SET search_path TO skillc")
        for statement in (*MIGRATIONS[0], *MIGRATIONS[1]):
            db.execute(statement)  # type: ignore[arg-type]
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (2)")
        for n, command in enumerate(("show", "build", "lint", "show")):
            db.execute(
                "INSERT INTO access_log (log_key, source_id, machine, username, timestamp, "
                "run_id, command, skill, skill_path, cwd, args) VALUES ('k', %s, 'm', 'u', "
                "%s, 'r', %s, 'old', '/s/old', '/p', '{}')",
                (n, f"2026-02-0{n + 1}T10:00:00Z", command),
            )
        db.execute(MIGRATIONS[1][-1])  # version 2's rollup of them
    with pytest.raises(TeamStoreUnavailable, match="run 'skc sync --to' to migrate it"):
        TeamStore(postgres_url, write=False)
    TeamStore(postgres_url).close()
    data = query_all(layout, store=postgres_url)["data"]
    assert [(e["skill"], e["uses"], e["author_activity"], e["last_used"]) for e in data] == [
        ("old", 2, 2, "2026-02-04T10:00:00Z")
    ]


# -- the identity of a log (issue 32) -------------------------------------------------------


def numbered(
    skill: ResolvedSkill, first: int, count: int, run: str = "run-1"
) -> list[AccessRecord]:
    """``count`` distinct accesses, one a minute from ``first``."""
    return [
        record(
            skill, "show", {"section": f"S{n}"}, run_id=run, timestamp=f"2026-01-30T10:{n:02d}:00Z"
        )
        for n in range(first, first + count)
    ]


def snapshot(log: Path, to: Path) -> Path:
    """A copy of the database ``log`` (what a VM image or a backup holds)."""
    to.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(log)) as db:
        db.execute("VACUUM INTO ?", (str(to),))
    return to


def put(copy: Path, log: Path) -> None:
    """``copy`` at the place of ``log``: the same path on another machine."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{log}{suffix}").unlink(missing_ok=True)
    snapshot(copy, log)


def test_pruning_a_log_sends_none_of_its_rows_again(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """Issue 32: a log's key held its first row, so trimming old rows by hand made the next
    upload send every row left again (35 stored rows for 20 accesses)."""
    log = log_rows(*numbered(demo, 0, 20))
    assert upload_logs(postgres_url, layout).added == 20
    with closing(sqlite3.connect(log)) as db:
        db.execute("DELETE FROM access_log WHERE id <= 5")
        db.commit()
    assert upload_logs(postgres_url, layout).added == 0
    assert team_count(postgres_url) == 20
    log_rows(*numbered(demo, 20, 3))
    assert upload_logs(postgres_url, layout).added == 3
    assert team_count(postgres_url) == 23


def test_logs_of_machines_sharing_a_machine_id_keep_every_row(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    tmp_path: Path,
) -> None:
    """Issue 32: two machines with one ``/etc/machine-id`` (containers mounting the host's)
    whose logs, at the same path, begin with the same row (one ``SKC_RUN_ID``, the same
    second) had one key: the second machine's rows were dropped ("Uploaded 0")."""
    log = log_rows(*numbered(demo, 0, 3))
    assert upload_logs(postgres_url, layout).added == 3
    first_machine = snapshot(log, tmp_path / "a" / "logs.db")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{log}{suffix}").unlink(missing_ok=True)
    log_rows(*numbered(demo, 0, 1), *numbered(demo, 30, 2))  # same first row, then its own
    second = upload_logs(postgres_url, layout)
    assert (second.added, second.logs[0].renewed) == (3, False)  # every row its own
    assert team_count(postgres_url) == 6
    put(first_machine, log)
    assert upload_logs(postgres_url, layout).added == 0


def test_a_copied_log_gets_its_own_identity_and_loses_no_row(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    tmp_path: Path,
) -> None:
    """Issue 32: machines cloned from one image (its log included) shared the log's key, so
    the rows one of them logged after the clone were dropped. The copy whose row at the
    store's highest id differs is told apart: a new identity, and its rows compared with the
    stored ones, so only the missing ones are sent."""
    log = log_rows(*numbered(demo, 0, 10))
    assert upload_logs(postgres_url, layout).added == 10
    image = snapshot(log, tmp_path / "image" / "logs.db")
    log_rows(*numbered(demo, 10, 5))  # the first machine goes on
    assert upload_logs(postgres_url, layout).added == 5
    first_machine = snapshot(log, tmp_path / "a" / "logs.db")
    put(image, log)  # the clone, at the same path, logs its own accesses
    log_rows(*numbered(demo, 40, 3, run="run-2"))
    cloned = upload_logs(postgres_url, layout)
    assert (cloned.added, cloned.logs[0].renewed, cloned.ok) == (3, True, True)
    assert json.loads(json.dumps(cloned.to_dict()))["logs"][0]["renewed"] is True
    assert upload_lines(cloned)[1] == (
        f"1 log was a copy of another (a cloned machine, a restored backup), now told apart: {log}"
    )
    assert team_count(postgres_url) == 18
    with closing(open_log(log)) as db:
        identity = read_identity(db)
    assert identity is not None and (identity.previous_id, identity.previous_upto) == (None, 0)
    assert upload_logs(postgres_url, layout).added == 0  # settled: nothing compared again
    put(first_machine, log)  # the first machine is still itself
    log_rows(*numbered(demo, 50, 1))
    back = upload_logs(postgres_url, layout)
    assert (back.added, back.logs[0].renewed) == (1, False)
    assert team_count(postgres_url) == 19


def legacy_log(path: Path, records: list[AccessRecord]) -> Path:
    """A log as skillc wrote it before logs had an identity (schema version 3)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(path)) as db:
        for statement in SCHEMA:
            if "log_identity" not in statement:
                db.execute(statement)
        db.executemany(INSERT_ROW, [r.values() for r in records])
        db.execute("PRAGMA user_version = 3")
        db.commit()
    return path


def uploaded_before(url: str, log: Path, upto: int) -> None:
    """The rows ``1..upto`` of ``log`` in the store as skillc-stats 0.1.0 sent them: under
    the key it derived from the machine id, the log's real path and its first row."""
    import psycopg

    with closing(sqlite3.connect(log)) as local:
        first = local.execute("SELECT id, timestamp, run_id FROM access_log ORDER BY id").fetchone()
        rows = local.execute(
            "SELECT id, timestamp, run_id, command, skill, skill_path, cwd, args, error "
            "FROM access_log WHERE id <= ?",
            (upto,),
        ).fetchall()
    key = legacy_log_key(log, first, machine_id())
    TeamStore(url).close()
    with psycopg.connect(url, autocommit=True) as db, db.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO skillc.access_log (log_key, machine, username, source_id, "
            "timestamp, run_id, command, skill, skill_path, cwd, args, error) "
            "VALUES (%s, 'm', 'u', %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT DO NOTHING",
            [(key, *row) for row in rows],
        )


def test_rows_sent_before_log_identities_are_not_sent_again(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """Upgrading: a log's first write (or upload) gives it an identity; its rows already in
    the store under the old key are recognised (compared row by row), only the others sent."""
    log = legacy_log(primary_log(demo.runtime), numbered(demo, 0, 8))
    uploaded_before(postgres_url, log, 5)
    log_rows(*numbered(demo, 8, 1))  # a command writes: the log gains its identity
    with closing(open_log(log)) as db:
        assert read_identity(db) == (read_identity(db)[0], None, 8)  # type: ignore[index]
    first = upload_logs(postgres_url, layout)
    assert first.added == 4 and team_count(postgres_url) == 9
    assert upload_logs(postgres_url, layout).added == 0


def test_a_clone_made_before_the_upgrade_gets_its_dropped_rows_sent(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, tmp_path: Path
) -> None:
    """Two clones of one image shared the old key, and the rows of the second were dropped:
    after the upgrade each log has its own identity, and the second sends the rows the store
    does not hold (same ids, other contents), the first nothing."""
    image = legacy_log(tmp_path / "image" / "logs.db", numbered(demo, 0, 10))
    log = primary_log(demo.runtime)
    log.parent.mkdir(parents=True)
    put(image, log)
    with closing(sqlite3.connect(log)) as db:  # the first machine logs 11..15, sent
        db.executemany(INSERT_ROW, [r.values() for r in numbered(demo, 10, 5)])
        db.commit()
    uploaded_before(postgres_url, log, 15)
    first_machine = snapshot(log, tmp_path / "a" / "logs.db")
    put(image, log)  # the second machine's 11..13 were dropped by the old version
    with closing(sqlite3.connect(log)) as db:
        db.executemany(INSERT_ROW, [r.values() for r in numbered(demo, 40, 3, run="run-2")])
        db.commit()
    assert upload_logs(postgres_url, layout).added == 3
    put(first_machine, log)
    assert upload_logs(postgres_url, layout).added == 0
    assert team_count(postgres_url) == 18


def test_a_log_of_another_implementation_is_uploaded_never_written(
    postgres_url: str, demo: ResolvedSkill, layout: Layout
) -> None:
    """No identity can be stored in it: its key is a hash of its real path and first row."""
    log = primary_log(demo.runtime)
    log.parent.mkdir(parents=True)
    with closing(sqlite3.connect(log)) as db:
        db.executescript(
            "CREATE TABLE access_log (id INTEGER PRIMARY KEY, timestamp TEXT, run_id TEXT, "
            "command TEXT, skill TEXT, skill_path TEXT, cwd TEXT, args TEXT, error TEXT, "
            "took_ms INTEGER)"
        )
        db.executemany(INSERT_ROW, [r.values() for r in numbered(demo, 0, 3)])
        db.commit()
    before = log.read_bytes()
    first = upload_logs(postgres_url, layout)
    assert (first.ok, first.added) == (True, 3)
    assert upload_logs(postgres_url, layout).added == 0
    assert log.read_bytes() == before and team_count(postgres_url) == 3


def test_rows_an_http_server_logged_for_a_token_count_under_its_user(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """``skc mcp --http`` logs a token's calls under a run id ending in ``@<token name>``:
    uploaded, those rows are that user's (the team store's per-user filter and rollups), the
    server's own rows the uploader's (issue 36)."""
    show = {"section": "Installation", "file": None, "max_lines": None}
    runs = ["T-ab12@alice"] * 4 + ["T-cd34@bob.team@example"] * 2 + ["T-ef56"]
    log_rows(*(record(demo, "show", show, run_id=run) for run in runs))
    upload_logs(postgres_url, layout, user="server", machine="skills-host")

    def total(*users: str) -> int:
        answer = query_stats(demo, layout, store=postgres_url, users=list(users))
        return int(answer["data"]["total_accesses"])

    assert (total("alice"), total("bob.team@example"), total("server")) == (4, 2, 1)
    with TeamStore(postgres_url, write=False) as store:
        rolled = store("SELECT username, SUM(accesses) FROM usage_totals GROUP BY 1 ORDER BY 1", [])
    assert [(user, int(n)) for user, n in rolled] == [
        ("alice", 4),
        ("bob.team@example", 2),
        ("server", 1),
    ]
