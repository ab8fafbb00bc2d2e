"""The SQL skillc-stats runs against a team store (PostgreSQL, :mod:`._team`): its schema and
migrations (:data:`MIGRATIONS`, the version in ``skillc.schema_version``), the uploads and
the pruning. The reads that are the team store's own are in :mod:`._team_reads` (the rows
the filters keep, summed from the rollups these statements make) and :mod:`._team_all`
(``--all``); the reports' other statements are the local logs' own
(:mod:`skillc_index.accesslog.reader`), which :class:`~._team.TeamStore` runs as they are.

Parameterised SQL only: ``%s`` marks (psycopg's), every value a bound parameter; the tables
live in the PostgreSQL schema ``skillc``.
"""

from __future__ import annotations

from skillc_index.accesslog import COLUMNS as LOCAL_COLUMNS
from skillc_index.accesslog.reader import (
    ROW_FAILED,
    SUCCEEDED,
    UTC_DAY,
)
from skillc_stats._team_days import (
    DAY_TIME,
    NOT_UTC,
    ROW_TIME,
    as_times,
)
from skillc_stats._team_kinds import (
    DAILY_KINDS,
    DAILY_KINDS_NOW,
    KIND_FROM,
    KIND_ROLLUPS,
    kind_key,
    kind_sum,
    roll_up_kinds,
)

SCHEMA_VERSION = 11
#: ``pg_advisory_xact_lock`` key held while the schema is checked and migrated.
LOCK_KEY = 0x736B696C6C63  # "skillc"
#: ``pg_advisory_xact_lock(LOG_LOCK_CLASS, hashtext(log_key))``: held by each upload batch
#: (two-key locks never meet the one-key ``LOCK_KEY``), so that two uploads of one log take
#: turns and each reads the other's rows before it stores its own.
LOG_LOCK_CLASS = 0x736B63  # "skc"
LOCK_LOG = "SELECT pg_advisory_xact_lock(%s, hashtext(%s))"
#: ``pg_advisory_xact_lock(HORIZON_KEY)``: the retention horizon's lock. Each upload batch
#: holds it shared from before its log's lock (so before its ``INSERT``, whose snapshot,
#: taken after, reads the horizon) to its commit; ``stats prune --from`` holds it alone while
#: it deletes the rows and records the horizon. So a prune waits for the batches being
#: inserted (its ``DELETE`` then sees their rows) and the batches after it wait for its commit
#: (they read its horizon): after a prune no row older than its horizon is left, and none
#: arrives.
HORIZON_KEY = LOCK_KEY + 1  # a one-key lock, as LOCK_KEY (never it)
HOLD_HORIZON = "SELECT pg_advisory_xact_lock_shared(%s)"
TAKE_HORIZON = "SELECT pg_advisory_xact_lock(%s)"
#: An upload batch waits for the horizon's lock without the session's ``lock_timeout`` (to the
#: transaction's end at most), then takes it again for the locks after (:meth:`TeamStore._lock`).
WAIT_UNBOUNDED = "SET LOCAL lock_timeout = 0"
WAIT_BOUNDED = "SELECT set_config('lock_timeout', %s, true)"
#: A reader's stream (``_team.TeamStore.each``) left idle is ended (``_team.IDLE_TIMEOUT``).
IDLE_BOUNDED = "SELECT set_config('idle_in_transaction_session_timeout', %s, true)"
_TEXT = 'TEXT COLLATE "C"'  # byte order: timestamps and paths compare as in SQLite

#: A row's day in the rollups by day: its UTC day (skillc-index's ``UTC_DAY``), or for a time
#: not of that form its first 10 characters marked :data:`NOT_UTC` (schema 10; before, those
#: 10 characters: a day of ``--by``, where the local log puts the row in no period).
ROLLUP_DAY = f"COALESCE({UTC_DAY}, substr(timestamp, 1, 10) || '{NOT_UTC}')"

