"""``list --budget`` prices each agent's ONE listing: every folder it reads (Claude Code: the
project's, the nested ones, the home folder's and its plugins'), against one budget; ``--agent``
picks the agent, ``--apply overrides`` plans against that budget."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skillc_index import Layout

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSkill = Callable[..., Path]


def run_json(cli: Callable[..., Run], *args: str) -> dict[str, Any]:
    done = cli("skillc_index")("list", "--budget", *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_claude_codes_folders_share_one_budget(
    cli: Callable[..., Run], layout: Layout, home: Path, project: Path, write_skill: WriteSkill
) -> None:
    """Four folders of one skill each (107 or 110 characters), each well within a
    400-character budget: their one listing (431) is not. The plugin's skill, listed last,
    loses its description; skillOverrides does not apply to it, so --apply sets the next one,
    the home folder's, in the home's settings (each folder alone: nothing to apply)."""
    layout.global_config.parent.mkdir(parents=True, exist_ok=True)
    layout.global_config.write_text(  # a listing with a home folder: not the project's budget
        "[budget]\ncontext_tokens = 1000\npercent = 10\n", encoding="utf-8"
    )
    (project / ".git").mkdir()
    write_skill(project / ".claude" / "skills" / "p1", description="p" * 100)
    write_skill(project / "packages" / "web" / ".claude" / "skills" / "n1", description="n" * 100)
    write_skill(home / ".claude" / "skills" / "g1", description="g" * 100)
    plugin = home / ".claude" / "plugins" / "cache" / "mk" / "pl" / "1.0"
    write_skill(plugin / "skills" / "x1", description="x" * 100)
    record = {"version": 2, "plugins": {"pl@mk": [{"scope": "user", "installPath": str(plugin)}]}}
    (home / ".claude" / "plugins" / "installed_plugins.json").write_text(json.dumps(record))
    enabled = {"enabledPlugins": {"pl@mk": True}}  # as /plugin install turns it on
    (home / ".claude" / "settings.json").write_text(json.dumps(enabled))
    write_skill(project / ".agents" / "skills" / "c1", description="c" * 100)

    (listing,) = run_json(cli, "--agent", "claude")["budget"]
    assert (listing["agent"], listing["skills"], listing["over_budget"]) == ("claude", 4, True)
    assert [part["path"] for part in listing["folders"]] == [
        str(project / ".claude" / "skills"),
        str(project / "packages" / "web" / ".claude" / "skills"),
        str(home / ".claude" / "skills"),
        str(plugin / "skills"),
    ]
    assert [e["name"] for e in listing["entries"]] == ["p1", "n1", "g1", "pl:x1"]
    assert listing["dropped"] == ["pl:x1"]

    data = run_json(cli, "--agent", "claude", "--apply", "overrides")
    (plan,) = data["overrides"]
    assert (plan["scope"], plan["settings"], plan["name_only"]) == (
        "global",
        str(home / ".claude" / "settings.json"),
        ["g1"],
    )
    assert plan["written"] and plan["tokens_after"] <= plan["budget_tokens"]
    (after,) = data["budget"]
    assert (after["over_budget"], after["overrides"]) == (False, {"g1": "name-only"})
    assert not (project / ".claude" / "settings.local.json").exists()

    (codex,) = run_json(cli, "--agent", "codex")["budget"]  # Codex's folders alone
    assert (codex["agent"], codex["model"], [e["name"] for e in codex["entries"]]) == (
        "codex",
        "codex",
        ["c1"],
    )
    everyone = run_json(cli)["budget"]  # each folder under its own agent's listing
    assert [(f["agent"], f["skills"]) for f in everyone] == [("agents", 1), ("claude", 4)]


def test_a_personal_skill_shadows_the_project_skill_of_its_name(
    cli: Callable[..., Run], home: Path, project: Path, write_skill: WriteSkill
) -> None:
    """Claude Code's precedence (personal over project, across levels): the project's x is
    not listed, so it is counted once, the personal entry, and named as shadowed in the JSON
    and the text. Codex documents no such order: its folders' two y are both counted."""
    (project / ".git").mkdir()
    write_skill(project / ".claude" / "skills" / "x", description="the project's x " * 5)
    write_skill(project / ".claude" / "skills" / "y", description="y")
    write_skill(home / ".claude" / "skills" / "x", description="mine")
    write_skill(project / ".agents" / "skills" / "y", description="y")
    write_skill(home / ".agents" / "skills" / "y", description="y")

    (listing,) = run_json(cli, "--agent", "claude")["budget"]
    assert [(e["name"], e["path"]) for e in listing["entries"]] == [
        ("y", str(project / ".claude" / "skills" / "y")),
        ("x", str(home / ".claude" / "skills" / "x")),
    ]
    assert listing["shadowed"] == [
        {
            "name": "x",
            "path": str(project / ".claude" / "skills" / "x"),
            "by": str(home / ".claude" / "skills" / "x"),
        }
    ]
    assert [part["skills"] for part in listing["folders"]] == [1, 1]
    assert listing["tokens"] == (len("- y: y\n") + len("- x: mine\n") + 3) // 4

    done = cli("skillc_index")("list", "--budget", "--agent", "claude")
    assert done.returncode == 0, done.stderr
    assert "not listed: .claude/skills/x (shadowed by ~/.claude/skills/x)" in done.stdout

    (codex,) = run_json(cli, "--agent", "codex")["budget"]
    assert ([e["name"] for e in codex["entries"]], codex["shadowed"]) == (["y", "y"], [])


