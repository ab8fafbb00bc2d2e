"""The index is a cache (issue 34) end to end: every reading command works on a skill that
was never built (one copied into an agent folder), an edit is read by the next ``show`` and
``search`` without a build, two processes reading a stale skill at once both answer and the
index is built once, nothing is written into the skill's folder or the agent folder, and
``skc list`` says ``stale`` after an edit.

Real files, real SQLite, real ``skc`` processes where the point is concurrency.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index.index.schema import hash16

Run = Callable[..., "subprocess.CompletedProcess[str]"]

SKILL = """---
name: guide
description: A guide for cache tests. Use when testing the index cache.
---

# Guide

Read the references.

## Install

Run the installer with marmalade.

## Usage

Call it twice.
"""


def _reference(number: int) -> str:
    body = "".join(
        f"Paragraph {k} of topic {number} about quince and medlar.\n\n" for k in range(8)
    )
    return f"# Topic {number}\n\n{body}## Details {number}\n\nDetail text {number}.\n"


def _write_guide(root: Path, references: int = 3) -> Path:
    (root / "references").mkdir(parents=True)
    (root / "SKILL.md").write_text(SKILL, encoding="utf-8")
    for number in range(references):
        path = root / "references" / f"topic-{number:03}.md"
        path.write_text(_reference(number), encoding="utf-8")
    return root


def _tree_digest(root: Path) -> str:
    """Every entry under ``root`` (hidden ones too): path, kind, and a file's bytes."""
    digest = hashlib.sha256()
    for folder, folders, files in sorted(os.walk(root)):
        folders.sort()
        for name in sorted(folders + files):
            path = Path(folder) / name
            digest.update(str(path.relative_to(root)).encode() + b"\0")
            if path.is_file() and not path.is_symlink():
                digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.fixture
def agent_home(tmp_path: Path) -> Path:
    """A user's home folder whose Claude Code skills folder holds ``guide``, copied there (as
    ``npx skills add`` or a plain copy would): skillc never built it."""
    home = tmp_path / "user"
    _write_guide(home / ".claude" / "skills" / "guide")
    return home


def _later(path: Path, text: str) -> None:
    """Rewrite ``path`` with a time its old stats cannot have (a coarse clock, a fast test)."""
    before = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    later = max(before + 1_000_000_000, path.stat().st_mtime_ns)
    os.utime(path, ns=(later, later))


def test_every_reading_command_on_a_never_built_agent_skill(
    skc: Run, agent_home: Path, home: Path
) -> None:
    """outline, show (every heading outline lists), search, sources and open, by path, on a
    skill in an agent folder that skillc never built: each answers (no E002, no build step);
    not a byte of the agent folder changes; the index is in skillc's global runtime."""
    skill = agent_home / ".claude" / "skills" / "guide"
    env = {"HOME": str(agent_home)}
    before = _tree_digest(agent_home)

    def ok(*args: str) -> subprocess.CompletedProcess[str]:
        proc = skc(*args, env_extra=env)
        assert proc.returncode == 0, (args, proc.stderr)
        return proc

    outline = json.loads(ok("outline", str(skill), "--format", "json").stdout)
    headings = [(h["file"], h["text"]) for h in outline["headings"]]
    assert ("SKILL.md", "Install") in headings and (
        "references/topic-002.md",
        "Details 2",
    ) in headings
    for file, text in headings:
        shown = json.loads(
            ok("show", str(skill), "--section", text, "--file", file, "--format", "json").stdout
        )
        assert shown["file"] == file and shown["section"] == text
    found = json.loads(ok("search", str(skill), "marmalade", "--format", "json").stdout)
    assert (found["results"][0]["file"], found["results"][0]["section"]) == ("SKILL.md", "Install")
    assert "topic-000.md" in ok("sources", str(skill)).stdout
    assert ok("open", str(skill), "SKILL.md").stdout == SKILL

    assert _tree_digest(agent_home) == before
    indexes = list((home / ".skillc" / "runtime" / "guide" / ".skillc-meta").glob("search-*.db"))
    assert [p.name for p in indexes] == [f"search-{hash16(skill)}.db"]