#: The daily rollup of every row, by command (migration 3; each upload adds its own rows'
#: counts): ``--all`` tells uses from the author's own runs by command, as the local logs do.
ROLLUP_ALL = (
    f"INSERT INTO usage_daily SELECT {ROLLUP_DAY}, skill, command, username, "
    "machine, cwd, COUNT(*), MIN(timestamp), MAX(timestamp) FROM access_log "
    "GROUP BY 1, 2, 3, 4, 5, 6"
)

# -- the rollups (migration 4) ---------------------------------------------------------------

#: What a row accessed, without its per-row identifier: the ``args`` of a row imported from an
#: agent's transcript (``{"agent": ..., "id": ..., ...}``, keys sorted as skillc writes them)
#: lose their ``"id"`` member, the tool call's id, unique to each row (grouped by ``args``,
#: every imported row was a group of its own); other rows' ``args`` as they are.
_IMPORTED = """left(args, 10) = '{"agent": ' AND split_part(args, '"', 6) = 'id'"""
TARGET = (
    f"CASE WHEN {_IMPORTED} THEN replace(args, '\"id\": \"' || split_part(args, '\"', 8) "
    "|| '\", ', '') ELSE args END"
)
#: That identifier, kept in ``access_log.call_id`` (NULL for other rows). Plain string
#: functions, no regular expression: they cost a fifth of one per row uploaded.
CALL_ID = f"CASE WHEN {_IMPORTED} THEN split_part(args, '\"', 8) END"
#: Who a row is: the uploader (``%s``), unless the row was logged by ``skc mcp --http`` for a
#: token's user, whose run id ends in ``@<token name>`` (a run id has no ``@`` otherwise).
ROW_USER = (
    "CASE WHEN strpos(u.run_id, '@') > 0 "
    "THEN substr(u.run_id, strpos(u.run_id, '@') + 1) ELSE %s END"
)

#: Each rollup: its columns (the key), every one a column of the rows or ``day`` or ``target``.
#: ``usage_daily`` (``--all``: the days of a time range that no week or month covers; and
#: every ``--all`` with a user or machine filter), ``usage_skills`` (``--all`` over all time
#: with one; and the trends, ``counts_statement``),
#: ``usage_targets`` (one skill over a time range: the rows' targets per day, by everything a
#: filter can name), ``usage_totals`` (one skill over all time) and ``usage_skill_days``
#: (the trends of every skill, ``--all --by``, without a user, machine or project filter:
#: a row per day, skill and command, a 30th of ``usage_daily``'s).
ROLLUPS: dict[str, tuple[str, ...]] = {
    "usage_daily": ("day", "skill", "command", "username", "machine", "cwd"),
    "usage_skill_days": ("day", "skill", "command"),
    "usage_skills": ("skill", "command", "username", "machine", "cwd"),
    "usage_targets": (
        "skill", "day", "command", "username", "machine", "cwd", "target", "error",
    ),
    "usage_totals": ("skill", "command", "username", "machine", "cwd", "target", "error"),
}  # fmt: skip
#: Where each new rollup is made from when a migration makes it (a coarser one from a finer).
_MADE_FROM = {
    "usage_targets": None,
    "usage_totals": "usage_targets",
    "usage_skills": "usage_totals",
    "usage_skill_days": "usage_daily",
}


def _coarser(table: str, finer: str) -> str:
    """The rows of ``finer`` (a rollup or CTE) as the input of the rollup ``table``."""
    return f"SELECT * FROM {finer}"


def _create_kind_rollup(table: str) -> tuple[str, ...]:
    period = KIND_ROLLUPS[table]
    first = f"{period[0]} {_TEXT} NOT NULL, " if period else ""
    times = "" if period else f", first_use {_TEXT}, last_use {_TEXT}"
    return (
        f"CREATE TABLE {table} ({first}skill {_TEXT} NOT NULL, cwd {_TEXT} NOT NULL, "
        f"accesses BIGINT NOT NULL, uses BIGINT NOT NULL, authored BIGINT NOT NULL{times})",
        f"CREATE UNIQUE INDEX {table}_key ON {table} ({kind_key(table)})",
    )


