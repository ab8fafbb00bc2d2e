"""The access log (RFC-0007:C-LOGGING): one way to log a command, where rows go, the
database, and the row shapes analytics read.

- :class:`AccessLog` (``service``): log a command run on a skill, at once or queued; the one
  way every front end logs.
- ``store``: where a row goes and how it is written (primary log, else the fallback; a log
  skillc did not make is never touched): ``AccessRecord``, ``log_access``, ``insert``,
  ``hold_log``, ``fallback_lock``, ``primary_log``, ``fallback_log``, ``mark_skipped``,
  ``new_run_id``...
- ``schema``: the database (``connect``, ``open_log``, ``COLUMNS``, ``RFC_COLUMNS``,
  ``INSERT_ROW``, ``ForeignLog``, ``check_log``, ``check_schema``, ``LOG_FILE``, ``empty_log``).
- ``identity``: the log's own identity, which a team store keys its rows by
  (``LogIdentity``, ``read_identity``, ``renew_identity``, ``settle_identity``).
- ``reader``: every statement that reads rows: the RFC-0003 queries (``StatsLog`` for one
  skill, ``usage_of`` for all at once, over a local log, ``LocalRows``, or a team store's
  ``Rows``; ``where_clause``, ``RowFilters``), what a row counts as (``USE_COMMANDS``:
  an agent's use; ``AUTHOR_COMMANDS``: the author's own runs; ``command_kind``).
- ``upload``: what an upload to a team store reads (``first_row``, ``highest_id``,
  ``last_id``, ``row_by_id``, ``rows_after``).
- ``moves``: the folders ``route`` moved a log's skill between, recorded beside its rows
  (``record_move``) and read as aliases of the folder it is at now (``moves_of``,
  ``folder_key``).
- ``merge``: one log's rows into another, each row once (``sync``): ``FallbackRows``,
  ``read_identities``, ``count_missing``, ``copy_missing``, ``begin_merge``, ``drop_merged``.
- ``errors``: the errors of the commands that read and sync the logs (E030, E031, E040-E044:
  ``InvalidFilter``, ``NoLocalLogs``, ``TeamStoreUnavailable``...; ``sync_folder``).
- ``ShowArgs``, ``OpenArgs``, ``SearchArgs``, ``SourcesArgs`` (``args``): the keys of the
  logged ``args`` that usage analytics read.

Importing this package is cheap (no SQLite): names load from their modules on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "AccessLog": "service",
    "Warn": "service",
    "OpenArgs": "args",
    "SearchArgs": "args",
    "ShowArgs": "args",
    "SourcesArgs": "args",
    "LogIdentity": "identity",
    "new_log_id": "identity",
    "read_identity": "identity",
    "renew_identity": "identity",
    "settle_identity": "identity",
    "AccessRecord": "store",
    "FallbackLocked": "store",
    "LogOutcome": "store",
    "fallback_lock": "store",
    "fallback_log": "store",
    "hold_log": "store",
    "insert": "store",
    "prune_rows": "store",
    "log_access": "store",
    "mark_skipped": "store",
    "new_run_id": "store",
    "primary_log": "store",
    "primary_log_finder": "store",
    "runtime_base": "store",
    "BUSY_TIMEOUT_MS": "schema",
    "misplaced": "schema",
    "COLUMNS": "schema",
    "INSERT_ROW": "schema",
    "LOG_FILE": "schema",
    "RFC_COLUMNS": "schema",
    "ForeignLog": "schema",
    "check_log": "schema",
    "check_schema": "schema",
    "connect": "schema",
    "empty_log": "schema",
    "open_log": "schema",
    "AUTHOR_COMMANDS": "reader",
    "USE_COMMANDS": "reader",
    "command_kind": "reader",
    "CommandCount": "reader",
    "LocalRows": "reader",
    "RowFilters": "reader",
    "Rows": "reader",
    "SkillUsage": "reader",
    "StatsLog": "reader",
    "first_row": "upload",
    "highest_id": "upload",
    "last_id": "upload",
    "row_by_id": "upload",
    "rows_after": "upload",
    "usage_of": "reader",
    "where_clause": "reader",
    "FallbackRows": "merge",
    "Identity": "merge",
    "begin_merge": "merge",
    "copy_missing": "merge",
    "count_missing": "merge",
    "drop_merged": "merge",
    "read_identities": "merge",
}

__all__ = [
    "AUTHOR_COMMANDS",
    "BUSY_TIMEOUT_MS",
    "COLUMNS",
    "INSERT_ROW",
    "LOG_FILE",
    "RFC_COLUMNS",
    "USE_COMMANDS",
    "AccessLog",
    "AccessRecord",
    "CommandCount",
    "FallbackLocked",
    "FallbackRows",
    "ForeignLog",
    "Identity",
    "LocalRows",
    "LogIdentity",
    "LogOutcome",
    "OpenArgs",
    "RowFilters",
    "Rows",
    "SearchArgs",
    "ShowArgs",
    "SkillUsage",
    "SourcesArgs",
    "StatsLog",
    "Warn",
    "begin_merge",
    "check_log",
    "check_schema",
    "command_kind",
    "connect",
    "copy_missing",
    "count_missing",
    "drop_merged",
    "empty_log",
    "fallback_lock",
    "fallback_log",
    "first_row",
    "highest_id",
    "hold_log",
    "insert",
    "last_id",
    "log_access",
    "mark_skipped",
    "misplaced",
    "new_log_id",
    "new_run_id",
    "open_log",
    "primary_log",
    "primary_log_finder",
    "prune_rows",
    "read_identities",
    "read_identity",
    "renew_identity",
    "row_by_id",
    "rows_after",
    "runtime_base",
    "settle_identity",
    "usage_of",
    "where_clause",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from skillc_index.accesslog.args import OpenArgs, SearchArgs, ShowArgs, SourcesArgs
    from skillc_index.accesslog.identity import (
        LogIdentity,
        new_log_id,
        read_identity,
        renew_identity,
        settle_identity,
    )
    from skillc_index.accesslog.merge import (
        FallbackRows,
        Identity,
        begin_merge,
        copy_missing,
        count_missing,
        drop_merged,
        read_identities,
    )
    from skillc_index.accesslog.reader import (
        AUTHOR_COMMANDS,
        USE_COMMANDS,
        CommandCount,
        LocalRows,
        RowFilters,
        Rows,
        SkillUsage,
        StatsLog,
        command_kind,
        usage_of,
        where_clause,
    )
    from skillc_index.accesslog.schema import (
        BUSY_TIMEOUT_MS,
        COLUMNS,
        INSERT_ROW,
        LOG_FILE,
        RFC_COLUMNS,
        ForeignLog,
        check_log,
        check_schema,
        connect,
        empty_log,
        misplaced,
        open_log,
    )
    from skillc_index.accesslog.service import AccessLog, Warn
    from skillc_index.accesslog.store import (
        AccessRecord,
        FallbackLocked,
        LogOutcome,
        fallback_lock,
        fallback_log,
        hold_log,
        insert,
        log_access,
        mark_skipped,
        new_run_id,
        primary_log,
        primary_log_finder,
        prune_rows,
        runtime_base,
    )
    from skillc_index.accesslog.upload import first_row, highest_id, last_id, row_by_id, rows_after
