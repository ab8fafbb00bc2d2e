"""``skc``'s shell completion of plugin skills (``plugin:skill``, ``plugin@market:skill``) in
a real interactive shell through a pty: bash splits a word at ``:`` and ``@``
(``COMP_WORDBREAKS``); zsh and fish do not (each skipped when not installed)."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]

#: What each shell runs before the line is typed: skc's completion script, and a function
#: ``skc`` that prints the words it was run with (the line as completed), then READY (not in
#: the echo of the line typed: ``RE""ADY``).
SETUP = {
    "bash": 'PS1="$ "; eval "$(_SKC_COMPLETE=bash_source skc)"; '
    'skc() { printf "ARGS:%s|" "$@"; echo; }; echo RE""ADY\n',
    "zsh": 'PS1="$ "; autoload -U compinit; compinit -u; eval "$(_SKC_COMPLETE=zsh_source skc)"; '
    'skc() { printf "ARGS:%s|" "$@"; echo; }; echo RE""ADY\n',
    "fish": "_SKC_COMPLETE=fish_source skc | source; "
    'function skc; printf "ARGS:%s|" $argv; echo; end; echo RE""ADY\n',
}
START = {
    "bash": ["bash", "--norc", "--noprofile", "-i"],
    "zsh": ["zsh", "-f", "-i"],
    "fish": ["fish", "--no-config", "-i"],
}


def _plugins(home: Path, write_skill: Callable[..., Path]) -> None:
    """Claude Code plugins: ``pl`` (review, refactor) of one marketplace, ``tools`` (lint) of
    two (``tools@m1:lint``, ``tools@m2:lint``)."""
    records: dict[str, list[dict[str, str]]] = {}
    for plugin, market, skills in (
        ("pl", "mk", ("review", "refactor")),
        ("tools", "m1", ("lint",)),
        ("tools", "m2", ("lint",)),
    ):
        folder = home / ".claude/plugins/cache" / market / plugin / "1.0.0"
        for skill in skills:
            write_skill(folder / "skills" / skill, skill, f"Demo {skill}. Use when testing.")
        records[f"{plugin}@{market}"] = [{"scope": "user", "installPath": str(folder)}]
    (home / ".claude/plugins/installed_plugins.json").write_text(
        json.dumps({"version": 2, "plugins": records}), encoding="utf-8"
    )
    enabled = {"enabledPlugins": dict.fromkeys(records, True)}  # as /plugin install does
    (home / ".claude/settings.json").write_text(json.dumps(enabled), encoding="utf-8")


def _read(fd: int, seconds: float, until: bytes) -> bytes:
    """What the pty ``fd`` printed until ``until`` came or ``seconds`` passed."""
    out = b""
    end = time.monotonic() + seconds
    while until not in out and (left := end - time.monotonic()) > 0:
        if select.select([fd], [], [], min(left, 0.05))[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the shell has gone
                break
            if not chunk:
                break
            out += chunk
    return out


def _typed(shell: str, keys: str, env: dict[str, str], cwd: Path) -> str:
    """What ``shell``, interactive in a pty, printed after ``keys`` were typed."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: the shell, with the test's environment
        os.chdir(cwd)
        os.execvpe(START[shell][0], START[shell], env)
    try:
        os.write(fd, SETUP[shell].encode())
        ready = _read(fd, 20, b"READY\r\n")
        assert b"READY\r\n" in ready, ready[-300:]
        os.write(fd, keys.encode())
        return _read(fd, 10, b"|\r\n").decode(errors="replace")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def _completed(output: str) -> list[str]:
    """The words the ``skc`` function was run with (the line as TAB left it)."""
    for line in output.splitlines():
        if "ARGS:" in line:
            line = line[line.index("ARGS:") :]
            return [word for word in line.replace("ARGS:", "").split("|") if word]
    return []


