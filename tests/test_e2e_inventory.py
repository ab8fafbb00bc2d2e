"""The inventory of installed skills end to end (issue 34, DECISIONS "Paths and resolution"):
a skill that lives only in an agent folder or a plugin resolves by name, a name that several
distinct skills have is W001 with the candidates, ``skc list`` lists the inventory with its
filters, and ``list``, ``stats --all`` and ``find`` count the same skills."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def skill(folder: Path, description: str) -> Path:
    """A plain skill (no build) at ``folder``."""
    folder.mkdir(parents=True)
    name = folder.name
    head = f"---\nname: {name}\ndescription: {description}\n---\n"
    text = f"{head}# {name}\n\n## Usage\n{description}.\n"
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    return folder


def plugin(home: Path, base: Path, name: str = "pl") -> Path:
    """An installed Claude Code plugin ``name`` whose folder is ``base``."""
    records = home / ".claude/plugins/installed_plugins.json"
    records.parent.mkdir(parents=True, exist_ok=True)
    record = {"scope": "user", "installPath": str(base)}
    value = {"version": 2, "plugins": {f"{name}@market": [record]}}
    records.write_text(json.dumps(value), encoding="utf-8")
    enabled = {"enabledPlugins": {f"{name}@market": True}}  # as /plugin install turns it on
    (home / ".claude/settings.json").write_text(json.dumps(enabled), encoding="utf-8")
    return base / "skills"


def json_of(ok: Run, *args: str, **kwargs: Any) -> Any:
    return json.loads(ok(*args, "--format", "json", **kwargs).stdout)


# -- resolution by name -------------------------------------------------------------------


def test_a_skill_only_in_a_home_agent_folder_resolves_by_name(
    ok: Run, project: Path, home: Path
) -> None:
    """Never built, in ~/.claude/skills only: every command that reads sources takes its name
    (was E001), and nothing is written into the agent folder."""
    folder = skill(home / ".claude/skills/conventional-commit", "Write conventional commits")
    before = sorted(p.name for p in folder.iterdir())
    outline = ok("outline", "conventional-commit")
    assert "## Usage" in outline.stdout and outline.stderr == ""
    assert "SKILL.md" in ok("sources", "conventional-commit").stdout
    assert "Write conventional commits" in ok("open", "conventional-commit", "SKILL.md").stdout
    stats = json_of(ok, "stats", "conventional-commit")
    assert stats["skill_path"] == str(folder)
    assert sorted(p.name for p in folder.iterdir()) == before


def test_a_project_agent_folder_comes_before_the_home_ones_with_w001(
    ok: Run, project: Path, home: Path
) -> None:
    skill(project / ".cursor/skills/deploy", "Deploy the project way")
    skill(home / ".claude/skills/deploy", "Deploy the home way")
    proc = ok("open", "deploy", "SKILL.md")
    assert "the project way" in proc.stdout
    lines = proc.stderr.splitlines()
    assert lines[0] == "warning[W001]: multiple matches for 'deploy'; showing first"
    assert lines[1].strip().startswith(".cursor/skills/deploy (cursor, project)")
    # by its path, absolute: a shell reads ~ as $HOME, which is not $SKILLC_HOME here
    assert lines[2].strip().startswith(f"{home}/.claude/skills/deploy (claude, global)")
    assert "give its path" in lines[-1]
    # the other one by its path, with no warning
    other = ok("open", str(home / ".claude/skills/deploy"), "SKILL.md")
    assert "the home way" in other.stdout and other.stderr == ""


def test_one_skill_linked_into_several_agent_folders_is_not_ambiguous(
    ok: Run, project: Path, home: Path
) -> None:
    skill(home / ".claude/skills/lint-fix", "Fix lint errors")
    (home / ".agents/skills").mkdir(parents=True)
    (home / ".agents/skills/lint-fix").symlink_to(home / ".claude/skills/lint-fix")
    proc = ok("outline", "lint-fix")
    assert proc.stderr == ""


def test_a_store_skill_and_its_deployments_are_one_skill(
    ok: Run, project: Path, home: Path
) -> None:
    ok("init")
    ok("init", "tidy")
    ok("build", "tidy", "--target", "claude,cursor")
    assert (project / ".claude/skills/tidy").is_symlink()
    assert ok("outline", "tidy").stderr == ""
    listed = json_of(ok, "list")
    (entry,) = [s for s in listed["skills"] if s["name"] == "tidy"]
    assert entry["managed"] is True and entry["status"] == "normal"
    assert entry["agents"] == ["claude", "cursor"]
    kinds = [(loc["kind"], loc["agent"], loc["managed"]) for loc in entry["locations"]]
    assert kinds == [("store", None, True), ("agent", "claude", True), ("agent", "cursor", True)]
    assert entry["locations"][1]["source"] == str(project / ".skillc/skills/tidy")


def test_a_project_skill_built_globally_is_one_skill_in_every_project(
    ok: Run, project: Path, home: Path, tmp_path: Path
) -> None:
    """``build --global`` of a project skill: its runtime is the home's, its source the
    project's. The home deployment was taken for one of the global store's, which was gone:
    every project's ``list`` warned "a deployment of ~/.skillc/skills/tidy, which is gone"
    and left it out."""
    ok("init")
    ok("init", "tidy")
    ok("build", "tidy", "--global")
    source = str(project / ".skillc/skills/tidy")
    other = tmp_path / "other"
    other.mkdir()
    for where in (project, other):
        listed = ok("list", "--format", "json", cwd=where)
        assert listed.stderr == "", listed.stderr
        (entry,) = [s for s in json.loads(listed.stdout)["skills"] if s["name"] == "tidy"]
        deployed = [loc for loc in entry["locations"] if loc["kind"] == "agent"]
        assert [(loc["path"], loc["source"]) for loc in deployed] == [
            (str(home / ".claude/skills/tidy"), source)
        ]
    found = ok("find", "tidy", "--format", "json", cwd=other)
    assert json.loads(found.stdout)["skills"][0]["path"] == source


def test_a_project_skill_copied_globally_is_read_from_its_source_elsewhere(
    ok: Run, project: Path, home: Path, tmp_path: Path
) -> None:
    """``build --global --copy`` (a ``build --help`` example): outside the project the stub's
    commands (``outline``, ``show --section``) read the project skill, as they do through the
    ``--global`` link; the copy stood for nothing there and its own stub was read (E020)."""
    ok("init")
    skill(project / ".skillc/skills/tidy", "Tidy things")
    ok("build", "tidy", "--global", "--copy")
    assert (home / ".claude/skills/tidy/.skillc-meta").is_dir()
    other = tmp_path / "other"
    other.mkdir()
    assert "## Usage" in ok("outline", "tidy", cwd=other).stdout
    assert "Tidy things." in ok("show", "tidy", "--section", "Usage", cwd=other).stdout
    (entry,) = json_of(ok, "list", cwd=other)["skills"]
    assert (entry["managed"], entry["source_path"]) == (True, str(project / ".skillc/skills/tidy"))


def test_a_renamed_skill_s_deployments_say_how_to_remove_them(
    ok: Run, skc: Run, project: Path
) -> None:
    """A skill renamed after its build leaves its link (and runtime), which agents still load:
    the listing's warning, E001 for its name (what the stub says to run) and E100 for its
    path named no remedy (E100 said to build the source that is gone)."""
    ok("init")
    skill(project / ".skillc/skills/old-name", "Tidy things")
    ok("build", "old-name")
    (project / ".skillc/skills/old-name").rename(project / ".skillc/skills/new-name")
    link, runtime = project / ".claude/skills/old-name", project / ".skillc/runtime/old-name"
    remove = f"to remove it: rm {link}, then rm -r {runtime}, its runtime"
    assert remove in ok("list").stderr
    outline = skc("outline", "old-name")
    assert outline.returncode == 1 and "E001" in outline.stderr and remove in outline.stderr
    build = skc("build", ".claude/skills/old-name")
    assert build.returncode == 1 and "E100" in build.stderr and remove in build.stderr
    assert "is gone: there is nothing to build" in build.stderr
    assert link.is_symlink() and runtime.is_dir()  # nothing removed without consent


def test_a_nested_project_folder_claude_code_reads_resolves(
    ok: Run, project: Path, home: Path
) -> None:
    ok("init")
    skill(project / "packages/web/.claude/skills/web-build", "Build the web package")
    assert "## Usage" in ok("outline", "web-build").stdout
    listed = json_of(ok, "list", "--scope", "project")
    (entry,) = listed["skills"]
    assert (entry["name"], entry["agents"], entry["managed"]) == ("web-build", ["claude"], False)


def test_plugin_skills_resolve_as_plugin_colon_skill(
    ok: Run, skc: Run, project: Path, home: Path, tmp_path: Path
) -> None:
    skills = plugin(home, tmp_path / "plugin-folder")
    skill(skills / "review", "Review a pull request, plugin edition")
    skill(skills / "triage", "Triage issues")
    skill(home / ".claude/skills/review", "Review a pull request, personal edition")
    assert "plugin edition" in ok("open", "pl:review", "SKILL.md").stdout
    assert "Triage issues" in ok("open", "triage", "SKILL.md").stdout
    # the personal skill comes first; W001 says how to name the plugin's
    proc = ok("open", "review", "SKILL.md")
    assert "personal edition" in proc.stdout
    assert "pl:review (" in proc.stderr
    assert "or a plugin's skill as 'pl:review'" in proc.stderr
    # another plugin's name, or a plugin that has no such skill: not found
    for name in ("other:triage", "pl:nothing"):
        missing = skc("outline", name)
        assert missing.returncode == 1
        assert missing.stderr.startswith(f"error[E001]: skill '{name}' not found")


def test_the_installed_skc_reads_the_managed_settings_file_the_variable_names(
    skc_installed: Run, project: Path, home: Path, tmp_path: Path
) -> None:
    """Claude Code's managed settings outrank the user's: ``$SKILLC_CLAUDE_MANAGED_SETTINGS``
    names the file the installed ``skc`` reads in place of the machine's (tests read
    ``/etc/claude-code/managed-settings.json``, whatever it turned on or off)."""
    skill(plugin(home, tmp_path / "plugin-folder") / "review", "Review, plugin edition")
    managed = tmp_path / "policy" / "managed-settings.json"
    managed.parent.mkdir()
    variable = {"SKILLC_CLAUDE_MANAGED_SETTINGS": str(managed)}
    shown = skc_installed("open", "pl:review", "SKILL.md", env_extra=variable)
    assert shown.returncode == 0 and "plugin edition" in shown.stdout  # no file: the user's
    managed.write_text(json.dumps({"enabledPlugins": {"pl@market": False}}), encoding="utf-8")
    off = skc_installed("open", "pl:review", "SKILL.md", env_extra=variable)
    assert off.returncode == 1
    assert off.stderr.startswith("error[E001]: skill 'pl:review' not found")
    relative = {"SKILLC_CLAUDE_MANAGED_SETTINGS": os.path.relpath(managed, project)}
    assert skc_installed("open", "pl:review", "SKILL.md", env_extra=relative).returncode == 1


def test_a_folder_named_with_a_colon_resolves_unless_a_plugin_has_the_skill(
    ok: Run, project: Path, home: Path, tmp_path: Path
) -> None:
    """``skc list`` lists ``~/.claude/skills/foo:bar``, so its name resolves (DECISIONS:
    every command that names a skill resolves over the inventory; it was E001): ``foo:bar``
    names plugin ``foo``'s skill ``bar`` when that plugin has it, else the folder."""
    folder = skill(home / ".claude/skills/foo:bar", "The folder with a colon")
    assert [s["name"] for s in json_of(ok, "list")["skills"]] == ["foo:bar"]
    assert "The folder with a colon" in ok("open", "foo:bar", "SKILL.md").stdout
    assert json_of(ok, "stats", "foo:bar")["skill_path"] == str(folder)
    skill(plugin(home, tmp_path / "plugin-folder", "foo") / "bar", "The plugin's bar")
    assert "The plugin's bar" in ok("open", "foo:bar", "SKILL.md").stdout


