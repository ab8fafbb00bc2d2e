"""``skc package`` killed part way (SIGKILL, an OOM kill, a power cut: none of its clean-up
runs): the next run recognises every file the killed run left as skillc's, and removes its
temporary files. On real folders; the kill is an exception no handler of the run catches,
raised at a rename."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout
from skillc_index.package.make import package_skills


class Killed(BaseException):
    """Where a SIGKILL stops the run: nothing after it runs."""


def kill_at_rename(monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """A rename (``os.replace``, by path or in a folder's descriptor, and :meth:`Path.replace`
    through it) raises :class:`Killed` at its ``at``-th call (0: the first)."""
    replace = os.replace
    calls = itertools.count()

    def stopped(*args: Any, **kwargs: Any) -> None:
        if next(calls) == at:
            raise Killed
        replace(*args, **kwargs)

    def path_replace(self: Path, target: str | Path) -> Path:
        os.replace(self, target)  # noqa: PTH105 - the patched one
        return type(self)(target)

    monkeypatch.setattr(os, "replace", stopped)
    monkeypatch.setattr(Path, "replace", path_replace)  # 3.10's kept its own os.replace


def published(folder: Path) -> dict[str, bytes]:
    """The files in ``folder`` but temporary ones (``.<name>.tmp.<pid>-<hex>``)."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and ".tmp." not in path.name
    }


@pytest.mark.parametrize("at", range(5))
def test_a_run_killed_between_its_renames_leaves_files_the_next_run_calls_skillcs(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    at: int,
) -> None:
    """The record was renamed last: a run killed before it left new files whose digest the
    record did not hold, and once the skill was edited again the next run refused skillc's
    own file (E050, until ``--force`` moved it aside). ``at``: the rename the kill stops (the
    record of both digests, index.json, notes/SKILL.md, pdf-tool.zip, the record of the new
    ones)."""
    skills = project / "skills"
    write_skill(skills / "notes")
    write_skill(skills / "pdf-tool", files={"extract.py": "print(1)\n"})
    given = [str(skills / "notes"), str(skills / "pdf-tool")]
    out = tmp_path / "dist"
    package_skills(given, layout, fmt="well-known", output=out)

    def edit(text: str) -> None:
        for name in ("notes", "pdf-tool"):
            with (skills / name / "SKILL.md").open("a", encoding="utf-8") as handle:
                handle.write(text)

    edit("\nMore.\n")
    kill_at_rename(monkeypatch, at)
    with pytest.raises(Killed):
        package_skills(given, layout, fmt="well-known", output=out)
    monkeypatch.undo()
    edit("\nEven more.\n")
    package_skills(given, layout, fmt="well-known", output=out)  # E050 before
    package_skills(given, layout, fmt="well-known", output=tmp_path / "fresh")
    assert published(out) == published(tmp_path / "fresh")  # the record too; nothing aside