def _key(columns: tuple[str, ...]) -> str:
    """A rollup's unique key: a path, a target or an error hashed (a btree entry holds at most
    about 2,700 bytes; an upload bounds the others,
    :data:`skillc_stats._team_rows.KEY_BYTES`), an error's absence told from an empty one."""
    parts = []
    for column in columns:
        if column in ("cwd", "target"):
            parts.append(f"md5({column})")
        elif column == "error":
            parts += ["md5(COALESCE(error, ''))", "(error IS NULL)"]
        else:
            parts.append(column)
    return ", ".join(parts)


def _rows_shaped(source: str, day: str = ROLLUP_DAY) -> str:
    """The rows of ``source`` (a table or CTE with the rows' columns) as a rollup's input,
    each of the ``day`` (SQL) of its ``timestamp``."""
    return (
        f"SELECT {day} AS day, skill, command, username, machine, cwd, "
        f"{TARGET} AS target, error, 1 AS accesses, timestamp AS first, timestamp AS last, "
        f"{ROW_FAILED} AS failed FROM {source}"
    )


def roll_up(table: str, source: str, *, upsert: bool, current: bool = False) -> str:
    """``INSERT`` into the rollup ``table`` the sums of ``source`` (a subquery holding its
    columns, ``accesses``, ``failed``, ``first``, ``last``), keys in one order (two uploads
    updating the same keys cannot deadlock); ``upsert``: added to the counts already there.
    ``current``: as schema 11 keeps them, with the ``failed`` rows among the ``accesses``
    and times compared as times (:func:`as_times`); else as migrations 4 to 10 made them."""
    columns = ROLLUPS[table]
    names = ", ".join(columns)
    if current:
        sums, first, last = ", failed", as_times("MIN", "first"), as_times("MAX", "last")
        values = f"SUM(accesses), SUM(failed), {first}, {last}"
    else:
        sums, values = "", "SUM(accesses), MIN(first), MAX(last)"
    statement = (
        f"INSERT INTO {table} ({names}, accesses{sums}, first, last) "
        f"SELECT {names}, {values} FROM ({source}) AS rows_ GROUP BY {names}"
    )
    if not upsert:
        return statement
    first, last = f"{table}.first", f"{table}.last"
    added = [f"accesses = {table}.accesses + EXCLUDED.accesses"]
    if current:
        added.append(f"failed = {table}.failed + EXCLUDED.failed")
        added.append(f"first = {as_times('LEAST', first, 'EXCLUDED.first')}")
        added.append(f"last = {as_times('GREATEST', last, 'EXCLUDED.last')}")
    else:
        added += [
            f"first = LEAST({first}, EXCLUDED.first)",
            f"last = GREATEST({last}, EXCLUDED.last)",
        ]
    return (
        f"{statement} ORDER BY {_key(columns)} ON CONFLICT ({_key(columns)}) DO UPDATE SET "
        + ", ".join(added)
    )


def _create_rollup(table: str) -> tuple[str, ...]:
    types = {"error": _TEXT}
    columns = ", ".join(
        f"{column} {types.get(column, _TEXT + ' NOT NULL')}" for column in ROLLUPS[table]
    )
    return (
        f"CREATE TABLE {table} ({columns}, accesses BIGINT NOT NULL, first {_TEXT} NOT NULL, "
        f"last {_TEXT} NOT NULL)",
        f"CREATE UNIQUE INDEX {table}_key ON {table} ({_key(ROLLUPS[table])})",
    )


def _make_rollup(table: str, current: bool = False) -> str:
    """The rollup ``table`` made from the stored rows (or from the finer rollup); ``current``:
    :func:`roll_up`'s."""
    finer = _MADE_FROM.get(table)
    source = _rows_shaped("access_log") if finer is None else _coarser(table, finer)
    return roll_up(table, source, upsert=False, current=current)


