"""Every SQL statement skillc-stats runs against a team store (PostgreSQL, :mod:`._team`):
its schema and migrations (:data:`MIGRATIONS`, the version in ``skillc.schema_version``), the
uploads, and the reads that are the team store's own (``--all`` from the daily rollup,
:func:`usage_statement`). The reports' statements are the local logs' own
(:mod:`skillc_index.accesslog.reader`), which :class:`~._team.TeamStore` runs as they are.

Parameterised SQL only: ``%s`` marks (psycopg's), every value a bound parameter; the tables
live in the PostgreSQL schema ``skillc``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from skillc_index.accesslog import COLUMNS as LOCAL_COLUMNS
from skillc_index.accesslog.reader import IS_AUTHOR, IS_USE, KIND_PARAMS, where_clause
from skillc_stats._filters import Filters

SCHEMA_VERSION = 3
#: ``pg_advisory_xact_lock`` key held while the schema is checked and migrated.
LOCK_KEY = 0x736B696C6C63  # "skillc"
_TEXT = 'TEXT COLLATE "C"'  # byte order: timestamps and paths compare as in SQLite

#: The daily rollup of every row, by command (migration 3; each upload adds its own rows'
#: counts): ``--all`` tells uses from the author's own runs by command, as the local logs do.
ROLLUP_ALL = (
    "INSERT INTO usage_daily SELECT substr(timestamp, 1, 10), skill, command, username, "
    "machine, cwd, COUNT(*), MIN(timestamp), MAX(timestamp) FROM access_log "
    "GROUP BY 1, 2, 3, 4, 5, 6"
)

#: Statements taking the store from version ``i`` to ``i + 1`` (in the ``skillc`` schema).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        f"""CREATE TABLE access_log (
            id BIGSERIAL PRIMARY KEY,
            log_key {_TEXT} NOT NULL,
            source_id BIGINT NOT NULL,
            machine {_TEXT} NOT NULL,
            username {_TEXT} NOT NULL,
            timestamp {_TEXT} NOT NULL,
            run_id {_TEXT} NOT NULL,
            command {_TEXT} NOT NULL,
            skill {_TEXT} NOT NULL,
            skill_path {_TEXT} NOT NULL,
            cwd {_TEXT} NOT NULL,
            args {_TEXT} NOT NULL,
            error {_TEXT},
            UNIQUE (log_key, source_id)
        )""",
        # one skill's rows (every per-skill query), by command, by time, by project
        "CREATE INDEX access_log_skill ON access_log (skill, command, timestamp)",
        "CREATE INDEX access_log_skill_time ON access_log (skill, timestamp, cwd)",
        # every skill at once (--all) and the time filters
        "CREATE INDEX access_log_time ON access_log (timestamp, skill, cwd)",
    ),
    (
        # 2: no path in an index (a btree entry holds at most about 2,700 bytes: a longer
        # working folder would fail every upload), and the daily rollup of --all.
        "DROP INDEX access_log_skill_time",
        "DROP INDEX access_log_time",
        "CREATE INDEX access_log_skill_time ON access_log (skill, timestamp)",
        "CREATE INDEX access_log_time ON access_log (timestamp)",
        f"""CREATE TABLE usage_daily (
            day {_TEXT} NOT NULL,
            skill {_TEXT} NOT NULL,
            username {_TEXT} NOT NULL,
            machine {_TEXT} NOT NULL,
            cwd {_TEXT} NOT NULL,
            uses BIGINT NOT NULL,
            first {_TEXT} NOT NULL,
            last {_TEXT} NOT NULL
        )""",
        "CREATE UNIQUE INDEX usage_daily_key "
        "ON usage_daily (day, skill, username, machine, md5(cwd))",
        # (version 2's rollup, without the command: migration 3 makes it again)
        "INSERT INTO usage_daily SELECT substr(timestamp, 1, 10), skill, username, machine, "
        "cwd, COUNT(*), MIN(timestamp), MAX(timestamp) FROM access_log GROUP BY 1, 2, 3, 4, 5",
    ),
    (
        # 3: the rollup by command, so that --all counts uses apart from the author's own
        # runs (build, lint, stats: never uses). Made again from the stored rows, which hold
        # their command: every row uploaded before is classified as a new one is.
        "DROP TABLE usage_daily",
        f"""CREATE TABLE usage_daily (
            day {_TEXT} NOT NULL,
            skill {_TEXT} NOT NULL,
            command {_TEXT} NOT NULL,
            username {_TEXT} NOT NULL,
            machine {_TEXT} NOT NULL,
            cwd {_TEXT} NOT NULL,
            accesses BIGINT NOT NULL,
            first {_TEXT} NOT NULL,
            last {_TEXT} NOT NULL
        )""",
        "CREATE UNIQUE INDEX usage_daily_key "
        "ON usage_daily (day, skill, command, username, machine, md5(cwd))",
        ROLLUP_ALL,
        "ANALYZE usage_daily",
    ),
)

_UPLOAD_COLUMNS = ("source_id", *LOCAL_COLUMNS)
CREATE_UPLOAD = (
    "CREATE TEMPORARY TABLE IF NOT EXISTS upload (source_id BIGINT, "
    + ", ".join(f"{column} {_TEXT}" for column in LOCAL_COLUMNS)
    + ") ON COMMIT DELETE ROWS"
)
#: A row of the batch that is already stored, the same in every column, under an earlier key
#: of its log (``%s``: that key, NULL for none, and the highest id it may hold).
_STORED_BEFORE = (
    "EXISTS (SELECT 1 FROM access_log AS a WHERE a.log_key = %s AND a.source_id = u.source_id "
    "AND u.source_id <= %s AND "
    + " AND ".join(
        f"a.{column} IS NOT DISTINCT FROM u.{column}"
        if column == "error"
        else f"a.{column} = u.{column}"
        for column in LOCAL_COLUMNS
    )
    + ")"
)
COPY_UPLOAD = f"COPY upload ({', '.join(_UPLOAD_COLUMNS)}) FROM STDIN"
# The rows a batch adds (how many: the answer), and their counts added to the daily rollup in
# the same statement (keys in one order: two uploads updating the same keys cannot deadlock).
_INSERT_UPLOADED = (
    "WITH added AS ("
    f"INSERT INTO access_log (log_key, machine, username, {', '.join(_UPLOAD_COLUMNS)}) "
    f"SELECT %s, %s, %s, {', '.join(f'u.{column}' for column in _UPLOAD_COLUMNS)} "
    "FROM upload AS u{unless} "
    "ON CONFLICT (log_key, source_id) DO NOTHING "
    "RETURNING timestamp, skill, command, username, machine, cwd), "
    "rolled AS (INSERT INTO usage_daily SELECT substr(timestamp, 1, 10), skill, command, "
    "username, machine, cwd, COUNT(*), MIN(timestamp), MAX(timestamp) FROM added "
    "GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, md5(cwd) "
    "ON CONFLICT (day, skill, command, username, machine, md5(cwd)) DO UPDATE SET "
    "accesses = usage_daily.accesses + EXCLUDED.accesses, "
    "first = LEAST(usage_daily.first, EXCLUDED.first), "
    "last = GREATEST(usage_daily.last, EXCLUDED.last)) "
    "SELECT COUNT(*) FROM added"
)
#: Without, and with the rows already stored under an earlier key left out (only while there
#: is one: the test costs about as much as the insert).
INSERT_NEW = _INSERT_UPLOADED.replace("{unless}", "")
INSERT_NOT_STORED_BEFORE = _INSERT_UPLOADED.replace("{unless}", f" WHERE NOT {_STORED_BEFORE}")


#: The store's schema, its version and the statements that check and migrate them.
HAS_VERSION_TABLE = "SELECT to_regclass('skillc.schema_version') IS NOT NULL"
VERSION = "SELECT MAX(version) FROM skillc.schema_version"
LOCK = "SELECT pg_advisory_xact_lock(%s)"
CREATE_SCHEMA = "CREATE SCHEMA IF NOT EXISTS skillc"
CREATE_VERSION_TABLE = "CREATE TABLE IF NOT EXISTS skillc.schema_version (version INTEGER NOT NULL)"
IN_SCHEMA_FOR_NOW = "SET LOCAL search_path TO skillc"
IN_SCHEMA = "SET search_path TO skillc"
CLEAR_VERSION = "DELETE FROM skillc.schema_version"
SET_VERSION = "INSERT INTO skillc.schema_version VALUES (%s)"

#: The highest ``source_id`` stored under a log key (``%s``), and that row.
LAST_STORED = (
    f"SELECT source_id, {', '.join(LOCAL_COLUMNS)} FROM access_log "
    "WHERE log_key = %s ORDER BY source_id DESC LIMIT 1"
)


def usage_statement(filters: Filters) -> tuple[str, list[Any]]:
    """The statement of every skill's uses, first and last use, distinct projects (of the
    uses) and author activity (``--all``; ``?`` marks, as the local logs' statements; a row's
    kind is its command's, :func:`~skillc_index.accesslog.command_kind`), and its parameters:
    whole days from the daily rollup, the rows of a day the time filters cut from the log."""
    whole, parts = _split_days(filters.since, filters.until)
    unbounded = replace(filters, since=None, until=None)
    sql, params = where_clause(unbounded)
    days = ["day >= ?" if whole[0] else "", "day <= ?" if whole[1] else ""]
    tests = " AND ".join(test for test in days if test)
    roll = sql + (f" AND {tests}" if sql and tests else f" WHERE {tests}" if tests else "")
    branches = [
        (
            f"SELECT skill, command, cwd, accesses, first, last FROM usage_daily{roll}",
            [*params, *(day for day in whole if day)],
        )
    ]
    for since, until in parts:
        cut, cut_params = where_clause(replace(filters, since=since, until=until))
        branches.append(
            (
                "SELECT skill, command, cwd, 1 AS accesses, timestamp AS first, "
                f"timestamp AS last FROM access_log{cut}",
                cut_params,
            )
        )
    union = " UNION ALL ".join(branch for branch, _ in branches)
    statement = (
        "SELECT skill, SUM(used * accesses), MIN(CASE WHEN used = 1 THEN first END), "
        "MAX(CASE WHEN used = 1 THEN last END), COUNT(DISTINCT CASE WHEN used = 1 THEN cwd END), "
        "SUM(authored * accesses) "
        f"FROM (SELECT skill, cwd, accesses, first, last, {IS_USE} AS used, "
        f"{IS_AUTHOR} AS authored FROM ({union}) AS rolled) AS kinds GROUP BY skill"
    )
    values = [value for _, branch_params in branches for value in branch_params]
    return statement, [*KIND_PARAMS, *values]


def _split_days(
    since: str | None, until: str | None
) -> tuple[tuple[str, str], list[tuple[str, str]]]:
    """The time range ``[since, until]`` (RFC 3339 UTC, inclusive; None: open) as the whole
    days it covers (``(first, last)`` days, ``""`` for an open end; ``first > last`` when
    none) and the parts of days at its ends (``[(since, until)]`` ranges of rows)."""
    first = last = ""
    parts: list[tuple[str, str]] = []
    if since is not None:
        first = since[:10]
        if since[11:] != "00:00:00Z":
            first = _next_day(first)
            end = f"{since[:10]}T23:59:59Z"
            parts.append((since, end if until is None or end < until else until))
    if until is not None:
        last = until[:10]
        if until[11:] != "23:59:59Z":
            last = _next_day(last, -1)
            start = f"{until[:10]}T00:00:00Z"
            if since is None or start > since:
                parts.append((start, until))
            elif not parts:
                parts.append((since, until))
    if first and last and first > last:  # no whole day: rows only
        return ("9999-12-31", "0000-01-01"), parts
    return (first, last), parts


def _next_day(day: str, step: int = 1) -> str:
    from datetime import date, timedelta

    return (date.fromisoformat(day) + timedelta(days=step)).isoformat()
