"""What a row of an access log counts as (DECISIONS, "Logging and analytics"): a *use* (an
agent reading or activating a skill, :data:`USE_COMMANDS`), a *failed use* (a use command's
row whose ``error`` is set: it read nothing, no use), the author's own run
(:data:`AUTHOR_COMMANDS`) or another; in Python (:func:`command_kind`) and in SQL, the same
text in SQLite and PostgreSQL (:data:`USE_ROW`, :data:`ROW_FAILED`: the one home of the test
of a failed row, which skillc-stats' team store builds its rollups' ``failed`` on).
:mod:`.reader` re-exports every name."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "AUTHOR_COMMANDS",
    "IS_AUTHOR",
    "IS_USE",
    "KIND_PARAMS",
    "ROW_FAILED",
    "SUCCEEDED",
    "USE_COMMANDS",
    "USE_ROW",
    "command_kind",
    "row_kinds",
]

#: The commands whose rows are *uses*: an agent reading or activating a skill. The gateway's
#: reads, by CLI or MCP (``outline``, ``show``, ``open``, ``sources``, ``search``), a skill's
#: tools listed and run (``tools``, ``run``, ``exec``), and what ``skc sync --from`` imports
#: from an agent's transcripts and ``skc mcp`` logs for the MCP Skills extension's
#: ``resources/read`` (``activate``: the skill loaded; ``read``: one of its files).
USE_COMMANDS = (
    "outline",
    "show",
    "open",
    "sources",
    "search",
    "tools",
    "run",
    "exec",
    "activate",
    "read",
)
#: The author's own runs, reported apart as "author activity", never as uses: ``build`` (and
#: ``route install``, which builds), ``lint``, ``stats``. ``init``, ``route`` and ``sync`` log
#: no row of a skill today; a row of theirs (from another implementation, or a later version)
#: is the author's too. Any other command (a future version's) is neither: it counts in the
#: totals and by command only.
AUTHOR_COMMANDS = ("build", "lint", "stats", "init", "route", "sync")


def command_kind(command: str, failed: bool = False) -> str:
    """``use``, ``failed_use``, ``author`` or ``other``: what a row of ``command`` counts as
    (``failed``: its ``error`` is set: a failed read read nothing, no use)."""
    if command in USE_COMMANDS:
        return "failed_use" if failed else "use"
    return "author" if command in AUTHOR_COMMANDS else "other"


def row_kinds(command: str, rows: int, failed: int) -> tuple[tuple[str, int], tuple[str, int]]:
    """``rows`` of ``command`` (``failed`` of them with an ``error``) by :func:`command_kind`."""
    rows, failed = int(rows), int(failed)
    return (command_kind(command), rows - failed), (command_kind(command, True), failed)


def _among(commands: Sequence[str]) -> str:
    """``command IN (?, ...)``: the test of a row of one of ``commands`` (bound parameters)."""
    return f"command IN ({', '.join('?' * len(commands))})"


#: SQL: whether a row succeeded, its ``error`` unset (a use command's row with one is a failed
#: read, no use: :func:`command_kind`), and 1 for a failed row, else 0 (a rollup's
#: ``failed``): every test of a failed row is one of these.
SUCCEEDED = "error IS NULL"
ROW_FAILED = f"CASE WHEN {SUCCEEDED} THEN 0 ELSE 1 END"
#: SQL: whether a row is a use (:func:`command_kind`), its parameters :data:`USE_COMMANDS`.
USE_ROW = f"{_among(USE_COMMANDS)} AND {SUCCEEDED}"
#: SQL of a row's kind as two numbers (1 or 0), and their parameters: the same text in
#: SQLite and PostgreSQL.
IS_USE = f"CASE WHEN {USE_ROW} THEN 1 ELSE 0 END"
IS_AUTHOR = f"CASE WHEN {_among(AUTHOR_COMMANDS)} THEN 1 ELSE 0 END"
KIND_PARAMS: tuple[str, ...] = (*USE_COMMANDS, *AUTHOR_COMMANDS)
