"""``skc build --target X`` writes what X reads (issue 37): Claude Code's superset for
``.claude/skills``, the standard fields and a generated ``agents/openai.yaml`` for Codex and the
shared ``.agents/skills``, each change reported once; on real folders."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillc_index import manifest_path
from skillc_index.build.project import project
from skillc_index.build.skill import BuildResult
from skillc_index.command_errors import FolderNotWritable, ForeignFolder
from skillc_index.diagnostics import Notice
from skillc_index.dialect import AGENT_SKILLS, CODEX, SHARED_FOLDER_FIELDS, STANDARD_FIELDS
from skillc_index.markdown.frontmatter import parse_frontmatter

CLAUDE_SKILL = """---
name: deploy-app
description: Deploy the application to production.
when_to_use: When the user asks to ship, release or deploy.
argument-hint: "[environment]"
disable-model-invocation: true
user-invocable: true
paths: ["src/**", "deploy/*.yaml"]
version: 1.2
---

# Deploy

## Steps

Run the deploy script.
"""


@pytest.fixture
def skill(project: Path) -> Path:
    folder = project / ".skillc" / "skills" / "deploy-app"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(CLAUDE_SKILL, encoding="utf-8")
    return folder


def frontmatter(path: Path) -> dict[str, Any]:
    data = parse_frontmatter(path.read_text(encoding="utf-8")).data
    assert isinstance(data, dict)
    return data


def fields(result: BuildResult) -> dict[tuple[str, str], str]:
    return {(change.target, change.field): change.action for change in result.fields}


def test_claude_gets_every_field_and_nothing_is_reported(
    build: Callable[..., BuildResult], skill: Path, project: Path
) -> None:
    result = build("deploy-app", targets=["claude"])
    deployed = project / ".claude" / "skills" / "deploy-app"
    assert deployed.is_symlink()
    front = frontmatter(deployed / "SKILL.md")
    assert front["disable-model-invocation"] is True
    assert front["when_to_use"].startswith("When the user")
    assert front["argument-hint"] == "[environment]"
    assert front["paths"] == ["src/**", "deploy/*.yaml"]
    assert result.fields == ()


@pytest.mark.parametrize("target", ["codex", "agents"])
def test_codex_and_the_shared_folder_keep_the_intent_they_can_express(
    build: Callable[..., BuildResult], skill: Path, project: Path, target: str
) -> None:
    result = build("deploy-app", targets=[target])
    deployed = project / ".agents" / "skills" / "deploy-app"
    assert deployed.is_dir() and not deployed.is_symlink()
    front = frontmatter(deployed / "SKILL.md")
    # Cursor and Copilot read .agents/skills too: what they act on is kept (a user-only
    # skill stays user-only there), nothing else outside the standard
    assert set(front) - STANDARD_FIELDS == SHARED_FOLDER_FIELDS
    assert front["disable-model-invocation"] is True and front["user-invocable"] is True
    assert front["argument-hint"] == "[environment]"
    # when_to_use folded into the description; version kept under metadata
    assert front["description"] == (
        "Deploy the application to production. When the user asks to ship, release or deploy."
    )
    assert front["metadata"] == {"version": "1.2"}
    # disable-model-invocation: Codex's side file says the model may not invoke it
    side = yaml.safe_load((deployed / "agents" / "openai.yaml").read_text(encoding="utf-8"))
    assert side == {"policy": {"allow_implicit_invocation": False}}
    # the body is the stub's: the skill is still served by skillc
    assert "skc outline deploy-app" in (deployed / "SKILL.md").read_text(encoding="utf-8")
    assert fields(result) == {
        (target, "when_to_use"): "folded",
        (target, "disable-model-invocation"): "side-file",
        (target, "paths"): "dropped",
        (target, "version"): "moved",
    }


def test_a_number_becoming_a_string_keeps_its_source_text(
    build: Callable[..., BuildResult], project: Path, write_skill: Callable[..., Path]
) -> None:
    """``1.10`` is written '1.10' (it was '1.1', the float's text), ``0o17`` '0o17', ``True``
    'True', where a target writes them as strings; Claude Code's stub keeps the number."""
    write_skill(
        project / ".skillc" / "skills" / "ver",
        frontmatter="name: ver\ndescription: Versioned.\nauthor: 0o17\n"
        "metadata:\n  version: 1.10\n  beta: True\n",
    )
    result = build("ver", targets=["codex", "claude"])
    front = frontmatter(project / ".agents" / "skills" / "ver" / "SKILL.md")
    assert front["metadata"] == {"version": "1.10", "beta": "True", "author": "0o17"}
    details = {change.field: change.detail for change in result.fields}
    assert details["metadata.version"] == "written as the string '1.10'"
    claude = frontmatter(project / ".claude" / "skills" / "ver" / "SKILL.md")
    assert claude["metadata"] == {"version": 1.1, "beta": True}


@pytest.mark.parametrize(
    "metadata",
    ["\n  1: one\n  true: yes-key\n  null: nothing\n", " {1: one, true: yes-key, null: nothing}\n"],
    ids=["block", "flow"],
)
def test_metadata_keys_a_number_true_and_null_stay_three_keys(
    build: Callable[..., BuildResult],
    project: Path,
    write_skill: Callable[..., Path],
    metadata: str,
) -> None:
    """``metadata: {1: one, true: yes-key, null: nothing}`` was ``{1: yes-key, None:
    nothing}`` to the reader (Python's ``True == 1``: one key, ``1: one`` lost) and every copy
    wrote ``1: yes-key`` (a rewritten one the null key as ``None``): a plain key is read as
    its text, as an agent keys an object, and each copy keeps the three."""
    write_skill(
        project / ".skillc" / "skills" / "mk",
        frontmatter=f"name: mk\ndescription: Keys.\nmetadata:{metadata}",
    )
    build("mk", targets=["codex", "claude", "gemini"])
    every = {"1": "one", "true": "yes-key", "null": "nothing"}
    for folder in (".agents", ".claude", ".gemini"):
        deployed = project / folder / "skills" / "mk" / "SKILL.md"
        assert frontmatter(deployed)["metadata"] == every, folder
        assert "None" not in deployed.read_text(encoding="utf-8"), folder


def test_a_metadata_left_empty_is_left_out_of_a_copy(
    build: Callable[..., BuildResult], project: Path, write_skill: Callable[..., Path]
) -> None:
    """``metadata: {nested: {a: b}}`` loses its one value in the specification's folder; the
    copy then has no ``metadata`` (``metadata: {}`` is a flow mapping skills-ref refuses)."""
    write_skill(
        project / ".skillc" / "skills" / "mx",
        frontmatter="name: mx\ndescription: Meta.\nmetadata:\n  nested:\n    a: b\n",
    )
    result = build("mx", targets=["codex", "claude"])
    text = (project / ".agents" / "skills" / "mx" / "SKILL.md").read_text(encoding="utf-8")
    assert "metadata" not in text
    assert fields(result)[("codex", "metadata")] == "dropped"
    claude = frontmatter(project / ".claude" / "skills" / "mx" / "SKILL.md")
    assert claude["metadata"] == {"nested": {"a": "b"}}


def test_each_change_is_reported_once_in_text_and_json(
    cli: Callable[..., Any], skill: Path, project: Path
) -> None:
    run = cli("skillc_index")
    text = run("build", "deploy-app", "-t", "claude,codex,agents,copilot")
    assert text.returncode == 0, text.stderr
    warnings = [line for line in text.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == len(set(warnings))
    # codex and agents share .agents/skills: that folder is written (and reported) once
    assert "warning: codex (Codex): 'paths' dropped (not read)" in warnings
    assert not [line for line in warnings if line.startswith("warning: agents")]
    assert not [line for line in warnings if line.startswith("warning: claude")]
    # Copilot reads argument-hint and disable-model-invocation: only paths, version and
    # when_to_use change there
    copilot = {
        line.split("'")[1]
        for line in warnings
        if line.startswith("warning: copilot (GitHub Copilot): '")
    }
    assert copilot == {"paths", "version", "when_to_use"}
    data = json.loads(run("build", "deploy-app", "-t", "codex", "--format", "json").stdout)
    assert {(item["agent"], item["field"], item["action"]) for item in data["fields"]} == {
        ("Codex", "when_to_use", "folded"),
        ("Codex", "disable-model-invocation", "side-file"),
        ("Codex", "paths", "dropped"),
        ("Codex", "version", "moved"),
    }
    assert data["deployments"][0]["action"] == "unchanged"


def test_a_standard_skill_is_still_a_symlink_everywhere(
    build: Callable[..., BuildResult], write_skill: Callable[..., Path], project: Path
) -> None:
    write_skill(project / ".skillc" / "skills" / "plain")
    result = build("plain", targets=["claude", "codex", "cursor"])
    assert result.fields == ()
    assert {deployment.method for deployment in result.deployments} == {"symlink"}


def test_an_edited_target_copy_is_not_replaced_without_force(
    build: Callable[..., BuildResult], skill: Path, project: Path
) -> None:
    build("deploy-app", targets=["codex"])
    side = project / ".agents" / "skills" / "deploy-app" / "agents" / "openai.yaml"
    side.write_text("policy:\n  allow_implicit_invocation: true\n", encoding="utf-8")
    with pytest.raises(ForeignFolder):
        build("deploy-app", targets=["codex"])
    assert "true" in side.read_text(encoding="utf-8")
    (side.parent / "notes.txt").write_text("mine", encoding="utf-8")
    side.write_text(
        "# Written by skillc (skc build): the skill's own, with SKILL.md's frontmatter.\n"
        "policy:\n  allow_implicit_invocation: false\n",
        encoding="utf-8",
    )
    with pytest.raises(ForeignFolder):  # a file skillc did not write is there
        build("deploy-app", targets=["codex"])


def test_a_build_refreshes_the_copies_made_before_in_other_targets(
    build: Callable[..., BuildResult], skill: Path, write_skill: Callable[..., Path], project: Path
) -> None:
    """A copy in a target the build does not name (``--copy`` to Codex, and Codex's own stub
    and side file) is refreshed by ``skc build`` (default target claude): it kept the old
    description and sections while ``list`` said ``normal``. No deployment is created where
    there was none, and a copy the user edited (no longer skillc's) or one of another
    source of that name is left as it is."""
    plain = write_skill(project / ".skillc" / "skills" / "plain", body="## Old Section\n")
    build("plain", targets=["claude", "codex", "cursor"], copy=True)
    build("deploy-app", targets=["codex"])
    codex = project / ".agents" / "skills"
    other = manifest_path(project / ".cursor" / "skills" / "plain")  # another project's copy
    data = json.loads(other.read_text(encoding="utf-8"))
    other.write_text(json.dumps(data | {"source_path": "/elsewhere/plain"}), encoding="utf-8")
    (codex / "deploy-app" / "notes.md").write_text("mine\n", encoding="utf-8")  # the user's
    for folder, old, new in ((plain, "Old Section", "New Section"), (skill, "Steps", "Run")):
        text = (folder / "SKILL.md").read_text(encoding="utf-8")
        (folder / "SKILL.md").write_text(text.replace(old, new), encoding="utf-8")
    result = build("plain")
    assert {(d.target, d.method, d.action) for d in result.deployments} == {
        ("claude", "copy", "replaced"),
        ("codex", "copy", "replaced"),  # the target its manifest records
    }
    assert "- New Section" in (codex / "plain" / "SKILL.md").read_text(encoding="utf-8")
    assert "Old Section" in (other.parent.parent / "SKILL.md").read_text(encoding="utf-8")
    assert not (project / ".github").exists()
    edited = build("deploy-app")
    assert [d.target for d in edited.deployments] == ["claude"]
    assert "- Steps" in (codex / "deploy-app" / "SKILL.md").read_text(encoding="utf-8")
    (codex / "deploy-app" / "notes.md").unlink()  # skillc's again: refreshed, its own stub
    build("deploy-app")
    refreshed = codex / "deploy-app"
    assert "- Run" in (refreshed / "SKILL.md").read_text(encoding="utf-8")
    assert "when_to_use" not in frontmatter(refreshed / "SKILL.md")
    assert (refreshed / "agents" / "openai.yaml").is_file()


PLAIN = """---
name: plain
description: Plain skill. Use when testing plain.
---

# Plain

body
"""


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
@pytest.mark.usefixtures("skc_on_path")
def test_a_rebuild_turns_the_links_a_dialect_now_changes_into_copies_and_back(
    cli: Callable[..., Any], project: Path
) -> None:
    """A skill of standard fields deployed ``-t claude,codex,gemini`` (links everywhere),
    then given a 1,169-character description with ``<tables>``, ``disable-model-invocation``
    and ``when_to_use``: ``skillc-index build plain`` printed ``claude (symlink, unchanged)``
    alone, and Codex kept reading Claude Code's frontmatter through its link (a description
    it refuses, the model free to start a user-only skill) until ``build --all``. A build
    plans every link to the runtime again, as ``--all`` does: a copy where the target's
    dialect changes anything, a link again once it changes nothing."""
    source = project / ".skillc" / "skills" / "plain"
    source.mkdir()
    (source / "SKILL.md").write_text(PLAIN, encoding="utf-8")
    run = cli("skillc-index", script=True)  # the installed command
    made = run("build", "plain", "-t", "claude,codex,gemini")
    assert made.returncode == 0, made.stderr
    agents, gemini = project / ".agents/skills/plain", project / ".gemini/skills/plain"
    assert agents.is_symlink() and gemini.is_symlink()
    long = " ".join(["Plain skill for <tables>."] * 45)
    (source / "SKILL.md").write_text(
        PLAIN.replace(
            "description: Plain skill. Use when testing plain.",
            f'description: {long}\ndisable-model-invocation: true\nwhen_to_use: say "plain it"',
        ),
        encoding="utf-8",
    )
    done = run("build", "plain")
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stdout.splitlines() if line.startswith("Deploy:")] == [
        "Deploy:  claude -> .claude/skills/plain (symlink, unchanged)",
        "Deploy:  agents -> .agents/skills/plain (copy)",
        "Deploy:  gemini -> .gemini/skills/plain (copy)",
    ]
    assert (project / ".claude/skills/plain").is_symlink()
    assert not agents.is_symlink() and not gemini.is_symlink()
    codex = frontmatter(agents / "SKILL.md")  # what Codex reads: its own dialect's
    assert "when_to_use" not in codex and "<" not in codex["description"]
    assert len(codex["description"]) <= 1024
    side = yaml.safe_load((agents / "agents/openai.yaml").read_text(encoding="utf-8"))
    assert side["policy"]["allow_implicit_invocation"] is False
    assert "when_to_use" not in frontmatter(gemini / "SKILL.md")
    assert (
        "warning: gemini (Gemini CLI): 'disable-model-invocation' dropped (not read; the model "
        "may invoke the skill there)"
    ) in done.stderr.splitlines()
    (source / "SKILL.md").write_text(PLAIN, encoding="utf-8")  # standard fields again
    back = run("build", "plain")
    assert back.returncode == 0, back.stderr
    assert agents.is_symlink() and gemini.is_symlink()
    assert not (project / ".agents/skills/plain/agents").exists()
    again = run("build", "plain")
    assert "Deploy:  gemini -> .gemini/skills/plain (symlink, unchanged)" in again.stdout


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_link_git_tracks_that_would_become_a_copy_is_a_warning(
    build: Callable[..., BuildResult], project: Path
) -> None:
    """A committed link to the runtime (the project's source) that a target's dialect now
    needs as a copy is left as it is, and said to be: the build was not asked to deploy
    there, so it goes on (E050 is for the targets named)."""
    import subprocess

    subprocess.run(["git", "-C", str(project), "init", "-q"], check=True, capture_output=True)
    source = project / ".skillc" / "skills" / "plain"
    source.mkdir()
    (source / "SKILL.md").write_text(PLAIN, encoding="utf-8")
    build("plain", targets=["claude", "gemini"])
    subprocess.run(["git", "-C", str(project), "add", "-f", ".gemini"], check=True)
    _edit(source, "---\n\n", "when_to_use: say it\n---\n\n")
    result = build("plain")
    assert [d.target for d in result.deployments] == ["claude"]
    assert "link .gemini/skills/plain not refreshed: error[E050]: skill 'plain' already exists" in [
        getattr(n, "text", "") for n in result.notices
    ]
    assert (project / ".gemini/skills/plain").is_symlink()


@pytest.mark.usefixtures("skc_on_path")  # every warning of the build is checked
def test_a_copy_edited_since_is_left_out_of_date_with_a_warning(
    build: Callable[..., BuildResult], project: Path
) -> None:
    """A Copilot copy someone appended a note to: the next build refreshed Claude Code's
    and Cursor's, left Copilot's on the older build and said nothing (``warnings: []``). It
    is still never overwritten without consent, and each build that leaves it out of date
    says so and how to take the new build (``--target copilot --force`` moves it aside)."""
    source = project / ".skillc" / "skills" / "rv"
    source.mkdir()
    text = PLAIN.replace("name: plain", "name: rv").replace("Plain skill.", "Review v1.")
    (source / "SKILL.md").write_text(
        text.replace("---\n\n", 'argument-hint: "[pr]"\nmodel: sonnet\n---\n\n', 1),
        encoding="utf-8",
    )
    build("rv", targets=["claude", "copilot", "cursor"])
    copilot = project / ".github/skills/rv/SKILL.md"
    assert build("rv").notices == ()  # edited nowhere: nothing said
    with copilot.open("a", encoding="utf-8") as out:
        out.write("<!-- team note -->\n")
    assert build("rv").notices == ()  # it holds this build still: nothing to refresh
    _edit(source, "Review v1.", "Review v2.")
    warning = (
        "copy .github/skills/rv not refreshed: edited since skillc wrote it (left as it is: its "
        "agent reads the older build); run skc build rv --target copilot --force to move it "
        "aside and deploy the new build"
    )
    for _ in range(2):  # said on each build that leaves it behind
        result = build("rv")
        assert [d.target for d in result.deployments] == ["claude", "cursor"]
        assert [n.text for n in result.notices if isinstance(n, Notice)] == [warning]
        assert "Review v1." in copilot.read_text(encoding="utf-8")
        assert "team note" in copilot.read_text(encoding="utf-8")
    assert "Review v2." in (project / ".cursor/skills/rv/SKILL.md").read_text(encoding="utf-8")
    forced = build("rv", targets=["copilot"], force=True)
    assert "Review v2." in copilot.read_text(encoding="utf-8")
    (backup,) = (project / ".github/skills").glob(".rv.skillc-backup-*")
    assert "team note" in (backup / "SKILL.md").read_text(encoding="utf-8")  # nothing deleted
    assert any("aside" in getattr(n, "text", "") for n in forced.notices)
    assert build("rv").notices == ()


@pytest.mark.usefixtures("skc_on_path")  # every warning of the build is checked
def test_the_edited_copy_hint_of_a_global_build_is_the_command_that_takes_the_new_build(
    cli: Callable[..., Any], project: Path, home: Path
) -> None:
    """A global build's edited Codex copy (``~/.agents/skills``) said "build with --target
    codex --force", without ``--global``: followed, it built the project's skill into the
    project's ``.agents/skills`` and left the home's copy on the older build. The hint is now
    the whole command, as the program running spells it, and running it takes the new build
    there (the edited copy moved aside)."""
    import shlex

    source = project / ".skillc" / "skills" / "rv"
    source.mkdir()
    (source / "SKILL.md").write_text(
        PLAIN.replace("name: plain", "name: rv").replace("Plain skill.", "Review v1."),
        encoding="utf-8",
    )
    run = cli("skillc-index", script=True)  # the installed command
    made = run("build", "rv", "--global", "--copy", "-t", "codex")
    assert made.returncode == 0, made.stderr
    copy = home / ".agents" / "skills" / "rv" / "SKILL.md"
    with copy.open("a", encoding="utf-8") as out:
        out.write("<!-- team note -->\n")
    _edit(source, "Review v1.", "Review v2.")
    done = run("build", "rv", "--global")
    assert done.returncode == 0, done.stderr
    command = "skillc-index build rv --global --target codex --force"
    assert done.stderr.splitlines() == [
        "warning: copy ~/.agents/skills/rv not refreshed: edited since skillc wrote it (left as "
        f"it is: its agent reads the older build); run {command} to move it aside and deploy "
        "the new build"
    ]
    assert "Review v1." in copy.read_text(encoding="utf-8")
    followed = run(*shlex.split(command)[1:])
    assert followed.returncode == 0, followed.stderr
    assert "Review v2." in copy.read_text(encoding="utf-8")
    assert not (project / ".agents").exists()  # the project's folders untouched
    (backup,) = (home / ".agents" / "skills").glob(".rv.skillc-backup-*")
    assert "team note" in (backup / "SKILL.md").read_text(encoding="utf-8")


def test_a_moved_project_still_refreshes_and_lists_its_copies(
    skill: Path, project: Path, tmp_path: Path, env: dict[str, str]
) -> None:
    """``build --copy -t claude,cursor``, then ``mv proj proj2``: each copy records the old
    path as its ``source_path``, so the next ``skc build`` left the cursor copy out of date
    and ``list`` said ``normal``. A copy whose recorded store skill of that name is gone is
    this scope's skill's; one of another project's skill, still there, is not."""
    from skillc_index import Layout
    from skillc_index.build.skill import build_skill
    from skillc_index.listing.skills import list_skills

    build_skill(
        "deploy-app", Layout.discover(project, env), targets=["claude", "cursor"], copy=True
    )
    other = tmp_path / "other/.skillc/skills/deploy-app"  # another project's, still there
    other.mkdir(parents=True)
    (other / "SKILL.md").write_text(CLAUDE_SKILL, encoding="utf-8")
    theirs = project / ".agents/skills/deploy-app"  # a copy of that project's skill
    theirs.parent.mkdir(parents=True)
    (project / ".cursor/skills/deploy-app").rename(theirs)
    data = json.loads(manifest_path(theirs).read_text(encoding="utf-8"))
    manifest_path(theirs).write_text(json.dumps(data | {"source_path": str(other)}), "utf-8")
    build_skill(
        "deploy-app", Layout.discover(project, env), targets=["claude", "cursor"], copy=True
    )
    moved = project.rename(tmp_path / "moved")
    layout = Layout.discover(moved, env)
    assert list_skills(layout).skills[0].status == "normal"
    older = manifest_path(moved / ".cursor/skills/deploy-app")  # a build this one is not
    older.write_text(older.read_text("utf-8").replace('"built_at": "', '"built_at": "1'), "utf-8")
    assert list_skills(layout).skills[0].status == "stale"
    _edit(moved / ".skillc/skills/deploy-app", "Steps", "Run")
    result = build_skill("deploy-app", layout)
    assert {(d.target, d.action) for d in result.deployments} == {
        ("claude", "replaced"),
        ("cursor", "replaced"),
    }
    assert "- Run" in (moved / ".cursor/skills/deploy-app/SKILL.md").read_text(encoding="utf-8")
    assert "- Run" not in (moved / ".agents/skills/deploy-app/SKILL.md").read_text(
        "utf-8"
    )  # theirs
    assert list_skills(layout).skills[0].status == "normal"


def _edit(skill: Path, old: str, new: str) -> None:
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    (skill / "SKILL.md").write_text(text.replace(old, new), encoding="utf-8")


def _forget_target(copy: Path) -> None:
    """The copy's manifest as a build wrote it before it recorded the copy's target."""
    path = manifest_path(copy)
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({k: v for k, v in data.items() if k != "target"}), encoding="utf-8")


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_copy_in_a_shared_folder_is_refreshed_for_the_target_it_was_made_for(
    build: Callable[..., BuildResult], skill: Path, project: Path
) -> None:
    """``.claude/skills`` a symlink to ``.agents/skills`` (a common setup): a copy made by
    ``-t claude --copy`` was refreshed by a later ``-t cursor`` build as ``agents``, the first
    target of that folder, and Claude Code lost ``when_to_use``, ``paths``... without a
    warning. The copy's manifest records its target, and a refresh keeps it; a later
    ``-t codex`` build keeps it Claude Code's too (Codex reads that folder: it ignores the
    fields it does not read), now recorded for Codex as well."""
    (project / ".agents" / "skills").mkdir(parents=True)
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to("../.agents/skills")
    copy = project / ".claude" / "skills" / "deploy-app"
    build("deploy-app", targets=["claude"], copy=True)
    assert json.loads(manifest_path(copy).read_text(encoding="utf-8"))["target"] == "claude"
    _edit(skill, "## Steps", "## Ship")
    result = build("deploy-app", targets=["cursor"])
    assert ("claude", "copy", "replaced") in {
        (d.target, d.method, d.action) for d in result.deployments
    }
    front = frontmatter(copy / "SKILL.md")
    assert front["paths"] == ["src/**", "deploy/*.yaml"] and "when_to_use" in front
    assert "- Ship" in (copy / "SKILL.md").read_text(encoding="utf-8")
    assert {change.target for change in result.fields} == {"cursor"}
    build("deploy-app", targets=["codex"])  # the copy's target joins the folder's
    _edit(skill, "## Ship", "## Release")
    result = build("deploy-app", targets=["cursor"])
    assert ("claude", "copy", "replaced") in {
        (d.target, d.method, d.action) for d in result.deployments
    }
    manifest = json.loads(manifest_path(copy).read_text(encoding="utf-8"))
    assert (manifest["target"], manifest["shared"]) == ("claude", ["codex"])
    assert "- Release" in (copy / "SKILL.md").read_text(encoding="utf-8")
    assert frontmatter(copy / "SKILL.md")["paths"] == ["src/**", "deploy/*.yaml"]


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_an_older_copy_in_a_shared_folder_keeps_the_most_fields_and_says_what_it_drops(
    build: Callable[..., BuildResult], skill: Path, project: Path
) -> None:
    """A copy whose manifest records no target (an older skillc's) in a folder several
    targets share is refreshed as the one of them that keeps the most fields, Claude Code's
    first; what that target drops is a warning, as for a target the build was given."""
    (project / ".agents" / "skills").mkdir(parents=True)
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to("../.agents/skills")
    copy = project / ".claude" / "skills" / "deploy-app"
    build("deploy-app", targets=["claude"], copy=True)
    _forget_target(copy)
    _edit(skill, "## Steps", "## Ship")
    result = build("deploy-app", targets=["cursor"])
    assert ("claude", "copy", "replaced") in {
        (d.target, d.method, d.action) for d in result.deployments
    }
    assert frontmatter(copy / "SKILL.md")["paths"] == ["src/**", "deploy/*.yaml"]
    assert {change.target for change in result.fields} == {"cursor"}
    (project / ".claude" / "skills").unlink()  # now .agents/skills is agents' and codex's
    build("deploy-app", targets=["codex"])
    _forget_target(project / ".agents" / "skills" / "deploy-app")
    _edit(skill, "## Ship", "## Release")
    result = build("deploy-app", targets=["claude"])
    assert ("agents", "copy", "replaced") in {
        (d.target, d.method, d.action) for d in result.deployments
    }
    assert fields(result)[("agents", "paths")] == "dropped"


@pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")
def test_a_copy_folder_that_cannot_be_written_is_found_before_anything_is_written(
    build: Callable[..., BuildResult],
    skill: Path,
    project: Path,
    forbid_changes: Callable[[Path], Callable[[], object]],
) -> None:
    """A copy that cannot be emptied (read-only, another owner's): refreshed, a warning and
    the build goes on; named as a target, E999 before the runtime changes. It was a raw
    PermissionError after the runtime and the other copies were written."""
    build("deploy-app", targets=["claude", "codex"], copy=True)
    codex = project / ".agents" / "skills" / "deploy-app"
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    (skill / "SKILL.md").write_text(text.replace("## Steps", "## Ship"), encoding="utf-8")
    undo = forbid_changes(codex)
    try:
        refreshed = build("deploy-app", targets=["claude"])
        (skill / "SKILL.md").write_text(text.replace("## Steps", "## Release"))
        with pytest.raises(FolderNotWritable) as refused:  # named: before any write
            build("deploy-app", targets=["codex"])
    finally:
        undo()
    assert [d.target for d in refreshed.deployments] == ["claude"]
    assert any(
        getattr(notice, "text", "").startswith("copy .agents/skills/deploy-app not refreshed: ")
        for notice in refreshed.notices
    )
    assert refused.value.path == ".agents/skills/deploy-app"
    runtime = (refreshed.skill.runtime / "SKILL.md").read_text(encoding="utf-8")
    assert "- Ship" in runtime and "Release" not in runtime
    claude = project / ".claude" / "skills" / "deploy-app" / "SKILL.md"
    assert "- Ship" in claude.read_text(encoding="utf-8")
    assert "- Steps" in (codex / "SKILL.md").read_text(encoding="utf-8")


