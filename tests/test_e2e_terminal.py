"""A skill's text never drives the terminal: the control characters of its headings, names,
descriptions and file names (an escape sequence that retitles the terminal, a newline that
makes up an output line, a bidirectional override) reach the text output of the commands
that list them only as escapes (``\\x1b``, ``\\n``, ``\\u202e``); ``show`` and ``open`` still
print a file's text as it is.

The installed ``skc`` in a subprocess, over a real project, with a private ``$SKILLC_HOME``.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from e2e_support import write

Run = Callable[..., "subprocess.CompletedProcess[str]"]

OSC = "\x1b]0;pwned\x07"  # sets the terminal's title
NEWLINE_NAME = "notes\nerror[E000]: forged.md"  # a file name that makes up an error line
BIDI = "\u202e"  # right-to-left override


@pytest.fixture
def hostile(skc_installed: Run, project: Path) -> Path:
    assert skc_installed("init").returncode == 0
    skill = project / ".skillc" / "skills" / "evil"
    write(
        skill / "SKILL.md",
        f"---\nname: evil\ndescription: Paint fences {BIDI}red.\n---\n\n"
        f"# Evil {OSC}\n\nPaint the fence {OSC} today.\n\n"
        "## Second \x1b[31mred\x1b[0m\n\nMore paint.\n",
    )
    write(skill / NEWLINE_NAME, "# Forged\n\nPaint.\n")
    built = skc_installed("build", "evil")
    assert built.returncode == 0, built.stderr
    return skill


def clean(proc: subprocess.CompletedProcess[str]) -> str:
    """stdout + stderr of a command that went well, checked free of control characters."""
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    both = proc.stdout + proc.stderr
    assert "\x1b" not in both and "\x07" not in both and BIDI not in both, both
    assert "error[E000]" not in both.replace("\\nerror[E000]", ""), both
    return both


@pytest.mark.usefixtures("hostile")
def test_listing_commands_show_escapes(skc_installed: Run, project: Path) -> None:
    outline = clean(skc_installed("outline", "evil"))
    assert "# Evil \\x1b]0;pwned\\x07" in outline
    assert "notes\\nerror[E000]: forged.md" in outline
    assert "## Second \\x1b[31mred\\x1b[0m" in outline
    sources = clean(skc_installed("sources", "evil"))
    assert "notes\\nerror[E000]: forged.md" in sources
    search = clean(skc_installed("search", "evil", "paint"))
    assert "\\x1b]0;pwned\\x07" in search
    env = {"SKILLC_FIND_SERVER": "0"}
    found = clean(
        skc_installed("find", "paint the fence", "--path", ".skillc/skills", env_extra=env)
    )
    assert "Paint fences \\u202ered." in found
    listed = clean(skc_installed("list", "--budget", "--format", "text"))
    assert "evil" in listed
    linted = skc_installed("lint", ".skillc/skills/evil")
    assert "\x1b" not in linted.stdout + linted.stderr and "Traceback" not in linted.stderr


@pytest.mark.usefixtures("hostile")
def test_a_diagnostic_quoting_a_heading_shows_escapes(skc_installed: Run) -> None:
    missing = skc_installed("show", "evil", "--section", "Evil")
    assert missing.returncode == 1
    assert "\x1b" not in missing.stderr and "\x07" not in missing.stderr
    assert "\\x1b]0;pwned\\x07" in missing.stderr  # the "did you mean" names it
    # the heading as that names it, and as the stub lists it, both read it
    for label in ("Evil \\x1b]0;pwned\\x07", "Evil ]0;pwned", "second \\x1b[31mred\\x1b[0m"):
        shown = skc_installed("show", "evil", "--section", label)
        assert shown.returncode == 0, (label, shown.stderr)
        assert "paint" in shown.stdout.lower()


@pytest.mark.usefixtures("hostile")
def test_show_and_open_print_the_text_as_it_is(skc_installed: Run) -> None:
    opened = skc_installed("open", "evil", "SKILL.md")
    assert opened.returncode == 0 and OSC in opened.stdout


def test_a_name_cannot_make_up_a_find_result(skc_installed: Run, project: Path) -> None:
    """A skill whose name (its folder's, as find names it) holds a newline and the start of
    another result: find's text shows it on its own line, escaped; no line of the output is a
    result it made up (nor one its frontmatter name makes up)."""
    forged = "inj\\n2. trusted-skill  (score 9.99)\\n   /opt/trusted"
    write(
        project / "lib" / "inj\n2. trusted-skill  (score 9.99)" / "SKILL.md",
        f'---\nname: "{forged}"\ndescription: folder skill\n---\n# H\n\nfolder skill\n',
    )
    write(
        project / "lib" / "new\nline" / "SKILL.md", "---\nname: x\ndescription: folder skill\n---\n"
    )
    env = {"SKILLC_FIND_SERVER": "0"}
    found = skc_installed("find", "folder skill", "--path", "lib", env_extra=env)
    assert found.returncode == 0, found.stderr
    lines = found.stdout.splitlines()
    assert not any(line.startswith(("2. trusted", "   /opt/trusted")) for line in lines)
    assert any("inj\\n2. trusted-skill" in line for line in lines)
    assert any("new\\nline" in line for line in lines)


@pytest.mark.parametrize("closed", [1, 2])
def test_a_closed_stdout_or_stderr_costs_no_command_its_work(
    skc_path: Path, clean_env: dict[str, str], project: Path, closed: int
) -> None:
    """Started with ``>&-`` or ``2>&-`` (Python's stream is then None): ``build`` failed
    unseen, ``lint`` answered E999 AttributeError, ``exec`` and ``find`` ran nothing."""
    import os

    write(
        project / ".skillc/skills/demo/SKILL.md",
        "---\nname: demo\ndescription: Paint fences. Use when a fence needs paint.\n---\n\n"
        "# Demo\n\nPaint.\n",
    )

    def run(*args: str) -> int:
        return subprocess.run(
            [str(skc_path), *args],
            cwd=project,
            env=clean_env,
            stdin=subprocess.DEVNULL,
            stdout=None if closed == 1 else subprocess.DEVNULL,
            stderr=None if closed == 2 else subprocess.DEVNULL,
            preexec_fn=lambda: os.close(closed),
            timeout=120,
            check=False,
        ).returncode

    assert run("init") == 0
    assert run("build", "demo", "--format", "json") == 0
    assert (project / ".skillc/runtime/demo/SKILL.md").is_file()
    assert run("lint", ".skillc/skills/demo") == 0
    assert run("exec", "demo", "--", "touch", str(project / "ran")) == 0
    assert (project / "ran").exists()
    assert run("find", "demo") == 0


def test_find_writes_utf8_whatever_the_streams_encoding(
    skc_path: Path, clean_env: dict[str, str], project: Path
) -> None:
    """As every command's JSON is written: ``PYTHONIOENCODING=ascii`` made a find
    over a skill described in French an E999 UnicodeEncodeError."""
    write(
        project / ".skillc/skills/cafe/SKILL.md",
        "---\nname: cafe\ndescription: Préparer un café crème. Use when coffee.\n---\n# Café\n",
    )
    done = subprocess.run(
        [str(skc_path), "find", "café crème"],
        cwd=project,
        env={**clean_env, "PYTHONIOENCODING": "ascii", "SKILLC_FIND_SEMANTIC": "0"},
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Préparer un café" in done.stdout.decode("utf-8")


@pytest.mark.parametrize("unbuffered", [False, True])
def test_text_output_escapes_what_the_streams_encoding_cannot_hold(
    skc_path: Path, clean_env: dict[str, str], project: Path, unbuffered: bool
) -> None:
    """Text output went through the stream's encoding: under ``PYTHONIOENCODING=latin-1``
    ``skc outline`` of a heading ``Café ☕`` printed half its lines, then E999
    ``UnicodeEncodeError``. The character the encoding lacks is an escape; the rest is the
    encoding's own (``é`` one Latin-1 byte)."""
    write(
        project / ".skillc/skills/cafe/SKILL.md",
        "---\nname: cafe\ndescription: Coffee. Use when coffee.\n---\n# Café \u2615\n\ntext\n",
    )
    env = {**clean_env, "PYTHONIOENCODING": "latin-1"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    for args in (["build", "cafe"], ["outline", "cafe"]):
        done = subprocess.run(
            [str(skc_path), *args], cwd=project, env=env, capture_output=True, timeout=120,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert "# Caf\xe9 \\u2615" in done.stdout.decode("latin-1")


CAFE = (
    "---\nname: cafe\ndescription: Caf\u00e9 cr\u00e8me. Use when coffee.\n---\n"
    "# Caf\u00e9 \u2615\n\ntext\n"
)


@pytest.mark.parametrize(
    "setting", ["latin-1:surrogateescape", "cp1252:surrogateescape", "latin-1:surrogatepass"]
)
def test_every_error_handler_escapes_what_the_encoding_lacks(
    skc_path: Path, clean_env: dict[str, str], project: Path, setting: str
) -> None:
    """Only ``strict`` was swapped for ``backslashreplace``: under
    ``PYTHONIOENCODING=latin-1:surrogateescape`` (or ``surrogatepass``) ``outline`` and
    ``search`` printed their first line, then E999 ``UnicodeEncodeError``."""
    write(project / ".skillc/skills/cafe/SKILL.md", CAFE)
    env = {**clean_env, "PYTHONIOENCODING": setting}
    for args, expected in (
        (["outline", "cafe"], "# Caf\xe9 \\u2615"),
        (["search", "cafe", "text"], "# Caf\xe9 \\u2615"),
    ):
        done = subprocess.run(
            [str(skc_path), *args], cwd=project, env=env, capture_output=True, timeout=120,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, (args, done.stderr)
        assert expected in done.stdout.decode(setting.partition(":")[0]), (args, done.stdout)


@pytest.fixture(scope="session")
def latin1_locale(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a Latin-1 locale (``en_US.ISO-8859-1``, built by ``localedef`` in a
    temporary ``LOCPATH``); the test is skipped where glibc's ``localedef`` or its sources are
    missing."""
    import shutil

    folder = tmp_path_factory.mktemp("locales")
    name = "en_US.ISO-8859-1"
    localedef = shutil.which("localedef")
    if localedef is None:
        pytest.skip("no localedef to build a Latin-1 locale")
    built = subprocess.run(
        [localedef, "-i", "en_US", "-f", "ISO-8859-1", str(folder / name)],
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    if not (folder / name).is_dir():
        pytest.skip(f"localedef could not build {name}: {built.stderr!r}")
    # PYTHONIOENCODING empty: as not set, whatever the tests run under (tox sets utf-8)
    return {"LOCPATH": str(folder), "LC_ALL": name, "PYTHONIOENCODING": ""}


def test_a_latin1_locale_gets_its_text_output_in_latin1(
    skc_path: Path,
    bin_dir: Path,
    clean_env: dict[str, str],
    project: Path,
    latin1_locale: dict[str, str],
) -> None:
    """Each script runs itself again in UTF-8 mode when the locale's encoding is not UTF-8
    (``streams.utf8_process``), which made its text output UTF-8 bytes on a Latin-1 terminal:
    it is the locale's encoding, as ``PYTHONIOENCODING=latin-1`` gives (``\u00e9`` one byte,
    ``\u2615`` an escape), diagnostics too; JSON and ``find``'s answer stay UTF-8."""
    write(project / ".skillc/skills/cafe/SKILL.md", CAFE)

    def run(env: dict[str, str], *args: str, script: Path = skc_path) -> tuple[bytes, bytes]:
        done = subprocess.run(
            [str(script), *args], cwd=project, env={**clean_env, **env}, capture_output=True,
            timeout=120, check=False,
        )  # fmt: skip
        assert b"Traceback" not in done.stderr, done.stderr
        return done.stdout, done.stderr

    latin1 = {"PYTHONIOENCODING": "latin-1"}
    for args in (
        ("outline", "cafe"),
        ("show", "cafe", "--section", "Caf\u00e9 \u2615"),
        ("search", "cafe", "text"),
        ("show", "cafe", "--section", "Caf\u00e9 \u2615 nope"),  # E020, on stderr
    ):
        in_locale = run(latin1_locale, *args)
        assert in_locale == run(latin1, *args), args
        assert b"Caf\xe9 \\u2615" in b"".join(in_locale), (args, in_locale)
    gateway = run(latin1_locale, "outline", "cafe", script=bin_dir / "skillc-gateway")
    assert b"# Caf\xe9 \\u2615" in gateway[0], gateway
    # machine output is UTF-8 whatever the locale (streams.write_stdout), and so is find's
    outline = json.loads(run(latin1_locale, "outline", "cafe", "--format", "json")[0])
    assert "Caf\u00e9 \u2615" in json.dumps(outline, ensure_ascii=False)
    found = run({**latin1_locale, "SKILLC_FIND_SEMANTIC": "0"}, "find", "coffee")[0]
    assert "Caf\u00e9 cr\u00e8me." in found.decode("utf-8"), found


@pytest.mark.parametrize("unbuffered", [False, True])
def test_a_reader_that_leaves_early_gets_the_sigpipe_status_and_no_word(
    skc_path: Path,
    clean_env: dict[str, str],
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    unbuffered: bool,
) -> None:
    """``skc ... | head -c1``, each command printing more than a pipe holds (64 KB): 141, the
    status of a process SIGPIPE ended, and nothing on stderr. ``list`` gave 0 or 1 as the
    reader's timing fell, ``show`` 0 (with ``PYTHONUNBUFFERED``, the rest of a write the
    reader cut was dropped without an error), ``outline`` 1."""
    skills = project / ".skillc" / "skills"
    parts = "".join(f"## Part {i} of the long outline\n\nalpha words {i}\n\n" for i in range(4000))
    write_skill(
        skills / "big", body=parts + "## Long section\n\n" + ("line of text " * 20 + "\n") * 1000
    )
    about = "Paint fences, skill {i}. " + "Use when a fence needs paint. " * 30
    for i in range(200):
        write_skill(skills / f"s{i}", description=about.format(i=i), body="x\n")
    env = {k: v for k, v in clean_env.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    commands = [
        ["list", "--format", "json"],
        ["show", "big", "--section", "Long section"],
        ["outline", "big"],
        ["search", "big", "alpha", "--limit", "5000"],
        ["lint", "--format", "json", "--no-cache", str(skills)],
        ["find", "fence paint", "--limit", "100", "--format", "json"],
    ]
    errors = tmp_path / "stderr.txt"
    for args in commands:
        with errors.open("wb") as stderr:
            process = subprocess.Popen(
                [str(skc_path), *args], cwd=project, env=env, stdout=subprocess.PIPE, stderr=stderr
            )
            assert process.stdout is not None
            assert process.stdout.read(1)
            process.stdout.close()  # the reader leaves: the rest cannot be written
            code = process.wait(timeout=120)
        assert (args[0], code, errors.read_text()) == (args[0], 141, "")


_INTERRUPTING_CLICK = """\
import importlib, os, sys
if not os.environ.get("INTERRUPTED_ONCE"):
    os.environ["INTERRUPTED_ONCE"] = "1"
    raise KeyboardInterrupt
here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
del sys.modules["click"]
sys.modules["click"] = importlib.import_module("click")
"""


@pytest.mark.parametrize(
    "name", ["skc", "skillc-index", "skillc-lint", "skillc-gateway", "skillc-stats", "skillc-mcp"]
)
def test_a_ctrl_c_while_a_script_loads_exits_130_printing_nothing(
    script: Callable[[str], Run], tmp_path: Path, name: str
) -> None:
    """A Ctrl-C while ``skillc-lint`` imported click (a few hundred milliseconds on a busy
    machine, before ``main`` could catch anything) printed a ``KeyboardInterrupt`` traceback.
    Here the interrupt is made to land there: a ``click`` first on ``PYTHONPATH`` raises it as
    it is first imported (once, as a Ctrl-C lands; an import after it gets the real one). Each
    script exits 130 and prints nothing, as a Ctrl-C does later on."""
    fake = tmp_path / "interrupting" / "click"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(_INTERRUPTING_CLICK)
    done = script(name)("--version", env_extra={"PYTHONPATH": str(fake.parent)})
    assert done.returncode == 130, done.stderr
    assert done.stderr == ""
    assert done.stdout == ""