#: Every rollup made again from the stored rows (the benchmark's rows written by SQL), as
#: this schema keeps them; ``REBUILD_ROLLUPS_10`` as version 10 made them (the tests' older
#: stores).
REBUILD_ROLLUPS: tuple[str, ...] = (
    *(f"TRUNCATE {table}" for table in (*ROLLUPS, *KIND_ROLLUPS)),
    roll_up("usage_daily", _rows_shaped("access_log"), upsert=False, current=True),
    *(_make_rollup(table, current=True) for table in _MADE_FROM),
    *(
        roll_up_kinds(t, DAILY_KINDS_NOW.format(KIND_FROM[t]), upsert=False, current=True)
        for t in KIND_ROLLUPS
    ),
)
REBUILD_ROLLUPS_10: tuple[str, ...] = (
    *(f"TRUNCATE {table}" for table in (*ROLLUPS, *KIND_ROLLUPS)),
    ROLLUP_ALL,
    *(_make_rollup(table) for table in _MADE_FROM),
    *(roll_up_kinds(t, DAILY_KINDS.format("usage_daily"), upsert=False) for t in KIND_ROLLUPS),
)

# -- the rows not of UTC form out of their days (migration 10) -------------------------------

#: The stored rows of each day (first 10 characters) that holds a row whose time is not of
#: skillc's UTC form, ``off`` telling those (two reads of the rows, then only these).
_DAYS_OFF = (
    "CREATE TEMPORARY TABLE days_off ON COMMIT DROP AS SELECT *, "
    f"{UTC_DAY} IS NULL AS off FROM access_log WHERE substr(timestamp, 1, 10) IN "
    f"(SELECT substr(timestamp, 1, 10) FROM access_log WHERE {UTC_DAY} IS NULL)"
)


def _off_their_days(table: str) -> tuple[str, ...]:
    """Migration 10 of the rollup by day ``table``: the sums of the stored rows not of UTC form
    taken out of the day of their first 10 characters (a key left without a row goes; a first
    or last time of theirs becomes that of the key's other stored rows, if any) and added to
    that day marked :data:`NOT_UTC`, as an upload adds them. (A row pruned stays counted where
    it was.)"""
    columns = ROLLUPS[table]
    names = ", ".join(columns)
    same = " AND ".join(
        f"{{0}}.{c} {'IS NOT DISTINCT FROM' if c == 'error' else '='} {{1}}.{c}" for c in columns
    )

    def sums(off: str) -> str:
        rows = _rows_shaped(f"days_off WHERE {off}", "substr(timestamp, 1, 10)")
        return (
            f"(SELECT {names}, SUM(accesses) AS accesses, MIN(first) AS first, MAX(last) AS "
            f"last FROM ({rows}) AS shaped GROUP BY {names})"
        )

    return (
        f"UPDATE {table} AS r SET accesses = r.accesses - o.accesses, "
        "first = CASE WHEN r.first = o.first THEN COALESCE(u.first, r.first) ELSE r.first END, "
        "last = CASE WHEN r.last = o.last THEN COALESCE(u.last, r.last) ELSE r.last END "
        f"FROM {sums('off')} AS o LEFT JOIN {sums('NOT off')} AS u ON {same.format('u', 'o')} "
        f"WHERE {same.format('r', 'o')}",
        f"DELETE FROM {table} WHERE accesses <= 0",
        roll_up(table, _rows_shaped("days_off WHERE off"), upsert=True),
        f"ANALYZE {table}",
    )


#: The views of proper timestamps for dashboards (Grafana): the rows and the daily rollup
#: (schema 11: with its ``failed`` rows, no use, :data:`VIEWS_11`).
_VIEWS = {
    "access_events": f"SELECT id, {ROW_TIME} AS time, username, machine, skill, command, cwd, "
    "args, call_id, error, skill_path, run_id, log_key, source_id FROM access_log",
    "usage_days": f"SELECT {DAY_TIME} AS time, skill, command, username, machine, cwd, "
    "accesses FROM usage_daily",
}
_VIEWS_11 = {"usage_days": _VIEWS["usage_days"].replace("accesses FROM", "accesses, failed FROM")}


