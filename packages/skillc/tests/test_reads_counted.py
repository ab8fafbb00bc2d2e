"""What ``show`` serves is what ``stats`` counts, across the packages: a read logged by
``skc show`` or the MCP tool ``skc_show`` is counted under the heading and file it served."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]

#: Two ``Setup`` headings: SKILL.md's, then docs/extra.md's (file then line order).
SKILL_BODY = "## Setup\n\nmain\n\nSee [docs](docs/extra.md).\n"
EXTRA_MD = "# Extra\n\n## Setup\n\nextra\n"


@pytest.fixture
def demo(project: Path, write_skill: Callable[..., Path]) -> Path:
    folder = project / ".skillc" / "skills" / "demo"
    return write_skill(folder, body=SKILL_BODY, files={"docs/extra.md": EXTRA_MD})


def test_skc_show_nth_is_counted_under_the_heading_it_served(
    demo: Path, cli: Callable[..., Run]
) -> None:
    skc = cli("skc")
    shown = skc("show", "demo", "--section", "Setup", "--nth", "2", "--format", "json")
    assert json.loads(shown.stdout)["file"] == "docs/extra.md", shown.stderr
    sections = skc("stats", "demo", "--group-by", "sections", "--format", "json")
    assert json.loads(sections.stdout)["data"] == [
        {"section": "Setup", "file": "docs/extra.md", "count": 1}
    ]
    files = skc("stats", "demo", "--group-by", "files", "--format", "json")
    assert json.loads(files.stdout)["data"] == [{"file": "docs/extra.md", "count": 1}]
    text = skc("stats", "demo").stdout
    assert "1. Setup (docs/extra.md, 1 access)" in text
    unused = text[text.index("Unused sections") :]
    assert "Setup (SKILL.md)" in unused and "Setup (docs/extra.md)" not in unused


def test_skc_show_tool_nth_is_counted_under_the_heading_it_served(
    demo: Path, project: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillc_mcp import ToolRunner

    monkeypatch.chdir(project)
    monkeypatch.setenv("SKILLC_HOME", str(home))
    runner = ToolRunner()
    try:
        shown = runner.call("skc_show", {"skill": "demo", "section": "Setup", "nth": 2})
        assert shown["structuredContent"]["file"] == "docs/extra.md", shown
        runner.flush()
        stats = runner.call("skc_stats", {"skill": "demo", "group_by": "sections"})
    finally:
        runner.close()
    assert stats["structuredContent"]["data"] == [
        {"section": "Setup", "file": "docs/extra.md", "count": 1}
    ]
