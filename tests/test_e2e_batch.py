"""``skc build`` of many skills end to end (issue 16): the installed ``skc`` over folders of
skills and ``--all``, the whole corpus included."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def test_repository_layout_edit_and_rebuild(
    skc_installed: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """The common layout: skills/<name>/ in the repository, built as a folder, edited,
    built again: no E050, the edit deployed; a single skill still prints its own report."""
    assert skc_installed("init").returncode == 0
    for name in ("alpha", "beta"):
        write_skill(
            project / "skills" / name, description="About it.", heading=False, body="Body.\n"
        )
    first = skc_installed("build", "skills/")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[-1] == "2 skills: 2 built, 0 up to date, 0 failed"
    write_skill(
        project / "skills" / "alpha", description="About it.", heading=False, body="Edited body.\n"
    )
    again = skc_installed("build", "skills/")
    assert again.returncode == 0, again.stderr
    assert "E050" not in again.stderr
    assert again.stdout.splitlines()[-1] == "2 skills: 1 built, 1 up to date, 0 failed"
    shown = skc_installed("open", "alpha", "SKILL.md")
    assert "Edited body." in shown.stdout
    single = skc_installed("build", "skills/alpha")
    assert single.stdout.splitlines()[0].startswith("Import:  skills/alpha -> ")


@pytest.mark.corpus
def test_build_all_over_the_corpus(skc_installed: Run, project: Path) -> None:
    """Every corpus skill copied into the project store, then ``skc build --all``: each
    one built and deployed with its frontmatter's name, none failed; again: all up to date."""
    corpus = _corpus()
    if not corpus.is_dir():
        pytest.skip(f"corpus not found at {corpus} (set SKILLC_CORPUS to use another)")
    assert skc_installed("init").returncode == 0
    store = project / ".skillc" / "skills"
    taken: set[str] = set()
    for folder in sorted(p.parent for p in corpus.rglob("SKILL.md") if p.is_file()):
        name, number = folder.name, 1
        while name in taken:
            number += 1
            name = f"{folder.name}-{number}"
        taken.add(name)
        shutil.copytree(folder, store / name, symlinks=True)
    built = skc_installed("build", "--all", "--format", "json")
    data = json.loads(built.stdout)
    failed = [r for r in data["results"] if "error" in r]
    assert failed == [] and built.returncode == 0, failed[:3]
    assert data["summary"] == {
        "skills": len(taken),
        "built": len(taken),
        "up_to_date": 0,
        "failed": 0,
    }
    for name in sorted(taken)[:: max(1, len(taken) // 25)]:
        deployed = project / ".claude" / "skills" / name / "SKILL.md"
        head = deployed.read_text(encoding="utf-8").split("---\n")[1]
        assert "name" in yaml.safe_load(head)
    again = skc_installed("build", "--all", "--format", "json")
    assert json.loads(again.stdout)["summary"]["up_to_date"] == len(taken)


def test_a_batch_whose_workers_cannot_start_ends_with_its_error(
    skc_path: Path, clean_env: dict[str, str], project: Path, write_skill: Callable[..., Path]
) -> None:
    """With no file descriptor left for a second worker, the pool's first worker waited for
    work that never came and the batch hung for ever after its E999."""
    import resource

    for name in ("a1", "a2", "a3", "a4", "a5", "a6", "a7"):
        write_skill(project / ".skillc" / "skills" / name)

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (14, 14))

    done = subprocess.run(
        [str(skc_path), "build", "--all"],
        cwd=project,
        env=clean_env,
        capture_output=True,
        text=True,
        preexec_fn=few_files,
        timeout=120,
        check=False,
    )
    if done.returncode == 0:
        pytest.skip("14 file descriptors were enough here: no worker failed to start")
    assert done.returncode == 1
    assert done.stderr.startswith("error[E999]: OSError: [Errno 24] Too many open files")


def test_with_no_shared_memory_batches_build_and_lint_one_at_a_time(
    skc_path: Path, clean_env: dict[str, str], project: Path, write_skill: Callable[..., Path]
) -> None:
    """A sandbox or container with no writable ``/dev/shm`` gives no process pool (its
    semaphores): ``build --all``, ``lint`` and ``skillc-lint`` of many skills said a bare
    ``error[E999]: OSError: [Errno 30] Read-only file system``; they build and lint here,
    one skill after another, and say why once."""
    from e2e_support import without_shared_memory

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core: no batch asks for a pool of processes")
    for name in ("a1", "a2", "a3"):
        write_skill(project / ".skillc" / "skills" / name)

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            without_shared_memory([*command]),
            cwd=project,
            env={**clean_env, "PATH": f"{skc_path.parent}{os.pathsep}{clean_env['PATH']}"},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    built = run(str(skc_path), "build", "--all")
    assert built.returncode == 0, built.stderr
    assert built.stdout.splitlines()[-1] == "3 skills: 3 built, 0 up to date, 0 failed"
    assert built.stderr == (
        "warning: no process pool (Read-only file system): building one at a time\n"
    )
    for name in ("a1", "a2", "a3"):
        assert (project / ".claude" / "skills" / name / "SKILL.md").is_file()
    said = "warning: no process pool (Read-only file system): linting one at a time"
    for lint in (
        [str(skc_path), "lint", "--jobs", "2", ".skillc/skills"],
        [str(skc_path.parent / "skillc-lint"), "--jobs", "2", ".skillc/skills"],
    ):
        linted = run(*lint, "--no-cache")
        assert linted.returncode == 0, linted.stderr
        assert linted.stderr.splitlines()[0] == said, linted.stderr
        assert "Traceback" not in linted.stderr
        assert linted.stdout.count("0 errors") == 4, linted.stdout  # 3 skills, the summary


def test_build_all_in_a_project_rebuilds_a_global_import_in_the_global_store(
    ok: Run, project: Path, home: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A global store copy imported from a folder is built again from that folder, into the
    global store: ``--all`` in a project imported it into the project's store."""
    source = write_skill(tmp_path / "src" / "demo")
    outside = tmp_path / "outside"
    outside.mkdir()
    ok("build", str(source), cwd=outside)  # no project: into ~/.skillc/skills/demo
    assert (home / ".skillc" / "skills" / "demo" / "SKILL.md").is_file()
    ok("init")
    ok("build", "--all")
    assert not (project / ".skillc" / "skills" / "demo").exists()
    listed = json.loads(ok("list", "--format", "json").stdout)
    assert [(s["name"], s["scope"]) for s in listed["skills"]] == [("demo", "global")]