def test_run_takes_store_skills_only(skc: Run, project: Path, home: Path) -> None:
    """``run`` executes a skill's code: a name is looked for in the stores only (DECISIONS),
    never in an agent folder."""
    skill(home / ".claude/skills/helper", "Helps")
    proc = skc("run", "helper", "tool")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error[E001]: skill 'helper' not found")


# -- skc list, stats --all and find: one inventory --------------------------------------------


@pytest.fixture
def installed(ok: Run, project: Path, home: Path, tmp_path: Path) -> dict[str, Path]:
    """A home holding skills in several agent folders (one linked into two, one copied into
    two), a plugin's skill, and a global store skill deployed to two agents; a project with
    one skill in its own agent folder."""
    found = {
        "alpha": skill(home / ".claude/skills/alpha", "Alpha reports for quarterly numbers"),
        "beta": skill(home / ".cursor/skills/beta", "Beta release checklist"),
        "gamma": skill(home / ".agents/skills/gamma", "Gamma ray spectra analysis"),
        "local": skill(project / ".claude/skills/local", "Local project conventions"),
    }
    (home / ".gemini/skills").mkdir(parents=True)
    (home / ".gemini/skills/alpha").symlink_to(home / ".claude/skills/alpha")
    skill(home / ".kiro/skills/beta", "Beta release checklist")  # a copy: another skill
    found["pl:delta"] = skill(plugin(home, tmp_path / "plug") / "delta", "Delta plugin helper")
    ok("init", "stored", "--global")
    ok("build", "stored", "--global", "--target", "claude,cursor")
    found["stored"] = home / ".skillc/skills/stored"
    return found