def test_the_temporary_files_a_killed_run_left_are_removed_by_the_next(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run killed between writing its files under temporary names and renaming them left
    ``.<name>.tmp.<pid>-<hex>`` files in the output for good (231 after 30 kills), in
    ``.well-known/agent-skills/`` too, which a web server publishes. The next run removes
    those of processes that no longer run, beside the files it writes, and nothing else: not
    those of a running process, nor a name of that shape beside no file of the package."""
    write_skill(project / "skills" / "notes", files={"more.md": "More.\n"})
    given = [str(project / "skills" / "notes")]
    out = tmp_path / "dist"
    kill_at_rename(monkeypatch, 0)  # all three still to rename
    with pytest.raises(Killed):
        package_skills(given, layout, fmt="well-known", output=out)
    monkeypatch.undo()
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # its pid: a process that no longer runs
    left = sorted(path for path in out.rglob(".*.tmp.*"))
    assert len(left) == 3  # the record's, the zip's, the index's
    for path in left:
        path.rename(path.with_name(path.name.replace(f".{os.getpid()}-", f".{child.pid}-")))
    folder = out / ".well-known" / "agent-skills"
    kept = [
        folder / f".index.json.tmp.{os.getppid()}-0a1b2c3d",  # a running process's
        folder / f".other.zip.tmp.{child.pid}-0a1b2c3d",  # beside no file of the package
    ]
    for path in kept:
        path.write_bytes(b"x")
    package_skills(given, layout, fmt="well-known", output=out)
    assert sorted(out.rglob(".*.tmp.*")) == sorted(kept)


def index_disagreements(out: Path, index: str) -> list[str]:
    """The entries of the index ``index`` in ``out`` that name a digest the file beside it has
    not (or a file not there): a discovery index's ``digest`` of its artifact, a
    marketplace's plugin whose folder holds a file the record gives another digest."""
    import hashlib

    data = json.loads((out / index).read_bytes())
    wrong = []
    for entry in data.get("skills", []):
        rel = entry["url"].split("/.well-known/agent-skills/", 1)[1]
        path = out / ".well-known" / "agent-skills" / rel
        found = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
        if entry["digest"] != f"sha256:{found}":
            wrong.append(rel)
    return wrong


@pytest.mark.parametrize("at", range(7))
def test_a_run_killed_between_its_renames_leaves_an_index_naming_the_files_there(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    at: int,
) -> None:
    """index.json was renamed among the files it names (in the order of their names): a run
    killed between two renames left an index giving the digests of one run while the files
    beside it were the other's (3 of 30 SIGKILLs of ``skc package --to well-known``), and an
    agent verifying them refused the skills. Now an index without the entries of the files
    changing is renamed first, then the files, then the whole index: whatever rename the kill
    stops, each digest the index gives is that of the file there. ``at``: the rename stopped
    (the record of both digests, the index without alpha, notes and pdf-tool, their three
    files, the index, the record)."""
    skills = project / "skills"
    for name in ("alpha", "notes", "pdf-tool", "zeta"):
        write_skill(skills / name, files={"extract.py": "print(1)\n"} if name == "pdf-tool" else {})
    given = [str(skills / name) for name in ("alpha", "notes", "pdf-tool", "zeta")]
    out = tmp_path / "dist"
    package_skills(given, layout, fmt="well-known", output=out)
    for name in ("alpha", "notes", "pdf-tool"):  # zeta's files stay as they are
        with (skills / name / "SKILL.md").open("a", encoding="utf-8") as handle:
            handle.write("\nMore.\n")
    kill_at_rename(monkeypatch, at)
    with pytest.raises(Killed):
        package_skills(given, layout, fmt="well-known", output=out)
    monkeypatch.undo()
    index = ".well-known/agent-skills/index.json"
    assert index_disagreements(out, index) == []
    listed = {entry["name"] for entry in json.loads((out / index).read_bytes())["skills"]}
    assert "zeta" in listed  # what no rename changes stays listed all along
    for name in ("alpha", "zeta"):  # edited again: the index there is still skillc's own
        with (skills / name / "SKILL.md").open("a", encoding="utf-8") as handle:
            handle.write("\nEven more.\n")
    package_skills(given, layout, fmt="well-known", output=out)  # the next run: all of them
    assert index_disagreements(out, index) == []
    assert len(json.loads((out / index).read_bytes())["skills"]) == 4


@pytest.mark.parametrize("at", range(7))
def test_an_index_too_large_to_read_is_still_renamed_before_the_files(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    at: int,
) -> None:
    """The index without the changing entries was renamed first only when the earlier
    index could be read (a digest for it): one over 1 MiB, or unreadable, was renamed after
    the files again, and a kill between left it giving the old digests. Whether one is
    there decides (read here as too large: ``read_bounded`` gives more than 1 MiB)."""
    from skillc_index import bounded_json

    skills = project / "skills"
    for name in ("alpha", "notes", "pdf-tool", "zeta"):
        write_skill(skills / name)
    given = [str(skills / name) for name in ("alpha", "notes", "pdf-tool", "zeta")]
    out = tmp_path / "dist"
    package_skills(given, layout, fmt="well-known", output=out)
    for name in ("alpha", "notes", "pdf-tool"):
        with (skills / name / "SKILL.md").open("a", encoding="utf-8") as handle:
            handle.write("\nMore.\n")
    index = ".well-known/agent-skills/index.json"
    read = bounded_json.read_bounded

    def too_large(path: Any, limit: int, *args: Any, **kwargs: Any) -> bytes:
        if Path(path) == out / index:
            return b" " * (limit + 1)
        return read(path, limit, *args, **kwargs)

    monkeypatch.setattr(bounded_json, "read_bounded", too_large)
    kill_at_rename(monkeypatch, at)
    with pytest.raises(Killed):
        package_skills(given, layout, fmt="well-known", output=out)
    monkeypatch.undo()
    assert index_disagreements(out, index) == []
