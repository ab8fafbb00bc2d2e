"""The rollups of ``--all`` by kind (migration 7 of the team store, :mod:`._team_sql`): the
rows counted by period, skill and working folder only, the commands folded into uses and the
author's runs (:data:`KIND_ROLLUPS`), and the statements that make them and add to them
(:func:`roll_up_kinds`)."""

from __future__ import annotations

from collections.abc import Sequence

from skillc_index.accesslog.reader import AUTHOR_COMMANDS, USE_COMMANDS
from skillc_stats._team_days import as_times

__all__ = [
    "DAILY_KINDS",
    "DAILY_KINDS_NOW",
    "KIND_FROM",
    "KIND_ROLLUPS",
    "USES",
    "WEEK_STARTS",
    "kind_key",
    "kind_sum",
    "roll_up_kinds",
]

# -- the rollups of --all by folder (migration 7) --------------------------------------------

#: The first day (``YYYY-MM-DD``) of the week of the day ``{day}`` (SQL text): a month's days
#: 1-7, 8-14, 15-21 and 22 to its end (:data:`WEEK_STARTS`), so that a week never crosses
#: into another month.
_WEEK_OF = (
    "substr({day}, 1, 8) || CASE WHEN substr({day}, 9, 2) < '08' THEN '01' "
    "WHEN substr({day}, 9, 2) < '15' THEN '08' WHEN substr({day}, 9, 2) < '22' THEN '15' "
    "ELSE '22' END"
)
WEEK_STARTS = ("01", "08", "15", "22")
#: ``--all`` without a user or machine filter: the rows counted by skill and working folder
#: only (users and machines summed; a folder is one user's), the commands folded into what
#: ``--all`` reports: every row, the uses and the author's runs (:func:`kind_sum`). Each
#: table's period column and that column of a row's ``day``: ``usage_months`` by month
#: (``YYYY-MM``), ``usage_weeks`` by week (its first day, ``_WEEK_OF``), ``usage_folders`` all
#: time (no period; with the first and the last use, which a time range cannot subtract).
KIND_ROLLUPS: dict[str, tuple[str, str] | None] = {
    "usage_months": ("month", "substr(day, 1, 7)"),
    "usage_weeks": ("week", _WEEK_OF.format(day="day")),
    "usage_folders": None,
}


def _commands_in(commands: Sequence[str]) -> str:
    """``command IN ('a', ...)``: the commands (this code's constants, lowercase words) as
    literals, since a migration runs without parameters (and the rollups must classify a row
    as the statements that read them do)."""
    for command in commands:
        if not command.isalpha() or not command.islower():
            raise ValueError(f"not a command name: {command!r}")
    return f"command IN ({', '.join(repr(command) for command in commands)})"


def kind_sum(kind: str, count: str = "accesses") -> str:
    """``count`` when a row of ``command`` is of ``kind`` (``uses``: :data:`USE_COMMANDS`;
    ``authored``: :data:`AUTHOR_COMMANDS`), else 0: the classification of
    :func:`skillc_index.accesslog.command_kind`, in SQL (the uses' ``count`` leaves the
    failed rows out: ``accesses - failed``, :data:`USES`)."""
    commands = USE_COMMANDS if kind == "uses" else AUTHOR_COMMANDS
    return f"CASE WHEN {_commands_in(commands)} THEN {count} ELSE 0 END"


#: A sum's uses (:func:`kind_sum`): its rows but the failed ones (a failed read is no use,
#: :func:`skillc_index.accesslog.command_kind`; a stored row's ``failed``:
#: :data:`~skillc_index.accesslog.reader.ROW_FAILED`).
USES = "accesses - failed"


def kind_key(table: str) -> str:
    period = KIND_ROLLUPS[table]
    return f"{period[0]}, skill, md5(cwd)" if period else "skill, md5(cwd)"


def roll_up_kinds(table: str, source: str, *, upsert: bool, current: bool = False) -> str:
    """``INSERT`` into ``table`` of :data:`KIND_ROLLUPS` the sums of ``source`` (a subquery
    holding ``day``, ``skill``, ``command``, ``cwd``, ``accesses``, ``first`` and ``last``;
    ``failed`` too when ``current``), as :func:`roll_up`. ``current``: schema 11's, whose
    uses leave the failed reads out (and the first and last use those of a sum holding a
    use), times compared as times; else as migration 7 made them."""
    period = KIND_ROLLUPS[table]
    names = [period[0]] if period else []
    values = [period[1]] if period else []
    sums = ["accesses", "uses", "authored"]
    used = kind_sum("uses", USES) if current else kind_sum("uses")
    values += ["skill", "cwd", "SUM(accesses)", f"SUM({used})"]
    values.append(f"SUM({kind_sum('authored')})")
    if period is None:  # the first and last use (NULL: none; LEAST and GREATEST skip it)
        sums += ["first_use", "last_use"]
        uses = _commands_in(USE_COMMANDS)
        if current:
            uses += " AND accesses > failed"
            values += [
                as_times("MIN", f"CASE WHEN {uses} THEN first END"),
                as_times("MAX", f"CASE WHEN {uses} THEN last END"),
            ]
        else:
            values += [
                f"MIN(CASE WHEN {uses} THEN first END)",
                f"MAX(CASE WHEN {uses} THEN last END)",
            ]
    keys = len(names) + 2
    statement = (
        f"INSERT INTO {table} ({', '.join([*names, 'skill', 'cwd', *sums])}) "
        f"SELECT {', '.join(values)} FROM ({source}) AS rows_ "
        f"GROUP BY {', '.join(str(n) for n in range(1, keys + 1))}"
    )
    # in key order: a migration writes each period's rows together (a week's 30,000 rows
    # scattered over the table cost a read of a page each), and two uploads cannot deadlock
    statement += f" ORDER BY {', '.join([*(str(n) for n in range(1, keys)), 'md5(cwd)'])}"
    if not upsert:
        return statement
    added = [f"{name} = {table}.{name} + EXCLUDED.{name}" for name in sums[:3]]
    if period is None and current:
        added += [
            f"first_use = {as_times('LEAST', f'{table}.first_use', 'EXCLUDED.first_use')}",
            f"last_use = {as_times('GREATEST', f'{table}.last_use', 'EXCLUDED.last_use')}",
        ]
    elif period is None:
        added += [
            f"first_use = LEAST({table}.first_use, EXCLUDED.first_use)",
            f"last_use = GREATEST({table}.last_use, EXCLUDED.last_use)",
        ]
    return f"{statement} ON CONFLICT ({kind_key(table)}) DO UPDATE SET {', '.join(added)}"


DAILY_KINDS = "SELECT day, skill, command, cwd, accesses, first, last FROM {}"
DAILY_KINDS_NOW = "SELECT day, skill, command, cwd, accesses, failed, first, last FROM {}"
#: Where schema 11 makes each rollup of :data:`KIND_ROLLUPS` from: the sums from
#: ``usage_daily``; ``usage_folders``' first and last use from a rollup that holds the error,
#: whose keys are all failed or all not (as an upload's ``fine`` sums: from ``usage_daily``,
#: a day's failed read at 09:00 beside a use at 10:00 was a first use at 09:00).
KIND_FROM = {"usage_months": "usage_daily", "usage_weeks": "usage_daily"}
KIND_FROM["usage_folders"] = "usage_targets"