def test_the_source_side_file_is_extended_not_replaced(
    build: Callable[..., BuildResult], skill: Path, project: Path
) -> None:
    (skill / "agents").mkdir()
    (skill / "agents" / "openai.yaml").write_text(
        "interface:\n  display_name: Deploy App\n", encoding="utf-8"
    )
    build("deploy-app", targets=["codex"])
    side = project / ".agents" / "skills" / "deploy-app" / "agents" / "openai.yaml"
    assert yaml.safe_load(side.read_text(encoding="utf-8")) == {
        "interface": {"display_name": "Deploy App"},
        "policy": {"allow_implicit_invocation": False},
    }


def test_the_source_side_file_goes_with_the_stub_when_nothing_extends_it(
    build: Callable[..., BuildResult], skill: Path, project: Path
) -> None:
    """A skill with its own ``agents/openai.yaml`` and nothing in its frontmatter for it:
    the deployment was a link to the runtime, which holds the stub alone, so Codex read
    neither the author's interface nor their policy (``allow_implicit_invocation: false``
    lost: the model could invoke the skill). It is deployed with the stub now."""
    text = skill / "SKILL.md"
    text.write_text(text.read_text().replace("disable-model-invocation: true\n", ""))
    (skill / "agents").mkdir()
    own = {
        "interface": {"display_name": "Deploy App", "short_description": "Ships it"},
        "policy": {"allow_implicit_invocation": False},
    }
    (skill / "agents" / "openai.yaml").write_text(yaml.safe_dump(own), encoding="utf-8")
    build("deploy-app", targets=["codex"])
    side = project / ".agents" / "skills" / "deploy-app" / "agents" / "openai.yaml"
    assert yaml.safe_load(side.read_text(encoding="utf-8")) == own


