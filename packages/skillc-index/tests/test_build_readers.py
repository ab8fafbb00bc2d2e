"""Which agents read what one ``build -t a,b,...`` deploys (``skillc_index.build.readers``):
named targets whose folders are one real folder get one deployment, in the dialect that keeps
the most fields, with the others' side files, and a warning naming each other target; an agent
that reads the skill through several deployed folders (``AgentTarget.reads``) is told it lists
the skill once per folder. On real folders, through the installed ``skillc-index``."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillc_index import manifest_path
from skillc_index.markdown.frontmatter import parse_frontmatter

#: every warning of a build is checked: an skc on PATH, as where skillc is installed
pytestmark = pytest.mark.usefixtures("skc_on_path")

GUARDED = """---
name: hk
description: Guarded skill. Use when running shell commands.
model: opus
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: "echo guard"
---

# hk
"""

USER_ONLY = """---
name: um
description: User-only. Use when the user asks.
disable-model-invocation: true
---

# um
"""

PLAIN = """---
name: plain
description: A plain skill. Use when testing listings.
when_to_use: when asked
---

# plain
"""


def _skill(project: Path, name: str, text: str) -> None:
    folder = project / ".skillc" / "skills" / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(text, encoding="utf-8")


def _front(path: Path) -> dict[str, Any]:
    data = parse_frontmatter(path.read_text(encoding="utf-8")).data
    assert isinstance(data, dict)
    return data


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning:")]


@pytest.fixture
def shared(project: Path) -> Path:
    """``.claude/skills`` a symlink to ``.agents/skills`` (Claude Code and Codex read one
    folder)."""
    (project / ".agents" / "skills").mkdir(parents=True)
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to("../.agents/skills")
    return project / ".agents" / "skills"


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
@pytest.mark.parametrize("order", ["codex,claude", "claude,codex"])
def test_a_folder_two_targets_share_keeps_every_field_claude_code_reads(
    cli: Callable[..., Any], project: Path, shared: Path, order: str
) -> None:
    """``-t codex,claude`` deployed Codex's dialect alone: Claude Code loaded the skill
    without its PreToolUse hook and model, and only "'hooks' dropped" for Codex was said.
    Either order now deploys Claude Code's copy, and says nothing of the fields Codex does
    not read (it ignores them)."""
    _skill(project, "hk", GUARDED)
    run = cli("skillc-index", script=True)
    done = run("build", "hk", "-t", order)
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stdout.splitlines() if line.startswith("Deploy:")] == [
        "Deploy:  claude -> .claude/skills/hk (symlink)"
    ]
    front = _front(project / ".claude" / "skills" / "hk" / "SKILL.md")
    assert front["model"] == "opus"
    assert front["hooks"]["PreToolUse"][0]["matcher"] == "Bash"
    assert _warnings(done.stderr) == []


TRIGGERED = """---
name: trig
description: Format SQL queries.
when_to_use: Use when the user pastes SQL, says "format this query" or "pretty print SQL".
---

