"""Rows no skillc wrote (a log a checkout ships can hold anything) and odd transcript lines:
each is counted or skipped, never an E999 for the whole answer. Real logs, real processes."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill

from .conftest import record

Run = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def stats_process(cli: Callable[..., Run]) -> Run:
    """``skillc-stats`` as a real process: its stdout is encoded as a terminal's would be."""
    return cli("skillc_stats", process=True)


def odd_row(log: Path, sql: str) -> None:
    """Add a copy of the log's last row, then change it with ``sql`` (``?`` = its id)."""
    db = sqlite3.connect(log)
    try:
        db.execute(
            "INSERT INTO access_log(timestamp, run_id, command, skill, skill_path, cwd, args, "
            "error) SELECT timestamp, run_id, command, skill, skill_path, cwd, args, error "
            "FROM access_log ORDER BY id DESC LIMIT 1"
        )
        db.execute(sql, (db.execute("SELECT max(id) FROM access_log").fetchone()[0],))
        db.commit()
    finally:
        db.close()


@pytest.fixture
def show_row(demo: ResolvedSkill, log_rows: Callable[..., Path]) -> Path:
    """demo's log holding one good ``show`` of Usage; returns the log."""
    return log_rows(record(demo, "show", {"section": "Usage", "file": None, "max_lines": None}))


def test_a_lone_surrogate_in_args_prints_as_a_replacement_character(
    show_row: Path, stats_process: Run, project: Path
) -> None:
    odd_row(show_row, """UPDATE access_log SET args = '{"section": "\\ud800"}' WHERE id = ?""")
    summary = stats_process("stats", "demo")
    assert summary.returncode == 0, summary.stderr
    assert "Total accesses: 2\n" in summary.stdout and "\ufffd" in summary.stdout
    sections = stats_process("stats", "demo", "--group-by", "sections")
    assert sections.returncode == 0, sections.stderr
    assert "\ufffd" in sections.stdout
    page = stats_process("stats", "demo", "--html", "page.html")
    assert page.returncode == 0, page.stderr
    assert "\ufffd" in (project / "page.html").read_text(encoding="utf-8")


def test_a_lone_surrogate_in_a_transcripts_skill_name_prints(
    demo: ResolvedSkill, stats_process: Run, tmp_path: Path
) -> None:
    claude = tmp_path / "claude"
    transcript = claude / "projects" / "p" / "s.jsonl"
    transcript.parent.mkdir(parents=True)
    call = {"type": "tool_use", "id": "t1", "name": "Skill", "input": {"skill": "\ud800x"}}
    line = {
        "type": "assistant",
        "sessionId": "s",
        "cwd": str(tmp_path),
        "timestamp": "2026-11-01T10:00:00Z",
        "message": {"content": [call]},
    }
    transcript.write_text(json.dumps(line) + "\n", encoding="utf-8")
    result = stats_process("sync", "--from", "claude-code", "--claude-dir", str(claude))
    assert result.returncode == 0, result.stderr
    assert "Skipped 1 call of skills not installed: \ufffdx (1)\n" in result.stdout


def test_a_row_dated_on_no_day_of_the_calendar_is_in_no_period(
    show_row: Path, stats_process: Run
) -> None:
    odd_row(show_row, "UPDATE access_log SET timestamp = '2026-13-01T00:00:00Z' WHERE id = ?")
    for args in (("--all",), ("demo",)):
        result = stats_process("stats", *args, "--by", "week", "--format", "json")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)["data"]
        periods = data["periods"] if args == ("--all",) else data
        assert (periods[0]["period"], periods[0]["uses"]) == ("2026-01-26", 1)
        assert sum(row["uses"] for row in periods) == 1  # (and stats' own runs, today)


def test_a_page_is_written_when_the_earliest_row_is_on_no_day(
    show_row: Path, stats_process: Run, project: Path
) -> None:
    """The page chose its periods by the earliest row's text (E999 ``ValueError: month must
    be in 1..12`` for the skill, and for ``--all`` whatever skill held it)."""
    for stamp in ("2025-13-01T00:00:00Z", "1 Mar 2026"):  # (each sorts before the good row)
        odd_row(show_row, f"UPDATE access_log SET timestamp = '{stamp}' WHERE id = ?")
        for args in (("demo",), ("--all",)):
            result = stats_process("stats", *args, "--html", "page.html")
            assert result.returncode == 0, result.stderr
            page = (project / "page.html").read_text(encoding="utf-8")
            assert ">2026-01" in page and "Uses by day" not in page  # (to today)


