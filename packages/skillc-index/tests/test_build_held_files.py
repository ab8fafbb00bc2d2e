"""A deployment holds the skill's files that the agent runs or shows from the deployed folder
(``Projection.files``): the scripts Claude Code's hooks run (``${CLAUDE_SKILL_DIR}/...``), and
the icons Codex's ``agents/openai.yaml`` names. The deployed folder held the stub alone, so a
``PreToolUse`` guard exited 127 there (a non-blocking error: the guard was off)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index.build.skill import BuildResult
from skillc_index.command_errors import ForeignFolder
from skillc_index.diagnostics import warning_text

GUARD = """---
name: guard
description: Guards deploys. Use when deploying.
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: "${CLAUDE_SKILL_DIR}/scripts/check.sh"
---

# Guard

Deploy carefully.
"""


@pytest.fixture
def guard(project: Path) -> Path:
    folder = project / ".skillc" / "skills" / "guard"
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(GUARD, encoding="utf-8")
    script = folder / "scripts" / "check.sh"
    script.write_text("#!/bin/sh\necho blocked >&2; exit 2\n", encoding="utf-8")
    script.chmod(0o755)
    return folder


def warnings(result: BuildResult) -> list[str]:
    return [warning_text(notice) for notice in result.warnings]


@pytest.mark.skipif(os.name == "nt", reason="POSIX shell and modes")
def test_a_hook_s_script_is_deployed_with_the_stub(
    build: Callable[..., BuildResult], guard: Path, project: Path
) -> None:
    result = build("guard", targets=["claude"])
    deployed = project / ".claude" / "skills" / "guard"
    assert [(d.method, d.action) for d in result.deployments] == [("copy", "created")]
    assert not deployed.is_symlink()
    script = deployed / "scripts" / "check.sh"
    assert script.read_bytes() == (guard / "scripts" / "check.sh").read_bytes()
    run = subprocess.run(  # as Claude Code runs the hook
        ["/bin/sh", "-c", '"$CLAUDE_SKILL_DIR/scripts/check.sh"'],
        env={**os.environ, "CLAUDE_SKILL_DIR": str(deployed)},
        capture_output=True,
        check=False,
    )
    assert run.returncode == 2  # the guard blocks
    assert warnings(result) == []

    again = build("guard", targets=["claude"])
    assert [d.action for d in again.deployments] == ["unchanged"]
    (guard / "scripts" / "check.sh").write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    build("guard", targets=["claude"])  # refreshed with the build
    assert script.read_text(encoding="utf-8") == "#!/bin/sh\nexit 0\n"
    assert os.access(script, os.X_OK)

    script.write_text("#!/bin/sh\nexit 0 # mine\n", encoding="utf-8")
    with pytest.raises(ForeignFolder):  # a file skillc did not write is never overwritten
        build("guard", targets=["claude"])
    script.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")

    (guard / "SKILL.md").write_text(GUARD.replace("${CLAUDE_SKILL_DIR}", "echo"), encoding="utf-8")
    build("guard", targets=["claude"])  # no file named: a link to the runtime again
    assert deployed.is_symlink()
    assert not (deployed / "scripts").exists()


def test_a_relative_path_of_the_skill_is_deployed_and_other_words_are_not(
    build: Callable[..., BuildResult], guard: Path, project: Path
) -> None:
    command = "${CLAUDE_SKILL_DIR}/scripts/check.sh"
    text = GUARD.replace(command, "python3 ./scripts/check.sh scripts/none.txt --x /bin/sh")
    (guard / "SKILL.md").write_text(text, encoding="utf-8")
    result = build("guard", targets=["claude"])
    deployed = project / ".claude" / "skills" / "guard"
    assert sorted(p.name for p in deployed.rglob("*") if p.is_file()) == [
        "SKILL.md",
        "check.sh",
        "manifest.json",
    ]
    assert warnings(result) == []  # a relative path the skill lacks may be the project's


@pytest.mark.parametrize(
    "command",
    [
        "${CLAUDE_SKILL_DIR}/scripts/check.sh; exit 0",
        "${CLAUDE_SKILL_DIR}/scripts/check.sh>/dev/null",
        "sh -c '${CLAUDE_SKILL_DIR}/scripts/check.sh && echo done'",
        "bash -ec 'cd /tmp|| exit; ./scripts/check.sh'",
    ],
)
def test_a_hook_command_line_with_shell_punctuation_deploys_its_script(
    build: Callable[..., BuildResult], guard: Path, project: Path, command: str
) -> None:
    """Operators glued to a path (``check.sh;``) and an ``sh -c`` string hid the script: the
    deployment was the stub alone (the guard exited 127) and a warning said the skill did
    not have ``check.sh;``."""
    text = GUARD.replace('"${CLAUDE_SKILL_DIR}/scripts/check.sh"', f'"{command}"')
    (guard / "SKILL.md").write_text(text, encoding="utf-8")
    result = build("guard", targets=["claude"])
    assert warnings(result) == []
    assert (project / ".claude" / "skills" / "guard" / "scripts" / "check.sh").is_file()


def test_a_hook_naming_a_file_the_deployment_cannot_hold_is_a_warning(
    build: Callable[..., BuildResult],
    guard: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    extra = (
        '        - type: command\n          command: "python3 ${CLAUDE_SKILL_DIR}/scripts/x.py'
        ' $CLAUDE_SKILL_DIR/../secret.txt {baseDir}/scripts/big.bin"\n'
    )
    text = GUARD.replace("---\n\n# Guard", extra + "---\n\n# Guard")
    (guard / "SKILL.md").write_text(text, encoding="utf-8")
    (guard / "scripts" / "big.bin").write_bytes(b"x" * 41)
    monkeypatch.setattr("skillc_index.build.projections.MAX_HELD_FILE", 40)
    result = build("guard", targets=["claude", "codex"])  # (codex drops hooks: no warning)
    where = "hooks.PreToolUse[0].hooks[1]"
    assert warnings(result)[:3] == [
        f"{where} names ${{CLAUDE_SKILL_DIR}}/scripts/x.py, which the skill does not have",
        f"{where} names $CLAUDE_SKILL_DIR/../secret.txt, which leads out of the skill: "
        "not deployed",
        "scripts/big.bin not deployed: over 40 bytes",
    ]
    deployed = project / ".claude" / "skills" / "guard"
    assert (deployed / "scripts" / "check.sh").is_file()
    assert not (deployed / "scripts" / "big.bin").exists()


def test_files_past_the_most_a_deployment_holds_are_counted_in_a_warning(
    build: Callable[..., BuildResult],
    guard: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hooks naming more than 64 files: the rest were left out without a word (their hooks
    exited 127), and a file too large to hold took one of the 64 places."""
    names = ["big.bin", "a.sh", "b.sh", "c.sh"]
    command = "; ".join(f"${{CLAUDE_SKILL_DIR}}/scripts/{name}" for name in names)
    text = GUARD.replace('"${CLAUDE_SKILL_DIR}/scripts/check.sh"', f'"{command}"')
    (guard / "SKILL.md").write_text(text, encoding="utf-8")
    for name in names:
        (guard / "scripts" / name).write_bytes(b"x" * (41 if name == "big.bin" else 1))
    monkeypatch.setattr("skillc_index.build.projections.MAX_HELD_FILE", 40)
    monkeypatch.setattr("skillc_index.build.project.MAX_NAMED_FILES", 2)
    result = build("guard", targets=["claude"])
    assert warnings(result) == [
        "scripts/big.bin not deployed: over 40 bytes",
        "1 more file the skill's hooks or icons name not deployed: a deployment holds at most 2",
    ]
    deployed = project / ".claude" / "skills" / "guard" / "scripts"
    assert sorted(path.name for path in deployed.iterdir()) == ["a.sh", "b.sh"]


