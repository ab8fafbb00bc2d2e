"""The team store: the access rows of many machines in one PostgreSQL database.

``skc sync --to URL`` uploads the rows of this machine's runtime logs (:func:`upload_logs`);
``skc stats ... --from URL`` reads them with the statements of the local logs
(:mod:`skillc_index.accesslog.reader`: :class:`TeamStore` runs them). The store's tables live
in the PostgreSQL schema ``skillc``; skillc creates and migrates them (``MIGRATIONS``, the
version in ``skillc.schema_version``), under an advisory lock so that many first uploads at
once create them once. Every statement the store runs is in :mod:`._team_sql` (schema,
uploads), :mod:`._team_reads` or :mod:`._team_all` (reads).

**Each row is uploaded once.** A stored row is keyed by ``(log_key, source_id)``: the
identity of the local log it came from and the row's ``id`` there (``AUTOINCREMENT``: never
reused). The identity is the random id the log holds (:mod:`skillc_index.accesslog.identity`:
it survives pruning, and a log removed and created again is a new log); a log without one (a
log of another implementation, which skillc never writes, or an old one that cannot be
written) gets a key derived from its real path and its first row (:func:`log_key`). An
upload asks the store for the highest ``source_id`` it holds of each log, sends the rows
above it in batches (``COPY`` into a temporary table, then one ``INSERT`` of the rows above
the highest ``source_id`` stored, read while the batch holds its log's advisory lock; one
transaction per batch), so an upload that is interrupted (killed, disconnected) leaves whole
batches, and one repeated or running twice at once adds nothing twice. Logs go up two at a
time (two connections, :data:`UPLOAD_CONNECTIONS`), each whole on one. The rows the store
refused (older than its horizon) are remembered and not sent again (:mod:`._team_sent`).

**Copies of a log are told apart.** The log whose row at that highest ``source_id`` differs
from the stored one (or that never had that many rows) is a copy of the log that sent it (a
cloned VM image, a backup restored elsewhere; checked under the log's lock, in the first
batch's transaction, so that of two clones uploading at once the second sees the first's
rows): it gets a new identity, and its rows up to
then are compared with those stored under the old one; only the missing ones are sent. The
same comparison takes over the rows earlier versions sent under the key they derived (the
machine id, the log's real path, its first row), so upgrading sends nothing twice. The
comparison is forgotten only once the store holds a row of the log's own at or above the
last row compared (until then each upload compares again): forgotten while every row was
found under the old key, the next upload would find nothing under the new one and send all.
A value is compared as the store's text holds it (:mod:`._team_rows`: a BLOB as its hex).

``--all`` reads rollups (the rows counted per day, week, month or all time, by skill,
working folder and more), which each upload batch updates in the statement that inserts its
rows (so they count each row once too); a time range takes its whole days from them
(:mod:`._team_all`) and the rest from the rows.

psycopg 3 is imported only here, and only when a ``postgresql://`` URL is used (the
``skillc-stats[postgres]`` extra); without it a team store is E044. A URL is never shown
with its password (:func:`._team_url.masked`), in messages or in the access log.
"""

from __future__ import annotations

import getpass
import socket
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from threading import Event
from typing import TYPE_CHECKING, Any, NamedTuple

from skillc_index import (
    DriverMissing,
    Layout,
    Notice,
    SkillcError,
    TeamStoreUnavailable,
    valid_utf8,
)
from skillc_index.accesslog import open_log
from skillc_index.accesslog.reader import USE_COMMANDS, SkillUsage
from skillc_index.accesslog.upload import highest_id, row_by_id, rows_after
from skillc_stats import _team_reads as reads
from skillc_stats import _team_sql as sql
from skillc_stats._filters import Filters, checked_text
from skillc_stats._log_keys import LogKey, key_of, local_logs, renewed_key, settle
from skillc_stats._team_idle import IdleClock, idle_hint, timed_cursors
from skillc_stats._team_rows import key_bounded, stored_row
from skillc_stats._team_sent import SentState, StoreClaims
from skillc_stats._team_url import masked, scrubbed

if TYPE_CHECKING:
    import psycopg

    from skillc_stats.shapes import UploadShape

