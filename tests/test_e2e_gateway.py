"""The gateway end to end through the installed ``skc`` (RFC-0002, RFC-0004, issue 5)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]

SKILL = """---
name: demo
description: Demo skill for gateway tests. Use when testing the gateway.
---

# Demo

## Install

```sh
# comment, not a heading
make install
```

Then restart.

## Usage

Search for the word marmalade here.
"""


@pytest.fixture
def demo(ok: Run, project: Path) -> Path:
    ok("init")
    root = project / ".skillc" / "skills" / "demo"
    (root / "references").mkdir(parents=True)
    (root / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (root / "references" / "api.md").write_text("# API\n\nmarmalade api\n", encoding="utf-8")
    ok("build", "demo")
    return root


def test_fenced_comment_does_not_split_a_section(ok: Run, demo: Path) -> None:
    shown = ok("show", "demo", "--section", "install").stdout
    assert (
        shown
        == "## Install\n\n```sh\n# comment, not a heading\nmake install\n```\n\nThen restart.\n\n"
    )
    outline = ok("outline", "demo").stdout.splitlines()
    assert "    ## Install" in outline and not any("comment" in line for line in outline)


def test_show_errors_and_warnings(skc: Run, ok: Run, demo: Path) -> None:
    missing = skc("show", "demo", "--section", "Instal")
    assert missing.returncode == 1
    assert missing.stderr.splitlines()[0] == "error[E020]: section not found: 'Instal'"
    (demo / "again.md").write_text("# Install\n\nsecond\n", encoding="utf-8")
    twice = ok("show", "demo", "--section", "Install")  # no build: the index is a cache
    assert twice.stderr.strip() == "warning[W001]: multiple matches for 'Install'; showing first"


@pytest.mark.parametrize(
    "query", ['"', "*", "(", "NEAR", "AND", "-x", "中文", 'a "quoted" word', "marmalade*"]
)
def test_search_takes_any_query(ok: Run, demo: Path, query: str) -> None:
    data = json.loads(ok("search", "demo", query, "--format", "json").stdout)
    assert data["query"] == query and isinstance(data["results"], list)


def test_search_results(ok: Run, skc: Run, demo: Path) -> None:
    data = json.loads(ok("search", "demo", "marmalade", "--format", "json").stdout)
    assert {(r["file"], r["section"]) for r in data["results"]} == {
        ("SKILL.md", "Usage"),
        ("SKILL.md", "Demo"),
        ("references/api.md", "API"),
    }
    assert all("[MATCH]marmalade[/MATCH]" in r["snippet"] for r in data["results"])
    limited = json.loads(
        ok("search", "demo", "marmalade", "--limit", "1", "--format", "json").stdout
    )
    assert len(limited["results"]) == 1
    assert skc("search", "demo", "   ").stderr.strip() == "error[E004]: empty query"


def test_paths_never_escape(skc: Run, demo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("secret", encoding="utf-8")
    (demo / "link.txt").symlink_to(outside)
    for path in ("references/../../x", "../x", str(outside), "link.txt"):
        result = skc("open", "demo", path)
        assert result.returncode == 1, path
        assert result.stderr.startswith("error[E012]: path escapes skill root:"), path
        assert "secret" not in result.stdout
    escaped = skc("sources", "demo", "--dir", "../..")
    assert escaped.stderr.startswith("error[E012]")


def test_sources_limit_on_300_files(ok: Run, demo: Path) -> None:
    for i in range(300):
        (demo / "data" / f"f{i:03}.txt").parent.mkdir(exist_ok=True)
        (demo / "data" / f"f{i:03}.txt").write_text("x", encoding="utf-8")
    lines = ok("sources", "demo", "--limit", "50").stdout.splitlines()
    assert len(lines) == 1 + 50 + 1
    assert lines[-1].endswith("more)")
    assert ok("sources", "demo", "--depth", "1").stdout.splitlines()[1:3] == [
        "├── SKILL.md",
        "├── data/ (300 files)",
    ]