@pytest.mark.parametrize(
    "text",
    [
        "policy: !!bool maybe\n",
        "x: " + "[" * 30_000 + "]" * 30_000 + "\n",
        "s: &s " + "x" * 30_000 + "\nl: [" + ", ".join(["*s"] * 300) + "]\n",
    ],
    ids=["unbuildable-tag", "deep", "aliases"],
)
def test_a_side_file_past_the_frontmatter_bounds_is_left_out(
    build: Callable[..., BuildResult], skill: Path, project: Path, text: str
) -> None:
    """``agents/openai.yaml`` was read with no bounds: a tag PyYAML cannot build or deep
    nesting failed the build (E999; ``list --budget`` too, for another's installed skill),
    and 31 KB of aliases of one string was written out as 9 MB. It is read within the
    frontmatter's bounds now, and left out as a side file that is no YAML is."""
    from skillc_index.build.project import side_sources

    (skill / "agents").mkdir()
    (skill / "agents" / "openai.yaml").write_text(text, encoding="utf-8")
    assert side_sources(skill) == {}
    build("deploy-app", targets=["codex"])
    side = project / ".agents" / "skills" / "deploy-app" / "agents" / "openai.yaml"
    assert yaml.safe_load(side.read_text(encoding="utf-8")) == {
        "policy": {"allow_implicit_invocation": False}
    }