#: Rows per upload transaction, and the characters their text may reach (about 16 MB: rows
#: of any size, another tool's, make smaller batches): a batch ends at either.
BATCH_ROWS = 20_000
BATCH_CHARS = 16 * 2**20
#: Connections an upload sends its logs through at once (:func:`._team_workers.upload_each`).
UPLOAD_CONNECTIONS = 2
#: Rows a streamed read (:meth:`TeamStore.each`) fetches from the server at a time, and the
#: name of its server-side cursor (one stream at a time per connection).
EACH_ROWS = 500
EACH_CURSOR = "skillc_each"
#: How long the server lets a writer's transaction, or a reader's stream (:meth:`TeamStore.each`:
#: ``stats --from`` suspended, a slow pipe), sit idle (an uploader stalled mid-batch: a
#: suspended laptop, a stopped process) before it ends the session, releasing its locks, and
#: how long a writer waits for a lock (another upload's batch updating the same rollup rows,
#: which it holds for about a second) before its upload fails (E043; what it stored stays).
IDLE_TIMEOUT = "30s"
LOCK_TIMEOUT = "60s"
#: How long a connection waits on a server that stopped answering over TCP (a network gone,
#: a host down) before it fails (E043): keepalive probes after 30 s idle, every 10 s, 3
#: unanswered end it; data sent and not acknowledged for 60 s ends it too. libpq applies
#: them to TCP connections only (a Unix socket's server is this machine's). A URL that sets
#: one of them, or ``connect_timeout``, keeps its own value (:func:`_unless_set`).
KEEPALIVES = {
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
    "tcp_user_timeout": 60_000,  # milliseconds
}

# -- the store ----------------------------------------------------------------------------


def _driver() -> Any:
    try:
        import psycopg
    except ImportError:
        raise DriverMissing() from None
    return psycopg


