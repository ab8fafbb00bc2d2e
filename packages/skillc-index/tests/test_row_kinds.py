"""What a row counts as (``accesslog.kinds``, re-exported by ``accesslog.reader``): the SQL of a
failed row and of a use, over a real log written by the kit's own writer, agrees with
:func:`command_kind` row by row; every statement that tests a failed row builds on the one
constant (:data:`ROW_FAILED`, :data:`SUCCEEDED`)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from skillc_index.accesslog import AccessRecord, command_kind, insert
from skillc_index.accesslog.reader import IS_USE, ROW_FAILED, SUCCEEDED, USE_COMMANDS, USE_ROW


def test_the_sql_of_a_failed_row_and_of_a_use_is_command_kind_s(tmp_path: Path) -> None:
    log = tmp_path / "logs.db"
    made = [
        ("show", None),
        ("show", "error[E020]: section not found"),
        ("open", ""),  # an empty error is still one
        ("build", "error[E001]: x"),
        ("build", None),
        ("search", None),
    ]
    insert(
        log,
        [
            AccessRecord(command, "rust", "/src/rust", "/work", {}, error=error)
            for command, error in made
        ],
    )
    with closing(sqlite3.connect(log)) as db:
        found = db.execute(
            f"SELECT command, {ROW_FAILED}, {IS_USE}, {USE_ROW} FROM access_log ORDER BY id",
            [*USE_COMMANDS, *USE_COMMANDS],
        ).fetchall()
    for (command, error), (_, failed, used, use_row) in zip(made, found, strict=True):
        assert failed == (error is not None)
        assert used == use_row == (command_kind(command, error is not None) == "use")
    assert SUCCEEDED in ROW_FAILED and SUCCEEDED in USE_ROW  # the one test, everywhere
