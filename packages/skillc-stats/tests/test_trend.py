"""Uses over time (issue 40): ``skc stats SKILL --by day|week|month``, from the local log and
from the team store's rollup by day (the same answer), as rows and as a terminal chart."""

from __future__ import annotations

import json
import subprocess
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill
from skillc_index.accesslog import AccessRecord
from skillc_index.clock import utc_now
from skillc_stats import query_stats, upload_logs

from .conftest import record

Run = Callable[..., subprocess.CompletedProcess[str]]


def rows(skill: ResolvedSkill) -> list:  # type: ignore[type-arg]
    show = {"section": "Installation", "file": None, "max_lines": None}
    stamps = ["2026-01-05T10:00:00Z", "2026-01-05T11:00:00Z", "2026-01-07T09:00:00Z"]
    stamps += ["2026-01-20T23:59:59Z", "2026-02-02T00:00:00Z"]
    found = [record(skill, "show", show, timestamp=stamp) for stamp in stamps]
    found.append(record(skill, "build", {}, timestamp="2026-01-06T08:00:00Z"))
    return found


def test_uses_by_period_locally_and_from_the_team_store(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Run,
) -> None:
    log_rows(*rows(demo))
    upload_logs(postgres_url, layout)

    def answer(*args: str) -> list[tuple[str, int, int, int]]:
        """The rows of ``stats demo --by ...`` (each run logs a row of its own: now, which the
        bound of February leaves out)."""
        bound = () if "--until" in args else ("--until", "2026-02-28")
        result = stats_cli("stats", "demo", "--format", "json", *args, *bound)
        assert result.returncode == 0, result.stderr
        found = json.loads(result.stdout)
        assert found["query"] == f"by {args[1]}"
        return [
            (e["period"], e["uses"], e["author_activity"], e["total_accesses"])
            for e in found["data"]
        ]

    assert answer("--by", "week") == [
        ("2026-01-05", 3, 1, 4),
        ("2026-01-12", 0, 0, 0),  # a quiet week is a row of zeros
        ("2026-01-19", 1, 0, 1),
        ("2026-01-26", 0, 0, 0),
        ("2026-02-02", 1, 0, 1),
    ]
    assert answer("--by", "month") == [("2026-01", 4, 1, 5), ("2026-02", 1, 0, 1)]
    cut = ("--since", "2026-01-05T10:30:00Z", "--until", "2026-01-20T12:00:00Z")
    assert answer("--by", "day", *cut)[:3] == [
        ("2026-01-05", 1, 0, 1),
        ("2026-01-06", 0, 1, 1),
        ("2026-01-07", 1, 0, 1),
    ]
    for by in ("day", "week", "month"):
        for given in ((), cut, ("--project", "/work/app")):
            local = answer("--by", by, *given)
            assert answer("--by", by, *given, "--from", postgres_url) == local, (by, given)


def test_cli_by_week_draws_a_chart(
    demo: ResolvedSkill, log_rows: Callable[..., Path], stats_cli: Run, tmp_path: Path
) -> None:
    log_rows(*rows(demo))
    result = stats_cli("stats", "demo", "--by", "week", "--until", "2026-02-28")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("demo usage statistics: uses by week (")
    table = lines[lines.index("") + 1 :]
    assert table == [
        "PERIOD        USES  AUTHOR  CHART",
        "2026-01-05       3       1  " + "#" * 40,
        "2026-01-12       0       0",
        "2026-01-19       1       0  " + "#" * 13,
        "2026-01-26       0       0",
        "2026-02-02       1       0  " + "#" * 13,
    ]
    result = stats_cli("stats", "--all", "--by", "week")  # every skill's: test_html.py
    assert result.returncode == 0 and result.stdout.startswith("Usage of 1 skill by week (")
    assert stats_cli("stats", "--all").stdout.startswith("Usage of 1 skill (")
    page = tmp_path / "all.html"
    assert stats_cli("stats", "--all", "--html", str(page)).returncode == 0
    assert "<title>Usage of 1 skill</title>" in page.read_text(encoding="utf-8")
    months = query_stats(demo, group_by="summary")
    assert months["data"]["uses"] == 5