def test_the_icons_codex_s_side_file_names_are_deployed_beside_it(
    build: Callable[..., BuildResult], project: Path
) -> None:
    folder = project / ".skillc" / "skills" / "notes"
    (folder / "agents").mkdir(parents=True)
    (folder / "assets").mkdir()
    (folder / "SKILL.md").write_text(
        "---\nname: notes\ndescription: Makes release notes.\n---\n\n# Notes\n", encoding="utf-8"
    )
    (folder / "agents" / "openai.yaml").write_text(
        "interface:\n  icon_small: ./assets/icon.svg\n  icon_large: assets/gone.png\n",
        encoding="utf-8",
    )
    (folder / "assets" / "icon.svg").write_text("<svg/>", encoding="utf-8")
    (folder / "assets" / "other.png").write_bytes(b"PNG")
    result = build("notes", targets=["codex"])
    deployed = project / ".agents" / "skills" / "notes"
    assert (deployed / "assets" / "icon.svg").read_text(encoding="utf-8") == "<svg/>"
    assert not (deployed / "assets" / "other.png").exists()  # only what the side file names
    assert warnings(result) == [
        "agents/openai.yaml interface.icon_large names assets/gone.png, which the skill does "
        "not have"
    ]
    assert [d.action for d in build("notes", targets=["codex"]).deployments] == ["unchanged"]


@pytest.mark.skipif(os.name == "nt", reason="POSIX modes")
def test_an_executable_bit_changed_in_the_folder_reaches_the_store_copy_and_deployment(
    build: Callable[..., BuildResult], project: Path
) -> None:
    """A ``chmod +x`` (or ``-x``) of a file of an imported folder, its bytes the same, is
    imported again (it was "already imported": the store copy, ``skc exec`` and ``skc
    package NAME`` kept the old mode, and the deployed hook could not run), by path and by
    name, and the deployment follows it; a mode that did not change is no import."""
    folder = project / "skills" / "guard"
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(GUARD, encoding="utf-8")
    script = folder / "scripts" / "check.sh"
    script.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    script.chmod(0o644)
    copied = project / ".skillc" / "skills" / "guard" / "scripts" / "check.sh"
    deployed = project / ".claude" / "skills" / "guard" / "scripts" / "check.sh"
    assert build(str(folder), targets=["claude"]).import_action == "copy"
    assert not os.access(copied, os.X_OK)
    assert not os.access(deployed, os.X_OK)

    script.chmod(0o755)
    result = build(str(folder), targets=["claude"])
    assert result.import_action == "replace"
    assert [d.action for d in result.deployments] == ["replaced"]
    assert os.access(copied, os.X_OK)
    assert os.access(deployed, os.X_OK)
    again = build(str(folder), targets=["claude"])
    assert again.import_action == "unchanged"
    assert [d.action for d in again.deployments] == ["unchanged"]

    script.chmod(0o644)  # by name: imported again from its folder too
    assert build("guard", targets=["claude"]).import_action == "replace"
    assert not os.access(copied, os.X_OK)
    assert not os.access(deployed, os.X_OK)
