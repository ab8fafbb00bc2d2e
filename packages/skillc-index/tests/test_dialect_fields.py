"""What an agent refuses, said and kept from it: Codex's ``metadata.short-description`` limit
(cut by a build, a skill over it not listed), Codex's own user-only marker and Claude Code's
folder-only fields as ``route install`` weighs them per agent folder, a store folder whose
name breaks the name rule, and an ``allowed-tools`` item the space-separated string cannot
hold. Real files; the builds the user runs through the installed ``skillc-index``."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import dialect as dialects
from skillc_index.build.project import project as project_frontmatter
from skillc_index.dialect import AGENT_SKILLS, CODEX, COPILOT
from skillc_index.listing.agents import entry_description
from skillc_index.markdown.frontmatter import parse_frontmatter

from .test_route import agent_skill, names, route_json

#: every warning of a build is checked: an skc on PATH, as where skillc is installed
pytestmark = pytest.mark.usefixtures("skc_on_path")

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSkill = Callable[..., Path]

#: A short description of 1,169 characters, over Codex's limit of 1,024.
LONG_SHORT = " ".join(["Summarises release notes for the team."] * 30)
#: A skill's frontmatter holding it.
LONG_SHORT_SKILL = (
    f'name: sd\ndescription: Does x.\nmetadata:\n  short-description: "{LONG_SHORT}"\n'
)


def frontmatter(path: Path) -> dict[str, Any]:
    data = parse_frontmatter(path.read_text(encoding="utf-8")).data
    assert isinstance(data, dict)
    return data


def warnings(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("warning:")]


# -- metadata.short-description: Codex refuses a skill whose text is over 1,024 characters ----


def test_codex_refuses_a_short_description_over_its_limit_as_it_counts_it() -> None:
    long = {"description": "Does x.", "metadata": {"short-description": "y" * 1025}}
    why = "metadata.short-description is 1,025 characters long (at most 1,024)"
    assert dialects.codex_refusal(long) == why
    assert entry_description("codex", long) is None  # not listed
    assert entry_description("claude", long) == "Does x."  # Claude Code reads no such limit
    # Codex folds the white space before it counts: 1,024 letters and runs of spaces fit
    folded = {"description": "Does x.", "metadata": {"short-description": "y " * 512}}
    assert entry_description("codex", folded) == "Does x."
    # and the name Codex takes: the frontmatter's, else the folder's, at most 64 characters
    assert entry_description("codex", {"description": "Does x.", "name": "n" * 65}) is None
    assert entry_description("codex", {"description": "Does x."}, folder="n" * 65) is None
    assert entry_description("codex", {"description": "Does x."}, folder="n" * 64) == "Does x."


def test_a_projection_cuts_the_short_description_where_codex_reads_it() -> None:
    source = {"name": "sd", "description": "Does x.", "metadata": {"short-description": LONG_SHORT}}
    for dialect in (CODEX, AGENT_SKILLS):
        projection = project_frontmatter(source, dialect, "codex")
        short = projection.frontmatter["metadata"]["short-description"]
        assert len(short) == 1024 and short.endswith("\u2026")
        (change,) = projection.changes
        assert (change.field, change.action) == ("metadata.short-description", "cut")
        assert dialects.codex_refusal(projection.frontmatter) is None
    copilot = project_frontmatter(source, COPILOT, "copilot")  # no such limit: kept whole
    assert copilot.frontmatter["metadata"]["short-description"] == LONG_SHORT
    assert copilot.changes == ()


def test_a_projection_counts_the_short_description_folded_as_codex_does() -> None:
    """Codex folds white space before it counts: 1,037 characters that fold to 753 are
    within its limit, kept as written (no cut, no change); over it even folded, the folded
    text is cut."""
    spaced = "    ".join(["Summarises release notes."] * 29) + " " * 200
    assert len(spaced) > 1024 and len(" ".join(spaced.split())) < 1024
    source = {"name": "sd", "description": "Does x.", "metadata": {"short-description": spaced}}
    projection = project_frontmatter(source, CODEX, "codex")
    assert projection.frontmatter["metadata"]["short-description"] == spaced
    assert projection.changes == ()
    assert dialects.codex_refusal(projection.frontmatter) is None
    long = {**source, "metadata": {"short-description": "  ".join(["y" * 9] * 120)}}
    short = project_frontmatter(long, CODEX, "codex").frontmatter["metadata"]["short-description"]
    assert len(short) == 1024 and "  " not in short and short.endswith("\u2026")


def test_a_build_for_codex_cuts_the_short_description_and_says_so(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    write_skill(
        project / ".skillc" / "skills" / "sd",
        frontmatter=LONG_SHORT_SKILL,
    )
    run = cli("skillc-index", script=True)
    built = run("build", "sd", "-t", "codex")
    assert built.returncode == 0, built.stderr
    assert warnings(built) == [
        "warning: codex (Codex): 'metadata.short-description' cut to 1,024 characters "
        "(the agent's limit)"
    ]
    deployed = frontmatter(project / ".agents" / "skills" / "sd" / "SKILL.md")
    assert len(deployed["metadata"]["short-description"]) == 1024
    listed = run("list", "--budget", "--agent", "codex", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    (folder,) = json.loads(listed.stdout)["budget"]
    assert [entry["name"] for entry in folder["entries"]] == ["sd"]
    assert folder["not_listed"] == 0


def test_the_budget_leaves_out_an_installed_skill_codex_refuses(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    folder = project / ".agents" / "skills"
    write_skill(folder / "fits", description="Does x.")
    write_skill(
        folder / "sd",
        frontmatter=LONG_SHORT_SKILL,
    )
    listed = cli("skillc_index")("list", "--budget", "--agent", "codex", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    (budget,) = json.loads(listed.stdout)["budget"]
    assert [entry["name"] for entry in budget["entries"]] == ["fits"]
    assert (budget["skills"], budget["not_listed"]) == (1, 1)


# -- route install: which agent reads the folder decides what stays ---------------------------


def test_routing_codex_keeps_a_skill_its_side_file_makes_user_only(
    cli: Callable[..., Run], project: Path
) -> None:
    folder = project / ".agents" / "skills"
    release = agent_skill(folder, "release")
    (release / "agents").mkdir()
    (release / "agents" / "openai.yaml").write_text(
        "policy:\n  allow_implicit_invocation: false\n", encoding="utf-8"
    )
    with_model = agent_skill(folder, "withmodel")
    text = (with_model / "SKILL.md").read_text(encoding="utf-8")
    (with_model / "SKILL.md").write_text(text.replace("---\n\n", "model: opus\n---\n\n", 1))
    data = route_json(cli, "install", "-t", "codex")
    left = {skill["name"]: skill["reason"] for skill in data["left"]}
    assert left == {
        "release": "user-only (agents/openai.yaml: policy.allow_implicit_invocation: false): "
        "it stays for the user's $release"
    }
    # Claude Code does not read .agents/skills: a model it would act on there is no reason
    assert names(folder) == ["release", "skill-router"]
    assert names(project / ".skillc" / "skills") == ["withmodel"]
    route_json(cli, "uninstall", "-t", "codex")
    assert names(folder) == ["release", "withmodel"]


def test_routing_claude_still_keeps_its_folder_only_fields_and_ignores_codex_s_marker(
    cli: Callable[..., Run], project: Path
) -> None:
    folder = project / ".claude" / "skills"
    with_model = agent_skill(folder, "withmodel")
    text = (with_model / "SKILL.md").read_text(encoding="utf-8")
    (with_model / "SKILL.md").write_text(text.replace("---\n\n", "model: opus\n---\n\n", 1))
    release = agent_skill(folder, "release")  # Codex's side file: Claude Code does not read it
    (release / "agents").mkdir()
    (release / "agents" / "openai.yaml").write_text(
        "policy:\n  allow_implicit_invocation: false\n", encoding="utf-8"
    )
    data = route_json(cli, "install", "-t", "claude")
    left = {skill["name"]: skill["reason"] for skill in data["left"]}
    assert list(left) == ["withmodel"]
    assert "Claude Code acts on only when it loads the skill" in left["withmodel"]
    assert names(project / ".skillc" / "skills") == ["release"]


def _shared_folder(project: Path) -> Path:
    """``.claude/skills`` a symlink to ``.agents/skills`` (Claude Code and Codex read one
    folder), holding a skill with a model and a hook, one Codex's side file makes user-only
    and a plain one."""
    folder = project / ".agents" / "skills"
    folder.mkdir(parents=True)
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "skills").symlink_to("../.agents/skills")
    guarded = agent_skill(folder, "guarded")
    text = (guarded / "SKILL.md").read_text(encoding="utf-8")
    hook = (
        "model: opus\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n"
        "        - type: command\n          command: ./run.sh\n---\n\n"
    )
    (guarded / "SKILL.md").write_text(text.replace("---\n\n", hook, 1), encoding="utf-8")
    release = agent_skill(folder, "release")
    (release / "agents").mkdir()
    (release / "agents" / "openai.yaml").write_text(
        "policy:\n  allow_implicit_invocation: false\n", encoding="utf-8"
    )
    agent_skill(folder, "plain")
    return folder


def test_routing_codex_in_a_folder_claude_code_reads_too_keeps_its_folder_only_fields(
    cli: Callable[..., Run], project: Path
) -> None:
    """Claude Code reads ``.agents/skills`` through ``.claude/skills``: the skill whose hook
    it runs stays there when Codex's folder is routed, or Claude Code lost the hook."""
    folder = _shared_folder(project)
    data = route_json(cli, "install", "-t", "codex")
    left = {skill["name"]: skill["reason"] for skill in data["left"]}
    assert sorted(left) == ["guarded", "release"]
    assert left["guarded"].startswith("sets model, hooks, which Claude Code acts on only")
    assert names(folder) == ["guarded", "release", "skill-router"]
    assert names(project / ".skillc" / "skills") == ["plain"]
    assert "hooks:" in (folder / "guarded" / "SKILL.md").read_text(encoding="utf-8")