@pytest.fixture
def shell_env(
    clean_env: dict[str, str], tmp_path: Path, script_path: Callable[[str], Path]
) -> dict[str, str]:
    """The environment of the shells: the installed ``skc`` first on PATH, a private HOME, no
    readline or fish start-up file of the user."""
    user = tmp_path / "user"
    user.mkdir()
    script = script_path("skc")
    return {
        **clean_env,
        "PATH": f"{script.parent}{os.pathsep}{clean_env.get('PATH', '')}",
        "HOME": str(user),
        "XDG_CONFIG_HOME": str(user / ".config"),
        "XDG_DATA_HOME": str(user / ".local/share"),
        "INPUTRC": "/dev/null",
        "TERM": "xterm",
    }


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_tab_completes_plugin_skills_past_colon_and_at(
    shell: str,
    shell_env: dict[str, str],
    home: Path,
    project: Path,
    write_skill: Callable[..., Path],
) -> None:
    """``skc show pl:rev<TAB>`` completes to ``pl:review``, ``pl:<TAB>`` to pl's skills;
    in bash it filled ``pl:re`` from ``p`` and then only rang the bell (the word split at
    ``:`` and ``@``, names matched against ``rev``)."""
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    _plugins(home, write_skill)

    def line(keys: str) -> list[str]:
        return _completed(_typed(shell, keys, shell_env, project))

    assert line("skc show pl:rev\t\n") == ["show", "pl:review"]
    assert line("skc show pl:ref\t\n") == ["show", "pl:refactor"]
    assert line("skc show pl:\t\n") == ["show", "pl:re"]  # what review and refactor share
    assert line("skc show tools@m2:\t\n") == ["show", "tools@m2:lint"]
    assert line("skc show tools@m1\t\n") == ["show", "tools@m1:lint"]
    assert line("skc outline pl:rev\t --max-lines 3\n") == [
        "outline", "pl:review", "--max-lines", "3"
    ]  # fmt: skip
    if shell == "bash":
        assert line('skc show "pl:rev\t\n') == ["show", "pl:review"]  # quoted: not split
        listed = _typed(shell, "skc show pl:re\t\t", shell_env, project)
        assert "refactor" in listed and "review" in listed, listed[-300:]


def test_bash_complete_reads_the_typed_line(cli: Callable[..., Run], project: Path) -> None:
    """Click's ``bash_complete`` protocol with the line bash passes (``COMP_LINE``): the
    names offered are trimmed to what follows the word's last word-break character (bash
    replaces only that); without ``COMP_LINE`` (a script sourced before) bash's words."""
    for name in ("deploy-app", "debug-js"):
        (project / ".claude/skills" / name).mkdir(parents=True)
        (project / ".claude/skills" / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Demo. Use when testing.\n---\n# T\n"
        )
    skc = cli("skc", script=True)

    def offered(line: str, point: int | None = None, **extra: str) -> list[str]:
        words = line.split()
        env = {
            "_SKC_COMPLETE": "bash_complete",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(words) - (0 if line.endswith(" ") else 1)),
            "COMP_LINE": line,
            "COMP_POINT": str(len(line) if point is None else point),
            **extra,
        }
        result = skc(env_extra=env)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        return result.stdout.split()

    assert offered("skc show de") == ["plain,debug-js", "plain,deploy-app"]
    assert offered("skc show ") == ["plain,debug-js", "plain,deploy-app"]
    # the cursor inside the word: what is before it is completed
    assert offered("skc show dep-x", point=len("skc show dep")) == ["plain,deploy-app"]
    # `=` is a word break, and click completes an option's value after it
    assert offered("skc list --format=js") == ["plain,json"]
    # COMP_WORDBREAKS without `-`: the names whole; with it, trimmed past the last `-`
    assert offered("skc show deploy-a", COMP_WORDBREAKS=" -") == ["plain,app"]
    assert offered("skc show deploy-a", COMP_WORDBREAKS=" ") == ["plain,deploy-app"]


