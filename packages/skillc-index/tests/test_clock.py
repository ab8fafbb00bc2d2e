"""The order of logged times (:func:`skillc_index.clock.time_order`): as the times are, not
as their text is, a whole second before its fractions and ``.5`` before ``.51``."""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime

from skillc_index.accesslog.reader import SkillUsage, add_usage
from skillc_index.clock import TIME_ORDER, from_time_order, time_order

TIMES = [
    "2026-01-30T09:59:59.999Z",
    "2026-01-30T10:00:00Z",
    "2026-01-30T10:00:00.05Z",
    "2026-01-30T10:00:00.5Z",
    "2026-01-30T10:00:00.51Z",
    "2026-01-30T10:00:00.9Z",
    "2026-01-30T10:00:01Z",
]


def test_times_sort_as_the_times_are_in_python_and_in_sql() -> None:
    def moment(text: str) -> datetime:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))

    shuffled = random.Random(5).sample(TIMES, len(TIMES))
    assert sorted(shuffled, key=moment) == TIMES  # (the expected order is the times')
    assert sorted(shuffled) != TIMES  # as text it is not
    assert sorted(shuffled, key=time_order) == TIMES
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE access_log (timestamp TEXT)")
    db.executemany("INSERT INTO access_log VALUES (?)", [(t,) for t in shuffled])
    keys = [row[0] for row in db.execute(f"SELECT {TIME_ORDER} FROM access_log ORDER BY 1")]
    assert [from_time_order(key) for key in keys] == TIMES
    low, high = db.execute(
        f"SELECT MIN({TIME_ORDER}), MAX({TIME_ORDER}) FROM access_log"
    ).fetchone()
    assert (from_time_order(low), from_time_order(high)) == (TIMES[0], TIMES[-1])
    assert from_time_order(None) is None


def test_one_skills_use_from_two_logs_spans_both_as_times() -> None:
    """:func:`add_usage` of a skill whose rows are in two logs: the earliest and latest times
    of both (``...00.5Z`` is after ``...00Z``, though it sorts before as text)."""
    usage: dict[str, SkillUsage] = {}
    one = SkillUsage("/s", 1, "2026-01-30T10:00:00.5Z", "2026-01-30T10:00:00.5Z", 1, 0)
    two = SkillUsage("/s", 1, "2026-01-30T10:00:00Z", "2026-01-30T10:00:00Z", 1, 0)
    add_usage(usage, {"/s": one}, ["/s"])
    add_usage(usage, {"/s": two}, ["/s"])
    assert (usage["/s"].first_used, usage["/s"].last_used) == (
        "2026-01-30T10:00:00Z",
        "2026-01-30T10:00:00.5Z",
    )