def test_list_stats_and_find_count_the_same_skills(
    ok: Run, installed: dict[str, Path], home: Path
) -> None:
    listed = json_of(ok, "list")
    names = sorted(entry["name"] for entry in listed["skills"])
    # beta twice (two copies: the one its bare name does not read is named by its path);
    # alpha once (one folder linked into two agents); stored once (a store skill and its
    # deployments); the plugin's skill named as the read commands take it
    kiro = str(home / ".kiro/skills/beta")
    assert names == sorted(["alpha", "beta", kiro, "gamma", "local", "pl:delta", "stored"])
    assert listed["total"] == 7
    every = json_of(ok, "stats", "--all")
    assert len(every["data"]) == 7
    assert sorted(row["skill_path"] for row in every["data"]) == sorted(
        entry["source_path"] for entry in listed["skills"]
    )
    assert json_of(ok, "find", "checklist")["searched"] == 7


def test_list_columns_filters_and_json(ok: Run, installed: dict[str, Path], home: Path) -> None:
    lines = ok("list").stdout.splitlines()
    assert lines[0].split() == ["SKILL", "SCOPE", "STATUS", "MANAGED", "AGENTS", "WHERE"]
    rows = {line.split()[0]: line.split() for line in lines[1:] if line.strip()}
    assert rows["stored"][1:5] == ["global", "normal", "yes", "claude,cursor"]
    assert rows["alpha"][1:5] == ["global", "not-indexed", "no", "claude,gemini"]
    assert rows["local"][1] == "project"

    def names(*args: str) -> list[str]:
        return [entry["name"] for entry in json_of(ok, "list", *args)["skills"]]

    assert names("--managed") == ["stored"]
    # an agent sees its own folders and those its documentation says it reads too: Cursor
    # reads .agents/skills and .claude/skills, Gemini CLI .agents/skills, Copilot both
    assert sorted(names("--agent", "cursor")) == ["alpha", "beta", "gamma", "local", "stored"]
    assert sorted(names("--agent", "gemini")) == ["alpha", "gamma"]
    assert sorted(names("--agent", "copilot")) == ["alpha", "gamma", "local", "stored"]
    assert names("--agent", "kiro") == [str(home / ".kiro/skills/beta")]  # (its path: shadowed)
    assert names("--scope", "project") == ["local"]
    assert names("--scope", "global", "--agent", "claude") == ["alpha", "pl:delta", "stored"]
    (alpha,) = [e for e in json_of(ok, "list")["skills"] if e["name"] == "alpha"]
    assert {(loc["agent"], loc["real"]) for loc in alpha["locations"]} == {
        ("claude", str(home / ".claude/skills/alpha")),
        ("gemini", str(home / ".claude/skills/alpha")),
    }


