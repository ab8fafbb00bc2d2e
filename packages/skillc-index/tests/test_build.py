"""``build_skill`` through the public API: compile, import, deploy, and what must never happen
(half-written runtimes, lost files), on real folders in a temporary home and project."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillc_index import (
    CLI_SPELLING,
    Config,
    InvalidOption,
    Layout,
    PathEscapesRoot,
    load_config,
    parse_targets,
    resolve_skill,
)
from skillc_index.build.skill import BuildResult, build_skill
from skillc_index.build.store import recover_stranded
from skillc_index.command_errors import (
    CompiledSkillGiven,
    EmptyTargetName,
    ForeignFolder,
    MissingFrontmatterField,
    StoreCopyDiffers,
    TargetInsideSkill,
)
from skillc_index.diagnostics import IndexUnusable, Notice
from skillc_index.digests import source_hash
from skillc_index.import_record import ImportRecord
from skillc_index.layout import IMPORT_RECORD

WriteSkill = Callable[..., Path]
Run = Callable[..., subprocess.CompletedProcess[str]]


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: file bytes, symlink targets, folders."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[rel] = "-> " + str(path.readlink())
        elif path.is_file():
            found[rel] = path.read_bytes()
        else:
            found[rel] = "dir"
    return found


@pytest.fixture
def config(layout: Layout) -> Config:
    return load_config(layout, env={})


@pytest.fixture
def build(layout: Layout, config: Config) -> Callable[..., BuildResult]:
    def run(skill: str, **options: object) -> BuildResult:
        return build_skill(skill, layout, config=config, **options)  # type: ignore[arg-type]

    return run


@pytest.fixture
def store(project: Path) -> Path:
    return project / ".skillc" / "skills"


def test_runtime_holds_only_stub_manifest_and_index(
    build: Callable[..., BuildResult], store: Path, project: Path, write_skill: WriteSkill
) -> None:
    folder = write_skill(store / "demo", body="Secret body sentence.\n")
    (folder / "scripts").mkdir()
    (folder / "scripts" / "run.py").write_text("print('hi')\n", encoding="utf-8")
    result = build("demo")
    runtime = project / ".skillc" / "runtime" / "demo"
    assert result.compiled.runtime == runtime
    assert sorted(snapshot(runtime)) == [
        ".skillc-meta",
        ".skillc-meta/manifest.json",
        f".skillc-meta/{result.compiled.index.path.name}",
        "SKILL.md",
    ]
    stub = (runtime / "SKILL.md").read_text(encoding="utf-8")
    assert "Secret body sentence" not in stub
    assert "run.py" not in stub
    assert str(project) not in stub
    # no temporary folder left in the runtime store
    assert sorted(p.name for p in runtime.parent.iterdir()) == ["demo"]


def test_files_get_default_permissions(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    write_skill(store / "demo")
    result = build("demo")
    umask = os.umask(0)
    os.umask(umask)
    for path in (result.compiled.stub, result.compiled.runtime / ".skillc-meta/manifest.json"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask


def test_manifest(build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill) -> None:
    folder = write_skill(store / "demo")
    result = build("demo")
    data = json.loads((result.compiled.runtime / ".skillc-meta/manifest.json").read_text())
    assert data["skill"] == "demo"
    assert data["version"] == 1
    assert data["source_hash"] == source_hash(folder)
    assert data["built_at"].endswith("Z") and len(data["built_at"]) == 20
    assert data["source_path"] == str(folder.resolve())


def test_the_results_manifest_leaves_out_the_index_stat(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    """``index_stat`` (the index file's ``[size, mtime_ns]``, a freshness key of the file) was
    in ``skc build --format json`` and MCP ``skc_build``'s ``manifest``: a nanosecond time
    above 2**53, which a JSON reader of doubles (JavaScript) rounds. Only the file holds it;
    every number of the result is exact as a double."""
    write_skill(store / "demo")
    result = build("demo")
    data = json.loads((result.compiled.runtime / ".skillc-meta/manifest.json").read_text())
    assert len(data.pop("index_stat")) == 2  # the file keeps it, for the next build
    shown = result.to_dict()
    assert shown["manifest"] == data

    def numbers(value: Any) -> list[int]:
        if isinstance(value, dict):
            return [n for item in value.values() for n in numbers(item)]
        if isinstance(value, list):
            return [n for item in value for n in numbers(item)]
        return [value] if isinstance(value, int) else []

    assert all(abs(n) <= 2**53 for n in numbers(shown))


def test_unchanged_rebuild_writes_nothing(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    write_skill(store / "demo")
    first = build("demo")
    before = snapshot(first.compiled.runtime)
    mtimes = {p: p.stat().st_mtime_ns for p in first.compiled.runtime.rglob("*")}
    second = build("demo")
    assert second.compiled.up_to_date
    assert second.compiled.index.action == "up-to-date"
    assert snapshot(second.compiled.runtime) == before
    assert {p: p.stat().st_mtime_ns for p in first.compiled.runtime.rglob("*")} == mtimes


def test_a_folder_that_cannot_be_searched_is_not_built_and_named(
    build: Callable[..., BuildResult],
    store: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A folder of the skill the user may list but not search (mode 600) stopped the build at
    ``error[E999]: PermissionError``; now its files are left out, and every build says so,
    an up-to-date one too (the permission faked: test_files runs the real one)."""
    folder = write_skill(store / "demo", files={"refs/locked/f.md": "# F\n"})
    locked = folder / "refs" / "locked"
    real, access = os.path.realpath(locked), os.access
    monkeypatch.setattr(os, "access", lambda path, mode: path != real and access(path, mode))
    warning = Notice(
        f"{locked}: folder cannot be read (Permission denied): its files are not built"
    )
    first = build("demo")
    assert first.compiled.files == 1 and warning in first.notices
    assert build("demo").compiled.up_to_date and warning in build("demo").notices


def test_a_skill_md_that_is_not_utf8_is_said(
    build: Callable[..., BuildResult], store: Path
) -> None:
    """A cp1252 SKILL.md was built without a word, its stub deploying U+FFFD for the
    author's letters (only package warned): the build says it, as package does. A UTF-16 one
    was E011 with "does not start with ---", which in its author's editor it does."""
    from skillc_index.files import encoding_problem

    folder = store / "cafe"
    folder.mkdir()
    text = "---\nname: cafe\ndescription: Orders café. Use when asked.\n---\n\n# cafe\n"
    (folder / "SKILL.md").write_bytes(text.encode("cp1252"))
    notice = Notice(
        "cafe: SKILL.md is not UTF-8 (the stub has U+FFFD for each byte UTF-8 cannot read): "
        "save it as UTF-8"
    )
    assert notice in build("cafe").notices
    (folder / "SKILL.md").write_bytes(text.encode("utf-8"))
    assert notice not in build("cafe").notices
    (folder / "SKILL.md").write_bytes(text.encode("utf-16"))
    with pytest.raises(MissingFrontmatterField) as caught:
        build("cafe")
    assert caught.value.cause == "SKILL.md is UTF-16 (BOM FF FE): save it as UTF-8"
    assert encoding_problem("x".encode("utf-32")) == "is UTF-32 (BOM FF FE 00 00)"
    assert encoding_problem(b"\xfe\xff\x00x") == "is UTF-16 (BOM FE FF)"
    assert encoding_problem("\ufeffé".encode()) is None
    assert encoding_problem("é".encode()[:1]) == "is not UTF-8"
    assert encoding_problem("é".encode()[:1], cut=True) is None  # the start of a longer file
    assert encoding_problem(b"\xe9 " + "é".encode()[:1], cut=True) == "is not UTF-8"


def test_a_git_lfs_pointer_is_said_when_the_stub_is_written(
    build: Callable[..., BuildResult],
    store: Path,
    count_calls: Callable[[object, str], list[tuple[Any, ...]]],
) -> None:
    """A checkout without ``git lfs pull``: ``references/big.md`` was a pointer of 130 bytes,
    built (and deployed) as the reference without a word. Each is said, as the encoding of
    SKILL.md is, whenever the stub is written; a larger file is never taken for one. The
    bytes are those the source hash read: no file is opened again for it (each small file
    was, ``assets/form.pdf`` too, which the index never reads)."""
    import skillc_index.build.sources

    pointer = b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"ab" * 32
    folder = store / "lfs"
    (folder / "references").mkdir(parents=True)
    (folder / "assets").mkdir()
    (folder / "SKILL.md").write_text("---\nname: lfs\ndescription: Forms. Use when asked.\n---\n")
    (folder / "references" / "big.md").write_bytes(pointer + b"\nsize 48213\n")
    (folder / "references" / "long.md").write_bytes(pointer + b"\nsize 1\n" + b"x" * 1024)
    (folder / "assets" / "form.pdf").write_bytes(pointer + b"\nsize 913\n")
    opened = count_calls(skillc_index.build.sources, "_opened")
    said = [
        Notice(
            f"lfs: {rel} is a Git LFS pointer (built as it is): `git lfs pull` fetches its content"
        )
        for rel in ("assets/form.pdf", "references/big.md")
    ]
    assert [n for n in build("lfs").notices if "LFS" in n.text] == said
    assert [rel for _, rel in opened].count("assets/form.pdf") == 0
    assert build("lfs").notices == ()  # up to date: no stub written


def test_the_encoding_of_a_utf8_skill_md_is_not_checked_again(
    build: Callable[..., BuildResult], store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``build`` decoded every SKILL.md a second time to find what is not UTF-8: only a text
    holding U+FFFD (what those bytes, and another encoding's BOM, become) is asked about."""
    import skillc_index.build.sources as sources

    def checked(data: bytes, *, cut: bool = False) -> str | None:
        raise AssertionError("checked again")

    monkeypatch.setattr(sources, "encoding_problem", checked)
    folder = store / "cafe"
    folder.mkdir()
    text = "---\nname: cafe\ndescription: Orders café \ufffd. Use when asked.\n---\n\n# cafe\n"
    (folder / "SKILL.md").write_bytes(text.replace(" \ufffd", "").encode())
    assert build("cafe").notices == ()
    (folder / "SKILL.md").write_bytes(text.encode())
    with pytest.raises(AssertionError, match="checked again"):
        build("cafe")


def test_a_file_that_cannot_be_read_stops_build_and_package_naming_it(
    cli: Callable[..., Callable[..., object]],
    project: Path,
    write_skill: WriteSkill,
    unreadable: Callable[[Path], None],
) -> None:
    """A file of the skill its user may not read (mode 000) stopped ``skc build`` and ``skc
    package`` at ``error[E999]: PermissionError: [Errno 13] ...``; each is now the typed
    ``cannot read '<file>'`` of the file, exit 1, the earlier build left as it was and no
    package written."""
    source = write_skill(project / ".skillc" / "skills" / "demo", files={"references/s.md": ""})
    run = cli("skillc_index")
    assert run("build", "demo").returncode == 0  # type: ignore[attr-defined]
    runtime = project / ".skillc" / "runtime" / "demo"
    before = snapshot(runtime)
    (source / "references" / "guide.md").write_text("# G\n", encoding="utf-8")
    unreadable(source / "references" / "s.md")
    said = "error[E999]: cannot read 'references/s.md': Permission denied\n"
    for command in ("build", "package"):
        done = run(command, "demo")
        assert (done.returncode, done.stderr) == (1, said), command  # type: ignore[attr-defined]
    assert {k: v for k, v in snapshot(runtime).items() if "logs.db" not in k} == {
        k: v for k, v in before.items() if "logs.db" not in k
    }
    assert not (project / "dist").exists()


@pytest.mark.parametrize(
    ("place", "wanted"),
    [
        ("SKILL.md", "a folder, where the build writes the stub SKILL.md"),
        (".skillc-meta/manifest.json", "a folder, where the build writes its manifest"),
        (".skillc-meta/search-*.db", "a folder, where the build writes its search index"),
        (".skillc-meta", "a file, where the build writes its .skillc-meta folder"),
    ],
)
def test_something_in_the_way_in_the_runtime_is_named_and_left(
    cli: Callable[..., Callable[..., Any]],
    project: Path,
    write_skill: WriteSkill,
    place: str,
    wanted: str,
) -> None:
    """A folder where the build writes a runtime file (or a file at ``.skillc-meta``) made
    ``build`` E999 ``IsADirectoryError`` naming its temporary folder: it names the real path,
    what is there and what to do, and leaves it as it is; once moved away, it builds."""
    source = write_skill(project / ".skillc" / "skills" / "demo")
    run = cli("skillc_index")
    assert run("build", "demo").returncode == 0
    runtime = project / ".skillc" / "runtime" / "demo"
    (path,) = runtime.glob(place)
    (source / "SKILL.md").write_text(
        (source / "SKILL.md").read_text(encoding="utf-8") + "\n## Added\n", encoding="utf-8"
    )
    aside = project / "aside"
    path.rename(aside)
    if place == ".skillc-meta":
        path.write_text("mine\n", encoding="utf-8")
    else:
        path.mkdir()
        (path / "mine.txt").write_text("mine\n", encoding="utf-8")
    done = run("build", "demo")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error[E999]: '{path}' in the runtime is {wanted}; move it away and rebuild\n"
    )
    mine = path if place == ".skillc-meta" else path / "mine.txt"
    assert mine.read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in runtime.parent.iterdir()) == ["demo"]  # nothing staged left
    if place == ".skillc-meta":
        path.unlink()
    else:
        shutil.rmtree(path)
    assert run("build", "demo").returncode == 0
    assert "  - Added" in (runtime / "SKILL.md").read_text(encoding="utf-8")


def test_a_fifo_at_the_runtime_s_stub_is_replaced_never_opened(
    cli: Callable[..., Any], project: Path, write_skill: WriteSkill
) -> None:
    """A FIFO at the runtime's ``SKILL.md`` of a current build: its hash was read to see
    whether the stub is as built (``read_bytes``), and ``build`` hung for ever. It is no
    stub as built: the stub is written again. (A process: a hang is the timeout's failure.)"""
    write_skill(project / ".skillc" / "skills" / "demo")
    run = cli("skillc_index", process=True)
    assert run("build", "demo").returncode == 0
    stub = project / ".skillc" / "runtime" / "demo" / "SKILL.md"
    good = stub.read_bytes()
    stub.unlink()
    os.mkfifo(stub)
    done = run("build", "demo")
    assert done.returncode == 0, done.stderr
    assert stub.read_bytes() == good


def test_tampered_stub_is_rewritten(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    write_skill(store / "demo")
    stub = build("demo").compiled.stub
    good = stub.read_bytes()
    stub.write_text("tampered\n", encoding="utf-8")
    result = build("demo")
    assert not result.compiled.up_to_date
    assert result.compiled.index.action == "up-to-date"  # the index was fine
    assert stub.read_bytes() == good


def test_a_stub_of_an_older_format_is_rewritten(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    """A stub written by an older skillc (``stub_format`` 1: name and description only) is
    replaced on the next build of the unchanged skill (issue 16)."""
    from skillc_index.build.stub import STUB_FORMAT

    write_skill(store / "demo", frontmatter="name: demo\ndescription: d\nlicense: MIT\n")
    result = build("demo")
    manifest = result.compiled.runtime / ".skillc-meta" / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    assert data["stub_format"] == STUB_FORMAT == 14
    old = "---\nname: demo\ndescription: d\n---\n\n# demo\n"
    result.compiled.stub.write_text(old, encoding="utf-8")
    data.update(stub_format=1, stub_sha256=hashlib.sha256(old.encode()).hexdigest())
    manifest.write_text(json.dumps(data), encoding="utf-8")
    again = build("demo")
    assert not again.compiled.up_to_date
    assert "license: MIT" in again.compiled.stub.read_text(encoding="utf-8")
    assert build("demo").compiled.up_to_date


def test_a_reference_named_in_upper_case_is_markdown_to_the_stub_and_the_index(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    """``REFERENCE.MD`` was Markdown to lint only: the stub's References left it out (and
    counted it a file to ``skc exec``), the index had none of its rows (audit markdown, item
    3). A ``.md`` (and ``.txt``) suffix in any case is the one rule (``is_markdown``)."""
    import sqlite3

    folder = write_skill(store / "demo", files={"REFERENCE.MD": "# API Reference\n\n## Auth\n"})
    stub = build("demo").compiled.stub.read_text(encoding="utf-8")
    assert "  - API Reference" in stub and "skc exec" not in stub
    (folder / "NOTES.TXT").write_text("plain\n", encoding="utf-8")
    result = build("demo")
    with closing(sqlite3.connect(result.compiled.index.path)) as db, db:
        rows = db.execute("SELECT file, section FROM sections WHERE file != 'SKILL.md'")
        assert sorted(rows) == [
            ("NOTES.TXT", ""),
            ("REFERENCE.MD", "API Reference"),
            ("REFERENCE.MD", "Auth"),
        ]
    db.close()


def test_a_stub_only_rebuild_reads_a_references_start(
    build: Callable[..., BuildResult],
    store: Path,
    write_skill: WriteSkill,
    read_sizes: Callable[..., list[int]],
) -> None:
    """Rewriting only the stub reads a reference's description from as much of the file as
    a parse reads (:func:`~skillc_index.markdown.document.read_parsed`), not the whole file."""
    from skillc_index.build import sources
    from skillc_index.markdown.document import MARKDOWN_READ_LIMIT

    folder = write_skill(store / "demo")
    big = folder / "references" / "big.md"
    big.parent.mkdir()
    big.write_text(
        "---\ndescription: the big one\n---\n# Big\n" + "word\n" * MARKDOWN_READ_LIMIT,
        encoding="utf-8",
    )
    stub = build("demo").compiled.stub
    stub.write_text("tampered\n", encoding="utf-8")
    sizes = read_sizes(sources, "open_in_root", path="references/big.md")
    result = build("demo")
    assert result.compiled.index.action == "up-to-date"  # only the stub was rewritten
    assert "the big one" in stub.read_text(encoding="utf-8")
    assert 0 < sum(sizes) <= MARKDOWN_READ_LIMIT


def test_a_store_skill_s_files_are_stat_once_a_build(
    build: Callable[..., BuildResult],
    store: Path,
    project: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The stats ``build`` takes for E002 before anything is read are the compile's too (a
    store skill: its source is the one compiled); an imported folder's copy is stat on its
    own (the copy's files are others)."""
    from skillc_index.build import compiler
    from skillc_index.index import schema

    stat_files, stat = schema.stat_files, []

    def counted(source: Path, files: Any, **options: Any) -> Any:
        stat.append(os.path.realpath(source))
        return stat_files(source, files, **options)

    monkeypatch.setattr(schema, "stat_files", counted)
    monkeypatch.setattr(compiler, "stat_files", counted)
    monkeypatch.setattr(compiler, "settle", lambda _stats: False)  # no wait, no second stat
    folder = write_skill(store / "demo")
    build("demo")
    assert stat == [os.path.realpath(folder)]
    stat.clear()
    outside = write_skill(project / "other")
    build("./other")
    assert stat == [os.path.realpath(outside), os.path.realpath(store / "other")]


def test_a_skill_too_large_to_index_is_e002_before_any_read(
    build: Callable[..., BuildResult],
    store: Path,
    write_skill: WriteSkill,
    read_sizes: Callable[..., list[int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A skill over the index's bound (``MAX_INDEXED_BYTES`` of Markdown and text, made
    small here: a file just over it) is E002, as for a read that indexes it on demand, from
    the files' stats: the big file is neither hashed nor parsed (a 400 MB ``.md`` was read
    whole, 2.8 GB), and no runtime is written."""
    import skillc_index.files
    from skillc_index.build import sources
    from skillc_index.index import cache

    folder = write_skill(store / "demo")
    big = folder / "references" / "big.md"
    big.parent.mkdir()
    big.write_text("# Big\n" + "word\n" * 1000, encoding="utf-8")
    monkeypatch.setattr(cache, "MAX_INDEXED_BYTES", (folder / "SKILL.md").stat().st_size + 4096)
    hashed = read_sizes(skillc_index.files, "open_regular", path=os.path.realpath(big))
    parsed = read_sizes(sources, "open_in_root", path="references/big.md")
    with pytest.raises(IndexUnusable) as caught:
        build("demo")
    assert (caught.value.skill, caught.value.reason.split(" (")[0]) == (
        "demo",
        "too large to index",
    )
    assert "MiB of Markdown and text, more than" in caught.value.reason
    assert (hashed, parsed) == ([], [])
    assert not (store.parent / "runtime" / "demo").exists()


def test_a_skill_md_too_large_to_index_is_e002_before_its_frontmatter_is_read(
    build: Callable[..., BuildResult],
    store: Path,
    write_skill: WriteSkill,
    read_sizes: Callable[..., list[int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``skc build`` read a huge SKILL.md whole (bytes, then text) for the deployments'
    frontmatter before the compile's E002 refused it (a 400 MB SKILL.md held 805 MB, a
    MemoryError under a memory limit); E002 now comes from the stats first, and that
    frontmatter is read from as much of SKILL.md as a parse reads."""
    import skillc_index.files
    from skillc_index.index import cache
    from skillc_index.markdown.document import MARKDOWN_READ_LIMIT

    folder = write_skill(store / "demo", body="word\n" * (MARKDOWN_READ_LIMIT // 4))
    sizes = read_sizes(skillc_index.files, "open_in_root", path="SKILL.md")
    assert build("demo").deployments  # the projections' read: a parse's, not the whole file
    assert 0 < max(sizes) <= MARKDOWN_READ_LIMIT < (folder / "SKILL.md").stat().st_size
    sizes.clear()
    monkeypatch.setattr(cache, "MAX_INDEXED_BYTES", 4096)
    with pytest.raises(IndexUnusable):
        build("demo", force=True)
    assert sizes == []


@pytest.mark.parametrize("broken", ["no-description", "escaping-symlink"])
def test_failed_build_leaves_the_previous_runtime_intact(
    build: Callable[..., BuildResult],
    store: Path,
    write_skill: WriteSkill,
    tmp_path: Path,
    broken: str,
) -> None:
    folder = write_skill(store / "demo")
    runtime = build("demo").compiled.runtime
    (runtime / ".skillc-meta" / "logs.db").write_bytes(b"log rows")
    before = snapshot(runtime)
    if broken == "no-description":
        (folder / "SKILL.md").write_text("---\nname: demo\n---\n# Changed\n", encoding="utf-8")
        error: type[Exception] = MissingFrontmatterField
    else:
        (tmp_path / "secret").write_text("outside", encoding="utf-8")
        (folder / "link").symlink_to(tmp_path / "secret")
        error = PathEscapesRoot
    with pytest.raises(error):
        build("demo")
    assert snapshot(runtime) == before
    assert sorted(p.name for p in runtime.parent.iterdir()) == ["demo"]


def test_a_full_disk_names_the_store_copy_and_the_runtime_not_a_staging_folder(
    build: Callable[..., BuildResult],
    store: Path,
    write_skill: WriteSkill,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A build on a full disk was E999 ``OperationalError: database or disk is full`` (which
    database?) or ``OSError: [Errno 28] ...: '<src>/SKILL.md' -> '<store>/.demo.import.<pid>-
    <hex>/SKILL.md'`` (skillc's staging folder); it is ``cannot create '<store copy or
    runtime>': <reason>``, as init and package say it, and nothing is half-written."""
    import errno
    import sqlite3

    from skillc_index.build import compiler
    from skillc_index.command_errors import CannotCreate

    folder = write_skill(tmp_path / "drafts" / "demo")

    def no_space(source: Any, target: Any, **_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(source), str(target))

    with monkeypatch.context() as patch:
        patch.setattr(shutil, "copyfileobj", no_space)
        with pytest.raises(CannotCreate) as failed:
            build(str(folder))
    message = str(failed.value)
    assert message.startswith(f"error[E999]: cannot create '{store / 'demo'}': No space left")
    assert ".import." not in message and sorted(store.iterdir()) == []

    def full(*_: Any, **__: Any) -> None:
        exc = sqlite3.OperationalError("database or disk is full")
        exc.sqlite_errorcode = 13  # type: ignore[attr-defined]
        exc.sqlite_errorname = "SQLITE_FULL"  # type: ignore[attr-defined]
        raise exc

    monkeypatch.setattr(compiler, "write_index", full)
    with pytest.raises(CannotCreate) as failed:
        build(str(folder))
    runtime = store.parent / "runtime" / "demo"
    assert str(failed.value).startswith(
        f"error[E999]: cannot create '{runtime}': database or disk is full (SQLITE_FULL)"
    )
    assert not runtime.exists() and ".build." not in str(failed.value)


def test_a_runtime_or_store_that_cannot_be_written_is_named_and_nothing_moved(
    build: Callable[..., BuildResult],
    store: Path,
    write_skill: WriteSkill,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    replace_os: Callable[[str, Callable[..., Any]], None],
) -> None:
    """A build into a runtime folder (or an import into a store) the user may not write was
    E999 ``PermissionError: ... '<runtime>/.demo.build.<pid>-<hex>'`` (skillc's staging
    folder); a runtime folder itself read-only got the new index and kept its old stub and
    manifest. Each is now ``cannot create '<runtime or store copy>': Permission denied``,
    before anything is moved (the permissions faked: root writes through them)."""
    from skillc_index.command_errors import CannotCreate

    write_skill(store / "demo")
    runtime = build("demo").compiled.runtime
    (store / "demo" / "more.md").write_text("# More\n", encoding="utf-8")
    before = snapshot(runtime)
    real_mkdir, real_access = os.mkdir, os.access
    refused: set[str] = set()

    def mkdir(path: Any, *args: Any, dir_fd: int | None = None, **kwargs: Any) -> None:
        if dir_fd is None:  # by path, or in a folder's descriptor (the runtime store's)
            denied = str(Path(path).parent) in refused
        else:
            denied = any(os.path.samestat(os.fstat(dir_fd), Path(f).stat()) for f in refused)
        if denied:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        real_mkdir(path, *args, dir_fd=dir_fd, **kwargs)

    replace_os("mkdir", mkdir)  # Path.mkdir's too (Python 3.10's holds its own)
    monkeypatch.setattr(
        os, "access", lambda p, m: os.fspath(p) not in refused and real_access(p, m)
    )
    for folder, named in ((runtime.parent, runtime), (runtime, runtime)):
        refused.add(str(folder))
        with pytest.raises(CannotCreate) as failed:
            build("demo")
        refused.clear()
        assert str(failed.value) == f"error[E999]: cannot create '{named}': Permission denied"
        assert snapshot(runtime) == before
        assert sorted(p.name for p in runtime.parent.iterdir()) == ["demo"]
    refused.add(str(store))
    with pytest.raises(CannotCreate) as failed:
        build(str(write_skill(tmp_path / "drafts" / "other")))
    assert str(failed.value) == f"error[E999]: cannot create '{store / 'other'}': Permission denied"
    assert sorted(p.name for p in store.iterdir()) == ["demo"]


def test_rebuild_keeps_logs_and_other_indexes(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    folder = write_skill(store / "demo")
    runtime = build("demo").compiled.runtime
    meta = runtime / ".skillc-meta"
    (meta / "logs.db").write_bytes(b"log rows")
    (meta / "search-0123456789abcdef.db").write_bytes(b"another source's index")
    (folder / "more.md").write_text("# More\n", encoding="utf-8")
    result = build("demo")
    assert result.compiled.index.action == "rebuilt"
    assert (meta / "logs.db").read_bytes() == b"log rows"
    assert (meta / "search-0123456789abcdef.db").read_bytes() == b"another source's index"


def test_import_from_a_path(
    build: Callable[..., BuildResult], store: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    outside = write_skill(tmp_path / "drafts" / "ext", body="## Part\n")
    (outside / ".git").mkdir()
    (outside / ".git" / "HEAD").write_text("ref\n", encoding="utf-8")
    (outside / "docs").mkdir()
    (outside / "docs" / "real.md").write_text("# Real\n", encoding="utf-8")
    (outside / "alias.md").symlink_to(outside / "docs" / "real.md")
    result = build(str(outside))
    assert result.imported_from == outside.resolve()
    assert result.import_action == "copy"
    copy = store / "ext"
    assert result.compiled.source == copy.resolve()
    assert sorted(snapshot(copy)) == [
        ".skillc-import.json",  # where it came from (the folder and the copy are one skill)
        "SKILL.md",
        "alias.md",
        "docs",
        "docs/real.md",
    ]
    assert not (copy / "alias.md").is_symlink()  # symlinks inside the skill become files
    assert [p.name for p in store.iterdir() if p.name.startswith(".")] == []

    again = build(str(outside))
    assert again.import_action == "unchanged"
    assert again.compiled.up_to_date

    # an edit of the folder: imported again, no force needed (the copy is as imported)
    (outside / "SKILL.md").write_text("---\nname: ext\ndescription: New.\n---\n", encoding="utf-8")
    edited = build(str(outside))
    assert edited.import_action == "replace"
    assert "New." in (copy / "SKILL.md").read_text(encoding="utf-8")

    # the store copy edited in place: refused without force
    (copy / "docs" / "real.md").write_text("# Edited in the store\n", encoding="utf-8")
    (outside / "SKILL.md").write_text(
        "---\nname: ext\ndescription: Newer.\n---\n", encoding="utf-8"
    )
    before = snapshot(copy)
    with pytest.raises(StoreCopyDiffers) as caught:
        build(str(outside))
    assert caught.value.diagnostic.code == "E050"
    assert (caught.value.destination, caught.value.origin) == (".skillc/skills/ext", str(outside))
    assert caught.value.force_does == f"move it aside and import {outside}"
    assert snapshot(copy) == before
    forced = build(str(outside), force=True)
    assert forced.import_action == "replace"
    assert "Newer." in (copy / "SKILL.md").read_text(encoding="utf-8")
    # the edited copy was moved aside, not deleted
    (backup,) = [p for p in store.iterdir() if p.name.startswith(".ext.skillc-backup-")]
    assert snapshot(backup) == before
    assert [n.text for n in forced.notices if "aside" in n.text] == [
        f"moved .skillc/skills/ext aside to .skillc/skills/{backup.name} (not a copy skillc "
        "imported from this folder and unchanged since; nothing deleted)"
    ]
    # a copy skillc imported, unchanged since, is replaced without a backup
    (outside / "SKILL.md").write_text("---\nname: ext\ndescription: Last.\n---\n", encoding="utf-8")
    assert not [n for n in build(str(outside)).notices if "aside" in n.text]
    assert len([p for p in store.iterdir() if p.name.startswith(".")]) == 1


def test_a_forced_import_keeps_a_skill_written_in_the_store(
    build: Callable[..., BuildResult], store: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """`skc build <path> --force` over a store skill of that name written by hand (or a link
    to one): moved aside with all its files, never removed."""
    mine = write_skill(store / "pdf", body="MY WORK\n")
    (mine / "ref.md").write_text("# Precious\n", encoding="utf-8")
    before = snapshot(mine)
    other = write_skill(tmp_path / "downloads" / "pdf")
    with pytest.raises(StoreCopyDiffers):
        build(str(other))
    assert snapshot(mine) == before
    build(str(other), force=True)
    (backup,) = [p for p in store.iterdir() if p.name.startswith(".pdf.skillc-backup-")]
    assert snapshot(backup) == before
    assert (store / "pdf" / ".skillc-import.json").is_file()
    # a symlink in the store: the link is moved aside, what it points to untouched
    elsewhere = write_skill(tmp_path / "elsewhere" / "docx")
    (store / "docx").symlink_to(elsewhere)
    build(str(write_skill(tmp_path / "downloads" / "docx")), force=True)
    (link,) = [p for p in store.iterdir() if p.name.startswith(".docx.skillc-backup-")]
    assert link.is_symlink() and link.resolve() == elsewhere.resolve()
    assert (elsewhere / "SKILL.md").is_file()


def test_a_store_copy_holding_hidden_files_written_by_hand_is_an_edited_copy(
    build: Callable[..., BuildResult], store: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """A `.env` or a `.git/` written into a store copy by hand is no file of the skill (its
    source hash skips hidden names), yet replacing the copy would delete it: the folder's
    next import is refused (E050), and `--force` moves the copy aside with them."""
    outside = write_skill(tmp_path / "drafts" / "ext")
    (outside / ".gitignore").write_text("credentials.json\n", encoding="utf-8")
    (outside / "credentials.json").write_text("{}\n", encoding="utf-8")
    (outside / "creds.json").symlink_to("credentials.json")
    (outside / "sub").mkdir()  # a folder of hidden files only: its .gitignore is copied
    (outside / "sub" / ".gitignore").write_text("*.log\n", encoding="utf-8")
    build(str(outside))
    copy = store / "ext"
    # what the import wrote (.gitignore files, a link kept, the record) is no edit
    (outside / "SKILL.md").write_text("---\nname: ext\ndescription: New.\n---\n", encoding="utf-8")
    assert build(str(outside)).import_action == "replace"
    assert (copy / "sub" / ".gitignore").is_file() and (copy / "creds.json").is_symlink()

    (copy / ".env").write_text("API_KEY=by-hand\n", encoding="utf-8")
    (copy / ".git").mkdir()
    (copy / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    before = snapshot(copy)
    (outside / "SKILL.md").write_text("---\nname: ext\ndescription: v3.\n---\n", encoding="utf-8")
    with pytest.raises(StoreCopyDiffers) as caught:
        build(str(outside))
    assert "an edited 'ext'" in caught.value.diagnostic.detail
    assert snapshot(copy) == before
    build(str(outside), force=True)
    (backup,) = [p for p in store.iterdir() if p.name.startswith(".ext.skillc-backup-")]
    assert snapshot(backup) == before


def test_a_cache_folder_in_a_store_copy_is_no_edit(
    build: Callable[..., BuildResult], store: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """A script run in the store copy (``skc exec demo -- python scripts/x.py``) writes its
    ``__pycache__`` there, and the folder's next import was E050: a cache folder of
    ``walk.CACHE_FOLDERS`` is no edit; ``node_modules/`` with files in it still is."""
    outside = write_skill(tmp_path / "drafts" / "ext")
    (outside / "scripts").mkdir()
    (outside / "scripts" / "x.py").write_text("print(1)\n", encoding="utf-8")
    build(str(outside))
    copy = store / "ext"
    for cache in ("scripts/__pycache__", ".pytest_cache/v", ".cache", ".hypothesis"):
        (copy / cache).mkdir(parents=True)
    (copy / "scripts" / "__pycache__" / "x.cpython-312.pyc").write_bytes(b"\0")
    (copy / ".pytest_cache" / "v" / "lastfailed").write_text("{}", encoding="utf-8")
    (outside / "SKILL.md").write_text("---\nname: ext\ndescription: v2.\n---\n", encoding="utf-8")
    assert build(str(outside)).import_action == "replace"

    (copy / "node_modules").mkdir()
    (copy / "node_modules" / "x.js").write_text("", encoding="utf-8")
    (outside / "SKILL.md").write_text("---\nname: ext\ndescription: v3.\n---\n", encoding="utf-8")
    with pytest.raises(StoreCopyDiffers):
        build(str(outside))


def test_a_store_copy_skillc_0_1_imported_with_skipped_folders_is_replaced(
    build: Callable[..., BuildResult], store: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """skillc 0.1's import copied ``venv/``, ``node_modules/`` and ``__pycache__/`` (its walk
    skipped hidden names only) and its record's hash covered them; after the upgrade the
    folder's next import was E050 "an edited" copy. What that hash covers is skillc's to
    replace; a file changed there, or a hidden one added, is still an edit."""
    outside = write_skill(tmp_path / "drafts" / "ext")
    old = ("node_modules/dep/index.js", "scripts/__pycache__/x.cpython-312.pyc", "venv/bin/py")
    for rel in old:
        (outside / rel).parent.mkdir(parents=True, exist_ok=True)
        (outside / rel).write_text(rel, encoding="utf-8")

    def import_as_0_1() -> Path:  # the copy and record skillc 0.1's import wrote
        copy = store / "ext"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(outside, copy)
        held = sorted(["SKILL.md", *old])
        record = ImportRecord(os.path.realpath(outside), source_hash(copy, held))
        (copy / ".skillc-import.json").write_bytes(record.to_bytes())
        return copy

    copy = import_as_0_1()
    assert build(str(outside)).import_action == "replace"  # unchanged: the copy made today's
    assert sorted(p.name for p in copy.iterdir()) == [".skillc-import.json", "SKILL.md"]
    import_as_0_1()
    (outside / "SKILL.md").write_text("---\nname: ext\ndescription: v2.\n---\n", encoding="utf-8")
    assert build(str(outside)).import_action == "replace"
    (outside / "SKILL.md").write_text("---\nname: ext\ndescription: v3.\n---\n", encoding="utf-8")
    assert build(str(outside)).import_action == "replace"  # and after it

    for edit in ("node_modules/dep/index.js", ".env"):
        copy = import_as_0_1()
        (copy / edit).write_text("by hand", encoding="utf-8")
        (outside / "SKILL.md").write_text(
            f"---\nname: ext\ndescription: {edit}.\n---\n", encoding="utf-8"
        )
        with pytest.raises(StoreCopyDiffers) as caught:
            build(str(outside))
        assert "an edited 'ext'" in caught.value.diagnostic.detail


def test_import_of_a_broken_skill_copies_nothing(
    build: Callable[..., BuildResult], store: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    outside = write_skill(tmp_path / "drafts" / "ext", frontmatter="name: ext\n")
    with pytest.raises(MissingFrontmatterField):
        build(str(outside))
    assert list(store.iterdir()) == []


def test_import_of_a_skill_too_large_to_index_copies_nothing(
    build: Callable[..., BuildResult],
    store: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """E002 for a skill over the index's bound comes before an import copies it (the
    compile would refuse it after the copy)."""
    from skillc_index.index import cache

    outside = write_skill(tmp_path / "drafts" / "ext")
    (outside / "big.md").write_text("# Big\n" + "word\n" * 1000, encoding="utf-8")
    monkeypatch.setattr(cache, "MAX_INDEXED_BYTES", (outside / "SKILL.md").stat().st_size + 4096)
    with pytest.raises(IndexUnusable):
        build(str(outside))
    assert not store.exists() or list(store.iterdir()) == []


def test_import_copies_no_file_swapped_for_a_symlink_out_after_the_walk(
    build: Callable[..., BuildResult],
    store: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file the walk saw as a regular file, made a symlink to a file outside the skill
    before it is copied, is E012: the copy reads it from a descriptor opened inside the
    skill, never through the link, and nothing of it reaches the store."""
    from skillc_index.build import store as store_module

    outside = write_skill(tmp_path / "drafts" / "ext")
    (outside / "ref.md").write_text("# Ref\n", encoding="utf-8")
    (tmp_path / "secret").write_text("TOPSECRET\n", encoding="utf-8")
    staging_dir = store_module.staging_dir

    def swapped(*args: Any, **kwargs: Any) -> Path:  # after the walk, before the copy
        (outside / "ref.md").unlink()
        (outside / "ref.md").symlink_to(tmp_path / "secret")
        return staging_dir(*args, **kwargs)

    monkeypatch.setattr(store_module, "staging_dir", swapped)
    with pytest.raises(PathEscapesRoot):
        build(str(outside))
    assert not store.exists() or list(store.iterdir()) == []


def test_import_keeps_each_file_s_mode_and_mtime(
    build: Callable[..., BuildResult], store: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    outside = write_skill(tmp_path / "drafts" / "ext")
    script = outside / "run.sh"
    script.write_text("echo hi\n", encoding="utf-8")
    script.chmod(0o750)
    os.utime(script, ns=(1_000_000_000_000_000_000, 1_000_000_000_123_456_789))
    build(str(outside))
    copied = (store / "ext" / "run.sh").stat()
    assert stat.S_IMODE(copied.st_mode) == 0o750
    assert copied.st_mtime_ns == 1_000_000_000_123_456_789


def test_import_reads_the_frontmatter_from_a_skill_md_start(
    build: Callable[..., BuildResult],
    tmp_path: Path,
    write_skill: WriteSkill,
    read_sizes: Callable[..., list[int]],
) -> None:
    """The frontmatter checked before an import is read from as much of SKILL.md as a parse
    reads (:data:`~skillc_index.markdown.document.MARKDOWN_READ_LIMIT`), not the whole file
    (hashing reads it in small chunks)."""
    import skillc_index.files
    from skillc_index.markdown.document import MARKDOWN_READ_LIMIT

    outside = write_skill(tmp_path / "drafts" / "ext", body="word\n" * MARKDOWN_READ_LIMIT)
    skill_md = os.path.realpath(outside / "SKILL.md")
    sizes = read_sizes(skillc_index.files, "open_regular", path=skill_md)
    assert build(str(outside)).import_action == "copy"
    assert 0 < max(sizes) <= MARKDOWN_READ_LIMIT


def test_import_goes_to_the_global_store_outside_a_project(
    home: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    outside = write_skill(tmp_path / "drafts" / "ext")
    result = build_skill(str(outside), layout, config=load_config(layout, env={}))
    assert result.scope == "global"
    assert result.compiled.source == (home / ".skillc" / "skills" / "ext").resolve()
    assert result.compiled.runtime == home.resolve() / ".skillc" / "runtime" / "ext"
    assert result.deployments[0].path == home.resolve() / ".claude" / "skills" / "ext"


def test_an_agent_folder_skill_is_never_deployed_over_itself(
    cli: Callable[..., Run], home: Path, write_skill: WriteSkill
) -> None:
    """``skc build ~/.claude/skills/plain --global --force`` moved the folder being built
    aside, imported it and put a link in its place: the import record's origin was then the
    link to its own runtime, and every later build was E100. The deployment over its own
    source is refused up front, by path or by name, with ``--force`` or not, and nothing is
    written; another target builds it."""
    folder = write_skill(home / ".claude" / "skills" / "plain")
    before = snapshot(folder)
    run = cli("skillc_index")
    for args in ([str(folder)], [str(folder), "--force"], ["plain"], ["plain", "--force"]):
        done = run("build", *args, "--global")
        assert (done.returncode, done.stdout) == (1, ""), done.stderr
        assert done.stderr == (
            "error[E050]: skill 'plain' already exists\n"
            "hint: ~/.claude/skills/plain is the folder being built: a deployment there would "
            "replace its own source; 'skc route install --global' moves the agent folder's "
            "skills into the store and builds them, or deploy to another target (--target)\n"
        )
        assert sorted(p.name for p in folder.parent.iterdir()) == ["plain"]
        assert snapshot(folder) == before
        assert not (home / ".skillc" / "skills").exists()
    other = run("build", "plain", "--global", "--target", "codex")
    assert other.returncode == 0, other.stderr
    assert (home / ".agents" / "skills" / "plain").is_symlink()
    again = run("build", "plain", "--global", "--target", "codex")
    assert again.returncode == 0, again.stderr
    assert snapshot(folder) == before


def test_a_project_skill_shadowing_a_global_one_is_warned(
    build: Callable[..., BuildResult],
    store: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
) -> None:
    """Inside the project a name resolves to the project store first (RFC-0007): the global
    skill's stub, whose commands name it, would read the project's; both builds say so."""
    global_dup = build(str(write_skill(tmp_path / "g" / "dup")), force_global=True)
    assert global_dup.scope == "global"
    assert not [n for n in global_dup.notices if "shadows" in str(n)]
    project_dup = build(str(write_skill(tmp_path / "pp" / "dup")))
    assert project_dup.scope == "project"
    expected = (
        "the project's 'dup' shadows the global 'dup' in this project (.skillc/skills/dup): "
        "the global stub's commands read the project's here"
    )
    assert Notice(expected) in project_dup.notices
    again = build(str(tmp_path / "g" / "dup"), force_global=True)  # the global one, now
    assert again.scope == "global"
    assert Notice(expected) in again.notices
    write_skill(store / "other")
    assert not [n for n in build("other").notices if "shadows" in str(n)]


def test_a_compiled_runtime_is_not_a_source(
    build: Callable[..., BuildResult], store: Path, project: Path, write_skill: WriteSkill
) -> None:
    """A runtime whose source is gone stands for nothing (with its source, it stands for it:
    the next test): building it would compile the stub as a skill."""
    write_skill(store / "demo")
    build("demo")
    shutil.rmtree(store / "demo")
    with pytest.raises(CompiledSkillGiven) as caught:
        build(str(project / ".claude" / "skills" / "demo"))
    assert caught.value.given == str(project / ".claude" / "skills" / "demo")
    assert caught.value.diagnostic.message.startswith("invalid option: 'the skill '")
    with pytest.raises(CompiledSkillGiven) as caught:  # a Path: the same, its text named
        build(project / ".claude" / "skills" / "demo")
    assert caught.value.given == str(project / ".claude" / "skills" / "demo")


def test_a_skill_given_as_a_path_object(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    """``build_skill(Path(...))`` builds the folder (it raised TypeError)."""
    folder = write_skill(store / "demo")
    assert build(folder).compiled.runtime == build("demo").compiled.runtime


def test_one_target_given_as_a_string(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    """``targets="cursor"`` is that target (it was E100 "unknown target 'c'")."""
    write_skill(store / "demo")
    assert [d.target for d in build("demo", targets="cursor").deployments] == ["cursor"]


def test_deployments(
    build: Callable[..., BuildResult], store: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(store / "demo")
    result = build("demo", targets=["claude,cursor", "./agents"])
    runtime = result.compiled.runtime
    assert [(d.target, d.method, d.action) for d in result.deployments] == [
        ("claude", "symlink", "created"),
        ("cursor", "symlink", "created"),
        ("./agents", "symlink", "created"),
    ]
    for path in (".claude/skills/demo", ".cursor/skills/demo", "agents/demo"):
        link = project / path  # relative: the link and its runtime share the project
        assert str(link.readlink()) == os.path.relpath(runtime, link.parent)
        assert link.resolve() == runtime.resolve()
    again = build("demo", targets=["claude"])
    assert again.deployments[0].action == "unchanged"


def test_copy_deployment_and_its_replacement(
    build: Callable[..., BuildResult], store: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(store / "demo")
    result = build("demo", copy=True)
    dest = project / ".claude" / "skills" / "demo"
    assert result.deployments[0].method == "copy"
    assert not dest.is_symlink()
    assert sorted(snapshot(dest)) == [".skillc-meta", ".skillc-meta/manifest.json", "SKILL.md"]
    assert (dest / "SKILL.md").read_bytes() == result.compiled.stub.read_bytes()
    # a copy stays a copy (without --copy too: `build --all` made it a symlink again), left
    # as it is while it holds the build, refreshed without --force when the skill changed
    assert build("demo", copy=True).deployments[0].action == "unchanged"
    (deployment,) = build("demo").deployments
    assert (deployment.method, deployment.action) == ("copy", "unchanged")
    write_skill(store / "demo", description="Changed.")
    (deployment,) = build("demo").deployments
    assert (deployment.method, deployment.action) == ("copy", "replaced")
    assert "description: Changed." in (dest / "SKILL.md").read_text("utf-8")
    shutil.rmtree(dest)  # the way back to a symlink
    assert build("demo").deployments[0].method == "symlink" and dest.is_symlink()


@pytest.mark.parametrize("copy", [False, True])
def test_a_deployed_skill_given_by_its_path_is_its_source(
    build: Callable[..., BuildResult],
    store: Path,
    layout: Layout,
    write_skill: WriteSkill,
    copy: bool,
) -> None:
    """`skc outline .claude/skills/demo` reads the skill, not the stub deployed there, and
    `skc build .claude/skills/demo` builds the store skill again (not the stub as a skill)."""
    source = write_skill(store / "demo").resolve()
    result = build("demo", copy=copy)
    runtime = result.compiled.runtime
    for given in (".claude/skills/demo", str(layout.cwd / ".claude/skills/demo"), str(runtime)):
        found = resolve_skill(given, layout)
        assert (found.source, found.runtime, found.in_store) == (source, runtime, True), given
    again = build(".claude/skills/demo", copy=copy)
    assert again.compiled.source == source  # a copy, as a link, is kept
    assert again.deployments[0].action == "unchanged"


def _built_in_nested_project(project: Path, write_skill: WriteSkill, env: dict[str, str]) -> Path:
    """The skill ``w`` of a project nested in ``project`` (``packages/a``), built there."""
    inner_root = project / "packages" / "a"
    inner = write_skill(inner_root / ".skillc" / "skills" / "w")
    inner_layout = Layout.discover(inner_root, env)
    build_skill("w", inner_layout, config=load_config(inner_layout, env={}))
    return inner


def test_a_nested_projects_store_skill_is_built_in_its_project(
    build: Callable[..., BuildResult],
    store: Path,
    project: Path,
    write_skill: WriteSkill,
    env: dict[str, str],
) -> None:
    """`skc build packages/a/.claude/skills/w` from the outer root imported the nested
    project's skill into the outer store and deployed it there; with a skill of that name in
    the outer store, E050's `--force` moved the outer one aside for it."""
    outer = write_skill(store / "x")
    before = snapshot(outer)
    inner_root = project / "packages" / "a"
    inner_store = inner_root / ".skillc" / "skills"
    write_skill(inner_store / "x")
    _built_in_nested_project(project, write_skill, env)
    for given, force in (
        ("packages/a/.claude/skills/w", False),
        (str(inner_store / "x"), False),
        ("packages/a/.skillc/skills/x", True),
    ):
        result = build(given, force=force)
        name = Path(given).name
        assert result.compiled.source == inner_store / name
        assert result.compiled.runtime == inner_root / ".skillc" / "runtime" / name
        assert [d.path for d in result.deployments] == [inner_root / ".claude" / "skills" / name]
        assert result.imported_from is None
    assert [path.name for path in store.iterdir()] == ["x"] and snapshot(outer) == before
    assert not (project / ".claude").exists()
    assert not (project / ".gitignore").exists()


def test_a_store_entry_linking_to_another_projects_skill_is_this_stores_skill(
    build: Callable[..., BuildResult],
    store: Path,
    project: Path,
    layout: Layout,
    write_skill: WriteSkill,
    tmp_path: Path,
) -> None:
    """A store entry that is a symlink to another project's store skill was built as an
    import of itself (`Import: X -> X (already imported)`, `imported_from` naming it)."""
    shared = write_skill(tmp_path / "shared" / ".skillc" / "skills" / "s")
    (store / "s").symlink_to(shared)
    before = snapshot(tmp_path / "shared")
    for given in ("s", ".skillc/skills/s"):
        found = resolve_skill(given, layout)
        assert (found.source, found.in_store) == (shared, True)
        result = build(given)
        assert (result.imported_from, result.import_action) == (None, None)
        assert result.compiled.runtime == project / ".skillc" / "runtime" / "s"
        assert result.to_dict()["imported_from"] is None
    assert snapshot(tmp_path / "shared") == before  # built here, nothing written there
    assert resolve_skill(".claude/skills/s", layout).runtime == result.compiled.runtime


def test_an_older_versions_outer_copy_of_a_nested_skill_stays_the_outer_ones(
    build: Callable[..., BuildResult],
    store: Path,
    project: Path,
    write_skill: WriteSkill,
    env: dict[str, str],
) -> None:
    """An older version's `skc build packages` from the outer root imported the nested
    project's skill into the outer store; after the upgrade its path from the outer root
    built that outer copy into the nested runtime and repointed the outer deployment, and
    builds from the two roots then rebuilt it in turn."""
    inner_root = project / "packages" / "a"
    inner = _built_in_nested_project(project, write_skill, env)
    copy = store / "w"  # the copy and record the older version's import wrote
    shutil.copytree(inner, copy)
    record = ImportRecord("packages/a/.skillc/skills/w", source_hash(inner))
    (copy / ".skillc-import.json").write_bytes(record.to_bytes())
    outer = build("w")
    assert outer.compiled.runtime == project / ".skillc" / "runtime" / "w"
    outer_deployment = [d.path for d in outer.deployments]
    assert outer_deployment == [project / ".claude" / "skills" / "w"]
    before = outer_deployment[0].readlink()
    nested = build("packages/a/.skillc/skills/w")
    assert nested.compiled.source == inner and nested.imported_from is None
    assert nested.compiled.runtime == inner_root / ".skillc" / "runtime" / "w"
    assert [d.path for d in nested.deployments] == [inner_root / ".claude" / "skills" / "w"]
    assert outer_deployment[0].readlink() == before
    assert nested.compiled.up_to_date  # built from its own store before: not the copy
    assert build("w").compiled.up_to_date


def test_a_foreign_folder_is_kept_without_force(
    build: Callable[..., BuildResult], store: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(store / "demo")
    dest = project / ".claude" / "skills" / "demo"
    dest.mkdir(parents=True)
    (dest / "SKILL.md").write_text("hand-written\n", encoding="utf-8")
    with pytest.raises(ForeignFolder) as caught:
        build("demo")
    assert caught.value.path == ".claude/skills/demo"
    assert caught.value.force_does == "move it aside and deploy"
    assert (dest / "SKILL.md").read_text(encoding="utf-8") == "hand-written\n"
    assert not (project / ".skillc" / "runtime").exists()  # refused before building
    result = build("demo", force=True)
    assert result.deployments[0].action == "replaced"
    assert dest.is_symlink()


def test_target_inside_the_runtime_is_refused(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    write_skill(store / "demo")
    with pytest.raises(TargetInsideSkill) as caught:
        build("demo", targets=[".skillc/runtime"])
    assert caught.value.target == ".skillc/runtime"


def test_a_target_with_a_name_too_long_under_a_missing_folder_writes_nothing(
    build: Callable[..., BuildResult], store: Path, project: Path, write_skill: WriteSkill
) -> None:
    """``--target out/<300 a>/x`` with no ``out/``: looking it up stops at ``out``, and the
    name too long was refused (a raw OSError, E999) once the runtime was built and ``out/``
    made; every missing name is checked first, CannotCreate before anything is written."""
    import errno

    from skillc_index.command_errors import CannotCreate

    write_skill(store / "demo")
    with pytest.raises(CannotCreate) as refused:
        build("demo", targets=[f"out/{'a' * 300}/x"])
    assert refused.value.reason == os.strerror(errno.ENAMETOOLONG)
    assert not (project / "out").exists()
    assert not (project / ".skillc" / "runtime" / "demo" / "SKILL.md").exists()


def test_parse_targets() -> None:
    assert parse_targets([]) == ["claude"]
    assert parse_targets(["claude, cursor", "claude", "codex"]) == ["claude", "cursor", "codex"]
    assert parse_targets("claude, cursor") == ["claude", "cursor"]  # one str: one value
    with pytest.raises(EmptyTargetName) as caught:
        parse_targets(["claude,,cursor"])
    assert caught.value.value == "claude,,cursor"
    # the library names the parameter; the command line names its option
    assert (
        caught.value.diagnostic.params["message"]
        == "target 'claude,,cursor' holds an empty target name"
    )
    assert caught.value.spelled(CLI_SPELLING).params["message"] == (
        "--target 'claude,,cursor' holds an empty target name"
    )


def test_stub_frontmatter_keeps_the_source_values(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    write_skill(
        store / "demo",
        frontmatter='name: demo\ndescription: |\n  Use when: "x" # y\n  second line\n',
    )
    stub = build("demo").compiled.stub.read_text(encoding="utf-8")
    block = stub.split("---\n")[1]
    assert yaml.safe_load(block) == {
        "name": "demo",
        "description": 'Use when: "x" # y\nsecond line\n',
    }


@pytest.mark.parametrize("value", ["No", "Yes", "off"])
def test_a_description_yaml_1_1_reads_as_a_boolean_is_text(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill, value: str
) -> None:
    """``description: No`` is the text "No" to YAML 1.2 (the agents, skills-ref, the stub):
    E011 reads it so too (it said "'description' is a boolean"); the listing's check agrees."""
    from skillc_index.listing.skills import _frontmatter_problem

    folder = write_skill(store / "yn", frontmatter=f"name: yn\ndescription: {value}\n")
    stub = build("yn").compiled.stub.read_text(encoding="utf-8")
    assert yaml.safe_load(stub.split("---\n")[1])["description"] == value
    assert _frontmatter_problem(folder / "SKILL.md") is None
    write_skill(store / "yn", frontmatter="name: yn\ndescription: [a]\n")
    with pytest.raises(MissingFrontmatterField):
        build("yn")


CLAUDE_CODE_FRONTMATTER = """\
name: deploy-prod
description: >-
  Deploy the app to production. Use only when the user explicitly asks for a production
  deploy, never on your own initiative, and never from a fork of the repository.
disable-model-invocation: true
user-invocable: true
allowed-tools: Bash(git:*), Bash(./scripts/deploy.sh:*), Read
argument-hint: "[environment]"
context: fork
agent: general-purpose
model: sonnet
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: "./scripts/check.sh"
license: Apache-2.0
metadata:
  author: ops-team
  version: "2.1"
"""


def test_a_claude_code_skill_deploys_with_every_field(
    cli: Callable[..., Callable[..., object]], project: Path, write_skill: WriteSkill
) -> None:
    """issue 16: a user-only skill stays user-only once deployed (the stub loads as the
    source would)."""
    source = write_skill(project / "src" / "deploy-prod", frontmatter=CLAUDE_CODE_FRONTMATTER)
    (source / "scripts").mkdir()
    (source / "scripts" / "deploy.sh").write_text("#!/bin/sh\necho deployed\n", encoding="utf-8")
    done = cli("skillc_index")("build", str(source))
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]
    deployed = (project / ".claude" / "skills" / "deploy-prod" / "SKILL.md").read_text(
        encoding="utf-8"
    )
    block, _, body = deployed.removeprefix("---\n").partition("\n---\n")
    expected = yaml.safe_load(CLAUDE_CODE_FRONTMATTER)
    assert yaml.safe_load(block) == expected
    assert list(yaml.safe_load(block)) == list(expected)
    assert expected["disable-model-invocation"] is True and expected["context"] == "fork"
    # only the body is replaced; it leads to the scripts without naming any path
    assert "echo deployed" not in deployed
    assert "`skc exec deploy-prod -- <command>`" in body
    assert str(project) not in deployed and str(source) not in deployed


def test_one_skill_s_build_lines_show_a_folder_s_control_characters_as_escapes(
    cli: Callable[..., Callable[..., Any]], project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """``skc build SKILL`` (one skill) printed its Import/Source/Runtime/Index/Deploy paths
    raw: a store folder named with an escape sequence cleared the screen and retitled the
    terminal once per line, and a newline in a folder name made up lines. Each line now goes
    through ``printable``, as a batch build's do."""
    run = cli("skillc_index")
    evil = "clr\x1b]0;PWNED\x07"
    write_skill(project / ".skillc" / "skills" / evil, name="clr")
    write_skill(project / ".skillc" / "skills" / "nl\nfake", name="nl")
    write_skill(tmp_path / "dl\x1b]0;T\x07" / "imp")
    shown = "clr\\x1b]0;PWNED\\x07"
    heads = ("Import:  ", "Source:  ", "Runtime: ", "Index:   ", "         reason: ", "Deploy:  ")
    for args in ((evil, "-v"), ("nl\nfake",), (str(tmp_path / "dl\x1b]0;T\x07" / "imp"),)):
        done = run("build", *args)
        assert done.returncode == 0, done.stderr
        assert "\x1b" not in done.stdout and "\x07" not in done.stdout, done.stdout
        assert all(line.startswith(heads) for line in done.stdout.splitlines()), done.stdout
    done = run("build", evil)
    assert f"Source:  .skillc/skills/{shown} (project)\n" in done.stdout
    assert f"Deploy:  claude -> .claude/skills/{shown} (symlink, unchanged)\n" in done.stdout
    assert "Source:  .skillc/skills/nl\\nfake (project)\n" in run("build", "nl\nfake").stdout


# -- imports: names, records, and a kill between the two renames (issue 13) ------------------


@pytest.mark.parametrize("name", ["-x-y", ".dot", "Upper", "a\nb", "a--b"])
def test_import_refuses_a_name_init_would_refuse(
    build: Callable[..., BuildResult],
    store: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
    name: str,
) -> None:
    outside = write_skill(tmp_path / "drafts" / name, frontmatter="name: x\ndescription: X.\n")
    with pytest.raises(InvalidOption, match="invalid skill name"):
        build(str(outside))
    assert list(store.iterdir()) == []


def test_the_import_record_names_the_folder_and_what_was_copied(
    build: Callable[..., BuildResult], store: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    outside = write_skill(tmp_path / "drafts" / "ext")
    build(str(outside))
    record = ImportRecord.read(store / "ext")
    assert record == ImportRecord(str(outside.resolve()), source_hash(outside))
    assert record.source_hash == source_hash(store / "ext")  # the record is not a source file


def test_a_project_folder_s_import_record_moves_with_the_project(
    build: Callable[..., BuildResult],
    config: Config,
    env: dict[str, str],
    project: Path,
    store: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
) -> None:
    """``skills/<name>/`` kept in the repository: the record names the folder relative to the
    project root (it is committed), so a moved or cloned checkout builds its edits, and a
    build there leaves the record as it was."""
    folder = write_skill(project / "skills" / "pdf")
    build("skills/pdf")
    assert ImportRecord.read(store / "pdf") == ImportRecord("skills/pdf", source_hash(folder))
    moved = tmp_path / "moved"
    shutil.copytree(project, moved, symlinks=True)
    there = Layout.discover(moved, env)
    record = (moved / ".skillc/skills/pdf/.skillc-import.json").read_bytes()
    assert build_skill("skills/pdf", there, config=config).import_action == "unchanged"
    assert (moved / ".skillc/skills/pdf/.skillc-import.json").read_bytes() == record
    with (moved / "skills/pdf/SKILL.md").open("a", encoding="utf-8") as handle:
        handle.write("\n## Edited\n")
    result = build_skill("skills/pdf", there, config=config)
    assert result.import_action == "replace"
    assert "## Edited" in (moved / ".skillc/skills/pdf/SKILL.md").read_text(encoding="utf-8")
    assert "## Edited" not in (store / "pdf" / "SKILL.md").read_text(encoding="utf-8")
    # an older record's absolute path is still read, and written relative at the next build
    older = ImportRecord(str(folder), source_hash(folder))
    (store / "pdf" / ".skillc-import.json").write_bytes(older.to_bytes())
    assert build("skills/pdf").import_action == "unchanged"
    assert ImportRecord.read(store / "pdf") == older._replace(origin="skills/pdf")
    # a relative origin climbing out of the project names no folder
    assert ImportRecord("../project/skills/pdf", "0").folder(store / "pdf") is None


def test_a_store_skill_built_by_name_is_imported_again_from_its_folder(
    build: Callable[..., BuildResult], project: Path, store: Path, write_skill: WriteSkill
) -> None:
    """``skc build NAME`` builds the edits of the folder the store skill was imported from,
    as ``build --all`` and ``skc build <folder>`` do (it said "up to date")."""
    folder = write_skill(project / "drafts" / "mine")
    build("./drafts/mine")
    with (folder / "SKILL.md").open("a", encoding="utf-8") as handle:
        handle.write("\n## Edited\n")
    result = build("mine")
    assert (result.import_action, result.imported_from) == ("replace", folder)
    assert not result.compiled.up_to_date
    assert "## Edited" in (store / "mine" / "SKILL.md").read_text(encoding="utf-8")
    assert build(str(store / "mine")).compiled.up_to_date
    # the store copy edited in place, the folder not since: the store skill as it is, no E050
    with (store / "mine" / "SKILL.md").open("a", encoding="utf-8") as handle:
        handle.write("\n## In place\n")
    assert build("mine").import_action is None
    assert "## In place" in (store / "mine" / "SKILL.md").read_text(encoding="utf-8")


def test_a_store_skill_imported_again_reads_and_hashes_its_folder_once(
    build: Callable[..., BuildResult],
    project: Path,
    store: Path,
    write_skill: WriteSkill,
    count_calls: Callable[[object, str], list[tuple[Any, ...]]],
) -> None:
    """Building the store skill by name walks and hashes the folder it was imported from once,
    and reads its import record once (it did three reads and two walks and hashes)."""
    import skillc_index.build.skill
    import skillc_index.digests
    import skillc_index.files
    import skillc_index.skill_files

    folder = write_skill(project / "drafts" / "mine")
    build("./drafts/mine")
    with (folder / "SKILL.md").open("a", encoding="utf-8") as handle:
        handle.write("\n## Edited\n")
    reads = count_calls(ImportRecord, "read")
    hashed = count_calls(skillc_index.digests, "file_digests")
    walks = count_calls(skillc_index.build.skill, "walk_skill")
    walked = count_calls(skillc_index.digests, "walk_skill")  # source_hash's own walk
    origin = count_calls(skillc_index.skill_files, "walk_skill")  # import_record.walk_origin's
    assert build("mine").import_action == "replace"
    assert reads == [(store / "mine",)]
    assert [call[0] for call in hashed].count(folder) == 1
    assert [call[0] for call in walks + walked + origin].count(folder) == 1


def test_a_copy_without_a_record_holding_the_same_files_is_adopted(
    build: Callable[..., BuildResult], store: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    outside = write_skill(tmp_path / "drafts" / "ext")
    write_skill(store / "ext")  # the same files, made by hand (or by an older skillc)
    assert ImportRecord.read(store / "ext") is None
    assert build(str(outside)).import_action == "unchanged"
    assert ImportRecord.read(store / "ext") == ImportRecord(
        str(outside.resolve()), source_hash(outside)
    )


def _dead_pid() -> int:
    import subprocess

    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_a_copy_stranded_between_the_renames_is_put_back(
    store: Path, write_skill: WriteSkill
) -> None:
    pid = _dead_pid()
    old = store / f".ext.old.{pid}-0badc0de"
    write_skill(old / "ext", body="previous\n")
    staging = write_skill(store / f".ext.import.{pid}-0badc0df")
    recover_stranded(store, "ext")
    assert "previous" in (store / "ext" / "SKILL.md").read_text(encoding="utf-8")
    assert not old.exists() and not staging.exists()


def test_an_old_copy_left_after_the_second_rename_is_removed(
    store: Path, write_skill: WriteSkill
) -> None:
    pid = _dead_pid()
    write_skill(store / "ext", body="new\n")
    write_skill(store / f".ext.old.{pid}-0badc0de" / "ext", body="previous\n")
    recover_stranded(store, "ext")
    assert sorted(p.name for p in store.iterdir()) == ["ext"]
    assert "new" in (store / "ext" / "SKILL.md").read_text(encoding="utf-8")


def test_resolution_puts_a_stranded_copy_back(
    layout: Layout, store: Path, write_skill: WriteSkill
) -> None:
    write_skill(store / f".ext.old.{_dead_pid()}-0badc0de" / "ext")
    assert resolve_skill("ext", layout).source == (store / "ext").resolve()


def test_folder_skills_list_the_store_once_whatever_its_size(
    layout: Layout, store: Path, project: Path, write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Each folder skill resolved (lint and build resolve every one) looks in each store for a
    copy imported from it, and on a miss for a copy a killed import moved aside: that listed
    the whole store for every folder skill (1,000 folder skills against a store of 20,000:
    twice the CPU time of an empty store). The store is listed once while it is unchanged;
    a copy moved aside since is still put back."""
    for i in range(40):
        write_skill(store / f"stored-{i:02d}")
    folders = [write_skill(project / "skills" / f"folder-{i}") for i in range(6)]
    ext = write_skill(project / "skills" / "ext")
    record = ImportRecord(ImportRecord.recorded(ext.resolve(), "project", layout), "0" * 64)
    past = time.time() - 3600
    os.utime(store, (past, past))
    time.sleep(0.3)  # settled (its change time too): a listing of it may be kept
    listed: list[str] = []
    listdir = os.listdir

    def counting(path: Any = ".") -> list[str]:
        listed.append(str(path))
        return listdir(path)

    monkeypatch.setattr(os, "listdir", counting)
    for folder in folders:
        assert resolve_skill(str(folder), layout).source == folder.resolve()
    assert listed.count(str(store)) == 1
    moved = store / f".ext.old.{_dead_pid()}-0badc0de" / "ext"
    write_skill(moved)
    (moved / IMPORT_RECORD).write_bytes(record.to_bytes())
    os.utime(store, (past + 1, past + 1))  # changed since it was listed, and settled
    assert resolve_skill(str(ext), layout).source == (store / "ext").resolve()
    assert not moved.parent.exists()


def test_a_build_locks_the_runtime_it_writes_whatever_its_source(
    home: Path, tmp_path: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two projects building one name ``--global`` share only the runtime: with the lock on
    the source alone their builds interleaved (one's stub, the other's manifest). While a
    build compiles, its runtime is locked, on the first build too; a first build that fails
    leaves no runtime folder."""
    fcntl = pytest.importorskip("fcntl")
    import skillc_index.build.skill as skill_module

    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    runtime = home / ".skillc" / "runtime" / "demo"
    compile_skill = skill_module.compile_skill
    seen: list[str] = []

    def another_build_tries_the_runtime(*args: object, **kwargs: object) -> object:
        fd = os.open(runtime, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            seen.append("free")
        except BlockingIOError:
            seen.append("locked")
        finally:
            os.close(fd)
        return compile_skill(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(skill_module, "compile_skill", another_build_tries_the_runtime)
    for project in ("one", "two"):
        source = write_skill(tmp_path / project / "demo", body=f"From {project}.\n")
        build_skill(str(source), layout, force=True, config=load_config(layout, env={}))
    assert seen == ["locked", "locked"]

    def fails(*args: object, **kwargs: object) -> object:
        assert (runtime.parent / "other").is_dir()  # made to be locked
        raise OSError("no room left")

    monkeypatch.setattr(skill_module, "compile_skill", fails)
    with pytest.raises(OSError, match="no room left"):
        build_skill(str(write_skill(tmp_path / "three" / "other")), layout)
    assert sorted(p.name for p in runtime.parent.iterdir()) == ["demo"]


_BUILD_AT_THE_LOCK = """
import sys
from pathlib import Path

import skillc_index.build.skill as skill_module
from skillc_index import Layout, load_config
from skillc_index.command_errors import StoreCopyDiffers

source, waits, project, home = sys.argv[1:]
lock = skill_module._build_lock


def at_the_lock(skill, *, runtime=False):
    if runtime:
        Path(waits).touch()  # the other build holds it: this one waits for it from here
    return lock(skill, runtime=runtime)


skill_module._build_lock = at_the_lock
layout = Layout.discover(Path(project), {"SKILLC_HOME": home})
try:
    skill_module.build_skill(source, layout, config=load_config(layout, env={}))
except StoreCopyDiffers:
    print("E050")
else:
    print("imported")
"""


def test_a_build_importing_another_folder_of_the_name_at_once_is_refused(
    layout: Layout,
    project: Path,
    home: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two processes importing two folders named ``foo`` at once: the second planned its
    import (no ``foo`` in the store: a copy) before it waited for the first's lock, then
    replaced the first's fresh copy, both saying imported. Planned under the lock, the second
    is E050, as when the builds run one after the other."""
    import subprocess
    import sys
    import time

    import skillc_index.build.skill as skill_module

    first = write_skill(tmp_path / "a" / "foo", description="Foo from a. Use when testing.")
    second = write_skill(tmp_path / "b" / "foo", description="Foo from b. Use when testing.")
    waits = tmp_path / "second-waits"
    copy_deployments = skill_module.copy_deployments  # the first step under the locks
    started: list[subprocess.Popen[str]] = []

    def the_second_starts(*args: object, **kwargs: object) -> object:
        argv = [sys.executable, "-c", _BUILD_AT_THE_LOCK, second, waits, project, home]
        other = subprocess.Popen(
            [str(arg) for arg in argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        started.append(other)
        deadline = time.monotonic() + 60
        while not waits.exists() and other.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        return copy_deployments(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(skill_module, "copy_deployments", the_second_starts)
    build_skill(str(first), layout, config=load_config(layout, env={}))
    out, err = started[0].communicate(timeout=120)
    assert waits.exists() and out.strip() == "E050", out + err
    kept = (project / ".skillc" / "skills" / "foo" / "SKILL.md").read_text(encoding="utf-8")
    assert "Foo from a" in kept


def test_an_index_damaged_in_place_is_built_again(
    build: Callable[..., BuildResult], store: Path, write_skill: WriteSkill
) -> None:
    """An index whose stat is not the one the manifest records is left to the next build
    when a reader rebuilt it (current by its own meta), but one damaged in place while its
    meta still reads (4 KiB of a page overwritten) is built again: its pages are checked
    (``PRAGMA quick_check``); the build kept it, "index up to date", and searches scored 0."""
    sections = "".join(f"## Part {n}\n\n{'words of the part ' * 40}{n}\n\n" for n in range(200))
    write_skill(store / "demo", body=sections)
    index = build("demo").compiled.index.path
    size = index.stat().st_size
    assert size > 64 * 1024
    with index.open("r+b") as handle:
        handle.seek(size // 2 // 4096 * 4096)
        handle.write(b"\xa5" * 4096)
    again = build("demo")
    assert (again.compiled.index.action, again.compiled.index.reason) == (
        "rebuilt",
        "stale: the index file is damaged",
    )
    assert build("demo").compiled.index.action == "up-to-date"


def test_a_skill_up_to_date_removes_what_a_killed_build_of_it_left(
    build: Callable[..., BuildResult], store: Path, project: Path, write_skill: WriteSkill
) -> None:
    import fcntl

    """A build killed (SIGKILL) left its staging folder, a partial search database, in the
    runtime store; only a build that wrote the skill again removed it, so one of a skill
    left as it was stayed for good. A build finding the skill up to date removes it too
    (of a process gone; a running build's stays)."""
    write_skill(store / "demo")
    build("demo")
    runtimes = project / ".skillc" / "runtime"
    left = runtimes / f".demo.build.{_dead_pid()}-0badc0de" / ".skillc-meta"
    running = runtimes / f".demo.build.{os.getppid()}-0badc0de"
    left.mkdir(parents=True)
    (left / "search-0123456789abcdef.db").write_bytes(b"SQLite format 3\0")
    running.mkdir()
    fd = os.open(running, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held, as a running build holds it
        assert build("demo").compiled.up_to_date
    finally:
        os.close(fd)
    assert sorted(path.name for path in runtimes.iterdir()) == sorted(["demo", running.name])
