"""JSON files of a checkout that a stranger wrote (nested past the parser's recursion, or
huge): each is read within bounds, so it is that one skill skipped and counted, or that one
file refused with its name, never ``E999 RecursionError`` for the whole command."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from e2e_support import write

Run = Callable[..., "subprocess.CompletedProcess[str]"]

DEEP = "[" * 100_000 + "]" * 100_000


def test_a_deployed_copy_with_a_deep_manifest_in_a_checkout(
    skc: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    (project / ".skillc").mkdir()
    agents = project / ".claude" / "skills"
    write_skill(agents / "good", "good", "Convert PDF files to text.", "## Usage\n\nUse it.\n")
    evil = write_skill(agents / "evil", "evil", "Convert PDF files too.", "## Usage\n\nUse it.\n")
    write(evil / ".skillc-meta" / "manifest.json", DEEP)
    found = skc("find", "convert pdf", "--format", "json", env_extra={"SKILLC_FIND_SERVER": "0"})
    assert found.returncode == 0, found.stderr
    data = json.loads(found.stdout)
    assert ([s["name"] for s in data["skills"]], data["skipped"]) == (["good"], 1)
    outline = skc("outline", ".claude/skills/evil")
    assert (outline.returncode, outline.stdout) == (0, "SKILL.md\n  # evil\n    ## Usage\n")
    routed = skc("route", "install", "--dry-run", "--format", "json")
    assert routed.returncode == 1, routed.stderr  # evil does not build: a failure, good routed
    assert "error[E100]: .claude/skills/evil: " in routed.stderr
    assert "Traceback" not in routed.stderr
    plan = json.loads(routed.stdout)
    assert [s["name"] for s in plan["skills"]] == ["good"]
    assert [s["name"] for s in plan["left"]] == ["evil"]  # a compiled skill: does not build
    built = skc("build", ".claude/skills", "--format", "json")
    assert "RecursionError" not in built.stderr
    assert [r["skill"] for r in json.loads(built.stdout)["results"]] == ["evil", "good"]


def test_a_store_copy_with_a_deep_import_record(
    skc: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    store = project / ".skillc" / "skills"
    demo = write_skill(store / "demo", "demo", "A demo skill.", "## Usage\n\nUse it.\n")
    write(demo / ".skillc-import.json", DEEP)
    for args in (("build", "demo"), ("build", "--all"), ("outline", "demo"), ("list",)):
        result = skc(*args)
        assert result.returncode == 0, (args, result.stderr)
    assert json.loads(skc("build", "--all", "--format", "json").stdout)["summary"] == {
        "skills": 1, "built": 0, "up_to_date": 1, "failed": 0,
    }  # fmt: skip


def test_a_deep_route_manifest_is_refused_naming_it(
    skc: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    (project / ".skillc").mkdir()
    write_skill(
        project / ".claude" / "skills" / "good",
        "good",
        "Convert PDF files to text.",
        "## Usage\n\nUse it.\n",
    )
    manifest = write(project / ".skillc" / "router" / "claude.json", DEEP)
    for args in (("route", "status"), ("route", "install"), ("route", "uninstall")):
        result = skc(*args)
        assert result.returncode == 1
        assert result.stderr.startswith(
            f"error[E999]: the route manifest '{manifest}' cannot be used: it is nested deeper "
            "than 64 levels; "
        )
        assert "Restore it (from git or a backup)" in result.stderr
    assert (project / ".claude" / "skills" / "good" / "SKILL.md").is_file()
