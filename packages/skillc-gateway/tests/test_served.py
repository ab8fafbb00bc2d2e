"""The served skills kept current by their watcher (:mod:`skillc_gateway.served`, the MCP
Skills extension's listing and the change notifications of ``skc mcp``)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway.served import MAX_UNSKILLED, ServedSkills
from skillc_index import Layout

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the skills are watched with Linux inotify"
)

WriteSkill = Callable[..., Path]

DELTA = "---\nname: delta\ndescription: A skill installed folder first.\n---\n\n# Delta\n"


def test_a_skill_whose_file_comes_after_a_look_at_its_empty_folder_is_served(
    tmp_path: Path,
) -> None:
    """A tool that installs a skill makes its folder, then writes its files: a look between
    the two sees a folder that is no skill. The SKILL.md written after is seen at the next
    look (the root's folders that are no skill are watched), not only after something else
    changes in the root: under load the MCP server missed such a skill (a test of
    ``skc mcp``'s notifications waited for it in vain). Near miss: a folder that stays
    without SKILL.md is never served, and stays watched as one."""
    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True)
    project = tmp_path / "project"
    project.mkdir()
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout)
    try:
        assert served.snapshot().entries == {}
        (skills / "delta").mkdir()
        (skills / "notes").mkdir()
        assert served.snapshot().entries == {}  # the look between the folder and its file
        (skills / "delta" / "SKILL.md").write_text(DELTA, encoding="utf-8")
        (skills / "notes" / "todo.txt").write_text("later\n", encoding="utf-8")
        assert list(served.snapshot().entries) == ["delta"]
        assert served._unskilled == {f"{skills}/notes"}  # delta is a skill now, watched as one
        (skills / "delta" / "SKILL.md").write_text(DELTA + "\nEdited.\n", encoding="utf-8")
        entry = served.snapshot().entries["delta"]
        assert entry.files[0].size == len(DELTA) + len("\nEdited.\n")
    finally:
        served.close()


def test_the_folders_watched_for_a_skill_to_come_are_bounded(tmp_path: Path) -> None:
    """A root's folders that are no skill are watched, at most MAX_UNSKILLED of them (an
    inventory root full of other folders does not take the watches the skills need)."""
    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    for n in range(MAX_UNSKILLED + 5):
        (skills / f"folder-{n:04d}").mkdir(parents=True)
    project = tmp_path / "project"
    project.mkdir()
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    try:
        assert served.snapshot().entries == {}
        assert len(served._unskilled) == MAX_UNSKILLED
    finally:
        served.close()


def test_a_skill_under_an_agent_folder_made_after_the_first_look_is_served(
    tmp_path: Path,
) -> None:
    """A project without ``.claude`` when the MCP server first looked: the watcher waits for
    ``.claude`` in the project (the nearest folder that exists), and that event stands for
    the agent folder ``.claude/skills`` itself, so the inventory is looked at again and the
    skill installed there (``mkdir -p``, ``npx skills add``, ``skc_init`` making
    ``.skillc/skills``) is served; before, the event named ``.claude``, which is no
    inventory folder, and the skill was not served until something else changed. The same
    when ``.claude`` is made first and ``skills`` a look later, and when the whole
    ``.claude`` is removed and made again."""
    import shutil

    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    late = DELTA.replace("delta", "late")
    try:
        assert served.snapshot().entries == {}
        (project / ".claude" / "skills" / "late").mkdir(parents=True)
        (project / ".claude" / "skills" / "late" / "SKILL.md").write_text(late, encoding="utf-8")
        assert list(served.snapshot().entries) == ["late"]
        shutil.rmtree(project / ".claude")
        assert served.snapshot().entries == {}
        (project / ".claude").mkdir()
        assert served.snapshot().entries == {}  # a look between the two levels
        (project / ".claude" / "skills" / "back").mkdir(parents=True)
        back = DELTA.replace("delta", "back")
        (project / ".claude" / "skills" / "back" / "SKILL.md").write_text(back, encoding="utf-8")
        assert list(served.snapshot().entries) == ["back"]
        (project / ".skillc" / "skills" / "made").mkdir(parents=True)  # skc init's store
        made = DELTA.replace("delta", "made")
        (project / ".skillc" / "skills" / "made" / "SKILL.md").write_text(made, encoding="utf-8")
        assert list(served.snapshot().entries) == ["back", "made"]
    finally:
        served.close()


def test_a_skill_with_a_file_no_uri_names_is_not_served(tmp_path: Path) -> None:
    """A file whose name holds a backslash (a zip made on Windows: ``docs\\readme.txt``) or
    whose URI passes MAX_URI_CHARS was listed in its skill's entry, but ``resources/read``
    of that URI found nothing: the skill could not be loaded, and FastMCP's client refused
    the whole listing for the backslash. Such a skill is not served now, with the reason, as
    a skill over the extension's limits is not. Near miss: a skill whose files all have
    URIs (an ``%`` and a space in a name, a long path under the bound) is served whole."""
    from skillc_index.inventory.uris import MAX_URI_CHARS, file_uri

    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    for name in ("good", "win", "deep"):
        (skills / name).mkdir(parents=True)
        text = DELTA.replace("delta", name)
        (skills / name / "SKILL.md").write_text(text, encoding="utf-8")
    (skills / "win" / "docs\\readme.txt").write_text("hi\n", encoding="utf-8")
    deep = skills / "deep" / "/".join(["\u00e9" * 60] * 25)  # a 9,000-character URI
    deep.mkdir(parents=True)
    (deep / "f.md").write_text("# Deep\n", encoding="utf-8")
    fine = skills / "good" / "/".join(["\u00e9" * 60] * 10)
    fine.mkdir(parents=True)
    (fine / "100% sure.md").write_text("# Fine\n", encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout, watch=False)
    try:
        snapshot = served.snapshot()
        assert list(snapshot.entries) == ["good"]
        good = snapshot.entries["good"]
        assert len(good.files) == 2
        for file in good.files:
            found = served.read(file_uri("good", file.path))
            assert found is not None, file.path
        reason = "a file no skill:// URI names (a backslash in its name, or a URI of more than"
        assert (
            snapshot.refused["win"] == f"{reason} {MAX_URI_CHARS} characters): 'docs\\readme.txt'"
        )
        assert snapshot.refused["deep"].startswith(reason)
    finally:
        served.close()


def test_a_targets_folder_added_to_the_projects_pyproject_while_serving_is_served(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    """A project without ``.skillc/config.toml`` is configured by its root's
    ``pyproject.toml`` (``[tool.skillc.targets]``): the served skills watch that file too."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    write_skill(project / ".skillc" / "skills" / "alpha")
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    try:
        assert list(served.snapshot().entries) == ["alpha"]
        write_skill(project / ".mine" / "skills" / "mineskill")
        (project / "pyproject.toml").write_text(
            '[tool.skillc.targets]\nmine = ".mine/skills"\n', encoding="utf-8"
        )
        assert list(served.snapshot().entries) == ["alpha", "mineskill"]
    finally:
        served.close()


def test_a_targets_folder_added_to_the_config_while_serving_is_served(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    """A ``[targets]`` folder written into the project's ``config.toml`` while the server
    runs is an inventory folder (``skc list`` lists its skills at once): the config files
    are watched, by their names, so the next look reads the inventory again, the watcher's
    descriptor wakes the notifier (list_changed), and the folder's skills are watched from
    then on. Before, the skill was served only by a fresh server. Near miss: a file other
    than the config written into ``.skillc/`` (the global one holds the find server's log
    and catalog) is no event of the inventory."""
    import select

    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    write_skill(project / ".skillc" / "skills" / "alpha")
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    try:
        assert list(served.snapshot().entries) == ["alpha"]
        (project / ".skillc" / "notes.txt").write_text("not the config\n", encoding="utf-8")
        assert served._changes() == set()
        write_skill(project / ".mine" / "skills" / "mineskill")
        config = project / ".skillc" / "config.toml"
        config.write_text('[targets]\nmine = ".mine/skills"\n', encoding="utf-8")
        fd = served.watch_fd()
        assert fd is not None and select.select([fd], [], [], 0)[0] == [fd]
        assert list(served.snapshot().entries) == ["alpha", "mineskill"]
        write_skill(project / ".mine" / "skills" / "mineskill", description="Edited.")
        entry = served.snapshot().entries["mineskill"]
        assert entry.frontmatter["description"] == "Edited."
        config.write_text("", encoding="utf-8")  # written in place: taken out again
        assert list(served.snapshot().entries) == ["alpha"]
    finally:
        served.close()


def test_a_plugin_turned_off_while_serving_is_no_longer_served(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    """Claude Code's settings files are watched as the config is: a plugin turned off
    (``enabledPlugins``: false) while the server runs leaves the listing at the next look,
    and comes back when turned on again."""
    import json

    home = tmp_path / "home"
    project = tmp_path / "project"
    project.mkdir()
    plugin = home / ".claude" / "plugins" / "cache" / "m" / "tooling" / "1.0"
    write_skill(plugin / "skills" / "gamma")
    records = {"plugins": {"tooling@m": [{"installPath": str(plugin)}]}}
    (home / ".claude" / "plugins" / "installed_plugins.json").write_text(json.dumps(records))
    (home / ".claude" / "settings.json").write_text('{"enabledPlugins": {"tooling@m": true}}')
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    try:
        assert list(served.snapshot().entries) == ["tooling/gamma"]
        settings = project / ".claude" / "settings.local.json"
        settings.parent.mkdir()
        settings.write_text('{"enabledPlugins": {"tooling@m": false}}', encoding="utf-8")
        assert list(served.snapshot().entries) == []
        settings.write_text('{"enabledPlugins": {"tooling@m": true}}', encoding="utf-8")
        assert list(served.snapshot().entries) == ["tooling/gamma"]
    finally:
        served.close()


@pytest.mark.parametrize("watch", [True, False])
def test_the_digests_kept_are_those_of_the_files_there(
    tmp_path: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch, watch: bool
) -> None:
    """Each file's digest is kept by its stamp for the next look at its skill, and only
    while the file is in its skill: a skill whose folder gets a new dated file each time
    (the old one removed) grew the server by 0.6 kB a name ever seen (18.5 to 30.6 MB over
    20,000), as did a skill removed. Near miss: a file kept across looks keeps its digest
    (not hashed again)."""
    import os
    import shutil
    import time

    import skillc_index.files as files
    from skillc_index.file_times import RACY_WINDOW_NS

    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    skills = project / ".skillc" / "skills"
    alpha = write_skill(skills / "alpha")
    beta = write_skill(skills / "beta")
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}), watch=watch)
    past = 1_600_000_000  # long past: a digest that is kept once its change time is too
    settle = RACY_WINDOW_NS / 1e9 + 0.02  # (file_times.settled: 100 ms after the utime)

    def held(kept: dict[str, Any]) -> list[str]:  # the files' paths, however they are keyed
        return [f for k, v in kept.items() for f in (held(v) if isinstance(v, dict) else [k])]

    def kept() -> list[str]:
        return sorted(f.removeprefix(f"{skills}/") for f in held(served._digests))

    try:
        for day in range(3):
            for old in alpha.glob("day-*.txt"):
                old.unlink()
            dated = alpha / f"day-{day}.txt"
            dated.write_text(f"day {day}\n", encoding="utf-8")
            for path in (dated, alpha / "SKILL.md", beta / "SKILL.md"):
                os.utime(path, (past, past))
            time.sleep(settle)
            assert [f.path for f in served.snapshot().entries["alpha"].files] == [
                "SKILL.md",
                f"day-{day}.txt",
            ]
            assert kept() == ["alpha/SKILL.md", f"alpha/day-{day}.txt", "beta/SKILL.md"]
        opened: list[str] = []
        real_open = files.open_regular

        def open_regular(path: str) -> object:
            opened.append(Path(path).name)
            return real_open(path)

        monkeypatch.setattr(files, "open_regular", open_regular)
        (alpha / "notes.md").write_text("# Notes\n", encoding="utf-8")
        os.utime(alpha / "notes.md", (past, past))
        time.sleep(settle)
        assert len(served.snapshot().entries["alpha"].files) == 3
        assert "notes.md" in opened and "day-2.txt" not in opened  # its digest kept
        monkeypatch.undo()
        shutil.rmtree(beta)
        assert list(served.snapshot().entries) == ["alpha"]
        assert kept() == ["alpha/SKILL.md", "alpha/day-2.txt", "alpha/notes.md"]
    finally:
        served.close()


