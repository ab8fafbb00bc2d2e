"""A skill in no store (an agent folder's, a home one's) logs its uses to the runtime of the
project it is used in, else to skillc's home (DECISIONS, runtime): ``skc stats`` reads both
of those runtimes, and says so when uses may be in other projects' runtimes it cannot know."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]


#: The sections the tests read (``show --section Usage``, ``search install``).
BODY = "## Installation\n\nInstall it.\n\n## Usage\n\nUse it.\n"


@pytest.fixture
def demo_skill(write_skill: Callable[..., Path]) -> Callable[[Path], Path]:
    """``demo_skill(folder)``: the shared ``write_skill`` with :data:`BODY`."""
    return lambda folder: write_skill(folder, body=BODY)


@pytest.fixture
def skc(cli: Callable[..., Run]) -> Run:
    return cli("skc", script=True)  # the installed command, as the user meets it


def uses(skc: Run, cwd: Path) -> dict[str, int]:
    run = skc("stats", "--all", "--format", "json", cwd=cwd)
    assert run.returncode == 0, run.stderr
    return {entry["skill"]: entry["uses"] for entry in json.loads(run.stdout)["data"]}


def summary_uses(skc: Run, name: str, cwd: Path) -> int:
    run = skc("stats", name, "--format", "json", cwd=cwd)
    assert run.returncode == 0, run.stderr
    return int(json.loads(run.stdout)["data"]["uses"])


def test_uses_before_skc_init_still_count_after_it(
    skc: Run, tmp_path: Path, home: Path, demo_skill: Callable[[Path], Path]
) -> None:
    """Before ``skc init`` a folder's agent skills (and the home's) log to skillc's home;
    after it, to the project's runtime: both are read, each row once."""
    folder = tmp_path / "webapp"
    demo_skill(folder / ".claude" / "skills" / "local-one")
    demo_skill(home / ".claude" / "skills" / "home-one")
    for _ in range(3):
        assert skc("outline", "local-one", cwd=folder).returncode == 0
    for _ in range(2):
        assert skc("outline", "home-one", cwd=folder).returncode == 0
    assert uses(skc, folder) == {"local-one": 3, "home-one": 2}
    assert skc("init", cwd=folder).returncode == 0
    assert uses(skc, folder) == {"local-one": 3, "home-one": 2}
    assert summary_uses(skc, "local-one", folder) == 3
    assert skc("outline", "local-one", cwd=folder).returncode == 0  # (the project's runtime)
    assert (folder / ".skillc" / "runtime" / "local-one" / ".skillc-meta" / "logs.db").is_file()
    assert uses(skc, folder) == {"local-one": 4, "home-one": 2}
    assert summary_uses(skc, "local-one", folder) == 4
    text = skc("stats", "--all", cwd=folder)
    assert "Never used: 0" in text.stdout.splitlines(), text.stdout
    assert "in no store" not in text.stderr  # nothing listed as never used
    page = tmp_path / "all.html"
    assert skc("stats", "--all", "--html", str(page), cwd=folder).returncode == 0
    assert "Never used (0)" in page.read_text(encoding="utf-8")


def test_a_home_skill_used_only_in_a_project_is_not_called_never_used_silently(
    skc: Run, tmp_path: Path, home: Path, demo_skill: Callable[[Path], Path]
) -> None:
    """Its uses are in that project's runtime, which skillc keeps no list of: elsewhere
    ``stats`` says they are not counted there, and where to see them."""
    demo_skill(home / ".claude" / "skills" / "home-one")
    project, other = tmp_path / "a", tmp_path / "elsewhere"
    project.mkdir()
    other.mkdir()
    assert skc("init", cwd=project).returncode == 0
    for _ in range(3):
        assert skc("outline", "home-one", cwd=project).returncode == 0
    assert uses(skc, project) == {"home-one": 3}
    assert "in no store" not in skc("stats", "--all", cwd=project).stderr
    assert "in no store" not in skc("stats", "home-one", cwd=project).stderr  # (3 uses)
    run = skc("stats", "--all", cwd=other)
    assert run.returncode == 0, run.stderr
    assert "Never used: 1" in run.stdout.splitlines()  # (as far as this folder knows)
    assert "'home-one' is in no store" in run.stderr
    assert "uses in other projects are not counted: run `skc stats home-one` in them" in (
        run.stderr
    )
    one = skc("stats", "home-one", cwd=other)
    assert one.returncode == 0, one.stderr
    assert "Uses: 0" in one.stdout.splitlines()
    assert "'home-one' is in no store" in one.stderr
    # a store skill's uses are all where stats reads: nothing to say of it
    demo_skill(home / ".skillc" / "skills" / "stored")
    quiet = skc("stats", "stored", cwd=other)
    assert quiet.returncode == 0, quiet.stderr
    assert "in no store" not in quiet.stderr


def garbage_log(runtime: Path, name: str) -> Path:
    """8 KB that are no database, where the runtime ``runtime`` keeps ``name``'s log."""
    log = runtime / name / ".skillc-meta" / "logs.db"
    log.parent.mkdir(parents=True)
    log.write_bytes(b"not a database " * 546)
    return log