def test_bash_complete_takes_any_line_bash_could_pass(
    cli: Callable[..., Run], project: Path
) -> None:
    """``COMP_POINT`` was read when ``str.isdigit`` took it: ``²`` and 5,000 digits made
    the TAB print ``error[E999]: ValueError``. A point that is no count bash passes is bash's
    words; one past the line is its end; a ``COMP_WORDBREAKS`` over 64 characters is not
    bash's (the default)."""
    (project / ".claude/skills/deploy-app").mkdir(parents=True)
    (project / ".claude/skills/deploy-app/SKILL.md").write_text(
        "---\nname: deploy-app\ndescription: Demo. Use when testing.\n---\n# T\n"
    )
    skc = cli("skc", script=True)
    line = "skc show dep"
    base = {"_SKC_COMPLETE": "bash_complete", "COMP_WORDS": line, "COMP_CWORD": "2"}
    cases = {"\u00b2": None, "9" * 5000: None, "1234567890": None, "99": None, "12": None}
    for point in cases:
        result = skc(env_extra={**base, "COMP_LINE": line, "COMP_POINT": point})
        assert (result.returncode, result.stderr) == (0, ""), (point[:20], result.stderr)
        assert result.stdout.split() == ["plain,deploy-app"], point[:20]
    # (with `-` a break char the name is trimmed past it: a value this long is not bash's)
    line = "skc show deploy-a"
    breaks = {"COMP_LINE": line, "COMP_POINT": "17", "COMP_WORDBREAKS": " -" + "x" * 100}
    result = skc(env_extra={**base, "COMP_WORDS": line, **breaks})
    assert (result.returncode, result.stdout.split()) == (0, ["plain,deploy-app"])


def test_only_the_programs_own_completion_variable_loads_its_completion(
    cli: Callable[..., Run],
) -> None:
    """Another tool's ``_FOO_COMPLETE`` in the environment made every command of the kit
    run through ``console.run`` (``skillc-index``, ``skillc-lint``...) import the completion
    module and register its bash class; only its own (``_SKILLC_INDEX_COMPLETE``) does."""
    index = cli("skillc-index", script=True)
    imports = {"PYTHONPROFILEIMPORTTIME": "1"}
    other = index("--version", env_extra={**imports, "_FOO_COMPLETE": "bash_complete"})
    assert other.returncode == 0 and "skillc_index.completion" not in other.stderr
    own = {"_SKILLC_INDEX_COMPLETE": "bash_complete", "COMP_WORDS": "skillc-index "}
    done = index(env_extra={**imports, **own, "COMP_CWORD": "1"})
    assert done.returncode == 0 and "skillc_index.completion" in done.stderr


def _offered(skc: Run, line: str) -> list[str]:
    """What click's ``bash_complete`` offers for ``line`` (TAB at its end: a line ending in
    a space completes a new word), as the installed ``skc`` answers it; the TAB printed nothing
    on stderr and exited 0."""
    words = line.split()
    env = {
        "_SKC_COMPLETE": "bash_complete",
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(words) - (0 if line.endswith(" ") else 1)),
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
    }
    result = skc(env_extra=env)
    assert (result.returncode, result.stderr) == (0, ""), (line, result.stderr)
    return result.stdout.split()


def test_tab_after_a_value_option_of_find_or_search_offers_its_values(
    cli: Callable[..., Run],
) -> None:
    """``skc find x --format <TAB>`` printed ``error[E100]: ... 'Option "--format" requires
    an argument.'`` and offered nothing (find and search read their words as text,
    ``console.TextCommand``, which raised where click's parser, completing, drops the option);
    it offers the formats, as ``lint --format <TAB>`` does. Near miss: run, not completed,
    the option without its value is still that E100."""
    skc = cli("skc", script=True)
    formats = ["plain,text", "plain,json"]
    assert _offered(skc, "skc find x --format ") == formats
    assert _offered(skc, "skc find --format ") == formats
    assert _offered(skc, "skc find -x --format j") == ["plain,json"]
    assert _offered(skc, "skc search some-skill -fno-x --format ") == formats
    assert _offered(skc, "skc search some-skill x --limit ") == []
    done = skc("find", "x", "--format")
    assert done.returncode == 1
    assert done.stderr.startswith("""error[E100]: invalid option: 'Option "--format" requires""")