def test_the_folded_description_stays_within_the_limit() -> None:
    source = {"name": "x", "description": "d" * 1000, "when_to_use": "w" * 100}
    projected = project(source, CODEX, "codex")
    description = projected.frontmatter["description"]
    assert len(description) == 1024 and description.endswith("…")
    assert [change.detail for change in projected.changes] == [
        "folded into the description, cut to 1,024 characters"
    ]


def test_a_text_over_its_limit_by_its_white_space_alone_loses_that_not_a_letter() -> None:
    """A description or compatibility note written as a ``|`` block keeps a final line break,
    which the limits count (every validator does): 1,024 letters and that break were cut to
    1,023 letters and an ellipsis. The break is dropped now and every letter kept; a text
    over the limit without it is cut, with the ellipsis in the limit."""
    from skillc_index.dialect import GEMINI

    letters = "d" * 1023 + "e"
    source = {"name": "x", "description": letters + "\n", "compatibility": "c" * 500 + "\n"}
    projected = project(source, GEMINI, "gemini")
    assert projected.frontmatter["description"] == letters
    assert projected.frontmatter["compatibility"] == "c" * 500
    assert [change.text for change in projected.changes] == [
        "gemini (Gemini CLI): 'description' the white space around it dropped (the agent's "
        "limit of 1,024 characters counts it)",
        "gemini (Gemini CLI): 'compatibility' the white space around it dropped (the "
        "specification's limit of 500 characters counts it)",
    ]
    over = project({**source, "compatibility": "c" * 501 + "\n"}, GEMINI, "gemini")
    assert over.frontmatter["compatibility"] == "c" * 499 + "\u2026"
    assert over.changes[-1].detail == "cut to 500 characters (the specification's limit)"


