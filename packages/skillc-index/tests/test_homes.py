"""The home folders (``skillc_index.homes``): a ``$HOME`` or ``$SKILLC_HOME`` whose symlinks
loop is no home (every command was ``error[E999]: RuntimeError: Symlink loop from ...``)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import layout
from skillc_index.config import folder_variable_notices
from skillc_index.homes import home_dir, home_loops, resolved_home, user_home


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    return tmp_path / "loop1"


def test_a_home_whose_symlinks_loop_is_no_home_and_is_warned_of(loop: Path, tmp_path: Path) -> None:
    mine = (tmp_path / "mine").resolve()
    mine.mkdir()
    assert home_loops(loop) and not home_loops(mine)
    assert user_home({"HOME": str(loop)}) == layout.NO_HOME
    assert home_dir({"HOME": str(loop)}) == layout.NO_HOME
    assert home_dir({"HOME": str(mine), "SKILLC_HOME": str(loop)}) == layout.NO_HOME
    assert user_home({"HOME": str(mine), "SKILLC_HOME": str(loop)}) == mine
    assert home_dir({"HOME": str(mine)}) == mine
    said = [n.text for n in folder_variable_notices({"HOME": str(mine), "SKILLC_HOME": str(loop)})]
    assert said == [
        f"environment variable SKILLC_HOME={str(loop)!r} is a symlink loop; no home folder"
        " is used: set it to a folder of your own"
    ]
    assert folder_variable_notices({"HOME": str(mine)}) == []


def test_a_real_loop_is_found_on_every_python_and_a_home_not_made_yet_is_no_loop(
    loop: Path, tmp_path: Path
) -> None:
    """Python 3.13's ``Path.resolve`` returns a looping path where 3.10-3.12 raised
    ``RuntimeError``: the loop is found by a stat of the resolved path, the same on every
    version (run this file under 3.11 and 3.13); a home not there yet is none."""
    (tmp_path / "to-loop").symlink_to(loop)
    assert resolved_home(loop) == layout.NO_HOME
    assert resolved_home(tmp_path / "to-loop") == layout.NO_HOME
    assert resolved_home(loop / "under") == layout.NO_HOME
    later = tmp_path.resolve() / "not-yet" / "home"
    assert resolved_home(later) == later and not home_loops(later)


def test_a_loop_resolve_leaves_unresolved_is_found_as_on_313(
    loop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What 3.13 does, on any Python: ``resolve`` returns the looping path as it is (3.10-3.12
    raise ``RuntimeError``), and the stat of it says ELOOP."""
    monkeypatch.setattr(Path, "resolve", lambda self, strict=False: self.absolute())
    assert resolved_home(loop) == layout.NO_HOME and home_loops(loop)


def test_skc_with_a_looping_skillc_home_warns_and_runs(
    loop: Path, cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]]
) -> None:
    """The installed command, in a process of this Python: no "owned by another user"."""
    proc = cli("skillc-index", process=True)("list", env_extra={"SKILLC_HOME": str(loop)})
    assert proc.returncode == 0, proc.stderr
    assert f"SKILLC_HOME={str(loop)!r} is a symlink loop" in proc.stderr
    assert "error" not in proc.stderr
