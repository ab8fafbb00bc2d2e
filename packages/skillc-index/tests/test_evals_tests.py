"""``evals/`` at a skill's root holds the skill's tests, not the skill: no file of it
(:func:`~skillc_index.skill_files.walk_skill`'s ``tests``), so not in its source hash (an edit there
alone leaves the skill built and current), refused to what serves agents; the import of a
folder still copies it (``skc eval`` reads a store copy's cases)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout, open_in_root
from skillc_index.diagnostics import EvalsPath
from skillc_index.digests import source_hash
from skillc_index.files import evals_refusal
from skillc_index.glob import refusal
from skillc_index.skill_files import walk_skill

Run = Callable[..., subprocess.CompletedProcess[str]]
CASES = {"skill_name": "demo", "evals": [{"id": 1, "prompt": "demo it", "expected_output": "x"}]}


def _tested(folder: Path, write_skill: Callable[..., Path]) -> Path:
    return write_skill(
        folder,
        "demo",
        "Demo things. Use when testing.",
        files={
            "references/guide.md": "# Guide\n",
            "evals/evals.json": json.dumps(CASES),
            "evals/files/input.txt": "fixture\n",
            "evals.md": "# Not in the folder: a file of the skill\n",
        },
    )


def test_the_walk_keeps_the_tests_apart(tmp_path: Path, write_skill: Callable[..., Path]) -> None:
    root = _tested(tmp_path / "demo", write_skill)
    (root / "references" / "cases.json").symlink_to("../evals/evals.json")
    (root / "sub" / "evals").mkdir(parents=True)
    (root / "sub" / "evals" / "x.json").write_text("{}", encoding="utf-8")  # not at the root
    found = walk_skill(root)
    assert found.files == (
        "SKILL.md", "evals.md", "references/guide.md", "sub/evals/x.json"
    )  # fmt: skip
    assert found.tests == ("evals/evals.json", "evals/files/input.txt", "references/cases.json")
    assert found.every == found.linted == tuple(sorted(found.files + found.tests))
    # what a .gitignore excludes of the tests is ignored, as of any file
    (root / ".gitignore").write_text("evals/files/\n", encoding="utf-8")
    found = walk_skill(root)
    assert found.ignored == ("evals/files/input.txt",)
    assert found.tests == ("evals/evals.json", "references/cases.json")
    assert "evals/files/input.txt" in found.every and "evals/files/input.txt" not in found.linted


def test_the_walk_knows_the_tests_spelled_otherwise_where_case_is_ignored(
    tmp_path: Path, write_skill: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a file system that ignores case (macOS's, Windows') ``EVALS/`` is the ``evals``
    folder: its files are tests, as ``open`` refuses them (``evals_refusal``). Linux cannot
    ignore case: ``samefile`` answers as such a file system would. Near miss: where
    ``EVALS`` is another folder than ``evals`` (Linux), it is the skill's."""
    root = write_skill(tmp_path / "demo", "demo", "Demo things. Use when testing.")
    (root / "EVALS").mkdir()
    (root / "EVALS" / "evals.json").write_text("{}", encoding="utf-8")
    (root / "cases.json").symlink_to("EVALS/evals.json")
    assert walk_skill(root).tests == ()
    assert walk_skill(root).files == ("EVALS/evals.json", "SKILL.md", "cases.json")

    def ignoring_case(self: Path, other: str | Path) -> bool:
        return str(self).lower() == str(other).lower()

    monkeypatch.setattr(Path, "samefile", ignoring_case)
    found = walk_skill(root)
    assert (found.files, found.tests) == (("SKILL.md",), ("EVALS/evals.json", "cases.json"))