def test_a_standard_field_of_another_type_is_dropped_where_clients_check_it() -> None:
    """``metadata: just a string`` or ``license: 3`` went out as they were to
    ``.agents/skills`` and in packages (a plugin's skills): a conformant client skips such a
    skill (skillc's own lint says SKL502). They are dropped and reported; Claude Code's
    folder, which reads the superset as it is, keeps them."""
    from skillc_index.dialect import CLAUDE_CODE, PLUGINS

    source = {"name": "x", "description": "d", "metadata": "a string", "license": 3}
    for dialect in (AGENT_SKILLS, CODEX, PLUGINS):
        projected = project(source, dialect, "t")
        assert projected.frontmatter == {"name": "x", "description": "d"}
        assert [(c.field, c.action) for c in projected.changes] == [
            ("metadata", "dropped"),
            ("license", "dropped"),
        ]
    assert project(source, CLAUDE_CODE, "claude").frontmatter == source


def test_standard_values_are_written_as_the_specification_says() -> None:
    source = {
        "name": "x",
        "description": "d",
        "allowed-tools": ["Bash(git:*)", "Read"],
        "metadata": {"owner": "me", "rank": 3, "tags": ["a"]},
        "hooks": {"PreToolUse": []},
        "author": "someone",
    }
    projected = project(source, AGENT_SKILLS, "agents")
    assert projected.frontmatter == {
        "name": "x",
        "description": "d",
        "allowed-tools": "Bash(git:*) Read",
        "metadata": {"owner": "me", "rank": "3", "author": "someone"},
    }
    assert {(change.field, change.action) for change in projected.changes} == {
        ("allowed-tools", "converted"),
        ("metadata.rank", "converted"),
        ("metadata.tags", "dropped"),
        ("hooks", "dropped"),
        ("author", "moved"),
    }
    hooks = next(change for change in projected.changes if change.field == "hooks")
    assert "outside the Agent Skills specification" in hooks.detail