# trig
"""


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_codex_reading_claude_s_link_is_told_it_misses_the_trigger_phrases(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """``-t claude,codex`` into one folder: the deployment made as Claude Code (a link, its
    frontmatter as written) holds ``when_to_use`` apart, and Codex reads the description
    alone, never the phrases ``-t codex`` folds into it; nothing was said, as if a value
    written otherwise. It is said once, when the folder is deployed anew; ``-t agents,codex``
    (both fold it) says nothing."""
    _skill(project, "trig", TRIGGERED)
    run = cli("skillc-index")
    done = run("build", "trig", "-t", "claude,codex")
    assert done.returncode == 0, done.stderr
    assert (project / ".claude" / "skills" / "trig").is_symlink()
    assert "when_to_use" in _front(shared / "trig" / "SKILL.md")
    assert _warnings(done.stderr) == [
        "warning: codex (Codex) reads .agents/skills/trig, deployed as claude (Claude Code) "
        "reads it (.claude/skills is the same folder): a description without the "
        "'when_to_use' text its dialect folds in (put it in the description to reach both)"
    ]
    again = run("build", "trig", "-t", "claude,codex")
    assert _warnings(again.stderr) == [], again.stderr
    (shared / "trig").unlink()
    both = run("build", "trig", "-t", "agents,codex")
    assert both.returncode == 0, both.stderr
    assert "pretty print SQL" in _front(shared / "trig" / "SKILL.md")["description"]
    assert not [line for line in _warnings(both.stderr) if " reads " in line], both.stderr


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_codex_reading_claude_s_copy_gets_its_side_file(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """``-t claude,codex`` for a user-only skill wrote Claude Code's stub alone, no
    ``agents/openai.yaml``: Codex invoked the skill on its own. The copy there holds it and
    is a copy of skillc's own (a build again leaves it unchanged); Codex misses nothing, so
    nothing is said."""
    _skill(project, "um", USER_ONLY)
    run = cli("skillc-index")
    done = run("build", "um", "-t", "claude,codex")
    assert done.returncode == 0, done.stderr
    assert "Deploy:  claude -> .claude/skills/um (copy)" in done.stdout
    assert "codex ->" not in done.stdout
    copy = shared / "um"
    assert _front(copy / "SKILL.md")["disable-model-invocation"] is True
    side = yaml.safe_load((copy / "agents" / "openai.yaml").read_text(encoding="utf-8"))
    assert side["policy"]["allow_implicit_invocation"] is False
    assert _warnings(done.stderr) == []
    again = run("build", "um", "-t", "codex,claude")
    assert "Deploy:  claude -> .claude/skills/um (copy, unchanged)" in again.stdout, again.stderr


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_copy_for_several_targets_is_refreshed_and_rebuilt_for_them_all(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """The copy records the targets it was written for too (``shared``): a later build of
    another target refreshes it, and ``build --all`` rebuilds it, with Codex's side file
    still (as Claude Code's alone, they turned it into a link to the runtime: a user-only
    skill Codex invoked, without a word)."""
    _skill(project, "um", USER_ONLY)
    run = cli("skillc-index")
    assert run("build", "um", "-t", "claude,codex").returncode == 0
    copy, source = shared / "um", project / ".skillc" / "skills" / "um" / "SKILL.md"
    manifest = json.loads(manifest_path(copy).read_text(encoding="utf-8"))
    assert (manifest["target"], manifest["shared"]) == ("claude", ["codex"])
    for number, args in enumerate([("um", "-t", "cursor"), ("--all",)]):
        source.write_text(f"{USER_ONLY}\n## Part {number}\n", encoding="utf-8")
        done = run("build", *args)
        assert done.returncode == 0, done.stderr
        assert not copy.is_symlink(), args
        assert f"- Part {number}" in (copy / "SKILL.md").read_text(encoding="utf-8")
        side = yaml.safe_load((copy / "agents" / "openai.yaml").read_text(encoding="utf-8"))
        assert side["policy"]["allow_implicit_invocation"] is False, args


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_build_all_keeps_the_dialect_of_a_link_in_a_shared_folder(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """``build --all`` rebuilt a skill linked from ``.claude/skills`` (a symlink to
    ``.agents/skills``) for the first target of that folder, ``agents``: a copy without
    ``hooks`` and ``model`` replaced Claude Code's link."""
    _skill(project, "hk", GUARDED)
    run = cli("skillc-index")
    assert run("build", "hk", "-t", "claude").returncode == 0
    source = project / ".skillc" / "skills" / "hk" / "SKILL.md"
    source.write_text(f"{GUARDED}\n## More\n", encoding="utf-8")
    done = run("build", "--all")
    assert done.returncode == 0, done.stderr
    assert (shared / "hk").is_symlink()
    assert _front(project / ".claude" / "skills" / "hk" / "SKILL.md")["model"] == "opus"