def test_an_agent_folder_skill_is_read_by_name_and_list_says_its_index_state(
    ok: Run, list_json: Callable[..., dict[str, Any]], project: Path, home: Path
) -> None:
    """``show`` and ``search`` by name of a never-built skill of ~/.claude/skills (the index is
    made on demand, in skillc's runtime); ``list`` says not-indexed, indexed, then stale after
    an edit of its sources; its folder holds nothing more."""
    folder = skill(home / ".claude/skills/notes", "Take meeting notes")

    def status() -> str:
        (entry,) = list_json("--pattern", "notes")["skills"]
        return str(entry["status"])

    assert status() == "not-indexed"
    assert "Take meeting notes." in ok("show", "notes", "--section", "Usage").stdout
    assert "Usage" in ok("search", "notes", "meeting").stdout
    assert status() == "indexed"
    (folder / "SKILL.md").write_text(
        "---\nname: notes\ndescription: Take notes\n---\n# notes\n\n## Usage\nNew text here.\n",
        encoding="utf-8",
    )
    assert status() == "stale"
    assert "New text here." in ok("show", "notes", "--section", "Usage").stdout
    assert sorted(p.name for p in folder.iterdir()) == ["SKILL.md"]


def _skill(folder: Path) -> Path:
    folder.mkdir(parents=True)
    text = f"---\nname: {folder.name}\ndescription: A skill. Use when testing.\n---\n# T\n"
    (folder / "SKILL.md").write_text(text)
    return folder