def test_only_claude_code_is_told_of_its_settings(
    cli: Callable[..., Run], layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """Cursor's folder, priced as Claude Code lists it, over its budget: the suggestions are
    the agent-neutral ones (they named Claude Code's skillOverrides and
    skillListingBudgetFraction, which Cursor never reads); Claude Code's name its settings."""
    layout.global_config.parent.mkdir(parents=True, exist_ok=True)
    layout.global_config.write_text("[budget]\ncontext_tokens = 1000\npercent = 2\n")
    for folder in (".cursor", ".claude"):
        for name in ("alpha", "beta", "gamma"):
            write_skill(project / folder / "skills" / name, description=name * 20)
    found = {f["agent"]: f["suggestions"] for f in run_json(cli)["budget"]}
    assert "skillOverrides" not in " ".join(found["cursor"])
    assert found["cursor"][-1] == "move the skills seldom used out of the folders cursor reads"
    assert "skillOverrides" in found["claude"][-1]


def test_the_route_advice_names_the_folder_over_its_budget(
    cli: Callable[..., Run], layout: Layout, home: Path, project: Path, write_skill: WriteSkill
) -> None:
    """Cursor's and the home ``.agents/skills`` over their budget: each is told the route of
    its own folder (a bare ``skc route`` led to ``route install``, which routes the project's
    ``.claude/skills``, here within its budget); an agent reading several folders is told
    one command a folder, and a plugin's folder (route cannot take it) none."""
    layout.global_config.parent.mkdir(parents=True, exist_ok=True)
    layout.global_config.write_text("[budget]\ncontext_tokens = 1000\npercent = 2\n")
    write_skill(project / ".claude" / "skills" / "small", description="Small.")
    for folder in (project / ".cursor", home / ".agents"):
        for name in ("alpha", "beta", "gamma"):
            write_skill(folder / "skills" / name, description=name * 20)
    lead = "serve these skills through one router skill, one entry in the listing: "
    found = {f["agent"]: f["suggestions"] for f in run_json(cli)["budget"]}
    assert found["claude"] == []  # within its budget
    assert lead + "skillc-index route install -t cursor" in found["cursor"]
    assert lead + "skillc-index route install -t agents --global" in found["agents"]
    (cursor,) = run_json(cli, "--agent", "cursor")["budget"]
    routes = ["-t claude", "-t cursor", "-t agents --global"]  # the folders with skills
    commands = "; ".join(f"skillc-index route install {route}" for route in routes)
    assert lead + commands in cursor["suggestions"]


def test_each_agent_is_priced_with_the_fields_it_reads(
    cli: Callable[..., Run], layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """Gemini CLI reads the standard fields alone: its listing has the user-only skill of
    Claude Code (``disable-model-invocation``, which it counted as hidden) and no
    ``when_to_use``; Cursor hides the user-only skill but adds no ``when_to_use`` either."""
    extra = "when_to_use: When asked.\n"
    for folder in (".gemini", ".cursor", ".claude"):
        skills = project / folder / "skills"
        manual = "name: deploy\ndescription: Ship.\ndisable-model-invocation: true\n"
        write_skill(skills / "deploy", frontmatter=manual)
        write_skill(skills / "lint", frontmatter=f"name: lint\ndescription: Lint.\n{extra}")
    found = {f["agent"]: f for f in run_json(cli)["budget"]}
    listed = {agent: [e["name"] for e in found[agent]["entries"]] for agent in found}
    assert listed == {"claude": ["lint"], "cursor": ["lint"], "gemini": ["deploy", "lint"]}
    tokens = {agent: found[agent]["tokens"] for agent in found}
    # "- lint: Lint. When asked.\n" (26) / "- lint: Lint.\n" (14) and "- deploy: Ship.\n" (16)
    assert tokens == {"claude": 7, "cursor": 4, "gemini": 8}


def test_claude_code_lists_its_command_names(
    cli: Callable[..., Run], layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """Claude Code lists a skill under its folder's name (the frontmatter ``name`` is a
    label: a long one on a short folder was counted), and a nested folder's skill whose name
    another has under ``<subfolder>:<name>``; ``skillOverrides`` stays keyed by the label."""
    long = "qdrant-monitoring-debugging-of-cluster-nodes"
    skills = project / ".claude" / "skills"
    write_skill(skills / "debugging", frontmatter=f"name: {long}\ndescription: Debug.\n")
    write_skill(skills / "deploy", description="Deploy.")
    write_skill(project / "apps" / "web" / ".claude" / "skills" / "deploy", description="Web.")
    write_skill(project / "apps" / "api" / ".claude" / "skills" / "lint", description="Lint.")
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"skillOverrides": {long: "name-only"}}), encoding="utf-8")
    (claude,) = run_json(cli, "--agent", "claude")["budget"]
    names = [entry["name"] for entry in claude["entries"]]
    assert names == ["debugging", "deploy", "lint", "apps/web:deploy"]
    assert claude["name_only"] == [] and claude["overrides"] == {long: "name-only"}
    # "- debugging\n" (12), "- deploy: Deploy.\n" (18), "- lint: Lint.\n" (14),
    # "- apps/web:deploy: Web.\n" (24): 68 characters
    assert claude["tokens"] == 17