def test_codex_gets_what_openai_validator_lets_through() -> None:
    source = {
        "name": "x",
        "description": "Turns <input> into output.",
        "compatibility": "Needs git.",
    }
    projected = project(source, CODEX, "codex")
    assert projected.frontmatter == {
        "name": "x",
        "description": "Turns \u2039input\u203a into output.",
        "metadata": {"compatibility": "Needs git."},
    }
    assert {(change.field, change.action) for change in projected.changes} == {
        ("compatibility", "moved"),
        ("description", "converted"),
    }


def test_a_target_other_than_claude_gets_the_folder_s_name() -> None:
    from skillc_index.dialect import CLAUDE_CODE

    source = {"name": "qdrant-debugging", "description": "d"}
    projected = project(source, CODEX, "codex", folder="debugging")
    assert projected.frontmatter["name"] == "debugging"
    assert [(c.field, c.action) for c in projected.changes] == [("name", "converted")]
    assert project(source, CLAUDE_CODE, "claude", folder="debugging").frontmatter == source
    # a folder name the specification refuses is not written as the name
    assert project(source, CODEX, "codex", folder="Bad_Name").frontmatter["name"] == (
        "qdrant-debugging"
    )


def test_a_global_build_deploys_where_claude_code_and_opencode_read_then(
    cli: Callable[..., Any], home: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """With ``$CLAUDE_CONFIG_DIR`` set Claude Code reads its user skills in its ``skills``
    folder, and OpenCode its global ones in ``$XDG_CONFIG_HOME/opencode/skills``: a global
    build wrote ``~/.claude/skills`` and ``~/.config/opencode/skills``, which neither read,
    and ``list --agent claude`` said Claude saw the skill. A deployment made before the
    variable was set stays where it is and is still listed, not as Claude's. Under
    ``$SKILLC_HOME`` (every test's), a variable leading out of it is not followed: the home's
    own folder is written (DECISIONS: every global path under ``$SKILLC_HOME``)."""
    source = write_skill(tmp_path / "src" / "gskill", "gskill", "A global skill for deploys.")
    run = cli("skillc-index", script=True)
    done = run("build", str(source), "--global", "-t", "claude", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    old = home / ".claude/skills/gskill"
    assert (old / "SKILL.md").is_file()
    moved = {
        "CLAUDE_CONFIG_DIR": str(home / "ccfg"),
        "XDG_CONFIG_HOME": str(home / "xdg"),
    }
    done = run("build", "gskill", "--global", "-t", "claude,opencode", env_extra=moved)
    assert done.returncode == 0, done.stderr
    assert "reads gskill" not in done.stderr  # OpenCode reads no $CLAUDE_CONFIG_DIR
    assert (home / "ccfg/skills/gskill/SKILL.md").is_file()
    assert (home / "xdg/opencode/skills/gskill/SKILL.md").is_file()
    assert not (home / ".config/opencode/skills/gskill").exists()
    assert (old / "SKILL.md").is_file()  # not skillc's to move: a build removes no target's
    listed = run("list", "--scope", "global", "--format", "json", env_extra=moved)
    assert listed.returncode == 0, listed.stderr
    (skill,) = json.loads(listed.stdout)["skills"]
    where = {loc["path"]: loc["agent"] for loc in skill["locations"] if loc["kind"] == "agent"}
    assert where == {
        str(home / "ccfg/skills/gskill"): "claude",
        str(home / "xdg/opencode/skills/gskill"): "opencode",
        str(old): "copilot",  # Copilot reads ~/.claude/skills whatever the variable says
    }
    outside = {"CLAUDE_CONFIG_DIR": str(tmp_path / "real-claude")}
    done = run("build", "gskill", "--global", "-t", "claude", env_extra=outside)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "real-claude").exists()
    assert (old / "SKILL.md").is_file()


def test_a_claude_deployment_of_a_skill_claude_code_fills_in_is_warned(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path]
) -> None:
    """Claude Code runs ``!`gh pr diff``` and fills in ``$ARGUMENTS`` in the SKILL.md it
    loads, which is the stub once deployed: the build said nothing. It warns once, for a
    target Claude Code loads, naming the first line; nothing is run, the stub unchanged."""
    body = (
        "## Context\n- PR diff: !`gh pr diff`\n- Files: !`touch ran`\n\n"
        "## Task\nSummarize issue $ARGUMENTS.\n"
    )
    write_skill(project / "src/pr-summary", "pr-summary", "Summarize a PR.", body)
    run = cli("skillc-index", script=True)
    done = run("build", "src/pr-summary", "-t", "codex")
    assert done.returncode == 0, done.stderr
    assert "fills in" not in done.stderr  # Codex fills in nothing
    done = run("build", "pr-summary", "-t", "claude")
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if "fills in" in line]
    assert warned == [
        "warning: Claude Code fills in the dynamic-context commands and argument placeholders "
        "of pr-summary's SKILL.md when it loads it (line 9: !`gh pr diff`), but the stub it "
        "loads holds none of them: they reach the model unfilled through skc show (nothing "
        "is run). To keep them, deploy this skill to Claude Code as its source (a plain copy "
        "in its skills folder)"
    ]
    assert not (project / "ran").exists() and not (project / "src/pr-summary/ran").exists()
    stub = (project / ".claude/skills/pr-summary/SKILL.md").read_text(encoding="utf-8")
    assert "!`" not in stub and "$ARGUMENTS" not in stub
    again = run("build", "pr-summary", "-t", "claude")  # said once: nothing changed
    assert again.returncode == 0 and "fills in" not in again.stderr, again.stderr


