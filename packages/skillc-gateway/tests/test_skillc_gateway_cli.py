"""The `skillc-gateway` console script installs, answers --help and reports usage errors as E100."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import skillc_gateway
from skillc_index import Layout
from skillc_index.build.skill import build_skill

Run = Callable[..., subprocess.CompletedProcess[str]]


def test_help(gateway_process: Run) -> None:
    result = gateway_process("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: skillc-gateway")


@pytest.mark.parametrize("command", ["find", "watch"])
def test_a_help_page_names_no_skc(gateway_process: Run, command: str) -> None:
    """skillc-gateway installed alone has no ``skc``: its examples were rewritten, but the
    prose of find's and watch's pages still sent the user to ``skc watch --detach`` and
    ``skc find``."""
    result = gateway_process(command, "--help")
    assert result.returncode == 0, result.stderr
    assert "skc" not in result.stdout.replace("skillc", ""), result.stdout


def test_version_matches_the_package(gateway_process: Run) -> None:
    assert (
        gateway_process("--version").stdout.strip()
        == f"skillc-gateway {skillc_gateway.__version__}"
    )


def test_unknown_option_is_e100(gateway_process: Run) -> None:
    result = gateway_process("--bogus")
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith("error[E100]: invalid option: 'No such option")
    assert "--bogus" in first


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("outline", "demo"), "## Install"),
        (("show", "demo", "--section", "Install"), "Run the installer."),
        (("open", "demo", "references/notes.txt"), "one\ntwo\nthree\n"),
        (("sources", "demo"), "api.md"),
        (("search", "demo", "installer"), "Install"),
        (("tools", "demo"), "tools"),
    ],
    ids=lambda value: value[0] if isinstance(value, tuple) else "",
)
def test_each_command_in_a_real_process(
    gateway_process: Run,
    demo: Path,
    project: Path,
    home: Path,
    args: tuple[str, ...],
    expected: str,
) -> None:
    """The other tests call ``main`` in-process; here each command runs as
    ``python -m skillc_gateway`` (exit code, stdout and stderr of a real process)."""
    build_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    result = gateway_process(*args)
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout
    assert "Traceback" not in result.stderr


def _complete(run: Run, *words: str, env: dict[str, str] | None = None) -> tuple[list[str], str]:
    """What bash's TAB offers after ``skillc-gateway *words`` (click's ``bash_complete``
    protocol: ``type,value`` lines), and what the completion printed on stderr."""
    line = " ".join(("skillc-gateway", *words))
    result = run(
        env_extra={
            "_SKILLC_GATEWAY_COMPLETE": "bash_complete",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(words)),
            **(env or {}),
        }
    )
    assert result.returncode == 0, result.stderr
    return [line for line in result.stdout.splitlines() if line], result.stderr


def test_tab_offers_the_installed_skills_names(
    cli: Callable[..., Run], project: Path, write_skill: Callable[..., Path]
) -> None:
    """``skillc-gateway show <TAB>`` offers the names ``list`` shows (an agent folder's
    skills here), filtered by what is typed; a dangling link the listing warns of prints
    nothing on the terminal; a word that is a path is left to the shell's file completion."""
    skills = project / ".claude" / "skills"
    for name in ("alpha-one", "alpha-two", "beta"):
        write_skill(skills / name)
    (skills / "gone").symlink_to(project / "nowhere")
    run = cli("skillc-gateway", script=True)
    assert "gone" in run("outline", "gone").stderr  # the listing does see the dangling link

    offered, err = _complete(run, "show", "")
    assert offered == ["plain,alpha-one", "plain,alpha-two", "plain,beta"]
    assert err == ""
    assert _complete(run, "show", "alp")[0] == ["plain,alpha-one", "plain,alpha-two"]
    assert _complete(run, "outline", "b")[0] == ["plain,beta"]
    assert _complete(run, "show", "zzz")[0] == []
    assert _complete(run, "show", "./al")[0] == ["file,./al"]
    # not a skill parameter: --section's value completes nothing
    assert _complete(run, "show", "beta", "--section", "")[0] == []
    assert _complete(run, "exec", "alpha-t")[0] == ["plain,alpha-two"]
    assert _complete(run, "run", "be")[0] == ["plain,beta"]
