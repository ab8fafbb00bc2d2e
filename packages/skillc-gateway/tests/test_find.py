"""``find`` (issue 15): the installed skills ranked for a task, from the catalog.

Real folders, a real catalog (SQLite in the private ``$SKILLC_HOME``), real builds by
skillc-index for deployed skills; the command in process (``gateway``) unless a real process
matters (two finds at once, the catalog read back from disk).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillc_gateway import find_skills
from skillc_gateway.catalog import Catalog, database, postings, rank
from skillc_gateway.catalog.database import CATALOG_FILE
from skillc_index import EmptyQuery, InvalidOption, Layout, Notice, SkillDirectoryNotFound
from skillc_index.build.skill import build_skill
from skillc_index.inventory.folders import ROUTING_ROOTS_VARIABLE

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSkill = Callable[..., Path]


def find(gateway: Run, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """``find ARGS --format json``, which must succeed; its JSON."""
    result = gateway("find", *args, "--format", "json", env_extra=env)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def names(data: dict[str, Any]) -> list[str]:
    """Each hit's name; one a read command takes only as its path (a folder only ``--path``
    searched, one whose name reads another skill) by its folder's name, which the tests
    compare (``test_a_hit_is_named_so_that_show_reads_it`` checks the path itself)."""
    return [folder_name(skill["name"]) for skill in data["skills"]]


def folder_name(name: str) -> str:
    return name.rpartition("/")[2] if "/" in name else name


@pytest.fixture
def layout(project: Path, home: Path) -> Layout:
    return Layout.discover(project, {"SKILLC_HOME": str(home)})


def test_a_query_starting_with_a_dash_is_found_as_written(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """Not split into short flags by click: a ``v`` in it was dropped (``-sae-temps``), an
    ``h`` printed the help."""
    write_skill(project / ".skillc/skills/gcc", "gcc", "Keep files with -save-temps.")
    for query in ("-save-temps", "-fvisibility=hidden"):
        data = find(gateway, query, "--limit", "1")
        assert data["query"] == query
    assert names(find(gateway, "-save-temps")) == ["gcc"]


# -- what is searched ----------------------------------------------------------------------


def test_both_stores_are_searched(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc/skills/invoices", "invoices", "Make invoices from orders.")
    write_skill(home / ".skillc/skills/receipts", "receipts", "Scan receipts into invoices.")
    data = find(gateway, "invoices")
    assert sorted(names(data)) == ["invoices", "receipts"]
    assert (data["searched"], data["skipped"], data["partial"]) == (2, 0, False)
    paths = {skill["name"]: skill["path"] for skill in data["skills"]}
    assert paths["invoices"] == str(project / ".skillc/skills/invoices")
    assert paths["receipts"] == str(home / ".skillc/skills/receipts")
    assert data["query"] == "invoices" and data["warnings"] == []


def test_agent_folders_project_and_home(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".claude/skills/kite", "kite", "Fly a kite in the wind.")
    write_skill(home / ".agents/skills/glider", "glider", "Fly a glider in the wind.")
    write_skill(home / ".config/opencode/skills/boat", "boat", "Sail a boat.")
    data = find(gateway, "fly in the wind")
    assert sorted(names(data)) == ["glider", "kite"]
    deployed = {skill["name"]: skill["deployed_to"] for skill in data["skills"]}
    assert deployed == {
        "kite": [str(project / ".claude/skills/kite")],
        "glider": [str(home / ".agents/skills/glider")],
    }
    assert data["searched"] == 3


def test_configured_targets_are_agent_folders(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    (home / ".skillc").mkdir()
    (home / ".skillc/config.toml").write_text('[targets]\nmine = "~/my-agent/skills"\n')
    write_skill(home / "my-agent/skills/lamp", "lamp", "Light a lamp.")
    (skill,) = find(gateway, "lamp")["skills"]
    assert skill["deployed_to"] == [str(home / "my-agent/skills/lamp")]


def test_the_api_searches_the_configured_targets_as_skc_find_does(
    layout: Layout, project: Path, home: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """``find_skills`` without ``configured`` left out the config's ``[targets]``: the API
    answered fewer skills than ``skc find`` and the MCP tool. It reads them as they do now
    (a checkout's own targets outside it left out); ``{}`` asks for none."""
    from skillc_gateway import find_skills

    outside = tmp_path / "outside"
    write_skill(home / "my-agent/skills/lamp", "lamp", "Light a lamp.")
    write_skill(outside / "lamp-out", "lamp-out", "Light a lamp outside.")
    (home / ".skillc").mkdir()
    (home / ".skillc/config.toml").write_text('[targets]\nmine = "~/my-agent/skills"\n')
    (project / ".skillc").mkdir(exist_ok=True)
    (project / ".skillc/config.toml").write_text(f'[targets]\nevil = "{outside}"\n')
    assert [skill.name for skill in find_skills(layout, "lamp").skills] == ["lamp"]
    assert find_skills(layout, "lamp", configured={}).skills == ()


def test_a_checkouts_targets_lead_find_nowhere_outside_it(
    gateway: Run, project: Path, home: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """The project's own [targets] are searched only where they are inside the project: a
    checkout's `evil = "/"` (or any outside folder, or a home folder) is not walked, nor
    one under a key holding `/` (no target name: warned and ignored)."""
    outside = tmp_path / "outside"
    write_skill(outside / "lamp-out", "lamp-out", "Light a lamp outside.")
    write_skill(home / "private/lamp-home", "lamp-home", "Light a lamp at home.")
    write_skill(project / "our-agent/skills/lamp-in", "lamp-in", "Light a lamp inside.")
    (project / ".skillc").mkdir(exist_ok=True)
    (project / ".skillc/config.toml").write_text(
        f'[targets]\nevil = "{outside}"\nhomely = "~/private"\nroot = "/"\n'
        f'ours = "our-agent/skills"\n"x/y" = "{outside}"\n'
    )
    assert names(find(gateway, "lamp")) == ["lamp-in"]
    (home / ".skillc").mkdir(exist_ok=True)  # the user's own config is trusted
    (home / ".skillc/config.toml").write_text(f'[targets]\nmine = "{outside}"\n')
    assert sorted(names(find(gateway, "lamp"))) == ["lamp-in", "lamp-out"]


def installed_plugin(home: Path, records: object) -> None:
    plugins = home / ".claude/plugins"
    plugins.mkdir(parents=True, exist_ok=True)
    (plugins / "installed_plugins.json").write_text(json.dumps(records), encoding="utf-8")
    found = records.get("plugins") if isinstance(records, dict) else None
    if isinstance(found, dict):  # each turned on, as /plugin install does
        enabled = {"enabledPlugins": dict.fromkeys(found, True)}
        (home / ".claude/settings.json").write_text(json.dumps(enabled), encoding="utf-8")


def test_installed_claude_code_plugins(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    cache = home / ".claude/plugins/cache/market"
    write_skill(cache / "tools/1.0/skills/weather", "weather", "Forecast the weather.")
    write_skill(cache / "other/2.0/skills/rainfall", "rainfall", "Weather rainfall records.")
    write_skill(cache / "mine/3.0/skills/forecast", "forecast", "Weather forecast for here.")
    installed_plugin(
        home,
        {
            "version": 2,
            "plugins": {
                "tools@market": [{"scope": "user", "installPath": str(cache / "tools/1.0")}],
                # for another project only
                "other@market": [
                    {
                        "scope": "project",
                        "projectPath": "/somewhere/else",
                        "installPath": str(cache / "other/2.0"),
                    }
                ],
                # for this one, written with ~
                "mine@market": [
                    {
                        "scope": "local",
                        "projectPath": str(project),
                        "installPath": "~/.claude/plugins/cache/market/mine/3.0",
                    }
                ],
                "broken@market": [{"scope": "user", "installPath": "relative/path"}, 7],
            },
        },
    )
    data = find(gateway, "weather forecast")
    assert sorted(names(data)) == ["mine:forecast", "tools:weather"]  # as `skc list` has them
    assert data["searched"] == 2


def test_plugin_records_of_version_1_and_bad_files(
    gateway: Run, home: Path, write_skill: WriteSkill
) -> None:
    install = home / ".claude/plugins/cache/m/p/1"
    write_skill(install / "skills/anchor", "anchor", "Drop the anchor.")
    installed_plugin(home, {"version": 1, "plugins": {"p@m": {"installPath": str(install)}}})
    assert names(find(gateway, "anchor")) == ["p:anchor"]
    for bad in ("[1, 2", '{"plugins": [1]}', "x" * 5_000_000):
        (home / ".claude/plugins/installed_plugins.json").write_text(bad)
        assert find(gateway, "anchor")["skills"] == []


def test_a_plugin_skill_found_is_named_as_skc_list_names_it(
    gateway: Run, layout: Layout, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """``find`` named a plugin's skill ``x`` (its frontmatter), which reads the personal
    ``~/.claude/skills/x``: it is ``q:x``, and ``p@m1:x``/``p@m2:x`` when plugins of one name
    in two marketplaces both have it; a plugin installed at two scopes counts once."""
    from skillc_index.inventory.entries import installed_skills
    from skillc_index.inventory.resolve import skill_names

    cache = home / ".claude/plugins/cache"
    for folder in ("m1/p/skills/x", "m2/p/skills/x", "m1/q/skills/x", "m1/q/skills/y"):
        write_skill(cache / folder, "x", f"Lantern {folder}.")
    write_skill(home / ".claude/skills/x", "x", "Lantern of my own.")
    here = {"scope": "local", "projectPath": str(project), "installPath": str(cache / "m1/q")}
    records = {
        "p@m1": [{"installPath": str(cache / "m1/p")}],
        "p@m2": [{"installPath": str(cache / "m2/p")}],
        "q@m1": [{"scope": "user", "installPath": str(cache / "m1/q")}, here],
    }
    installed_plugin(home, {"version": 2, "plugins": records})
    skills = installed_skills(layout).skills
    named = zip(skills, skill_names(skills), strict=True)
    listed = {str(skill.source): name for skill, name in named}
    data = find(gateway, "lantern", "--limit", "10")
    assert {skill["path"]: skill["name"] for skill in data["skills"]} == listed
    assert sorted(listed.values()) == ["p@m1:x", "p@m2:x", "q:x", "q:y", "x"]


def test_a_plugin_at_two_scopes_names_each_copy_by_what_reads_it(
    gateway: Run, layout: Layout, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """A plugin installed at user scope (1.0) and project scope (2.0), two copies of its
    skill: ``find`` named both ``tools:plans``, which reads the project's copy only (as Claude
    Code loads it); the user copy is named by its path now, which reads it. Near miss: the
    project copy keeps ``tools:plans``."""
    from skillc_index import resolve_skill

    cache = home / ".claude/plugins/cache/gamma/tools"
    write_skill(cache / "1.0/skills/plans", "plans", "Write a lantern plan.")
    write_skill(cache / "2.0/skills/plans", "plans", "Write a lantern plan, second edition.")
    user = {"scope": "user", "installPath": str(cache / "1.0")}
    here = {"scope": "project", "projectPath": str(project), "installPath": str(cache / "2.0")}
    installed_plugin(home, {"version": 2, "plugins": {"tools@gamma": [user, here]}})
    hits = {skill["path"]: skill["name"] for skill in find(gateway, "lantern plan")["skills"]}
    older, newer = str(cache / "1.0/skills/plans"), str(cache / "2.0/skills/plans")
    assert hits == {newer: "tools:plans", older: older}
    for path, name in hits.items():
        assert str(resolve_skill(name, layout).source) == path


def test_a_plugin_skills_folder_leading_out_is_not_searched(
    gateway: Run, home: Path, write_skill: WriteSkill
) -> None:
    install = home / ".claude/plugins/cache/m/p/1"
    install.mkdir(parents=True)
    write_skill(home / "elsewhere/secret", "secret", "A secret skill.")
    (install / "skills").symlink_to(home / "elsewhere")
    installed_plugin(home, {"version": 2, "plugins": {"p@m": [{"installPath": str(install)}]}})
    assert find(gateway, "secret")["skills"] == []


def test_a_plugin_skill_linked_out_of_the_plugin_is_no_skill_of_it(
    gateway: Run, layout: Layout, home: Path, write_skill: WriteSkill
) -> None:
    """An entry of a plugin's ``skills`` that is a symlink leading out of the plugin
    (``skills/secret -> ~/elsewhere/secret``) is skipped with a warning (Agent Plugins
    §4.1): ``list`` left it out, and ``find`` searched, ``open`` read and the MCP server
    served the folder it leads to. Near miss: the plugin's own skill, a link inside it."""
    from skillc_gateway.served import ServedSkills
    from skillc_index.inventory.entries import installed_skills

    install = home / ".claude/plugins/cache/m/p/1"
    write_skill(install / "skills/inside", "inside", "A lantern skill inside.")
    (install / "skills/alias").symlink_to(install / "skills/inside")
    write_skill(home / "elsewhere/secret", "secret", "A lantern secret.", files={"n.md": "TOP"})
    (install / "skills/secret").symlink_to(home / "elsewhere/secret")
    installed_plugin(home, {"version": 2, "plugins": {"p@m": [{"installPath": str(install)}]}})
    inventory = installed_skills(layout)
    assert [skill.source for skill in inventory.skills] == [install / "skills/inside"]
    notice = f"skipping 'secret' ({install}/skills/secret): a link out of the plugin, to "
    assert [n.text for n in inventory.notices()] == [f"{notice}{home}/elsewhere/secret"]
    data = find(gateway, "lantern")
    assert (names(data), data["skipped"]) == (["p:alias"], 1)  # `skc list`'s name for it
    text = gateway("find", "lantern")  # said on a warning line, as `list` says it
    assert f"warning: {notice}" in text.stderr and "a link out of the plugin, to " in text.stderr
    result = gateway("open", "p:secret", "n.md")
    assert (result.returncode, result.stdout) == (1, "")
    assert "error[E001]" in result.stderr and "a link out of the plugin" in result.stderr
    served = ServedSkills(lambda: layout, watch=False)
    try:
        assert list(served.snapshot().entries) == ["p/inside"]
        assert served.read("skill://p/secret/n.md") is None
    finally:
        served.close()


def test_a_hit_is_named_so_that_show_reads_it(
    cli: Callable[..., Run], project: Path, home: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    """A hit is named by its folder (``skc list``'s name) when ``skc show <name>`` reads it,
    else by its path (:func:`~skillc_index.inventory.resolve.reading_name`, as ``show``
    names a skill given by its path): a ``.claude/skills`` copy of a store skill's name was
    ``writing-plans``, which reads the store's; a folder only ``--path`` searched, by its
    folder's name, which reads nothing (E001) or another skill; one under ``$SKILLC_HOME``,
    absolute (a shell reads ``~`` as the user's home)."""
    skc = cli("skillc-gateway", script=True)
    store = project / ".skillc/skills/writing-plans"
    write_skill(store, "writing-plans", "Plans from the store.", "## Lions\n\nStore lions.\n")
    build_skill("writing-plans", layout)
    copy = project / ".claude/skills/writing-plans"
    (copy.parent / "writing-plans").unlink()  # the build's link: the user's own copy instead
    write_skill(copy, "writing-plans", "Plans of the copy.", "## Zebras\n\nCopy zebras.\n")
    write_skill(project / ".claude/skills/drafts", "drafts", "Drafts.", "## Owls\n\nOwls.\n")
    write_skill(project / "lib/zed", "zed", "Zed.", "## Giraffes\n\nGiraffes.\n")
    write_skill(home / "lib/far", "far", "Far.", "## Herons\n\nHerons.\n")
    (project / "lib/writing-plans").symlink_to(copy)  # --path: a folder installed as well

    def named(query: str, *paths: str) -> tuple[str, str]:
        where = [arg for path in paths for arg in ("--path", path)]
        found = skc("find", query, *where, "--limit", "1", "--format", "json")
        assert found.returncode == 0, found.stderr
        [hit] = json.loads(found.stdout)["skills"]
        shown = skc("show", hit["name"], "--section", hit["sections"][0]["heading"])
        assert shown.returncode == 0, (hit["name"], shown.stderr)  # it reads that skill
        return hit["name"], shown.stdout.split("\n\n")[1].strip()

    assert named("store lions") == ("writing-plans", "Store lions.")
    assert named("copy zebras") == (".claude/skills/writing-plans", "Copy zebras.")
    assert named("owls drafts") == ("drafts", "Owls.")  # its name reads it: no path
    assert named("giraffes", "lib") == ("./lib/zed", "Giraffes.")
    assert named("owls drafts", ".claude/skills") == ("drafts", "Owls.")  # installed
    assert named("copy zebras", "lib") == (".claude/skills/writing-plans", "Copy zebras.")
    assert named("herons", str(home / "lib")) == (str(home / "lib/far"), "Herons.")
    text = skc("find", "giraffes", "--path", "lib")
    assert text.stdout.startswith("1. ./lib/zed  (score "), text.stdout


def test_path_replaces_the_roots_and_nested_skills_count(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc/skills/stored", "stored", "Paint a fence.")
    library = project / "library"
    outer = write_skill(library / "outer", "outer", "Paint a house.")
    write_skill(outer / "parts/inner", "inner", "Paint a door.")
    write_skill(project / "other/loose", "loose", "Paint a boat.")
    data = find(gateway, "paint", "--path", "library")
    assert sorted(names(data)) == ["inner", "outer"]
    data = find(gateway, "paint", "--path", "library", "--path", str(project / "other"))
    assert sorted(names(data)) == ["inner", "loose", "outer"]
    # a skill folder itself
    assert names(find(gateway, "paint", "--path", "library/outer/parts/inner")) == ["inner"]


def test_skill_routing_roots_is_the_default_path(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc/skills/stored", "stored", "Paint a fence.")
    write_skill(project / "a/one", "one", "Paint a house.")
    write_skill(project / "b/two", "two", "Paint a door.")
    roots = os.pathsep.join([str(project / "a"), str(project / "b")])
    data = find(gateway, "paint", env={ROUTING_ROOTS_VARIABLE: roots})
    assert sorted(names(data)) == ["one", "two"]
    # --path wins over it
    data = find(gateway, "paint", "--path", "a", env={ROUTING_ROOTS_VARIABLE: roots})
    assert names(data) == ["one"]


def test_hidden_folders_node_modules_and_depth(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    library = project / "library"
    write_skill(library / ".hidden/secret", "secret", "Paint in secret.")  # entered
    write_skill(library / "node_modules/dep", "dep", "Paint a dependency.")
    write_skill(library / "repo/.claude/skills/agent", "agent", "Paint for an agent.")
    write_skill(library / "repo/.git/skills/gitty", "gitty", "Paint in git.")
    write_skill(library / "repo/.skillc/skills/sourced", "sourced", "Paint a source.")
    write_skill(library / "repo/.skillc/runtime/sourced", "sourced", "Paint a stub.")
    deep = library.joinpath(*"abcdefg")  # level 7: found
    write_skill(deep / "ok", "ok", "Paint deep down.")
    write_skill(deep / "h/too-deep", "too-deep", "Paint deeper down.")  # level 9
    data = find(gateway, "paint", "--path", "library")
    assert sorted(names(data)) == ["agent", "ok", "secret", "sourced"]
    (sourced,) = [skill for skill in data["skills"] if folder_name(skill["name"]) == "sourced"]
    assert sourced["path"].endswith("/.skillc/skills/sourced")


def test_skills_in_dot_folders_are_found_and_what_is_not_a_source_is_not(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """A repository shaped like openai/skills (skills/.curated/..., skills/.system/...):
    find walks by the rule build and lint walk by (skillc_index.skips_folder)."""
    repo = project / "openai-skills"
    for folder in ("skills/.curated/curated-one", "skills/.system/system-one",
                   "skills/.experimental/experimental-one"):  # fmt: skip
        write_skill(repo / folder, folder.rpartition("/")[2], "Draw a diagram.")
    for folder in (".git/hooks/x1", ".venv/lib/x2", "venv/x3", "node_modules/pkg/x4",
                   "skills/__pycache__/x5", ".cache/x6", ".skillc/runtime/x7", ".skillc/logs/x8",
                   "skills/.x9.skillc-backup-20260101T000000Z", "skills/.x10.deploy.1-0123abcd",
                   "skills/.system/system-one/sub/.skillc-meta/x11"):  # fmt: skip
        write_skill(repo / folder, folder.rpartition("/")[2].strip("."), "Draw a diagram too.")
    data = find(gateway, "draw a diagram", "--path", "openai-skills")
    assert sorted(names(data)) == ["curated-one", "experimental-one", "system-one"]
    assert (data["searched"], data["skipped"]) == (3, 0)
    text = gateway("find", "draw a diagram", "--path", "openai-skills")
    assert text.returncode == 0, text.stderr
    assert "openai-skills/skills/.curated/curated-one" in text.stdout
    assert "x1" not in text.stdout and "x11" not in text.stdout
    write_skill(repo / "skills/.new/new-one", "new-one", "Draw a diagram anew.")
    assert "new-one" in names(find(gateway, "draw a diagram", "--path", "openai-skills"))


def test_a_cache_its_tool_tagged_is_not_searched_and_is_once_untagged(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """cargo's ``target/`` holds a ``CACHEDIR.TAG``: find walks it no more than build and lint
    do (skillc_index.walk.cache_tagged); a folder named ``build`` is searched."""
    library = project / "library"
    write_skill(library / "target/debug/copied", "copied", "Paint a copy.")
    write_skill(library / "build/real", "real", "Paint for real.")
    tag = library / "target/CACHEDIR.TAG"
    tag.write_bytes(b"Signature: 8a477f597d28d172789f06886806bc55\n# cargo\n")
    assert names(find(gateway, "paint", "--path", "library")) == ["real"]
    tag.unlink()  # the folder changed: listed again, its skills found
    assert sorted(names(find(gateway, "paint", "--path", "library"))) == ["copied", "real"]


@pytest.mark.parametrize("hidden_by", ["record", "tag"])
def test_a_folder_left_out_since_the_last_find_is_not_found(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill, hidden_by: str
) -> None:
    """A known folder a package record written since names (or a cache tag made in it since)
    is left out by the next find, as by a fresh catalog: the incremental walk copied it from
    the catalog's state (only new folders were looked at)."""
    library = project / "library"
    write_skill(library / "docs/copied", "copied", "Paint a copy.")
    write_skill(library / "real", "real", "Paint for real.")
    assert sorted(names(find(gateway, "paint", "--path", "library"))) == ["copied", "real"]
    if hidden_by == "record":
        record = {"version": 1, "files": {}, "made_folders": ["docs"]}
        (library / ".skillc-package.json").write_text(json.dumps(record), encoding="utf-8")
    else:
        tag = library / "docs/CACHEDIR.TAG"
        tag.write_bytes(b"Signature: 8a477f597d28d172789f06886806bc55\n")
    assert names(find(gateway, "paint", "--path", "library")) == ["real"]
    fresh = {"SKILLC_HOME": str(home.parent / "fresh-home")}
    assert names(find(gateway, "paint", "--path", "library", env=fresh)) == ["real"]


def test_symlinked_folders_are_followed_only_as_entries_of_a_root(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    outside = write_skill(project / "outside/linked", "linked", "Paint through a link.")
    write_skill(project / "outside/deeper", "deeper", "Paint through a deeper link.")
    library = project / "library"
    (library / "sub").mkdir(parents=True)
    (library / "linked").symlink_to(outside)
    (library / "sub/deeper").symlink_to(project / "outside/deeper")
    data = find(gateway, "paint", "--path", "library")
    assert names(data) == ["linked"]
    assert data["skills"][0]["path"] == str(outside)


def test_another_projects_agent_folder_and_an_alias_are_searched_through_path(
    gateway_process: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """``skc find --path`` is the user's choice: its links are followed wherever they lead.
    Another project's ``.claude/skills`` (skc-deployed links into its ``.skillc/runtime``)
    was 0 searched, and a symlinked alias of this project's (``cs -> .claude/skills``)
    skipped its deployed skill: a folder of installed skills is matched by its real path
    and searched as that folder (its hit named as the agent reads it), and the text output
    warns of nothing. Near miss: the folder by its own name."""
    other = project.parent / "other-project"
    write_skill(other / ".skillc/skills/violin", "violin", "Play the violin.")
    build_skill("violin", Layout.discover(other, {"SKILLC_HOME": str(home)}), targets=[])
    deployed = other / ".claude/skills/violin"  # (as the build deployed it)
    assert deployed.resolve() == (other / ".skillc/runtime/violin").resolve()
    data = find(gateway_process, "violin", "--path", str(other / ".claude/skills"))
    assert (names(data), data["searched"], data["skipped"]) == (["violin"], 1, 0), data
    write_skill(project / ".skillc/skills/cello", "cello", "Play the cello.")
    build_skill("cello", Layout.discover(project, {"SKILLC_HOME": str(home)}), targets=[])
    deployed = project / ".claude/skills/cello"
    assert deployed.resolve() == (project / ".skillc/runtime/cello").resolve()
    (project / "cs").symlink_to(project / ".claude/skills")
    for path in ("cs", ".claude/skills"):
        data = find(gateway_process, "cello", "--path", path)
        assert ([s["name"] for s in data["skills"]], data["skipped"]) == (["cello"], 0), data
        text = gateway_process("find", "cello", "--path", path)
        assert text.returncode == 0 and "warning" not in text.stderr, text.stderr


def test_a_models_path_and_the_users_keep_their_own_walks(
    layout: Layout, project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """One folder searched by a model's ``path`` (confined to the folders it may read) and
    by ``skc find --path`` (followed anywhere), in turns, in one catalog: neither answer is
    the other's saved walk (a state records the folders it was confined to; one of others
    is walked anew), the confined one skips, counts and says the link out."""
    outside = write_skill(tmp_path / "elsewhere/zebra", "zebra", "Zebra quantum flamingo.")
    vendor = project / "vendor"
    write_skill(vendor / "own", "own", "A flamingo of the vendor folder.")
    (vendor / "escape").symlink_to(outside)
    said = f"skipping 'escape' ({vendor}/escape): a link out of the folders this server reads"
    for confined in (True, False, True, False):
        found = find_skills(layout, "zebra quantum flamingo", paths=["vendor"], confined=confined)
        hits = sorted(Path(skill.path).name for skill in found.skills)
        warned = [w.text for w in found.warnings if isinstance(w, Notice)]
        if confined:
            assert (hits, found.skipped) == (["own"], 1), confined
            assert len(warned) == 1 and said in warned[0], warned
        else:
            assert (hits, found.skipped, warned) == (["own", "zebra"], 0, []), confined


def test_the_links_out_a_model_is_told_of_are_bounded(
    layout: Layout,
    project: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each linked entry skipped is said on its line up to ``LINKS_SAID``, then how many
    more (a checkout of 10,000 links out made as many warnings)."""
    from skillc_gateway.catalog import engine

    monkeypatch.setattr(engine, "LINKS_SAID", 2)
    vendor = project / "vendor"
    write_skill(vendor / "own", "own", "A flamingo of the vendor folder.")
    for name in ("a", "b", "c", "d"):
        outside = write_skill(tmp_path / f"elsewhere/{name}", name, "Zebra flamingo.")
        (vendor / f"link-{name}").symlink_to(outside)
    found = find_skills(layout, "zebra flamingo", paths=["vendor"], confined=True)
    warned = [w.text for w in found.warnings if isinstance(w, Notice)]
    assert found.skipped == 4 and len(warned) == 3, warned
    assert "'link-a'" in warned[0] and "'link-b'" in warned[1], warned
    assert warned[2].endswith("and 2 more linked entries skipped, leading out as those"), warned


# -- deployed skills and duplicates ----------------------------------------------------------


def test_the_router_of_skc_route_is_not_found(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    router = write_skill(project / ".claude/skills/skill-router", "skill-router", "Find skills.")
    write_skill(project / ".claude/skills/finder", "finder", "Find skills in folders.")
    assert sorted(names(find(gateway, "find skills"))) == ["finder", "skill-router"]
    (router / ".skillc-router.json").write_text("{}", encoding="utf-8")
    data = find(gateway, "find skills")  # the mark changes its folder: seen at once
    assert names(data) == ["finder"] and data["searched"] == 1


def test_name_and_description_outweigh_the_body(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    folder = project / ".claude/skills"
    write_skill(folder / "tables", "tables", "Format tables.", "Mentions invoices once.\n" * 1)
    write_skill(folder / "invoices", "invoices", "Create and send invoices to customers.")
    write_skill(folder / "ledger", "ledger", "Keep a ledger.", "## Sending invoices\n\nStep one.\n")
    data = find(gateway, "please send invoices to a customer")
    assert names(data)[0] == "invoices"
    ledger = next(skill for skill in data["skills"] if skill["name"] == "ledger")
    assert ledger["sections"][0]["heading"] == "Sending invoices"
    assert ledger["sections"][0]["line"] == 8


def test_a_body_that_holds_the_request_beats_a_name_that_holds_one_word_of_it(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    # Issue 35: a request in the user's words meets the skill's body, not its name. Each
    # document's score is the share of the request it matches, so a name holding one word of
    # the request no longer counts as much as a name holding all of it.
    folder = project / ".claude/skills"
    write_skill(folder / "reports", "reports", "Reports and more reports.")
    write_skill(
        folder / "vault-tools",
        "vault-tools",
        "Tools for the vault.",
        "## Schedule\n\nRotate the signing keys of the webhook verifier every quarter.\n",
    )
    for n in range(8):
        write_skill(folder / f"filler-{n}", f"filler-{n}", f"Filler number {n}.", "Nothing.\n")
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    data = find(gateway, "rotate the webhook verifier signing keys before the reports", env=lexical)
    assert names(data)[:2] == ["vault-tools", "reports"]


def test_a_request_in_japanese_meets_the_skills_that_hold_its_words(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    # Han and Kana are written without spaces: the tokenizer kept a run as one word, so a
    # request in Japanese found nothing by the words. Runs are cut into pairs of characters
    # on both sides (postings.cjk_pairs); a heading is still shown as written.
    folder = project / ".claude/skills"
    write_skill(
        folder / "create-pr",
        "create-pr",
        "変更をまとめてレビューに出す。",
        "## PR を作成する\n\nブランチをプッシュしてから作成します。\n",
    )
    write_skill(
        folder / "translate-docs", "translate-docs", "日本語のドキュメントを英語に翻訳する。"
    )
    write_skill(folder / "release", "release", "Publish a release of the package.", "Tag it.\n")
    write_skill(folder / "charts", "charts", "把表格数据画成柱状图。")
    write_skill(folder / "meetings", "meetings", "회의록을 요약하고 할 일을 정리합니다.")
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    data = find(gateway, "PRを作成する", env=lexical)
    assert names(data)[0] == "create-pr"
    assert data["skills"][0]["sections"][0]["heading"] == "PR を作成する"
    assert (
        names(find(gateway, "ドキュメントを翻訳してください", env=lexical))[0] == "translate-docs"
    )
    assert names(find(gateway, "publish a release", env=lexical))[0] == "release"
    assert names(find(gateway, "帮我把销售数据画成柱状图", env=lexical))[0] == "charts"
    assert names(find(gateway, "어제 회의록 요약해줘", env=lexical))[0] == "meetings"


def test_cjk_runs_are_cut_into_pairs_and_other_text_is_left_as_it_is() -> None:
    assert postings.cjk_pairs("PRを作成する") == "PR を作 作成 成す する "
    assert postings.cjk_pairs("翻訳 と") == " 翻訳   と "
    assert postings.cjk_pairs("한국어 문서") == " 한국 국어   문서 "
    assert postings.cjk_pairs("x字y").split() == ["x", "字", "y"]
    assert (
        postings.cjk_pairs("plain text, café — “quoted” ⚠️ 🚀")
        == "plain text, cafe\u0301 — “quoted” \u26a0 🚀"  # folded as search folds it: no U+FE0F
    )


def test_the_cjk_check_leaves_alone_the_text_it_left_alone_before() -> None:
    """``cjk_pairs`` looks for the first bytes of CJK characters with a ``memchr`` a byte,
    where it used a pattern: for every character of the Basic Multilingual Plane and one of
    97 past it, alone and twice between letters, the same text as with the pattern (but the
    Thai, Lao, Myanmar and Khmer ones, cut by graphemes since, the full-width forms of
    ASCII, read as ASCII since, and half-width katakana: the tests below), once folded
    (``folded``, search's)."""
    import re

    from skillc_index.folding import folded
    from skillc_index.index.scripts import CJK_CHARS, SCRIPT_MARKS, SPACELESS_CHARS

    lead, run = re.compile(rb"[\xe1\xe3-\xed]"), re.compile(f"({CJK_CHARS}+)")
    spaceless = re.compile(f"{SPACELESS_CHARS}|{SCRIPT_MARKS}")

    def before(text: str) -> str:
        text = folded(text)
        if text.isascii() or not lead.search(text.encode("utf-8", "surrogatepass")):
            return text
        return run.sub(postings._pairs, text)

    points = [*range(0x80, 0x10000), *range(0x10000, 0x110000, 97)]
    points = [
        p
        for p in points
        if not spaceless.match(chr(p)) and not 0xFF01 <= p <= 0xFF5E and not 0xFF61 <= p <= 0xFF9F
    ]
    for point in points:
        for text in (chr(point), f"a{chr(point)}{chr(point)}b"):
            assert postings.cjk_pairs(text) == before(text), hex(point)


def test_thai_runs_are_cut_into_pairs_of_graphemes_and_indic_words_keep_their_marks() -> None:
    """Thai, Lao, Myanmar and Khmer are written without spaces, and spell with marks: a run
    is cut into pairs of graphemes (a letter and its tone mark or vowel stay together), as
    a request is; the marks of Devanagari stay in its words, for the documents (the
    tokenizer) and the request alike (``कोमा`` was ``क`` and ``म``, as ``काम`` was)."""
    from skillc_gateway.catalog.rank import query_terms

    assert postings.cjk_pairs("\u0e15\u0e49\u0e21\u0e22\u0e33") == (
        " \u0e15\u0e49\u0e21 \u0e21\u0e22\u0e33 "
    )  # ต้ม มยำ (ยำ one grapheme: SARA AM stays with its letter)
    assert postings.cjk_pairs("\u0e01 x") == " \u0e01  x"  # a run of one stays one
    assert postings.cjk_pairs("\u0915\u094b\u092e\u093e") == "\u0915\u094b\u092e\u093e"  # कोमा
    assert query_terms("\u0915\u094b\u092e\u093e \u0915\u093e\u092e") == [
        "\u0915\u094b\u092e\u093e",
        "\u0915\u093e\u092e",
    ]
    assert query_terms("\u0e15\u0e49\u0e21\u0e22\u0e33") == [
        "\u0e15\u0e49\u0e21",
        "\u0e21\u0e22\u0e33",
    ]


def test_thai_and_lao_sara_am_stays_in_the_grapheme_of_its_letter() -> None:
    """SARA AM (Thai U+0E33, Lao U+0EB3) is a letter, not a combining mark, yet part of the
    grapheme before it (``กำ``): the catalog's pairs were ``กำ ำลั ลัง`` (a pair made of ``ก``
    and ``ำ``, then one starting with ``ำ``), where the index and the text cuts keep ``กำ``
    together (one pattern for all: skillc-index's ``GRAPHEME``)."""
    from skillc_gateway.catalog.rank import query_terms

    assert postings.cjk_pairs("\u0e01\u0e33\u0e25\u0e31\u0e07") == (
        " \u0e01\u0e33\u0e25\u0e31 \u0e25\u0e31\u0e07 "
    )  # กำลั ลัง
    assert postings.cjk_pairs("\u0e84\u0eb3") == " \u0e84\u0eb3 "  # ຄຳ: one grapheme
    assert query_terms("\u0e01\u0e33\u0e25\u0e31\u0e07") == [
        "\u0e01\u0e33\u0e25\u0e31",
        "\u0e25\u0e31\u0e07",
    ]


def test_a_request_in_thai_or_hindi_meets_the_skills_that_hold_its_words(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """A Thai request found nothing by its words (a run was one word, split at each tone
    mark), and a Hindi one matched the words of the same consonants (audit unicode, item 1)."""
    folder = project / ".claude/skills"
    write_skill(folder / "thai-cook", "thai-cook", "ช่วยทำอาหารไทยและเขียนสูตรอาหาร")
    write_skill(folder / "thai-translate", "thai-translate", "ช่วยแปลเอกสารจากภาษาอังกฤษเป็นภาษาไทย")
    write_skill(folder / "thai-travel", "thai-travel", "วางแผนการเดินทางและจองโรงแรมในประเทศไทย")
    write_skill(folder / "hindi-coma", "hindi-coma", "कोमा के रोगी की देखभाल")
    write_skill(folder / "hindi-work", "hindi-work", "काम की सूची बनाना")
    write_skill(folder / "release", "release", "Publish a release of the package.", "Tag it.\n")
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    assert names(find(gateway, "แปลเอกสาร", env=lexical))[0] == "thai-translate"
    assert names(find(gateway, "จองโรงแรม", env=lexical))[0] == "thai-travel"
    assert names(find(gateway, "ทำอาหารไทย", env=lexical))[0] == "thai-cook"
    assert names(find(gateway, "काम", env=lexical)) == ["hindi-work"]
    assert names(find(gateway, "publish a release", env=lexical))[0] == "release"


def test_full_width_letters_are_the_ascii_words(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """Japanese and Chinese input methods type ``ＰＤＦ``, ``ＣＳＶ``: the same word as ``PDF``
    and ``CSV``, in a request and in a skill alike (it found nothing; audit unicode, item 5)."""
    folder = project / ".claude/skills"
    write_skill(folder / "pdf-tools", "pdf-tools", "PDFファイルを結合・分割する。")
    write_skill(folder / "table-convert", "table-convert", "ＣＳＶファイルを変換する。")
    write_skill(folder / "release", "release", "Publish a release of the package.", "Tag it.\n")
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    assert names(find(gateway, "ＰＤＦ", env=lexical)) == ["pdf-tools"]
    assert names(find(gateway, "convert a csv file", env=lexical))[0] == "table-convert"
    assert postings.cjk_pairs("ＣＳＶ　ｔｏ") == "CSV to"


def test_half_width_katakana_is_katakana(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """``ﾌﾟﾙﾘｸｴｽﾄ`` and ``ﾚﾋﾞｭｰ`` (half-width katakana, from some input methods and older
    systems) found nothing where ``プルリクエスト`` found the skill (audit cjk, item 7): they
    are katakana, a voiced sound mark joined to the kana before it, in requests and skills."""
    folder = project / ".claude/skills"
    write_skill(folder / "ja-review", "ja-review", "プルリクエストのコードレビューを行う。")
    write_skill(folder / "ja-legacy", "ja-legacy", "ﾃﾞｰﾀﾍﾞｰｽを移行する。")
    write_skill(folder / "release", "release", "Publish a release of the package.", "Tag it.\n")
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    for request in ("ﾌﾟﾙﾘｸｴｽﾄ", "ﾚﾋﾞｭｰ", "プルリクエスト"):
        assert names(find(gateway, request, env=lexical)) == ["ja-review"], request
    assert names(find(gateway, "データベース", env=lexical)) == ["ja-legacy"]


def test_polytonic_greek_and_half_width_hangul_are_found_as_typed(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """A request typed without the breathings of polytonic Greek (``unicode61`` split
    ``Ἀρχαία`` at them) finds the skill that has them, and half-width Hangul letters are the
    jamo a Korean keyboard types (``ㅎㄱ``), in requests and skills alike."""
    folder = project / ".claude/skills"
    write_skill(folder / "greek-texts", "greek-texts", "Ἀρχαῖα κείμενα, ἀνάγνωσις καὶ ᾠδαί.")
    write_skill(folder / "ko-initials", "ko-initials", "ﾾﾡ 초성 검색을 지원한다.")
    write_skill(folder / "release", "release", "Publish a release of the package.", "Tag it.\n")
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    for request in ("αρχαια κειμενα", "ΑΡΧΑΙΑ", "ωδαι", "Ἀρχαῖα"):
        assert names(find(gateway, request, env=lexical)) == ["greek-texts"], request
    for request in ("ㅎㄱ", "ﾾﾡ"):
        assert names(find(gateway, request, env=lexical)) == ["ko-initials"], request


def test_decomposed_words_and_a_dotted_capital_i_are_found(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """The request's words are cut as the tokenizer cut the skills' text: a decomposed word
    (NFD ``crème``: e and U+0300) was cut at its marks (``cre``), and ``İstanbul`` lowercased
    to i and U+0307 (``stanbul``), so find found nothing where ``search`` matched."""
    from unicodedata import normalize

    store = project / ".skillc/skills"
    write_skill(store / "desserts", "desserts", "Crème brûlée recipes near İstanbul cafés.")
    write_skill(store / "release", "release", "Publish a release of the package.")
    for request in ("crème", "brûlée", "résumé of crème brûlée", "İstanbul", "istanbul"):
        for text in {normalize("NFC", request), normalize("NFD", request)}:
            for semantic in ("0", "1"):
                data = find(gateway, text, env={"SKILLC_FIND_SEMANTIC": semantic})
                assert names(data)[:1] == ["desserts"], (text, semantic)


def test_arabic_and_hebrew_are_found_with_or_without_their_vowel_marks(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """Harakat and Hebrew points split every word into letters, and one-letter words are
    no words: a skill was found by no request, not even its own heading copied (audit cjk,
    item 3). They are folded out of the documents and the request alike."""
    folder = project / ".claude/skills"
    write_skill(folder / "ar-vocal", "ar-vocal", "تَرْجَمَةُ الكِتَابِ إلى اللُّغَةِ الإنجليزية.")
    write_skill(folder / "he-vocal", "he-vocal", "תִּרְגּוּם מִסְמָכִים מֵעִבְרִית לְאַנְגְּלִית.")
    write_skill(folder / "release", "release", "Publish a release of the package.", "Tag it.\n")
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    for request in ("تَرْجَمَةُ", "ترجمة", "ترجمة الكتاب"):
        assert names(find(gateway, request, env=lexical)) == ["ar-vocal"], request
    for request in ("תִּרְגּוּם", "תרגום מסמכים"):
        assert names(find(gateway, request, env=lexical)) == ["he-vocal"], request


def test_yo_and_greek_accents_are_folded(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """``развертывание`` (е for ё, as most Russians type it) and ``μετατροπη`` or the
    all-caps ``ΜΕΤΑΤΡΟΠΗ ΑΡΧΕΙΩΝ`` (Greek capitals go without accents) found nothing: the
    tokenizer folds no Cyrillic or Greek letter (audit cjk, item 4)."""
    folder = project / ".claude/skills"
    write_skill(folder / "ru-yo", "ru-yo", "Развёртывание сервиса в Kubernetes.")
    write_skill(folder / "el-files", "el-files", "Μετατροπή αρχείων σε PDF.")
    write_skill(folder / "release", "release", "Publish a release of the package.", "Tag it.\n")
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    for request in ("развертывание", "Развёртывание", "РАЗВЁРТЫВАНИЕ"):
        assert names(find(gateway, request, env=lexical)) == ["ru-yo"], request
    for request in ("μετατροπη αρχειων", "ΜΕΤΑΤΡΟΠΗ ΑΡΧΕΙΩΝ", "Μετατροπή"):
        assert names(find(gateway, request, env=lexical)) == ["el-files"], request


def test_a_decomposed_korean_or_japanese_text_is_the_composed_one() -> None:
    """Hangul and kana written decomposed (a Mac's file names and copies: Jamo, a kana and
    U+3099) were cut into pairs of other characters than the same words composed; the one
    text pass of the documents and the requests composes them first."""
    from unicodedata import normalize

    for text in ("보고서 작성", "データベースを更新する"):
        assert postings.cjk_pairs(normalize("NFD", text)) == postings.cjk_pairs(text)
    assert rank.query_terms(normalize("NFD", "보고서")) == rank.query_terms("보고서")


def test_the_marks_taken_out_of_words_are_the_tokenizers() -> None:
    """:data:`.postings.DIACRITICS` holds the combining marks of U+0300-U+036F that the
    catalog's tokenizer takes out of a word (``a`` mark ``b`` is ``ab``); the others split it."""
    import re
    import sqlite3

    db = sqlite3.connect(":memory:")
    try:
        db.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, {postings.TOKENIZER})")
        db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, row)")
        marks = re.compile(f"[{postings.DIACRITICS}]")
        for point in range(0x300, 0x370):
            db.execute("INSERT INTO t (x) VALUES (?)", (f"a{chr(point)}b",))
            words = [term for (term,) in db.execute("SELECT term FROM v")]
            db.execute("DELETE FROM t")
            assert (words == ["ab"]) == bool(marks.match(chr(point))), hex(point)
    finally:
        db.close()


@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=60))
def test_an_ascii_request_has_the_words_it_had(query: str) -> None:
    """Composing and taking marks out is for text that is not ASCII: an ASCII request's words
    are those of the plain cut (lowercased, letters and digits, no stop words or single
    characters), so the ranking of such requests did not move."""
    import re

    words = [w for w in re.findall(r"[^\W_]+", query.lower()) if len(w) > 1]
    words = [w for w in words if w not in rank.STOPWORDS]
    assert rank.query_terms(query) == list(dict.fromkeys(words))[: rank.MAX_TERMS]


def test_a_request_that_is_a_skill_name_finds_that_skill_first(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    store = project / ".skillc/skills"
    write_skill(store / "brainstorming", "brainstorming", "Turn rough ideas into designs.")
    write_skill(
        store / "team-orchestration",
        "team-orchestration",
        "Brainstorming with a team of agents, brainstorming rounds, brainstorming notes.",
        "## Brainstorming\n\nBrainstorming, brainstorming.\n",
    )
    write_skill(store / "eval-loop", "agentic-eval", "Score an agent's answers in a loop.")
    # not the name: ranked by the words (the semantic extra's step knows what the name means)
    lexical = {"SKILLC_FIND_SEMANTIC": "0"}
    assert names(find(gateway, "brainstorm", env=lexical)) == [
        "team-orchestration",
        "brainstorming",
    ]
    for query in ("brainstorming", "Brainstorming ", "BRAINSTORMING"):
        data = find(gateway, query)
        assert names(data) == ["brainstorming", "team-orchestration"], query
        assert data["skills"][0]["score"] > data["skills"][1]["score"]  # told apart
    # its frontmatter name ranks it first; it is named by its folder, as `skc list` names it
    for query in ("agentic-eval", "agentic eval", "Agentic_Eval"):
        first = find(gateway, query)["skills"][0]
        assert (first["name"], first["path"]) == ("eval-loop", str(store / "eval-loop")), query
    assert names(find(gateway, "brainstorming", "--limit", "1")) == ["brainstorming"]


def test_a_built_symlink_stub_counts_as_its_source(
    gateway: Run, project: Path, home: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    source = write_skill(
        project / ".skillc/skills/mixer", "mixer", "Mix audio tracks.", "## Levels\n\nBalance.\n"
    )
    build_skill("mixer", layout, targets=["claude", "cursor"])
    stub = project / ".claude/skills/mixer"
    assert stub.is_symlink()
    data = find(gateway, "balance audio levels")
    assert data["searched"] == 1
    (skill,) = data["skills"]
    assert skill["path"] == str(source)
    assert skill["deployed_to"] == [str(stub), str(project / ".cursor/skills/mixer")]
    assert skill["duplicates"] == []
    assert skill["sections"][0] == {"file": "SKILL.md", "heading": "Levels", "line": 8}


def test_an_imported_folder_and_its_store_copy_are_one_result(
    gateway: Run, project: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    """``skc build .github/skills/x`` imports the folder into the store: one skill, the store
    copy's, as ``skc list`` has it; the folder is a place agents get it (not a duplicate),
    and an edit of the folder not built yet does not make it a second skill."""
    folder = write_skill(project / ".github/skills/potter", "potter", "Throw clay pots.")
    build_skill(str(folder), layout, targets=["claude"])
    copy = project / ".skillc/skills/potter"
    for _ in range(2):
        data = find(gateway, "clay pots")
        assert data["searched"] == 1
        (skill,) = data["skills"]
        assert (skill["path"], skill["duplicates"]) == (str(copy), [])
        assert skill["deployed_to"] == [str(project / ".claude/skills/potter"), str(folder)]
        with (folder / "SKILL.md").open("a", encoding="utf-8") as edited:
            edited.write("\nGlaze the clay pots.\n")


def test_a_deployment_whose_source_is_gone_is_skipped(
    gateway: Run, project: Path, home: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    import shutil

    write_skill(project / ".skillc/skills/mixer", "mixer", "Mix audio tracks.")
    write_skill(project / ".skillc/skills/drums", "drums", "Tune the drums.")
    build_skill("mixer", layout, targets=["claude"])
    assert names(find(gateway, "mix audio")) == ["mixer"]
    shutil.rmtree(project / ".skillc/skills/mixer")  # .claude/skills/mixer -> its runtime stays
    data = find(gateway, "mix audio")
    assert (names(data), data["searched"], data["skipped"]) == ([], 1, 1)
    (home / ".skillc" / CATALOG_FILE).unlink()  # a new catalog says the same (not the stub)
    data = find(gateway, "mix audio")
    assert (names(data), data["searched"], data["skipped"]) == ([], 1, 1)
    write_skill(project / ".skillc/skills/mixer", "mixer", "Mix audio tracks.")  # back
    (skill,) = find(gateway, "mix audio")["skills"]
    assert skill["deployed_to"] == [str(project / ".claude/skills/mixer")]


def test_a_copied_stub_counts_as_its_source(
    gateway: Run, home: Path, write_skill: WriteSkill
) -> None:
    source = write_skill(home / ".skillc/skills/drums", "drums", "Tune the drums.")
    build_skill("drums", Layout.discover(home, {"SKILLC_HOME": str(home)}), copy=True)
    copy = home / ".claude/skills/drums"
    assert (copy / ".skillc-meta").is_dir() and not copy.is_symlink()
    (skill,) = find(gateway, "drums")["skills"]
    assert (skill["path"], skill["deployed_to"]) == (str(source), [str(copy)])


@pytest.mark.parametrize(
    "manifest",
    [
        pytest.param(b"[" * 100_000 + b"]" * 100_000, id="deep"),
        pytest.param(b'{"skill": "evil", "pad": "' + b"x" * (2 << 20) + b'"}', id="large"),
        pytest.param(b'{"skill": "evil"', id="not-json"),
    ],
)
def test_a_deployed_copy_whose_manifest_cannot_be_read_is_skipped_and_counted(
    gateway: Run, project: Path, manifest: bytes, write_skill: WriteSkill
) -> None:
    """One stranger's skill in a checkout's agent folder must not stop find for the others
    (a deep manifest was E999, RecursionError)."""
    agents = project / ".claude/skills"
    write_skill(agents / "good", "good", "Convert PDF files to text.")
    evil = write_skill(agents / "evil", "evil", "Convert PDF files too.")
    (evil / ".skillc-meta").mkdir()
    (evil / ".skillc-meta/manifest.json").write_bytes(manifest)
    data = find(gateway, "convert pdf")
    assert (names(data), data["searched"], data["skipped"]) == (["good"], 1, 1)
    text = gateway("find", "convert pdf", "-v")
    assert text.returncode == 0, text.stderr
    assert "1 skill searched; 1 skipped" in text.stderr
    (evil / ".skillc-meta").rename(evil / "meta")  # no longer a deployed copy: a skill
    assert sorted(names(find(gateway, "convert pdf"))) == ["evil", "good"]


def test_a_stub_of_a_source_outside_the_roots(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """A project's agent folder links to another project's runtime: its source is found."""
    other = project.parent / "other-project"
    source = write_skill(other / ".skillc/skills/violin", "violin", "Play the violin.")
    build_skill("violin", Layout.discover(other, {"SKILLC_HOME": str(home)}), targets=[])
    (project / ".claude/skills").mkdir(parents=True)
    (project / ".claude/skills/violin").symlink_to(other / ".skillc/runtime/violin")
    (skill,) = find(gateway, "violin")["skills"]
    assert skill["path"] == str(source)
    assert skill["deployed_to"] == [str(project / ".claude/skills/violin")]


def test_the_same_skill_in_two_agent_folders_is_one_result(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    body = "## Steps\n\nStir  the   paint.\n"
    first = write_skill(project / ".claude/skills/stir", "stir", "Stir paint.", body)
    spaced = body.replace(" ", "  ")  # the same once spaces are collapsed
    second = write_skill(home / ".cursor/skills/stir", "stir", "Stir paint.", spaced)
    write_skill(home / ".gemini/skills/stir", "stir", "Stir paint.", "## Other\n\nStir paint.\n")
    linked = project / ".agents/skills/stir"
    linked.parent.mkdir(parents=True)
    linked.symlink_to(first)
    data = find(gateway, "stir paint")
    assert data["searched"] == 3  # the symlink is the same folder
    (same,) = [skill for skill in data["skills"] if skill["path"] == str(first)]
    (other,) = [skill for skill in data["skills"] if skill is not same]
    assert same["duplicates"] == [str(second)]
    assert same["deployed_to"] == sorted([str(first), str(linked), str(second)])
    assert other["path"] == str(home / ".gemini/skills/stir")
    assert other["duplicates"] == []


# -- freshness: the catalog is brought up to date before every answer -----------------------


def test_a_new_skill_is_found_at_once(gateway: Run, project: Path, write_skill: WriteSkill) -> None:
    write_skill(project / ".skillc/skills/alpha", "alpha", "The first skill.")
    assert names(find(gateway, "zeppelin")) == []
    write_skill(project / ".skillc/skills/beta", "beta", "Pilot a zeppelin.")
    data = find(gateway, "zeppelin")
    assert (names(data), data["searched"], data["partial"]) == (["beta"], 2, False)
    # a SKILL.md nested in a store skill is one of its files (an agent reads the store's
    # entries only: the inventory's rule, issue 34) ...
    write_skill(project / ".skillc/skills/alpha/refs/gamma", "gamma", "Land a zeppelin.")
    assert sorted(names(find(gateway, "zeppelin"))) == ["beta"]
    # ... while in a folder searched by path, a nested skill is found at once too
    assert sorted(names(find(gateway, "zeppelin", "--path", ".skillc/skills/alpha"))) == ["gamma"]


def test_an_edited_skill_is_read_again_at_once(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    skill = write_skill(project / ".skillc/skills/alpha", "alpha", "Ride a bicycle.")
    assert names(find(gateway, "bicycle")) == ["alpha"]
    write_skill(skill, "alpha", "Ride a tricycle.")
    assert names(find(gateway, "bicycle")) == []
    assert names(find(gateway, "tricycle")) == ["alpha"]
    # the same size again, at once (within the file system's time granularity)
    write_skill(skill, "alpha", "Ride a unicycle.")
    assert names(find(gateway, "unicycle")) == ["alpha"]
    assert names(find(gateway, "tricycle")) == []


def test_a_recent_skill_is_looked_at_again_but_indexed_only_when_its_bytes_changed(
    project: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    indexed: list[str] = []
    real_add = postings.add

    def add(db: sqlite3.Connection, skill_id: int, text: postings.SkillText) -> None:
        indexed.append(text.name)
        real_add(db, skill_id, text)

    monkeypatch.setattr(postings, "add", add)

    def found(query: str) -> list[str]:
        return [skill.name for skill in find_skills(layout, query).skills]

    skill = write_skill(project / ".skillc/skills/alpha", "alpha", "Ride a bicycle.")
    assert found("bicycle") == ["alpha"]
    assert indexed == ["alpha"]
    # within the 2 s window the SKILL.md is read again at each query, but not indexed again
    assert found("bicycle") == found("bicycle") == ["alpha"]
    os.utime(skill / "SKILL.md")  # touched: a new fingerprint, the same bytes
    assert found("bicycle") == ["alpha"]
    assert indexed == ["alpha"]
    write_skill(skill, "alpha", "Ride a unicycle.")  # the same size, other bytes
    assert found("unicycle") == ["alpha"]
    assert indexed == ["alpha", "alpha"]
    with closing(sqlite3.connect(layout.global_dir / CATALOG_FILE)) as db, db:
        (content,) = db.execute("SELECT content FROM skills").fetchone()
    assert content == hashlib.sha1((skill / "SKILL.md").read_bytes()).digest()


def test_a_removed_skill_is_gone_at_once(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    import shutil

    write_skill(project / ".skillc/skills/alpha", "alpha", "Bake bread.")
    beta = write_skill(project / ".claude/skills/beta", "beta", "Bake a cake.")
    assert sorted(names(find(gateway, "bake"))) == ["alpha", "beta"]
    shutil.rmtree(beta)
    data = find(gateway, "bake")
    assert (names(data), data["searched"]) == (["alpha"], 1)
    (project / ".skillc/skills/alpha/SKILL.md").unlink()
    assert find(gateway, "bake")["searched"] == 0
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        assert db.execute("SELECT COUNT(*) FROM skills").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM rank_postings").fetchone() == (0,)


def test_a_retargeted_or_replaced_symlink_entry_is_seen_at_once(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    first = write_skill(project / "first", "first", "Row a boat.")
    second = write_skill(project / "second", "second", "Row a canoe.")
    library = project / "library"
    library.mkdir()
    entry = library / "boat"

    def found() -> list[str]:
        return [skill["path"] for skill in find(gateway, "row", "--path", "library")["skills"]]

    entry.symlink_to(first)
    assert found() == [str(first)]
    entry.unlink()
    entry.symlink_to(second)
    assert found() == [str(second)]
    entry.unlink()
    write_skill(entry, "own", "Row a raft.")  # a folder of its own now
    assert found() == [str(entry)]
    import shutil

    shutil.rmtree(entry)
    entry.symlink_to(first)
    assert found() == [str(first)]


def test_a_skill_folder_replaced_by_a_symlink_to_where_it_moved_leaves_no_row(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """``mv lib/one ext/one; ln -s ext/one lib/one``: the skill is at ext/one now (its real
    path), and lib/one's row was kept for good (its SKILL.md was still reachable through the
    link, so it counted as reached another way): one stale row per folder replaced so, in
    the ranker's counts. The same for a folder of skills replaced by a link (``lib/group``).
    Near miss: a folder reached under another searched folder keeps its row."""
    import shutil

    library, elsewhere = project / "library", project / "ext"
    elsewhere.mkdir()
    write_skill(library / "one", "one", "Row a boat.")
    write_skill(library / "group/two", "two", "Row a canoe.")
    write_skill(library / "kept", "kept", "Row a raft.")

    def rows() -> list[str]:
        with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
            return sorted(
                Path(path).relative_to(project).as_posix()
                for (path,) in db.execute("SELECT path FROM skills")
            )

    assert find(gateway, "row", "--path", "library")["searched"] == 3
    for name in ("one", "group"):
        shutil.move(library / name, elsewhere / name)
        (library / name).symlink_to(elsewhere / name)
    assert find(gateway, "row", "--path", "library")["searched"] == 3
    assert rows() == ["ext/group/two", "ext/one", "library/kept"]
    write_skill(elsewhere / "shared", "shared", "Row a dinghy.")
    (library / "via").symlink_to(elsewhere / "shared")  # reached both ways
    assert find(gateway, "row", "--path", "library", "--path", "ext")["searched"] == 4
    (library / "via").unlink()
    assert find(gateway, "row", "--path", "library", "--path", "ext")["searched"] == 4
    assert rows() == ["ext/group/two", "ext/one", "ext/shared", "library/kept"]


def test_the_catalog_on_disk_is_what_the_next_process_reads(
    gateway_process: Run, project: Path, write_skill: WriteSkill
) -> None:
    """Each process loads the saved state and checks it against the files: change, find."""
    write_skill(project / ".skillc/skills/alpha", "alpha", "Knit a scarf.")

    def run(*args: str) -> dict[str, Any]:
        result = gateway_process("find", *args, "--format", "json")
        assert result.returncode == 0, result.stderr
        return dict(json.loads(result.stdout))

    assert names(run("scarf")) == ["alpha"]
    write_skill(project / ".skillc/skills/alpha", "alpha", "Knit a sweater.")
    write_skill(project / ".skillc/skills/beta", "beta", "Knit a scarf.")
    assert names(run("scarf")) == ["beta"]
    assert names(run("sweater")) == ["alpha"]


def test_two_processes_find_at_once(
    project: Path, clean_env: dict[str, str], home: Path, write_skill: WriteSkill
) -> None:
    library = project / "library"
    for number in range(150):
        write_skill(library / f"s{number}", f"s{number}", f"Skill number {number} of many.")
    command = [sys.executable, "-m", "skillc_gateway", "find", "many", "--path", "library"]
    processes = [
        subprocess.Popen(
            [*command, "--format", "json"],
            cwd=project,
            env=clean_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        data = json.loads(out)
        assert (data["searched"], data["partial"], data["warnings"]) == (150, False, [])
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT COUNT(*) FROM skills").fetchone() == (150,)
        assert db.execute("SELECT COUNT(DISTINCT skill) FROM rank_postings").fetchone() == (150,)


def test_a_query_with_bytes_that_are_not_utf8_is_answered(
    project: Path, layout: Layout, clean_env: dict[str, str], write_skill: WriteSkill
) -> None:
    write_skill(project / "lib/owls", "owls", "A skill about owls.")
    found = find_skills(layout, "\udcff\udcfe owls", paths=["lib"])  # as Python reads argv
    assert [folder_name(skill.name) for skill in found.skills] == [
        "owls"
    ] and found.query == "?? owls"
    argv = [sys.executable, "-m", "skillc_gateway", "find", b"\xff\xfe owls", "--path", "lib"]
    done = subprocess.run(argv, cwd=project, env=clean_env, capture_output=True, check=False)
    assert done.returncode == 0 and b"1. ./lib/owls" in done.stdout, done.stderr


def test_one_path_given_as_a_string_is_that_folder(
    project: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    """``paths="lib"`` searches ``lib`` (it was the folders ``l``, ``i``, ``b``: E022)."""
    write_skill(project / "lib/owls", "owls", "A skill about owls.")
    write_skill(project / "elsewhere/owl-care", "owl-care", "Owls cared for.")
    found = find_skills(layout, "owls", paths="lib")
    assert [folder_name(skill.name) for skill in found.skills] == ["owls"]


def test_folders_whose_names_are_not_utf8_are_skipped_and_counted(
    project: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    write_skill(project / "lib/ok", "ok", "PDF tools.")
    bad = project / "lib" / os.fsdecode(b"caf\xe9")  # as Python reads such a name
    bad.mkdir()
    (bad / "SKILL.md").write_bytes(b"---\nname: cafe\ndescription: PDF coffee.\n---\n")
    found = find_skills(layout, "pdf", paths=["lib"])
    assert ([folder_name(s.name) for s in found.skills], found.searched, found.skipped) == (
        ["ok"],
        1,
        1,
    )
    assert not found.partial and found.warnings == ()
    # a searched folder whose own path is not UTF-8: not searched, said
    (project / os.fsdecode(b"other\xff")).mkdir()
    found = find_skills(layout, "pdf", paths=["lib", os.fsdecode(b"other\xff")])
    assert [folder_name(s.name) for s in found.skills] == ["ok"]
    assert [w.text for w in found.warnings] == [
        f"not searched, a path that is not UTF-8: {project}/other?"
    ]


def test_a_missing_folder_whose_path_is_not_utf8_is_not_warned_about(
    tmp_path: Path, home: Path, write_skill: WriteSkill
) -> None:
    """A working folder named ``bad\\xffdir``: every find warned ``not searched, a path that
    is not UTF-8: .../bad?dir/.agents/skills``, a folder that is not there."""
    work = tmp_path / os.fsdecode(b"bad\xffdir")
    work.mkdir()
    write_skill(home / ".skillc/skills/owls", "owls", "A skill about owls.")
    found = find_skills(Layout.discover(work, {"SKILLC_HOME": str(home)}), "owls")
    assert ([s.name for s in found.skills], found.warnings) == (["owls"], ())
    (work / ".agents/skills").mkdir(parents=True)  # there: said, as it is not searched
    found = find_skills(Layout.discover(work, {"SKILLC_HOME": str(home)}), "owls")
    assert [w.text for w in found.warnings] == [
        f"not searched, a path that is not UTF-8: {tmp_path}/bad?dir/.agents/skills"
    ]


def test_a_budget_cut_answer_is_partial_and_the_next_goes_on(
    project: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    for number in range(40):
        write_skill(project / f"lib/s{number}", f"s{number}", "A skill about owls.")
    first = find_skills(layout, "owls", paths=["lib"], budget=0.0)
    assert first.partial is True
    assert "not indexed yet" in first.warnings[0].text
    assert first.searched < 40
    done = find_skills(layout, "owls", paths=["lib"], limit=100)
    assert (done.partial, done.searched, len(done.skills)) == (False, 40, 40)


@pytest.mark.timeout(60)
def test_a_budget_that_is_no_number_of_seconds_is_refused(
    project: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    """``budget=float("nan")`` never returned: no deadline was ever reached."""
    write_skill(project / "lib/owl", "owl", "A skill about owls.")
    for budget in (float("nan"), float("inf"), -1.0):
        with pytest.raises(InvalidOption, match="budget must be"):
            find_skills(layout, "owls", paths=["lib"], budget=budget)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"limit": "ten"}, "limit must be an integer from 1 to 100, not 'ten'"),
        ({"limit": 2.5}, "limit must be an integer from 1 to 100, not 2.5"),
        ({"limit": True}, "limit must be an integer from 1 to 100, not True"),
        ({"budget": "5"}, "budget must be a number of seconds, 0 or more, not '5'"),
        ({"budget": True}, "budget must be a number of seconds, 0 or more, not True"),
        # len(5) and Path(5) were bare TypeErrors
        ({"query": 5}, "query must be a str, not int"),
        ({"paths": [5]}, "paths must be folder paths (str), not int"),
        ({"paths": 5}, "paths must be folder paths (str), not int"),
    ],
)
def test_a_limit_or_budget_of_another_type_is_e100_before_any_walk(
    layout: Layout, monkeypatch: pytest.MonkeyPatch, given: dict[str, Any], message: str
) -> None:
    """The Python API's ``limit`` and ``budget`` are checked by type as well as range, first:
    ``'ten'`` and ``'5'`` were a bare TypeError, ``2.5`` one after the whole walk and
    ranking, ``True`` a limit of 1."""
    import skillc_gateway.catalog as catalog

    def walked(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("walked")

    monkeypatch.setattr(catalog, "find_roots", walked)
    with pytest.raises(InvalidOption) as raised:
        find_skills(layout, **{"query": "owls", "paths": ["lib"], **given})
    assert raised.value.code == "E100"
    assert message in str(raised.value)


def test_the_find_server_refuses_a_budget_that_is_no_number_of_seconds(layout: Layout) -> None:
    """The server's request check and ``find_skills`` share ``budget_fits``: ``True`` was a
    budget of 1 second to the server (a ``bool`` is an ``int``), refused by ``find_skills``."""
    from skillc_gateway.catalog.protocol import BadRequest, find_request, read_find_request

    def budget(value: object) -> float:
        request = find_request(layout, "owls", 10, (), value)  # type: ignore[arg-type]
        return read_find_request(request, layout.home)[3]

    assert (budget(1), budget(2.5)) == (1.0, 2.5)
    for value in (True, False, float("nan"), float("inf"), 0, -1, 10.5, "5"):
        with pytest.raises(BadRequest, match="bad budget"):
            budget(value)


def test_a_budget_goes_on_only_when_the_pace_says_the_rest_fits_in_three_budgets() -> None:
    from skillc_gateway.catalog import BUDGET_SECONDS, FINISH_WITHIN
    from skillc_gateway.catalog.indexer import finishes

    longest = BUDGET_SECONDS * FINISH_WITHIN  # 30 s
    # 2,320 skills, 1,748 of them indexed in the first 10 s: the rest needs 3.3 s more
    assert finishes(10.0, 1748, 572, longest)
    # 20,000 skills, 1,000 indexed in 10 s: 190 s more; partial after the budget
    assert not finishes(10.0, 1000, 19000, longest)
    assert finishes(10.0, 500, 1000, longest)  # exactly 30 s
    assert not finishes(10.0, 500, 1001, longest)
    assert not finishes(10.0, 0, 10, longest)  # no pace yet (a budget of 0)
    assert not finishes(10.0, 10, 0, longest)  # nothing left


def test_each_skill_shown_gets_its_own_sections_and_a_changed_one_its_new_ones(
    project: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    write_skill(project / "lib/owls", "owls", "About owls.", "## Owl calls\n\nHoots.\n")
    write_skill(project / "lib/doves", "doves", "About doves.", "## Coos\n\nNo hoots.\n")

    def sections(query: str) -> dict[str, list[str]]:
        found = find_skills(layout, query, paths=["lib"])
        return {
            folder_name(skill.name): [hit.heading for hit in skill.sections]
            for skill in found.skills
        }

    assert sections("hoots") == {"owls": ["Owl calls"], "doves": ["Coos"]}
    write_skill(project / "lib/owls", "owls", "About owls.", "## Barn owls\n\nThey hoot softly.\n")
    assert sections("hoots") == {"owls": ["Barn owls"], "doves": ["Coos"]}


def test_a_switch_of_find_set_to_neither_spelling_is_warned_about_and_ignored(
    gateway: Run,
    project: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """RFC-0009: an invalid value is warned about and ignored. ``SKILLC_FIND_SERVER=disabled``
    was silently on: a find server ran an hour in a CI job that meant to start none."""
    from skillc_gateway import find_socket

    monkeypatch.setattr(find_socket, "_WARNED", set())
    spellings = {"0": True, " OFF ": True, "false": True, "No": True, "1": False, "on": False}
    for value, off in {**spellings, "TRUE": False, "yes": False, "": False}.items():
        monkeypatch.setenv("SKILLC_FIND_SERVER", value)
        assert find_socket.switched_off("SKILLC_FIND_SERVER") is off
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("SKILLC_FIND_SERVER", "disabled")
    assert not find_socket.switched_off("SKILLC_FIND_SERVER")
    assert not find_socket.switched_off("SKILLC_FIND_SERVER")  # warned once
    assert capsys.readouterr().err == (
        "warning: environment variable SKILLC_FIND_SERVER='disabled' is not one of "
        "0, off, false, no, 1, on, true, yes; ignored\n"
    )
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    result = gateway("find", "fish", env_extra={"SKILLC_FIND_SEMANTIC": "none"})
    assert result.returncode == 0 and "alpha" in result.stdout
    assert result.stderr == (
        "warning: environment variable SKILLC_FIND_SEMANTIC='none' is not one of "
        "0, off, false, no, 1, on, true, yes; ignored\n"
    )


# -- the catalog file ---------------------------------------------------------------------


def test_a_foreign_catalog_file_is_left_alone(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    (home / ".skillc").mkdir()
    catalog = home / ".skillc" / CATALOG_FILE
    catalog.write_text("my notes, not a database\n")
    result = gateway("find", "fish")
    assert result.returncode == 0
    assert "alpha" in result.stdout
    assert result.stderr.startswith(f"warning: {catalog} is not a skillc catalog")
    assert catalog.read_text() == "my notes, not a database\n"
    # another program's SQLite database: the same
    catalog.unlink()
    with closing(sqlite3.connect(catalog)) as db, db:
        db.execute("CREATE TABLE mine (x)")
    assert "not a skillc catalog" in gateway("find", "fish").stderr
    with closing(sqlite3.connect(catalog)) as db, db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("mine",)]
    # gone: the next query (in the same process) makes the catalog file
    catalog.unlink()
    result = gateway("find", "fish")
    assert (result.returncode, result.stderr) == (0, "")
    assert "alpha" in result.stdout
    with closing(sqlite3.connect(catalog)) as db, db:
        assert db.execute("PRAGMA application_id").fetchone() == (database.APPLICATION_ID,)


@contextlib.contextmanager
def _held_by_a_process(script: str, path: Path) -> Iterator[None]:
    """Another process runs ``script`` (``sys.argv[1]`` is ``path``), then sleeps holding
    what it opened until the block ends (it is killed)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", script + "import time\nprint('ready', flush=True)\ntime.sleep(120)",
         str(path)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "ready\n"
        yield
    finally:
        holder.kill()
        holder.communicate()


def test_each_catalog_version_has_its_own_file_and_removes_older_ones(
    gateway_process: Run, newer_gateway: Callable[..., dict[str, str]], project: Path,
    home: Path, write_skill: WriteSkill,
) -> None:  # fmt: skip
    """Every version shared ``catalog.db``: an older ``skc find`` dropped the catalog a newer
    one (its find server) used, and each flip of versions made it again from nothing. Each
    version's catalog has a file of its own (named by its versions); a version removes the
    unversioned file and the catalogs of older versions while no find server holds the home
    (one of that version may use it), never a newer one's, nor a file that is no catalog."""
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    schema = f"catalog-{database.SCHEMA_VERSION}."
    assert CATALOG_FILE.startswith(schema)
    newer_file = CATALOG_FILE.replace(schema, f"catalog-{database.SCHEMA_VERSION + 1}.")
    line = f"\nSCHEMA_VERSION = {database.SCHEMA_VERSION}\n"
    bumped = f"\nSCHEMA_VERSION = {database.SCHEMA_VERSION + 1}\n"
    newer = newer_gateway(("catalog/database.py", line, bumped))
    folder = home / ".skillc"
    assert "alpha" in gateway_process("find", "fish").stdout
    ours = folder / CATALOG_FILE
    for older in ("catalog.db", "catalog-1.1.1.db"):  # an older version's catalogs
        ours.with_name(older).write_bytes(ours.read_bytes())
    (folder / "catalog-1.1.2.db").write_text("not a catalog\n", encoding="utf-8")

    def listing() -> list[str]:
        return sorted(path.name for path in folder.glob("catalog*.db"))

    def catalog(name: str) -> tuple[str, list[tuple[int, str]]]:
        # closed: a catalog a process has open is never removed
        with contextlib.closing(sqlite3.connect(folder / name)) as db:
            (schema,) = db.execute("SELECT value FROM meta WHERE key = 'schema_version'")
            return schema[0], db.execute("SELECT id, name FROM skills ORDER BY id").fetchall()

    # a find server holds the home (of an older version, that may use its catalog): kept
    lock = folder / "find.lock"
    holder_script = (
        "import fcntl, os, sys\n"
        "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX); os.write(fd, b'%d\\n' % os.getpid())\n"
    )
    with _held_by_a_process(holder_script, lock):
        done = gateway_process("find", "fish", env_extra=newer)
        assert done.returncode == 0 and "alpha" in done.stdout, done.stderr
        assert listing() == sorted(["catalog.db", "catalog-1.1.1.db", "catalog-1.1.2.db",
                                    CATALOG_FILE, newer_file])  # fmt: skip
    made = catalog(newer_file)
    assert made[0] == str(database.SCHEMA_VERSION + 1) and made[1]
    # this (older) version: its own file again; the newer one's untouched
    assert "alpha" in gateway_process("find", "fish").stdout
    assert catalog(newer_file) == made and catalog(CATALOG_FILE)[0] == str(database.SCHEMA_VERSION)
    assert listing() == sorted(["catalog-1.1.2.db", CATALOG_FILE, newer_file])
    # the newer one finds its catalog as it left it, and removes this version's
    newer_inode = (folder / newer_file).stat().st_ino
    done = gateway_process("find", "fish", env_extra=newer)
    assert "alpha" in done.stdout, done.stderr
    assert catalog(newer_file) == made and (folder / newer_file).stat().st_ino == newer_inode
    assert listing() == sorted(["catalog-1.1.2.db", newer_file])


def test_an_older_catalog_another_process_has_open_is_kept(
    gateway_process: Run, home: Path, write_skill: WriteSkill, project: Path
) -> None:
    """An older catalog was removed (with its ``-wal`` and ``-shm``) while no find server
    held the home, though an older process with no server (``skc find``, an MCP server)
    had it open: its connection then wrote to a file no longer there. Kept while a process
    holds a connection to it (its lock on the ``-shm`` in ``/proc/locks``); removed by the
    next open once it is closed."""
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    assert "alpha" in gateway_process("find", "fish").stdout
    folder = home / ".skillc"
    older = folder / "catalog-1.1.1.db"
    older.write_bytes((folder / CATALOG_FILE).read_bytes())
    holder_script = (
        "import sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[1]); db.execute('PRAGMA journal_mode = WAL')\n"
        "db.execute('SELECT COUNT(*) FROM skills').fetchone()\n"
    )
    with _held_by_a_process(holder_script, older):
        shm = older.with_name(older.name + "-shm")
        assert shm.is_file()
        done = gateway_process("find", "fish")
        assert done.returncode == 0 and "alpha" in done.stdout, done.stderr
        assert older.is_file() and shm.is_file()
    done = gateway_process("find", "fish")
    assert done.returncode == 0 and "alpha" in done.stdout, done.stderr
    assert sorted(p.name for p in folder.glob("catalog-1.1.1.db*")) == []


def test_an_older_catalog_is_kept_when_no_lock_table_can_be_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Where ``/proc/locks`` cannot be read, whether a process has an older catalog open
    cannot be told: it is kept (nothing removed)."""
    from skillc_gateway.catalog import client

    current = tmp_path / CATALOG_FILE
    with sqlite3.connect(current) as db:
        database.prepare(db)
    older = tmp_path / "catalog.db"
    older.write_bytes(current.read_bytes())
    real_open = open

    def no_locks(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file) == "/proc/locks":
            raise PermissionError(13, "Permission denied", "/proc/locks")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", no_locks)
    assert client.locked(older.stat()) is None
    database._remove_older(current)
    assert older.is_file()
    monkeypatch.setattr("builtins.open", real_open)
    assert client.locked(older.stat()) is False
    database._remove_older(current)
    assert not older.exists()


def test_a_lock_is_found_by_its_inode_where_stat_says_another_device(
    replace_os: Callable[[str, Callable[..., Any]], None], tmp_path: Path
) -> None:
    """``/proc/locks`` prints the file system's device, which on a btrfs subvolume (or an
    overlayfs) is not the ``st_dev`` ``stat`` says: matched on it, an older catalog a process
    had open was removed there, another user's held find-server lock told held by none.
    Here ``stat`` says another device than the lock table's, as btrfs does."""
    import fcntl

    from skillc_gateway.catalog import client

    current = tmp_path / CATALOG_FILE
    with contextlib.closing(sqlite3.connect(current)) as db:
        database.prepare(db)
    older = tmp_path / "catalog-1.1.1.db"
    older.write_bytes(current.read_bytes())
    real_stat, real_lstat = os.stat, os.lstat

    def subvolume(st: os.stat_result) -> os.stat_result:
        fields = list(st[:10])
        fields[2] = os.makedev(os.major(st.st_dev) + 1, os.minor(st.st_dev))  # st_dev
        return os.stat_result(fields)

    def stat_there(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        return subvolume(real_stat(path, *args, **kwargs))

    replace_os("stat", stat_there)
    replace_os("lstat", lambda path, *a, **k: subvolume(real_lstat(path, *a, **k)))
    lock = tmp_path / "find.lock"
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert lock.stat().st_dev != real_stat(lock).st_dev
        assert client.locked(lock.stat(), kind=b"FLOCK") is True
        assert client.locked(lock.stat(), kind=b"POSIX") is False
    assert client.locked(lock.stat()) is False
    with contextlib.closing(sqlite3.connect(older)) as db:  # a process with it open
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("SELECT COUNT(*) FROM skills").fetchone()
        database._remove_older(current)
        assert older.is_file()
    database._remove_older(current)
    assert not older.exists()


@pytest.mark.parametrize("refused", ["home", "catalog"])
def test_a_catalog_another_user_owns_is_searched_in_memory_and_says_why(
    refused: str,
    gateway: Run,
    project: Path,
    home: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
    replace_os: Callable[[str, Callable[..., Any]], None],
) -> None:
    """A ``~/.skillc`` left root's (0700) by a ``sudo skc``: its files cannot even be looked
    at (``EACCES``; was E999, the check of the file raised again). A catalog root's (0600) in
    a usable ``~/.skillc``: it cannot be read (was called "not a skillc catalog"). Root reads
    anything: the refusal is the call a user's process would see fail."""
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    (home / ".skillc").mkdir()
    catalog = home / ".skillc" / CATALOG_FILE
    catalog.write_bytes(b"SQLite format 3\x00, root's")
    real_stat, real_open = os.stat, Path.open

    def closed_home(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).startswith(f"{home}/.skillc/"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    def closed_catalog(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path == catalog:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    if refused == "home":
        replace_os("stat", closed_home)  # Path.stat's too (Python 3.10's holds its own)
    else:
        monkeypatch.setattr(Path, "open", closed_catalog)
    result = gateway("find", "fish")
    assert result.returncode == 0 and "alpha" in result.stdout, result.stderr
    denied = f"cannot write the catalog {catalog} (Permission denied)"
    assert (
        f"warning: {denied}: searching with a catalog in memory; set SKILLC_HOME to a "
        "writable folder to keep one\n"
    ) in result.stderr
    assert "not a skillc catalog" not in result.stderr


def test_a_fifo_at_the_catalogs_place_is_foreign_never_opened(
    gateway_process: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """Opening a FIFO to read its header waited for a writer: the find hung for good."""
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    (home / ".skillc").mkdir()
    catalog = home / ".skillc" / CATALOG_FILE
    os.mkfifo(catalog)
    result = gateway_process("find", "fish")
    assert result.returncode == 0 and "alpha" in result.stdout
    assert result.stderr.startswith(f"warning: {catalog} is not a skillc catalog")


def test_the_catalog_is_readable_by_its_owner_only(
    gateway_process: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """It holds the text of skills that may sit in private folders; one made by an earlier
    version (the umask's 0644) is made private too."""
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    assert "alpha" in gateway_process("find", "fish").stdout
    catalog = home / ".skillc" / CATALOG_FILE
    assert stat.S_IMODE(catalog.stat().st_mode) == 0o600
    catalog.chmod(0o644)
    assert "alpha" in gateway_process("find", "fish").stdout
    assert stat.S_IMODE(catalog.stat().st_mode) == 0o600


def test_a_corrupt_catalog_of_ours_is_made_again(
    gateway_process: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    assert "alpha" in gateway_process("find", "fish").stdout
    catalog = home / ".skillc" / CATALOG_FILE
    data = bytearray(catalog.read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)  # the header says ours, the pages are garbage
    catalog.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        Path(f"{catalog}{suffix}").unlink(missing_ok=True)
    result = gateway_process("find", "fish", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert names(json.loads(result.stdout)) == ["alpha"]
    with closing(sqlite3.connect(catalog)) as db, db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_an_unwritable_home_gives_a_catalog_in_memory(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    (home / ".skillc").mkdir()
    (home / ".skillc").chmod(0o500)
    try:
        result = gateway("find", "fish")
    finally:
        (home / ".skillc").chmod(0o700)
    assert result.returncode == 0
    assert "alpha" in result.stdout
    assert "searching with a catalog in memory" in result.stderr
    assert not (home / ".skillc" / CATALOG_FILE).exists()


@pytest.mark.parametrize("first", [True, False], ids=["first", "no-find-server"])
def test_a_catalog_its_disk_cannot_take_answers_from_the_files(
    project: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    write_skill: WriteSkill,
    first: bool,
) -> None:
    """A catalog made while the disk still took its schema, but not its skills (112-160 KiB
    free in the home): ``skc find`` answered ``No skill fits`` (partial, "busy or not
    writable") for a skill that fits. The skills' files answer, whole, and a warning says
    why; a find that may not answer from the files (``$SKILLC_FIND_SERVER=0``) is partial and
    says why too (the disk, not "busy")."""
    # bodies of many words: their rows need pages the catalog's made tables do not hold,
    # with or without the semantic extra (whose vectors alone needed some)
    words = " ".join(f"word{n}" for n in range(3000))
    zebra = "Use when asked about zebra unicorns."
    write_skill(project / ".skillc/skills/zebra", "zebra", zebra, f"# Zebra\n\n{words}\n")
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.", f"# Fish\n\n{words}\n")
    if first:
        monkeypatch.delenv("SKILLC_FIND_SERVER", raising=False)
    db = Catalog.shared(layout).db  # made, then the disk full: no page more
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    db.execute(f"PRAGMA max_page_count = {pages}")
    found = find_skills(layout, "zebra unicorn", builds=True, serves=True)
    full = "database or disk is full (SQLITE_FULL)"  # as atomic.disk_failure says it
    full = f"cannot write the catalog {layout.global_dir / CATALOG_FILE} ({full})"
    if first:
        assert ([s.name for s in found.skills], found.partial) == (["zebra"], False)
        assert [w.text for w in found.warnings] == [f"{full}: answered from the skills' files"]
    else:
        assert found.partial
        assert [w.text for w in found.warnings] == [f"{full}: the answer is partial"]


def test_a_user_without_a_home_gets_a_catalog_in_memory_and_no_server(
    gateway: Run,
    project: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``HOME=/nonexistent`` (:data:`~skillc_index.layout.NO_HOME`, here moved into the
    test's folder: root could make the real one): the find made ``/nonexistent/.skillc/
    catalog.db`` as root, and a find server would have started there. Nothing is made: the
    catalog is in memory, with a warning, and no server can start."""
    from skillc_gateway.catalog.lifecycle import can_serve
    from skillc_index import layout

    nowhere = tmp_path / "nonexistent"
    monkeypatch.setattr(layout, "NO_HOME", nowhere)
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    result = gateway("find", "fish", env_extra={"HOME": str(nowhere), "SKILLC_HOME": ""})
    assert result.returncode == 0, result.stderr
    assert "alpha" in result.stdout
    assert (
        f"warning: no home folder ({nowhere}), no catalog file: searching with a catalog in "
        "memory; set SKILLC_HOME to a writable folder to keep one\n"
    ) in result.stderr
    assert not can_serve(Layout.discover(project, {"HOME": str(nowhere)}))
    assert not nowhere.exists()


def test_a_home_that_is_a_file_gives_a_catalog_in_memory(
    gateway: Run, project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """(Works as root too: nothing can be created below a file.)"""
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    not_a_folder = tmp_path / "home-file"
    not_a_folder.write_text("x")
    result = gateway("find", "fish", env_extra={"SKILLC_HOME": str(not_a_folder)})
    assert result.returncode == 0, result.stderr
    assert "alpha" in result.stdout
    assert "searching with a catalog in memory" in result.stderr
    assert not_a_folder.read_text() == "x"


def _close_shared_catalogs() -> None:
    """The catalogs of this process (:meth:`Catalog.shared`) closed, as a new process starts:
    cleared from the cache only, each connection was left to the garbage collector."""
    for catalog in list(Catalog._shared.values()):
        catalog.close()


def test_another_ranker_version_rebuilds_the_catalog(
    project: Path,
    home: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    write_skill: WriteSkill,
) -> None:
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    assert [s.name for s in find_skills(layout, "fish").skills] == ["alpha"]
    _close_shared_catalogs()
    monkeypatch.setattr(postings, "RANK_VERSION", postings.RANK_VERSION + 1)
    assert [s.name for s in find_skills(layout, "fish").skills] == ["alpha"]
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        assert meta["rank_version"] == str(postings.RANK_VERSION)
        assert db.execute("PRAGMA application_id").fetchone() == (database.APPLICATION_ID,)


def test_a_catalog_of_another_index_schema_version_is_indexed_again(
    project: Path, home: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    """The catalog keeps each skill's headings as skillc-index's parse gives them: one made
    under another index schema version (an older parse) is indexed anew, with no version of
    the catalog's own to bump by hand."""
    from skillc_index.index.schema import SCHEMA_VERSION

    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    assert [s.name for s in find_skills(layout, "fish").skills] == ["alpha"]
    _close_shared_catalogs()
    path = home / ".skillc" / CATALOG_FILE
    # as skillc with the parse of schema 5 made it
    with closing(sqlite3.connect(path)) as older, older:
        older.execute("UPDATE meta SET value = '5' WHERE key = 'index_schema_version'")
        older.execute("DELETE FROM skills")
    assert [s.name for s in find_skills(layout, "fish").skills] == ["alpha"]
    with closing(sqlite3.connect(path)) as db, db:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    assert meta["index_schema_version"] == str(SCHEMA_VERSION)


def test_a_catalog_missing_a_table_its_versions_promise_is_made_again(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """A development build's catalog: current versions, another set of tables. No E999."""
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    assert gateway("find", "fish").returncode == 0
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        db.execute("DROP TABLE rank_postings")
    result = gateway("find", "fish")
    assert result.returncode == 0, result.stderr
    assert "alpha" in result.stdout
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        assert db.execute("SELECT count(*) FROM rank_postings").fetchone()[0] > 0


def _catalog_lacking_the_waiting_index(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> Path:
    """A catalog made by a find over one skill, then its index of the waiting texts by part
    dropped (as a catalog made before that index was added to the schema)."""
    write_skill(project / ".skillc/skills/alpha", "alpha", "Catch fish.")
    assert gateway("find", "fish").returncode == 0
    catalog = home / ".skillc" / CATALOG_FILE
    with closing(sqlite3.connect(catalog)) as db, db:
        db.execute("DROP INDEX rank_vectors_waiting")
    return catalog


def test_a_catalog_lacking_an_index_added_since_gets_it_with_nothing_indexed_anew(
    gateway_process: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """An index added to the schema after a catalog was made (the vectors' waiting texts by
    part) is created when the next process opens the catalog, nothing indexed again."""
    gateway = gateway_process
    catalog = _catalog_lacking_the_waiting_index(gateway, project, home, write_skill)
    # the rows as indexed; not the fingerprint, which a find may settle (0 while racy: a
    # file changed too recently when the first find read it, as under load)
    indexed = "SELECT id, path, name, description, digest, content FROM skills"
    with closing(sqlite3.connect(catalog)) as db, db:
        before = db.execute(indexed).fetchall()
        texts = db.execute("SELECT * FROM rank_vectors").fetchall()
    result = gateway("find", "fish")
    assert result.returncode == 0, result.stderr
    assert "alpha" in result.stdout
    with closing(sqlite3.connect(catalog)) as db, db:
        assert "rank_vectors_waiting" in database._present(db)
        assert db.execute(indexed).fetchall() == before
        assert db.execute("SELECT * FROM rank_vectors").fetchall() == texts


def test_a_catalog_busy_when_it_lacks_an_index_is_used_without_it_then_gets_it(
    gateway: Run,
    project: Path,
    home: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    write_skill: WriteSkill,
) -> None:
    """The missing index only makes the fill faster: while another process writes the
    catalog past the wait, it is opened and used as it is (not replaced by one in memory),
    and the index is made at the next opening."""
    catalog = _catalog_lacking_the_waiting_index(gateway, project, home, write_skill)
    _close_shared_catalogs()
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 100)
    holder = sqlite3.connect(catalog, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing, for longer than the wait
    try:
        opened = database.open_database(layout)
        assert (opened.path, opened.warnings) == (catalog, ())
        assert opened.db.execute("SELECT name FROM skills").fetchall() == [("alpha",)]
        assert "rank_vectors_waiting" not in database._present(opened.db)
        opened.db.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    again = database.open_database(layout)
    present = database._present(again.db)
    again.db.close()
    assert "rank_vectors_waiting" in present


#: ``missing_vectors``' limit and start: from the middle; near the end (then from the first);
#: every name then bodies (from the same point of theirs); from the first.
READS = [(4, 0.5), (8, 0.9), (12, 0.5), (12, 0.0)]


def test_the_fill_reads_the_waiting_texts_in_part_order_without_sorting_them(
    layout: Layout,
) -> None:
    """``missing_vectors`` (each batch of the find server's fill: every name's text before
    any body's, from a point of the waiting skills' range, then from the first) and
    ``bodies_missing`` read an index of the waiting texts by part: no sort of every waiting
    text at each batch (42 ms at 6,616 skills)."""
    db = Catalog.shared(layout).db
    db.executemany(
        "INSERT INTO rank_vectors (skill, part, text) VALUES (?, ?, 'a text')",
        [(skill, part) for skill in range(1, 11) for part in (0, 1)],
    )
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    try:
        batches = [postings.missing_vectors(db, limit, start) for limit, start in READS]
        postings.bodies_missing(db, 32)
    finally:
        db.set_trace_callback(None)
        db.execute("DELETE FROM rank_vectors")
    assert [[(skill, part) for skill, part, _ in batch] for batch in batches] == [
        [(skill, 0) for skill in (5, 6, 7, 8)],
        [(skill, 0) for skill in (9, 10, 1, 2, 3, 4, 5, 6)],
        [(skill, 0) for skill in (5, 6, 7, 8, 9, 10, 1, 2, 3, 4)] + [(5, 1), (6, 1)],
        [(skill, 0) for skill in range(1, 11)] + [(1, 1), (2, 1)],
    ]
    for sql in statements:
        plan = " | ".join(row[-1] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}"))
        assert "rank_vectors_waiting" in plan and "TEMP B-TREE" not in plan, (sql, plan)


def test_a_query_of_the_fills_window_computes_a_few_names_at_most(layout: Layout) -> None:
    """The pool of a find in the fill's window ends before its 11th skill whose name has no
    vector yet (the query computes those few); with no more than that many missing in the
    catalog, the pool is whole."""
    from skillc_gateway.catalog import semantic

    db = Catalog.shared(layout).db
    db.executemany(
        "INSERT INTO rank_vectors (skill, part, text, vec) VALUES (?, 0, 'a text', ?)",
        [(skill, None if skill % 2 else b"v") for skill in range(1, 41)],
    )
    pool = [(skill, 1.0 - skill / 100) for skill in range(1, 41)]
    try:
        assert semantic.QUERY_COMPUTE == 10
        assert semantic.computable(db, pool) == pool[:20]  # skills 1, 3 ... 19 computed
        # stored as the fill stores them (the catalog's state moves on: read again)
        postings.store_vectors(db, [(skill, 0, "a text", b"\0") for skill in range(21, 41)])
        assert semantic.computable(db, pool) == pool  # 10 missing in all
    finally:
        db.execute("DELETE FROM rank_vectors")


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_an_empty_query_is_e004(gateway: Run, query: str) -> None:
    result = gateway("find", query)
    assert (result.returncode, result.stderr) == (1, "error[E004]: empty query\n")


def test_a_100_kb_query_is_refused(gateway: Run, layout: Layout) -> None:
    result = gateway("find", "word " * 20_000)
    assert result.returncode == 1
    assert result.stderr == (
        "error[E100]: invalid option: 'the query has 100,000 characters; at most 10,000 are "
        "allowed'\n"
    )
    assert result.stdout == ""
    # 10,000 characters are fine
    assert find_skills(layout, "w" * 10_000).skills == ()


@pytest.mark.parametrize("limit", ["0", "101", "x"])
def test_a_bad_limit_is_e100(gateway: Run, limit: str) -> None:
    result = gateway("find", "x", "--limit", limit)
    assert result.returncode == 1
    assert result.stderr.startswith("error[E100]: invalid option:")


def test_a_path_that_is_not_a_folder(gateway: Run, project: Path, layout: Layout) -> None:
    (project / "file.txt").write_text("x")
    for path in ("file.txt", "missing", ""):  # "" is not the working directory
        result = gateway("find", "x", "--path", path)
        assert (result.returncode, result.stderr) == (
            1,
            f"error[E022]: directory not found: '{path}'\n",
        )
    with pytest.raises(SkillDirectoryNotFound):
        find_skills(layout, "x", paths=["file.txt"])
    with pytest.raises(EmptyQuery):
        find_skills(layout, " ")


@pytest.mark.parametrize("query", [" ", "x" * 100_000, 5], ids=["blank", "long", "int"])
def test_a_bad_query_is_refused_before_the_config_is_read(
    layout: Layout, monkeypatch: pytest.MonkeyPatch, query: object
) -> None:
    import skillc_gateway.catalog as found
    import skillc_index.config

    def read(*_args: object) -> None:
        raise AssertionError("the config was read")

    monkeypatch.setattr(skillc_index.config, "load_config", read)
    monkeypatch.setattr(found, "served_answer", read)
    error = EmptyQuery if query == " " else InvalidOption
    with pytest.raises(error):
        find_skills(layout, query, server=True)  # type: ignore[arg-type]


def test_unreadable_and_invalid_skills_are_skipped_and_counted(
    gateway: Run, project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    library = project / "library"
    write_skill(library / "good", "good", "Plant trees.")
    bad = library / "bad-yaml"
    bad.mkdir(parents=True)
    (bad / "SKILL.md").write_text("---\nname: [unclosed\n---\n\nPlant trees.\n")
    unclosed = library / "unclosed"
    unclosed.mkdir()
    (unclosed / "SKILL.md").write_text("---\nname: x\n\nPlant trees.\n")
    (library / "not-utf8").mkdir()
    (library / "not-utf8/SKILL.md").write_bytes(b"---\nname: raw\n---\nPlant \xff trees.\n")
    locked = write_skill(library / "locked", "locked", "Plant trees.")
    write_skill(library / "closed/inner", "inner", "Plant trees.")
    if os.geteuid() == 0:  # root reads anything: the two refuse to be read all the same
        import skillc_index

        real_scandir, real_read = os.scandir, skillc_index.read_in_root

        def scandir(path: Any) -> Any:
            if str(path).endswith("/closed"):
                raise PermissionError(13, "Permission denied", str(path))
            return real_scandir(path)

        def read(root: Path, rel: str, limit: int, **kwargs: Any) -> Any:
            if root.name == "locked":
                raise PermissionError(13, "Permission denied", str(root / rel))
            return real_read(root, rel, limit, **kwargs)

        monkeypatch.setattr(os, "scandir", scandir)
        monkeypatch.setattr(skillc_index, "read_in_root", read)
    (locked / "SKILL.md").chmod(0)
    (library / "closed").chmod(0)
    try:
        data = find(gateway, "plant trees", "--path", "library")
        again = find(gateway, "plant trees", "--path", "library")
    finally:
        (locked / "SKILL.md").chmod(0o644)
        (library / "closed").chmod(0o755)
    assert sorted(names(data)) == ["good", "not-utf8"]  # the `raw` one, read
    assert data["skipped"] == 4  # bad YAML, unclosed frontmatter, an unreadable file, folder
    assert again == data
    # fixed: found at once
    (bad / "SKILL.md").write_text("---\nname: fixed\ndescription: Plant trees.\n---\n")
    data = find(gateway, "plant trees", "--path", "library")
    assert "bad-yaml" in names(data)
    if os.geteuid() == 0:  # still refused
        assert data["skipped"] == 3
    else:  # readable again (chmod changes a file's ctime, its fingerprint): found at once
        assert {"inner", "locked"} <= set(names(data))
        assert data["skipped"] == 1


def test_a_skipped_skill_whose_folder_changed_stays_skipped(
    gateway: Run, project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    import skillc_gateway.catalog.engine as engine
    import skillc_gateway.catalog.indexer as indexer

    monkeypatch.setattr(engine, "RACY_NS", 0)  # settled at once: not read again each time
    monkeypatch.setattr(indexer, "RACY_NS", 0)
    library = project / "library"
    write_skill(library / "good", "good", "Plant trees.")
    bad = library / "bad-yaml"
    bad.mkdir(parents=True)
    (bad / "SKILL.md").write_text("---\nname: bad\ndescription: [unclosed\n---\n")
    data = find(gateway, "plant trees", "--path", "library")
    assert (data["searched"], data["skipped"]) == (1, 1)
    told = gateway("find", "plant trees", "--path", "library", "-v").stderr
    assert "find: 1 skill searched; 1 skipped (unreadable or invalid skills," in told
    (bad / "notes.md").write_text("A note.\n")  # the folder changed, not its SKILL.md
    data = find(gateway, "plant trees", "--path", "library")
    assert (data["searched"], data["skipped"]) == (1, 1)
    bad.rename(project / "away")  # moved out and back (as skc route does)
    assert find(gateway, "plant trees", "--path", "library")["skipped"] == 0
    (project / "away").rename(bad)
    data = find(gateway, "plant trees", "--path", "library")
    assert (data["searched"], data["skipped"]) == (1, 1)


def test_a_huge_skill_md_is_read_up_to_its_first_mib(gateway: Run, project: Path) -> None:
    folder = project / "library/huge"
    folder.mkdir(parents=True)
    head = "---\nname: huge\ndescription: A huge skill.\n---\n\nearlyword\n"
    filler = ("filler text line\n" * 70_000)[: 1024 * 1024]
    (folder / "SKILL.md").write_text(head + filler + "lateword\n")
    assert names(find(gateway, "earlyword", "--path", "library")) == ["huge"]
    assert names(find(gateway, "lateword", "--path", "library")) == []


# -- output ---------------------------------------------------------------------------------


def test_text_output(gateway: Run, project: Path, home: Path, write_skill: WriteSkill) -> None:
    write_skill(
        project / ".skillc/skills/brew",
        "brew",
        "Brew coffee. " + "Grind, tamp and pour with care. " * 8,
        "## Grinding the beans\n\nGrind coffee beans finely.\n",
    )
    write_skill(project / "loose/tea", "tea", "Brew tea.", '## The "best" coffee\n\nNone.\n')
    result = gateway("find", "grind coffee")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "1. brew  (score " + lines[0].split("(score ")[1]
    assert lines[1] == "   .skillc/skills/brew"
    assert lines[2].startswith("   Brew coffee. Grind, tamp") and lines[2].endswith("…")
    assert len(lines[2]) == 3 + 160
    # not built: `show` would need an index, `open` reads the source from the heading's line
    assert lines[3] == "   skillc-gateway open .skillc/skills/brew SKILL.md --offset 7"
    assert gateway("open", ".skillc/skills/brew", "SKILL.md", "--offset", "7").stdout.startswith(
        "## Grinding the beans"
    )
    build_skill("brew", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    built = gateway("find", "grind coffee").stdout.splitlines()
    assert built[3] == '   skillc-gateway show brew --section "Grinding the beans"'
    result = gateway("find", "coffee", "--path", "loose")
    assert result.stdout.splitlines()[1:] == [
        "   loose/tea",
        "   Brew tea.",
        "   skillc-gateway open ./loose/tea SKILL.md --offset 7",  # as W001 names a folder
    ]
    empty = gateway("find", "nothing-matches-this", "--path", "loose")
    assert empty.stdout == "No skill fits this query (1 skill searched).\n"
    # a folder that starts with "-", seen from its parent: the hint is never an option
    write_skill(project / "loose/-dash", "dash", "Brew dashes.", "## Dashes\n\nDash.\n")
    dashed = gateway("find", "dashes", "--path", ".", cwd=project / "loose")
    hint = dashed.stdout.splitlines()[3]
    assert hint == "   skillc-gateway open ./-dash SKILL.md --offset 7"
    opened = gateway("open", "./-dash", "SKILL.md", "--offset", "7", cwd=project / "loose")
    assert opened.returncode == 0 and opened.stdout.startswith("## Dashes")
    # a home agent folder's skill: `~/` in the hint is the shell's, so under a $SKILLC_HOME
    # that is not $HOME (this test's) the hint is the absolute path: pasted, it opens
    write_skill(home / ".claude/skills/kettle", "kettle", "Boil kettles.", "## Boil\n\nBoil.\n")
    kettle = gateway("find", "boil kettles").stdout.splitlines()
    assert kettle[1] == "   ~/.claude/skills/kettle"  # to read: skillc's home
    assert kettle[3] == f"   skillc-gateway open {home}/.claude/skills/kettle SKILL.md --offset 7"
    assert gateway(*kettle[3].split()[1:]).stdout.startswith("## Boil")


def test_the_show_hint_names_a_skill_its_name_resolves_to(
    gateway: Run, project: Path, home: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    """A built global skill whose name a project store skill shadows: the hint was ``skc show
    zebra --section ...``, which reads the project's zebra (E020). It names the folder."""
    body = "## Painting stripes with acrylic\n\nUse acrylic paint.\n"
    write_skill(home / ".skillc/skills/zebra", "zebra", "Zebra stripes painting guide.", body)
    build_skill(home / ".skillc/skills/zebra", layout)
    query = ("find", "acrylic zebra stripes painting", "--limit", "1")
    show = 'skillc-gateway show zebra --section "Painting stripes with acrylic"'
    assert gateway(*query).stdout.splitlines()[3] == f"   {show}"
    write_skill(project / ".skillc/skills/zebra", "zebra", "Zebra crossing rules.", "## Cross\n")
    hint = gateway(*query).stdout.splitlines()[3]
    assert hint == f"   skillc-gateway open {home}/.skillc/skills/zebra SKILL.md --offset 7"
    assert gateway(*hint.split()[1:]).stdout.startswith("## Painting stripes with acrylic")


def test_a_hint_naming_a_control_character_is_a_command_that_reads_it(
    gateway: Run, project: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    """A skill folder holding an escape sequence gave the hint ``open ".claude/skills/clr\\x1b[2J"
    ...``, whose double quotes keep ``\\x1b`` as four characters: pasted, it was E001. Each
    word holding a control character is ``shell_word``'s ``$'...'``, which a shell reads back
    as the folder (or heading) itself."""
    write_skill(project / ".claude/skills/clr\x1b[2J", "clr", "Clears.", "## Clearing\n\nOk.\n")
    body = "## Wiping \x1b[31mred\n\nWipe.\n"
    write_skill(project / ".skillc/skills/wipe", "wipe", "Wipes.", body)
    build_skill("wipe", layout)
    hints = {}
    for query, opened in (("clearing", "## Clearing"), ("wiping", "## Wiping ")):
        hint = gateway("find", query, "--limit", "1").stdout.splitlines()[3]
        assert hint.isprintable(), hint
        hints[query] = hint
        pasted = subprocess.run(
            ["bash", "-c", f"printf '%s\\0' {hint}"], capture_output=True, check=True
        )
        words = pasted.stdout.decode().split("\0")[1:-1]
        assert gateway(*words).stdout.startswith(opened), hint
    assert hints == {
        "clearing": "   skillc-gateway open $'.claude/skills/clr\\x1b[2J' SKILL.md --offset 7",
        "wiping": "   skillc-gateway show wipe --section $'Wiping \\x1b[31mred'",
    }


def test_a_pasted_hint_opens_its_folder_whatever_its_path_holds(
    gateway: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """The hint's folder was find's own quoting: ``open "~/.claude/skills/my kettle" ...``,
    where a shell expands no ``~`` (pasted: E001). It is ``layout.pasted_path``'s, as W001's:
    bash reads each back as the folder, through spaces, quotes, ``$``, a ``~`` of its own."""
    at_home = {"HOME": str(home)}  # `~/` is the shell's home: this test's SKILLC_HOME
    folders = {
        "kettle": home / ".claude/skills/my kettle",
        "quote": home / '.claude/skills/it\'s "q"',
        "dollar": project / "loose/$HOME `x`",
        "tilde": project / "loose/~root",
    }
    for word, folder in folders.items():
        write_skill(folder, word, f"Boil {word}.", f"## Boil {word}\n\nBoil.\n")
    for word, folder in folders.items():
        where = ("--path", "loose") if folder.is_relative_to(project) else ()
        found = gateway("find", f"boil {word}", "--limit", "1", *where, env_extra=at_home)
        hint = found.stdout.splitlines()[3].strip()
        pasted = subprocess.run(
            ["bash", "-c", f"printf '%s\\0' {hint}"],
            capture_output=True,
            check=True,
            env={"PATH": os.environ["PATH"], **at_home},
        )
        words = pasted.stdout.decode().split("\0")[:-1]
        assert words[1:3] == ["open", str(folder)] or (project / words[2]).resolve() == folder
        opened = gateway(*words[1:], env_extra=at_home)
        assert opened.stdout.startswith(f"## Boil {word}"), (hint, opened.stderr)
    assert hint == "skillc-gateway open './loose/~root' SKILL.md --offset 7"


def test_json_shape(gateway: Run, project: Path, write_skill: WriteSkill) -> None:
    write_skill(project / ".skillc/skills/brew", "brew", "Brew coffee.", "## Beans\n\nCoffee.\n")
    for other in ("tea", "juice", "soup"):
        write_skill(project / f".skillc/skills/{other}", other, f"Make {other}.")
    data = find(gateway, "coffee beans", "--limit", "1")
    assert list(data) == [
        "query", "skills", "searched", "skipped", "partial", "warnings", "ranker",
    ]  # fmt: skip
    assert data["ranker"] == "lexical"  # the tests' environment: the semantic step off
    (skill,) = data["skills"]
    assert list(skill) == [
        "name",
        "description",
        "path",
        "deployed_to",
        "score",
        "sections",
        "duplicates",
    ]
    assert isinstance(skill["score"], float) and skill["score"] > 0
    assert skill["sections"][0] == {"file": "SKILL.md", "heading": "Beans", "line": 8}


def test_find_is_not_logged(
    gateway: Run, project: Path, home: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc/skills/brew", "brew", "Brew coffee.")
    build_skill("brew", layout, targets=[])
    logs = project / ".skillc/runtime/brew/.skillc-meta/logs.db"
    before = logs.read_bytes() if logs.exists() else b""
    assert names(find(gateway, "coffee")) == ["brew"]
    assert (logs.read_bytes() if logs.exists() else b"") == before
    assert not (project / ".skillc/logs").exists()


# -- a long-running process: the watcher ----------------------------------------------------


class Passes:
    """Counts the walks of a catalog (``full`` or ``targeted``) and the stats made."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import skillc_gateway.catalog.engine as engine
        import skillc_gateway.catalog.indexer as indexer

        self.walks: list[tuple[str, str]] = []
        self.stats = 0
        real_walk, real_stat, real_lstat = engine.walk, os.stat, os.lstat

        def counting_walk(root: str, *args: Any, **options: Any) -> Any:
            targeted = options.get("changed") is not None
            self.walks.append((root, "targeted" if targeted else "full"))
            return real_walk(root, *args, **options)

        def stat(*args: Any, **options: Any) -> Any:
            self.stats += 1
            return real_stat(*args, **options)

        def lstat(*args: Any, **options: Any) -> Any:
            self.stats += 1
            return real_lstat(*args, **options)

        monkeypatch.setattr(engine, "RACY_NS", 0)  # no 2 s window for fresh files
        monkeypatch.setattr(indexer, "RACY_NS", 0)
        monkeypatch.setattr(engine, "walk", counting_walk)
        monkeypatch.setattr(os, "stat", stat)
        monkeypatch.setattr(os, "lstat", lstat)

    def since(self) -> tuple[int, list[str]]:
        """What the catalog did since the last call: the stats made, each walk's kind."""
        done = (self.stats, [kind for _, kind in self.walks])
        self.stats = 0
        self.walks.clear()
        return done


def watching() -> None:
    from skillc_gateway.catalog.watch import open_watcher

    probe = open_watcher()
    if probe is None:
        pytest.skip("no inotify here: every query makes the full pass")
    probe.close()


def test_a_watching_catalog_walks_again_only_after_a_change(
    project: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    import time

    watching()
    passes = Passes(monkeypatch)

    def found(query: str) -> list[str]:
        time.sleep(0.02)  # past the change time of what the test just wrote
        return sorted(skill.name for skill in find_skills(layout, query).skills)

    write_skill(project / ".claude/skills/owls", "owls", "All about owls.")
    assert found("owls") == ["owls"]  # a first query: a full pass, nothing watched
    assert found("owls") == ["owls"]  # a second: a full pass, watching what it walks
    assert "full" in passes.since()[1]
    assert found("owls") == ["owls"]
    assert passes.since()[1] == []  # nothing happened: no pass
    write_skill(project / ".claude/skills/herons", "herons", "All about herons.")
    assert found("owls herons") == ["herons", "owls"]  # new: seen at once
    write_skill(project / ".claude/skills/owls", "owls", "Now about eagles.")
    assert found("eagles") == ["owls"]  # edited
    (project / ".claude/skills/herons/SKILL.md").unlink()
    assert found("herons") == []  # removed
    assert "full" not in passes.since()[1]  # each time, only what changed was looked at
    write_skill(project / ".gemini/skills/kite", "kite", "Fly a kite.")
    assert found("kite") == ["kite"]  # under an agent folder that did not exist
    found("kite")
    passes.since()
    assert found("kite") == ["kite"]
    assert passes.since()[1] == []  # calm again
    # another process writes
    with closing(sqlite3.connect(layout.global_dir / CATALOG_FILE)) as db, db:
        db.execute("INSERT INTO meta (key, value) VALUES ('touched', '1')")
    assert found("kite") == ["kite"]
    assert passes.since()[1][0] == "full"  # the states are read again: a full pass


def test_a_watching_catalog_sees_a_root_renamed_away_and_back_with_a_folder_above_it(
    project: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    """``mv .claude .claude.bak`` renames a folder above the agent folder ``.claude/skills``:
    no event of the folders watched (their watches follow the inodes). The quiet answer
    stood, with the skills at paths that no longer existed; once a change elsewhere had the
    folder seen gone, its return (``mv`` back) was never seen. Each root is stat-ed on the
    quiet path too; near miss: nothing else is walked while nothing changed."""
    import time

    watching()
    passes = Passes(monkeypatch)
    for name in ("s1", "s2", "s3"):
        write_skill(project / f".claude/skills/{name}", name, f"Zorb {name} things.")
    write_skill(project / ".gemini/skills/h1", "h1", "Zorb h1 things.")

    def found() -> tuple[int, list[str]]:
        time.sleep(0.02)  # past the change time of what the test just wrote
        result = find_skills(layout, "zorb")
        return result.searched, sorted(skill.name for skill in result.skills)

    every = (4, ["h1", "s1", "s2", "s3"])
    assert found() == found() == every  # the second watches what it walks
    passes.since()
    assert found() == every
    assert passes.since()[1] == []  # quiet
    (project / ".claude").rename(project / ".claude.bak")
    assert found() == (1, ["h1"])
    write_skill(project / ".gemini/skills/h1", "h1", "Zorb h1 things, edited.")  # elsewhere
    assert found() == found() == (1, ["h1"])
    passes.since()
    assert found() == (1, ["h1"])
    assert passes.since()[1] == []  # quiet, the agent folder gone
    (project / ".claude.bak").rename(project / ".claude")
    assert found() == every
    assert found() == every


def test_a_deployment_whose_source_is_gone_leaves_a_watching_catalog_calm(
    project: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    import shutil
    import time

    watching()
    write_skill(project / ".skillc/skills/mixer", "mixer", "Mix audio tracks.")
    build_skill("mixer", layout, targets=["claude"])
    shutil.rmtree(project / ".skillc/skills/mixer")  # its store folder is searched: not walked
    passes = Passes(monkeypatch)

    def skipped() -> int:
        time.sleep(0.02)
        return find_skills(layout, "mix audio").skipped

    assert skipped() == skipped() == 1  # the second find watches what it walks
    passes.since()
    assert skipped() == 1
    assert passes.since()[1] == []  # nothing happened: no pass, the gone source included


def test_after_a_change_a_watching_catalog_looks_only_at_what_changed(
    project: Path,
    tmp_path: Path,
    layout: Layout,
    monkeypatch: pytest.MonkeyPatch,
    write_skill: WriteSkill,
) -> None:
    import shutil
    import time

    watching()
    library = project / "library"
    for number in range(60):  # 60 skills of 3 folders: 181 folders, 60 SKILL.md
        write_skill(library / f"s{number:02d}", f"s{number:02d}", f"Skill {number} of many.")
        (library / f"s{number:02d}/references/deep").mkdir(parents=True)
    outside = tmp_path / "outside"
    write_skill(outside / "one", "kite", "Fly a kite.")
    write_skill(outside / "two", "glider", "Fly a glider.")
    (library / "flying").symlink_to(outside / "one")  # an entry of the root, followed
    from skillc_index.inventory import nested  # a find's inventory walks the project's nested

    # .claude/skills (a lookup of each last-level folder's; test_nested_search): not the catalog's
    walked = nested.nested_folders(project)
    monkeypatch.setattr(nested, "nested_folders", lambda _: walked)
    passes = Passes(monkeypatch)
    from skillc_index.inventory import resolve  # naming the hits is no pass of the catalog's

    monkeypatch.setattr(resolve, "reading_names", lambda hits, _: [name for name, _ in hits])

    def found(query: str) -> list[str]:
        time.sleep(0.02)  # past the change time of what the test just wrote
        result = find_skills(layout, query, paths=[str(library)], limit=50)
        return sorted(Path(skill.path).name for skill in result.skills)

    found("skill")
    full, kinds = passes.since()
    assert kinds == ["full"] and full > 240  # every folder and SKILL.md
    found("skill")
    assert passes.since()[1] == ["full"]  # watching what it walks
    assert found("skill")
    quiet, kinds = passes.since()
    # the path given is checked, nothing else (and each store once: does it hold links?;
    # and whether Claude Code's and Codex's plugin folders are there)
    assert kinds == [] and quiet < 6 + len(layout.scopes())

    def targeted() -> int:
        stats, kinds = passes.since()
        assert kinds == ["targeted"]
        assert stats < 80 < full / 3  # a few dozen: the root's real path, the indexing
        found("skill")  # the next, once the change has settled: nothing to look at
        assert passes.since() == (quiet, [])
        return stats

    write_skill(library / "s07", "s07", "Skill seven now about herons.")
    assert found("herons") == ["s07"]  # edited
    targeted()
    write_skill(library / "s99", "s99", "A new skill about owls.")
    assert found("owls") == ["s99"]  # added
    targeted()
    shutil.rmtree(library / "s99")
    assert found("owls") == []  # removed
    targeted()
    (library / "s07").rename(library / "s77")
    assert found("herons") == ["s77"]  # renamed
    targeted()
    write_skill(library / "s03/references/deep/nested", "nested", "A nested skill about storks.")
    assert found("storks") == ["nested"]  # a new skill in a skill
    targeted()
    (library / "flying").unlink()
    (library / "flying").symlink_to(outside / "two")  # the entry retargeted
    assert found("fly") == ["two"]  # (a skill's path is its real path)
    targeted()
    write_skill(outside / "two", "glider", "Fly a glider over herons.")  # through the link
    assert found("herons") == ["s77", "two"]
    targeted()


def test_a_watcher_that_lost_events_makes_a_full_pass(
    project: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    import time

    watching()
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    if limit > 100_000:
        pytest.skip("an inotify queue too long to overflow here")
    library = project / "library"
    write_skill(library / "owls", "owls", "All about owls.")
    write_skill(library / "herons", "herons", "All about herons.")
    passes = Passes(monkeypatch)
    for _ in range(3):
        find_skills(layout, "owls", paths=[str(library)])
    assert passes.since()[1] == ["full", "full"]  # the third: nothing to look at
    files = [library / "owls/SKILL.md", library / "herons/SKILL.md"]
    for number in range(limit + 10):  # alternating: equal events in a row are merged
        os.utime(files[number % 2], ns=(number, number))
    write_skill(library / "owls", "owls", "Now about eagles.")
    time.sleep(0.02)
    assert [
        folder_name(s.name) for s in find_skills(layout, "eagles", paths=[str(library)]).skills
    ] == ["owls"]
    assert passes.since()[1] == ["full"]  # the queue overflowed: the watcher cannot tell
    find_skills(layout, "eagles", paths=[str(library)])
    passes.since()
    write_skill(library / "herons", "herons", "Now about storks.")  # a near miss: no overflow
    time.sleep(0.02)
    assert [
        folder_name(s.name) for s in find_skills(layout, "storks", paths=[str(library)]).skills
    ] == ["herons"]
    assert passes.since()[1] == ["targeted"]


def test_a_root_with_too_many_folders_is_searched_in_part(
    project: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    from skillc_gateway.catalog import scan
    from skillc_index import walk

    monkeypatch.setattr(scan, "MAX_FOLDERS", 5)
    monkeypatch.setattr(walk, "MAX_FOLDERS", 5)  # the bound's home, which the warning names
    for number in range(8):
        write_skill(project / f"lib/s{number}", f"s{number}", "A skill about owls.")
    result = find_skills(layout, "owls", paths=["lib"], limit=100)
    assert result.partial is True
    assert result.searched == 4  # the root and its first four folders
    assert any("more than 5 folders" in warning.text for warning in result.warnings)


def test_a_symlinked_skill_md_is_skipped_not_followed(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    secret = project / "secret.txt"
    secret.write_text("---\nname: leak\ndescription: hunter2 password\n---\n")
    (project / "library/leak").mkdir(parents=True)
    (project / "library/leak/SKILL.md").symlink_to(secret)
    write_skill(project / "library/good", "good", "A password manager.")
    data = find(gateway, "password hunter2", "--path", "library")
    assert names(data) == ["good"] and data["skipped"] == 1


def test_a_symlink_loop_hides_nothing_but_itself(
    gateway: Run, project: Path, write_skill: WriteSkill
) -> None:
    """A looping link among a folder's entries (the folder itself, or its SKILL.md) is one
    entry that cannot be looked at: the other skills of the folder are searched."""
    for name in ("one", "two"):
        write_skill(project / "library" / name, name, f"The {name} skill for widgets.")
    (project / "library" / "loopy").symlink_to("loopy")
    (project / "library" / "x").symlink_to("y")
    (project / "library" / "y").symlink_to("x")
    (project / "library" / "four").mkdir()
    (project / "library" / "four" / "SKILL.md").symlink_to("SKILL.md")
    data = find(gateway, "widgets", "--path", "library")
    assert sorted(names(data)) == ["one", "two"] and data["skipped"] == 1


def test_a_skill_md_that_is_no_regular_file_is_skipped_and_counted_never_opened(
    gateway_process: Run, project: Path, write_skill: WriteSkill
) -> None:
    """A FIFO ``SKILL.md``, a link to ``/dev/null`` and a link to nothing were passed over
    uncounted (only a link to a regular file was counted): the folder was no skill. Each is
    skipped and counted now, and never opened (a FIFO would block the read: a real process,
    under the runner's timeout). Near miss: a folder named ``SKILL.md`` is no skill."""
    library = project / "library"
    write_skill(library / "good", "good", "The good skill for widgets.")
    for name in ("fifo", "device", "dangling", "folder"):
        (library / name).mkdir()
    os.mkfifo(library / "fifo" / "SKILL.md")
    (library / "device" / "SKILL.md").symlink_to("/dev/null")
    (library / "dangling" / "SKILL.md").symlink_to("nothing")
    (library / "folder" / "SKILL.md").mkdir()
    for _ in range(2):  # indexed, then from the catalog
        done = gateway_process("find", "widgets", "--path", "library", "--format", "json")
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        assert (names(data), data["searched"], data["skipped"]) == (["good"], 1, 3)


def test_more_than_16_paths_is_e100(gateway: Run, project: Path) -> None:
    """``find``'s folders and ``eval``'s library, bounded alike (``eval --path`` was not: a
    thousand folders were each walked in turn)."""
    for number in range(17):
        (project / f"p{number}").mkdir()
    args = [arg for number in range(17) for arg in ("--path", f"p{number}")]
    for command in (["find", "x"], ["eval"]):
        result = gateway(*command, *args)
        assert (result.returncode, result.stderr) == (
            1,
            "error[E100]: invalid option: '--path holds 17 values; at most 16 are allowed'\n",
        )


def test_a_huge_heading_and_list_line_are_read_in_bounded_time() -> None:
    from skillc_gateway.catalog.skill_text import headings

    words = "word " * 100_000
    text = "\n".join(["# " + words, "- " * 250_000 + "x", "## Next"])
    found = headings(text)  # quadratic reads of 500 KB lines would take hours
    assert [tuple(heading) for heading in found] == [(1, words.strip(), 1), (2, "Next", 3)]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["```", "# code", "   ```", "# After"], [(1, "After", 4)]),  # closed, 3 spaces in
        (["~~~~", "   ~~~", "# code", "~~~~", "Title", "==="], [(1, "Title", 5)]),
        (["```", "    ```", "# code"], []),  # four spaces: code, the fence still open
        (["Some text", "---", "", "-", "- item"], [(2, "Some text", 1)]),
        (["<div>", "# in the block", "", "# Out"], [(1, "Out", 4)]),
        (["\t# code", "    # code", "   # Three", "text", "    ---"], [(1, "Three", 3)]),
        (["", "\u00a0# not", "#\tTab", "=#"], [(1, "Tab", 3)]),
        (["<!--", "# in a comment", "", "-->", "# Out"], [(1, "Out", 5)]),
        (["> # Quoted", "- ## Listed"], [(1, "Quoted", 1), (2, "Listed", 2)]),
        (["1. Run:", "   ```", "pip install x", "   ```", "## In a fence"], []),  # item ended
        (["- item", "    ```", "    # code", "    ```", "## After"], [(2, "After", 5)]),
        (
            ["Two lines", "of a title", "---", "# A [link][r]", "", "[r]: /url"],
            [(2, "Two lines of a title", 1), (1, "A link", 4)],
        ),
        (
            ["# A | B", "--|--", "#", "# T *x* \\# ##"],
            [(1, "(empty heading, line 3)", 3), (1, "T x #", 4)],
        ),
    ],
)
def test_the_heading_scan_reads_each_kind_of_line(
    lines: list[str], expected: list[tuple[int, str, int]]
) -> None:
    """The headings ``find`` reads are ``outline``'s (CommonMark's): the line scan's, and
    those of a body it leaves to skillc-index's parse (HTML, quotes and list items that start
    a block, setext underlines, a reference a heading may use, a table's header...)."""
    from skillc_gateway.catalog.skill_text import headings
    from skillc_index import parse_markdown

    parsed = parse_markdown("\n".join(lines) + "\n").headings
    assert [(h.level, h.text, h.line) for h in parsed] == expected
    assert [tuple(heading) for heading in headings("\n".join(lines))] == expected


def test_find_names_the_sections_outline_lists(
    gateway: Run, project: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    """A ``# line`` in an HTML comment is no section (it was one, and ``skc open``'s hint
    pointed into the comment); a heading in a block quote or a list item, and a setext
    heading of two lines, are sections from their lines, as ``outline`` lists them."""
    body = (
        "<!--\n# Kubernetes rollback\nTODO: write this section later\n-->\n\n"
        "> ## Quoted owls\n> Owls hoot at night.\n\n"
        "- ## Listed herons\n  Herons wade in rivers.\n\n"
        "Setext\nbadgers\n---\n\nBadgers dig setts.\n"
    )
    write_skill(project / "lib/notes", "notes", "Takes meeting notes.", body)
    outline = gateway("outline", "lib/notes", "--format", "json")
    assert outline.returncode == 0, outline.stderr
    listed = [(h["file"], h["text"], h["line"]) for h in json.loads(outline.stdout)["headings"]]
    assert [text for _file, text, _line in listed] == [
        "notes",
        "Quoted owls",
        "Listed herons",
        "Setext badgers",
    ]
    best = {}
    for query in ("kubernetes rollback", "owls hoot", "herons wade", "badgers dig setts"):
        (skill,) = find_skills(layout, query, paths=["lib"]).skills
        named = [(hit.file, hit.heading, hit.line) for hit in skill.sections]
        assert named and set(named) <= set(listed), (query, named)
        best[query] = named[0][1]
    assert best == {
        "kubernetes rollback": "notes",
        "owls hoot": "Quoted owls",
        "herons wade": "Listed herons",
        "badgers dig setts": "Setext badgers",
    }


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            b"No frontmatter.\n# Title\n",
            ("f", "", "No frontmatter.\n# Title\n", 1, [(1, "Title", 2)]),
        ),
        (b"---\nname: a\n---", ("a", "", "", 4, [])),  # closed on the last line, no newline
        (b"---\nname: a\n---\n", ("a", "", "", 4, [])),
        (
            b"---\r\nname: a\r\ndescription: D\r\n---\r\n# T\r\nx\r\n",
            ("a", "D", "# T\nx\n", 5, [(1, "T", 5)]),
        ),
        (
            b"\xef\xbb\xbf---\nname: b\n---\n\n## Two\nbody",
            ("b", "", "\n## Two\nbody", 4, [(2, "Two", 5)]),
        ),
        (b"---\nname: [unclosed\n---\nbody\n", None),
        (b"---\nname: a\nnever closed\n", None),
    ],
)
def test_the_ranker_reads_a_skill_body_from_where_its_frontmatter_ends(
    data: bytes, expected: tuple[str, str, str, int, list[tuple[int, str, int]]] | None
) -> None:
    """The light reader's name, description, body (from the line after the frontmatter, CRLF
    and a BOM aside), the body's first line number and its headings' lines in the file."""
    from skillc_gateway.catalog.skill_text import read_skill_text

    text = read_skill_text(data, "f")
    if expected is None:
        assert text is None
        return
    assert text is not None
    got = (text.name, text.description, text.body, text.body_line)
    assert (*got, [tuple(heading) for heading in text.headings]) == expected


def test_a_watcher_out_of_room_gives_up_and_passes_go_on(
    project: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    from skillc_gateway.catalog import watch

    probe = watch.open_watcher()
    if probe is None:
        pytest.skip("no inotify here")
    probe.close()
    monkeypatch.setattr(watch, "_watch_budget", lambda: 2)  # as if the kernel had no room
    write_skill(project / ".claude/skills/owls", "owls", "All about owls.")
    for _ in range(3):
        assert [s.name for s in find_skills(layout, "owls").skills] == ["owls"]
    catalog = Catalog.shared(layout)
    assert catalog._watcher is None and not catalog._watching  # closed: its watches freed
    write_skill(project / ".claude/skills/herons", "herons", "All about herons.")
    assert [s.name for s in find_skills(layout, "herons").skills] == ["herons"]


def test_another_version_rewriting_the_catalog_does_not_get_it_deleted(
    project: Path, layout: Layout, write_skill: WriteSkill
) -> None:
    write_skill(project / ".claude/skills/owls", "owls", "All about owls.")
    assert [s.name for s in find_skills(layout, "owls").skills] == ["owls"]
    path = layout.global_dir / CATALOG_FILE
    inode = path.stat().st_ino
    os.link(path, project / "catalog-link")  # the inode is not reused if the file is removed
    with closing(sqlite3.connect(path)) as other, other:  # as a newer skillc would: its own tables
        other.execute("DROP TABLE rank_postings")
        other.execute("UPDATE meta SET value = '999' WHERE key = 'rank_version'")
    assert [s.name for s in find_skills(layout, "owls").skills] == ["owls"]
    assert path.stat().st_ino == inode  # opened again and made current, not removed


def test_opening_the_catalog_again_loses_no_rows_of_the_connection_open(tmp_path: Path) -> None:
    """A process that opens the catalog again while a connection to it is open (another
    thread's :meth:`Catalog.shared`) does not open and close the file to read its header:
    closing it drops the locks SQLite holds on the file in this process, and another process
    closing its last connection then deletes the WAL the open connection still writes to.
    Here: a connection open, the catalog's owner looked at as opening it again does, another
    process opens and closes a connection, the first writes: a new process sees the row.
    Near miss: a file of another owner at that path is still read and left alone."""
    from skillc_gateway.catalog.database import CATALOG_FILE, _open_files, _owner, open_database

    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    path = layout.global_dir / CATALOG_FILE
    count = "SELECT count(*) FROM meta"

    def other() -> int:  # another process: opens, reads, closes its (last) connection
        read = f"sqlite3.connect({str(path)!r}).execute({count!r}).fetchone()[0]"
        code = f"import sqlite3; print({read})"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        return int(done.stdout)

    first = open_database(layout)
    try:
        before = first.db.execute(count).fetchone()[0]
        assert _owner(path) == "ours"
        assert other() == before
        first.db.execute("INSERT INTO meta (key, value) VALUES ('probe', '1')")
        assert other() == before + 1
    finally:
        first.db.close()
    assert not _open_files(str(path))  # a closed connection no longer vouches for the file
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"not a catalog")  # near miss: another file now at that path
    assert _owner(path) == "foreign"
    third = open_database(layout)
    assert third.path is None and path.read_bytes() == b"not a catalog"
    third.db.close()


def test_a_catalog_in_memory_replaced_by_one_on_disk_is_closed(tmp_path: Path) -> None:
    """The thread's catalog in memory (its home a file) was dropped for the one on disk once
    the home could hold one, its connection left to the garbage collector (which Python 3.13
    warns of, unclosed): it is closed, the one on disk kept."""
    home = tmp_path / "home"
    home.write_text("x")
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    in_memory = Catalog.shared(layout)
    assert in_memory.database.path is None
    assert Catalog.shared(layout) is in_memory  # still no folder: the same one, open
    in_memory.db.execute("SELECT 1")
    home.unlink()
    on_disk = Catalog.shared(layout)
    try:
        assert (
            on_disk is not in_memory and on_disk.database.path == layout.global_dir / CATALOG_FILE
        )
        with pytest.raises(sqlite3.ProgrammingError, match="closed"):
            in_memory.db.execute("SELECT 1")
        assert Catalog.shared(layout) is on_disk
        on_disk.db.execute("SELECT 1")
    finally:
        on_disk.close()


def test_a_description_of_hidden_characters_is_shown_within_its_160(
    cli: Callable[..., Any], project: Path, write_skill: WriteSkill
) -> None:
    """find cut a description to 160 characters, then escaped it: a description of
    zero-width spaces and escape characters showed 160 of them as up to 960 characters, and
    one cut at the bound as half an escape. Escaped first, then cut: at most 160, each escape
    whole."""
    hidden = "\\u200b\\x1b" * 150  # YAML's escapes: 300 characters, each shown escaped
    frontmatter = f'name: zebra\ndescription: "Zebra stripes {hidden}"\n'
    write_skill(project / ".claude/skills/zebra", frontmatter=frontmatter, body="## Paint\n")
    result = cli("skillc-gateway", script=True)("find", "zebra stripes", "--limit", "1")
    assert result.returncode == 0, result.stderr
    line = result.stdout.splitlines()[2].removeprefix("   ")
    assert line.startswith("Zebra stripes \\u200b\\x1b") and line.endswith("\u2026"), line
    assert len(line) <= 160, len(line)
    rest = line.removeprefix("Zebra stripes ").removesuffix("\u2026")
    assert rest.replace("\\u200b", "").replace("\\x1b", "") == "", rest