def test_an_edit_is_read_by_the_next_show_and_search_without_a_build(
    skc: Run, ok: Run, project: Path, agent_home: Path
) -> None:
    """A built store skill and an agent folder's skill, each read, then edited: the next
    ``show`` and ``search`` answer from the new text (nothing rebuilt by hand)."""
    ok("init")
    stored = _write_guide(project / ".skillc" / "skills" / "guide")
    ok("build", "guide")
    copied = agent_home / ".claude" / "skills" / "guide"
    for skill in ("guide", str(copied)):
        root = stored if skill == "guide" else copied
        assert "marmalade" in ok("show", skill, "--section", "Install").stdout
        _later(root / "SKILL.md", SKILL.replace("with marmalade", "with greengage"))
        shown = skc("show", skill, "--section", "Install")
        assert shown.returncode == 0 and shown.stderr == "", shown.stderr
        assert "with greengage" in shown.stdout and "marmalade" not in shown.stdout
        found = json.loads(ok("search", skill, "greengage", "--format", "json").stdout)
        assert [r["section"] for r in found["results"]] == ["Install", "Guide"]
        assert (
            json.loads(ok("search", skill, "marmalade", "--format", "json").stdout)["results"] == []
        )


def test_list_says_stale_after_an_edit(ok: Run, project: Path) -> None:
    """Built: normal. Edited: stale (a read since, which made the index current again, does
    not hide that the build is out of date). Built again: normal."""

    def status() -> str:
        data = json.loads(ok("list", "--format", "json").stdout)
        return str({s["name"]: s["status"] for s in data["skills"]}["guide"])

    ok("init")
    stored = _write_guide(project / ".skillc" / "skills" / "guide")
    ok("build", "guide")
    assert status() == "normal"
    _later(stored / "SKILL.md", SKILL + "\n## More\n")
    assert status() == "stale"
    ok("show", "guide", "--section", "More")
    assert status() == "stale"
    assert "stale" in ok("list").stdout
    ok("build", "guide")
    assert status() == "normal"


@pytest.mark.parametrize("planted", ["trigger", "view", "table"])
def test_an_index_holding_what_skillc_never_makes_is_built_again_whole(
    ok: Run, project: Path, planted: str
) -> None:
    """An index a checkout ships with a trigger (a view, another table) in it is not skillc's:
    after an edit of one file of four, it is built again whole, not updated in place, so the
    trigger never runs and its rows are never served."""
    import sqlite3

    ok("init")
    stored = _write_guide(project / ".skillc" / "skills" / "guide")
    ok("search", "guide", "marmalade")
    runtime = project / ".skillc" / "runtime" / "guide" / ".skillc-meta"
    db = runtime / f"search-{hash16(stored)}.db"
    statement = {
        "trigger": "CREATE TRIGGER planted AFTER DELETE ON files BEGIN "
        "INSERT INTO sections (file, section, content) VALUES ('SKILL.md', 'Injected', "
        "'PWNED run curl'); INSERT INTO headings (file, text, level, start_line, end_line) "
        "VALUES ('SKILL.md', 'Injected', 1, 1, 1); END",
        "view": "CREATE VIEW planted AS SELECT * FROM headings",
        "table": "CREATE TABLE planted (x)",
    }[planted]
    with contextlib.closing(sqlite3.connect(db)) as connection:
        connection.execute(statement)
        connection.commit()
    _later(stored / "references" / "topic-001.md", _reference(1) + "\nMore.\n")
    found = json.loads(ok("search", "guide", "PWNED", "--format", "json").stdout)
    assert found["results"] == []
    outline = json.loads(ok("outline", "guide", "--format", "json").stdout)
    assert "Injected" not in [h["text"] for h in outline["headings"]]
    with contextlib.closing(sqlite3.connect(db)) as connection:
        names = connection.execute("SELECT name FROM sqlite_master WHERE name = 'planted'")
        assert names.fetchall() == []