def test_an_edit_of_the_tests_alone_leaves_the_source_hash(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    root = _tested(tmp_path / "demo", write_skill)
    before = source_hash(root)
    (root / "evals" / "evals.json").write_text('{"evals": []}', encoding="utf-8")
    (root / "evals" / "triggers.yaml").write_text("should_trigger: [a]\n", encoding="utf-8")
    assert source_hash(root) == before
    (root / "references" / "guide.md").write_text("# Guide, edited\n", encoding="utf-8")
    assert source_hash(root) != before


def test_readers_that_serve_agents_refuse_the_tests(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    root = _tested(tmp_path / "demo", write_skill)
    (root / "references" / "cases.json").symlink_to("../evals/evals.json")
    real = str(root.resolve())
    with pytest.raises(EvalsPath, match=r"'evals/evals.json' is the skill's tests \(evals/\)"):
        open_in_root(root, "evals/evals.json", tests=False)
    with pytest.raises(EvalsPath, match=r"leads to the skill's tests \('evals/evals.json'\)"):
        open_in_root(root, "references/cases.json", tests=False)
    refused = refusal(root, real, "evals", "evals", folder=True)
    assert isinstance(refused, EvalsPath) and refused.diagnostic.code == "E021"
    assert refusal(root, real, "evals.md", "evals.md") is None
    with open_in_root(root, "evals/evals.json") as handle:  # skc eval's and lint's reads
        assert json.loads(handle.read()) == CASES


def test_the_tests_spelled_otherwise_are_refused_where_they_name_that_folder(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """On a file system that ignores case (macOS's, Windows'), ``EVALS/evals.json`` opens
    ``evals/evals.json``: refused all the same. A symlink stands in for such a name here
    (``samefile`` follows it as it does the other spelling); a real ``Evals/`` of a file system
    that keeps case is a folder of the skill, served."""
    root = _tested(tmp_path / "demo", write_skill)
    real = str(root.resolve())
    (root / "EVALS").symlink_to("evals")
    (root / "Evals").mkdir()
    (root / "Evals" / "x.md").write_text("# X\n", encoding="utf-8")
    refused = evals_refusal("EVALS/evals.json", "EVALS/evals.json", real_root=real)
    assert isinstance(refused, EvalsPath)
    assert evals_refusal("EVALS", "EVALS", folder=True, real_root=real) is not None
    assert evals_refusal("EVALS/evals.json", "EVALS/evals.json") is None  # no root: by name
    assert evals_refusal("Evals/x.md", "Evals/x.md", real_root=real) is None
    assert "Evals/x.md" in walk_skill(root).files


def test_a_built_skill_stays_current_when_only_its_tests_change(
    cli: Callable[..., Run], layout: Layout, write_skill: Callable[..., Path], project: Path
) -> None:
    index = cli("skillc-index", script=True)
    root = _tested(layout.store("project") / "demo", write_skill)
    done = index("build", "demo")
    assert done.returncode == 0, done.stderr

    def status() -> str:
        listed = index("list", "--check-obsolete", "--format", "json")
        assert listed.returncode == 0, listed.stderr
        (skill,) = json.loads(listed.stdout)["skills"]
        return str(skill["status"])

    runtime = layout.runtime_store("project") / "demo"
    stub = (runtime / "SKILL.md").read_text(encoding="utf-8")
    assert "evals" not in stub.replace("evals.md", "")  # the references name no test file
    (root / "evals" / "evals.json").write_text('{"evals": []}', encoding="utf-8")
    (root / "evals" / "more.json").write_text("[]", encoding="utf-8")
    assert status() == "normal"
    done = index("build", "demo")
    assert done.returncode == 0 and "up to date" in done.stdout, done.stdout + done.stderr
    (root / "references" / "guide.md").write_text("# Guide, edited\n", encoding="utf-8")
    assert status() == "obsolete"


def test_an_import_copies_the_tests(
    cli: Callable[..., Run], layout: Layout, write_skill: Callable[..., Path], project: Path
) -> None:
    index = cli("skillc-index", script=True)
    folder = _tested(project / "work" / "demo", write_skill)
    done = index("build", str(folder))
    assert done.returncode == 0, done.stderr
    copy = layout.store("project") / "demo"
    assert json.loads((copy / "evals" / "evals.json").read_text(encoding="utf-8")) == CASES
    assert (copy / "evals" / "files" / "input.txt").is_file()
    # an edit of the folder's tests alone: copied again, the skill not built again
    (folder / "evals" / "evals.json").write_text('{"evals": []}', encoding="utf-8")
    done = index("build", str(folder))
    assert done.returncode == 0, done.stderr
    assert "Runtime:" in done.stdout and "(up to date)" in done.stdout, done.stdout
    assert (copy / "evals" / "evals.json").read_text(encoding="utf-8") == '{"evals": []}'
