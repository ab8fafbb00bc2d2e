"""Access logging end to end (RFC-0007:C-LOGGING, DECISIONS "Logging and analytics").

Every command that resolves a skill records one row in ``<runtime>/.skillc-meta/logs.db``:
successes with ``error`` NULL, failures with their diagnostic; nothing is logged when the
skill does not resolve (there is no runtime to log to).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from e2e_support import access_rows

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def test_each_command_logs_one_row(ok: Run, skc: Run, project: Path) -> None:
    ok("init")
    ok("init", "demo")
    ok("build", "demo")
    ok("outline", "demo")
    ok("sources", "demo")
    ok("open", "demo", "SKILL.md")
    assert skc("open", "demo", "missing.md").returncode == 1
    ok("lint", "demo")
    assert skc("outline", "nope").returncode == 1  # E001: nothing to log to
    rows = access_rows(project / ".skillc" / "runtime" / "demo")
    assert [row["command"] for row in rows] == [
        "build",
        "outline",
        "sources",
        "open",
        "open",
        "lint",
    ]
    source = str((project / ".skillc" / "skills" / "demo").resolve())
    for row in rows:
        assert row["skill"] == "demo" and row["skill_path"] == source
        assert row["cwd"] == str(project.resolve())
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", row["timestamp"])
        assert isinstance(json.loads(row["args"]), dict)
    assert rows[4]["error"] == "error[E021]: file not found: 'missing.md'"
    assert [row["error"] for row in rows if row["error"]] == [rows[4]["error"]]
    assert json.loads(rows[5]["args"])["warnings"] >= 1  # the template's TODO description


def test_run_id_comes_from_the_environment(ok: Run, project: Path) -> None:
    ok("init")
    ok("init", "demo")
    ok("outline", "demo", env_extra={"SKC_RUN_ID": "session-42"})
    ok("outline", "demo")
    first, second = access_rows(project / ".skillc" / "runtime" / "demo")
    assert first["run_id"] == "session-42"
    assert re.match(r"^\d{8}T\d{6}Z-[0-9a-f]{4}$", second["run_id"])


def test_failed_build_is_logged_with_its_error(ok: Run, skc: Run, project: Path) -> None:
    ok("init")
    ok("init", "demo")
    skill_md = project / ".skillc" / "skills" / "demo" / "SKILL.md"
    skill_md.write_text("---\nname: demo\n---\n# Demo\n", encoding="utf-8")
    assert skc("build", "demo").returncode == 1
    (row,) = access_rows(project / ".skillc" / "runtime" / "demo")
    assert row["command"] == "build"
    assert row["error"] == "error[E011]: missing frontmatter field 'description' in SKILL.md"


def test_unwritable_runtime_falls_back_to_the_working_directory(
    ok: Run, skc: Run, project: Path, home: Path
) -> None:
    ok("init", "demo", "--global")
    runtime = home / ".skillc" / "runtime"
    runtime.parent.mkdir(parents=True, exist_ok=True)
    runtime.write_text("a file where the runtime store should be", encoding="utf-8")
    proc = ok("outline", "demo")
    assert "warning[W002]" not in proc.stderr
    fallback = project / ".skillc" / "logs" / "demo"
    (row,) = access_rows(fallback)
    assert row["command"] == "outline"


def test_a_non_utf8_argument_never_fails_the_command(
    ok: Run, skc_path: Path, clean_env: dict[str, str], project: Path
) -> None:
    """Logging never fails a command: an argument that is not UTF-8 (lone surrogates once in
    Python) is logged with U+FFFD and the command reports its own outcome (E021)."""
    ok("init")
    ok("init", "demo")
    proc = subprocess.run(
        [str(skc_path).encode(), b"open", b"demo", b"\xff.md"],
        cwd=project,
        env=clean_env,
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stderr.decode("utf-8", "replace").startswith("error[E021]: file not found:")
    (row,) = access_rows(project / ".skillc" / "runtime" / "demo")
    assert json.loads(row["args"])["path"] == "\ufffd.md"