def _has_open(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has ``path`` open (Linux ``/proc``)."""
    try:
        return any(fd.readlink() == path for fd in Path(f"/proc/{pid}/fd").iterdir())
    except OSError:  # it exited, or an fd closed meanwhile
        return False


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux /proc")
def test_two_processes_reading_a_stale_skill_build_its_index_once(
    skc_installed: Run,
    skc_path: Path,
    clean_env: dict[str, str],
    project: Path,
    home: Path,
    tmp_path: Path,
) -> None:
    """Two ``skc show`` processes on a skill whose index is missing, made to reach the index's
    lock together (the test holds it until both wait on it): both print the section, and the
    index file is made once: every index file seen until both exit is one file (a second
    build would rename another into place)."""
    skill = _write_guide(tmp_path / "agents" / "guide", references=200)
    meta = home / ".skillc" / "runtime" / "guide" / ".skillc-meta"
    meta.mkdir(parents=True)
    lock_path = meta / f"search-{hash16(skill)}.lock"
    index = meta / f"search-{hash16(skill)}.db"
    command = [str(skc_path), "show", str(skill), "--section", "Details 150"]
    with open(lock_path, "a+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        readers = [
            subprocess.Popen(
                command, cwd=project, env=clean_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
            for _ in range(2)
        ]
        deadline = time.monotonic() + 120
        while not all(_has_open(reader.pid, lock_path) for reader in readers):
            assert all(reader.poll() is None for reader in readers), "a reader exited early"
            assert time.monotonic() < deadline, "the readers never reached the lock"
            time.sleep(0.005)
        assert not index.exists()
    # released: one reader builds, the other waits, checks again and reads what it built
    seen: set[int] = set()
    while any(reader.poll() is None for reader in readers):
        with contextlib.suppress(FileNotFoundError):
            seen.add(index.stat().st_ino)
    outputs = [reader.communicate(timeout=120) for reader in readers]
    for reader, (out, err) in zip(readers, outputs, strict=True):
        assert reader.returncode == 0, err
        assert out.decode().startswith("## Details 150\n\nDetail text 150.")
    seen.add(index.stat().st_ino)
    assert len(seen) == 1
    # and simply both at once, unsynchronized, after an edit: both read the edit
    _later(skill / "references" / "topic-150.md", "# Topic 150\n\n## Details 150\n\nEdited.\n")
    readers = [
        subprocess.Popen(
            command, cwd=project, env=clean_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    for reader in readers:
        out, err = reader.communicate(timeout=120)
        assert reader.returncode == 0, err
        assert out.decode() == "## Details 150\n\nEdited.\n"


def test_with_nothing_writable_the_readers_answer_from_an_index_in_memory(
    agent_home: Path,
    project: Path,
    tmp_path: Path,
    clean_env: dict[str, str],
    script_path: Callable[[str], Path],
) -> None:
    """Codex's read-only mode: nothing can be written, neither the project, the homes, nor
    any temporary directory (``/tmp``, ``/var/tmp``; ``TMPDIR`` unset). ``search`` and
    ``show`` were E002 "cannot write its index: No usable temporary directory found", while
    ``outline`` and ``find`` answered; now the index is built in memory, each answers, and
    each says so once (and what to do: set TMPDIR), on stderr: ``--format json`` stays JSON
    on stdout. Run as the installed ``skc`` with read-only mounts (root only: /tmp is made
    read-only)."""
    if os.geteuid() != 0:
        pytest.skip("a read-only /tmp needs a mount namespace (root)")
    from e2e_support import read_only

    env = {k: v for k, v in clean_env.items() if k not in ("TMPDIR", "TEMP", "TMP")}
    env["HOME"] = str(agent_home)
    folders = [tmp_path, *(d for d in ("/tmp", "/var/tmp", "/usr/tmp") if Path(d).is_dir())]
    skc = str(script_path("skc"))
    guide = str(agent_home / ".claude" / "skills" / "guide")

    def run(*args: str) -> dict[str, object]:
        command = read_only(folders[0], [skc, *args, "--format", "json"], *folders[1:])
        proc = subprocess.run(
            command, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False
        )
        assert proc.returncode == 0, (args, proc.stderr)
        said = [line for line in proc.stderr.splitlines() if "built in memory" in line]
        assert len(said) == 1 and said[0].startswith("warning: cannot write the index of a skill")
        assert said[0].endswith("set TMPDIR to a writable folder"), said
        answer: dict[str, object] = json.loads(proc.stdout)
        return answer

    found: Any = run("search", guide, "marmalade")
    assert (found["results"][0]["file"], found["results"][0]["section"]) == ("SKILL.md", "Install")
    shown = run("show", guide, "--section", "Details 1")
    assert shown["file"] == "references/topic-001.md"
    assert shown["content"] == "## Details 1\n\nDetail text 1.\n"
    outline: Any = run("outline", guide)
    assert ("SKILL.md", "Usage") in [(h["file"], h["text"]) for h in outline["headings"]]
    assert not (project / ".skillc").exists() and not (agent_home / ".skillc").exists()


def _schema(index: Path, version: int | None = None, added: bool = False) -> str:
    """The index's ``schema_version``, first set to ``version`` (as a newer skillc writes it),
    with a table and an index this version does not make when ``added``."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(index)) as db, db:
        if version is not None:
            db.execute("UPDATE index_meta SET value = ? WHERE key = 'schema_version'", (version,))
        if added:
            db.execute("CREATE TABLE newer_stuff (x)")
            db.execute("CREATE INDEX newer_stuff_x ON newer_stuff (x)")
        row = db.execute("SELECT value FROM index_meta WHERE key = 'schema_version'").fetchone()
        return str(row[0])


NEWER_INDEX = (
    "warning: the index of a skill was written by a newer skillc (index schema {newer}; this "
    "skillc reads {reads}): upgrade skillc; this process leaves that index as it is and reads "
    "one it builds in memory"
)  # one remedy: a plain run of the CLI was told both to upgrade and to restart


@pytest.mark.parametrize("added", [False, True], ids=["same-tables", "added-table"])
def test_an_index_a_newer_skillc_wrote_is_left_as_it_is_and_read_from_one_in_memory(
    skc_installed: Run, agent_home: Path, home: Path, added: bool
) -> None:
    """A live upgrade: an agent's MCP server still runs the old code while the new one has
    built the skill's index (its schema version higher). The old code took it for stale and
    built it again in its own schema, the new code rebuilt it back, each flip a whole build,
    nothing said. Now the old code leaves the file as it is, answers from an index it builds
    in memory, and says why once (on stderr: ``--format json`` stays JSON). A newer schema
    that adds a table and an index is newer too: it was classed corrupt (an object this
    version does not make) and rewritten in silence."""
    from skillc_index.index.schema import SCHEMA_VERSION

    guide = agent_home / ".claude" / "skills" / "guide"
    env = {"HOME": str(agent_home)}

    def run(command: str, *args: str) -> subprocess.CompletedProcess[str]:
        proc = skc_installed(command, str(guide), *args, "--format", "json", env_extra=env)
        assert proc.returncode == 0, (command, proc.stderr)
        return proc

    assert json.loads(run("outline").stdout)["headings"]
    index = home / ".skillc" / "runtime" / "guide" / ".skillc-meta" / f"search-{hash16(guide)}.db"
    newer = SCHEMA_VERSION + 1
    _schema(index, newer, added)
    before, stat = index.read_bytes(), index.stat()
    said = NEWER_INDEX.format(newer=newer, reads=SCHEMA_VERSION)

    found = run("search", "marmalade")
    assert found.stderr.splitlines() == [said]
    results = json.loads(found.stdout)["results"]
    assert (results[0]["file"], results[0]["section"]) == ("SKILL.md", "Install")
    shown = run("show", "--section", "Details 1")
    assert shown.stderr.splitlines() == [said]
    assert json.loads(shown.stdout)["content"] == "## Details 1\n\nDetail text 1.\n"

    assert index.read_bytes() == before and _schema(index) == str(newer)
    assert (index.stat().st_ino, index.stat().st_mtime_ns) == (stat.st_ino, stat.st_mtime_ns)


def test_build_refuses_a_runtime_a_newer_skillc_wrote_unless_forced(
    skc_installed: Run, project: Path
) -> None:
    """``skc build`` (and an old MCP server's ``skc_build``) of a skill a newer skillc built
    rewrote its index, manifest and stub in this version's formats, in silence, as the
    readers did: it refuses now, as for the route manifest, the listing overrides and a lint
    baseline a newer skillc wrote (nothing written), and ``--force`` builds them again."""
    from skillc_index.build.manifest import MANIFEST_VERSION
    from skillc_index.build.stub import STUB_FORMAT
    from skillc_index.index.schema import SCHEMA_VERSION

    _write_guide(project / ".skillc" / "skills" / "guide")

    def build(*args: str) -> subprocess.CompletedProcess[str]:
        return skc_installed("build", "guide", "--target", "claude", *args)

    assert build().returncode == 0
    meta = project / ".skillc" / "runtime" / "guide" / ".skillc-meta"
    (index,) = meta.glob("search-*.db")
    manifest = meta / "manifest.json"
    _schema(index, SCHEMA_VERSION + 1, added=True)  # a newer schema with a table more
    files = {path: path.read_bytes() for path in (index, manifest)}
    refused = build()
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == (
        "error[E002]: search index unusable for 'guide': it was written by a newer skillc "
        f"(index schema {SCHEMA_VERSION + 1}; this skillc reads {SCHEMA_VERSION}): upgrade "
        "skillc; it is left as it is ('skc build --force' builds it again with this skillc)\n"
    )
    assert {path: path.read_bytes() for path in files} == files
    assert build("--force").returncode == 0 and _schema(index) == str(SCHEMA_VERSION)

    for field, newer in (("version", MANIFEST_VERSION + 1), ("stub_format", STUB_FORMAT + 1)):
        recorded = json.loads(manifest.read_text(encoding="utf-8"))
        manifest.write_text(json.dumps({**recorded, field: newer}), encoding="utf-8")
        written = manifest.read_bytes()
        refused = build()
        what = "manifest version" if field == "version" else "stub format"
        reads = MANIFEST_VERSION if field == "version" else STUB_FORMAT
        assert (refused.returncode, refused.stderr) == (
            1,
            f"error[E999]: cannot build 'guide': its manifest was written by a newer skillc "
            f"({what} {newer}; this skillc reads {reads}): upgrade skillc; it is left as it is "
            "('skc build --force' builds it again with this skillc)\n",
        )
        assert manifest.read_bytes() == written
        assert build("--force").returncode == 0
        assert json.loads(manifest.read_text(encoding="utf-8"))[field] == reads


@pytest.mark.parametrize("what", ["index", "manifest"])
def test_a_build_refused_for_a_newer_runtime_leaves_the_imported_copy_as_it_was(
    skc_installed: Run, home: Path, tmp_path: Path, what: str
) -> None:
    """A build of a folder imported into the store refused for a runtime a newer skillc wrote
    (E002 for its index, E999 for its manifest) had already imported the folder's edit over
    the store copy and its record, the check being in the compile after the import: both are
    now checked before anything is written, the store copy's bytes as they were."""
    from skillc_index.build.manifest import MANIFEST_VERSION
    from skillc_index.index.schema import SCHEMA_VERSION

    origin = _write_guide(tmp_path / "drafts" / "guide")

    def build(*args: str) -> subprocess.CompletedProcess[str]:
        return skc_installed("build", str(origin), "--target", "claude", *args)

    assert build().returncode == 0  # imported into the global store (a folder outside projects)
    store = home / ".skillc" / "skills" / "guide"
    meta = home / ".skillc" / "runtime" / "guide" / ".skillc-meta"
    (index,) = meta.glob("search-*.db")
    manifest = meta / "manifest.json"
    assert (store / ".skillc-import.json").is_file()

    def copy() -> dict[str, bytes]:
        return {str(p.relative_to(store)): p.read_bytes() for p in store.rglob("*") if p.is_file()}

    if what == "index":
        _schema(index, SCHEMA_VERSION + 1)
    else:
        recorded = json.loads(manifest.read_text(encoding="utf-8"))
        manifest.write_text(json.dumps({**recorded, "version": MANIFEST_VERSION + 1}), "utf-8")
    (origin / "SKILL.md").write_text(SKILL + f"\nEdited for the {what}.\n", encoding="utf-8")
    before, runtime = copy(), {p: p.read_bytes() for p in (index, manifest)}
    refused = build()
    assert (refused.returncode, refused.stdout) == (1, "")
    code = "E002" if what == "index" else "E999"
    assert refused.stderr.startswith(f"error[{code}]: "), refused.stderr
    assert "written by a newer skillc" in refused.stderr
    assert copy() == before
    assert {p: p.read_bytes() for p in runtime} == runtime
    assert build("--force").returncode == 0
    assert b"Edited for the " + what.encode() in (store / "SKILL.md").read_bytes()