def test_routing_claude_in_a_folder_codex_reads_too_keeps_codex_s_user_only_skill(
    cli: Callable[..., Run], project: Path
) -> None:
    """The reverse: ``.claude/skills`` is Codex's folder too, so Codex's own user-only marker
    keeps the skill there for the user's ``$release``."""
    folder = _shared_folder(project)
    data = route_json(cli, "install", "-t", "claude")
    left = {skill["name"]: skill["reason"] for skill in data["left"]}
    assert sorted(left) == ["guarded", "release"]
    assert left["release"].startswith("user-only (agents/openai.yaml")
    assert names(project / ".skillc" / "skills") == ["plain"]
    assert names(folder) == ["guarded", "release", "skill-router"]


# -- a store folder whose name breaks the name rule -------------------------------------------


def test_a_store_folder_breaking_the_name_rule_is_deployed_with_a_warning_per_target(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc" / "skills" / "Release_Notes", description="Does x.")
    long = "a" * 70
    write_skill(project / ".skillc" / "skills" / long, description="Does y.")
    run = cli("skillc-index", script=True)
    built = run("build", "Release_Notes", "-t", "codex,opencode,claude")
    assert built.returncode == 0, built.stderr
    said = [line for line in warnings(built) if "name rule" in line]  # not read_twice's
    assert [line.split(":")[1].strip() for line in said] == ["codex (Codex)", "opencode (OpenCode)"]
    for line in said:
        assert "the folder name 'Release_Notes' breaks the Agent Skills name rule" in line
        assert "skills-ref refuses the skill" in line
    for agent_folder in (".agents", ".opencode", ".claude"):  # deployed all the same
        assert (project / agent_folder / "skills" / "Release_Notes" / "SKILL.md").is_file()
    built = run("build", long, "-t", "codex")
    assert built.returncode == 0, built.stderr
    (line,) = warnings(built)
    assert line.startswith("warning: codex (Codex): Codex refuses the skill (a name over 64")
    assert "(this one has 70)" in line


# -- allowed-tools: an item the space-separated string cannot hold ----------------------------


def test_an_allowed_tools_item_with_a_space_is_named_when_written_as_a_string(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    source = {"name": "at", "description": "Stages.", "allowed-tools": ["Bash(git add:*)", "Read"]}
    (change,) = project_frontmatter(source, COPILOT, "copilot").changes
    assert "'Bash(git add:*)'" in change.detail and "'Read'" not in change.detail
    plain = {**source, "allowed-tools": ["Bash(git:*)", "Read"]}
    (change,) = project_frontmatter(plain, COPILOT, "copilot").changes
    assert change.detail == "written as a space-separated string"
    write_skill(
        project / ".skillc" / "skills" / "at",
        frontmatter="name: at\ndescription: Stages.\nallowed-tools: [Bash(git add:*), Read]\n",
    )
    built = cli("skillc-index", script=True)("build", "at", "-t", "copilot")
    assert built.returncode == 0, built.stderr
    assert warnings(built) == [
        "warning: copilot (GitHub Copilot): 'allowed-tools' written as a space-separated "
        "string, which cannot hold 'Bash(git add:*)' faithfully (an item with white space "
        "in it or empty: a reader splits the string at white space)"
    ]
    deployed = frontmatter(project / ".github" / "skills" / "at" / "SKILL.md")
    assert deployed["allowed-tools"] == "Bash(git add:*) Read"