def test_opencode_prices_the_last_skill_of_a_name_it_scans(
    cli: Callable[..., Run], home: Path, project: Path, write_skill: WriteSkill
) -> None:
    """OpenCode scans ``.claude`` and ``.agents`` (the home's, then the project's), then its
    own folders (``~/.config/opencode``, then the project's ``.opencode``), a skill replacing
    the one of its name scanned before: the copy it lists is priced (the first folder's
    was, a copy OpenCode never shows), in the folder that has it."""
    write_skill(project / ".claude" / "skills" / "dup", description="Short.")
    write_skill(project / ".opencode" / "skills" / "dup", description="The OpenCode copy.")
    write_skill(home / ".config" / "opencode" / "skills" / "cfg", description="Global copy.")
    write_skill(project / ".claude" / "skills" / "cfg", description="Project copy.")
    write_skill(home / ".claude" / "skills" / "mine", description="Home copy.")
    write_skill(project / ".agents" / "skills" / "mine", description="Project copy.")

    (opencode,) = run_json(cli, "--agent", "opencode")["budget"]
    paths = sorted(entry["path"] for entry in opencode["entries"])
    assert paths == [
        str(home / ".config" / "opencode" / "skills" / "cfg"),
        str(project / ".agents" / "skills" / "mine"),
        str(project / ".opencode" / "skills" / "dup"),
    ]
    counts = {part["path"]: part["skills"] for part in opencode["folders"]}
    assert counts[str(project / ".claude" / "skills")] == 0
    assert counts[str(project / ".opencode" / "skills")] == 1


def test_one_skill_reached_through_two_folders_is_priced_once(
    cli: Callable[..., Run], home: Path, project: Path, write_skill: WriteSkill
) -> None:
    """``npx skills add`` leaves one folder in ``.agents/skills`` and a link to it in
    ``.claude/skills``: an agent reading both lists that ``SKILL.md`` once (it was priced
    twice, ``folder`` and ``symlink``). OpenCode keeps one skill a name, the last it scans:
    the home ``~/.config/opencode`` copy of ``web``; Copilot lists its own copy, another file,
    as well."""
    write_skill(project / ".agents" / "skills" / "web", description="Review web designs.")
    (project / ".claude" / "skills").mkdir(parents=True)
    (project / ".claude" / "skills" / "web").symlink_to("../../.agents/skills/web")
    write_skill(home / ".config" / "opencode" / "skills" / "web", description="A copy.")
    write_skill(project / ".github" / "skills" / "web", description="A copy.")

    def listed(agent: str) -> list[tuple[str, str]]:
        (found,) = run_json(cli, "--agent", agent)["budget"]
        assert sum(part["skills"] for part in found["folders"]) == len(found["entries"])
        return [(entry["name"], entry["kind"]) for entry in found["entries"]]

    assert listed("opencode") == [("web", "folder")]
    (opencode,) = run_json(cli, "--agent", "opencode")["budget"]
    assert opencode["entries"][0]["path"] == str(home / ".config" / "opencode" / "skills" / "web")
    assert listed("cursor") == [("web", "folder")]
    assert listed("copilot") == [("web", "folder"), ("web", "folder")]
    assert listed("claude") == [("web", "symlink")]


def test_the_folders_tokens_add_up_to_the_listing_s(
    cli: Callable[..., Run], home: Path, project: Path, write_skill: WriteSkill
) -> None:
    """Each folder's tokens were its characters rounded up on their own: a 16-token listing
    of two folders showed 9 and 8 (and its home folder's entries 7 of those 8). A folder's
    tokens are its entries' shares now, so the entries add up to their folder's and the
    folders to the listing's, in JSON and in the text."""
    (project / ".git").mkdir()
    write_skill(project / ".claude" / "skills" / "ps", description="Project skill. Use when x.")
    write_skill(home / ".claude" / "skills" / "hs", description="Home skill. Use when y.")
    (listing,) = run_json(cli, "--agent", "claude")["budget"]
    shares = [entry["tokens"] for entry in listing["entries"]]
    folders = [part["tokens"] for part in listing["folders"]]
    assert (len(shares), len(folders)) == (2, 2)
    assert folders == shares and sum(folders) == listing["tokens"]
    done = cli("skillc_index")("list", "--budget", "--agent", "claude")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert f"~{listing['tokens']} tokens of" in lines[0]
    assert [line.rpartition("~")[2] for line in lines[1:3]] == [f"{n} tokens" for n in folders]
