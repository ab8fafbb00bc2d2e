"""Codex's plugins in the inventory: the skills of each plugin of its cache
(``$CODEX_HOME/plugins/cache/<marketplace>/<plugin>/<version>``) that its ``config.toml``
turns on, listed for the ``codex`` agent and named as Codex names them
(``<manifest name>:<skill>``)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout
from skillc_index.inventory.plugins import codex_plugin_folders, plugin_folders

Run = Callable[..., "subprocess.CompletedProcess[str]"]
WriteSkill = Callable[..., Path]

ON = '[plugins."linear@openai-curated"]\nenabled = true\n'


def codex_plugin(home: Path, version: str = "1.0.0", manifest: str | None = None) -> Path:
    """A Codex plugin ``linear@openai-curated`` of that version in the cache."""
    folder = home / ".codex/plugins/cache/openai-curated/linear" / version
    (folder / ".codex-plugin").mkdir(parents=True)
    text = manifest if manifest is not None else '{"name": "linear", "skills": "./skills/"}'
    (folder / ".codex-plugin/plugin.json").write_text(text, encoding="utf-8")
    return folder


def config(home: Path, text: str = ON) -> None:
    (home / ".codex").mkdir(exist_ok=True)
    (home / ".codex/config.toml").write_text(text, encoding="utf-8")


def test_a_codex_plugin_turned_on_is_listed_for_codex_as_codex_names_its_skills(
    layout: Layout, home: Path, cli: Callable[..., Run], write_skill: WriteSkill
) -> None:
    plugin = codex_plugin(home, manifest='{"name": "lin"}')
    write_skill(plugin / "skills/triage", description="Triage Linear issues.")
    config(home)
    (root,) = plugin_folders(layout)
    assert (root.path, root.agent, root.plugin, root.marketplace, root.unloaded) == (
        plugin / "skills",
        "codex",
        "lin",  # the manifest's name is Codex's namespace
        "openai-curated",
        None,
    )
    listing = cli("skillc-index", script=True)
    listed = listing("list", "--agent", "codex", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    (skill,) = [s for s in json.loads(listed.stdout)["skills"] if s["name"].startswith("lin:")]
    assert skill["name"] == "lin:triage"
    others = listing("list", "--agent", "claude", "--format", "json")
    assert not [s for s in json.loads(others.stdout)["skills"] if "triage" in s["name"]]
    from skillc_index import resolve_skill

    assert resolve_skill("lin:triage", layout).source == plugin / "skills/triage"
    assert resolve_skill("lin@openai-curated:triage", layout).source == plugin / "skills/triage"


@pytest.mark.parametrize(
    "text",
    [
        "",  # no [plugins] entry
        '[plugins."linear@openai-curated"]\nenabled = false\n',
        '[plugins."linear@openai-curated"]\nenabled = "true"\n',
        '[plugins."linear"]\nenabled = true\n',  # no marketplace: no id Codex takes
        "[features]\nplugins = false\n\n" + ON,
        'profile = "work"\n[profiles.work.features]\nplugins = false\n\n' + ON,
        ON + "[broken\n",
        ON + "# " + "x" * 300_000,  # past the bound of a TOML file read
    ],
)
def test_a_codex_plugin_codex_does_not_load_is_left_out(
    layout: Layout, home: Path, write_skill: WriteSkill, text: str
) -> None:
    write_skill(codex_plugin(home) / "skills/triage")
    config(home)
    assert len(codex_plugin_folders(layout)) == 1
    config(home, text)
    assert codex_plugin_folders(layout) == ()


def test_the_plugins_feature_is_on_unless_set_off(
    layout: Layout, home: Path, write_skill: WriteSkill
) -> None:
    write_skill(codex_plugin(home) / "skills/triage")
    config(home, "[features]\nplugins = true\n\n" + ON)
    assert len(codex_plugin_folders(layout)) == 1
    config(home, '[features]\nplugins = false\nprofile = "x"\n' + ON)  # (a feature key)
    assert codex_plugin_folders(layout) == ()
    config(
        home,
        'profile = "on"\n[features]\nplugins = false\n[profiles.on.features]\n'
        "plugins = true\n\n" + ON,
    )
    assert len(codex_plugin_folders(layout)) == 1


def test_a_project_codex_config_turns_no_plugin_on(
    layout: Layout, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    write_skill(codex_plugin(home) / "skills/triage")
    (project / ".codex").mkdir()
    (project / ".codex/config.toml").write_text(ON, encoding="utf-8")
    assert codex_plugin_folders(layout) == ()


def test_the_local_version_else_the_highest_is_the_one_codex_loads(
    layout: Layout, home: Path, tmp_path: Path
) -> None:
    config(home)
    for version in ("1.0.0", "2.0.0"):
        codex_plugin(home, version)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (home / ".codex/plugins/cache/openai-curated/linear/9.0.0").symlink_to(outside)  # no version
    (home / ".codex/plugins/cache/openai-curated/linear/9.9.9 bad").mkdir()
    assert [r.path.parent.name for r in codex_plugin_folders(layout)] == ["2.0.0"]
    codex_plugin(home, "local")
    assert [r.path.parent.name for r in codex_plugin_folders(layout)] == ["local"]


def test_a_codex_plugin_without_a_valid_manifest_is_skipped_with_a_warning(
    layout: Layout, home: Path, cli: Callable[..., Run], write_skill: WriteSkill
) -> None:
    plugin = codex_plugin(home, manifest='{"name": ')
    write_skill(plugin / "skills/triage")
    config(home)
    (root,) = codex_plugin_folders(layout)
    assert root.unloaded is not None
    assert "linear@openai-curated, which Codex fails to load: its .codex-plugin" in root.unloaded
    listed = cli("skillc-index", script=True)("list", "--format", "json")
    assert "triage" not in listed.stdout
    assert "which Codex fails to load" in listed.stderr
    (plugin / ".codex-plugin/plugin.json").unlink()
    (root,) = codex_plugin_folders(layout)
    assert root.unloaded is not None and "it has no .codex-plugin/plugin.json" in root.unloaded
    (plugin / ".claude-plugin").mkdir()  # the manifest Codex takes after its own
    (plugin / ".claude-plugin/plugin.json").write_text('{"name": "linear"}', encoding="utf-8")
    (root,) = codex_plugin_folders(layout)
    assert root.unloaded is None and root.plugin == "linear"


def test_a_blank_manifest_name_is_the_version_folders_as_in_codex(
    layout: Layout, home: Path
) -> None:
    codex_plugin(home, "local", manifest='{"name": " "}')
    config(home)
    assert [root.plugin for root in codex_plugin_folders(layout)] == ["local"]


def test_only_skills_folders_inside_the_plugin_are_read(
    layout: Layout, home: Path, tmp_path: Path
) -> None:
    manifest = '{"name": "linear", "skills": "./more/"}'
    plugin = codex_plugin(home, manifest=manifest)
    (plugin / "more").mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (plugin / "skills").symlink_to(outside)  # a link out of the plugin
    config(home)
    assert [root.path for root in codex_plugin_folders(layout)] == [plugin / "more"]
    (plugin / ".codex-plugin/plugin.json").write_text(
        '{"name": "linear", "skills": "../../../.."}', encoding="utf-8"
    )
    assert codex_plugin_folders(layout) == ()


def test_a_write_into_codexs_plugin_cache_is_refused(layout: Layout, home: Path) -> None:
    from skillc_index.command_errors import InstalledPluginCopy
    from skillc_index.inventory.plugins import check_not_plugin_copy

    skill = codex_plugin(home) / "skills/triage"
    skill.mkdir(parents=True)
    with pytest.raises(InstalledPluginCopy, match="installed Codex plugin's copy"):
        check_not_plugin_copy(skill, layout)
    check_not_plugin_copy(home / ".codex/skills", layout)  # Codex's own folder: no plugin
    assert skill.is_dir()


def test_a_users_own_codex_plugin_beside_the_cache_is_no_plugin_copy(
    layout: Layout, home: Path
) -> None:
    """Codex's docs keep a user's own plugins in ``~/.codex/plugins/<plugin>`` (listed in
    ``~/.agents/plugins/marketplace.json``): their source, which skillc may write; only
    ``plugins/cache/`` is Codex's copy."""
    from skillc_index.command_errors import InstalledPluginCopy
    from skillc_index.inventory.plugins import check_not_plugin_copy, in_plugins_folder

    own = home / ".codex/plugins/my-plugin/skills/triage"
    own.mkdir(parents=True)
    check_not_plugin_copy(own, layout)
    assert not in_plugins_folder(str(own), layout)
    cached = home / ".codex/plugins/cache/local/my-plugin/local/skills/triage"
    cached.mkdir(parents=True)
    with pytest.raises(InstalledPluginCopy):
        check_not_plugin_copy(cached, layout)


