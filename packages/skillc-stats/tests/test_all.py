"""``skc stats --all``: one row per installed skill (stores, agent folders), from the local
runtime logs, deduplicated by real path, the skills to prune first."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, resolve_skill
from skillc_index.accesslog import AccessRecord, insert, primary_log
from skillc_index.inventory.entries import installed_skills
from skillc_stats import _usage, query_all
from skillc_stats._filters import Filters

Run = Callable[..., subprocess.CompletedProcess[str]]


def access(skill_path: Path, cwd: str, timestamp: str, **extra: Any) -> AccessRecord:
    return AccessRecord(
        command=extra.pop("command", "show"),
        skill=skill_path.name,
        skill_path=str(skill_path),
        cwd=cwd,
        args={"section": "Usage"},
        timestamp=timestamp,
        **extra,
    )


def installed(demo_skill: Callable[[Path], Path], project: Path, home: Path) -> dict[str, Path]:
    """A project store skill, a global store skill, a skill only in an agent folder (home),
    a second entry linking to it, and a skillc deployment (a link to a runtime folder)."""
    skills = {
        "used": demo_skill(project / ".skillc" / "skills" / "used"),
        "old": demo_skill(home / ".skillc" / "skills" / "old"),
        "idle": demo_skill(home / ".skillc" / "skills" / "idle"),
        "agent-only": demo_skill(home / ".claude" / "skills" / "agent-only"),
    }
    (project / ".claude" / "skills").mkdir(parents=True)
    (project / ".claude" / "skills" / "linked").symlink_to(skills["agent-only"])
    runtime = project / ".skillc" / "runtime" / "used"
    runtime.mkdir(parents=True)
    (runtime / "SKILL.md").write_text("---\nname: used\ndescription: stub\n---\n")
    (project / ".claude" / "skills" / "used").symlink_to(runtime)
    (home / ".claude" / "skills" / "not-a-skill").mkdir()  # no SKILL.md
    return skills


def log(layout: Layout, name: str, *rows: AccessRecord) -> None:
    skill = resolve_skill(str(rows[0].skill_path), layout) if rows else None
    assert skill is not None and skill.name == name
    insert(primary_log(skill.runtime), list(rows))


def test_installed_skills_are_listed_once_each(
    project: Path, home: Path, layout: Layout, demo_skill: Callable[[Path], Path]
) -> None:
    skills = installed(demo_skill, project, home)
    found = installed_skills(layout).skills
    assert sorted((s.name, str(s.source)) for s in found) == sorted(
        (name, os.path.realpath(path)) for name, path in skills.items()
    )


def test_all_counts_uses_projects_and_last_use(
    project: Path, home: Path, layout: Layout, demo_skill: Callable[[Path], Path]
) -> None:
    skills = installed(demo_skill, project, home)
    used, old, agent = skills["used"], skills["old"], skills["agent-only"]
    log(
        layout,
        "used",
        access(used, "/w/a", "2026-03-01T10:00:00Z"),
        access(used, "/w/a/sub", "2026-03-02T10:00:00Z"),
        access(used, "/w/b", "2026-03-03T10:00:00Z", error="error[E020]: x"),
    )
    log(layout, "old", access(old, "/w/a", "2026-01-01T10:00:00Z"))
    log(layout, "agent-only", access(agent.resolve(), "/w/c", "2026-02-01T10:00:00Z"))
    # a row of another folder with the same name in the same runtime log does not count
    elsewhere = demo_skill(project / "elsewhere" / "used")
    insert(
        primary_log(resolve_skill("used", layout).runtime),
        [access(elsewhere, "/w/z", "2026-03-09T00:00:00Z")],
    )
    answer = query_all(layout)
    assert answer["query"] == "all" and answer["skill"] is None
    table = [(e["skill"], e["uses"], e["projects"], e["last_used"]) for e in answer["data"]]
    assert table == [
        ("idle", 0, 0, None),  # never used: prune first
        ("old", 1, 1, "2026-01-01T10:00:00Z"),
        ("agent-only", 1, 1, "2026-02-01T10:00:00Z"),
        ("used", 2, 2, "2026-03-02T10:00:00Z"),  # the failed read in /w/b: no use
    ]
    assert answer["period"] == {"start": "2026-01-01T10:00:00Z", "end": "2026-03-02T10:00:00Z"}
    # the filters of per-skill stats
    recent = query_all(layout, since="2026-02-01", projects=["/w/a"])
    table = [(e["skill"], e["uses"], e["projects"]) for e in recent["data"]]
    assert table == [("agent-only", 0, 0), ("idle", 0, 0), ("old", 0, 0), ("used", 2, 2)]
    assert recent["filters"] == {
        "since": "2026-02-01T00:00:00Z",
        "until": None,
        "projects": ["/w/a"],
    }


def test_an_imported_folder_and_its_store_copy_are_one_row(
    project: Path, layout: Layout, demo_skill: Callable[[Path], Path]
) -> None:
    """``skc build .github/skills/x`` imports the folder into the store: one skill (the store
    copy, DECISIONS), so one row, with the reads made through the folder."""
    from skillc_index.build.skill import build_skill

    folder = demo_skill(project / ".github" / "skills" / "imported")
    build_skill(str(folder), layout, targets=["claude"])
    store_copy = resolve_skill(str(folder), layout).source  # reading the folder: its store copy
    assert store_copy == (project / ".skillc" / "skills" / "imported").resolve()
    log(layout, "imported", access(store_copy, "/w/a", "2026-03-01T10:00:00Z"))
    table = [(e["skill"], e["skill_path"], e["uses"]) for e in query_all(layout)["data"]]
    assert table == [("imported", str(store_copy), 1)]


@pytest.mark.parametrize("parent", [".github/skills", "drafts"])
def test_the_uses_of_a_folder_before_its_import_are_its_store_copys(
    project: Path, layout: Layout, demo_skill: Callable[[Path], Path], parent: str
) -> None:
    """Reads logged under the folder before ``skc build <folder>`` imported it count as the
    store copy's, for ``--all`` (its trends too), the listing's priority and for the skill
    alone, each row once; a folder in no agent folder too (its reads were counted nowhere:
    the import record names it)."""
    from skillc_index.build.skill import build_skill
    from skillc_index.listing.usage import recorded_priorities
    from skillc_stats import query_stats

    folder = demo_skill(project / parent / "imported").resolve()
    log(layout, "imported", access(folder, "/w/a", "2026-03-01T10:00:00Z"))  # before
    build_skill(str(folder), layout, targets=["claude"])
    store_copy = resolve_skill(str(folder), layout).source
    assert store_copy != folder
    log(
        layout,
        "imported",
        access(store_copy, "/w/a", "2026-03-02T10:00:00Z"),
        access(store_copy, "/w/b", "2026-03-03T10:00:00Z"),
    )
    [entry] = query_all(layout)["data"]
    assert (entry["skill_path"], entry["uses"], entry["projects"]) == (str(store_copy), 3, 2)
    assert (entry["first_used"], entry["last_used"]) == (
        "2026-03-01T10:00:00Z",
        "2026-03-03T10:00:00Z",
    )
    [trend] = query_all(layout, by="day")["data"]["skills"]
    assert (trend["uses"], trend["by_period"][:3]) == (3, [1, 1, 1])
    priorities = recorded_priorities(installed_skills(layout).skills, layout)
    assert priorities[str(store_copy)] == pytest.approx(3 * 0.1)  # (long ago: the floor)
    for name in ("imported", str(folder)):
        summary = query_stats(name, layout)
        assert (summary["skill_path"], summary["data"]["uses"]) == (str(store_copy), 3)
        projects = query_stats(name, layout, group_by="projects")["data"]
        assert projects == [{"project": "/w/a", "count": 2}, {"project": "/w/b", "count": 1}]


def test_a_project_used_before_and_after_a_global_import_counts_once(
    project: Path,
    home: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    demo_skill: Callable[[Path], Path],
) -> None:
    """``skc build <folder> --global`` of a project's folder: its reads before the import are
    in the project's log, those after in the global one; ``--all`` adds the uses of both
    logs, and a working folder used in both is one project (it was two), cached or not."""
    from skillc_index.build.skill import build_skill

    folder = demo_skill(project / ".github" / "skills" / "imported").resolve()
    project_log = primary_log(resolve_skill(str(folder), layout).runtime)
    log(layout, "imported", access(folder, "/w/a", "2026-03-01T10:00:00Z"))  # project log
    build_skill(str(folder), layout, targets=["claude"], force_global=True)
    store_copy = resolve_skill("imported", layout).source
    assert store_copy.parent == layout.store("global").resolve()
    global_log = primary_log(resolve_skill("imported", layout).runtime)
    assert global_log != project_log  # (and reads through the folder now log in the global one)
    assert primary_log(resolve_skill(str(folder), layout).runtime) == global_log
    insert(
        global_log,
        [
            access(store_copy, "/w/a", "2026-03-02T10:00:00Z"),
            access(store_copy, "/w/b", "2026-03-03T10:00:00Z"),
        ],
    )
    age(project)
    age(home)
    for _ in range(2):
        [entry] = query_all(layout)["data"]
        assert (entry["skill_path"], entry["uses"], entry["projects"]) == (str(store_copy), 3, 2)
        monkeypatch.setattr(_usage, "LocalRows", None)  # the second answer: from the cache
    monkeypatch.undo()
    narrowed = query_all(layout, projects=["/w/a"])["data"]
    assert [(e["uses"], e["projects"]) for e in narrowed] == [(2, 1)]


@pytest.mark.parametrize("moved", ["project", "home"])
def test_a_store_skills_uses_follow_it_when_its_base_moves(
    project: Path,
    home: Path,
    tmp_path: Path,
    demo_skill: Callable[[Path], Path],
    moved: str,
) -> None:
    """``mv`` of a project (or of the skillc home) takes a store skill's runtime log along,
    whose rows name the folder it was at: they are still its uses (``stats SKILL``,
    ``--all``, its trends, the listing's ranking; they counted 0). Only the rows of a
    ``.skillc/skills/<name>`` folder that is gone: another store's folder of that name that
    is there keeps its own rows, a gone folder that is no store's counts for no skill."""
    from skillc_index.listing.usage import recorded_priorities
    from skillc_stats import query_stats

    base = project if moved == "project" else home
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    skill = demo_skill(base / ".skillc" / "skills" / "demo")
    there = demo_skill(tmp_path / "other" / ".skillc" / "skills" / "demo")  # still there
    log(
        layout,
        "demo",
        access(skill, "/w/a", "2026-03-01T10:00:00Z"),
        access(skill, "/w/b", "2026-03-02T10:00:00Z"),
        access(skill, "/w/b", "2026-03-02T11:00:00Z", command="build"),
    )
    runtime = resolve_skill(str(skill), layout).runtime
    insert(
        primary_log(runtime),
        [
            access(there, "/w/z", "2026-03-04T10:00:00Z"),
            access(tmp_path / "gone" / "demo", "/w/z", "2026-03-04T10:00:00Z"),
        ],
    )
    new_base = tmp_path / f"{moved}2"
    base.rename(new_base)
    project, home = (new_base, home) if moved == "project" else (project, new_base)
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    skill = new_base / ".skillc" / "skills" / "demo"

    [entry] = query_all(layout)["data"]
    assert (entry["skill_path"], entry["uses"], entry["projects"]) == (str(skill), 2, 2)
    assert (entry["first_used"], entry["author_activity"]) == ("2026-03-01T10:00:00Z", 1)
    [trend] = query_all(layout, by="day")["data"]["skills"]
    assert (trend["uses"], trend["by_period"][:2]) == (2, [1, 1])
    summary = query_stats("demo", layout)["data"]
    assert (summary["uses"], summary["total_accesses"]) == (2, 3)
    assert str(skill) in recorded_priorities(installed_skills(layout).skills, layout)


def test_a_moved_project_s_uses_count_for_it_with_project_where_it_is_now(
    project: Path,
    home: Path,
    tmp_path: Path,
    demo_skill: Callable[[Path], Path],
    cli: Callable[..., Run],
) -> None:
    """The uses of a store skill made in its project before the project moved (``mv``) were
    counted as its (``stats SKILL``, ``--all``), yet ``--project <the project now>`` left
    them out: their working folder is the old one. A row of the skill's folder before the
    move made in that old folder, or below it, counts as made in the same place of the
    project now, for every reader (``stats SKILL``, ``--all``, ``--all --by``); a row made
    elsewhere, or of another skill, is as it was logged."""
    from skillc_stats import query_stats

    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    skill = demo_skill(project / ".skillc" / "skills" / "demo")
    old = str(project)
    log(
        layout,
        "demo",
        access(skill, old, "2026-03-01T10:00:00Z"),
        access(skill, f"{old}/sub", "2026-03-02T10:00:00Z"),
        access(skill, f"{old}-other", "2026-03-03T10:00:00Z"),  # another folder: not moved
        access(skill, "/w/z", "2026-03-04T10:00:00Z"),
    )
    moved = tmp_path / "moved"
    project.rename(moved)
    (moved / "sub").mkdir()
    layout = Layout.discover(moved, {"SKILLC_HOME": str(home)})
    assert query_stats("demo", layout)["data"]["uses"] == 4

    def uses(*projects: str) -> tuple[int, int, int]:
        [entry] = query_all(layout, projects=list(projects))["data"]
        [trend] = query_all(layout, projects=list(projects), by="day")["data"]["skills"]
        summary = query_stats("demo", layout, projects=list(projects))["data"]
        return summary["uses"], entry["uses"], trend["uses"]

    assert uses(str(moved)) == (2, 2, 2)
    assert uses(str(moved / "sub")) == (1, 1, 1)
    assert uses(f"{old}-other") == (1, 1, 1)
    assert uses("/w") == (1, 1, 1)
    stats = cli("skillc_stats", process=True)
    run = stats("stats", "demo", "--project", ".", "--format", "json", cwd=moved)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["data"]["uses"] == 2


def test_cli_all(
    project: Path, home: Path, layout: Layout, stats_cli: Run, demo_skill: Callable[[Path], Path]
) -> None:
    skills = installed(demo_skill, project, home)
    log(layout, "used", access(skills["used"], "/w/a", "2026-03-01T10:00:00Z"))
    text = stats_cli("stats", "--all")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == "Usage of 4 skills (all time)"
    assert "Never used: 3" in lines
    header = next(i for i, line in enumerate(lines) if line.startswith("USES"))
    assert lines[header].split() == ["USES", "PROJECTS", "LAST", "USED", "AUTHOR", "SKILL", "PATH"]
    assert lines[-1].split()[:5] == ["1", "1", "2026-03-01T10:00:00Z", "0", "used"]
    assert [line.split()[2] for line in lines[header + 1 : -1]] == ["never"] * 3
    as_json = json.loads(stats_cli("stats", "--all", "--format", "json").stdout)
    assert [e["skill"] for e in as_json["data"]][-1] == "used"
    # `stats --all` resolves no single skill: it logs nothing
    assert stats_cli("stats", "--all").returncode == 0
    commands = stats_cli("stats", "used", "--group-by", "commands", "--format", "json")
    assert json.loads(commands.stdout)["data"] == {"show": 1}


def test_the_authors_own_runs_are_not_uses(
    project: Path, home: Path, layout: Layout, stats_cli: Run, demo_skill: Callable[[Path], Path]
) -> None:
    """Issue 34: a skill its author only builds, lints and looks at is never used (listed
    with the ones to prune); its author activity is reported apart, and a used skill's
    projects and last use are its uses'."""
    skills = installed(demo_skill, project, home)
    used, old = skills["used"], skills["old"]
    log(
        layout,
        "used",
        access(used, "/w/agent", "2026-03-01T10:00:00Z"),
        access(used, "/w/agent", "2026-03-02T10:00:00Z", command="activate"),
        access(used, "/w/author", "2026-03-05T10:00:00Z", command="build"),
        access(used, "/w/author", "2026-03-06T10:00:00Z", command="stats"),
    )
    log(
        layout,
        "old",
        access(old, "/w/author", "2026-03-01T10:00:00Z", command="build"),
        access(old, "/w/author", "2026-03-02T10:00:00Z", command="lint"),
        access(old, "/w/author", "2026-03-03T10:00:00Z", command="stats"),
    )
    answer = query_all(layout)
    table = [
        (e["skill"], e["uses"], e["projects"], e["last_used"], e["author_activity"])
        for e in answer["data"]
    ]
    assert table == [
        ("agent-only", 0, 0, None, 0),
        ("idle", 0, 0, None, 0),
        ("old", 0, 0, None, 3),  # built, linted, looked at: never used
        ("used", 2, 1, "2026-03-02T10:00:00Z", 2),
    ]
    assert answer["period"] == {"start": "2026-03-01T10:00:00Z", "end": "2026-03-02T10:00:00Z"}
    lines = stats_cli("stats", "--all").stdout.splitlines()
    assert "Never used: 3" in lines
    assert lines[-1].split()[:5] == ["2", "1", "2026-03-02T10:00:00Z", "2", "used"]


def test_cli_all_usage_errors(
    project: Path, home: Path, stats_cli: Run, demo_skill: Callable[[Path], Path]
) -> None:
    installed(demo_skill, project, home)
    for args, message in (
        (("stats",), "missing SKILL (or --all)"),
        (("stats", "used", "--all"), "give either SKILL or --all"),
        (("stats", "--all", "--group-by", "sections"), "leave out --group-by"),
        (("stats", "--all", "--since", "soon"), "--since 'soon' is not a time"),
    ):
        result = stats_cli(*args)
        assert result.returncode == 1, args
        assert message in result.stderr.splitlines()[0], (args, result.stderr)
        assert result.stderr.startswith(("error[E100]", "error[E031]"))


def test_nothing_installed_is_an_empty_answer(layout: Layout, stats_cli: Run) -> None:
    assert query_all(layout)["data"] == []
    result = stats_cli("stats", "--all")
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "No skills installed."


def install_plugin(home: Path, *installs: tuple[str, str]) -> dict[str, Path]:
    """Claude Code's record of the plugin ``kit@m`` installed at each ``(scope, version)``
    (``user`` or ``project``), its ``review`` skill in each version's cache folder (made by
    the caller): each version's skill folder."""
    cache = home / ".claude/plugins/cache/m/kit"
    records = []
    for scope, version in installs:
        record = {"scope": scope, "installPath": str(cache / version)}
        if scope == "project":
            record["projectPath"] = str(home.parent / "project")
        records.append(record)
    plugins = {"version": 2, "plugins": {"kit@m": records}}
    (home / ".claude/plugins").mkdir(parents=True, exist_ok=True)
    (home / ".claude/plugins/installed_plugins.json").write_text(json.dumps(plugins))
    (home / ".claude/settings.json").write_text('{"enabledPlugins": {"kit@m": true}}')
    return {version: cache / version / "skills/review" for _, version in installs}


def test_a_plugin_skills_uses_are_counted_across_its_versions(
    project: Path,
    home: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    demo_skill: Callable[[Path], Path],
) -> None:
    """Claude Code keeps each version of a plugin in a cache folder of its own, the older
    ones deleted some days after an update: the rows logged under any version's folder count
    for the plugin's skill (``--all``, its trends, ``stats SKILL``), read as they were
    logged; not another plugin's skill of the same name, nor a folder deeper in the cache.
    The listing's usage priorities (``skc list --budget``) count them too."""
    from skillc_index.listing.agents import usage_priority
    from skillc_index.listing.usage import recorded_priorities
    from skillc_stats import query_stats

    old = demo_skill(install_plugin(home, ("user", "1.0"))["1.0"])
    log(layout, "review", access(old, "/w/a", "2026-03-01T10:00:00Z"))
    log(layout, "review", access(old, "/w/a", "2026-03-02T10:00:00Z", command="lint"))
    new = demo_skill(install_plugin(home, ("user", "1.1"))["1.1"])
    shutil.rmtree(old.parent.parent)  # (Claude Code deletes the old version's folder)
    log(layout, "review", access(new, "/w/b", "2026-03-03T10:00:00Z"))
    cache = new.parent.parent.parent.parent
    insert(
        primary_log(resolve_skill("kit:review", layout).runtime),
        [
            access(cache / "m/other/1.0/skills/review", "/w/z", "2026-03-04T10:00:00Z"),
            access(cache / "m/kit-2/1.0/skills/review", "/w/z", "2026-03-04T10:00:00Z"),
            access(cache / "m/kit/1.0/x/skills/review", "/w/z", "2026-03-04T10:00:00Z"),
        ],
    )
    age(project)
    layout.global_dir.mkdir()  # (where the cache of --all is kept)
    for _ in range(2):  # read, then from that cache
        [entry] = query_all(layout)["data"]
        assert (entry["skill_path"], entry["uses"], entry["projects"]) == (str(new), 2, 2)
        assert entry["skill"] == "kit:review"  # the name that reads it, as list names it
        assert (entry["first_used"], entry["author_activity"]) == ("2026-03-01T10:00:00Z", 1)
        monkeypatch.setattr(_usage, "LocalRows", None)
    monkeypatch.undo()
    listed = recorded_priorities(installed_skills(layout).skills, layout)
    days = (datetime.now(timezone.utc) - datetime(2026, 3, 3, 10, tzinfo=timezone.utc)).days
    assert listed[str(new)] == pytest.approx(usage_priority(2, days), rel=0.01)
    [trend] = query_all(layout, by="day")["data"]["skills"]
    assert (trend["uses"], trend["by_period"][:3]) == (2, [1, 0, 1])
    summary = query_stats("kit:review", layout)
    assert (summary["skill_path"], summary["data"]["uses"]) == (str(new), 2)
    assert summary["data"]["total_accesses"] == 3
    # named as --all names it (it said "review", the name of another skill), text too
    assert summary["skill"] == "kit:review"
    from skillc_stats._report import _heading
    from skillc_stats._stats import StatsQuery

    with StatsQuery(resolve_skill("kit:review", layout), Filters()) as query:
        assert _heading(query, "summary")[0] == "kit:review usage statistics (all time)"


def test_each_installed_version_of_a_plugin_keeps_its_own_rows(
    project: Path, home: Path, layout: Layout, demo_skill: Callable[[Path], Path]
) -> None:
    """A plugin installed at two scopes, two versions: two skills, each with the rows of its
    own folder (none counted twice); an older version's, no longer installed, go to the
    first of them (the project's, as names resolve)."""
    folders = install_plugin(home, ("project", "1.1"), ("user", "1.0"))
    for folder in folders.values():
        demo_skill(folder)
    gone = folders["1.0"].parent.parent.parent / "0.9/skills/review"
    runtime_log = primary_log(resolve_skill("kit:review", layout).runtime)
    insert(
        runtime_log,
        [
            access(folders["1.1"], "/w/a", "2026-03-01T10:00:00Z"),
            access(folders["1.0"], "/w/b", "2026-03-02T10:00:00Z"),
            access(folders["1.0"], "/w/b", "2026-03-03T10:00:00Z"),
            access(gone, "/w/c", "2026-03-04T10:00:00Z"),
        ],
    )
    table = {e["skill_path"]: e["uses"] for e in query_all(layout)["data"]}
    assert table == {str(folders["1.1"]): 2, str(folders["1.0"]): 2}
    # the trends (--all --by, the --html page) gave the old version's row to the first in
    # prune order (1.0, last used earlier), not the first installed as --all does
    trend = query_all(layout, by="day")["data"]["skills"]
    assert {s["skill_path"]: s["uses"] for s in trend} == table
    from skillc_stats import query_stats

    for name, folder in (("kit:review", folders["1.1"]), (str(folders["1.0"]), folders["1.0"])):
        summary = query_stats(name, layout)
        assert (summary["skill_path"], summary["data"]["uses"]) == (str(folder), 2)


def test_a_plugin_skills_stats_open_its_log_once(
    home: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    demo_skill: Callable[[Path], Path],
) -> None:
    """``stats SKILL`` of a plugin's skill looks its other versions' folders up in the rows
    it reads: the log is opened once (it was opened and closed once more to find them)."""
    from skillc_index.accesslog import reader
    from skillc_stats import query_stats

    old = demo_skill(install_plugin(home, ("user", "1.0"))["1.0"])
    log(layout, "review", access(old, "/w/a", "2026-03-01T10:00:00Z"))
    new = demo_skill(install_plugin(home, ("user", "1.1"))["1.1"])
    log(layout, "review", access(new, "/w/b", "2026-03-03T10:00:00Z"))
    opened: list[Path] = []
    real = reader.open_log

    def counting(path: Path) -> Any:
        opened.append(path)
        return real(path)

    monkeypatch.setattr(reader, "open_log", counting)
    summary = query_stats("kit:review", layout)
    assert (summary["skill_path"], summary["data"]["uses"]) == (str(new), 2)
    assert opened == [primary_log(resolve_skill("kit:review", layout).runtime)]


def test_all_by_looks_a_plugins_other_versions_up_once_per_log(
    home: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    demo_skill: Callable[[Path], Path],
) -> None:
    """``--all --by`` (and its page) looked a plugin skill's other versions up in its log
    for the uses, then again for each count of the trends: now once per log."""
    from skillc_index.accesslog import reader

    old = demo_skill(install_plugin(home, ("user", "1.0"))["1.0"])
    log(layout, "review", access(old, "/w/a", "2026-03-01T10:00:00Z"))
    new = demo_skill(install_plugin(home, ("user", "1.1"))["1.1"])
    log(layout, "review", access(new, "/w/b", "2026-03-03T10:00:00Z"))
    looked: list[str] = []
    real = reader.other_versions

    def counting(rows: Any, folder: str) -> list[str]:
        looked.append(folder)
        return real(rows, folder)

    monkeypatch.setattr(reader, "other_versions", counting)
    [trend] = query_all(layout, by="day")["data"]["skills"]
    assert (trend["skill_path"], trend["uses"]) == (str(new), 2)
    assert looked == [str(new)]
    looked.clear()
    page = _usage.all_answers(layout, Filters(), None, None, "day", page=True)[1]
    assert page is not None and page["projects"]
    assert looked == [str(new)]


def test_a_plugin_skills_older_version_in_the_other_runtime_is_counted(
    project: Path, home: Path, layout: Layout, demo_skill: Callable[[Path], Path]
) -> None:
    """A plugin's skill is in no store: used before ``skc init`` (skillc's home's runtime) at
    version 1.0, after it at 1.1 (the project's). ``stats kit:review`` finds the older
    version's folder in the home's log too, as ``--all`` does (it looked only in its own)."""
    from skillc_stats import query_stats

    old = demo_skill(install_plugin(home, ("user", "1.0"))["1.0"])
    home_log = primary_log(layout.runtime_store("global") / "review")
    insert(home_log, [access(old, "/w/a", "2026-03-01T10:00:00Z")])
    new = demo_skill(install_plugin(home, ("user", "1.1"))["1.1"])
    shutil.rmtree(old.parent.parent)  # (Claude Code deletes the old version's folder)
    log(layout, "review", access(new, "/w/b", "2026-03-03T10:00:00Z"))
    assert primary_log(resolve_skill("kit:review", layout).runtime) != home_log
    [entry] = query_all(layout)["data"]
    assert (entry["skill_path"], entry["uses"]) == (str(new), 2)
    summary = query_stats("kit:review", layout)
    assert (summary["skill_path"], summary["data"]["uses"]) == (str(new), 2)
    assert summary["period"] == {"start": "2026-03-01T10:00:00Z", "end": "2026-03-03T10:00:00Z"}


def test_the_no_store_hint_names_a_plugin_skill_as_it_was_given(
    home: Path,
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
    demo_skill: Callable[[Path], Path],
) -> None:
    """Two plugins have a ``review``: the hint of ``stats devkit@other:review`` told to run
    `skc stats review` in the other projects, which reads the first plugin's skill (W001).
    It names the skill as the command was given, the name that reads it again."""
    cache = home / ".claude/plugins/cache"
    records = {}
    for market in ("acme", "other"):
        demo_skill(cache / market / "devkit/1.0/skills/review")
        records[f"devkit@{market}"] = [{"installPath": str(cache / market / "devkit/1.0")}]
    (home / ".claude/plugins/installed_plugins.json").write_text(
        json.dumps({"version": 2, "plugins": records})
    )
    enabled = {"enabledPlugins": dict.fromkeys(records, True)}
    (home / ".claude/settings.json").write_text(json.dumps(enabled))
    done = cli("skillc-stats", script=True)("stats", "devkit@other:review")
    assert done.returncode == 0, done.stderr
    (hint,) = [line for line in done.stderr.splitlines() if "is in no store" in line]
    assert hint.startswith("warning: 'devkit@other:review' is in no store: ")
    assert hint.endswith("run `skc stats devkit@other:review` in them")


def age(folder: Path) -> None:
    """Every log under ``folder`` last modified a minute ago, and its change time (the utime's)
    out of the racy window (``skillc_index.file_times``: 100 ms)."""
    past = time.time() - 60
    for log in folder.rglob("logs.db*"):
        os.utime(log, (past, past))
    time.sleep(0.12)


def test_unchanged_logs_are_not_read_again(
    project: Path,
    home: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    demo_skill: Callable[[Path], Path],
) -> None:
    skills = installed(demo_skill, project, home)
    log(layout, "used", access(skills["used"], "/w/a", "2026-03-01T10:00:00Z"))
    log(layout, "old", access(skills["old"], "/w/a", "2026-01-01T10:00:00Z"))
    age(project)
    age(home)
    opened: list[Path] = []
    real = _usage.LocalRows

    def counting(path: Path) -> Any:
        opened.append(path)
        return real(path)

    monkeypatch.setattr(_usage, "LocalRows", counting)
    first = query_all(layout)
    assert len(opened) == 4  # one per skill's runtime log (missing ones included)
    opened.clear()
    assert query_all(layout) == first and opened == []  # from the cache
    # a new row changes the log's stamp: that log alone is read again
    log(layout, "used", access(skills["used"], "/w/b", "2026-03-05T10:00:00Z"))
    again = query_all(layout)
    used = next(e for e in again["data"] if e["skill"] == "used")
    assert (used["uses"], used["projects"]) == (2, 2)
    assert [p.parent.parent.name for p in opened] == ["used"]
    # other filters are another question: read again
    opened.clear()
    assert query_all(layout, since="2026-02-01")["data"][-1]["uses"] == 2
    assert len(opened) == 4


def test_the_cache_is_kept_when_the_skillc_home_has_no_folder_yet(
    project: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    demo_skill: Callable[[Path], Path],
) -> None:
    """A project-only user has no ``~/.skillc``: the cache's save made no folder, failed in
    silence, and every ``--all`` read every log again."""
    used = demo_skill(project / ".skillc" / "skills" / "used")
    log(layout, "used", access(used, "/w/a", "2026-03-01T10:00:00Z"))
    age(project)
    assert not layout.global_dir.exists()
    first = query_all(layout)
    assert (layout.global_dir / _usage.CACHE_FILE).is_file()
    monkeypatch.setattr(_usage, "LocalRows", None)  # the second answer: from the cache
    assert query_all(layout) == first


def test_a_log_written_a_moment_ago_is_cached_once_past_its_granularity(
    project: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    demo_skill: Callable[[Path], Path],
) -> None:
    """A log is cached once its times are older than its file system's timestamp granularity
    (``skillc_index.file_times.settled``: 100 ms on a nanosecond one), not after a flat 2 s:
    ``--all`` run again within two seconds of a use read every log again."""
    used = demo_skill(project / ".skillc" / "skills" / "used")
    log(layout, "used", access(used, "/w/a", "2026-03-01T10:00:00Z"))
    time.sleep(0.3)  # past 100 ms, well within 2 s
    first = query_all(layout)
    monkeypatch.setattr(_usage, "LocalRows", None)  # the second answer: from the cache
    assert query_all(layout) == first


@pytest.mark.parametrize(
    "values",
    [
        [-5, None, None, -1, -3, []],  # negative counts
        [10**30, "2026-03-01T10:00:00Z", "2026-03-01T10:00:00Z", 1, 0, []],  # no such count
        [1, "zzz", "2026-13-99", 1, 0, []],  # no such times
        [1, "2026-03-02T10:00:00Z", "2026-03-01T10:00:00Z", 1, 0, []],  # first after last
        [1, "2026-03-01T10:00:00Z", "2026-03-01T10:00:00Z", 5, 0, []],  # more projects
        [0, "2026-03-01T10:00:00Z", None, 0, 0, []],  # a first use and no uses
        [True, None, None, 0, 0, []],  # a boolean is no count
    ],
)
def test_a_cached_entry_of_impossible_values_is_read_again(
    project: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    demo_skill: Callable[[Path], Path],
    values: list[Any],
) -> None:
    """A ``stats-usage.json`` of the right shape but impossible values (negative counts,
    ``10**30`` uses, a last use on ``2026-13-99``) was printed as it was: such an entry is a
    miss, its log read again."""
    used = demo_skill(project / ".skillc" / "skills" / "used")
    log(layout, "used", access(used, "/w/a", "2026-03-01T10:00:00Z"))
    age(project)
    first = query_all(layout)
    path = layout.global_dir / _usage.CACHE_FILE
    data = json.loads(path.read_text())
    for entry in data["logs"].values():
        entry["usage"] = dict.fromkeys(entry["usage"], values)
    path.write_text(json.dumps(data))
    assert query_all(layout) == first
    monkeypatch.setattr(_usage, "LocalRows", None)  # and stored again: from the cache now
    assert query_all(layout) == first


@pytest.mark.parametrize("kind", ["garbage", "fifo"])
def test_a_log_that_cannot_be_read_is_skipped_and_said(
    demo_skill: Callable[[Path], Path], project: Path, layout: Layout, stats_cli: Run, kind: str
) -> None:
    """One unreadable runtime log (not a database, a FIFO) costs its own skills' counts, said
    on stderr as prune says it; every other skill is listed with its uses."""
    for name in ("x", "y"):
        demo_skill(project / ".skillc" / "skills" / name)
    y = project / ".skillc" / "skills" / "y"
    log(layout, "y", access(y, "/w", "2026-01-30T10:00:00Z"))
    bad = project / ".skillc" / "runtime" / "x" / ".skillc-meta" / "logs.db"
    bad.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(bad)
    else:
        bad.write_text("garbage\n")
    reason = "not a regular file" if kind == "fifo" else "file is not a database"
    said = (
        f"warning: skipped {bad}: cannot read it: {reason} (its skills are listed with no uses)\n"
    )
    for extra in ((), ("--by", "week"), ("--html", "all.html")):
        result = stats_cli("stats", "--all", "--format", "json", *extra)
        assert result.returncode == 0, result.stderr
        assert said in result.stderr
    listed = json.loads(stats_cli("stats", "--all", "--format", "json").stdout)["data"]
    assert {entry["skill"]: entry["uses"] for entry in listed} == {"x": 0, "y": 1}


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path: Path) -> None:
    """Its folder a file (``~/.skillc`` one, or HOME pointing at a file): the temporary
    file's clean-up raised NotADirectoryError, and ``stats --all`` was E999."""
    (tmp_path / "home").write_text("not a folder\n")
    cache = _usage.UsageCache(tmp_path / "home" / ".stats-usage.json")
    cache.logs["x"] = {"stamp": [1, 2]}
    cache.changed = True
    cache.save()  # no error, nothing written
    assert (tmp_path / "home").read_text() == "not a folder\n"


def test_the_cache_forgets_the_logs_that_are_gone(tmp_path: Path) -> None:
    """Each deleted project's logs stayed in ``stats-usage.json`` for good (the file only grew,
    until over its cap it was never written again): a log that is gone and that this run did
    not ask for is dropped when the cache is written; another project's log is kept, and so
    is a missing log this run asked for (an unused skill's)."""
    kept, gone, unused = (tmp_path / name / "logs.db" for name in ("kept", "gone", "unused"))
    kept.parent.mkdir()
    kept.write_bytes(b"")
    path = tmp_path / "home" / _usage.CACHE_FILE
    cache = _usage.UsageCache(path)
    cache.logs = {str(kept): {}, str(gone): {}}
    assert cache.get(unused, [-1, -1, -1, -1], "{}") is None
    cache.put(unused, [-1, -1, -1, -1], "{}", {})
    cache.save()
    assert sorted(json.loads(path.read_text())["logs"]) == sorted([str(kept), str(unused)])