@pytest.mark.parametrize(
    ("allowed", "warned"),
    [
        ("Bash(gh *)", True),
        ("Read Grep", True),
        ("[Read, 'Bash(skc show *)']", True),  # only show: outline and search still ask
        ("Bash(gh *) Bash(skc *)", False),
        ("['Bash(skc:*)']", False),
        ("Bash", False),
        ('""', False),  # nothing restricted
        (None, False),
    ],
)
def test_allowed_tools_not_covering_the_stubs_skc_commands_are_warned(
    cli: Callable[..., Any],
    project: Path,
    write_skill: Callable[..., Path],
    allowed: str | None,
    warned: bool,
) -> None:
    """Claude Code asks before each ``skc`` call of the stub when the skill's
    ``allowed-tools`` pre-approve other commands only: a build for Claude Code says how to
    add ``Bash(skc *)``, once, and leaves the user's frontmatter as it is."""
    extra = "" if allowed is None else f"allowed-tools: {allowed}\n"
    folder = project / "src/tools"
    write_skill(
        folder, "tools", "Uses tools.", "## Steps\nRun it.\n",
        frontmatter=f"name: tools\ndescription: Uses tools.\n{extra}",
    )  # fmt: skip
    before = (folder / "SKILL.md").read_bytes()
    run = cli("skillc-index", script=True)
    done = run("build", "src/tools", "-t", "claude")
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "pre-approve" in line]
    assert said == (
        [
            "warning: tools's allowed-tools do not pre-approve the stub's skc commands: "
            "Claude Code asks before each one; add 'Bash(skc *)' to allowed-tools in its "
            "SKILL.md to let them run as the skill's own"
        ]
        if warned
        else []
    )
    assert (folder / "SKILL.md").read_bytes() == before
    again = run("build", "tools", "-t", "claude")
    assert again.returncode == 0 and "pre-approve" not in again.stderr, again.stderr
