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


def test_a_call_imported_before_a_route_move_is_not_imported_again(
    cli: Callable[..., Run], project: Path, home: Path, write_skill: Callable[..., Path]
) -> None:
    """A Skill call imported from a transcript, then ``route install``: Claude Code resuming
    the session (a copy of its file under a new session id, the same tool-call ids) was
    imported again under the store folder, ``stats`` counting 2 activations; after ``route
    uninstall`` and a lost state file, a call imported while routed was stored under both
    folders. The rows a move took to the skill's folder hold the call."""
    skc = cli("skc")
    (project / ".skillc" / "skills").mkdir(parents=True, exist_ok=True)
    write_skill(project / ".claude" / "skills" / "iota", "iota")
    sessions = home / ".claude" / "projects" / str(project).replace("/", "-")
    sessions.mkdir(parents=True)

    def session(name: str, call: str, at: str) -> Path:
        line = {
            "type": "assistant",
            "cwd": str(project),
            "sessionId": name,
            "uuid": f"u-{call}",
            "timestamp": at,
            "version": "2.1.126",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": call, "name": "Skill", "input": {"skill": "iota"}}
                ],
            },
        }
        path = sessions / f"{name}.jsonl"
        path.write_text(json.dumps(line) + "\n", encoding="utf-8")
        return path

    def ok(*args: str) -> str:
        done = skc(*args)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def activations() -> int:
        found = json.loads(ok("stats", "iota", "--group-by", "commands", "--format", "json"))
        return int(found["data"].get("activate", 0))

    first = session("dddddddd-0000-0000-0000-000000000005", "toolu_IOTA1", "2026-12-06T16:00:00Z")
    ok("sync", "--from", "claude-code")
    assert activations() == 1
    ok("route", "install", "-t", "claude")
    resumed = sessions / "eeeeeeee-0000-0000-0000-000000000006.jsonl"
    resumed.write_text(
        first.read_text(encoding="utf-8").replace(first.stem, resumed.stem), encoding="utf-8"
    )
    ok("sync", "--from", "claude-code")
    assert activations() == 1  # the resumed copy's call is the one imported
    session("ffffffff-0000-0000-0000-000000000007", "toolu_P2E", "2026-12-06T17:00:00Z")
    ok("sync", "--from", "claude-code")
    assert activations() == 2
    ok("route", "uninstall", "-t", "claude")
    (home / ".skillc" / "imports" / "claude-code.json").unlink()  # every file read again
    ok("sync", "--from", "claude-code")
    assert activations() == 2


def test_an_older_route_install_s_uses_follow_the_project_it_is_moved_with(
    cli: Callable[..., Run],
    project: Path,
    home: Path,
    tmp_path: Path,
    write_skill: Callable[..., Path],
) -> None:
    """Used twice in ``.cursor/skills``, then routed by an older skillc (its route manifest
    records the move, its log none: the move this one records is taken out), then the
    project moved (``mv``): ``stats NAME``, ``stats --all`` and its trends said 0 uses (the
    rows name the old project, the move read from the manifest the new one), though
    ``route status`` says routed and a move the log records kept them. The real ``skc``."""
    skc = cli("skc", script=True)
    (project / ".skillc" / "skills").mkdir(parents=True, exist_ok=True)
    write_skill(project / ".cursor" / "skills" / "cursor-own", "cursor-own")
    moved = tmp_path / "moved"

    def ok(*args: str, cwd: Path = project) -> Any:
        done = skc(*args, cwd=cwd)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout) if "json" in args else done.stdout

    def uses(cwd: Path) -> tuple[int, int, int]:
        one = ok("stats", "cursor-own", "--format", "json", cwd=cwd)["data"]["uses"]
        (entry,) = ok("stats", "--all", "--format", "json", cwd=cwd)["data"]
        trend = ok("stats", "--all", "--by", "day", "--format", "json", cwd=cwd)["data"]
        (by_day,) = trend["skills"]  # the skill's uses per day
        return one, entry["uses"], by_day["uses"]

    ok("outline", "cursor-own")
    ok("outline", "cursor-own")
    ok("route", "install", "-t", "cursor")
    log = project / ".skillc" / "runtime" / "cursor-own" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db, db:  # as an older skillc left it: no move
        assert db.execute("DELETE FROM moved_folders").rowcount == 1
    assert uses(project) == (2, 2, 2)  # (the move read from the route manifest)
    project.rename(moved)
    assert "routed" in ok("route", "status", "-t", "cursor", cwd=moved)
    assert uses(moved) == (2, 2, 2)