def test_a_folder_of_no_dialect_deployed_for_a_target_reading_one_says_what_it_lacks(
    cli: Callable[..., Any], project: Path
) -> None:
    """A ``[targets]`` entry for ``.agents/skills`` (no dialect: the source's frontmatter, a
    link) named with ``codex``: the link keeps every field, and Codex is told it gets no side
    file (a user-only skill it would invoke); a path target naming Claude Code's folder has
    nothing to be told."""
    _skill(project, "um", USER_ONLY)
    (project / ".skillc" / "config.toml").write_text(
        '[targets]\nteam = ".agents/skills"\n', encoding="utf-8"
    )
    run = cli("skillc-index")
    done = run("build", "um", "-t", "codex,team")
    assert "Deploy:  team -> .agents/skills/um (symlink)" in done.stdout, done.stderr
    assert [line for line in _warnings(done.stderr) if " reads " in line] == [
        "warning: codex (Codex) reads .agents/skills/um, deployed as team reads it: no "
        "agents/openai.yaml"
    ]
    (project / ".claude" / "skills").mkdir(parents=True)
    done = run("build", "um", "-t", "./.claude/skills,claude")
    assert "Deploy:  claude -> .claude/skills/um (symlink)" in done.stdout, done.stderr
    assert not [line for line in _warnings(done.stderr) if " reads " in line], done.stderr


def test_targets_of_one_folder_and_one_dialect_say_nothing(
    cli: Callable[..., Any], project: Path
) -> None:
    """``agents`` and ``codex`` share ``.agents/skills`` and write the same there: one
    deployment, no warning about the other."""
    _skill(project, "um", USER_ONLY)
    done = cli("skillc-index")("build", "um", "-t", "agents,codex")
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stdout.splitlines() if line.startswith("Deploy:")] == [
        "Deploy:  agents -> .agents/skills/um (copy)"
    ]
    assert not [line for line in _warnings(done.stderr) if " reads " in line]


def test_an_agent_reading_the_skill_in_several_deployed_folders_is_told(
    cli: Callable[..., Any], project: Path
) -> None:
    """``-t claude,copilot,codex``: Copilot reads ``.claude/skills`` and ``.agents/skills``
    too, and listed ``plain`` three times, in three dialects, without a word; Kiro reads its
    own folder alone."""
    _skill(project, "plain", PLAIN)
    run = cli("skillc-index")
    done = run("build", "plain", "-t", "claude,copilot,codex,kiro")
    assert done.returncode == 0, done.stderr
    said = [line for line in _warnings(done.stderr) if " reads " in line]
    assert said == [
        "warning: copilot (GitHub Copilot) reads plain in .claude/skills/plain (claude), "
        ".agents/skills/plain (codex) too: it lists the skill 3 times, each in the dialect "
        "written there"
    ]
    listed = run("list", "--budget", "--agent", "copilot")
    assert "copilot, 3 folders: 3 skills" in listed.stdout, listed.stdout
    one = run("build", "plain", "-t", "kiro,claude")
    assert one.returncode == 0, one.stderr
    assert not [line for line in _warnings(one.stderr) if " reads " in line], one.stderr


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_an_agent_whose_folder_another_target_deploys_is_told_too(
    cli: Callable[..., Any], project: Path
) -> None:
    """``.github/skills`` a symlink to ``.agents/skills``: ``-t codex,copilot,claude`` deploys
    that folder once, as ``codex``; Copilot reads ``.claude/skills`` too, and is told."""
    _skill(project, "plain", PLAIN)
    (project / ".agents" / "skills").mkdir(parents=True)
    (project / ".github").mkdir()
    (project / ".github" / "skills").symlink_to("../.agents/skills")
    done = cli("skillc-index")("build", "plain", "-t", "codex,copilot,claude")
    assert "Deploy:  codex -> .agents/skills/plain (copy)" in done.stdout, done.stderr
    assert [line for line in _warnings(done.stderr) if " reads " in line] == [
        "warning: copilot (GitHub Copilot) reads plain in .claude/skills/plain (claude) too: it "
        "lists the skill 2 times, each in the dialect written there"
    ]


