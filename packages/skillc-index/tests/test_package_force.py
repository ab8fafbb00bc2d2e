"""``skc package --force`` (audit s36): what it moves aside is put back when the write
fails. On real folders."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout
from skillc_index.command_errors import CannotCreate
from skillc_index.package.make import package_skills


def test_a_file_force_moved_aside_is_put_back_when_the_write_fails(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--force`` moved the user's ``plugin.json`` aside, then the write failed (no room
    left): the run exited 1 and the file stayed under a hidden backup name, without a word.
    It is put back now, and the error says so."""
    folder = write_skill(project / "shape")
    out = tmp_path / "out"
    (out / "shape").mkdir(parents=True)
    (out / "shape" / "plugin.json").write_text('{"name": "my-own"}')
    opened = os.open

    def full(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
        if ".SKILL.md.tmp" in os.fsdecode(path):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return opened(path, flags, mode, **kwargs)

    monkeypatch.setattr(os, "open", full)
    with pytest.raises(CannotCreate) as failed:
        package_skills([str(folder)], layout, fmt="plugin", output=out, force=True)
    assert failed.value.reason == (
        f"{os.strerror(errno.ENOSPC)}; {out / 'shape' / 'plugin.json'} put back where it was"
    )
    assert sorted(p.name for p in out.rglob("*")) == ["plugin.json", "shape"]
    assert (out / "shape" / "plugin.json").read_text() == '{"name": "my-own"}'


def test_a_file_where_the_package_needs_a_folder_is_e050_and_force_moves_it_aside(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """The skill's file ``docs``, packaged, then made a folder: every later run was E999
    ``File exists`` (its folders could not be made), ``--force`` too, until the user removed
    the file by hand. It is E050 naming it now, before anything is written, and ``force``
    moves it aside as any file in the package's way."""
    from skillc_index.command_errors import ForeignFile
    from skillc_index.diagnostics import format_diagnostic

    folder = write_skill(project / "shape", files={"docs": "v1\n"})
    out = tmp_path / "out"
    package_skills([str(folder)], layout, fmt="plugin", output=out)
    (folder / "docs").unlink()
    (folder / "docs").mkdir()
    (folder / "docs" / "a.md").write_text("v2\n")
    docs = out / "shape" / "skills" / "shape" / "docs"
    with pytest.raises(ForeignFile) as refused:
        package_skills([str(folder)], layout, fmt="plugin", output=out)
    assert format_diagnostic(refused.value.diagnostic) == (
        f"error[E050]: '{docs}' already exists\n"
        "hint: a file where the package needs a folder; use force to move it aside"
    )
    assert docs.read_text() == "v1\n"
    result = package_skills([str(folder)], layout, fmt="plugin", output=out, force=True)
    assert (docs / "a.md").read_text() == "v2\n"
    ((path, aside),) = result.moved
    assert path == docs and aside.read_text() == "v1\n"
    assert [n.text for n in result.warnings] == [
        "shape: its files changed since the last package, its version did not (1.0.0): Claude "
        "Code updates an installed plugin only when the version changes; pass --version (1.0.1)",
        f"{docs} was where the package needs a folder: moved to {aside}",
    ]
    assert result.to_dict()["moved"] == [{"path": str(docs), "backup": str(aside)}]