def _failed_of(table: str, finer: str) -> str:
    """Migration 11: the failed rows of each key of the rollup ``table`` (of ``ROLLUPS``, no
    ``error`` among its columns) that has any, summed from the ``finer`` one that has them."""
    columns = ROLLUPS[table]
    names = ", ".join(columns)
    same = " AND ".join(f"r.{column} = f.{column}" for column in columns)
    return (
        f"UPDATE {table} AS r SET failed = f.failed FROM (SELECT {names}, SUM(failed) AS failed "
        f"FROM {finer} WHERE failed > 0 GROUP BY {names}) AS f WHERE {same}"
    )


#: Migration 11: the failed rows of ``usage_targets`` summed once by ``usage_daily``'s key
#: (only the failed keys: far fewer than the rollup's), which the rollups by day and by kind
#: take theirs from, each updating only its keys that hold a failed row.
_FAILED_DAYS = (
    "CREATE TEMPORARY TABLE failed_days ON COMMIT DROP AS SELECT "
    f"{', '.join(ROLLUPS['usage_daily'])}, SUM(failed) AS failed FROM usage_targets "
    "WHERE failed > 0 GROUP BY 1, 2, 3, 4, 5, 6"
)


def _uses_less_failed(table: str) -> str:
    """Migration 11: the uses of each key of ``table`` (of :data:`KIND_ROLLUPS`) holding a
    failed read, less those (a failed read is no use); ``usage_folders``' first and last use
    of those keys made again from ``usage_targets``, as an upload makes them (of a key whose
    rows all failed or none did: :data:`KIND_FROM`)."""
    period = KIND_ROLLUPS[table]
    name, of_day = period or ("", "")
    keys = [name, "skill", "cwd"] if period else ["skill", "cwd"]
    failed = f"SUM({kind_sum('uses', 'failed')})"
    grouped = ", ".join(str(n) for n in range(1, len(keys) + 1))
    select = ", ".join([f"{of_day} AS {name}", "skill", "cwd"] if period else keys)
    sums = (
        f"(SELECT {select}, {failed} AS failed FROM failed_days GROUP BY {grouped} "
        f"HAVING {failed} > 0) AS f"
    )
    same = " AND ".join(f"r.{key} = f.{key}" for key in keys)
    if period:
        return f"UPDATE {table} AS r SET uses = r.uses - f.failed FROM {sums} WHERE {same}"
    used = f"{kind_sum('uses', '1')} = 1 AND failed = 0"
    times = (
        f"(SELECT skill, cwd, {as_times('MIN', 'first')} AS first_use, "
        f"{as_times('MAX', 'last')} AS last_use FROM {KIND_FROM[table]} WHERE {used} "
        f"AND (skill, cwd) IN (SELECT skill, cwd FROM failed_days) GROUP BY 1, 2) AS u"
    )
    return (
        f"UPDATE {table} AS r SET uses = r.uses - f.failed, first_use = u.first_use, "
        f"last_use = u.last_use FROM {sums} LEFT JOIN {times} "
        f"ON u.skill = f.skill AND u.cwd = f.cwd WHERE {same}"
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
    (
        # 4 (issue 40): every query within 1 s at 10 M rows. The per-row identifier of an
        # imported row in its own column (filled from this version's uploads on); one skill's
        # queries read the sums of rollups keyed by what they group and filter by (all time:
        # usage_totals; a time range: usage_targets), --all over all time usage_skills; the
        # index by skill and command no query reads any more goes (one less to keep up).
        f"ALTER TABLE access_log ADD COLUMN call_id {_TEXT}",
        *_create_rollup("usage_targets"),
        *_create_rollup("usage_totals"),
        *_create_rollup("usage_skills"),
        *(_make_rollup(table) for table in ("usage_targets", "usage_totals", "usage_skills")),
        # The rows are read only for the hours a time filter cuts from a day (and for an
        # upload's own checks, by log and id): a BRIN index of the time (rows arrive about in
        # time order; a few pages, nearly free to keep up) replaces the three btree indexes
        # by skill and time, whose upkeep was most of an upload's cost.
        "DROP INDEX access_log_skill",
        "DROP INDEX access_log_skill_time",
        "DROP INDEX access_log_time",
        "CREATE INDEX access_log_time ON access_log USING brin (timestamp)",
        # proper timestamps for dashboards (Grafana): the rows and the daily rollups
        *(f"CREATE VIEW {name} AS {select}" for name, select in _VIEWS.items()),
        # retention (skc stats prune): rows before the latest horizon are never taken again
        f"CREATE TABLE retention (pruned_before {_TEXT} NOT NULL)",
        "ANALYZE usage_targets",
        "ANALYZE usage_totals",
        "ANALYZE usage_skills",
    ),
    (
        # 5 (issue 40): --all over a time range read the daily rollup, a row per day, skill,
        # command, user, machine and folder (1.6 M rows a quarter at 12 M rows): its whole
        # months now come from a monthly one by skill, command and folder (users and
        # machines summed), made from the daily one.
        f"CREATE TABLE usage_monthly (month {_TEXT} NOT NULL, skill {_TEXT} NOT NULL, "
        f"command {_TEXT} NOT NULL, cwd {_TEXT} NOT NULL, accesses BIGINT NOT NULL, "
        f"first {_TEXT} NOT NULL, last {_TEXT} NOT NULL)",
        "CREATE UNIQUE INDEX usage_monthly_key ON usage_monthly (month, skill, command, md5(cwd))",
        "INSERT INTO usage_monthly SELECT substr(day, 1, 7), skill, command, cwd, "
        "SUM(accesses), MIN(first), MAX(last) FROM usage_daily GROUP BY 1, 2, 3, 4",
        "ANALYZE usage_monthly",
    ),
    (
        # 6 (issue 40): uploads insert their rows without ON CONFLICT (its per-row check cost
        # half as much again as the insert): each batch holds its log's lock (LOCK_LOG) and
        # sends only the rows above the highest stored one, so every writer must take it
        # (this version keeps older ones out). The index of `id` goes: no statement reads a
        # row by it, and keeping it up was a tenth of a row's insert; (log_key, source_id),
        # unique, identifies a row.
        "ALTER TABLE access_log DROP CONSTRAINT access_log_pkey",
    ),
    (
        # 7 (issue 40): --all over a range whose cut months lie mostly outside it (February
        # 15 to July 10) read those months' days from usage_daily, 17,000 rows a day at 10 M
        # rows: its months and weeks (the days 1-7, 8-14, 15-21, 22 to the end of a month),
        # and all time, now come from rollups by period, skill and folder only, the commands
        # folded into uses and author runs (a fifth of the monthly rows; all time 30,000
        # rows instead of usage_skills' 420,000), made from the daily one; the monthly
        # rollup by command goes (no statement reads it).
        "DROP TABLE usage_monthly",
        *(step for table in KIND_ROLLUPS for step in _create_kind_rollup(table)),
        *(roll_up_kinds(t, DAILY_KINDS.format("usage_daily"), upsert=False) for t in KIND_ROLLUPS),
        *(f"ANALYZE {table}" for table in KIND_ROLLUPS),
        # The BRIN index of the time had only the block ranges summarized by the last VACUUM:
        # a range filled since matches every time range, so the cut hours of a range read
        # every page uploaded since (autovacuum waits for 2,000,000 inserts at 10 M rows; 800,000
        # rows made it 28,000 pages read instead of 1,300). Autovacuum now summarizes each
        # range as uploads fill it.
        "ALTER INDEX access_log_time SET (autosummarize = on)",
    ),
    (
        # 8 (issue 40): the trends of every skill (--all --by, the page of --all) grouped
        # usage_daily, 17,000 rows a day at 10 M rows, by skill, day and command: they now
        # read a rollup by day, skill and command only, made from it.
        *_create_rollup("usage_skill_days"),
        _make_rollup("usage_skill_days"),
        "ANALYZE usage_skill_days",
    ),
    (
        # 9: a row dated on no day of the calendar (2026-02-30, year 0000) failed every query
        # of the views ("date/time field value out of range"): they now read it as NULL.
        *(f"CREATE OR REPLACE VIEW {name} AS {select}" for name, select in _VIEWS.items()),
    ),
    (
        # 10: a row whose time is not of skillc's UTC form (2026-03-01T23:30:00-05:00, a
        # lowercase t) was in the rollups by day in the day of its first 10 characters, a
        # period of --by and a day of the views, where the local log counts it in none:
        # its day is now that day marked (ROLLUP_DAY), only such rows' sums moved.
        _DAYS_OFF,
        "ANALYZE days_off",  # (its joins planned from its rows, not a guess of one row)
        *(step for table in ROLLUPS if "day" in ROLLUPS[table] for step in _off_their_days(table)),
    ),
    (
        # 11: a failed read (a row of a use command with an error: `show` of no such section)
        # read nothing and is no use. The rollups keep their failed rows (`failed`; those
        # with the error among their columns from it, the others from those), the rollups of
        # --all by kind their uses without them (usage_folders' first and last use taken
        # again from usage_targets, as an upload takes them): only the keys holding a failed
        # row are updated, from their sums made once (a rollup rebuilt whole, or joined
        # whole, cost a pass of its every row: 64 s instead of 33 s for 1,000,000 rows, a
        # key each, one in ten failed). The view of the dashboards gains the failed rows.
        # From now on first and last times compare as times (`as_times`: 10:00:00Z before
        # 10:00:00.5Z), as in a local log.
        *(f"ALTER TABLE {table} ADD COLUMN failed BIGINT NOT NULL DEFAULT 0" for table in ROLLUPS),
        *(
            f"UPDATE {t} SET failed = accesses WHERE NOT {SUCCEEDED}"
            for t in ROLLUPS
            if "error" in ROLLUPS[t]
        ),
        _FAILED_DAYS,
        "ANALYZE failed_days",  # (its joins planned from its rows, not a guess)
        _failed_of("usage_daily", "failed_days"),
        _failed_of("usage_skill_days", "failed_days"),
        _failed_of("usage_skills", "usage_totals"),
        *(_uses_less_failed(table) for table in KIND_ROLLUPS),
        *(f"CREATE OR REPLACE VIEW {name} AS {select}" for name, select in _VIEWS_11.items()),
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
_FINEST = ", ".join(ROLLUPS["usage_targets"])
# The rows a batch adds (the answer: how many, how many the horizon refused, and the horizon),
# each with its call id, and their counts added to every rollup in the same statement (so
# each row is counted once, as it is stored once).
# Only the rows above the highest ``source_id`` stored under the log's key (``%s``): run
# while the batch holds that log's lock (LOCK_LOG), whatever another upload of the same log
# stored before is seen, and nothing can be stored after it (a plain INSERT, cheaper than ON
# CONFLICT; the unique key of (log_key, source_id) would still refuse a row stored twice).
_MAX_STORED = "(SELECT COALESCE(MAX(a.source_id), 0) FROM access_log AS a WHERE a.log_key = %s)"
_HORIZON = "(SELECT COALESCE(MAX(pruned_before), '') FROM retention)"  # the rows refused: counted
#: A row's time is of skillc's UTC form, so its text tells its age: only such a row is pruned,
#: or refused by the horizon (another tool's ``09:30:00-02:00`` is neither; as a local log's
#: ``prune_rows``).
_DATED = f"{UTC_DAY} IS NOT NULL"
_INSERT_UPLOADED = (
    "WITH added AS ("
    f"INSERT INTO access_log (log_key, machine, username, {', '.join(_UPLOAD_COLUMNS)}, "
    "call_id) "
    f"SELECT %s, %s, {ROW_USER}, {', '.join(f'u.{column}' for column in _UPLOAD_COLUMNS)}, "
    f"{CALL_ID.replace('args', 'u.args')} "
    f"FROM upload AS u WHERE u.source_id > {_MAX_STORED} "
    f"AND (u.timestamp >= {_HORIZON} OR NOT {_DATED}){{unless}} "
    "RETURNING timestamp, skill, command, username, machine, cwd, args, error), "
    # summed once at the finest grain, then each rollup from those sums
    f"fine AS (SELECT {_FINEST}, COUNT(*) AS accesses, SUM(failed) AS failed, "
    f"{as_times('MIN', 'first')} AS first, {as_times('MAX', 'last')} AS last "
    f"FROM ({_rows_shaped('added')}) AS shaped GROUP BY {_FINEST}), "
    + ", ".join(
        [
            *(
                f"{t}_ AS ({roll_up(t, _coarser(t, 'fine'), upsert=True, current=True)})"
                for t in ROLLUPS
            ),
            *(
                f"{t}_ AS "
                f"({roll_up_kinds(t, DAILY_KINDS_NOW.format('fine'), upsert=True, current=True)})"
                for t in KIND_ROLLUPS
            ),
        ]
    )
    + f" SELECT COUNT(*), (SELECT COUNT(*) FROM upload AS u WHERE u.source_id > {_MAX_STORED} "
    f"AND u.timestamp < {_HORIZON} AND {_DATED}), {_HORIZON} FROM added"
)
#: Without, and with the rows already stored under an earlier key left out (only while there
#: is one: the test costs about as much as the insert).
INSERT_NEW = _INSERT_UPLOADED.replace("{unless}", "")
INSERT_NOT_STORED_BEFORE = _INSERT_UPLOADED.replace("{unless}", f" AND NOT {_STORED_BEFORE}")

#: ``skc stats prune --from``: the rows older than ``%s`` and of skillc's form (``_DATED``),
#: but the last of each log (it tells the next upload of that log where to start), counted or
#: deleted; the horizon recorded, below which no upload adds a row of that form (a row
#: pruned is never taken, nor counted, again).
_PRUNED = (
    f"FROM access_log AS a WHERE a.timestamp < %s AND {_DATED} AND a.source_id < "
    "(SELECT MAX(b.source_id) FROM access_log AS b WHERE b.log_key = a.log_key)"
)
COUNT_PRUNED = f"SELECT COUNT(*) {_PRUNED}"
PRUNE = f"DELETE {_PRUNED}"
SET_HORIZON = "INSERT INTO retention VALUES (%s)"


#: The store's schema, its version and the statements that check and migrate them.
HAS_VERSION_TABLE = "SELECT to_regclass('skillc.schema_version') IS NOT NULL"
VERSION = "SELECT MAX(version) FROM skillc.schema_version"
LOCK = "SELECT pg_advisory_xact_lock(%s)"
TRY_LOCK = "SELECT pg_try_advisory_xact_lock(%s)"  # (autocommit: released with the statement)
CREATE_SCHEMA = "CREATE SCHEMA IF NOT EXISTS skillc"
CREATE_VERSION_TABLE = "CREATE TABLE IF NOT EXISTS skillc.schema_version (version INTEGER NOT NULL)"
IN_SCHEMA_FOR_NOW = "SET LOCAL search_path TO skillc"
IN_SCHEMA = "SET search_path TO skillc"
CLEAR_VERSION = "DELETE FROM skillc.schema_version"
SET_VERSION = "INSERT INTO skillc.schema_version VALUES (%s)"
#: A writer's bounds: a lock waited for, a transaction left idle (``_team.LOCK_TIMEOUT``...).
BOUNDED_WAITS = (
    "SELECT set_config('lock_timeout', %s, false), "
    "set_config('idle_in_transaction_session_timeout', %s, false)"
)

#: Whether the store's horizon is at or above ``?`` (it refuses every row of skillc's form
#: older than that: :mod:`._team_sent`), and the object id of its ``access_log`` (made anew
#: with the store: what tells a store reset or replaced at the same address). Run as the
#: reports' statements are (``?`` marks: ``TeamStore.__call__``).
HORIZON_REACHES = f"SELECT {_HORIZON} >= ?"
STORE_OID = "SELECT CAST(to_regclass('skillc.access_log') AS oid)"

#: The highest ``source_id`` stored under a log key (``%s``), and that row.
LAST_STORED = (
    f"SELECT source_id, {', '.join(LOCAL_COLUMNS)} FROM access_log "
    "WHERE log_key = %s ORDER BY source_id DESC LIMIT 1"
)