def test_a_copy_refreshed_by_the_build_counts_as_a_folder_read(
    cli: Callable[..., Any], project: Path
) -> None:
    """A copy made before (``-t codex``) that ``-t gemini`` refreshes is in ``.agents/skills``,
    which Gemini CLI reads too: two entries in Gemini CLI."""
    _skill(project, "plain", PLAIN)
    run = cli("skillc-index")
    assert run("build", "plain", "-t", "codex").returncode == 0
    (project / ".skillc" / "skills" / "plain" / "SKILL.md").write_text(
        PLAIN + "\n## More\n", encoding="utf-8"
    )
    done = run("build", "plain", "-t", "gemini")
    assert "Deploy:  codex -> .agents/skills/plain (copy)" in done.stdout, done.stderr
    assert [line for line in _warnings(done.stderr) if " reads " in line] == [
        "warning: gemini (Gemini CLI) reads plain in .agents/skills/plain (codex) too: it "
        "lists the skill 2 times, each in the dialect written there"
    ]


LONG = f"""---
name: big
description: Use when testing. {"x" * 1300}
metadata:
  short-description: {"y" * 1100}
---

# big
"""


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_codex_is_told_it_refuses_the_skill_deployed_for_another_target(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """A description of 1,318 characters: ``-t codex,claude`` deployed Claude Code's link,
    which Codex refuses (``list --agent codex``: 0 skills), and the one warning said
    "'description', 'metadata' not as its own dialect writes it"; a ``[targets]`` entry of
    that folder (no dialect: the source as it is) the same."""
    _skill(project, "big", LONG)
    run = cli("skillc-index")
    done = run("build", "big", "-t", "codex,claude")
    assert "Deploy:  claude -> .claude/skills/big (symlink)" in done.stdout, done.stderr
    assert _warnings(done.stderr) == [
        "warning: codex (Codex) reads .agents/skills/big, deployed as claude (Claude Code) "
        "reads it (.claude/skills is the same folder): Codex refuses the skill: description "
        "is 1,318 characters long (at most 1,024)"
    ]
    listed = run("list", "--budget", "--agent", "codex")
    assert ".agents/skills: 0 skills" in listed.stdout, listed.stdout
    (shared / "big").unlink()
    (project / ".skillc" / "config.toml").write_text(
        '[targets]\nteam = ".agents/skills"\n', encoding="utf-8"
    )
    done = run("build", "big", "-t", "codex,team")
    assert "Deploy:  team -> .agents/skills/big (symlink)" in done.stdout, done.stderr
    assert [line for line in _warnings(done.stderr) if " reads " in line] == [
        "warning: codex (Codex) reads .agents/skills/big, deployed as team reads it: Codex "
        "refuses the skill: description is 1,318 characters long (at most 1,024)"
    ]


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_reader_of_a_shared_folder_is_told_the_description_is_not_cut_to_its_limit(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """A description of 1,118 characters, ``-t claude,agents`` into one folder: Claude Code's
    link holds it whole, where ``agents`` (the specification's dialect, refused over 1,024)
    gets it cut, and nothing was said (only ``when_to_use`` was compared). Said once, when the
    folder is deployed anew."""
    _skill(project, "big", f"---\nname: big\ndescription: Use when testing. {'x' * 1100}\n---\n")
    run = cli("skillc-index", script=True)
    done = run("build", "big", "-t", "claude,agents")
    assert "Deploy:  claude -> .claude/skills/big (symlink)" in done.stdout, done.stderr
    assert _warnings(done.stderr) == [
        "warning: agents (Agent Skills) reads .agents/skills/big, deployed as claude (Claude "
        "Code) reads it (.claude/skills is the same folder): 'description' not as its dialect "
        "writes it: cut to 1,024 characters (the agent's limit)"
    ]
    again = run("build", "big", "-t", "claude,agents")
    assert _warnings(again.stderr) == [], again.stderr


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_codex_reading_claude_s_link_is_told_its_description_keeps_its_tags(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """``<table>`` in the description, ``-t claude,codex`` into one folder: Codex's dialect
    writes ``<`` and ``>`` as ``‹`` and ``›`` (its validator refuses them, read as tags), Claude
    Code's link holds them, and nothing was said; ``-t agents,codex`` (both rewrite them)
    says nothing."""
    _skill(project, "tags", "---\nname: tags\ndescription: Use when writing <table> markup.\n---\n")
    run = cli("skillc-index", script=True)
    done = run("build", "tags", "-t", "claude,codex")
    assert "Deploy:  claude -> .claude/skills/tags (symlink)" in done.stdout, done.stderr
    assert _warnings(done.stderr) == [
        "warning: codex (Codex) reads .agents/skills/tags, deployed as claude (Claude Code) "
        "reads it (.claude/skills is the same folder): 'description' not as its dialect "
        "writes it: < and > written as \u2039 and \u203a (read as tags)"
    ]
    (shared / "tags").unlink()
    both = run("build", "tags", "-t", "agents,codex")
    assert both.returncode == 0, both.stderr
    assert "\u2039table\u203a" in _front(shared / "tags" / "SKILL.md")["description"]
    assert not [line for line in _warnings(both.stderr) if " reads " in line], both.stderr


GUARDED_USER_ONLY = GUARDED.replace(
    "model: opus\n", "model: opus\ndisable-model-invocation: true\n"
)


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_build_of_one_target_keeps_a_shared_copy_for_the_others(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """A copy written for ``-t claude,codex`` (Claude Code's, with Codex's side file): a
    plain ``build`` (claude) made it a link (Codex then invoked a user-only skill), and
    ``-t codex`` wrote Codex's dialect over it (Claude Code lost its hook and model, the
    manifest its ``shared``), without a word. Either keeps it for both now."""
    _skill(project, "hk", GUARDED_USER_ONLY)
    run = cli("skillc-index")
    assert run("build", "hk", "-t", "claude,codex").returncode == 0
    copy, source = shared / "hk", project / ".skillc" / "skills" / "hk" / "SKILL.md"
    for number, args in enumerate([("hk",), ("hk", "-t", "codex")]):
        source.write_text(f"{GUARDED_USER_ONLY}\n## Part {number}\n", encoding="utf-8")
        done = run("build", *args)
        assert done.returncode == 0, done.stderr
        assert "Deploy:  claude -> .claude/skills/hk (copy)" in done.stdout, args
        assert not copy.is_symlink(), args
        front = _front(copy / "SKILL.md")
        assert (front["model"], front["disable-model-invocation"]) == ("opus", True), args
        assert front["hooks"]["PreToolUse"][0]["matcher"] == "Bash", args
        side = yaml.safe_load((copy / "agents" / "openai.yaml").read_text(encoding="utf-8"))
        assert side["policy"]["allow_implicit_invocation"] is False, args
        manifest = json.loads(manifest_path(copy).read_text(encoding="utf-8"))
        assert (manifest["target"], manifest["shared"]) == ("claude", ["codex"]), args
        assert _warnings(done.stderr) == [], args


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_build_all_over_up_to_date_skills_says_nothing_of_their_readers(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """Each ``build --all`` said, for every skill, what ``agents`` and ``codex`` get in
    Claude Code's link (2 warnings a skill), and Copilot's listing twice, up to date or
    not. What the readers of a folder get is said when the build deploys there anew."""
    _skill(project, "hk", GUARDED)
    _skill(project, "big", LONG)
    _skill(project, "plain", PLAIN)
    run = cli("skillc-index")
    assert run("build", "hk").returncode == 0
    first = run("build", "big", "-t", "codex,claude")
    assert [line for line in _warnings(first.stderr) if "Codex refuses" in line], first.stderr
    first = run("build", "plain", "-t", "claude,copilot")
    assert [line for line in _warnings(first.stderr) if "lists the skill" in line], first.stderr
    for _ in range(2):
        done = run("build", "--all")
        assert done.returncode == 0, done.stderr
        assert "3 up to date" in done.stdout, done.stdout
        assert [line for line in _warnings(done.stderr) if " reads " in line] == []
        assert not [line for line in _warnings(done.stderr) if "(Codex)" in line], done.stderr
    again = run("build", "big", "-t", "codex,claude")
    assert [line for line in _warnings(again.stderr) if " reads " in line] == []


def test_a_copy_recording_its_target_is_not_reported_on_each_build(
    cli: Callable[..., Any], project: Path
) -> None:
    """A copy written for ``-t codex,copilot`` (``.github/skills`` linked to
    ``.agents/skills``) records both: an unrelated build that refreshes it (``-t kiro``)
    said Codex's field changes again, as for a copy whose target it had to guess."""
    _skill(project, "plain", PLAIN)
    (project / ".agents" / "skills").mkdir(parents=True)
    (project / ".github").mkdir()
    (project / ".github" / "skills").symlink_to("../.agents/skills")
    run = cli("skillc-index")
    made = run("build", "plain", "-t", "codex,copilot")
    assert "codex (Codex): 'when_to_use' folded" in made.stderr, made.stderr
    manifest = json.loads(manifest_path(project / ".agents/skills/plain").read_text("utf-8"))
    assert (manifest["target"], manifest["shared"]) == ("codex", ["copilot"])
    (project / ".skillc" / "skills" / "plain" / "SKILL.md").write_text(
        PLAIN + "\n## More\n", encoding="utf-8"
    )
    done = run("build", "plain", "-t", "kiro")
    assert "Deploy:  codex -> .agents/skills/plain (copy)" in done.stdout, done.stderr
    assert not [line for line in _warnings(done.stderr) if "(Codex)" in line], done.stderr


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_refresh_of_a_shared_copy_says_what_codex_refuses(
    cli: Callable[..., Any], project: Path, shared: Path
) -> None:
    """A copy written for ``-t claude,codex``, refreshed by ``-t cursor`` after its
    description grew past Codex's limit, is written for them both again, and Codex is told
    it refuses the skill; refreshed again unchanged, nothing more."""
    _skill(project, "um", USER_ONLY)
    run = cli("skillc-index")
    assert run("build", "um", "-t", "claude,codex").returncode == 0
    (project / ".skillc" / "skills" / "um" / "SKILL.md").write_text(
        USER_ONLY.replace("User-only.", "User-only. " + "z" * 1100), encoding="utf-8"
    )
    done = run("build", "um", "-t", "cursor")
    assert done.returncode == 0, done.stderr
    assert [line for line in _warnings(done.stderr) if "(Codex)" in line] == [
        "warning: codex (Codex) reads .agents/skills/um, deployed as claude (Claude Code) "
        "reads it: Codex refuses the skill: description is 1,135 characters long (at most "
        "1,024)"
    ]
    assert (shared / "um" / "agents" / "openai.yaml").is_file()
    again = run("build", "um", "-t", "cursor")
    assert again.returncode == 0, again.stderr
    assert not [line for line in _warnings(again.stderr) if " reads " in line], again.stderr


def test_agents_is_named_without_parentheses_within_parentheses() -> None:
    """``agents (Agent Skills (.agents/skills))`` read as a typo in each warning naming it."""
    from skillc_index.build import readers

    assert readers._agent("agents") == "agents (Agent Skills)"
    assert readers._agent("codex") == "codex (Codex)"
    assert readers._agent("team") == "team"
