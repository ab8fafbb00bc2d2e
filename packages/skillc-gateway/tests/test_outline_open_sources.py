"""``outline``, ``open`` and ``sources`` through the library and the console script."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway import (
    FileBytes,
    FileText,
    exec_in_skill,
    open_file,
    outline,
    search_skill,
    show_section,
    source_tree,
)
from skillc_index import (
    FileIsAFolder,
    FileTooLarge,
    InvalidOption,
    Layout,
    PathEscapesRoot,
    ResolvedSkill,
    SkillDirectoryNotFound,
    SkillFileNotFound,
)

Run = Callable[..., subprocess.CompletedProcess[str]]
ReadSizes = Callable[..., list[int]]  # the root conftest's read_sizes


def test_outline_orders_files_and_skips_code_and_hidden(resolved: ResolvedSkill) -> None:
    found = [(h.file, h.level, h.text) for h in outline(resolved).headings]
    assert found == [
        ("SKILL.md", 1, "Demo"),
        ("SKILL.md", 2, "Install"),
        ("SKILL.md", 2, "Usage"),
        ("references/api.md", 1, "API"),
        ("references/api.md", 2, "Endpoints"),
        ("references/api.md", 3, "GET"),
    ]
    assert [h.text for h in outline(resolved, level=1).headings] == ["Demo", "API"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: outline(s, level=0), "level must be at least 1, not 0"),
        (lambda s: outline(s, level="2"), "level must be an integer, not a string"),
        (lambda s: open_file(s, "SKILL.md", max_lines=-5), "max_lines must be at least 0, not -5"),
        (lambda s: open_file(s, "SKILL.md", max_lines="20"), "max_lines must be an integer, "),
        (lambda s: open_file(s, "SKILL.md", skip=-1), "skip must be at least 0, not -1"),
        (lambda s: open_file(s, None), "path must be a string, not null"),
        (lambda s: open_file(s, 5), "path must be a string, not a number"),
        (lambda s: show_section(s, "Install", file=5), "file must be a string, not a number"),
        (lambda s: show_section(s, "Install", max_lines=-1), "max_lines must be at least 0, "),
        (lambda s: show_section(s, "Install", nth=0), "nth must be at least 1, not 0"),
        (lambda s: show_section(s, 5), "section must be a string, not a number"),
        (lambda s: source_tree(s, depth="2"), "depth must be an integer, not a string"),
        (lambda s: source_tree(s, limit=-1), "limit must be at least 0, not -1"),
        (lambda s: source_tree(s, directory=5), "directory must be a string, not a number"),
        (lambda s: source_tree(s, pattern="[" * 513), "the pattern has 513 characters; at most"),
        (lambda s: search_skill(s, 5), "query must be a string, not a number"),
        (lambda s: search_skill(s, "x", limit=0), "limit must be at least 1, not 0"),
        (lambda s: exec_in_skill(s, ["echo", 5]), "argv must be a list of str, not int"),
    ],
)
def test_the_functions_refuse_what_the_cli_and_mcp_refuse(
    resolved: ResolvedSkill, call: Callable[[ResolvedSkill], object], message: str
) -> None:
    """An out-of-range value answered nothing (``outline(level=0)``: no heading;
    ``open_file(max_lines=-5)``: an empty text) and a wrong-typed one failed on a bare
    TypeError or AttributeError: each is E100 naming the parameter, as ``skc`` and the MCP
    tools say it (the same check of the operation's ``Param``s)."""
    with pytest.raises(InvalidOption) as caught:
        call(resolved)
    assert caught.value.diagnostic.params["message"].startswith(message)


def test_find_skills_refuses_a_configured_that_maps_no_folders(project: Path, home: Path) -> None:
    """``find_skills(configured={"claude": 5})`` failed on AttributeError ('int' object has no
    attribute 'startswith'): E100, as skillc-stats' ``query_all(targets=...)`` says it."""
    from skillc_gateway import find_skills

    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    for configured in ({"claude": 5}, ["claude"]):
        with pytest.raises(InvalidOption, match="configured must map target names to folders"):
            find_skills(layout, "pdf", configured=configured)  # type: ignore[arg-type]


def test_outline_text_format(gateway: Run, demo: Path) -> None:
    result = gateway("outline", "demo", "--level", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "SKILL.md",
        "  # Demo",
        "    ## Install",
        "    ## Usage",
        "references/api.md",
        "  # API",
        "    ## Endpoints",
    ]


def test_outline_lists_every_markdown_file_even_without_headings(
    gateway: Run, demo: Path, cli: Callable[..., Run]
) -> None:
    """A ``.md`` file without a heading (the stub lists it by its path, to ``skc open``) is
    a line of the outline too, whether it is read from the index or parsed."""
    (demo / "SKILL.md").write_text("---\nname: demo\ndescription: D.\n---\nNo heading.\n")
    (demo / "references" / "plain.md").write_text("Just text.\n", encoding="utf-8")
    expected = ["SKILL.md", "references/api.md", "  # API", "references/plain.md"]
    parsed = gateway("outline", "demo", "--level", "1")
    assert parsed.returncode == 0, parsed.stderr
    assert parsed.stdout.splitlines() == expected
    assert cli("skillc_index")("build", "demo").returncode == 0
    assert gateway("outline", "demo", "--level", "1").stdout.splitlines() == expected


def test_a_markdown_file_named_in_upper_case_is_outlined_shown_and_searched(
    resolved: ResolvedSkill,
) -> None:
    """``REFERENCE.MD`` was Markdown to lint (its anchors, its levels) but not to the index:
    ``outline`` left it out, ``show --section`` was E020 and ``search`` found none of its
    words (audit markdown, item 3). A ``.md`` suffix in any case is Markdown to every reader,
    from the index or parsed."""
    from skillc_gateway._outline import _parsed_outline

    text = "# API Reference\n\n## Authentication\n\nzebratoken\n"
    (resolved.source / "REFERENCE.MD").write_text(text, encoding="utf-8")
    (resolved.source / "references" / "plain.Md").write_text("Just text.\n", encoding="utf-8")
    for found in (outline(resolved), _parsed_outline(resolved, None)):
        assert [(h.file, h.text) for h in found.headings if h.file == "REFERENCE.MD"] == [
            ("REFERENCE.MD", "API Reference"),
            ("REFERENCE.MD", "Authentication"),
        ]
        assert {"REFERENCE.MD", "references/plain.Md"} <= set(found.files)
    assert show_section(resolved, "Authentication").text.startswith("## Authentication")
    hits = search_skill(resolved, "zebratoken").results
    assert [(hit.file, hit.section) for hit in hits] == [
        ("REFERENCE.MD", "Authentication"),
        ("REFERENCE.MD", "API Reference"),
    ]


def test_outline_json_lists_the_files_the_text_lists(
    gateway: Run, demo: Path, cli: Callable[..., Run]
) -> None:
    """``--format json`` (and ``skc_outline``) had the headings only: a file without a
    heading, a line of the text output, was in no JSON. ``files`` lists them all, in the
    text's order, parsed or from the index; ``headings`` is as it was."""
    (demo / "SKILL.md").write_text("---\nname: demo\ndescription: D.\n---\nNo heading.\n")
    (demo / "references" / "plain.md").write_text("Just text.\n", encoding="utf-8")
    for _ in ("parsed", "indexed"):
        text = gateway("outline", "demo")
        data = json.loads(gateway("outline", "demo", "--format", "json").stdout)
        listed = [line for line in text.stdout.splitlines() if not line.startswith(" ")]
        assert data["files"] == listed == ["SKILL.md", "references/api.md", "references/plain.md"]
        assert [h["file"] for h in data["headings"]] == ["references/api.md"] * 3
        assert cli("skillc_index")("build", "demo").returncode == 0


def test_outline_of_a_skill_too_large_to_index_parses_its_first_10000_markdown_files(
    demo: Path, cli: Callable[..., Run]
) -> None:
    """A skill of 100,000 small Markdown files cannot be indexed (E002: more than
    ``MAX_INDEXED_FILES``), and ``outline`` parsed every one from the sources (13-17 s, 2.5 MB
    printed; the MCP server blocked as long). It parses the first 10,000 in path order now,
    the bound shared with the index, SKILL.md always among them, with a warning; files past
    it are neither read nor listed (the installed ``skillc-gateway``)."""
    refs = demo / "Refs"  # upper case: sorts before SKILL.md, which is outlined all the same
    refs.mkdir()
    for number in range(10_050):
        (refs / f"f{number:05}.md").write_bytes(b"# F\n")
    (demo / "zz.md").write_text("# Past the bound\n", encoding="utf-8")
    run = cli("skillc-gateway", script=True)
    done = run("outline", "demo", "--level", "1")
    assert done.returncode == 0, done.stderr
    told = (
        f"warning: {demo} holds 10,053 Markdown files, more than 10,000: only the first 10,000 "
        "in path order are outlined"
    )
    assert done.stderr.count(told) == 1, done.stderr
    lines = done.stdout.splitlines()
    files = [line for line in lines if not line.startswith(" ")]
    assert files == [*(f"Refs/f{number:05}.md" for number in range(9_999)), "SKILL.md"]
    assert lines[-2:] == ["SKILL.md", "  # Demo"]
    data = json.loads(run("outline", "demo", "--format", "json").stdout)
    assert data["files"] == files and "zz.md" not in {h["file"] for h in data["headings"]}


def test_outline_of_a_skill_too_large_to_index_stops_at_the_index_byte_bound(
    demo: Path, cli: Callable[..., Run]
) -> None:
    """A skill refused by the index for its bytes (E002: more than ``MAX_INDEXED_BYTES`` of
    Markdown) was outlined from every file, each parsed as far as the parse reads (40 files
    of 1 MiB: 12.4 s, 800,042 lines printed). It stops once the files read hold more than
    the bound, SKILL.md read all the same, with a warning as for the file count (sparse
    files of 8 MiB: 4 MiB of each is read; the installed ``skillc-gateway``)."""
    from skillc_index.index.cache import MAX_INDEXED_BYTES
    from skillc_index.markdown.reading import MARKDOWN_READ_LIMIT

    refs = demo / "Refs"  # sorts before SKILL.md
    refs.mkdir()
    for number in range(12):
        page = refs / f"f{number:02}.md"
        page.write_bytes(f"# F{number}\n".encode())
        os.truncate(page, 2 * MARKDOWN_READ_LIMIT)  # sparse: no disk used
    read = MAX_INDEXED_BYTES // MARKDOWN_READ_LIMIT + 1  # the first past the bound is read
    done = cli("skillc-gateway", script=True)("outline", "demo", "--level", "1")
    assert done.returncode == 0, done.stderr
    told = (
        f"warning: {demo} holds 14 Markdown files, more than {MAX_INDEXED_BYTES >> 20} MiB: "
        f"only the first {read + 1} in path order are outlined"
    )
    assert done.stderr.count(told) == 1, done.stderr
    files = [line for line in done.stdout.splitlines() if not line.startswith(" ")]
    assert files == [*(f"Refs/f{number:02}.md" for number in range(read)), "SKILL.md"]
    assert done.stdout.count("  # F") == read and done.stdout.endswith("SKILL.md\n  # Demo\n")


@pytest.mark.parametrize("defined", ["", "\n[r]: https://example.com\n"])
def test_outline_of_tables_past_the_cell_bound_stops_where_markdown_it_would(
    demo: Path, cli: Callable[..., Run], defined: str
) -> None:
    """A table of 256 columns and 250 one-cell rows, then one of 20 rows and ``===``: the
    scanner counted the cells filled in over the body, ended the second table at its header
    and listed its rows as a heading markdown-it does not see (gone with a reference
    definition, which hands the file to markdown-it). The tables' cells are bounded per
    file now (65,536), on both paths: the parse stops in the second table, with the parse
    limit's warning (the installed ``skillc-gateway``)."""
    header = "|" + "a|" * 256 + "\n|" + "-|" * 256 + "\n"
    body = "# Top\n\n" + header + "x\n" * 250 + "\n" + header + "y\n" * 20 + "===\n\nend\n"
    (demo / "references" / "tables.md").write_text(body + defined, encoding="utf-8")
    done = cli("skillc-gateway", script=True)("outline", "demo")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[lines.index("references/tables.md") + 1 :] == ["  # Top"]
    cut = 2 + 252 + 1 + 2 + 4  # Top, the first table, a blank line, the second's 4 rows
    told = (
        f"{demo / 'references' / 'tables.md'}: over the parse limit (1 MiB, 20,000 lines or "
        f"65,536 table cells); headings and links are read from lines 1-{cut} only"
    )
    assert told in done.stderr, done.stderr


def test_open_is_verbatim_and_cuts_lines(resolved: ResolvedSkill, gateway: Run) -> None:
    whole = open_file(resolved, "references/notes.txt")
    assert whole.text == "one\ntwo\nthree\n" and whole.more_lines == 0
    cut = open_file(resolved, "references/notes.txt", max_lines=1)
    assert (cut.text, cut.more_lines) == ("one\n", 2)
    result = gateway("open", "demo", "references/notes.txt", "--max-lines", "2")
    assert result.stdout == "one\ntwo\n... (1 more lines)\n"


@pytest.mark.parametrize("path", ["../x", "references/../../x", "/etc/passwd", "references/../.."])
def test_open_refuses_escapes(resolved: ResolvedSkill, path: str) -> None:
    with pytest.raises(PathEscapesRoot):
        open_file(resolved, path)


def test_open_refuses_symlinks_pointing_out(resolved: ResolvedSkill, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("secret", encoding="utf-8")
    (resolved.source / "link.txt").symlink_to(secret)
    with pytest.raises(PathEscapesRoot):
        open_file(resolved, "link.txt")


@pytest.mark.parametrize("path", ["a\0b", "references/\0", "x" * 300])
def test_paths_no_file_can_have_are_not_found(resolved: ResolvedSkill, path: str) -> None:
    """Through the API (the MCP server's way in) a NUL or an over-long name is E021/E022."""
    with pytest.raises(SkillFileNotFound):
        open_file(resolved, path)
    with pytest.raises(SkillDirectoryNotFound):
        source_tree(resolved, directory=path)


def test_sources_reads_the_gitignore_files_once(
    resolved: ResolvedSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sources --dir`` judges the folder by the ``.gitignore`` rules its walk read (it read
    them a second time): a folder they exclude is E021, another is listed."""
    from skillc_index.diagnostics import IgnoredPath
    from skillc_index.glob import IgnoreRules

    (resolved.source / ".gitignore").write_text("out/\n", encoding="utf-8")
    (resolved.source / "out").mkdir()
    (resolved.source / "out" / "build.log").write_text("x\n", encoding="utf-8")
    reads: list[object] = []
    real = IgnoreRules.read

    def counted(*args: object, **kwargs: object) -> object:
        reads.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(IgnoreRules, "read", counted)
    assert source_tree(resolved, directory="references").lines()[0] == "references/"
    assert len(reads) == 1
    with pytest.raises(IgnoredPath):
        source_tree(resolved, directory="out")
    assert len(reads) == 2


def test_open_errors(resolved: ResolvedSkill, gateway: Run) -> None:
    with pytest.raises(SkillFileNotFound):
        open_file(resolved, "missing.md")
    with pytest.raises(FileIsAFolder) as folder:
        open_file(resolved, "references")
    assert folder.value.path == "references"
    result = gateway("open", "demo", "references")
    assert result.stderr == (
        "error[E021]: file not found: 'references'\n"
        "hint: 'references' is a folder; list it with 'skc sources --dir'\n"
    )
    result = gateway("open", "demo", "../../etc/passwd")
    assert result.returncode == 1
    assert result.stderr.strip() == "error[E012]: path escapes skill root: '../../etc/passwd'"


PNG = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)) + b"\n\r\n" * 3


def test_open_serves_a_binary_file_as_it_is(
    resolved: ResolvedSkill, demo: Path, project: Path, clean_env: dict[str, str]
) -> None:
    """RFC-0002:C-OPEN serves any file type: a binary file (NUL bytes in its first 8 KB) was
    E999, the internal-error code (issue 32). The command line writes its bytes as they
    are (``--max-lines`` aside: lines mean nothing there)."""
    (demo / "assets").mkdir()
    (demo / "assets" / "logo.png").write_bytes(PNG)
    found = open_file(resolved, "assets/logo.png", max_lines=1)
    assert isinstance(found, FileBytes)
    assert (found.path, found.data, found.mime_type) == ("assets/logo.png", PNG, "image/png")
    for extra in ((), ("--max-lines", "1"), ("--offset", "2")):
        result = subprocess.run(
            [sys.executable, "-m", "skillc_gateway", "open", "demo", "assets/logo.png", *extra],
            cwd=project,
            env=clean_env,
            capture_output=True,
            check=False,
        )
        assert (result.returncode, result.stderr) == (0, b""), extra
        assert result.stdout == PNG, extra


def test_open_json_carries_a_binary_file_in_base64(gateway: Run, demo: Path) -> None:
    import base64

    (demo / "data.bin").write_bytes(b"\0\xff" * 40)
    result = gateway("open", "demo", "data.bin", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == {
        "skill": "demo",
        "path": "data.bin",
        "encoding": "base64",
        "mime_type": "application/octet-stream",
        "size": 80,
        "content": base64.b64encode(b"\0\xff" * 40).decode("ascii"),
        "truncated": False,
    }


def test_open_streams_a_large_binary_file_and_json_refuses_it(
    demo: Path, project: Path, clean_env: dict[str, str]
) -> None:
    """``skc open`` of a binary file writes its bytes a chunk at a time: a sparse 512 MiB file
    is served whole by a process allowed 300 MB of address space (it read the whole file
    into memory: MemoryError). ``--format json`` refuses one over ``MAX_JSON_FILE_BYTES`` with
    E023 (its base64 took seven times its size), and nothing is printed."""
    import resource

    from skillc_gateway._open import MAX_JSON_FILE_BYTES as cap

    blob = demo / "blob.bin"
    with blob.open("wb") as handle:
        handle.truncate(512 << 20)  # sparse: no disk

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (300 << 20, 300 << 20))

    command = [sys.executable, "-m", "skillc_gateway", "open", "demo", "blob.bin"]
    with subprocess.Popen(
        [*command, "--max-lines", "1"],
        cwd=project,
        env=clean_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limited,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        size = 0
        while chunk := process.stdout.read(1 << 20):
            assert not chunk.strip(b"\0")
            size += len(chunk)
        stderr = process.stderr.read()
    assert (process.returncode, stderr, size) == (0, b"", 512 << 20)

    with blob.open("r+b") as handle:
        handle.truncate(cap + 1)
    result = subprocess.run(
        [*command, "--format", "json"],
        cwd=project,
        env=clean_env,
        capture_output=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr.startswith(b"error[E023]: file too large: 'blob.bin'")
    with blob.open("r+b") as handle:
        handle.truncate(cap)
    result = subprocess.run(
        [*command, "--format", "json"],
        cwd=project,
        env=clean_env,
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["size"] == cap


def _read_offset(pid: int, path: Path) -> int | None:
    """The offset of process ``pid`` in the file ``path`` it has open (Linux's
    ``/proc/<pid>/fdinfo``), or None while it has it not open (or has ended)."""
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            if fd.readlink() == path:
                info = Path(f"/proc/{pid}/fdinfo/{fd.name}").read_text()
                return int(info.split("pos:", 1)[1].split()[0])
    except (OSError, IndexError, ValueError):
        pass
    return None


def _stopped(pid: int) -> None:
    """Wait until process ``pid``, sent SIGSTOP, has stopped (or ended)."""
    import time

    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            return
        if state in ("T", "t", "Z", "X"):
            return
        time.sleep(0.001)


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(), reason="reads /proc/<pid>/fdinfo")
def test_open_of_a_file_written_to_meanwhile_ends(
    demo: Path, project: Path, clean_env: dict[str, str]
) -> None:
    """``skc open --max-lines 1`` of a log appended to faster than it is read ends: it counts
    the lines the file had when it was opened (it counted to an end that kept moving, and
    never finished while the writer wrote). Told by events, not by time (an 8 s bound failed
    on a loaded machine): the reader is stopped in the middle of the log, a megabyte of lines
    is appended, and it goes on; it must count the lines it had, never the appended ones
    (read to the end that moved, it counts them, and reads past where the log ended)."""
    import signal
    import time

    log = demo / "app.log"
    command = ["open", "demo", "app.log", "--max-lines", "1", "--format", "json"]
    lines = 4_000_000  # 8 MB: the reader is in its middle for a good part of a second
    for _ in range(3):  # a larger log when the reader was not caught in its middle
        log.write_bytes(b"start\n" + b"x\n" * lines)
        size = log.stat().st_size
        caught = False
        with subprocess.Popen(
            [sys.executable, "-m", "skillc_gateway", *command],
            cwd=project,
            env=clean_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as process:
            while process.poll() is None and not caught:
                offset = _read_offset(process.pid, log.resolve())
                if offset:  # it has read the log's start: its size was taken before
                    os.kill(process.pid, signal.SIGSTOP)
                    try:
                        _stopped(process.pid)
                        offset = _read_offset(process.pid, log.resolve())
                        if offset is not None and offset < size:
                            with log.open("ab") as writer:
                                writer.write(b"y\n" * 500_000)
                            caught = True
                    finally:
                        os.kill(process.pid, signal.SIGCONT)
                time.sleep(0.002)
            try:  # a safety bound for a hang, far above any load: the check is the count
                stdout, stderr = process.communicate(timeout=240)
            except subprocess.TimeoutExpired:
                process.kill()
                pytest.fail("still reading the log after 240 s")
        if caught:
            break
        lines *= 2
    assert caught, "the reader was never caught in the middle of the log"
    assert process.returncode == 0, stderr
    data = json.loads(stdout)
    assert (data["content"], data["shown_lines"]) == ("start\n", 1)
    assert data["total_lines"] == lines + 1  # the appended lines not counted


def test_open_refuses_a_binary_file_over_the_reply_bound(resolved: ResolvedSkill) -> None:
    """A front end that bounds its replies (the MCP server: 100,000 characters of base64,
    75,000 bytes) gets E023 for a larger binary file, never a cut one."""
    (resolved.source / "big.bin").write_bytes(b"\0" * 75_001)
    (resolved.source / "fits.bin").write_bytes(b"\0" * 75_000)
    with pytest.raises(FileTooLarge) as caught:
        open_file(resolved, "big.bin", max_bytes=75_000)
    assert caught.value.diagnostic.code == "E023"
    assert (caught.value.path, caught.value.size, caught.value.limit) == ("big.bin", 75_001, 75_000)
    assert str(caught.value).startswith("error[E023]: file too large: 'big.bin'")
    # the hint names no command line to the Python API and the MCP tool; the CLI's says
    # where the file is served whole
    from skillc_index import CLI_SPELLING, MCP_SPELLING, format_diagnostic

    for spelled in (caught.value.diagnostic, caught.value.spelled(MCP_SPELLING)):
        assert format_diagnostic(spelled).splitlines()[-1] == (
            "hint: 'big.bin' is a binary file of 75,001 bytes; a reply carries at most 75,000 "
            "(in base64), and a binary file is never cut"
        )
    cli = format_diagnostic(caught.value.spelled(CLI_SPELLING))
    assert cli.endswith("; 'skc open' without --format json writes its bytes as they are")
    fits = open_file(resolved, "fits.bin", max_bytes=75_000)
    assert isinstance(fits, FileBytes) and len(fits.data) == 75_000
    text = open_file(resolved, "references/notes.txt", max_bytes=1)  # text is paged, not refused
    assert isinstance(text, FileText) and text.text == "one\ntwo\nthree\n"


def test_open_refuses_a_max_bytes_that_is_no_byte_count(resolved: ResolvedSkill) -> None:
    """``max_bytes="x"`` was a bare ``TypeError``, ``10**30`` an ``OverflowError`` and ``-1``
    E023 "at most -1": each is E100 naming the parameter, before the file is opened; the
    bound itself (10^9) is taken."""
    from skillc_index import InvalidOption
    from skillc_index.arguments import MAX_COUNT

    (resolved.source / "blob.bin").write_bytes(b"\0" * 3000)
    for value in ("x", True, -1, 2.5, 10**30, MAX_COUNT + 1):
        with pytest.raises(InvalidOption) as caught:
            open_file(resolved, "blob.bin", max_bytes=value)  # type: ignore[arg-type]
        assert "max_bytes must be" in str(caught.value), value
    with pytest.raises(InvalidOption):  # checked before the path is looked up
        open_file(resolved, "no-such-file", max_bytes=-1)
    whole = open_file(resolved, "blob.bin", max_bytes=MAX_COUNT)
    assert isinstance(whole, FileBytes) and len(whole.data) == 3000
    with pytest.raises(FileTooLarge):
        open_file(resolved, "blob.bin", max_bytes=0)


def test_sources_tree(gateway: Run, demo: Path) -> None:
    (demo / "references" / "deep").mkdir()
    (demo / "references" / "deep" / "a.md").write_text("# A\n", encoding="utf-8")
    (demo / "Zeta.md").write_text("# Z\n", encoding="utf-8")
    result = gateway("sources", "demo")
    assert result.stdout.splitlines() == [
        "demo/",
        "├── SKILL.md",
        "├── references/",
        "│   ├── deep/",
        "│   │   └── a.md",
        "│   ├── api.md",
        "│   └── notes.txt",
        "└── Zeta.md",
    ]
    collapsed = gateway("sources", "demo", "--depth", "1").stdout.splitlines()
    assert collapsed == ["demo/", "├── SKILL.md", "├── references/ (3 files)", "└── Zeta.md"]
    scoped = gateway("sources", "demo", "--dir", "references", "--depth", "1").stdout.splitlines()
    assert scoped == ["references/", "├── deep/ (1 file)", "├── api.md", "└── notes.txt"]


def test_sources_limit_pattern_and_json(resolved: ResolvedSkill) -> None:
    for i in range(300):
        (resolved.source / f"f{i:03}.txt").write_text("x", encoding="utf-8")
    tree = source_tree(resolved, limit=100)
    lines = tree.lines()
    assert len(lines) == 1 + 100 + 1
    assert lines[-1] == f"└── ... ({len(tree.entries) - 100} more)"
    md_only = source_tree(resolved, pattern="*.md")
    assert [e.node.path for e in md_only.entries] == ["SKILL.md", "references", "references/api.md"]
    data = source_tree(resolved, depth=1, limit=None).to_dict()
    assert data["type"] == "directory" and data["truncated"] == 0
    references = data["children"][1]  # type: ignore[index]
    assert references == {
        "name": "references",
        "path": "references",
        "type": "directory",
        "file_count": 2,
    }


def test_sources_pattern_is_bounded_and_a_run_of_unclosed_brackets_is_literal(
    cli: Callable[..., Run], demo: Path
) -> None:
    """``--pattern`` had no bound and each unclosed ``[`` was read to the pattern's end:
    8,000 held ``sources`` 9 s (the MCP server with it). Over 512 characters it is E100 (the
    tool's ``maxLength``), nothing listed; 512 ``[`` are 512 literal ``[``, at once."""
    gateway = cli("skillc-gateway", script=True)
    done = gateway("sources", "demo", "--pattern", "[" * 100_000)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "error[E100]: invalid option: 'the pattern has 100,000 characters; at most 512 are "
        "allowed'\n"
    )
    (demo / ("[" * 200 + ".md")).write_text("x\n", encoding="utf-8")
    kept = gateway("sources", "demo", "--pattern", "[" * 200 + "*", "--format", "json")
    assert kept.returncode == 0, kept.stderr
    children = json.loads(kept.stdout)["tree"]["children"]
    assert [child["path"] for child in children] == ["[" * 200 + ".md"]
    assert gateway("sources", "demo", "--pattern", "[" * 512).returncode == 0


def test_sources_pattern_typed_composed_finds_a_name_written_decomposed(
    cli: Callable[..., Run], demo: Path
) -> None:
    """``sources --pattern 'résumé*'`` typed composed (NFC) listed nothing where a Mac wrote
    the file's name decomposed (NFD), as ``list --pattern`` composes both sides (s50
    unicode3): both are compared composed, the name listed as it is on disk. A pattern
    typed decomposed finds it too; ``resume*`` (no accents) does not."""
    decomposed = "re\u0301sume\u0301-guide.md"
    (demo / "references" / decomposed).write_text("# R\n", encoding="utf-8")
    gateway = cli("skillc-gateway", script=True)
    for pattern in ("r\u00e9sum\u00e9*", "re\u0301sume\u0301*", "references/r\u00e9sum\u00e9-*.md"):
        done = gateway("sources", "demo", "--pattern", pattern, "--format", "json")
        assert done.returncode == 0, done.stderr
        children = json.loads(done.stdout)["tree"]["children"]
        assert [child["path"] for child in children] == ["references"], pattern
        files = [child["path"] for child in children[0]["children"]]
        assert files == [f"references/{decomposed}"], pattern
    done = gateway("sources", "demo", "--pattern", "resume*", "--format", "json")
    assert json.loads(done.stdout)["tree"].get("children", []) == []


def test_sources_lists_skill_md_first_within_the_default_limit(
    gateway: Run, demo: Path, resolved: ResolvedSkill
) -> None:
    """Folders come before files, but SKILL.md comes first of all (the RFC's example): with
    more than 100 folders the default limit cut SKILL.md itself (issue 32)."""
    for i in range(150):
        (demo / f"d{i:03}").mkdir()
        (demo / f"d{i:03}" / "x.txt").write_text("x", encoding="utf-8")
    lines = gateway("sources", "demo", "--depth", "1").stdout.splitlines()
    assert lines[:3] == ["demo/", "├── SKILL.md", "├── d000/ (1 file)"]
    assert len(lines) == 1 + 100 + 1 and lines[-1] == "└── ... (52 more)"
    data = json.loads(gateway("sources", "demo", "--format", "json").stdout)
    assert [child["path"] for child in data["tree"]["children"][:2]] == ["SKILL.md", "d000"]
    assert data["tree"]["truncated"] == 1 + 3 + 2 * 150 - 100  # a folder and its file each
    scoped = [e.node.path for e in source_tree(resolved, directory="references").entries]
    assert scoped == ["references/api.md", "references/notes.txt"]  # no SKILL.md there
    by_pattern = [e.node.path for e in source_tree(resolved, pattern="*.txt").entries][:2]
    assert by_pattern == ["d000", "d000/x.txt"]  # SKILL.md only when it matches


def test_sources_limit_0_lists_everything(gateway: Run, demo: Path) -> None:
    """``--limit 0`` is no limit (it showed nothing but ``... (N more)``)."""
    for i in range(300):
        (demo / f"f{i:03}.txt").write_text("x", encoding="utf-8")
    lines = gateway("sources", "demo", "--limit", "0").stdout.splitlines()
    assert len(lines) == 1 + 1 + 3 + 300  # root, SKILL.md, references/ and its 2 files, 300
    assert lines[1] == "├── SKILL.md" and lines[-1] == "└── f299.txt"
    assert not any("more)" in line for line in lines)
    data = json.loads(gateway("sources", "demo", "--limit", "0", "--format", "json").stdout)
    assert data["tree"]["truncated"] == 0 and len(data["tree"]["children"]) == 302


def test_sources_of_a_chain_of_folders_600_deep(gateway: Run, demo: Path) -> None:
    """A file 600 folders down (``outline``, ``show`` and ``search`` read it) made ``sources``
    E999 RecursionError, even with ``--depth 1``: each folder's file count is counted as the
    tree is built, and a folder 50 levels down (``MAX_DEPTH``) is collapsed whatever
    ``--depth`` says, so the listing and its JSON stay shallow enough to write and to parse."""
    deep = demo.joinpath(*["a"] * 600)
    deep.mkdir(parents=True)
    (deep / "b.md").write_text("# B\n", encoding="utf-8")
    top = gateway("sources", "demo", "--depth", "1")
    assert top.returncode == 0, top.stderr
    assert top.stdout.splitlines() == [
        "demo/",
        "├── SKILL.md",
        "├── a/ (1 file)",
        "└── references/ (2 files)",
    ]
    lines = gateway("sources", "demo", "--limit", "0").stdout.splitlines()
    chain = [line for line in lines if line.rstrip().endswith(("a/", "a/ (1 file)"))]
    assert len(chain) == 50 and chain[-1].endswith("└── a/ (1 file)")
    result = gateway("sources", "demo", "--limit", "0", "--depth", "600", "--format", "json")
    assert result.returncode == 0, result.stderr
    node, levels = json.loads(result.stdout)["tree"], 0
    while "children" in node:
        node, levels = node["children"][1 if levels == 0 else 0], levels + 1
    assert levels == 50 and node["path"] == "/".join(["a"] * 50)
    assert node["file_count"] == 1


def test_sources_never_lists_a_folder_swapped_for_a_symlink_out_while_it_is_walked(
    gateway: Run, demo: Path, tmp_path: Path, swap_at: Callable[..., Any]
) -> None:
    """``references`` is swapped for a symlink to a folder outside the skill after the walk
    found it a folder, as its listing begins (the first ``os.open`` or ``os.scandir`` of its
    path): ``sources`` listed the outside folder's names as the skill's. It is listed only
    while its path leads to the folder found (device and inode), so nothing of it is shown."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "SECRET.txt").write_text("secret\n", encoding="utf-8")
    folder = demo / "references"
    swap = swap_at(folder, outside)
    result = gateway("sources", "demo", "--format", "json")
    swap.undo()
    assert result.returncode == 0, result.stderr
    assert swap.swapped == [str(folder)]
    assert "SECRET" not in result.stdout
    assert [child["name"] for child in json.loads(result.stdout)["tree"]["children"]] == [
        "SKILL.md"
    ]


def test_sources_dir_errors(resolved: ResolvedSkill) -> None:
    with pytest.raises(PathEscapesRoot):
        source_tree(resolved, directory="../..")
    with pytest.raises(SkillDirectoryNotFound):
        source_tree(resolved, directory="nope")
    with pytest.raises(SkillDirectoryNotFound):
        source_tree(resolved, directory="SKILL.md")


def test_commands_log_one_access_row_each(gateway: Run, project: Path, demo: Path) -> None:
    assert gateway("outline", "demo").returncode == 0
    assert gateway("open", "demo", "missing.md").returncode == 1
    assert gateway("sources", "demo", "--format", "json").returncode == 0
    with closing(sqlite3.connect(project / ".skillc/runtime/demo/.skillc-meta/logs.db")) as db:
        rows = db.execute(
            "SELECT command, skill, skill_path, cwd, args, error FROM access_log"
        ).fetchall()
    assert [r[0] for r in rows] == ["outline", "open", "sources"]
    assert {r[1] for r in rows} == {"demo"}
    assert rows[0][2] == str(demo.resolve()) and rows[0][3] == str(project.resolve())
    assert json.loads(rows[1][4]) == {"path": "missing.md", "max_lines": None}
    assert rows[1][5] == "error[E021]: file not found: 'missing.md'"
    assert rows[0][5] is None


def test_resolution_errors(gateway: Run, project: Path) -> None:
    missing = gateway("outline", "nope")
    assert (missing.returncode, missing.stderr.strip()) == (
        1,
        "error[E001]: skill 'nope' not found",
    )
    (project / "empty").mkdir()
    empty = gateway("sources", "empty")
    assert empty.returncode == 1
    assert empty.stderr.startswith("error[E010]: not a valid skill: 'empty'")


def test_read_lines_splits_on_newline_cr_and_crlf_only() -> None:
    """Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` only, as the index numbers them:
    form feeds, NEL and U+2028 kept inside a line, bad bytes as U+FFFD. (Breaks and UTF-8
    sequences cut between read chunks are skillc-index's ``iter_lines`` tests.)"""
    import io
    import random
    import re

    from skillc_gateway import read_lines

    pieces = ["a", "b", "\n", "\r", "\r\n", "\x0b", "\x0c", "\u2028", "é", "\x85", "\ud55c"]
    rng = random.Random(9)
    for _ in range(2000):
        data = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 60))).encode()
        data += rng.choice([b"", b"\xff", b"\xe2\x80"])
        text = data.decode("utf-8", "replace")
        lines = [x for x in re.split(r"(?<=\r(?!\n))|(?<=\n)", text) if x]
        first = rng.randint(1, 5)
        end = rng.choice([None, first + rng.randint(0, 8)])
        max_lines = rng.choice([None, 0, 1, 3])
        wanted = lines[first - 1 : None if end is None else end - 1]
        shown = wanted if max_lines is None else wanted[:max_lines]
        got = read_lines(io.BytesIO(data), first, end, max_lines)
        assert got == ("".join(shown), len(wanted), len(shown)), (data, first, end, max_lines)


@pytest.mark.parametrize(
    ("data", "args", "expected"),
    [
        (b"one\ntwo", (), b"one\ntwo"),  # no newline added to a file that has none
        (b"one\r\ntwo\r\n", (), b"one\r\ntwo\r\n"),
        (b"one\rtwo", (), b"one\rtwo"),
        (b"", (), b""),
        (b"\x1b[31mred\x1b[0m\n", (), b"\x1b[31mred\x1b[0m\n"),  # not stripped off a pipe
        (b"one\r\ntwo", ("--max-lines", "1"), b"one\r\n... (1 more lines)\n"),
        (b"one\ntwo", ("--max-lines", "2"), b"one\ntwo"),
        (b"one\ntwo", ("--max-lines", "0"), b"... (2 more lines)\n"),
    ],
)
def test_open_text_prints_the_bytes_as_read(
    demo: Path, project: Path, home: Path, data: bytes, args: tuple[str, ...], expected: bytes
) -> None:
    """RFC-0002:C-OPEN: the content as-is; a cut output ends with its last line's ending."""
    (demo / "raw.txt").write_bytes(data)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    env["SKILLC_HOME"] = str(home)
    env["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(home / "no-managed-settings.json")
    command = [sys.executable, "-m", "skillc_gateway", "open", "demo", "raw.txt", *args]
    result = subprocess.run(command, cwd=project, env=env, capture_output=True, check=False)
    assert (result.returncode, result.stdout) == (0, expected)
    as_json = subprocess.run(
        [*command, "--format", "json"], cwd=project, env=env, capture_output=True, check=False
    )
    content = json.loads(as_json.stdout)["content"]
    assert expected.decode().startswith(content)  # JSON keeps the text as read


# -- outline from the index -----------------------------------------------------------------


def _index_file(resolved: ResolvedSkill) -> Path:
    (found,) = (resolved.runtime / ".skillc-meta").glob("search-*.db")
    return found


def test_outline_of_a_built_skill_is_read_from_its_index(
    resolved: ResolvedSkill, cli: Callable[..., Run]
) -> None:
    """Built and unchanged: the headings come from the index (a row changed there shows);
    a source edited since: the index is updated, the edited file's rows only (the row
    changed in SKILL.md's stays: an unchanged file is not parsed again)."""
    parsed = outline(resolved)
    assert cli("skillc_index")("build", "demo").returncode == 0
    assert outline(resolved) == parsed
    with closing(sqlite3.connect(_index_file(resolved))) as db, db:
        db.execute("UPDATE headings SET text = 'From the index' WHERE text = 'Usage'")
    db.close()
    assert "From the index" in [h.text for h in outline(resolved).headings]
    with (resolved.source / "references" / "api.md").open("a", encoding="utf-8") as handle:
        handle.write("\n## Added\n")
    edited = [h.text for h in outline(resolved).headings]
    assert "Added" in edited and "From the index" in edited and "Usage" not in edited


def test_outline_parses_when_the_index_cannot_be_read(
    resolved: ResolvedSkill, cli: Callable[..., Run]
) -> None:
    parsed = outline(resolved)
    assert cli("skillc_index")("build", "demo").returncode == 0
    index = _index_file(resolved)
    # a table gone: the check passes, the read fails
    with closing(sqlite3.connect(index)) as db, db:
        db.execute("DROP TABLE headings")
    db.close()
    assert outline(resolved) == parsed
    index.write_bytes(b"not a database")  # corrupt: the check fails
    assert outline(resolved) == parsed


def test_outline_from_any_tokenizer(resolved: ResolvedSkill, cli: Callable[..., Run]) -> None:
    """Headings do not depend on the tokenizer: an index built with another is used."""
    built = cli("skillc_index")("build", "demo", env_extra={"SKILLC_TOKENIZER": "cjk"})
    assert built.returncode == 0
    with closing(sqlite3.connect(_index_file(resolved))) as db, db:
        meta = dict(db.execute("SELECT key, value FROM index_meta").fetchall())
        db.execute("UPDATE headings SET text = 'Other tokenizer' WHERE text = 'Usage'")
    db.close()
    assert meta["tokenizer"] == "cjk"
    assert "Other tokenizer" in [h.text for h in outline(resolved).headings]


def _big(heading: str, lines: int) -> str:
    return f"# {heading}\n\n" + "".join(f"line {n}\n" for n in range(lines)) + "## After\n"


def test_outline_over_the_parse_limit_is_the_same_from_the_index(
    gateway_process: Run, cli: Callable[..., Run], project: Path
) -> None:
    """Files over the parse limit (SKILL.md among them): the JSON, the text and the warnings
    of ``outline`` at every level are the same before the build (parsed) and after it (read
    from the index, which records the lines parsed of each such file)."""
    root = project / ".skillc" / "skills" / "big"
    (root / "references").mkdir(parents=True)
    (root / "SKILL.md").write_text(
        "---\nname: big\ndescription: Big files. Use when testing.\n---\n" + _big("Big", 20_010),
        encoding="utf-8",
    )
    (root / "references" / "a.md").write_text(_big("A", 30_000), encoding="utf-8")
    (root / "references" / "b.md").write_text("# B\n\n## Small\n", encoding="utf-8")
    (root / "AAA.md").write_text(_big("First", 25_000), encoding="utf-8")
    runs = [("outline", "big", "--format", "json"), ("outline", "big")]
    runs += [("outline", "big", "--level", str(level), "--format", "json") for level in (1, 2)]
    before = [gateway_process(*args) for args in runs]
    assert all(result.returncode == 0 for result in before)
    first = json.loads(before[0].stdout)["headings"]
    assert [h["text"] for h in first] == ["First", "Big", "A", "B", "Small"]
    assert before[0].stderr.count("over the parse limit") == 3
    assert cli("skillc_index")("build", "big").returncode == 0
    with sqlite3.connect(
        next((project / ".skillc" / "runtime" / "big").rglob("search-*.db"))
    ) as db:
        limited = db.execute("SELECT path, parsed_lines FROM files ORDER BY path").fetchall()
    db.close()
    assert [row[0] for row in limited if row[1] is not None] == [
        "AAA.md",
        "SKILL.md",
        "references/a.md",
    ]
    after = [gateway_process(*args) for args in runs]
    for was, now in zip(before, after, strict=True):
        assert (now.returncode, now.stdout, now.stderr) == (0, was.stdout, was.stderr)


def test_outline_reads_a_big_file_as_far_as_the_parse_reads(
    resolved: ResolvedSkill, read_sizes: ReadSizes
) -> None:
    """A skill too big to index (a file over 32 MB) is outlined from its parsed files, each
    read as far as the parse reads, its other lines counted in chunks: no read returns more.
    Before: read whole (a sparse 400 MB SKILL.md: 840 MB)."""
    import skillc_index
    import skillc_index.files
    from skillc_index.index.cache import MAX_INDEXED_BYTES
    from skillc_index.markdown.document import MARKDOWN_READ_LIMIT

    big = resolved.source / "references" / "big.md"
    big.write_text("# Big\n\nline\n", encoding="utf-8")
    os.truncate(big, MAX_INDEXED_BYTES + MARKDOWN_READ_LIMIT)  # sparse: no disk used
    sizes = read_sizes(skillc_index.files, "open_in_root", skillc_index)
    found = outline(resolved)
    assert ("references/big.md", 1, "Big") in [(h.file, h.level, h.text) for h in found.headings]
    assert "over the parse limit" in found.warnings[0].text
    assert 0 < max(sizes) <= MARKDOWN_READ_LIMIT
