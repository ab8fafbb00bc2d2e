"""``skc watch`` through the installed ``skc``: a find server started in the background,
``skc find`` answered through it (its query count says so) with the answer ``skc find`` gives
without it, then stopped. The details are in skillc-gateway's tests/test_watch.py."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")


@pytest.fixture
def home() -> Iterator[Path]:
    """A short ``$SKILLC_HOME``: the server's socket path must fit in 107 bytes."""
    path = Path(tempfile.mkdtemp(prefix="skw-", dir="/tmp")).resolve()
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_skc_find_through_skc_watch(skc_installed: Run, project: Path) -> None:
    skill = project / "skills" / "kite"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: kite\ndescription: Fly a kite on a windy beach.\n---\n\n# Kite\n",
        encoding="utf-8",
    )
    find = ("find", "fly a kite", "--path", "skills", "--format", "json")
    alone = skc_installed(*find)
    assert (
        alone.returncode == 0 and json.loads(alone.stdout)["skills"][0]["name"] == "./skills/kite"
    )
    started = skc_installed("watch", "--detach")
    assert started.returncode == 0, started.stderr
    try:
        served = skc_installed(*find)
        status = json.loads(skc_installed("watch", "--status", "--format", "json").stdout)
        assert status["pid"] == int(started.stdout) and status["queries"] == 1
        assert (served.stdout, served.stderr) == (alone.stdout, alone.stderr)
    finally:
        stopped = skc_installed("watch", "--stop")
    assert stopped.stdout == f"Stopped pid {int(started.stdout)}.\n"
    assert "Keep the catalog warm for find." in skc_installed("--help").stdout
