"""What the readers refuse (issue 13): special files, hidden files, paths swapped while they
are opened (the race itself is tested on ``open_in_root``, in skillc-index), and patterns that
would take exponential time. Commands that could block run as subprocesses with a timeout, so
a regression fails instead of hanging the run."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway import open_file, show_section, source_tree
from skillc_index import (
    ResolvedSkill,
    SectionNotFound,
)
from skillc_index.diagnostics import HiddenPath


def skc(
    project: Path, home: Path, *args: str, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    """``python -m skillc_gateway ...`` (``skillc_index`` for ``build``: this package's tests
    run with only those two installed) in the project, with a private home (no managed
    settings file: not the machine's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    env.update(SKILLC_HOME=str(home / ".skillc"), HOME=str(home))
    env["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(home / "no-managed-settings.json")
    module = "skillc_index" if args[0] == "build" else "skillc_gateway"
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def special(demo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The demo skill with a FIFO (also through a symlink and in a folder) and a socket."""
    os.mkfifo(demo / "pipe.md")
    os.mkfifo(demo / "references" / "pipe.txt")
    (demo / "to-pipe.md").symlink_to("pipe.md")
    server = socket.socket(socket.AF_UNIX)
    with monkeypatch.context() as here:
        here.chdir(demo)  # a relative name: a socket's path is at most 107 bytes
        server.bind("sock.md")
    server.close()  # the socket file stays
    return demo


@pytest.mark.parametrize("path", ["pipe.md", "to-pipe.md", "references/pipe.txt", "sock.md"])
def test_open_refuses_a_fifo_or_socket_without_blocking(
    special: Path, project: Path, home: Path, path: str
) -> None:
    result = skc(project, home, "open", "demo", path)
    assert result.returncode == 1
    assert result.stderr.startswith(f"error[E021]: file not found: '{path}'")
    assert "not a regular file" in result.stderr and "Traceback" not in result.stderr


def test_every_reader_skips_or_refuses_special_files(
    special: Path, project: Path, home: Path
) -> None:
    """sources, outline, build, show and search never open a FIFO or socket (lint: in
    skillc-lint's tests)."""
    sources = skc(project, home, "sources", "demo")
    assert sources.returncode == 0, sources.stderr
    assert "pipe" not in sources.stdout and "sock" not in sources.stdout
    outline = skc(project, home, "outline", "demo")
    assert outline.returncode == 0 and "pipe" not in outline.stdout
    build = skc(project, home, "build", "demo")
    assert build.returncode == 0, build.stderr
    show = skc(project, home, "show", "demo", "--section", "Usage", "--file", "pipe.md")
    assert show.returncode == 1 and show.stderr.startswith("error[E021]")
    assert skc(project, home, "show", "demo", "--section", "Usage").returncode == 0
    assert skc(project, home, "search", "demo", "installer").returncode == 0


@pytest.mark.parametrize(
    ("path", "section"),
    [("SKILL.md/", "Usage"), ("SKILL.md/.", "Usage"), ("references/api.md/", "Endpoints")],
)
def test_show_file_refuses_a_file_named_as_a_folder_as_open_does(
    demo: Path, project: Path, home: Path, path: str, section: str
) -> None:
    """``show --file SKILL.md/`` (or ``/.``) names a folder, as ``open`` reads it (E021): it
    showed the file's section (``pathlib`` drops the trailing ``/`` and ``/.``)."""
    for args in (("open", "demo", path), ("show", "demo", "--section", section, "--file", path)):
        result = skc(project, home, *args)
        assert (result.returncode, result.stdout) == (1, ""), args
        assert result.stderr.startswith(f"error[E021]: file not found: '{path}'"), args
    shown = skc(project, home, "show", "demo", "--section", section, "--file", path.rstrip("/."))
    assert shown.returncode == 0 and f"# {section}" in shown.stdout, shown.stderr


def test_a_fifo_swapped_in_after_the_build_is_never_opened(
    demo: Path, project: Path, home: Path
) -> None:
    assert skc(project, home, "build", "demo").returncode == 0
    api = demo / "references" / "api.md"
    api.unlink()
    os.mkfifo(api)
    result = skc(project, home, "show", "demo", "--section", "Endpoints")
    # not a source file: the index is built again without it (the FIFO never opened)
    assert result.returncode == 1 and result.stderr.startswith("error[E020]")
    result = skc(project, home, "open", "demo", "references/api.md")
    assert result.returncode == 1 and result.stderr.startswith("error[E021]")


def test_a_fifo_at_the_search_index_is_built_anew_never_opened(
    demo: Path, project: Path, home: Path
) -> None:
    """A FIFO where the search index (``.skillc-meta/search-<hash>.db``) is: ``show`` and
    ``search`` rebuild it (the old index was opened to be copied, blocking for ever)."""
    assert skc(project, home, "build", "demo").returncode == 0
    (index,) = (project / ".skillc" / "runtime" / "demo" / ".skillc-meta").glob("search-*.db")
    index.unlink()
    os.mkfifo(index)
    shown = skc(project, home, "show", "demo", "--section", "Endpoints", timeout=20)
    assert shown.returncode == 0 and "## Endpoints" in shown.stdout, shown.stderr
    assert index.is_file()
    index.unlink()
    os.mkfifo(index)
    found = skc(project, home, "search", "demo", "endpoints", timeout=20)
    assert found.returncode == 0 and "api.md" in found.stdout, found.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("show", "./linked", "--section", "Usage"),
        ("open", "./linked", "SKILL.md"),
        ("sources", "./linked"),
        ("search", "./linked", "usage"),
        ("outline", "./linked"),
    ],
)
def test_a_skill_folder_swapped_as_it_is_resolved_is_e022(
    demo: Path,
    project: Path,
    gateway: Any,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
) -> None:
    """``./linked`` (a symlink to the skill) is swapped for a folder between the ``lstat`` and
    the ``readlink`` of ``os.path.realpath``, which raises ``OSError(EINVAL)`` then: every
    command said ``error[E999]: OSError: [Errno 22] Invalid argument`` (with ``-v``, a
    traceback); the skill's folder changed as it was read, E022 saying so. From Python 3.13
    on, ``realpath`` (not strict) takes a link whose ``readlink`` fails for the path itself:
    the folder there now is the skill, read as any folder is."""
    import shutil

    linked = project / "linked"
    linked.symlink_to(demo, target_is_directory=True)
    real_readlink = os.readlink
    swapped: list[str] = []

    def readlink(path: Any, *rest: Any, **options: Any) -> Any:
        if not swapped and os.fspath(path) == str(linked):
            swapped.append(str(path))
            linked.unlink()
            shutil.copytree(demo, linked)
        return real_readlink(path, *rest, **options)

    monkeypatch.setattr(os, "readlink", readlink)
    result = gateway(*args, "-v")
    monkeypatch.undo()
    assert swapped == [str(linked)]
    if sys.version_info < (3, 13):
        assert (result.returncode, result.stderr) == (
            1,
            "error[E022]: directory not found: './linked'\n"
            "hint: it changed on disk while it was read; run the command again\n",
        )
    else:  # the copy is read: nothing out of it, no traceback
        assert (result.returncode, result.stderr) == (0, ""), result.stderr
        assert str(demo) not in result.stdout


def test_hidden_files_only_when_asked(demo: Path, project: Path, home: Path) -> None:
    (demo / ".env").write_text("TOKEN=secret\n", encoding="utf-8")
    (demo / ".git").mkdir()
    (demo / ".git" / "config").write_text("[remote]\n", encoding="utf-8")
    for path in (".env", ".git/config", "references/../.env", ".hidden.md"):
        refused = skc(project, home, "open", "demo", path)
        assert refused.returncode == 1
        assert refused.stderr.startswith(f"error[E021]: file not found: '{path}'")
        assert "hidden" in refused.stderr
        assert skc(project, home, "open", "demo", path, "--hidden").returncode == 0
    assert skc(project, home, "open", "demo", ".env", "--hidden").stdout == "TOKEN=secret\n"
    show = skc(project, home, "show", "demo", "--section", "Hidden", "--file", ".hidden.md")
    assert show.returncode == 1 and "hidden" in show.stderr


def test_hidden_through_the_library(resolved: ResolvedSkill) -> None:
    with pytest.raises(HiddenPath):
        open_file(resolved, ".hidden.md")
    assert open_file(resolved, ".hidden.md", hidden=True).text == "# Hidden\n"
    with pytest.raises(HiddenPath):
        show_section(resolved, "Hidden", file=".hidden.md")
    # ``hidden`` serves its sections, though no index holds a hidden file: it was E020
    shown = show_section(resolved, "hidden", file=".hidden.md", hidden=True)
    assert (shown.file, shown.heading, shown.text, shown.start_line) == (
        ".hidden.md", "Hidden", "# Hidden\n", 1
    )  # fmt: skip
    with pytest.raises(SectionNotFound) as missing:
        show_section(resolved, "Hidde", file=".hidden.md", hidden=True)
    assert missing.value.suggestions == [("Hidden", ".hidden.md")]


def test_show_file_through_a_symlink_to_a_hidden_file_is_hidden(demo: Path, gateway: Any) -> None:
    """``notes.md -> .x.md``: ``open`` refused it ("leads to a hidden file") but ``show
    --file notes.md`` was E020 (no index holds ``.x.md``), with ``--hidden`` too. It is
    hidden as ``open`` says, and ``--hidden`` finds the section in the file's headings."""
    (demo / ".x.md").write_text("# Hid\n\n## Secret part\n\nhidden text\n", encoding="utf-8")
    (demo / "notes.md").symlink_to(".x.md")
    read = ("show", "demo", "--section", "Secret part", "--file", "notes.md")
    refused = gateway(*read)
    assert refused.returncode == 1
    assert refused.stderr == (
        "error[E021]: file not found: 'notes.md'\n"
        "hint: 'notes.md' leads to a hidden file ('.x.md')\n"
    )
    assert gateway("open", "demo", "notes.md").stderr == refused.stderr
    shown = gateway(*read, "--hidden")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == "## Secret part\n\nhidden text\n"


def test_sources_of_a_hidden_folder_is_refused_as_open_refuses_a_hidden_file(
    demo: Path, gateway: Any
) -> None:
    """``sources --dir .git`` listed the hidden folder (exit 0, no files) where ``open`` of a
    file in it is E021 "hidden": it is that E021 and hint, a symlink to it too (sources has no
    ``--hidden``)."""
    (demo / ".git").mkdir()
    (demo / ".git" / "config").write_text("[remote]\n", encoding="utf-8")
    (demo / "meta").symlink_to(".git")
    for folder, hint in [
        (".git", "'.git' is hidden (a dot-file or dot-folder)"),
        ("references/../.git", "'references/../.git' is hidden (a dot-file or dot-folder)"),
        ("meta", "'meta' leads to a hidden file ('.git')"),
    ]:
        refused = gateway("sources", "demo", "--dir", folder)
        assert refused.returncode == 1
        assert refused.stderr == f"error[E021]: file not found: '{folder}'\nhint: {hint}\n"
        assert refused.stdout == ""
    opened = gateway("open", "demo", ".git/config")
    assert opened.stderr.startswith("error[E021]: file not found: '.git/config'\nhint: ")
    assert gateway("sources", "demo", "--dir", "references").returncode == 0


def test_what_the_skills_gitignore_excludes_is_not_listed_served_or_searched(
    demo: Path, gateway: Any
) -> None:
    """A skill's ``.gitignore`` holding ``out/`` and ``secrets.txt``: ``skc package`` left
    them out, yet ``sources`` listed them, ``open`` served them and ``search`` found their
    text. They are no part of the skill now: not listed, E021 as a hidden file is (served
    with ``--hidden``, which asks for the skill's private files, by ``open`` and ``show``
    alike), never indexed."""
    (demo / ".gitignore").write_text("out/\nsecrets.txt\n", encoding="utf-8")
    (demo / "secrets.txt").write_text("zebrafish hunter2\n", encoding="utf-8")
    (demo / "out").mkdir()
    (demo / "out" / "build.log").write_text("quokka\n", encoding="utf-8")
    listed = gateway("sources", "demo")
    assert listed.returncode == 0, listed.stderr
    assert "secrets.txt" not in listed.stdout and "out" not in listed.stdout
    assert "api.md" in listed.stdout
    for path, hint in [
        ("secrets.txt", "'secrets.txt' is excluded by the skill's .gitignore"),
        ("out/build.log", "'out/build.log' is excluded by the skill's .gitignore"),
    ]:
        refused = gateway("open", "demo", path)
        assert refused.returncode == 1
        assert refused.stderr == (
            f"error[E021]: file not found: '{path}'\nhint: {hint} (no part of the skill)\n"
        )
    assert gateway("open", "demo", "secrets.txt", "--hidden").stdout == "zebrafish hunter2\n"
    refused = gateway("sources", "demo", "--dir", "out")
    assert refused.returncode == 1 and refused.stderr.startswith("error[E021]: file not found")
    (demo / "out" / "notes.md").write_text("# Notes\n\n## Private\n\nquokka\n", "utf-8")
    refused = gateway("show", "demo", "--section", "Private", "--file", "out/notes.md")
    assert refused.returncode == 1 and "excluded by the skill's .gitignore" in refused.stderr
    # --hidden serves it as open does, from its own headings (no index holds it): it was
    # E020 "section not found" though the file holds the section
    shown = gateway("show", "demo", "--section", "Private", "--file", "out/notes.md", "--hidden")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == "## Private\n\nquokka\n"
    found = gateway("search", "demo", "zebrafish", "--format", "json")
    assert found.returncode == 0, found.stderr
    assert "secrets" not in found.stdout
    assert "api.md" in gateway("search", "demo", "Endpoints").stdout


def test_sources_pattern_does_not_backtrack(demo: Path, project: Path, home: Path) -> None:
    """``a*a*…b`` (40 stars) against a long name: exponential for a backtracking regex (25
    characters took 29 s), immediate here. The subprocess's timeout turns a regression into
    a failure, not a hang."""
    (demo / ("a" * 60 + ".txt")).write_text("x", encoding="utf-8")
    result = skc(project, home, "sources", "demo", "--pattern", "a*" * 40 + "b", timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["demo/"]
    matched = skc(project, home, "sources", "demo", "--pattern", "a*" * 40 + ".txt")
    assert matched.stdout.splitlines() == ["demo/", "└── " + "a" * 60 + ".txt"]


GLOBS = [
    "*.md",
    "references/",
    "references/**",
    "/SKILL.md",
    "SKILL.md",
    "**/api.md",
    "a/**/b",
    "re*/api.md",
    "[ab]*.md",
    "[a-c]*",
    "\\*.md",
    "a/*/",
    "?.md",
    "**",
    "/**",
    "*",
    "x/**/",
    "references/*.txt",
    "*s/",
    "#comment",
    "!*.md",
    "",
    "api.md/",
    "[]]x",
    "a**b",
    "*/**",
]
PATHS = [
    "SKILL.md",
    "a.md",
    "b.md",
    "*.md",
    "references/api.md",
    "references/notes.txt",
    "references/deep/a.md",
    "a/b",
    "a/x/y/b",
    "a/x/b.md",
    "x/a/b/c",
    "deep/references/x.md",
    "]x",
    "azzb",
    "api.md/y",
]


@pytest.mark.parametrize("pattern", GLOBS)
def test_glob_agrees_with_gitignore_rules(pattern: str) -> None:
    """The matcher gives what pathspec's GitIgnoreSpec gives (its former implementation)."""
    pathspec = pytest.importorskip("pathspec")
    from skillc_index.glob import Glob

    spec = pathspec.GitIgnoreSpec.from_lines([pattern])
    glob = Glob(pattern)
    assert [p for p in PATHS if glob.match(p)] == [p for p in PATHS if spec.match_file(p)]


def test_glob_rules_pathspec_got_wrong_or_refused(resolved: ResolvedSkill) -> None:
    """A class never matches '/', as in git; a trailing lone backslash matches nothing
    (pathspec raised, an E999 with a traceback)."""
    from skillc_index.glob import Glob

    assert not Glob("a[!x]b").match("a/b") and Glob("a[!x]b").match("acb")
    assert source_tree(resolved, pattern="x\\").entries == ()


def test_paging_holds_one_page_not_the_lines_skipped(tmp_path: Path) -> None:
    """``offset`` skips lines by counting them: reading the last page of a large file (or a
    page past its end) keeps that page, not every line before it."""
    import tracemalloc

    from skillc_gateway._open import page, read_lines

    path = tmp_path / "big.txt"
    path.write_bytes(b"ab\n" * 300_000)  # 0.9 MB; a list of its lines would be about 18 MB
    for skip, max_lines, expected in ((299_998, 5, 2), (5_000_000, 5, 0)):
        with path.open("rb") as handle:
            tracemalloc.start()
            text, total, shown = read_lines(handle, max_lines=max_lines, skip=skip)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        assert (text, total, shown) == ("ab\n" * expected, 300_000, expected)
        assert peak < 8_000_000, peak  # a chunk read at a time
        last = page(text, shown, total, skip, 100_000)
        assert last.shown_lines == expected and last.more_lines == 0
        assert last.next_offset is None and not last.truncated
    with path.open("rb") as handle:
        text, total, shown = read_lines(handle, max_lines=3, skip=10)
    middle = page(text, shown, total, 10)
    assert middle.content == "ab\n" * 3 and middle.next_offset == 13 and middle.truncated


_PARSED_OUTLINE = (
    "import sys; from pathlib import Path; from skillc_index import Layout, resolve_skill; "
    "from skillc_gateway._outline import _parsed_outline\n"
    "layout = Layout.discover(Path(sys.argv[1]), {'SKILLC_HOME': sys.argv[2] + '/.skillc'})\n"
    "found = _parsed_outline(resolve_skill('demo', layout), 1)\n"
    "print(*[w.text for w in found.warnings], sep='\\n')\n"
    "print(sorted(h.text for h in found.headings))\n"
)

#: Runs a command as root without its override of file permissions (a user's view).
UNPRIVILEGED = (
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search,-fowner",
    "--bounding-set=-dac_override,-dac_read_search,-fowner",
)


def test_a_file_this_user_may_not_read_is_left_out_with_a_warning(
    demo: Path, project: Path, home: Path
) -> None:
    """One Markdown file of a skill its reader may not read (another user's, mode 600, in a
    skill they share) made ``show`` of any section and ``search`` E002 (``search index
    unusable ... cannot read``) and ``outline`` E999: the index is built from the files that
    can be read, and each reader warns once of the one left out; ``show`` of a section that
    may be in it is E020 naming it. Near miss: once it can be read, it is indexed (its change
    time moved) and no warning is given. Run as a user would (root without its override of
    file permissions, under setpriv)."""
    import shutil

    secret = demo / "references" / "secret.md"
    secret.write_text("# Secret\n\n## Vault\n\nzebra words\n", encoding="utf-8")
    prefix = UNPRIVILEGED if os.geteuid() == 0 and shutil.which("setpriv") else ()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    env.update(SKILLC_HOME=str(home / ".skillc"), HOME=str(home), SKILLC_FIND_SERVER="0")
    env["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(home / "no-managed-settings.json")

    def skc(*args: str) -> subprocess.CompletedProcess[str]:
        command = [*prefix, sys.executable, "-m", "skillc_gateway", *args]
        return subprocess.run(
            command, cwd=project, env=env, capture_output=True, text=True, timeout=60
        )

    warning = "warning: cannot read 'references/secret.md' (Permission denied): its sections "
    secret.chmod(0o000)
    try:
        if skc("open", "demo", "references/secret.md").returncode == 0:
            pytest.skip("permissions do not apply here")
        outline = skc("outline", "demo")
        usage = skc("show", "demo", "--section", "Usage")
        vault = skc("show", "demo", "--section", "Vault")
        found = skc("search", "demo", "installer")
        hidden = skc("search", "demo", "zebra")
        parsed = subprocess.run(  # outline from the files, when the skill cannot be indexed
            [*prefix, sys.executable, "-c", _PARSED_OUTLINE, str(project), str(home)],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    finally:
        secret.chmod(0o644)
    assert outline.returncode == 0, outline.stderr
    assert outline.stderr.count(warning) == 1 and "references/secret.md\n" in outline.stdout
    assert "## Endpoints" in outline.stdout and "# Secret" not in outline.stdout
    assert usage.returncode == 0 and usage.stdout == "## Usage\n\nUse it.\n"
    assert usage.stderr.count(warning) == 1
    assert vault.returncode == 1 and vault.stdout == ""
    assert vault.stderr.startswith("error[E020]: section not found: 'Vault'\n")
    assert "hint: cannot read 'references/secret.md' (Permission denied): the section" in (
        vault.stderr
    )
    assert found.returncode == 0 and "SKILL.md#Install" in found.stdout
    assert found.stderr.count(warning) == 1 and "Traceback" not in found.stderr
    assert hidden.returncode == 0 and hidden.stderr.count(warning) == 1
    assert parsed.returncode == 0, parsed.stderr
    assert parsed.stdout == f"{warning[9:]}are left out\n['API', 'Demo']\n"
    readable = skc("search", "demo", "zebra")  # readable again: indexed, no warning
    assert readable.returncode == 0 and "references/secret.md#Vault" in readable.stdout
    assert "warning" not in readable.stderr
    assert skc("show", "demo", "--section", "Vault").stdout == "## Vault\n\nzebra words\n"