def _unless_set(psycopg: Any, url: str, defaults: dict[str, Any]) -> dict[str, Any]:
    """The connection parameters of ``defaults`` (:data:`KEEPALIVES`, ``connect_timeout``) the
    URL does not set itself (its own win: ``?keepalives_idle=5`` or ``?connect_timeout=3`` is
    the user's choice). A URL libpq cannot parse is left to the connection to refuse."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        own = conninfo_to_dict(url)
    except psycopg.Error:
        own = {}
    return {name: value for name, value in defaults.items() if name not in own}


class TeamStore:
    """An open connection to a team store, its schema at :data:`SCHEMA_VERSION`. Callable
    as :data:`skillc_index.accesslog.reader.Rows`: it runs the statements of the local logs.

    A writer (``write``, uploads) creates or migrates the schema; a reader changes nothing,
    and a database without skillc's schema (or with another version of it) is E043."""

    def __init__(self, url: str, *, write: bool = True, connect_timeout: int = 10) -> None:
        self.url = url
        self.shown = masked(url)
        #: The rows this store refused before, not sent again by uploads (:mod:`._team_sent`).
        self.claims = StoreClaims(None, self)
        #: The rows this connection's committed batches added (what a Ctrl-C leaves stored:
        #: counted in a worker thread, which no Ctrl-C interrupts between a commit and its
        #: count), and the event that ends its upload after the batch it is storing
        #: (:func:`._team_workers.upload_each`).
        self.added, self.halt = 0, Event()
        self._clock = IdleClock()  # (the idle time of a batch's transaction: :meth:`failure`)
        self._psycopg = _driver()
        try:
            # UTF-8 whatever PGCLIENTENCODING or the URL says: another client encoding made
            # text bytes (SQL_ASCII: wrong counts, E999) or failed on a character (LATIN1)
            self.db: psycopg.Connection[Any] = self._psycopg.connect(
                url,
                autocommit=True,
                client_encoding="utf8",
                cursor_factory=timed_cursors(self._clock),
                **_unless_set(
                    self._psycopg, url, {**KEEPALIVES, "connect_timeout": connect_timeout}
                ),
            )
        except self._psycopg.Error as exc:
            raise self.failure(exc) from None
        try:
            self._utf8_database()
            self._migrate(write)
        except BaseException:
            self.db.close()
            raise

    @property
    def driver_error(self) -> type[Exception]:
        """The driver's base exception (psycopg's ``Error``)."""
        return self._psycopg.Error  # type: ignore[no-any-return]

    def failure(self, exc: BaseException) -> TeamStoreUnavailable:
        """E043, the driver's message its hint; one of a session the server ended for sitting
        idle in a transaction says so (:func:`idle_hint`)."""
        reason = scrubbed(str(exc) or type(exc).__name__, self.url)
        db = getattr(self, "db", None)  # (None: the connection failed)
        idle = None if db is None or not db.broken else self._clock.idle()
        return TeamStoreUnavailable(self.shown, idle_hint(reason, exc, idle, IDLE_TIMEOUT))

    def close(self) -> None:
        self.db.close()

    def cancel(self) -> None:
        """Cancel the statement this connection runs, from another thread (a second Ctrl-C:
        :func:`._team_workers._joined`); its batch fails, rolled back. Nothing when it fails."""
        with suppress(self._psycopg.Error):
            self.db.cancel()

    def __enter__(self) -> TeamStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _utf8_database(self) -> None:
        """E043 for a database whose encoding is not UTF8, before anything is read or sent: a
        LATIN1 one cannot hold an emoji (an upload failed halfway), a SQL_ASCII one holds
        whatever bytes any client sent and compares them as bytes."""
        encoding = self.db.info.parameter_status("server_encoding")  # reported at login
        if encoding is not None and encoding != "UTF8":
            raise TeamStoreUnavailable(
                self.shown,
                f"its database's encoding is {encoding}: a skillc team store needs a UTF8 "
                "database (CREATE DATABASE ... ENCODING 'UTF8' TEMPLATE template0)",
            )

    def _migrate(self, write: bool) -> None:
        """Create or migrate the ``skillc`` schema (no writes when it is current)."""
        try:
            version = self._version()
            if version < sql.SCHEMA_VERSION and not write:
                reason = self._not_current(version)
                if reason is not None:
                    raise TeamStoreUnavailable(self.shown, reason)
            # a reader never migrates (a SELECT-only role may not): a migration committed
            # since its version was read, which is read again below
            if write and version < sql.SCHEMA_VERSION:
                with self.db.transaction():
                    self.db.execute(sql.LOCK, (sql.LOCK_KEY,))
                    self.db.execute(sql.CREATE_SCHEMA)
                    self.db.execute(sql.CREATE_VERSION_TABLE)
                    version = self._version()
                    if version < sql.SCHEMA_VERSION:
                        self.db.execute(sql.IN_SCHEMA_FOR_NOW)
                        for steps in sql.MIGRATIONS[version:]:
                            for statement in steps:
                                self.db.execute(statement)
                        self.db.execute(sql.CLEAR_VERSION)
                        self.db.execute(sql.SET_VERSION, (sql.SCHEMA_VERSION,))
            version = self._version()
            if version > sql.SCHEMA_VERSION:
                raise TeamStoreUnavailable(
                    self.shown,
                    f"its schema is version {version}, newer than this skillc's "
                    f"({sql.SCHEMA_VERSION}): upgrade skillc-stats",
                )
            self.db.execute(sql.IN_SCHEMA)
            if write:  # not before: other writers wait for a migration to end
                self.db.execute(sql.BOUNDED_WAITS, (LOCK_TIMEOUT, IDLE_TIMEOUT))
        except self._psycopg.Error as exc:
            raise self.failure(exc) from None

    def _not_current(self, version: int) -> str | None:
        """Why a reader cannot use a store of an older ``version``: an upload is migrating it
        (it holds the migration's lock: tried here without waiting, released at once; creating
        it when ``version`` is 0), or
        none is and one must; None when a migration committed since ``version`` was read
        (the lock is free, the version current: read again once the lock was had)."""
        taken = self.db.execute(sql.TRY_LOCK, (sql.LOCK_KEY,)).fetchone()
        if taken is not None and not taken[0]:
            if version == 0:  # the first upload is making it
                return "no skillc team store in this database yet: an upload is creating it"
            return "it is being migrated by another upload: try again shortly"
        version = self._version()
        if version >= sql.SCHEMA_VERSION:
            return None
        if version == 0:
            return "no skillc team store in this database"
        from skillc_index.helppage import program_command  # (the program run: skc, skillc-stats)

        upload = program_command("sync --to")
        return f"its schema is version {version}: run '{upload}' to migrate it"

    def _version(self) -> int:
        row = self.db.execute(sql.HAS_VERSION_TABLE).fetchone()
        if row is None or not row[0]:
            return 0
        found = self.db.execute(sql.VERSION).fetchone()
        return int(found[0]) if found and found[0] is not None else 0

    def __call__(self, statement: str, params: Sequence[Any]) -> list[Any]:
        """Run one read-only statement written for SQLite (``?`` marks: they hold no ``%``)."""
        try:
            return self.db.execute(statement.replace("?", "%s"), list(params)).fetchall()
        except self._psycopg.Error as exc:
            raise self.failure(exc) from None

    def each(self, statement: str, params: Sequence[Any]) -> Iterator[Any]:
        """The rows of one read-only statement (as :meth:`__call__`) a few hundred at a time,
        never all held at once (a skill's distinct searches are unbounded), as a local log's
        :meth:`~skillc_index.accesslog.reader.LocalRows.each` reads them: a server-side cursor
        in a transaction, fetched :data:`EACH_ROWS` at a time (``Cursor.stream(size=)`` needs
        libpq 17 and psycopg 3.2: E043 with an older libpq). One stream at a time: a second
        begun while one is open is E043 (the first goes on). The transaction left idle over
        :data:`IDLE_TIMEOUT` (the reader suspended, a slow pipe) is ended by the server (E043):
        its ACCESS SHARE locks made a migration wait, and every writer behind it."""
        try:
            with self.db.transaction(), self.db.cursor(name=EACH_CURSOR) as cursor:
                self.db.execute(sql.IDLE_BOUNDED, (IDLE_TIMEOUT,))
                cursor.execute(statement.replace("?", "%s"), list(params))
                while chunk := cursor.fetchmany(EACH_ROWS):
                    yield from chunk
        except self._psycopg.Error as exc:
            raise self.failure(exc) from None

    def usage(self, filters: Filters) -> list[SkillUsage]:
        """Uses, first and last use, distinct projects and author activity of every skill
        (``--all``): whole days from the daily rollup, the rows of a day the time filters cut
        from the log."""
        from skillc_stats._team_all import usage_statement

        statement, values = usage_statement(filters)
        return [
            SkillUsage(key, int(uses), first, last, int(projects), int(authored))
            for key, uses, first, last, projects, authored in self(statement, values)
        ]

    def stats_log(self, skill: str, filters: Filters) -> TeamStatsLog:
        """The per-skill queries over the rows of every skill named ``skill``."""
        return TeamStatsLog(self, skill, filters)

    # -- uploading -------------------------------------------------------------------------

    def upload(self, log: Path, key: LogKey, machine: str, user: str) -> tuple[int, bool, int]:
        """Send the rows of ``log`` the store does not hold yet; return how many it added,
        whether the log turned out to be a copy of another (it has a new identity), and how
        many rows older than the store's retention horizon it refused (``stats prune``).
        ``key`` is read again from the file the rows are read from (:func:`key_of`: a log
        replaced since is sent under its own)."""
        try:
            return self._upload(log, key, machine, user)
        except self._psycopg.Error as exc:
            raise self.failure(exc) from None

    def _last(self, key: str) -> tuple[int, tuple[Any, ...]] | None:
        """The highest ``source_id`` stored under ``key`` and that row (one index lookup)."""
        row = self.db.execute(sql.LAST_STORED, (key,)).fetchone()
        return None if row is None else (int(row[0]), tuple(row[1:]))

    @staticmethod
    def _diverged(local: sqlite3.Connection, last: int, stored: tuple[Any, ...]) -> bool:
        """Whether the log open as ``local`` is not the log that sent ``stored``, the row
        ``last`` of its key: its row ``last`` differs, or it never had that many rows (a copy,
        on a cloned machine or from a backup). A row pruned since cannot tell: not a copy."""
        row = row_by_id(local, last)
        if row is None:
            return last > highest_id(local)
        return tuple(stored_row(row)) != stored

    def _upload(self, log: Path, key: LogKey, machine: str, user: str) -> tuple[int, bool, int]:
        with closing(open_log(log)) as local:
            # the key of the file read here (the log may have been replaced since ``key``)
            current = key_of(local, log, key.writable)
            if current is None:
                return 0, False, 0
            key, renewed, added, refused = current, False, 0, 0
            self.db.execute(sql.CREATE_UPLOAD)
            # the copy check and the first batch under the log's lock: a clone of the log
            # uploading at once sees this one's rows before its own check, or the other way.
            # The batch (the rows after the highest one stored when it is read) is copied
            # before the lock is taken, as every batch is (:meth:`_send`).
            while True:  # once more after the log got a new identity: its rows from there
                found = self._last(key.key)
                start = 0 if found is None else found[0]
                previous = key.previous if key.previous_upto > start else None
                start, tail = self.claims.resume(key.key, local, start, sure=previous is None)
                rows = rows_after(local, start, BATCH_ROWS, BATCH_CHARS)
                batch = next(rows, [])
                with self._batch():
                    self._copy(batch)
                    self._lock(key)
                    found = self._last(key.key)  # another upload may have stored since
                    if found is not None and key.writable and self._diverged(local, *found):
                        fresh = renewed_key(log, key.key)
                        if fresh is not None:
                            key, renewed = fresh, True
                            continue  # (nothing stored: the copied rows go with the commit)
                    if batch:
                        added, refused, horizon = self._insert(batch, key, previous, machine, user)
                        tail.sent(batch, refused, horizon)
                break
            self.added += added
            while not self.halt.is_set() and (batch := next(rows, [])):
                with self._batch():
                    more, less, horizon = self._send(batch, key, previous, machine, user)
                self.added += more
                tail.sent(batch, less, horizon)
                added, refused = added + more, refused + less
        if key.writable and key.previous_upto:
            # Every row up to previous_upto is stored now, under one key or the other; but
            # the next upload starts after the highest row under key.key: forgotten before
            # one is there (all were under the earlier key), the rows would be sent again.
            last = self._last(key.key)
            if last is not None and last[0] >= key.previous_upto:
                settle(log, key.key)
        self.claims.remember(key.key, tail, self._last)  # the rows above the store's, refused
        return added, renewed, refused

    @contextmanager
    def _batch(self) -> Iterator[None]:
        """The transaction of one batch, its idle time clocked (:class:`IdleClock`) while it
        is open: its failure (E043) is made here, the clock's time known, and the clock
        stopped however the batch ends."""
        try:
            with self.db.transaction():
                self._clock.begin()
                yield
        except self._psycopg.Error as exc:
            raise self.failure(exc) from None
        finally:
            self._clock.end()

    def _send(
        self, batch: list[Any], key: LogKey, previous: str | None, machine: str, user: str
    ) -> tuple[int, int, str]:
        """Store one batch of rows in the transaction open: copied, then inserted under the
        log's lock; the rows added, those the retention horizon refused, and the horizon."""
        self._copy(batch)
        self._lock(key)
        return self._insert(batch, key, previous, machine, user)

    def _lock(self, key: LogKey) -> None:
        """The horizon's lock, shared, then the log's (to the commit). The horizon's first,
        waited for without the :data:`LOCK_TIMEOUT` (a prune holds it alone while it deletes,
        bounded work however long): an upload waiting for it under the timeout failed E043
        when a prune took longer, and waiting while holding its log's lock made every other
        upload of the log fail too. Taken before the ``INSERT``, whose snapshot reads the
        horizon (a prune waits for the batch, the batches after it read its horizon)."""
        self.db.execute(sql.WAIT_UNBOUNDED)
        self.db.execute(sql.HOLD_HORIZON, (sql.HORIZON_KEY,))
        self.db.execute(sql.WAIT_BOUNDED, (LOCK_TIMEOUT,))
        self.db.execute(sql.LOCK_LOG, (sql.LOG_LOCK_CLASS, key.key))

    def _copy(self, batch: list[Any]) -> None:
        """``batch`` into the temporary table ``upload`` (emptied by the commit), before the
        log's lock is taken: an uploader paused while it streams the rows (Ctrl-Z, a suspended
        laptop; the server sees a statement waiting for data, never an idle transaction, so
        no timeout ends it) holds no lock another upload waits for."""
        if batch:
            with self.db.cursor() as cursor, cursor.copy(sql.COPY_UPLOAD) as copy:
                for values in batch:
                    copy.write_row([values[0], *stored_row(values[1:])])

    def _insert(
        self, batch: list[Any], key: LogKey, previous: str | None, machine: str, user: str
    ) -> tuple[int, int, str]:
        """The copied rows stored, under the log's lock (only those above the highest row
        stored: whatever another upload stored since they were read is left out)."""
        with self.db.cursor() as cursor:
            if previous is not None and batch[0][0] <= key.previous_upto:
                params = (key.key, machine, user, key.key, previous, key.previous_upto)
                cursor.execute(sql.INSERT_NOT_STORED_BEFORE, (*params, key.key))
            else:
                cursor.execute(sql.INSERT_NEW, (key.key, machine, user, key.key, key.key))
            row = cursor.fetchone()
        return (int(row[0]), int(row[1]), str(row[2])) if row else (0, 0, "")