def test_an_empty_folder_of_a_skill_is_a_directory_with_no_children(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``resources/directory/read`` of a skill's empty folder, or of one holding hidden
    files only (``templates/.keep``), was -32602, and its parent's listing left it out: the
    directories were made from the served files alone. SEP-2640: every directory of a skill
    is a directory resource, an empty one lists no children. Near misses: a hidden folder, a
    file, a folder that is not there are no directory; a folder made while serving is one at
    the next look; a skill of more folders than files allowed is refused, as for files."""
    from skillc_gateway import served as served_module

    home = tmp_path / "home"
    skill = home / ".claude" / "skills" / "eps"
    for folder in ("emptydir", "templates", "docs", ".git", "a/b"):
        (skill / folder).mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: eps\ndescription: Empty folders.\n---\n# Eps\n", encoding="utf-8"
    )
    (skill / "templates" / ".keep").write_text("", encoding="utf-8")
    (skill / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    (skill / "docs" / "a.md").write_text("# A\n", encoding="utf-8")
    for beside in ("a.md", "a-b.md"):  # bytewise by name: a, a-b.md, a.md ("a/" sorted last)
        (skill / beside).write_text("# A\n", encoding="utf-8")
    (tmp_path / "project").mkdir()
    layout = Layout.discover(tmp_path / "project", {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout)

    def names(uri: str) -> list[tuple[str, str]] | None:
        children = served.directory(uri)
        return None if children is None else [(c["name"], c["mimeType"]) for c in children]

    try:
        folder = "inode/directory"
        assert names("skill://eps") == [
            ("SKILL.md", "text/markdown"),
            ("a", folder),
            ("a-b.md", "text/markdown"),
            ("a.md", "text/markdown"),
            ("docs", folder),
            ("emptydir", folder),
            ("templates", folder),
        ]
        assert names("skill://eps/emptydir") == []
        assert names("skill://eps/templates") == []
        assert names("skill://eps/a") == [("b", folder)]
        assert names("skill://eps/a/b") == []
        assert names("skill://eps/docs") == [("a.md", "text/markdown")]
        for uri in ("skill://eps/.git", "skill://eps/SKILL.md", "skill://eps/nope"):
            assert served.directory(uri) is None, uri
        (skill / "later").mkdir()
        assert names("skill://eps/later") == []
        monkeypatch.setattr(served_module, "MAX_FILES", 5)
        (skill / "sixth").mkdir()
        assert served.snapshot().refused == {"eps": "7 folders (at most 5)"}
    finally:
        served.close()


def test_a_linked_skill_whose_clone_is_swapped_is_served_from_the_new_clone(
    tmp_path: Path,
) -> None:
    """``~/.claude/skills/x`` a symlink to a clone elsewhere, and the folder above its target
    swapped (``mv repo repo-old`` and a new clone, an installer's atomic update): no event of
    the skill's folders, which follow their inodes, so ``skills/list`` kept the old
    description and digest while ``resources/read`` served the new bytes. The folders above
    the target are watched, as the find catalog watches them. Near misses: a look between
    the ``mv`` and the clone (the server looks as soon as the watcher wakes it) sees no skill
    there, and the clone made after it is served; a skill in its agent folder (no link)
    has nothing above it watched."""
    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True)
    clones = tmp_path / "clones"

    def clone(description: str) -> None:
        (clones / "v2" / "x").mkdir(parents=True)
        text = f"---\nname: x\ndescription: {description}\n---\n# X\n"
        (clones / "v2" / "x" / "SKILL.md").write_text(text, encoding="utf-8")

    clone("Brew espresso coffee shots.")
    (skills / "x").symlink_to(clones / "v2" / "x")
    (skills / "y").mkdir()
    (skills / "y" / "SKILL.md").write_text(DELTA.replace("delta", "y"), encoding="utf-8")
    (tmp_path / "project").mkdir()
    layout = Layout.discover(tmp_path / "project", {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout)

    def description() -> str | None:
        entry = served.snapshot().entries.get("x")
        return None if entry is None else entry.frontmatter["description"]

    try:
        assert description() == "Brew espresso coffee shots."
        assert served._watcher is not None
        assert not any(f.startswith(str(home)) for f in served._watcher._above_wds)  # y's
        (clones / "v2").rename(clones / "v2-old")
        clone("Steep green tea leaves now.")
        assert description() == "Steep green tea leaves now."
        (clones / "v2").rename(clones / "v2-older")
        assert description() is None  # a look between the two: no skill there now
        clone("Press cold juice.")
        assert description() == "Press cold juice."
    finally:
        served.close()


def test_a_linked_skill_whose_target_comes_back_is_served(tmp_path: Path) -> None:
    """``~/.claude/skills/x`` a symlink whose target was not there when the skills were
    listed (not cloned yet; then moved away and back): no folder the server watched changes
    as the target comes, so the skill stayed missing until something else changed in the
    agent folder. The roots' dangling entries are statted by each listing and their targets
    watched for (the watcher wakes: a change notification), as the find catalog does. Near
    miss: a dangling link whose target never comes is no skill, listing after listing."""
    import select

    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True)
    clones = tmp_path / "clones"
    (skills / "x").symlink_to(clones / "v1" / "x")
    (skills / "never").symlink_to(tmp_path / "nowhere" / "never")
    (tmp_path / "project").mkdir()
    layout = Layout.discover(tmp_path / "project", {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout)
    try:
        assert served.snapshot().entries == {}
        fd = served.watch_fd()
        assert fd is not None
        (clones / "v1" / "x").mkdir(parents=True)
        text = "---\nname: x\ndescription: Brew espresso coffee shots.\n---\n# X\n"
        (clones / "v1" / "x" / "SKILL.md").write_text(text, encoding="utf-8")
        assert select.select([fd], [], [], 10)[0] == [fd]  # woken: the server tells its client
        assert list(served.snapshot().entries) == ["x"]
        (clones / "v1").rename(clones / "v1-away")
        assert served.snapshot().entries == {}
        (clones / "v1-away").rename(clones / "v1")
        assert list(served.snapshot().entries) == ["x"]
        assert list(served.snapshot().entries) == ["x"]
    finally:
        served.close()


def test_a_skills_folder_that_is_a_symlink_re_pointed_serves_the_new_target(
    tmp_path: Path,
) -> None:
    """``~/.agents/skills`` a symlink (stow, chezmoi) re-pointed with ``ln -sfn``: its watch
    follows the old target's inode, so ``skills/list`` kept serving the old target's skills,
    and never the new one's, until a restart, while ``skc_list`` listed the new. Its name is
    watched in its folder (the re-point wakes the server: a notification), and each
    listing compares the skills folders' stamps with those they were listed with, as the
    find catalog does: a symlink above one (the project's ``.claude``) re-pointed is no
    event of any watch."""
    import os
    import select

    home = tmp_path / "home"
    (home / ".agents").mkdir(parents=True)
    project = tmp_path / "project"
    project.mkdir()
    for dot, name in (("dotA", "bread"), ("dotB", "coffee"), ("dotP", "tea"), ("dotQ", "juice")):
        folder = tmp_path / dot / "skills" / name
        folder.mkdir(parents=True)
        text = DELTA.replace("delta", name)
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
    (home / ".agents" / "skills").symlink_to(tmp_path / "dotA" / "skills")
    (project / ".claude").symlink_to(tmp_path / "dotP")
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))

    def re_point(link: Path, target: Path) -> None:  # as ln -sfn does: a new link renamed over
        (link.parent / "new-link").symlink_to(target)
        (link.parent / "new-link").replace(link)

    try:
        assert list(served.snapshot().entries) == ["bread", "tea"]
        re_point(home / ".agents" / "skills", tmp_path / "dotB" / "skills")
        fd = served.watch_fd()
        assert fd is not None and select.select([fd], [], [], 0)[0]  # woken: a notification
        assert list(served.snapshot().entries) == ["coffee", "tea"]
        re_point(project / ".claude", tmp_path / "dotQ")
        assert list(served.snapshot().entries) == ["coffee", "juice"]
        assert os.path.realpath(served.snapshot().entries["juice"].folder).startswith(
            str(tmp_path / "dotQ")
        )
    finally:
        served.close()


def test_a_file_linked_into_a_folder_no_walk_enters_keeps_its_digest_current(
    tmp_path: Path,
) -> None:
    """``references/notes.txt -> ../node_modules/x/notes.txt``: the link is a file of the
    skill (its target is inside it), but ``node_modules/`` is a folder no walk enters, so it
    was not watched: its target edited, ``skills/list`` kept the old digest while
    ``resources/read`` served the new bytes. The folders such links lead to are watched
    too (:func:`~skillc_index.walk_skill`'s ``link_folders``). Near miss: the folder
    itself is still no part of the skill (its other files are not served)."""
    import hashlib

    skill = tmp_path / "home" / ".claude" / "skills" / "demo"
    (skill / "node_modules" / "x").mkdir(parents=True)
    (skill / "references").mkdir()
    (skill / "SKILL.md").write_text(DELTA.replace("delta", "demo"), encoding="utf-8")
    target = skill / "node_modules" / "x" / "notes.txt"
    target.write_text("version AAAA\n", encoding="utf-8")
    (skill / "node_modules" / "x" / "other.txt").write_text("not served\n", encoding="utf-8")
    (skill / "references" / "notes.txt").symlink_to("../node_modules/x/notes.txt")
    (tmp_path / "project").mkdir()
    layout = Layout.discover(tmp_path / "project", {"SKILLC_HOME": str(tmp_path / "home")})
    served = ServedSkills(lambda: layout)

    def digest() -> str | None:
        entry = served.snapshot().entries["demo"]
        assert [f.path for f in entry.files] == ["SKILL.md", "references/notes.txt"]
        found = entry.file("references/notes.txt")
        return None if found is None else found.digest

    try:
        assert digest() == "sha256:" + hashlib.sha256(b"version AAAA\n").hexdigest()
        target.write_text("version BBBB\n", encoding="utf-8")
        assert digest() == "sha256:" + hashlib.sha256(b"version BBBB\n").hexdigest()
    finally:
        served.close()


def test_a_linked_skill_behind_a_re_pointed_link_is_served_from_its_new_target(
    tmp_path: Path,
) -> None:
    """``~/.claude/skills/chain -> links/current/chain`` and ``links/current`` re-pointed
    from ``rel/v1`` to ``rel/v2`` (a release switch, ``ln -sfn``): no watch saw it (the
    skill's folder and those above it follow v1's inodes, the folder holding ``current``
    was not watched), and the skill was kept by the real path the inventory gave it, so
    ``skills/list`` kept v1's entry and ``resources/read`` v1's bytes until a restart,
    while ``skc_show`` read v2. The links on the way are watched by name (the re-point wakes
    the server: a notification), and a skill whose entry leads elsewhere has the inventory
    listed again. Near misses: re-pointed back, v1 again; ``current`` removed, the skill
    is gone; made again, it is back."""
    import os
    import select

    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True)
    rel, links = tmp_path / "rel", tmp_path / "links"
    for version in ("v1", "v2"):
        (rel / version / "chain").mkdir(parents=True)
        text = f"---\nname: chain\ndescription: Release {version}.\n---\n# C\n\n{version}\n"
        (rel / version / "chain" / "SKILL.md").write_text(text, encoding="utf-8")
    links.mkdir()
    (links / "current").symlink_to(rel / "v1")
    (skills / "chain").symlink_to(links / "current" / "chain")
    (tmp_path / "project").mkdir()
    layout = Layout.discover(tmp_path / "project", {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout)

    def re_point(target: Path) -> None:  # as ln -sfn does: a new link renamed over
        (links / "new").symlink_to(target)
        (links / "new").replace(links / "current")

    def served_as() -> tuple[str, str] | None:
        entry = served.snapshot().entries.get("chain")
        if entry is None:
            return None
        found = served.read("skill://chain/SKILL.md")
        assert found is not None
        return entry.frontmatter["description"], found[2].decode().split("\n")[-2]

    try:
        assert served_as() == ("Release v1.", "v1")
        fd = served.watch_fd()
        assert fd is not None
        re_point(rel / "v2")
        assert select.select([fd], [], [], 10)[0] == [fd]  # woken: a notification
        assert served_as() == ("Release v2.", "v2")
        assert os.path.realpath(served.snapshot().entries["chain"].folder) == str(
            rel / "v2" / "chain"
        )
        re_point(rel / "v1")
        assert served_as() == ("Release v1.", "v1")
        (links / "current").unlink()
        assert served_as() is None
        (links / "current").symlink_to(rel / "v2")
        assert served_as() == ("Release v2.", "v2")
    finally:
        served.close()


def test_a_digest_is_kept_once_its_file_is_older_than_its_file_systems_granularity(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    """A file's digest is kept for the next look once its times are older than its file
    system's timestamp granularity (100 ms on a nanosecond one:
    ``skillc_index.file_times.settled``), not after a flat 2 s: a file edited a second ago
    was hashed again at every look. Near miss: a file whose modification time was set back
    a moment ago (``tar x``, ``cp -p``), its change time now, is not kept: extracted again
    within the same tick it would keep its stamp (the old check read the modification time
    alone)."""
    import os
    import time

    from skillc_index.file_times import RACY_WINDOW_NS

    home = tmp_path / "home"
    project = tmp_path / "project"
    skills = project / ".skillc" / "skills"
    alpha = write_skill(skills / "alpha", files={"notes.md": "# Notes\n"})
    extracted = alpha / "extracted.md"
    extracted.write_text("# Extracted\n", encoding="utf-8")
    time.sleep(RACY_WINDOW_NS / 1e9 + 0.05)  # SKILL.md and notes.md: settled, 2 s not past
    os.utime(extracted, ns=(1_600_000_000 * 10**9, 1_600_000_000 * 10**9))
    changed = extracted.stat().st_ctime_ns
    home.mkdir()
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    try:
        assert len(served.snapshot().entries["alpha"].files) == 3
        looked_within_window = time.time_ns() < changed + RACY_WINDOW_NS
        kept = {Path(full).name for files in served._digests.values() for full in files}
        assert {"SKILL.md", "notes.md"} <= kept
        if looked_within_window:  # (a look slower than 100 ms proves nothing of it)
            assert "extracted.md" not in kept
    finally:
        served.close()


def test_a_skill_md_edited_through_a_hard_link_elsewhere_is_listed_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A skill's ``SKILL.md`` a hard link to a file elsewhere, rewritten in place through
    that other name: no event of the skill's folders (inotify reports a write in the folder
    of the name written through), so ``skills/list`` kept the old digest and frontmatter
    while ``resources/read`` served the new bytes, until a restart. A file of more than one
    name is statted by each look for changes; a read whose bytes are not those listed (a
    change no watch saw: a network file system's, played here by the watcher's events
    dropped) has its skill looked at again. Near miss: a file of one name is not statted
    (nothing changes in the listing while its watcher says nothing)."""
    import hashlib

    from skillc_index import file_times

    monkeypatch.setattr(file_times, "RACY_WINDOW_NS", 0)  # every stamp trusted at once
    skills = tmp_path / "home" / ".claude" / "skills"
    (skills / "hl").mkdir(parents=True)
    (skills / "plain").mkdir()
    outside = tmp_path / "outside" / "SKILL.md"
    outside.parent.mkdir()

    def text(name: str, version: str) -> str:
        return f"---\nname: {name}\ndescription: Version {version}.\n---\n# {name}\n"

    outside.write_text(text("hl", "one"), encoding="utf-8")
    (skills / "hl" / "SKILL.md").hardlink_to(outside)
    (skills / "plain" / "SKILL.md").write_text(text("plain", "one"), encoding="utf-8")
    (tmp_path / "project").mkdir()
    layout = Layout.discover(tmp_path / "project", {"SKILLC_HOME": str(tmp_path / "home")})
    served = ServedSkills(lambda: layout)

    def listed(name: str) -> tuple[str, str]:
        entry = served.snapshot().entries[name]
        file = entry.file("SKILL.md")
        assert file is not None
        return entry.frontmatter["description"], file.digest

    def digest(data: str) -> str:
        return "sha256:" + hashlib.sha256(data.encode()).hexdigest()

    try:
        assert listed("hl") == ("Version one.", digest(text("hl", "one")))
        with outside.open("r+", encoding="utf-8") as handle:  # in place, the same inode
            handle.write(text("hl", "TWO"))
        assert listed("hl") == ("Version TWO.", digest(text("hl", "TWO")))
        assert served._watcher is not None
        (skills / "plain" / "SKILL.md").write_text(text("plain", "ANOTHER"), encoding="utf-8")
        served._watcher.changed()  # its events lost: a change no watch saw
        assert listed("plain") == ("Version one.", digest(text("plain", "one")))
        found = served.read("skill://plain/SKILL.md")
        assert found is not None and found[2].decode() == text("plain", "ANOTHER")
        assert listed("plain") == ("Version ANOTHER.", digest(text("plain", "ANOTHER")))
    finally:
        served.close()


def _many_skills(skills: Path, count: int) -> None:
    for n in range(count):
        folder = skills / f"skill-{n:04d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{n:04d}\ndescription: Skill number {n}.\n---\n\n# {n}\n",
            encoding="utf-8",
        )


def test_a_first_page_hashes_the_files_of_its_own_skills_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scale audit: a new ``skc mcp`` answered nothing (``ping`` neither) until every file of
    every installed skill was read and hashed, though a page holds at most 500 skills: 11 s
    at 20,000 skills, past a client's request timeout under load. A first page of 1,200
    one-file skills hashes about its page's files; the pages after it build theirs, and the
    skills walked page by page are the whole listing, in order. Near miss: asked for all of
    them (``snapshot()``), every skill is built."""
    import skillc_gateway.served as served_module

    home = tmp_path / "home"
    _many_skills(home / ".claude" / "skills", 1200)
    project = tmp_path / "project"
    project.mkdir()
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    hashed: list[str] = []
    digest = served_module._digest

    def counted(full: str, *args: Any, **kwargs: Any) -> Any:
        hashed.append(full)
        return digest(full, *args, **kwargs)

    monkeypatch.setattr(served_module, "_digest", counted)
    served = ServedSkills(lambda: layout, watch=False)
    try:
        entries, after = served.page(None, 500)
        assert [e.path for e in entries] == [f"skill-{n:04d}" for n in range(500)]
        assert after == "skill-0499"
        assert len(hashed) <= 501  # its 500 skills' files, and the next one's (is there more?)
        walked = [e.path for e in entries]
        while after is not None:
            entries, after = served.page(after, 500)
            walked += [e.path for e in entries]
        assert walked == [f"skill-{n:04d}" for n in range(1200)]
        assert len(hashed) == 1200  # each hashed once
        assert list(served.snapshot().entries) == walked
    finally:
        served.close()
    fresh = ServedSkills(lambda: layout, watch=False)
    try:
        assert len(fresh.snapshot().entries) == 1200
    finally:
        fresh.close()


def test_a_page_of_bad_arguments_is_e100_before_any_skill_is_built(tmp_path: Path) -> None:
    """``page(after, limit)`` is public (the gateway README): ``page(None, -1)`` was a bare
    ``IndexError``, ``page(None, "x")`` and ``page(5, 2)`` a ``TypeError``, and
    ``page(None, 0)`` an empty page said to be the last; each is E100 now, as every other
    parameter of the API, and nothing is built for it."""
    from skillc_gateway.served import MAX_AFTER_CHARS
    from skillc_index import InvalidOption

    home = tmp_path / "home"
    _many_skills(home / ".claude" / "skills", 3)
    project = tmp_path / "project"
    project.mkdir()
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout, watch=False)
    try:
        bad: list[tuple[Any, Any]] = [
            (None, -1),
            (None, 0),
            (None, "x"),
            (None, True),
            (None, 10**30),
            (5, 2),
            (b"skill-0000", 2),
            ("s" * (MAX_AFTER_CHARS + 1), 2),
        ]
        for after, limit in bad:
            with pytest.raises(InvalidOption) as raised:
                served.page(after, limit)
            assert raised.value.diagnostic.code == "E100", (after, limit)
        assert served.snapshot(complete=False).entries == {}  # nothing built for them
        entries, more = served.page(None, 2)
        assert ([e.path for e in entries], more) == (["skill-0000", "skill-0001"], "skill-0001")
        entries, more = served.page("s" * MAX_AFTER_CHARS, 2)  # the longest: past them all
        assert (entries, more) == ([], None)
    finally:
        served.close()


def test_pages_of_nested_and_refused_skills_walk_the_whole_listing_in_order(
    tmp_path: Path,
) -> None:
    """A skill's nested skills sort after other skills of its prefix (``alpha-x`` <
    ``alpha/inner``), and a refused skill holds no entry: pages of every size, each building
    only the skills it may hold, walk exactly the entries of the full snapshot, in order,
    the last page without a cursor. Entries are read through a URI too (``entry``,
    ``locate``, ``refusal``) before any listing built them."""
    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    for name in ("alpha", "alpha-x", "alpha0", "beta", "bad", "gamma"):
        folder = skills / name
        folder.mkdir(parents=True)
        given = "other" if name == "bad" else name
        (folder / "SKILL.md").write_text(
            f"---\nname: {given}\ndescription: The {name} skill.\n---\n", encoding="utf-8"
        )
    for top, inner in (("alpha", "inner"), ("alpha", "zeta/deep"), ("beta", "b")):
        folder = skills / top / inner
        folder.mkdir(parents=True)
        name = inner.rpartition("/")[2]
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Nested {name}.\n---\n", encoding="utf-8"
        )
    project = tmp_path / "project"
    project.mkdir()
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    whole = ServedSkills(lambda: layout, watch=False)
    try:
        everything = list(whole.snapshot().entries)
    finally:
        whole.close()
    assert everything == [
        "alpha",
        "alpha-x",
        "alpha/inner",
        "alpha/zeta/deep",
        "alpha0",
        "beta",
        "beta/b",
        "gamma",
    ]
    for limit in range(1, 10):
        served = ServedSkills(lambda: layout, watch=False)
        try:
            walked: list[str] = []
            after: str | None = None
            while True:
                entries, after = served.page(after, limit)
                assert 0 < len(entries) <= limit
                walked += [e.path for e in entries]
                if after is None:
                    break
            assert walked == everything, limit
        finally:
            served.close()
    served = ServedSkills(lambda: layout, watch=False)
    try:
        entry = served.entry("skill://alpha/zeta/deep/SKILL.md")
        assert entry is not None and entry.path == "alpha/zeta/deep"
        assert served.locate("skill://beta/b/SKILL.md") is not None
        refused = served.refusal("skill://bad/SKILL.md")
        assert refused == "name 'other' is not its folder's name 'bad'"
        assert served.snapshot(complete=False).pending == {"alpha-x", "alpha0", "gamma"}
    finally:
        served.close()


def test_a_page_after_the_longest_cursor_makes_no_prefix_of_it_but_a_skill_path_long(
    tmp_path: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``page(after)`` builds the skills before ``after`` whose nested skills sort after it
    (``alpha/inner`` after ``alpha-x...``: ``alpha`` is a prefix of it): it made every
    prefix of ``after`` to look them up, 134M characters for the longest (16,384). Only the
    prefixes as long as a skill path of the inventory are made now, and the page is the
    same: ``alpha``'s nested skill, then ``beta``."""
    from skillc_gateway.served import MAX_AFTER_CHARS

    skills = tmp_path / "home" / ".claude" / "skills"
    for name in ("alpha", "alpha-x", "beta"):
        write_skill(skills / name, heading=False)
    write_skill(skills / "alpha" / "inner", heading=False)
    project = tmp_path / "project"
    project.mkdir()
    layout = Layout.discover(project, {"SKILLC_HOME": str(tmp_path / "home")})
    asked: list[str] = []
    ensure = ServedSkills._ensure

    def recorded(self: ServedSkills, paths: Any, **kwargs: Any) -> Any:
        paths = list(paths)
        asked.extend(paths)
        return ensure(self, paths, **kwargs)

    monkeypatch.setattr(ServedSkills, "_ensure", recorded)
    after = "alpha-" + "x" * (MAX_AFTER_CHARS - 6)
    served = ServedSkills(lambda: layout, watch=False)
    try:
        entries, more = served.page(after, 5)
    finally:
        served.close()
    assert ([entry.path for entry in entries], more) == (["alpha/inner", "beta"], None)
    assert "alpha" in asked and sum(map(len, asked)) < 100  # (134,225,920 characters)


def test_a_skill_reached_by_two_chains_is_woken_when_either_is_re_pointed(
    tmp_path: Path,
) -> None:
    """A skill reached from two agent folders by two chains of links
    (``~/.claude/skills/chain -> a/current/chain``, ``~/.agents/skills/chain ->
    b/current/chain``, both at ``rel/v1``): only its first entry's chain was watched, so
    the other re-pointed (``ln -sfn``) woke nothing and the listing kept the skill as it
    was. Each entry's chain is watched: re-pointing either wakes the server, and the entry
    it leads to is served."""
    import os
    import select

    home = tmp_path / "home"
    rel = tmp_path / "rel"
    for version in ("v1", "v2"):
        (rel / version / "chain").mkdir(parents=True)
        text = f"---\nname: chain\ndescription: Release {version}.\n---\n# C\n"
        (rel / version / "chain" / "SKILL.md").write_text(text, encoding="utf-8")
    chains = {}
    for agent, links in ((".claude", tmp_path / "a"), (".agents", tmp_path / "b")):
        (home / agent / "skills").mkdir(parents=True)
        links.mkdir()
        (links / "current").symlink_to(rel / "v1")
        (home / agent / "skills" / "chain").symlink_to(links / "current" / "chain")
        chains[str(home / agent / "skills" / "chain")] = links
    (tmp_path / "project").mkdir()
    layout = Layout.discover(tmp_path / "project", {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout)
    try:
        assert served.snapshot().entries["chain"].frontmatter["description"] == "Release v1."
        assert served._paths is not None
        locations = [str(location.path) for location in served._paths["chain"].locations]
        assert sorted(locations) == sorted(chains)
        links = chains[locations[-1]]  # the chain of an entry that is not the first
        (links / "new").symlink_to(rel / "v2")  # as ln -sfn does: a new link renamed over
        (links / "new").replace(links / "current")
        fd = served.watch_fd()
        assert fd is not None
        assert select.select([fd], [], [], 10)[0] == [fd]  # woken: a notification
        served.snapshot()
        assert served._paths is not None
        assert str(rel / "v2" / "chain") in {
            os.path.realpath(skill.source) for skill in served._paths.values()
        }
    finally:
        served.close()


def test_the_hard_linked_files_statted_by_a_look_are_bounded_and_taken_in_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file of more than one name was statted by every listing, even when the
    watcher saw nothing: a look stats :data:`MAX_LINKED_STATS` of them at most (whole
    skills), the others in turn at the next looks. Played with a bound of 2 and three
    skills of two hard-linked files each, all rewritten through their other names: one
    skill is seen changed a look, and all three after three looks."""
    from skillc_gateway import served as served_module
    from skillc_index import file_times

    monkeypatch.setattr(file_times, "RACY_WINDOW_NS", 0)  # every stamp trusted at once
    monkeypatch.setattr(served_module, "MAX_LINKED_STATS", 2)
    skills = tmp_path / "home" / ".claude" / "skills"
    outside = tmp_path / "outside"
    names = ("one", "two", "three")

    def text(name: str, version: str) -> str:
        return f"---\nname: {name}\ndescription: Version {version}.\n---\n# {name}\n"

    for name in names:
        (skills / name).mkdir(parents=True)
        (outside / name).mkdir(parents=True)
        (outside / name / "SKILL.md").write_text(text(name, "a"), encoding="utf-8")
        (outside / name / "notes.md").write_text("# Notes\n", encoding="utf-8")
        for file in ("SKILL.md", "notes.md"):
            (skills / name / file).hardlink_to(outside / name / file)
    (tmp_path / "project").mkdir()
    layout = Layout.discover(tmp_path / "project", {"SKILLC_HOME": str(tmp_path / "home")})
    served = ServedSkills(lambda: layout)
    stats = []
    restamped = served_module._restamped
    monkeypatch.setattr(served_module, "_restamped", lambda *a: stats.append(a[0]) or restamped(*a))

    def versions() -> list[str]:
        entries = served.snapshot().entries
        return [entries[name].frontmatter["description"] for name in names]

    try:
        assert versions() == ["Version a."] * 3
        assert served._watcher is not None
        for name in names:  # in place, the same inode: no event of the skills' folders
            with (outside / name / "SKILL.md").open("r+", encoding="utf-8") as handle:
                handle.write(text(name, "b"))
        stats.clear()
        assert sorted(versions()).count("Version b.") == 1
        assert len(stats) <= 2
        versions()
        assert versions() == ["Version b."] * 3
    finally:
        served.close()


def test_a_read_refuses_the_skill_s_tests_even_when_a_listing_holds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read of a served file goes through ``open_in_root(tests=False)``: a file of the
    skill's tests (``evals/`` at its root) is refused even if a listing were wrong (a walk
    that spelled ``evals`` otherwise on a file system that ignores case). Near miss: the
    skill's other files are read."""
    import skillc_index
    from skillc_index.diagnostics import EvalsPath

    home = tmp_path / "home"
    root = home / ".claude" / "skills" / "tested"
    (root / "evals").mkdir(parents=True)
    (root / "SKILL.md").write_text(DELTA.replace("delta", "tested"), encoding="utf-8")
    (root / "evals" / "evals.json").write_text("secret\n", encoding="utf-8")
    walk = skillc_index.walk_skill

    def wrong(*args: Any, **kwargs: Any) -> Any:  # the tests listed as files
        found = walk(*args, **kwargs)
        listed = (*found.files, *found.tests)
        return type(found)(listed, found.escapes, found.skipped, found.ignored, found.second_links)

    monkeypatch.setattr(skillc_index, "walk_skill", wrong)
    project = tmp_path / "project"
    project.mkdir()
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    try:
        entry = served.snapshot().entries["tested"]
        assert [f.path for f in entry.files] == ["SKILL.md", "evals/evals.json"]
        with pytest.raises(EvalsPath):
            served.read("skill://tested/evals/evals.json")
        found = served.read("skill://tested/SKILL.md")
        assert found is not None and found[2].startswith(b"---\nname: tested\n")
    finally:
        served.close()


def test_skills_the_inventory_gains_while_serving_are_pending_not_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    """Review: a skill new to the inventory was built at once, so a ``[targets]`` folder or
    a plugin of thousands of skills hashed every one before the next answer. They are
    pending (:attr:`Snapshot.pending`: the list changed), built when a page or a read asks
    for them; a complete snapshot builds them."""
    import skillc_gateway.served as served_module

    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    write_skill(project / ".skillc" / "skills" / "alpha")
    _many_skills(project / ".mine" / "skills", 200)
    hashed: list[str] = []
    digest = served_module._digest

    def counted(full: str, *args: Any, **kwargs: Any) -> Any:
        hashed.append(full)
        return digest(full, *args, **kwargs)

    monkeypatch.setattr(served_module, "_digest", counted)
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    try:
        assert list(served.snapshot().entries) == ["alpha"]
        hashed.clear()
        config = project / ".skillc" / "config.toml"
        config.write_text('[targets]\nmine = ".mine/skills"\n', encoding="utf-8")
        snapshot = served.snapshot(complete=False)
        assert hashed == []
        assert list(snapshot.entries) == ["alpha"] and len(snapshot.pending) == 200
        entries, _ = served.page(None, 5)
        assert [e.path for e in entries] == ["alpha"] + [f"skill-{n:04d}" for n in range(4)]
        assert len(hashed) <= 6
        assert len(served.snapshot().entries) == 201
    finally:
        served.close()