def test_a_store_skill_reads_only_its_own_runtime(
    skc: Run, tmp_path: Path, home: Path, demo_skill: Callable[[Path], Path]
) -> None:
    """A store skill logs to its store's runtime only: the other scope's log of its name is
    another skill's, never read for it (8 KB of garbage there made ``stats demo`` E999)."""
    folder = tmp_path / "webapp"
    demo_skill(folder / ".skillc" / "skills" / "demo")
    assert skc("init", cwd=folder).returncode == 0
    assert skc("outline", "demo", cwd=folder).returncode == 0
    garbage = garbage_log(home / ".skillc" / "runtime", "demo")
    run = skc("stats", "demo", "--format", "json", cwd=folder)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["data"]["uses"] == 1
    assert str(garbage) not in run.stderr  # (not read: nothing to say of it)
    listed = skc("stats", "--all", "--format", "json", cwd=folder)
    assert listed.returncode == 0, listed.stderr
    assert [entry["uses"] for entry in json.loads(listed.stdout)["data"]] == [1]
    assert str(garbage) not in listed.stderr


def test_an_unreadable_other_scope_log_is_a_warning(
    skc: Run, tmp_path: Path, home: Path, demo_skill: Callable[[Path], Path]
) -> None:
    """A skill in no store is read from both runtimes: one that cannot be read is said, and
    the other's rows are counted, as ``--all`` does."""
    folder = tmp_path / "webapp"
    demo_skill(folder / ".claude" / "skills" / "local-one")
    assert skc("init", cwd=folder).returncode == 0
    for _ in range(2):
        assert skc("outline", "local-one", cwd=folder).returncode == 0
    garbage = garbage_log(home / ".skillc" / "runtime", "local-one")
    run = skc("stats", "local-one", "--format", "json", cwd=folder)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["data"]["uses"] == 2
    assert f"warning: skipped {garbage}: cannot read it: file is not a database" in run.stderr
    assert "its rows are not counted" in run.stderr
    assert "Traceback" not in run.stderr


def test_the_command_the_warning_suggests_is_one_shell_word(
    skc: Run, tmp_path: Path, home: Path, demo_skill: Callable[[Path], Path]
) -> None:
    """A home skill's folder name is the user's (or a stranger's): the command the warning
    says to run takes it as one word, never as shell syntax."""
    demo_skill(home / ".claude" / "skills" / "a b;$(id)")
    other = tmp_path / "elsewhere"
    other.mkdir()
    for args in (("--all",), ("a b;$(id)",)):
        run = skc("stats", *args, cwd=other)
        assert run.returncode == 0, run.stderr
        assert "run `skc stats 'a b;$(id)'` in them" in run.stderr, run.stderr


def test_every_query_sums_both_runtimes(
    skc: Run, tmp_path: Path, demo_skill: Callable[[Path], Path]
) -> None:
    """``stats SKILL`` of a skill used before ``skc init`` (its rows in skillc's home) and
    after it (the project's runtime): each query type and ``--by day`` count the rows of
    both logs, each once."""
    folder = (tmp_path / "webapp").resolve()
    demo_skill(folder / ".claude" / "skills" / "local-one")

    def used() -> None:
        assert skc("show", "local-one", "--section", "Usage", cwd=folder).returncode == 0
        assert skc("search", "local-one", "install", cwd=folder).returncode == 0
        assert skc("show", "local-one", "--section", "Nope", cwd=folder).returncode == 1

    def data(*args: str) -> object:
        run = skc("stats", "local-one", *args, "--format", "json", cwd=folder)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)["data"]

    used()
    assert skc("init", cwd=folder).returncode == 0
    used()
    assert (folder / ".skillc" / "runtime" / "local-one" / ".skillc-meta" / "logs.db").is_file()
    summary = data()
    assert isinstance(summary, dict)
    assert (summary["total_accesses"], summary["error_count"]) == (6, 2), summary
    assert data("--group-by", "sections") == [{"section": "Usage", "file": "SKILL.md", "count": 2}]
    assert data("--group-by", "search") == [{"query": "install", "count": 2}]
    assert data("--group-by", "projects") == [{"project": str(folder), "count": summary["uses"]}]
    errors = data("--group-by", "errors")
    assert isinstance(errors, list) and len(errors) == 1, errors
    assert (errors[0]["command"], errors[0]["count"]) == ("show", 2), errors
    days = data("--by", "day")
    assert isinstance(days, list) and len(days) == 1, days
    # (the stats runs: author activity; the 2 failed shows: no use)
    assert days[0]["uses"] == summary["uses"] == 4, days
    assert summary["failed_uses"] == 2, summary
    assert days[0]["total_accesses"] == 6 + days[0]["author_activity"], days


def test_stats_prune_under_skc_names_skc_sync_to_for_a_log_not_reconciled(
    skc: Run, tmp_path: Path, home: Path, demo_skill: Callable[[Path], Path]
) -> None:
    """``skc stats prune`` leaves a log whose rows an earlier version uploaded (not
    reconciled yet) and says to run ``skc sync --to`` first: the program the user ran
    (``skillc-stats sync --to`` under skillc-stats, its own tests)."""
    import sqlite3
    from contextlib import closing

    folder = tmp_path / "webapp"
    demo_skill(folder / ".claude" / "skills" / "local-one")
    assert skc("init", cwd=folder).returncode == 0
    assert skc("outline", "local-one", cwd=folder).returncode == 0
    log = folder / ".skillc" / "runtime" / "local-one" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        db.execute("UPDATE log_identity SET previous_upto = 1")
        db.commit()
    result = skc("stats", "prune", "--before", "2020-01-01", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert f"Skipped {log}: rows an earlier version uploaded are not reconciled yet: " in (
        result.stdout
    )
    assert "run 'skc sync --to' first" in result.stdout, result.stdout