class TeamStatsLog:
    """The queries of :class:`skillc_index.accesslog.reader.StatsLog` over one skill's rows
    in the team store, answered from the sums of its rollups (:func:`._team_reads.rolled`): the
    same answers, at a cost that follows the skill's distinct targets, days, projects, users
    and machines, not its rows (an imported row's tool-call id is no part of its target)."""

    def __init__(self, store: TeamStore, skill: str, filters: Filters) -> None:
        self._store = store
        self._skill = skill
        self._filters = filters

    def _rows(self, shape: tuple[str, str], extra: Sequence[Any] = ()) -> list[Any]:
        return self._store(*reads.skill_statement(self._filters, self._skill, *shape, extra))

    def period(self) -> tuple[str | None, str | None]:
        from skillc_stats._team_all import period_statement

        found = self._store(*period_statement(self._filters, self._skill))
        return (found[0][0], found[0][1]) if found else (None, None)

    def command_args_counts(self) -> Iterator[Any]:
        """One ``(command, args)`` group at a time (:meth:`TeamStore.each`), as from a local
        log: a skill's distinct searches are unbounded."""
        shape = reads.COMMAND_TARGETS
        return self._store.each(*reads.skill_statement(self._filters, self._skill, *shape, ()))

    def args_counts(self, command: str) -> list[Any]:
        return self._rows(reads.TARGETS_OF, [command])

    def error_counts(self) -> list[Any]:
        return self._rows(reads.ERRORS)

    def cwd_counts(self) -> list[Any]:
        return self._rows(reads.USES_BY_CWD, USE_COMMANDS)

    def day_counts(self) -> list[Any]:
        return self.counts(("day",))

    def counts(self, keys: Sequence[str]) -> list[Any]:
        return self._store(*reads.counts_statement(self._filters, keys, self._skill))


