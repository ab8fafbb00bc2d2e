"""A skill's uses across ``route install`` and ``uninstall``: rows name the folder the skill
was read from, which the route moves (the agent folder, then the store, then the agent
folder again); the moves recorded in the log keep every use the skill's own. End to end: it
takes ``route`` (skillc-index), ``outline`` (skillc-gateway) and ``stats`` (skillc-stats)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout
from skillc_index.inventory.entries import installed_skills
from skillc_index.listing.usage import recorded_priorities

Run = Callable[..., subprocess.CompletedProcess[str]]


def test_uses_stay_the_skills_across_route_install_and_uninstall(
    cli: Callable[..., Run], project: Path, home: Path, write_skill: Callable[..., Path]
) -> None:
    """Used once in ``.cursor/skills``, once while routed (read from the store), once put
    back: ``stats NAME`` counted 1, 1, 1 (each folder's own) where it is 1, 2, 3, and
    ``stats --all``, its trends and the listing's ranking (``skc list``) alike. No row of
    the log is edited (a team store compares them): the move is recorded beside them."""
    skc = cli("skc")
    (project / ".skillc" / "skills").mkdir(parents=True, exist_ok=True)
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    write_skill(project / ".cursor" / "skills" / "cursor-own", "cursor-own")
    log = layout.runtime_store("project") / "cursor-own" / ".skillc-meta" / "logs.db"

    def ok(*args: str) -> Any:
        done = skc(*args)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout) if "json" in args else done.stdout

    def uses() -> tuple[int, int, int]:
        one = ok("stats", "cursor-own", "--format", "json")["data"]["uses"]
        (entry,) = ok("stats", "--all", "--format", "json")["data"]
        trend = ok("stats", "--all", "--by", "day", "--format", "json")["data"]
        (by_day,) = trend["skills"]  # the skill's uses per day
        # the listing's priority: its uses (all of today's: no decay yet)
        ranked = recorded_priorities(installed_skills(layout).skills, layout)
        assert max(ranked.values(), default=0.0) == pytest.approx(one, rel=1e-3)
        return one, entry["uses"], by_day["uses"]

    def rows() -> list[tuple[Any, ...]]:
        with closing(sqlite3.connect(log)) as db:
            return db.execute("SELECT * FROM access_log ORDER BY id").fetchall()

    ok("outline", "cursor-own")
    assert uses() == (1, 1, 1)
    before = rows()
    ok("route", "install", "-t", "cursor")
    assert uses() == (1, 1, 1)
    ok("outline", "cursor-own")  # read from the store now
    assert uses() == (2, 2, 2)
    ok("route", "uninstall", "-t", "cursor")
    assert uses() == (2, 2, 2)
    ok("outline", "cursor-own")
    assert uses() == (3, 3, 3)
    after = rows()
    assert after[: len(before)] == before  # appended to, never edited
    folders = {row[5] for row in after}
    assert folders == {
        str(project / ".cursor" / "skills" / "cursor-own"),
        str(project / ".skillc" / "skills" / "cursor-own"),
    }