def _routed_then_moved(
    cli: Callable[..., Run], project: Path, moved: Path, write_skill: Callable[..., Path]
) -> Callable[..., Any]:
    """A skill of the project's ``.claude/skills`` read twice there (once from a folder
    below the project), routed into the store (``route install``: the move recorded), then
    the project moved (``mv``) and the skill built again where it is now. Returns ``ok``,
    the real ``skc`` run in ``moved``."""
    skc = cli("skc", script=True)
    (project / ".skillc" / "skills").mkdir(parents=True, exist_ok=True)
    write_skill(project / ".claude" / "skills" / "kappa", "kappa")
    (project / "sub").mkdir()

    def ok(*args: str, cwd: Path = moved) -> Any:
        done = skc(*args, cwd=cwd)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout) if "json" in args else done.stdout

    ok("outline", "kappa", cwd=project)
    ok("outline", "kappa", cwd=project / "sub")
    ok("route", "install", "-t", "claude", cwd=project)
    project.rename(moved)
    ok("build", "kappa")
    return ok


def _project_uses(ok: Callable[..., Any], *projects: Path) -> tuple[int, int, int]:
    """The uses ``stats NAME``, ``stats --all`` and its trends count with ``--project``."""
    chosen = [arg for folder in projects for arg in ("--project", str(folder))]
    one = ok("stats", "kappa", *chosen, "--format", "json")["data"]["uses"]
    (entry,) = ok("stats", "--all", *chosen, "--format", "json")["data"]
    (by_day,) = ok("stats", "--all", "--by", "day", *chosen, "--format", "json")["data"]["skills"]
    return one, entry["uses"], by_day["uses"]


def test_uses_made_in_the_agent_folder_count_for_the_moved_project(
    cli: Callable[..., Run],
    project: Path,
    tmp_path: Path,
    write_skill: Callable[..., Path],
) -> None:
    """Read from ``.claude/skills`` twice, routed, then the project moved (``mv``) and the
    skill built there: ``stats --all`` counted both uses, ``--project <the project now>``
    none (only the rows of the old store folder itself had their working folder taken as
    moved; those a move took to it kept the old project's). Both count, in every reader,
    for the project and for the folder below it they were made in; no row is edited."""
    moved = tmp_path / "moved"
    ok = _routed_then_moved(cli, project, moved, write_skill)
    log = moved / ".skillc" / "runtime" / "kappa" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        cwds = [
            row[0] for row in db.execute("SELECT cwd FROM access_log WHERE command = 'outline'")
        ]
    assert cwds == [str(project), str(project / "sub")]  # as logged: the old project's
    assert _project_uses(ok) == (2, 2, 2)  # (no --project)
    assert _project_uses(ok, moved) == (2, 2, 2)
    assert _project_uses(ok, moved / "sub") == (1, 1, 1)
    assert _project_uses(ok, project) == (0, 0, 0)  # the old place: nothing made there now