def test_codex_loads_the_highest_version_as_semantic_versioning_orders_them(
    layout: Layout, home: Path
) -> None:
    """Codex sorts its version folders with ``compare_plugin_versions`` (Semantic
    Versioning, else text): with 1.9.0 and 1.10.0 it loads 1.10.0 (``max`` of the names took
    1.9.0); a pre-release comes before its release; names that are no such version (``1.9``,
    ``1.10``) are compared as text, as Codex does."""
    config(home)
    for version in ("1.9.0", "1.10.0", "1.10.0-rc.1"):
        codex_plugin(home, version)
    assert [r.path.parent.name for r in codex_plugin_folders(layout)] == ["1.10.0"]
    from skillc_index.inventory.plugins import codex_version_order

    assert codex_version_order("1.10.0-rc.2", "1.10.0-rc.10") == -1
    assert codex_version_order("1.10.0-rc.1", "1.10.0") == -1
    assert codex_version_order("1.0.0", "1.0.0+build.1") == -1
    assert codex_version_order("1.10", "1.9") == -1  # no Semantic Versioning: text
    assert codex_version_order("01.0.0", "1.0.0") == -1  # a leading zero: text
    assert codex_version_order("2.0.0", "2.0.0") == 0


def test_the_local_version_is_found_past_the_first_entries(
    layout: Layout, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All of a plugin's version folders are read up to the bound of versions compared, then
    the choice made: ``local`` is Codex's wherever the listing puts it (the scan stopped
    after 256 entries in directory order, so a ``local`` after them was missed)."""
    import contextlib
    import os
    from collections.abc import Iterator

    from skillc_index.inventory import plugins

    config(home)
    for version in ("1.0.0", "2.0.0", "3.0.0", "4.0.0"):
        (home / ".codex/plugins/cache/openai-curated/linear" / version).mkdir(parents=True)
    codex_plugin(home, "local")
    scandir = os.scandir

    @contextlib.contextmanager
    def local_last(path: Path) -> Iterator[list[os.DirEntry[str]]]:
        with scandir(path) as listing:  # the directory order that puts it last
            yield sorted(listing, key=lambda entry: entry.name == "local")

    monkeypatch.setattr(plugins, "MAX_CODEX_PLUGINS", 2)
    monkeypatch.setattr(plugins.os, "scandir", local_last)
    assert [r.path.parent.name for r in codex_plugin_folders(layout)] == ["local"]


def test_a_declared_skills_folder_is_read_at_any_depth_and_a_list_instead_of_skills(
    layout: Layout, home: Path
) -> None:
    """Codex takes a manifest's ``"skills": "./a/b"`` (each part checked, ``..`` refused)
    beside ``skills/``, and a list (newer Codex) instead of ``skills/``: only ``./one``
    deep was read, and a list not at all."""
    config(home)
    plugin = codex_plugin(home, manifest='{"name": "linear", "skills": "./extra/skills/"}')
    for folder in ("skills", "extra/skills", "a", "b/c"):
        (plugin / folder).mkdir(parents=True)
    manifest = plugin / ".codex-plugin/plugin.json"

    def read(skills: str) -> list[Path]:
        manifest.write_text(f'{{"name": "linear", "skills": {skills}}}', encoding="utf-8")
        return [root.path for root in codex_plugin_folders(layout)]

    assert read('"./extra/skills/"') == [plugin / "skills", plugin / "extra/skills"]
    assert read('"./extra/./skills"') == [plugin / "skills", plugin / "extra/skills"]
    assert read('"./extra/../a"') == [plugin / "skills"]  # no ".." part
    assert read('"extra/skills"') == [plugin / "skills"]  # no "./": not read
    assert read('["./a", "./b/c", "../x", 3]') == [plugin / "a", plugin / "b/c"]
    assert read('["../x"]') == [plugin / "skills"]  # no valid one: skills/ read


@pytest.mark.parametrize("name", ["lin:ear", ".."])
def test_a_manifest_name_skillc_cannot_name_skills_with_is_not_said_to_fail_in_codex(
    layout: Layout, home: Path, cli: Callable[..., Run], write_skill: WriteSkill, name: str
) -> None:
    """Codex loads a plugin whose manifest's name holds a ``:`` (its namespace), or is
    ``..`` (no ``skill://`` URI segment: its skills were listed, but left out of the MCP
    listing for another reason); skillc cannot name its skills ``plugin:skill``: the
    warning says so, not that Codex fails to load it (which it said)."""
    plugin = codex_plugin(home, manifest=json.dumps({"name": name}))
    write_skill(plugin / "skills/triage")
    config(home)
    (root,) = codex_plugin_folders(layout)
    assert root.unloaded is not None
    assert "Codex fails to load" not in root.unloaded
    assert "whose skills skillc cannot name (Codex loads them)" in root.unloaded
    listed = cli("skillc-index", script=True)("list", "--format", "json")
    assert "skillc cannot name" in listed.stderr and "fails to load" not in listed.stderr