def test_w001_names_each_candidate_by_a_path_that_reads_it_when_pasted(
    cli: Callable[..., Run], project: Path, home: Path
) -> None:
    """W001 ends "to read another, give its path": its candidates are those paths. Under a
    ``$SKILLC_HOME`` that is not ``$HOME`` (the MCP README's setup) it said
    ``~/.claude/skills/x``, which the shell expands to ``$HOME``: E001. Absolute there, as
    ``skc find``'s hint is; ``~/`` when ``~`` is that home; relative to the working
    directory when inside it."""
    skc = cli("skc", script=True)
    for agent in (".claude", ".agents"):  # two skills, not two copies of one
        skill = _skill(home / agent / "skills/x") / "SKILL.md"
        skill.write_text(skill.read_text() + f"\n{agent}\n")
    elsewhere = project / "elsewhere"
    elsewhere.mkdir()
    here = home / ".claude"
    for cwd, env in (
        (elsewhere, None),  # $HOME is not $SKILLC_HOME
        (here, None),  # the one in the working directory: ./skills/x
        (elsewhere, {"HOME": str(home)}),  # ~ is the home: ~/...
    ):
        done = skc("outline", "x", cwd=cwd, env_extra=env)
        assert done.returncode == 0 and done.stderr.startswith("warning[W001]"), done.stderr
        candidates = [line[2:].rsplit(" (", 1)[0] for line in done.stderr.splitlines()[1:3]]
        home_shown = "~" if env else str(home)
        expected = {
            f"{home_shown}/.agents/skills/x",
            "./skills/x" if cwd == here else f"{home_shown}/.claude/skills/x",
        }
        assert set(candidates) == expected, done.stderr
        shell_home = str(home) if env else os.environ["HOME"]  # what a shell makes of ~
        for candidate in candidates:  # each pasted: it reads that one skill
            pasted = shell_home + candidate[1:] if candidate.startswith("~/") else candidate
            read = skc("outline", pasted, cwd=cwd, env_extra=env)
            assert read.returncode == 0 and "W001" not in read.stderr, (candidate, read.stderr)


def test_w001_quotes_a_candidate_a_shell_would_split(
    cli: Callable[..., Run], project: Path
) -> None:
    """A ``$SKILLC_HOME`` holding a space (``/tmp/my home``): W001 printed the candidate's
    path bare, which a shell splits into two words (E100, an extra argument). Each is one
    shell word, read back as the skill it names."""
    import shlex

    skc = cli("skc", script=True)
    spaced = project / "my home"
    for agent in (".claude", ".agents"):
        skill = _skill(spaced / agent / "skills/x") / "SKILL.md"
        skill.write_text(skill.read_text() + f"\n{agent}\n")
    env = {"SKILLC_HOME": str(spaced)}
    done = skc("outline", "x", env_extra=env)
    assert done.returncode == 0 and done.stderr.startswith("warning[W001]"), done.stderr
    candidates = [line[2:].rsplit(" (", 1)[0] for line in done.stderr.splitlines()[1:3]]
    assert {str((project / shlex.split(c)[0]).resolve()) for c in candidates} == {
        str(spaced / ".claude/skills/x"),
        str(spaced / ".agents/skills/x"),
    }, done.stderr
    for candidate in candidates:
        read = skc("outline", *shlex.split(candidate), env_extra=env)
        assert read.returncode == 0 and "W001" not in read.stderr, (candidate, read.stderr)
