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