def test_a_row_whose_timestamp_is_no_date_is_in_no_period(
    demo: ResolvedSkill, log_rows: Callable[..., Path], cli: Callable[..., Run]
) -> None:
    """A log a checkout ships (or a row ``sync`` copied from one before it checked) may hold
    a timestamp that is no date: ``--by month`` counted months for ever (590 MB, then the
    OOM killer) and ``--by day``/``week`` were E999. Such a row is in no period; the others
    are counted as before."""
    log_rows(*rows(demo), record(demo, "show", {}, timestamp="zzz"))
    log_rows(record(demo, "show", {}, timestamp="2026-13-45T00:00:00Z"))
    stats = cli("skillc_stats", process=True)  # a loop for ever is the run's timeout
    for by, first in (("month", "2026-01"), ("week", "2026-01-05"), ("day", "2026-01-05")):
        result = stats("stats", "demo", "--format", "json", "--by", by)
        assert result.returncode == 0, result.stderr
        periods = [entry["period"] for entry in json.loads(result.stdout)["data"]]
        assert (
            periods[0] == first and "zzz" not in periods and all(p[:4].isdigit() for p in periods)
        )


def test_a_row_whose_timestamp_is_not_utc_is_in_no_period(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Run,
) -> None:
    """A row of another tool whose time is not of skillc's UTC form is counted but in no
    period: ``2026-03-01T23:30:00-05:00`` (March 2 in UTC) and ``2026-03-01t10:00:00z`` were
    put in March 1 by their first 10 characters, locally and in the rows the team store reads
    (the days a range cuts). One skill and ``--all``, the same answers from both."""
    from skillc_stats import query_all

    stamps = ("2026-03-01T23:30:00-05:00", "2026-03-01t10:00:00z", "2026-03-01T10:00:00Z")
    log_rows(*(record(demo, "show", {}, timestamp=t) for t in (*stamps, "2026-03-02T10:00:00Z")))
    upload_logs(postgres_url, layout)
    cut = ("--since", "2026-03-01T05:00:00Z", "--until", "2026-03-02T12:00:00Z")

    def by_day(*store: str) -> list[tuple[str, int, int]]:
        result = stats_cli("stats", "demo", "--format", "json", "--by", "day", *cut, *store)
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)["data"]
        return [(e["period"], e["uses"], e["total_accesses"]) for e in data]

    assert by_day() == [("2026-03-01", 1, 1), ("2026-03-02", 1, 1)]
    assert by_day("--from", postgres_url) == by_day()
    given = {"since": cut[1], "until": cut[3], "by": "day"}
    local = query_all(layout, **given)["data"]
    assert [(p["period"], p["uses"]) for p in local["periods"]] == [
        ("2026-03-01", 1),
        ("2026-03-02", 1),
    ]
    assert query_all(layout, store=postgres_url, **given)["data"] == local


def test_when_every_row_is_dated_later_every_period_is_shown(
    demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path], stats_cli: Run
) -> None:
    """A wrong clock's rows, every one after today: no period is today's, so each is in
    its own (``--by day`` showed the first day only, the header's period running to the
    second), for one skill and for ``--all`` alike, run after run: the row ``skc stats`` logs
    of itself today is the author's, left out of the test (the next run showed today's
    period only)."""
    from skillc_stats import query_all

    stamps = ("2099-03-01T10:00:00Z", "2099-03-02T10:00:00Z", "2099-03-04T10:00:00Z")
    log_rows(*(record(demo, "show", {}, timestamp=stamp) for stamp in stamps))
    expected = [("2099-03-01", 1), ("2099-03-02", 1), ("2099-03-03", 0), ("2099-03-04", 1)]
    everyone = query_all(layout, by="day")["data"]["periods"]
    assert [(p["period"], p["uses"]) for p in everyone] == expected
    result = stats_cli("stats", "demo", "--format", "json", "--by", "day")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)["data"]
    assert [(e["period"], e["uses"]) for e in data] == expected
    # the run above logged its own row today: the author's own is no use, the answer the
    # same run after run (only today's period was shown, the later ones in none)
    for _ in range(2):
        again = stats_cli("stats", "demo", "--format", "json", "--by", "day")
        assert again.returncode == 0, again.stderr
        assert [(e["period"], e["uses"]) for e in json.loads(again.stdout)["data"]] == expected
        everyone = query_all(layout, by="day")["data"]["periods"]
        assert [(p["period"], p["uses"]) for p in everyone] == expected
    # a use today: the later rows are a wrong clock's, in no period
    log_rows(record(demo, "show", {}, timestamp=utc_now()))
    again = stats_cli("stats", "demo", "--format", "json", "--by", "day")
    assert [e["period"] for e in json.loads(again.stdout)["data"]] == [utc_now()[:10]]