def test_tab_offers_eval_skills_and_stats_prune(
    cli: Callable[..., Run], project: Path, write_skill: Callable[..., Path]
) -> None:
    """``skc eval <TAB>`` offered no skill names (its SKILL takes one, as lint's does), and
    ``skc stats pr<TAB>`` not ``prune`` (stats hands a first word ``prune`` to ``skc stats
    prune`` by hand). Near miss: after another word ``prune`` is a skill's name, not offered."""
    for name in ("deploy-app", "prune-old"):
        write_skill(project / ".claude" / "skills" / name)
    skc = cli("skc", script=True)
    assert _offered(skc, "skc eval de") == ["plain,deploy-app"]
    assert _offered(skc, "skc eval deploy-app pr") == ["plain,prune-old"]
    assert _offered(skc, "skc stats pr") == ["plain,prune", "plain,prune-old"]
    assert _offered(skc, "skc stats ") == ["plain,prune", "plain,deploy-app", "plain,prune-old"]
    assert _offered(skc, "skc stats --all pr") == ["plain,prune-old"]
    assert _offered(skc, "skc stats -v pr") == ["plain,prune-old"]
    assert _offered(skc, "skc stats de") == ["plain,deploy-app"]
    assert _offered(skc, "skc stats prune --be") == ["plain,--before"]


#: Each option naming a file or a folder, and what its TAB offers: the shell's names of that
#: kind (``file,``: files and folders; ``dir,``: folders), as ``skc mcp --cwd`` and
#: ``--tokens`` (click.Path options) offer them.
PATH_OPTIONS = {
    "skc mcp --cwd ": "dir,",
    "skc mcp --tokens ": "file,",
    "skc find x --path ": "dir,",
    "skc eval --path ": "dir,",
    "skc package some-skill -o ": "dir,",
    "skc package --output ": "dir,",
    "skc stats --all --html ": "file,",
    "skc stats --all --project ": "dir,",
    "skc lint --config ": "file,",
    "skc lint --baseline ": "file,",
    "skc lint --write-baseline ": "file,",
    "skc lint --sarif-file ": "file,",
    "skc sync --project ": "dir,",
    "skc sync --from claude-code --claude-dir ": "dir,",
}


def test_tab_after_an_option_naming_a_file_or_folder_offers_the_shells_names(
    cli: Callable[..., Run],
) -> None:
    """``find --path``, ``package -o``, ``stats --html``, lint's ``--config``,
    ``--baseline`` and ``--sarif-file``, ``eval --path``, ``sync --project`` and
    ``--claude-dir`` offered nothing where ``mcp --cwd`` offered the folders there
    (``Param(names=...)``, the operations' one place). Near miss: an option of other values
    (``--since``) offers no file names."""
    skc = cli("skc", script=True)
    offered = {line: _offered(skc, line) for line in PATH_OPTIONS}
    assert offered == {line: [kind] for line, kind in PATH_OPTIONS.items()}
    assert _offered(skc, "skc stats --all --since ") == []


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_tab_completes_a_folder_after_find_path(
    shell: str, shell_env: dict[str, str], project: Path
) -> None:
    """In a real shell, ``skc find x --path lib<TAB>`` completes the folder's name (a file
    of that name is not offered: ``--path`` names folders)."""
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    (project / "library").mkdir()
    (project / "libnotes.txt").write_text("notes\n", encoding="utf-8")
    typed = _completed(_typed(shell, "skc find x --path lib\t\n", shell_env, project))
    assert typed[:3] == ["find", "x", "--path"]
    assert typed[3:] in (["library/"], ["library"])  # (zsh drops the slash at the Enter)
