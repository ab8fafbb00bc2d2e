"""One walk for skills (DECISIONS: "Walking a folder for skills"): ``skc build``, ``skc lint``
and ``skc find`` find the same skills in a repository shaped like openai/skills (its skills in
``skills/.curated/``, ``skills/.system/``...), and none of those under version control,
virtual environments, ``node_modules``, caches or skillc's own runtime."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., "subprocess.CompletedProcess[str]"]

SKILLS = ("skills/.curated/pdf-tables", "skills/.experimental/pdf-forms", "skills/.system/pdf-text")
NOT_SKILLS = (
    ".git/hooks/in-git",
    ".venv/lib/in-venv",
    "node_modules/pkg/in-node-modules",
    "skills/.curated/__pycache__/in-pycache",
    ".pytest_cache/in-cache",
    ".skillc/runtime/in-runtime",
    "skills/.pdf-tables.skillc-backup-20260101T000000Z",
)


def test_build_lint_and_find_walk_the_same_folders(
    skc: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    repo = project / "openai-skills"
    for folder in (*SKILLS, *NOT_SKILLS):
        name = folder.rpartition("/")[2].strip(".")
        description = f"Read PDF files ({name}). Use when a PDF is given."
        write_skill(repo / folder, name, description, "Read the PDF.\n")
    names = sorted(folder.rpartition("/")[2] for folder in SKILLS)

    lint = skc("lint", "openai-skills", "--format", "json")
    assert lint.returncode == 0, lint.stderr
    assert sorted(item["skill"] for item in json.loads(lint.stdout)) == names
    lint_text = skc("lint", "openai-skills")
    assert lint_text.stdout.splitlines()[-1] == "3 skills: 0 errors, 0 warnings"

    found = skc("find", "read pdf", "--path", "openai-skills", "--format", "json",
                env_extra={"SKILLC_FIND_SERVER": "0"})  # fmt: skip
    assert found.returncode == 0, found.stderr
    named = sorted(s["name"] for s in json.loads(found.stdout)["skills"])  # by path: --path
    assert named == sorted(f"./openai-skills/{folder}" for folder in SKILLS)
    found_text = skc("find", "read pdf", "--path", "openai-skills",
                     env_extra={"SKILLC_FIND_SERVER": "0"})  # fmt: skip
    assert "openai-skills/skills/.system/pdf-text" in found_text.stdout

    built = skc("build", "openai-skills", "--format", "json")
    assert built.returncode == 0, built.stderr
    assert sorted(r["skill"] for r in json.loads(built.stdout)["results"]) == names
    built_text = skc("build", "openai-skills")
    assert built_text.stdout.splitlines()[-1] == "3 skills: 0 built, 3 up to date, 0 failed"
