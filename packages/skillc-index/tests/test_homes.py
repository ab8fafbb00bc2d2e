"""The home folders (``skillc_index.homes``): a ``$HOME`` or ``$SKILLC_HOME`` whose symlinks
loop is no home (every command was ``error[E999]: RuntimeError: Symlink loop from ...``)."""

from __future__ import annotations

import errno
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


def test_the_loop_as_python_3_13_raises_it_and_no_other_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Python 3.13's ``Path.resolve`` raises ``OSError`` ``ELOOP`` where 3.11 raised
    ``RuntimeError``; any other ``OSError`` is not a loop and is raised."""
    raised: list[OSError] = []

    def resolve(self: Path, strict: bool = False) -> Path:
        raise raised[0]

    monkeypatch.setattr(Path, "resolve", resolve)
    raised.append(OSError(errno.ELOOP, "Too many levels of symbolic links"))
    assert resolved_home(tmp_path) == layout.NO_HOME
    raised[0] = OSError(errno.EACCES, "Permission denied")
    with pytest.raises(PermissionError):
        resolved_home(tmp_path)
