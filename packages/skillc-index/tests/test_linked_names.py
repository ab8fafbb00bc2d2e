"""A store entry that links to a folder of another name (``alpha-x -> repoA/skill``: a GNU
stow farm, an ``npx skills`` install, a dotfiles repository) is the skill of the entry's
name: its runtime, deployment and logs are named after the entry, as ``skc list`` names
it, never after the folder the link leads to (two links to folders both named ``skill``
shared one runtime, and a build imported the folder into the store as ``skill``)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from skillc_index.layout import Layout, resolve_skill, runtime_for

Run = Callable[..., subprocess.CompletedProcess[str]]

#: entry -> the folder it links to (relative to the test's folder): two of each store's
#: targets are folders named ``skill``, as two repositories' skills are.
GLOBAL = {"alpha-x": "repoA/skill", "beta-y": "repoB/skill"}
PROJECT = {"gamma-z": "repoC/skill", "delta-w": "repoD/skill"}


def _link(store: Path, links: dict[str, str], write_skill: Callable[..., Path]) -> None:
    store.mkdir(parents=True, exist_ok=True)
    for entry, target in links.items():
        folder = write_skill(store.parents[2] / "repos" / target, entry)
        (store / entry).symlink_to(folder, target_is_directory=True)


def test_builds_of_links_to_folders_of_another_name_are_named_after_the_entry(
    project: Path, home: Path, write_skill: Callable[..., Path], cli: Callable[..., Run]
) -> None:
    _link(home / ".skillc" / "skills", GLOBAL, write_skill)
    _link(project / ".skillc" / "skills", PROJECT, write_skill)
    run = cli("skillc-index", process=True)
    for entry in [*GLOBAL, *PROJECT]:
        built = run("build", entry, "--format", "json")
        assert built.returncode == 0, built.stderr
        data = json.loads(built.stdout)
        base = home if entry in GLOBAL else project
        target = (base.parent / "repos" / (GLOBAL | PROJECT)[entry]).resolve()
        assert (data["skill"], data["manifest"]["skill"]) == (entry, entry)
        assert data["runtime_path"] == str(base / ".skillc" / "runtime" / entry), data
        assert data["source_path"] == str(target)
        assert data["imported_from"] is None and data["import"] is None
        assert [d["path"] for d in data["deployments"]] == [
            str(base / ".claude" / "skills" / entry)
        ]
    for base, links in ((home, GLOBAL), (project, PROJECT)):  # nothing imported, no `skill`
        assert sorted(p.name for p in (base / ".skillc" / "skills").iterdir()) == sorted(links)
        assert sorted(p.name for p in (base / ".skillc" / "runtime").iterdir()) == sorted(links)
    listed = json.loads(run("list", "--format", "json").stdout)["skills"]
    assert {s["name"]: Path(s["runtime_path"]).name for s in listed} == {
        entry: entry for entry in [*GLOBAL, *PROJECT]
    }
    forced = json.loads(run("build", "gamma-z", "--global", "--format", "json").stdout)
    assert forced["runtime_path"] == str(home / ".skillc" / "runtime" / "gamma-z")


def test_a_link_read_by_its_path_or_deployment_resolves_to_the_entrys_runtime(
    project: Path, home: Path, write_skill: Callable[..., Path], env: dict[str, str]
) -> None:
    """By its name, its store entry's path, the folder it leads to or a deployment: one
    skill, one runtime, one name (and its source the folder, canonical, for the logs)."""
    _link(home / ".skillc" / "skills", GLOBAL, write_skill)
    layout = Layout.discover(project, env)
    target = (home.parent / "repos" / "repoA" / "skill").resolve()
    runtime = home / ".skillc" / "runtime" / "alpha-x"
    for given in ("alpha-x", str(home / ".skillc/skills/alpha-x"), str(target)):
        found = resolve_skill(given, layout)
        assert (found.name, found.source, found.runtime, found.in_store) == (
            "alpha-x",
            target,
            runtime,
            True,
        ), given
    assert runtime_for(target, layout) == ("global", runtime, True)
    from skillc_index.inventory.links import store_entry

    assert store_entry(home / ".skillc" / "skills", target) == "alpha-x"
    assert store_entry(home / ".skillc" / "skills", target.parent) is None
    deployed = home / ".claude" / "skills" / "alpha-x"
    runtime.mkdir(parents=True)
    (runtime / "SKILL.md").write_text("stub", encoding="utf-8")
    deployed.parent.mkdir(parents=True)
    deployed.symlink_to(runtime)
    found = resolve_skill(str(deployed), layout)
    assert (found.name, found.source, found.runtime) == ("alpha-x", target, runtime)


def test_a_store_entrys_name_is_the_first_of_its_links_hidden_ones_left_out(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    from skillc_index.inventory.links import store_entry

    target = write_skill(tmp_path / "repo" / "skill").resolve()
    store = tmp_path / "store"
    store.mkdir()
    (store / ".b.old.1").symlink_to(target)
    assert store_entry(store, target) is None
    for name in ("zeta", "beta"):
        (store / name).symlink_to(target)
    assert store_entry(store, target) == "beta"
    (store / "skill").symlink_to(target)  # the entry of its own name comes first
    assert store_entry(store, target) == "skill"


def test_a_project_link_shadowing_a_global_skill_of_its_entrys_name_is_warned_of(
    project: Path, home: Path, write_skill: Callable[..., Path], cli: Callable[..., Run]
) -> None:
    """The project's ``gx -> repo/skill`` shadows the global store's ``gx`` (its name is
    the entry's, not ``skill``): its build says so, as for a folder of the store."""
    _link(project / ".skillc" / "skills", {"gx": "repo/skill"}, write_skill)
    write_skill(home / ".skillc" / "skills" / "gx")
    built = cli("skillc-index", process=True)("build", "gx")
    assert built.returncode == 0, built.stderr
    assert "warning: the project's 'gx' shadows the global 'gx' in this project" in built.stderr


def test_a_global_copy_of_a_link_is_current_after_a_rebuild_beside_a_former_runtime(
    project: Path, home: Path, write_skill: Callable[..., Path], cli: Callable[..., Run]
) -> None:
    """``build alpha-x --global --copy`` with the ``runtime/skill`` an older version made for
    ``alpha-x -> repoA/skill`` still there: ``list`` compared the copy with that runtime, so
    after an edit and a rebuild alpha-x was ``stale`` for good. It is the entry's runtime's."""
    import shutil

    _link(home / ".skillc" / "skills", {"alpha-x": "repoA/skill"}, write_skill)
    run = cli("skillc-index", script=True)
    assert run("build", "alpha-x", "--global", "--copy").returncode == 0
    runtimes = home / ".skillc" / "runtime"
    shutil.copytree(runtimes / "alpha-x", runtimes / "skill", symlinks=True)  # the former one
    skill_md = home.parent / "repos" / "repoA" / "skill" / "SKILL.md"
    skill_md.write_text(skill_md.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    rebuilt = run("build", "alpha-x", "--global", "--copy")
    assert rebuilt.returncode == 0, rebuilt.stderr
    listed = json.loads(run("list", "--format", "json").stdout)["skills"]
    assert [(s["name"], s["status"]) for s in listed] == [("alpha-x", "normal")]
    assert (home / ".claude" / "skills" / "alpha-x").is_dir()


def test_a_second_link_to_one_folder_builds_the_first_and_says_so(
    project: Path, home: Path, write_skill: Callable[..., Path], cli: Callable[..., Run]
) -> None:
    """``alpha-x`` and ``zeta`` lead to ``repo/skill``: one skill, named after the first link
    by name. ``build zeta`` builds and deploys ``alpha-x``, and says so (it said nothing);
    ``build alpha-x`` has nothing to say."""
    store = home / ".skillc" / "skills"
    _link(store, {"alpha-x": "repo/skill"}, write_skill)
    (store / "zeta").symlink_to((store / "alpha-x").resolve(), target_is_directory=True)
    run = cli("skillc-index", script=True)
    built = run("build", "zeta", "--format", "json")
    assert built.returncode == 0, built.stderr
    data = json.loads(built.stdout)
    assert (data["skill"], Path(data["runtime_path"]).name) == ("alpha-x", "alpha-x")
    said = (
        f"'zeta' and 'alpha-x' are links to one folder ({(store / 'alpha-x').resolve()}): "
        "built as 'alpha-x'"
    )
    assert f"warning: {said}" in built.stderr.splitlines()
    assert said in data["warnings"]
    first = run("build", "alpha-x")
    assert first.returncode == 0 and "one folder" not in first.stderr, first.stderr
    assert sorted(p.name for p in (home / ".skillc" / "runtime").iterdir()) == ["alpha-x"]
