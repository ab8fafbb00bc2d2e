"""issue 16, "Scripts break": an agent following a deployed skill runs what the skill documents,
as documented, through ``skc exec``; the stub leads there without naming any path.

The corpus ``pdf`` skill (scientific-skills) documents ``python scripts/...`` commands to run
"from this file's directory". The corpus keeps only Markdown and text (its README: scripts
are left out), so the test puts small stand-ins at the documented paths of a copy of the
skill, each accepting ``--help`` as a real script does; everything else is the corpus's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
import yaml

Run = Callable[..., "subprocess.CompletedProcess[str]"]

STAND_IN = """\
import argparse, os, sys
parser = argparse.ArgumentParser(prog="{name}", description="stand-in for the pdf skill's script")
parser.add_argument("inputs", nargs="*")
args = parser.parse_args()
print("{name} ran in", os.getcwd(), "with", args.inputs, "SKILL_DIR", os.environ["SKILL_DIR"])
"""


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


@pytest.fixture
def pdf(project: Path) -> tuple[Path, list[str]]:
    """A copy of the corpus ``pdf`` skill with its documented scripts, and their paths."""
    corpus = _corpus()
    found = sorted(p.parent for p in corpus.rglob("pdf/SKILL.md")) if corpus.is_dir() else []
    if not found:
        pytest.skip(f"the corpus pdf skill is not under {corpus} (set SKILLC_CORPUS)")
    copy = project / "pdf"
    shutil.copytree(found[0], copy)
    for path in copy.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    documented = sorted(
        set(re.findall(r"`python (scripts/[\w/]+\.py)", (copy / "forms.md").read_text("utf-8")))
    )
    assert "scripts/extract_form_field_info.py" in documented  # what the issue quotes
    for rel in documented:
        (copy / rel).parent.mkdir(parents=True, exist_ok=True)
        (copy / rel).write_text(STAND_IN.format(name=Path(rel).name), encoding="utf-8")
    return copy, documented


def access_rows(project: Path) -> list[tuple[str, dict[str, object]]]:
    logs = project / ".skillc" / "runtime" / "pdf" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(logs)) as db, db:
        rows = db.execute("SELECT command, args FROM access_log ORDER BY id").fetchall()
    return [(command, json.loads(args)) for command, args in rows]


@pytest.mark.corpus
def test_the_pdf_skill_runs_its_documented_scripts_once_deployed(
    skc: Run, skc_installed: Run, project: Path, pdf: tuple[Path, list[str]]
) -> None:
    source, documented = pdf
    (project / ".skillc").mkdir()
    built = skc("build", "./pdf")
    assert built.returncode == 0, built.stderr
    deployed = project / ".claude" / "skills" / "pdf"
    stub = (deployed / "SKILL.md").read_text(encoding="utf-8")
    # the agent's folder holds the stub only; the stub says how to run the skill's scripts
    assert sorted(p.name for p in deployed.iterdir()) == [".skillc-meta", "SKILL.md"]
    assert "`skc exec pdf -- <command>`" in stub
    assert str(project) not in stub and "/" + "tmp" not in stub
    _, _, source_text = (source / "SKILL.md").read_text("utf-8").partition("---\n")
    assert yaml.safe_load(stub.split("\n---\n")[0][4:]) == yaml.safe_load(
        source_text.split("\n---\n")[0]
    )
    store = project / ".skillc" / "skills" / "pdf"
    for rel in documented:
        # as documented ("python scripts/x.py", run from the skill's folder), through skc
        done = skc_installed("exec", "pdf", "--", sys.executable, rel, "--help")
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"usage: {Path(rel).name} [-h]")
    done = skc_installed("exec", "pdf", "--", sys.executable, documented[0], "in.pdf", "out.json")
    assert done.returncode == 0, done.stderr
    name = Path(documented[0]).name
    assert done.stdout == f"{name} ran in {store} with ['in.pdf', 'out.json'] SKILL_DIR {store}\n"
    execs = [args for command, args in access_rows(project) if command == "exec"]
    assert [row["files"] for row in execs] == [*([rel] for rel in documented), [documented[0]]]
    assert {row["program"] for row in execs} == {Path(sys.executable).name}
    assert all(row["exit_code"] == 0 for row in execs)
    stats = skc("stats", "pdf", "--group-by", "commands", "--format", "json")
    assert stats.returncode == 0, stats.stderr
    assert '"exec": ' + str(len(documented) + 1) in stats.stdout.replace("\n", "")


def test_a_markdown_only_skill_does_not_mention_exec(skc: Run, project: Path) -> None:
    skill = project / "notes"
    skill.mkdir()
    (skill / "SKILL.md").write_text("---\nname: notes\ndescription: d\n---\n# Notes\n", "utf-8")
    (skill / "more.md").write_text("# More\n", encoding="utf-8")
    (project / ".skillc").mkdir()
    assert skc("build", "./notes").returncode == 0
    stub = (project / ".claude" / "skills" / "notes" / "SKILL.md").read_text(encoding="utf-8")
    assert "skc exec" not in stub
    (skill / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    assert skc("build", "./notes").returncode == 0
    stub = (project / ".claude" / "skills" / "notes" / "SKILL.md").read_text(encoding="utf-8")
    assert "`skc exec notes -- <command>`" in stub