# -- uploading this machine's logs ---------------------------------------------------------


class LogUpload(NamedTuple):
    path: str
    added: int
    error: SkillcError | None = None
    """Set when this log could not be read (E999; its rows stay for the next upload)."""
    renewed: bool = False
    """The log was a copy of another one (a cloned machine, a restored backup): it got an
    identity of its own, and only its rows missing from the store were sent."""
    refused: int = 0
    """Rows the store refused: older than its retention horizon (``stats prune --from``)."""


class UploadReport(NamedTuple):
    """What ``skc sync --to`` did: the store (its URL masked), the user and machine the rows
    were recorded under, and each local log with the rows the store added."""

    store: str
    user: str
    machine: str
    logs: tuple[LogUpload, ...]
    warnings: tuple[Notice, ...] = ()
    """The rows refused could not be remembered (:meth:`~._team_sent.SentState.save`); a
    Ctrl-C's (:attr:`stored`: the rows stored by then; ``logs``: those it was done with)."""
    stored: int | None = None

    @property
    def added(self) -> int:
        return sum(log.added for log in self.logs) if self.stored is None else self.stored

    @property
    def interrupted(self) -> bool:
        return self.stored is not None

    @property
    def refused(self) -> int:
        return sum(log.refused for log in self.logs)

    @property
    def ok(self) -> bool:
        return all(log.error is None for log in self.logs)

    def to_dict(self) -> UploadShape:
        from skillc_stats._sync import error_json

        return {
            "store": self.store,
            "user": self.user,
            "machine": self.machine,
            "added": self.added,
            "refused": self.refused,
            "interrupted": self.interrupted,
            "logs": [
                {
                    "path": log.path,
                    "added": log.added,
                    "renewed": log.renewed,
                    "refused": log.refused,
                    "error": error_json(log.error),
                }
                for log in self.logs
            ],
        }


