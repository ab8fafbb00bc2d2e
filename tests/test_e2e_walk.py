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


def test_a_package_made_in_the_project_root_is_no_second_copy_of_its_skills(
    skc_installed: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """``skc package -o .`` writes copies of the skills into the project (a plugin's
    ``office/skills/<name>``, a discovery index's ``.well-known/agent-skills/<name>``): ``skc
    build .`` refused each name as "in 3 folders", ``skc lint .`` linted each three times and
    ``skc find`` answered with a copy. Build, list and find see each skill once, its
    source; lint lints the copies too (a record is project content a stranger can write: it
    never hides a skill from the linter), each copy a skill of its own folder."""
    skc = skc_installed
    for name in ("alpha", "beta"):
        write_skill(project / "skills" / name, name, f"Sort {name} files. Use when sorting.")
    assert skc("init").returncode == 0
    for to in (["plugin", "--name", "office"], ["claude-plugin", "--name", "cp"], ["well-known"]):
        made = skc("package", "skills/alpha", "skills/beta", "--to", *to, "-o", ".")
        assert made.returncode == 0, made.stderr
    assert (project / "office" / "skills" / "alpha" / "SKILL.md").is_file()
    assert (project / ".well-known" / "agent-skills" / "beta" / "SKILL.md").is_file()

    lint = skc("lint", ".", "--format", "json")  # before build: its store is walked too
    assert lint.returncode == 0, lint.stderr
    linted = sorted(item["skill"] for item in json.loads(lint.stdout))
    assert linted == ["alpha"] * 4 + ["beta"] * 4  # the sources and the three packages' copies
    built = skc("build", ".", "--format", "json")
    assert built.returncode == 0, built.stderr
    assert sorted(r["skill"] for r in json.loads(built.stdout)["results"]) == ["alpha", "beta"]
    listed = skc("list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert sorted(s["name"] for s in json.loads(listed.stdout)["skills"]) == ["alpha", "beta"]
    no_server = {"SKILLC_FIND_SERVER": "0"}
    found = skc("find", "sort files", "--path", ".", "--format", "json", env_extra=no_server)
    assert found.returncode == 0, found.stderr
    named = sorted(s["name"] for s in json.loads(found.stdout)["skills"])
    assert named == ["alpha", "beta"]  # the skills built from their sources, each once
    assert not any(copy in found.stdout for copy in ("office", "cp/", "well-known"))
    found = skc("find", "sort files", "--format", "json", env_extra=no_server)
    assert found.returncode == 0, found.stderr
    assert sorted(s["name"] for s in json.loads(found.stdout)["skills"]) == ["alpha", "beta"]


def test_a_package_written_into_the_users_skills_folder_leaves_its_skills_in_sight(
    skc_installed: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """``skc package skills/alpha --to plugin --name skills -o .`` writes the plugin into the
    user's own ``skills/``: the record named that folder and every walk left it out whole,
    ``skc build .`` found no skill, ``skc lint .``, ``skc list`` and ``skc find`` none of the
    user's. A folder the run did not make is walked: the user's skills are seen, and the
    packaged copy beside them is "in 2 folders", which build says."""
    skc = skc_installed
    for name in ("alpha", "beta"):
        write_skill(project / "skills" / name, name, f"Sort {name} files. Use when sorting.")
    assert skc("init").returncode == 0
    made = skc("package", "skills/alpha", "--to", "plugin", "--name", "skills", "-o", ".")
    assert made.returncode == 0, made.stderr
    assert (project / "skills" / "skills" / "alpha" / "SKILL.md").is_file()

    lint = skc("lint", ".", "--format", "json")
    assert lint.returncode == 0, lint.stderr
    assert sorted(item["skill"] for item in json.loads(lint.stdout)) == ["alpha", "alpha", "beta"]
    built = skc("build", ".")
    assert built.returncode == 1
    assert (
        "the skill name 'alpha' is in 2 folders: skills/alpha, skills/skills/alpha" in built.stderr
    )
    assert built.stdout.splitlines()[-1] == "2 skills: 1 built, 0 up to date, 1 failed"
    listed = skc("list", "--format", "json")
    assert [s["name"] for s in json.loads(listed.stdout)["skills"]] == ["beta"]
    no_server = {"SKILLC_FIND_SERVER": "0"}
    found = skc("find", "sort beta files", "--path", ".", "--format", "json", env_extra=no_server)
    assert found.returncode == 0, found.stderr
    assert "beta" in [s["name"] for s in json.loads(found.stdout)["skills"]]
