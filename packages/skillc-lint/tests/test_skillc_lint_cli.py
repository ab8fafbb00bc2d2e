"""The `skillc-lint` console script installs, answers --help and reports usage errors as E100."""

from __future__ import annotations

import subprocess
import sys

import skillc_lint


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skillc_lint", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_help() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: skillc-lint")


def test_version_matches_the_package() -> None:
    assert run("--version").stdout.strip() == f"skillc-lint {skillc_lint.__version__}"


def test_unknown_option_is_e100() -> None:
    result = run("--bogus")
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith("error[E100]: invalid option: 'No such option")
    assert "--bogus" in first