class UploadInterrupted(KeyboardInterrupt):
    """Ctrl-C ended an upload (:func:`upload_logs`), each connection after the batch it was
    storing: ``report`` holds the rows stored by then."""

    def __init__(self, report: UploadReport) -> None:
        super().__init__()
        self.report = report


def current_user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"


def upload_logs(
    url: str,
    layout: Layout | None = None,
    *,
    user: str | None = None,
    machine: str | None = None,
) -> UploadReport:
    """Upload the rows of every runtime log of ``layout``'s stores to the team store at
    ``url`` (see the module: each row once, whatever is repeated or interrupted), recorded
    under ``user`` (default: the login name) and ``machine`` (default: the host name).

    Raises E100 for an argument that is no ``str``, :class:`~skillc_index.DriverMissing` (E044)
    without psycopg and :class:`~skillc_index.TeamStoreUnavailable` (E043) when the store cannot
    be used; a log that cannot be read is reported in its :class:`LogUpload`, the others go on.
    A Ctrl-C ends each connection after its batch (a second one cancels the batches):
    :class:`UploadInterrupted`, the rows stored."""
    from skillc_stats._team_workers import upload_each

    url = checked_text(url, "url", "a postgresql:// URL")
    # text as any other (a login or host name not UTF-8: U+FFFD for each byte that is not)
    user = key_bounded(valid_utf8(checked_text(user or current_user(), "user", "a name")))
    machine = checked_text(machine or socket.gethostname(), "machine", "a name")
    machine = key_bounded(valid_utf8(machine))
    layout = layout or Layout.discover()
    paths = local_logs(layout)
    sent = SentState.of(layout)  # (the rows each store refused: :mod:`._team_sent`)
    unsaved: Notice | None = None
    done: dict[int, LogUpload] = {}
    stored: int | None = None
    with TeamStore(url) as store:  # creates or migrates the schema, once
        stores = [store]
        try:
            while len(stores) < min(UPLOAD_CONNECTIONS, len(paths)):
                try:
                    stores.append(TeamStore(url))
                except TeamStoreUnavailable:
                    break  # a server or role allowing one connection: one log at a time
            for each in stores:
                each.claims = StoreClaims(sent, each)
            upload_each(stores, paths, layout, machine, user, done)
        except KeyboardInterrupt:  # every worker ended after its batch: say what is stored
            stored = sum(each.added for each in stores)
        finally:
            for other in stores[1:]:
                other.close()
            unsaved = sent.save()  # the claims of the logs uploaded (a Ctrl-C too)
    warnings: tuple[Notice, ...] = () if unsaved is None else (unsaved,)
    logs = tuple(done[index] for index in sorted(done))
    if stored is None:
        return UploadReport(store.shown, user, machine, logs, warnings)
    from skillc_index.helppage import program_command  # (the program run: skc, skillc-stats)

    said = f"interrupted: {stored:,} {'entry' if stored == 1 else 'entries'} stored in"
    said += f" {store.shown}; the next '{program_command('sync --to')}' sends the rest"
    warnings += (Notice(said),)
    raise UploadInterrupted(UploadReport(store.shown, user, machine, logs, warnings, stored))
