"""A store's link to a folder of another name (``alpha-x -> repoA/skill``: a GNU stow
farm, an ``npx skills`` install, a dotfiles repository) is read, logged and counted as the
skill of the entry's name, through the installed ``skc``: two links whose folders are both
named ``skill`` shared the runtime ``skill``, their uses logged and counted as one skill's.
The rows an older version logged in that runtime stay counted (``stats --all``) and said
(``stats <skill>``), and the runtime stays where it is."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

Run = Callable[..., subprocess.CompletedProcess[str]]


def _rows(runtime: Path) -> list[tuple[str, str, str]]:
    with closing(sqlite3.connect(runtime / ".skillc-meta" / "logs.db")) as db, db:
        query = "SELECT command, skill, skill_path FROM access_log ORDER BY id"
        return list(db.execute(query))


def test_links_to_folders_of_one_name_are_read_logged_and_counted_apart(
    tmp_path: Path,
    project: Path,
    home: Path,
    write_skill: Callable[..., Path],
    cli: Callable[..., Callable[..., Run]],
) -> None:
    skc = cli("skc", script=True)
    repos = tmp_path / "repos"
    folders = {
        name: write_skill(repos / repo / "skill", name).resolve()
        for name, repo in (("alpha-x", "repoA"), ("beta-y", "repoB"), ("gamma-z", "repoC"))
    }
    # what an older version logged: a link's reads in a runtime named after its folder
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for name in ("alpha-x", "alpha-x", "beta-y"):
        done = skc("outline", str(folders[name]), cwd=elsewhere)
        assert done.returncode == 0, done.stderr
    former = home / ".skillc" / "runtime" / "skill"
    assert [row[2] for row in _rows(former)] == [str(folders[n]) for n in ("alpha-x",) * 2] + [
        str(folders["beta-y"])
    ]
    global_store, project_store = home / ".skillc" / "skills", project / ".skillc" / "skills"
    for store, names in ((global_store, ("alpha-x", "beta-y")), (project_store, ("gamma-z",))):
        store.mkdir(parents=True)
        for name in names:
            (store / name).symlink_to(folders[name], target_is_directory=True)

    for name in ("alpha-x", "beta-y", "gamma-z"):
        done = skc("outline", name)
        assert done.returncode == 0 and f"# {name}" in done.stdout, done.stderr
    for name in ("alpha-x", "beta-y"):
        assert _rows(home / ".skillc" / "runtime" / name) == [("outline", name, str(folders[name]))]
    assert _rows(project / ".skillc" / "runtime" / "gamma-z") == [
        ("outline", "gamma-z", str(folders["gamma-z"]))
    ]
    assert len(_rows(former)) == 3  # left where it is, never written again
    assert not (project / ".skillc" / "runtime" / "skill").exists()

    every = skc("stats", "--all", "--format", "json")
    assert every.returncode == 0, every.stderr
    uses = {entry["skill"]: entry["uses"] for entry in json.loads(every.stdout)["data"]}
    assert uses == {"alpha-x": 3, "beta-y": 2, "gamma-z": 1}

    one = skc("stats", "alpha-x", "--format", "json")
    assert one.returncode == 0, one.stderr
    data = json.loads(one.stdout)
    assert (data["skill"], data["skill_path"]) == ("alpha-x", str(folders["alpha-x"]))
    assert data["data"]["uses"] == 1
    assert one.stderr.splitlines() == [
        "warning: 2 rows of 'alpha-x' logged before its runtime was named after its store "
        "entry are in ~/.skillc/runtime/skill/.skillc-meta/logs.db: counted by `stats --all`, "
        "not by this summary"
    ]
    quiet = skc("stats", "gamma-z", "--format", "json")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


def test_a_links_reads_stay_its_own_beside_a_copy_imported_from_its_folder(
    tmp_path: Path,
    project: Path,
    home: Path,
    write_skill: Callable[..., Path],
    cli: Callable[..., Callable[..., Run]],
) -> None:
    """A store copy imported from the folder a link leads to (an older version's build of
    the link imported it as ``skill``) names that folder as its origin: the link's own reads
    of its folder are the link's skill's in ``stats --all``, not the copy's."""
    skc = cli("skc", script=True)
    folder = write_skill(tmp_path / "repos" / "repoA" / "skill", "alpha-x").resolve()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    built = skc("build", str(folder), cwd=elsewhere)
    assert built.returncode == 0 and "Import:" in built.stderr + built.stdout, built.stderr
    assert (home / ".skillc" / "skills" / "skill" / ".skillc-import.json").is_file()
    (home / ".skillc" / "skills" / "alpha-x").symlink_to(folder, target_is_directory=True)
    for _ in range(2):
        assert skc("outline", "alpha-x", cwd=elsewhere).returncode == 0
    every = skc("stats", "--all", "--format", "json", cwd=elsewhere)
    uses = {entry["skill"]: entry["uses"] for entry in json.loads(every.stdout)["data"]}
    assert uses == {"alpha-x": 2, "skill": 0}, every.stderr


def test_find_names_a_built_link_by_its_entry_in_the_show_hint(
    tmp_path: Path, home: Path, write_skill: Callable[..., Path], cli: Callable[..., Run]
) -> None:
    """``skc find`` of a built ``alpha-x -> repoA/skill``: the hint named the folder's
    ``skc open .../repoA/skill SKILL.md`` (the skill was not taken as a store skill, and by
    the folder's name ``skill`` show reads none); it is ``skc show alpha-x --section``, which
    reads the section from the index."""
    skc = cli("skc", script=True)
    body = "## Frobnicating widgets\n\nHow to frobnicate the widget pipeline.\n"
    folder = write_skill(tmp_path / "repos" / "repoA" / "skill", "alpha-x", "Widget tools.", body)
    store = home / ".skillc" / "skills"
    store.mkdir(parents=True)
    (store / "alpha-x").symlink_to(folder, target_is_directory=True)
    assert skc("build", "alpha-x").returncode == 0
    found = skc("find", "frobnicate widget pipeline", "--limit", "1")
    assert found.returncode == 0, found.stderr
    hint = found.stdout.splitlines()[3]
    assert hint == '   skc show alpha-x --section "Frobnicating widgets"'
    shown = skc("show", "alpha-x", "--section", "Frobnicating widgets")
    assert shown.stdout.startswith("## Frobnicating widgets"), shown.stderr
