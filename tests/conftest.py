"""End-to-end fixtures: ``skc`` of the installed kit, run through ``skillc.cli.main`` in this
process (``skc``, ``ok``) or as the installed console script in a subprocess (``skc_installed``,
and ``script`` for the packages' own scripts).

The shared fixtures (``home``, ``project``, ``clean_env``, ``cli``) are in the checkout's
``conftest.py``: every test gets a temporary project folder (the working directory of each
command) and a temporary ``$SKILLC_HOME``, so nothing ever touches the real home. The
environment is the one pytest runs in, minus every ``SKILLC_*`` variable (and the terminal size
variables, so help text wraps the same everywhere). Real files, real SQLite, no mocks; a real
process wherever the point is the installed program, a signal, a timeout or import cost.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# e2e_support.py lives next to this file; pytest's importlib mode does not put it on sys.path.
sys.path.insert(0, str(Path(__file__).parent))

from e2e_support import SmallDisks

Runner = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture(scope="session")
def skc_path(script_path: Callable[[str], Path]) -> Path:
    """The installed ``skc`` console script, found as every installed script is (the root
    conftest's ``find_script``: next to the interpreter, else on PATH), so that ``skc_path``
    and ``skc_installed`` run the same one."""
    return script_path("skc")


@pytest.fixture(scope="session")
def bin_dir(skc_path: Path) -> Path:
    """The folder holding ``skc``: the package console scripts live next to it."""
    return skc_path.parent


@pytest.fixture(scope="session")
def venv_python(skc_path: Path) -> Path:
    """The interpreter the installed ``skc`` runs with (the one next to it, else its shebang)."""
    for name in ("python", "python3", "python.exe"):
        candidate = skc_path.parent / name
        if candidate.is_file():
            return candidate
    with skc_path.open("rb") as handle:
        first = handle.readline().decode("utf-8", "replace").strip()
    if first.startswith("#!"):
        interpreter = Path(first[2:].split()[0])
        if interpreter.is_file():
            return interpreter
    pytest.fail(f"cannot find the Python interpreter of {skc_path}", pytrace=False)


@pytest.fixture
def skc(cli: Callable[..., Runner]) -> Runner:
    """``skc(*args, cwd=None, env_extra=None, input=None) -> CompletedProcess`` (text; cwd: the
    project): ``skillc.cli.main(args)`` in this process, as the installed ``skc`` would run."""
    return cli("skc")


@pytest.fixture
def skc_installed(cli: Callable[..., Runner]) -> Runner:
    """Like :func:`skc`, but the installed ``skc`` console script in a subprocess (the shared
    ``cli`` with ``script=True``)."""
    return cli("skc", script=True)


@pytest.fixture
def script(cli: Callable[..., Runner]) -> Callable[[str], Runner]:
    """``script("skillc-lint")(*args, ...)``: a package's own console script, like :func:`skc`."""
    return lambda name: cli(name, script=True)


@pytest.fixture
def ok(skc: Runner) -> Runner:
    """Like :func:`skc`, but asserts exit status 0 and returns the process."""

    def run(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
        proc = skc(*args, **kwargs)
        assert proc.returncode == 0, (
            f"skc {' '.join(args)} exited {proc.returncode}\n"
            f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
        )
        return proc

    return run


@pytest.fixture
def list_json(ok: Runner) -> Callable[..., dict[str, object]]:
    """``list_json(*extra_args, cwd=None)``: ``skc list --format json`` parsed."""

    def run(*args: str, **kwargs: object) -> dict[str, object]:
        proc = ok("list", "--format", "json", *args, **kwargs)
        data = json.loads(proc.stdout)
        assert isinstance(data, dict), proc.stdout
        return data

    return run


@pytest.fixture
def small_disk() -> Iterator[SmallDisks]:
    """:class:`e2e_support.SmallDisks`: real small file systems, unmounted when the test
    ends."""
    disks = SmallDisks()
    try:
        yield disks
    finally:
        disks.unmount()