def test_every_row_after_today_in_todays_week_or_month_is_still_in_its_own_period(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Run,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every use dated after today (a wrong clock's), the first in today's week and month:
    the rows' days are compared with today, not their periods. ``--by week`` and ``month``
    showed today's period only (the later use of today's period failed the test "every row
    is later"), ``--by day`` all of them. One skill and ``--all``, locally and from the team
    store alike; the author's own rows (the one each run logs, at the real clock's time)
    change nothing, a use today drops the later (``--since``: not the runs' own rows)."""
    import skillc_index.clock
    from skillc_stats import query_all

    stamps = ("2099-03-04T10:00:00Z", "2099-04-10T10:00:00Z", "2099-05-20T10:00:00Z")
    log_rows(*(record(demo, "show", {}, timestamp=stamp) for stamp in stamps))
    log_rows(record(demo, "build", {}, timestamp="2099-03-02T08:00:00Z"))
    upload_logs(postgres_url, layout)
    monkeypatch.setattr(skillc_index.clock, "utc_now", lambda: "2099-03-02T12:00:00Z")  # Monday
    weeks = [(date(2099, 3, 2) + timedelta(weeks=n)).isoformat() for n in range(12)]
    expected = {
        "week": {weeks[0]: 1, "2099-04-06": 1, "2099-05-18": 1},
        "month": {"2099-03": 1, "2099-04": 1, "2099-05": 1},
    }
    for by, uses in expected.items():
        first, last = min(uses), max(uses)
        for store in ((), ("--from", postgres_url)):
            result = stats_cli("stats", "demo", "--format", "json", "--by", by, *store)
            assert result.returncode == 0, result.stderr
            data = json.loads(result.stdout)["data"]
            assert (data[0]["period"], data[-1]["period"]) == (first, last), (by, store)
            assert {e["period"]: e["uses"] for e in data if e["uses"]} == uses, (by, store)
            given = {"store": store[1]} if store else {}
            periods = query_all(layout, by=by, **given)["data"]["periods"]
            assert {p["period"]: p["uses"] for p in periods if p["uses"]} == uses, (by, store)
            assert (periods[0]["period"], periods[-1]["period"]) == (first, last), (by, store)
    # a use today: the later rows are a wrong clock's, in no period
    log_rows(record(demo, "show", {}, timestamp="2099-03-02T09:00:00Z"))
    for by, today in (("week", weeks[0]), ("month", "2099-03")):
        again = stats_cli("stats", "demo", "--format", "json", "--by", by, "--since", "2099-01-01")
        assert [(e["period"], e["uses"]) for e in json.loads(again.stdout)["data"]] == [(today, 2)]


#: The rows of :func:`spread_logs`: each skill's commands of each day (uses, author activity,
#: one of neither kind), over more than a year.
DAYS, DAY_COMMANDS = 400, ("show", "search", "build", "lint", "frobnicate")
#: The kind of row of each command of :data:`DAY_COMMANDS` (``frobnicate``: neither).
KIND = {"show": "use", "search": "use", "build": "author", "lint": "author"}


def spread_logs(
    demo_skill: Callable[[Path], Path], project: Path, layout: Layout, count: int
) -> list[AccessRecord]:
    """``count`` skills, each with its own runtime log holding a few rows on most days from
    2025-01-01 on (a row whose time is no date too), written and returned."""
    import random

    from skillc_index import resolve_skill
    from skillc_index.accesslog import insert, primary_log

    draw, found = random.Random(3), []
    for n in range(count):
        skill = resolve_skill(str(demo_skill(project / ".skillc" / "skills" / f"s{n:02d}")), layout)
        rows = [record(skill, "show", {}, timestamp="zzz")]
        for day in range(DAYS):
            moment = date(2025, 1, 1) + timedelta(days=day)
            for command in draw.sample(DAY_COMMANDS, draw.randrange(len(DAY_COMMANDS))):
                stamp = f"{moment.isoformat()}T{draw.randrange(24):02d}:00:00Z"
                rows.append(record(skill, command, {}, timestamp=stamp))
        insert(primary_log(skill.runtime), rows)
        found += rows
    return found


def test_every_skills_trend_sums_the_rows_of_every_log(
    demo_skill: Callable[[Path], Path], project: Path, layout: Layout
) -> None:
    """``--all --by``: every period's uses, author activity and accesses and each skill's
    uses per period are the sums of the rows, whichever period; a row that is no date is
    in none."""
    from skillc_stats import query_all

    rows = spread_logs(demo_skill, project, layout, 4)
    first = date(2025, 1, 1)
    for by, period in (
        ("day", lambda day: day.isoformat()),
        ("week", lambda day: (day - timedelta(days=day.weekday())).isoformat()),
        ("month", lambda day: day.isoformat()[:7]),
    ):
        kinds: dict[str, Counter[str]] = defaultdict(Counter)
        uses: dict[str, Counter[str]] = defaultdict(Counter)
        for row in rows:
            if row.timestamp == "zzz":
                continue
            at = period(date.fromisoformat(row.timestamp[:10]))
            kinds[at][KIND.get(row.command, "other")] += 1
            uses[row.skill][at] += KIND.get(row.command) == "use"
        end = first + timedelta(days=DAYS - 1)
        periods = sorted({period(first + timedelta(days=d)) for d in range(DAYS)})
        data = query_all(layout, until=f"{end.isoformat()}T23:59:59Z", by=by)["data"]
        assert data["periods"] == [
            {
                "period": p,
                "uses": kinds[p]["use"],
                "author_activity": kinds[p]["author"],
                "total_accesses": sum(kinds[p].values()),
            }
            for p in periods
        ], by
        got = {s["skill"]: s["by_period"] for s in data["skills"]}
        assert got == {name: [uses[name][p] for p in periods] for name in uses}, by


def test_every_skills_trend_holds_one_logs_days_at_a_time(
    demo_skill: Callable[[Path], Path], project: Path, layout: Layout
) -> None:
    """Each log's rows by day are summed into the periods before the next log is read: the
    memory of ``--all --by month`` over twelve logs is about that over one (every log's
    (skill, day, command) held at once took 224 MB for three years of 300 skills)."""
    import gc
    import tracemalloc

    from skillc_index.accesslog.reader import logs_of
    from skillc_index.inventory.entries import installed_skills
    from skillc_stats import query_all
    from skillc_stats._filters import Filters
    from skillc_stats._trends import AllCounts, trends

    spread_logs(demo_skill, project, layout, 12)
    entries = query_all(layout)["data"]
    skills = {str(skill.source): skill for skill in installed_skills(layout).skills}

    def peak(entries: list[dict[str, Any]]) -> int:
        logs = logs_of([skills[entry["skill_path"]] for entry in entries], layout)
        counts = AllCounts(entries, layout, Filters(), logs=logs)
        trends(counts, "month", "2026-02-04")  # (imports and caches made before measuring)
        peaks = []
        for _ in range(3):  # the least of 3: tracemalloc counts every thread's allocations
            gc.collect()  # (an earlier test's leftovers are freed now, not while measured)
            tracemalloc.start()
            try:
                found = trends(counts, "month", "2026-02-04")
                peaks.append(tracemalloc.get_traced_memory()[1])
            finally:
                tracemalloc.stop()
                assert sum(s["uses"] for s in found["skills"]) > 0
        return min(peaks)

    one, twelve = peak(entries[:1]), peak(entries)
    assert twelve < 2 * one, (one, twelve)