#: Times of rows no skillc wrote, none an instant: each sorts before or after the good rows.
NO_INSTANTS = (
    "zzz",
    "2026-02-30T10:00:00Z",
    "0000-01-01T00:00:00Z",
    "2026-01-30T23:30:00-05:00",
    "2026-01-30 09:00:00Z",
    "2026-01-30T1\u0661:00:00Z",  # an Arabic-Indic digit
    "CAST(X'32ff' AS TEXT)",  # not UTF-8
    "X'32'",  # a BLOB
)


def test_first_and_last_times_are_instants(
    show_row: Path, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A skill's period and ``--all``'s first and last use were the MIN and MAX of the text:
    another tool's row dated ``zzz``, ``2026-02-30``, year 0000 or with an offset was printed
    as logged. Only instants count (``is_utc_timestamp``), as in ``--by``'s periods."""
    from skillc_stats import query_all, query_stats

    log_rows(record(demo, "show", {"section": "Usage"}, timestamp="2026-01-30T11:00:00Z"))
    for stamp in NO_INSTANTS:
        value = stamp if stamp.startswith(("CAST", "X'")) else f"'{stamp}'"
        odd_row(show_row, f"UPDATE access_log SET timestamp = {value} WHERE id = ?")
    ranges: list[dict[str, Any]] = [{}, {"since": "2026-01-30"}, {"until": "2026-01-31"}]
    for given in ranges:
        period = query_stats(demo, layout, **given)["period"]
        assert period == {"start": "2026-01-30T10:00:00Z", "end": "2026-01-30T11:00:00Z"}
        (entry,) = query_all(layout, **given)["data"]
        assert (entry["first_used"], entry["last_used"]) == tuple(period.values())


def test_a_row_dated_after_today_is_in_no_period(
    show_row: Path, stats_process: Run, project: Path
) -> None:
    """A wrong clock's row (2099) made one skill's periods run to it: the page chose days
    and showed the last 1,000 of them, the 2099 column alone, no real use."""
    from datetime import datetime, timezone

    odd_row(show_row, "UPDATE access_log SET timestamp = '2099-01-01T00:00:00Z' WHERE id = ?")
    result = stats_process("stats", "demo", "--by", "month", "--format", "json")
    assert result.returncode == 0, result.stderr
    periods = json.loads(result.stdout)["data"]
    assert periods[-1]["period"] == datetime.now(timezone.utc).strftime("%Y-%m")
    assert sum(row["uses"] for row in periods) == 1  # (2026-01-26's; the 2099 one in none)
    page = stats_process("stats", "demo", "--html", "page.html")
    assert page.returncode == 0 and page.stderr == "", page.stderr
    assert "<title>2099" not in (project / "page.html").read_text(encoding="utf-8")


def test_a_command_error_or_folder_that_is_not_text_is_counted(
    show_row: Path, stats_process: Run
) -> None:
    odd_row(
        show_row,
        "UPDATE access_log SET command = CAST('show' AS BLOB), cwd = CAST('/w' AS BLOB), "
        "error = CAST('boom' AS BLOB) WHERE id = ?",
    )
    assert stats_process("stats", "demo").returncode == 0
    answer = {}
    for group_by in ("summary", "commands", "errors", "projects"):
        result = stats_process("stats", "demo", "--group-by", group_by, "--format", "json")
        assert result.returncode == 0, result.stderr
        answer[group_by] = json.loads(result.stdout)["data"]
    assert answer["summary"]["uses"] == 1  # the BLOB 'show' is no use: SQL says so too
    assert answer["commands"] == {"stats": 2, "show": 1, "(not text)": 1}  # (stats' own)
    assert answer["errors"][0]["command"] == answer["errors"][0]["error"] == "(not text)"
    assert answer["projects"] == [{"project": "/work/app", "count": 1}]


def test_args_that_are_not_utf8_are_counted_and_read_for_nothing_else(
    show_row: Path, stats_process: Run
) -> None:
    bad = "CAST(X'7b2273656374696f6e223a2022ff227d' AS TEXT)"  # {"section": "\xff"}
    odd_row(show_row, f"UPDATE access_log SET args = {bad} WHERE id = ?")
    result = stats_process("stats", "demo", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["data"]["total_accesses"] == 2
    assert "warning: 1 row of the log skipped: args that are not JSON" in result.stderr
    sections = stats_process("stats", "demo", "--group-by", "sections", "--format", "json")
    assert json.loads(sections.stdout)["data"] == [
        {"section": "Usage", "file": "SKILL.md", "count": 1}
    ]


# -- transcript lines: each costs its own line only ------------------------------------------


def activation(cwd: str, call: str, kind: object = "assistant") -> str:
    """A transcript line: an assistant record calling the Skill tool for ``demo``."""
    block = {"type": "tool_use", "id": call, "name": "Skill", "input": {"skill": "demo"}}
    record = {
        "type": kind,
        "sessionId": "s",
        "cwd": cwd,
        "timestamp": "2026-11-01T10:00:00Z",
        "message": {"content": [block]},
    }
    return json.dumps(record) + "\n"


def unsearchable(tmp_path: Path) -> Path | None:
    """A folder whose contents cannot be looked at (EACCES), or None here (root reads any
    folder whatever its mode; a container's ``/proc/1/root`` may still refuse it)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    for folder in (locked, Path("/proc/1/root")):
        try:
            next(folder.iterdir(), None)
        except PermissionError:
            return folder
        except OSError:
            continue
    return None


def test_odd_transcript_lines_cost_their_line_only(
    demo: ResolvedSkill, project: Path, tmp_path: Path, env: dict[str, str]
) -> None:
    from skillc_stats import sync_transcripts

    loop_a, loop_b = tmp_path / "loopA", tmp_path / "loopB"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    odd = [
        '{"type": ["user"]}\n',  # a list is no type: an unknown record
        '{"type": {"a": 1}}\n',
        activation(str(loop_a / "x"), "t2"),  # a working folder in a symlink loop
    ]
    locked = unsearchable(tmp_path)
    if locked is not None:  # (the whole file was skipped: its rows lost on every run)
        odd.append(activation(str(locked / "x"), "t3"))
    claude = tmp_path / "claude"
    transcript = claude / "projects" / "p" / "s.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_text(activation(str(project), "t1") + "".join(odd), encoding="utf-8")
    try:
        result = sync_transcripts(claude_folder=claude, env=env)
    finally:
        (tmp_path / "locked").chmod(0o700)
    assert result.ok and (result.files_read, result.files_skipped) == (1, 0)
    # a folder a user cannot search holds no project they can see (the call is of a skill
    # found nowhere); one that cannot be resolved at all is a malformed line
    lost = result.malformed_lines + result.unknown_skill_calls
    assert (result.unknown_records, lost) == (2, len(odd) - 2)
    assert [(s.skill, s.activations, s.added) for s in result.skills] == [("demo", 1, 1)]


# -- times at the calendar's ends ------------------------------------------------------------


def test_a_use_dated_9999_ends_the_periods_there(
    demo: ResolvedSkill, log_rows: Callable[..., Path], stats_cli: Run, project: Path
) -> None:
    log_rows(record(demo, "activate", {}, timestamp="9999-12-31T12:00:00Z"))
    only = ("--since", "9999-01-01")  # (not the rows each run logs of itself, today)
    for by, period in (("month", "9999-12"), ("week", "9999-12-27"), ("day", "9999-12-31")):
        result = stats_cli("stats", "demo", "--by", by, "--format", "json", *only)
        assert result.returncode == 0, result.stderr
        assert [(r["period"], r["uses"]) for r in json.loads(result.stdout)["data"]] == [
            (period, 1)
        ]
        result = stats_cli("stats", "--all", "--by", by, "--format", "json", *only)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["data"]["periods"][-1]["period"] == period
    page = stats_cli("stats", "demo", "--html", "page.html", *only)
    assert page.returncode == 0, page.stderr
    assert "9999-12-31" in (project / "page.html").read_text(encoding="utf-8")


def test_periods_run_to_today_at_most_whatever_the_until(
    show_row: Path, cli: Callable[..., Run], project: Path
) -> None:
    """A future ``--until`` ran ``--all --by`` and the page of every skill to it: empty
    future months compared as risers, 1,000 empty days from 9997 for ``9999-12-31``."""
    from datetime import datetime, timedelta, timezone

    skc = cli("skillc-stats", script=True)
    now = datetime.now(timezone.utc)

    def today(form: str) -> set[str]:
        """skc's today (or month) is the test's at its start or now (across midnight UTC)."""
        return {now.strftime(form), datetime.now(timezone.utc).strftime(form)}

    later = (now + timedelta(days=75)).strftime("%Y-%m-%d")
    result = skc("stats", "--all", "--by", "month", "--until", later, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)["data"]
    assert data["periods"][-1]["period"] in today("%Y-%m"), data["periods"]
    text = skc("stats", "--all", "--by", "month", "--until", later)
    assert text.returncode == 0 and later[:7] not in text.stdout.split("\n", 1)[1], text.stdout
    days = skc("stats", "--all", "--by", "day", "--until", "9999-12-31", "--format", "json")
    assert days.returncode == 0 and days.stderr == "", days.stderr
    periods = json.loads(days.stdout)["data"]["periods"]
    assert periods[-1]["period"] in today("%Y-%m-%d") and len(periods) < 1000
    for args in (("--all",), ("demo",)):
        page = skc("stats", *args, "--until", "9999-12-31", "--html", "page.html", "--force")
        assert page.returncode == 0 and page.stderr == "", page.stderr
        html = (project / "page.html").read_text(encoding="utf-8")
        labels = re.findall(r'<text class="period"[^>]*>([^<]*)<', html)
        assert labels and max(x[:7] for x in labels) <= max(today("%Y-%m")), (args, labels)


def test_periods_are_at_most_max_periods_the_oldest_left_out(
    demo: ResolvedSkill, log_rows: Callable[..., Path], stats_cli: Run, project: Path
) -> None:
    from skillc_stats._periods import MAX_PERIODS

    log_rows(
        record(demo, "activate", {}, timestamp="0001-01-01T00:00:00Z"),
        record(demo, "activate", {}, timestamp="2026-01-30T10:00:00Z"),
    )
    until = ("--until", "2026-01-31")  # (not the rows each run logs of itself, today)
    result = stats_cli("stats", "demo", "--by", "day", "--format", "json", *until)
    assert result.returncode == 0, result.stderr
    periods = json.loads(result.stdout)["data"]
    assert len(periods) == MAX_PERIODS and periods[-1] == {
        "period": "2026-01-30",
        "uses": 1,
        "author_activity": 0,
        "total_accesses": 1,
    }
    assert result.stderr == (
        f"warning: 739,646 days from 0001-01-01 to 2026-01-30: only the last {MAX_PERIODS:,} "
        f"are shown, from {periods[0]['period']} (the accesses before count in the totals; "
        "--since narrows the range)\n"
    )
    every = stats_cli("stats", "--all", "--by", "month", "--format", "json", *until)
    assert every.returncode == 0, every.stderr
    months = json.loads(every.stdout)["data"]["periods"]
    assert len(months) == MAX_PERIODS and months[-1]["period"] == "2026-01"
    assert "warning: 24,301 months from 0001-01 to 2026-01" in every.stderr
    page = stats_cli("stats", "--all", "--html", "all.html", *until)
    assert page.returncode == 0 and "only the last" in page.stderr
    assert (project / "all.html").stat().st_size < 1_000_000


def test_days_before_the_year_1_are_e031(demo: ResolvedSkill, stats_cli: Run) -> None:
    for first, option, value in (
        (("demo",), "--since", "999999d"),
        (("--all",), "--until", "740000d"),
        (("prune", "--dry-run"), "--before", "999999d"),
    ):
        result = stats_cli("stats", *first, option, value)
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr == (
            f"error[E031]: invalid filter: '{option} {value!r} is before the year 1'\n"
        )


def test_a_skill_used_at_no_instant_is_ranked_and_shown_as_used(
    show_row: Path, stats_process: Run, layout: Layout
) -> None:
    """Another tool's rows logged with an offset (``+00:00``, Python's ``isoformat()``) are no
    first or last use: the listing ranked such a skill, used 3 times, with the unused ones
    (priority 0) and ``--all`` said ``LAST USED never`` next to its uses."""
    from skillc_index.inventory.entries import installed_skills
    from skillc_index.listing.usage import recorded_priorities

    for _ in range(2):
        odd_row(show_row, "SELECT ?")
    db = sqlite3.connect(show_row)
    with db:
        db.execute("UPDATE access_log SET timestamp = '2026-01-30T10:00:00+00:00'")
    db.close()
    skills = installed_skills(layout).skills
    assert set(recorded_priorities(skills, layout).values()) == {3.0}
    result = stats_process("stats", "--all")
    assert result.returncode == 0, result.stderr
    row = result.stdout.splitlines()[-1].split()
    assert row[:3] == ["3", "1", "unknown"], result.stdout


def test_a_cell_holding_an_escape_sequence_is_sized_as_printed(
    demo: ResolvedSkill, log_rows: Callable[..., Path], stats_cli: Run
) -> None:
    """A logged section name holding an escape sequence is printed escaped (``\\x1b``), and
    the columns after it are sized for the escaped text: every row's FILE starts at the
    header's column."""
    args = {"file": None, "max_lines": None}
    log_rows(
        record(demo, "show", {"section": "Usage", **args}),
        record(demo, "show", {"section": "q\x1b[2Jz", **args}),
    )
    result = stats_cli("stats", "demo", "--group-by", "sections")
    assert result.returncode == 0, result.stderr
    table = result.stdout.split("\n\n", 1)[1].splitlines()
    assert any("q\\x1b[2Jz" in line for line in table), table
    column = table[0].index("FILE")
    assert [line[column - 2 : column] for line in table] == ["  "] * len(table), table
    assert all(line[column] != " " for line in table), table


def test_a_long_logged_name_is_cut_in_every_row_of_the_table(
    demo: ResolvedSkill, log_rows: Callable[..., Path], cli: Callable[..., Run]
) -> None:
    """One logged section of 200 KB among ordinary ones: its cell is cut to CELL_CHARS characters
    and an ellipsis, and the other rows are padded to that, not to 200 KB (the table printed
    400 MB for 2,000 rows)."""
    args = {"file": None, "max_lines": None}
    log_rows(
        *[record(demo, "show", {"section": f"Heading {n}", **args}) for n in range(50)],
        record(demo, "show", {"section": "L" + "z" * 200_000, **args}),
    )
    result = cli("skillc-stats", script=True)("stats", "demo", "--group-by", "sections")
    assert result.returncode == 0, result.stderr
    table = result.stdout.split("\n\n", 1)[1].splitlines()
    assert len(table) == 52, table[:3]
    long = next(line for line in table if "Lzz" in line)
    assert "L" + "z" * 998 + "\u2026" in long and "z" * 1000 not in long
    assert max(len(line) for line in table) < 1100


def test_fractions_of_a_second_are_compared_as_times(
    demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path], stats_process: Run
) -> None:
    """Another tool's rows with fractions of a second (RFC-0007 allows them): as text
    ``...00.5Z`` sorts before ``...00Z`` and ``...00.51Z`` before ``...00.5Z``, so the period
    ran from 00.5Z to 00Z and ``--all``'s first use was after its last. Compared as times,
    for one skill (text and JSON) and ``--all``, alone in their second or not."""
    from skillc_stats import query_all, query_stats

    stamps = ["2026-01-30T10:00:00.5Z", "2026-01-30T10:00:00Z", "2026-01-30T10:00:00.51Z"]
    stamps += ["2026-01-30T09:59:59.9Z", "2026-01-30T10:00:01.25Z", "2026-01-30T10:00:01.3Z"]
    for first, last, rows in (
        ("2026-01-30T10:00:00Z", "2026-01-30T10:00:00.51Z", stamps[:3]),
        ("2026-01-30T09:59:59.9Z", "2026-01-30T10:00:01.3Z", stamps[3:]),
    ):
        log_rows(*(record(demo, "show", {}, timestamp=stamp) for stamp in rows))
        assert query_stats(demo, layout)["period"] == {"start": first, "end": last}
        (entry,) = query_all(layout)["data"]
        assert (entry["first_used"], entry["last_used"]) == (first, last)
    result = stats_process("stats", "demo", "--until", "2026-01-31")
    assert result.returncode == 0, result.stderr
    assert "Period: 2026-01-30T09:59:59.9Z to 2026-01-30T10:00:01.3Z" in result.stdout