@pytest.mark.parametrize("route", ["recorded", "older"])
def test_a_move_s_rows_count_when_no_row_names_the_old_store_folder(
    cli: Callable[..., Run],
    project: Path,
    tmp_path: Path,
    write_skill: Callable[..., Path],
    route: str,
) -> None:
    """The old place of a routed skill whose project moved was found only through a row of
    its old store folder (the build ``route install`` made): a log without one (the move
    recorded, or only in the route manifest, an older skillc's) lost every use made before
    the route, ``stats NAME`` and ``--all`` alike. The move itself names the old store
    folder; the route's place below the project does, where a row names it."""
    moved = tmp_path / "moved"
    ok = _routed_then_moved(cli, project, moved, write_skill)
    log = moved / ".skillc" / "runtime" / "kappa" / ".skillc-meta" / "logs.db"
    old_store = str(project / ".skillc" / "skills" / "kappa")
    with closing(sqlite3.connect(log)) as db, db:
        assert db.execute("DELETE FROM access_log WHERE skill_path = ?", [old_store]).rowcount
        if route == "older":  # as an older skillc left it: no move recorded
            assert db.execute("DELETE FROM moved_folders").rowcount == 1
    assert _project_uses(ok) == (2, 2, 2)
    assert _project_uses(ok, moved) == (2, 2, 2)


def test_a_call_imported_before_a_folder_above_the_project_moved_is_not_imported_again(
    cli: Callable[..., Run], home: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A Skill call imported from ``.claude/skills``, the skill routed, then a folder above
    the project moved (``mv work work2``, a link left at the old place): Claude Code
    resuming the session (a copy of its file, the same tool-call ids) had the call imported
    again under the store folder now, while the rows of the old place counted for no folder
    (a link is there): ``stats`` said 1 activation, of the copy. The call's row from before
    the moves (agent folder -> store -> the store below the moved folder) holds it, in any
    project filter; and after a second move, the link gone, too."""
    skc = cli("skc", script=True)
    project = tmp_path / "work" / "proj"
    (project / ".skillc" / "skills").mkdir(parents=True)
    write_skill(project / ".claude" / "skills" / "lam", "lam")
    sessions = home / ".claude" / "projects" / str(project).replace("/", "-")
    sessions.mkdir(parents=True)
    record = {
        "type": "assistant",
        "cwd": str(project),
        "sessionId": "aaaaaaaa-0000-0000-0000-000000000001",
        "uuid": "u-1",
        "timestamp": "2026-12-06T16:00:00Z",
        "version": "2.1.126",
        "message": {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_L1", "name": "Skill", "input": {"skill": "lam"}}
            ],
        },
    }

    def ok(*args: str, cwd: Path) -> Any:
        done = skc(*args, cwd=cwd)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout) if "json" in args else done.stdout

    def activations(cwd: Path, *chosen: str) -> int:
        args = ("stats", "lam", "--group-by", "commands", *chosen, "--format", "json")
        return int(ok(*args, cwd=cwd)["data"].get("activate", 0))

    def resumed(session: str) -> None:
        copy = {**record, "sessionId": session}
        (sessions / f"{session}.jsonl").write_text(json.dumps(copy) + "\n", encoding="utf-8")

    resumed(str(record["sessionId"]))
    ok("sync", "--from", "claude-code", cwd=project)
    assert activations(project) == 1
    ok("route", "install", "-t", "claude", cwd=project)
    (tmp_path / "work").rename(tmp_path / "work2")
    (tmp_path / "work").symlink_to(tmp_path / "work2")
    now = tmp_path / "work2" / "proj"
    resumed("bbbbbbbb-0000-0000-0000-000000000002")
    ok("sync", "--from", "claude-code", cwd=now)
    assert activations(now) == 1
    assert activations(now, "--project", str(now)) == 1
    log = now / ".skillc" / "runtime" / "lam" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        assert db.execute("SELECT COUNT(*) FROM access_log WHERE command = 'activate'").fetchone()
        activated = db.execute("SELECT skill_path FROM access_log WHERE command = 'activate'")
        assert [row[0] for row in activated] == [str(project / ".claude" / "skills" / "lam")]
    (tmp_path / "work").unlink()
    (tmp_path / "work2").rename(tmp_path / "work3")
    now = tmp_path / "work3" / "proj"
    (home / ".skillc" / "imports" / "claude-code.json").unlink()  # every file read again
    resumed("cccccccc-0000-0000-0000-000000000003")
    ok("sync", "--from", "claude-code", cwd=now)
    assert activations(now) == 1
    assert activations(now, "--project", str(now)) == 1
