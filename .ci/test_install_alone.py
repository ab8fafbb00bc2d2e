"""skillc-lint installs alone (tox env `alone`): the promise of `pip install skillc-lint` in CI.

A clean virtual environment installs skillc-lint from the wheels the `wheels` env built, with
``--no-index``: pip may take nothing from a registry at install time, so every requirement
must be among those wheels or the third-party wheels downloaded beforehand (with the kit's own
wheels removed from that download). Of the kit, only skillc-index and skillc-lint may arrive.
The installed linter then lints the corpus (``$SKILLC_CORPUS`` or ``../shared/corpus``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KIT = {"skillc", "skillc-index", "skillc-lint", "skillc-gateway", "skillc-stats", "skillc-mcp"}


def _run(*argv: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, check=check)


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a venv holding skillc-lint, installed with --no-index."""
    wheels = Path(os.environ["WHEELS"])
    assert list(wheels.glob("skillc_lint-*.whl")), f"no skillc-lint wheel in {wheels}"
    base = tmp_path_factory.mktemp("alone")
    venv.create(base / "venv", with_pip=True)
    bin_ = base / "venv" / "bin"
    deps = base / "deps"
    pip = (bin_ / "python", "-m", "pip", "--disable-pip-version-check", "-q")
    _run(*pip, "download", "--dest", deps, "--find-links", wheels, "skillc-lint")
    for own in deps.glob("skillc*"):
        own.unlink()
    _run(*pip, "install", "--no-index", "--find-links", wheels, "--find-links", deps, "skillc-lint")
    return bin_


def test_only_index_and_lint_of_the_kit_are_installed(alone: Path) -> None:
    listed = json.loads(_run(alone / "python", "-m", "pip", "list", "--format", "json").stdout)
    names = {row["name"].lower().replace("_", "-") for row in listed}
    assert names & KIT == {"skillc-index", "skillc-lint"}
    gone = _run(alone / "python", "-c", "import skillc_gateway", check=False)
    assert gone.returncode == 1 and "ModuleNotFoundError" in gone.stderr


def test_the_installed_linter_lints_a_skill(alone: Path, tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "hello"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: hello\ndescription: Greets the user. Use when asked to say hello.\n---\n"
        "# Hello\n\nSay hello.\n",
        encoding="utf-8",
    )
    bad = tmp_path / "skills" / "Bad"
    bad.mkdir()
    (bad / "SKILL.md").write_text("---\nname: Bad_Name\ndescription: x\n---\nbody\n", "utf-8")
    done = _run(alone / "skillc-lint", "--format", "json", tmp_path / "skills", check=False)
    assert done.returncode == 1, done.stderr
    assert "SKL102" in done.stdout and "hello" in done.stdout


def test_the_installed_linter_lints_the_corpus(alone: Path) -> None:
    corpus = Path(os.environ.get("SKILLC_CORPUS") or ROOT.parent / "shared" / "corpus")
    if not corpus.is_dir():
        pytest.skip(f"no corpus at {corpus}")
    skills = sum(1 for _ in corpus.rglob("SKILL.md"))
    done = _run(alone / "skillc-lint", "--format", "json", corpus, check=False)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    linted = json.loads(done.stdout)
    assert skills > 100 and len(linted) > skills * 9 // 10, (skills, len(linted))
    assert all(record["diagnostics"] is not None for record in linted)


def test_the_pre_commit_hook_of_this_repository(tmp_path: Path) -> None:
    """pre-commit installs the hook from this repository at its HEAD commit (as a user's
    `rev:` names a tag) and the hook fails a commit with a bad skill."""
    head = _run("git", "-C", ROOT, "rev-parse", "HEAD").stdout.strip()
    repo = tmp_path / "repo"
    (repo / "skills" / "Bad").mkdir(parents=True)
    (repo / "skills" / "Bad" / "SKILL.md").write_text("---\nname: Bad_Name\ndescription: x\n---\n")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT}\n    rev: {head}\n    hooks:\n"
        "      - id: skillc-lint\n        args: [skills/]\n"
    )
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    git = ("git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t")
    _run("git", "init", "-q", repo)
    _run(*git, "add", ".")
    hook = [sys.executable, "-m", "pre_commit", "run", "--all-files"]
    failed = subprocess.run(hook, cwd=repo, env=env, capture_output=True, text=True)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "SKL102 name-format" in failed.stdout
    skill = repo / "skills" / "Bad" / "SKILL.md"
    skill.write_text(
        "---\nname: bad\ndescription: Greets. Use when asked to greet.\n---\n# B\n\n"
        "Run `sh scripts/greet.sh`. See [API](references/api.md).\n"
    )
    for name, text in {
        "scripts/greet.sh": "#!/bin/sh\necho hi\n",
        "references/api.md": "# A\n",
    }.items():
        (repo / "skills" / "Bad" / name).parent.mkdir(exist_ok=True)
        (repo / "skills" / "Bad" / name).write_text(text)
    (repo / "skills" / "Bad").rename(repo / "skills" / "bad")
    _run(*git, "add", "-A")
    passed = subprocess.run(hook, cwd=repo, env=env, capture_output=True, text=True)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    _run(*git, "commit", "-qm", "good")
    # A commit that changes no .md file (a token in a script), or only deletes one (a linked
    # reference), is linted too: `pre-commit run` checks the staged files, as a commit does.
    staged = hook[:-1]
    token = "ghp_" + "R8mK2vX9pL4qT7wN3zY6bH1cF5dJ0sAeU8gV"
    (repo / "skills" / "bad" / "scripts" / "greet.sh").write_text(f"#!/bin/sh\nT={token}\n")
    _run(*git, "add", "-A")
    secret = subprocess.run(staged, cwd=repo, env=env, capture_output=True, text=True)
    assert secret.returncode == 1 and "SKL904" in secret.stdout, secret.stdout + secret.stderr
    _run(*git, "reset", "-q", "--hard")
    _run(*git, "rm", "-q", "skills/bad/references/api.md")
    deleted = subprocess.run(staged, cwd=repo, env=env, capture_output=True, text=True)
    assert deleted.returncode == 1 and "SKL301" in deleted.stdout, deleted.stdout + deleted.stderr


def test_the_pre_commit_hook_with_additional_dependencies(tmp_path: Path) -> None:
    """A user's ``additional_dependencies`` replace the hook's own list, which installed
    skillc-index and skillc-lint: the hook failed, ``Executable `skillc-lint` not found``.
    pre-commit's ``pip install .`` at this repository's root installs them (its
    pyproject.toml), whatever the list; no skillc-lint on PATH stands in for it."""
    head = _run("git", "-C", ROOT, "rev-parse", "HEAD").stdout.strip()
    repo = tmp_path / "repo"
    (repo / "skills" / "Bad").mkdir(parents=True)
    (repo / "skills" / "Bad" / "SKILL.md").write_text("---\nname: Bad_Name\ndescription: x\n---\n")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT}\n    rev: {head}\n    hooks:\n"
        "      - id: skillc-lint\n        args: [skills/]\n"
        '        additional_dependencies: ["pyyaml"]\n'
    )
    path = os.pathsep.join(
        folder
        for folder in os.environ.get("PATH", "").split(os.pathsep)
        if not (Path(folder) / "skillc-lint").exists()
    )
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PATH": path}
    _run("git", "init", "-q", repo)
    _run("git", "-C", repo, "add", ".")
    hook = [sys.executable, "-m", "pre_commit", "run", "--all-files"]
    failed = subprocess.run(hook, cwd=repo, env=env, capture_output=True, text=True)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "SKL102 name-format" in failed.stdout, failed.stdout + failed.stderr


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
