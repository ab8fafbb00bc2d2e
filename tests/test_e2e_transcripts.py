"""``skc sync --from claude-code`` end to end, through the installed ``skc``: built skills
deployed into ``.claude/skills`` (a link and a copy) and a skill in the home's Claude Code
folder that skillc never compiled, used in a Claude Code transcript; ``skc stats`` then
shows the usage."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., "subprocess.CompletedProcess[str]"]

DESCRIPTION = "A skill used in a Claude Code session. Use when testing."

SESSION = "0ad8807a-2636-435e-9b50-a778231bbca7"


def record(cwd: Path, second: int, tool: str, given: dict[str, Any]) -> str:
    """An assistant record calling one tool, as Claude Code 2.1 writes it."""
    return json.dumps(
        {
            "parentUuid": None,
            "isSidechain": False,
            "userType": "external",
            "cwd": str(cwd),
            "sessionId": SESSION,
            "version": "2.1.126",
            "type": "assistant",
            "uuid": f"a-{second}",
            "timestamp": f"2026-06-01T09:00:{second:02d}.120Z",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": f"toolu_{second}", "name": tool, "input": given}
                ],
            },
        }
    )


def test_import_then_stats(
    skc_installed: Run, project: Path, home: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    def ok(*args: str) -> subprocess.CompletedProcess[str]:
        proc = skc_installed(*args)
        assert proc.returncode == 0, proc.stderr
        return proc

    ok("init")
    write_skill(project / ".skillc/skills/demo", "demo", DESCRIPTION, "## Usage\n\nUse it.\n")
    ok("build", "demo")
    assert (project / ".claude/skills/demo").is_symlink()
    write_skill(project / ".skillc/skills/copied", "copied", DESCRIPTION, "## Usage\n\nUse it.\n")
    ok("build", "copied", "--copy")  # a copy of the stub, not a link
    assert (project / ".claude/skills/copied/.skillc-meta").is_dir()
    pizza = write_skill(
        home / ".claude/skills/pizza", "pizza", DESCRIPTION, "## Usage\n\nUse it.\n"
    )  # never compiled

    transcript = tmp_path / "claude/projects/-project" / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    lines = [
        record(project, 1, "Skill", {"skill": "demo"}),
        record(project, 2, "Read", {"file_path": str(project / ".claude/skills/demo/SKILL.md")}),
        record(project, 3, "Skill", {"skill": "pizza"}),
        record(project, 4, "Skill", {"skill": "not-installed"}),
        record(project, 5, "Skill", {"skill": "copied"}),
        "{not json",
    ]
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")

    claude = str(tmp_path / "claude")
    imported = json.loads(
        ok("sync", "--from", "claude-code", "--claude-dir", claude, "--format", "json").stdout
    )
    assert imported["added"] == 4
    copied = {item["skill"]: item["skill_path"] for item in imported["skills"]}["copied"]
    assert copied == str((project / ".skillc/skills/copied").resolve())
    assert (imported["malformed_lines"], imported["unknown_skills"]) == (1, {"not-installed": 1})
    again = ok("sync", "--from", "claude-code", "--claude-dir", claude)
    assert again.stdout.splitlines()[1] == "No new skill usage"

    demo = json.loads(ok("stats", "demo", "--group-by", "commands", "--format", "json").stdout)
    assert (demo["data"]["activate"], demo["data"]["read"]) == (1, 1)
    files = json.loads(ok("stats", "demo", "--group-by", "files", "--format", "json").stdout)
    assert files["data"] == [{"file": "SKILL.md", "count": 1}]
    projects = json.loads(
        ok("stats", str(pizza), "--group-by", "projects", "--format", "json").stdout
    )
    assert projects["data"] == [{"project": str(project), "count": 1}]  # before stats' own
    summary = ok("stats", str(pizza)).stdout
    assert "activate: 1" in summary.splitlines()
