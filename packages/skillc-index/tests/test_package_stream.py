"""``skc package`` (audit s38): a skill's files are read, archived and copied in pieces of
:data:`~skillc_index.package.archive.CHUNK` bytes, never whole (196 MB of files took 227 MB
of memory as a plugin, 483 MB as a discovery index's zip); the package is the same bytes as
before, and a file that changed since it was read leaves no package. On real folders."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout
from skillc_index.command_errors import CannotCreate
from skillc_index.package import make
from skillc_index.package.archive import CHUNK
from skillc_index.package.make import package_skills

#: Files of more than one piece each (and one of several pieces and a bit).
BIG = {
    "data/random.bin": os.urandom(CHUNK + 12345),
    "data/text.txt": b"a line that compresses well\n" * (CHUNK // 10),
    "scripts/run.sh": b"#!/bin/sh\necho hi\n",
}


@pytest.fixture
def big(project: Path, write_skill: Callable[..., Path]) -> Path:
    folder = write_skill(project / "skills" / "big", files=BIG)
    (folder / "scripts" / "run.sh").chmod(0o755)
    return folder


def former_zip(folder: Path, top: str) -> bytes:
    """The archive the former ``zip_bytes`` made of ``folder``'s files (each held whole,
    ``writestr``), under ``top`` (``big/``, or ``""``)."""
    buffer = io.BytesIO()
    rels = sorted(["SKILL.md", *BIG], key=lambda rel: (top + rel).encode())
    with zipfile.ZipFile(buffer, "w") as archive:
        for rel in rels:
            info = zipfile.ZipInfo(top + rel, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            mode = 0o755 if rel.endswith(".sh") else 0o644
            info.external_attr = (0o100000 | mode) << 16
            archive.writestr(info, (folder / rel).read_bytes(), compresslevel=9)
    return buffer.getvalue()


@pytest.mark.parametrize("fmt", ["upload", "well-known", "plugin"])
def test_files_larger_than_a_piece_are_read_in_pieces_into_the_same_bytes(
    layout: Layout, big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """Each of the skill's files (but SKILL.md, whose frontmatter is read) was read whole
    into memory, its archive too: every read is of at most a piece now, and the package is
    byte for byte what it was (the zip ``writestr`` made of the files held whole)."""
    from skillc_index import files

    reads: list[tuple[str, int]] = []
    opened = files.open_in_root

    class Spied(io.BufferedReader):
        rel = ""

        def read(self, size: int | None = -1) -> bytes:
            reads.append((self.rel, -1 if size is None else size))
            return super().read(size)

    def spied(root: Path, rel: str, **kwargs: Any) -> Any:
        handle = opened(root, rel, **kwargs)
        if rel not in BIG:
            return handle
        spy = Spied(io.FileIO(os.dup(handle.fileno()), "rb"))
        spy.rel = rel
        handle.close()
        return spy

    monkeypatch.setattr(files, "open_in_root", spied)
    out = tmp_path / "out"
    package_skills([str(big)], layout, fmt=fmt, output=out)
    assert {rel for rel, _size in reads} == set(BIG)
    assert all(0 < size <= CHUNK for _rel, size in reads), reads
    if fmt == "plugin":
        folder = out / "big" / "skills" / "big"
        assert {rel: (folder / rel).read_bytes() for rel in BIG} == BIG
        assert (folder / "scripts" / "run.sh").stat().st_mode & 0o111
    elif fmt == "upload":
        assert (out / "big.zip").read_bytes() == former_zip(big, "big/")
    else:
        zipped = out / ".well-known" / "agent-skills" / "big.zip"
        index = json.loads((zipped.parent / "index.json").read_text())
        digest = "sha256:" + hashlib.sha256(zipped.read_bytes()).hexdigest()
        assert index["skills"][0]["digest"] == digest
        assert zipped.read_bytes() == former_zip(big, "")


@pytest.mark.parametrize("fmt", ["upload", "well-known", "plugin"])
@pytest.mark.parametrize("change", ["edited", "grown", "a symlink out"])
def test_a_file_changed_since_it_was_read_leaves_no_package(
    layout: Layout,
    big: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fmt: str,
    change: str,
) -> None:
    """A file is read twice now (hashed when the skill is read, copied when the package is
    written): one that changed in between (the same size, grown, or made a symlink out of
    the skill to a file of the same bytes) is E999 naming it, and nothing is written."""
    packed = make.pack_skill
    target = big / "data" / "random.bin"

    def then_changed(*args: Any) -> make.PackedSkill:
        skill = packed(*args)
        data = target.read_bytes()
        if change == "edited":
            target.write_bytes(bytes([data[0] ^ 1]) + data[1:])
        elif change == "grown":
            target.write_bytes(data + b"!")
        else:
            (tmp_path / "elsewhere").write_bytes(data)
            target.unlink()
            target.symlink_to(tmp_path / "elsewhere")
        return skill

    monkeypatch.setattr(make, "pack_skill", then_changed)
    out = tmp_path / "out"
    with pytest.raises(CannotCreate) as refused:
        package_skills([str(big)], layout, fmt=fmt, output=out)
    assert refused.value.reason == "data/random.bin changed since it was read: package it again"
    assert not out.exists()
    assert not [path for path in tmp_path.rglob(".*") if ".tmp." in path.name]


def test_a_small_archive_is_built_in_memory_taking_no_open_file(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each archive was built in a temporary file kept open until the package was written:
    120 skills as a discovery index under ``ulimit -n 64`` were E999. An archive of less
    than a piece is built in memory, as it was; a larger one alone takes a file."""
    import tempfile

    def no_more(*args: Any, **kwargs: Any) -> Any:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(tempfile, "TemporaryFile", no_more)
    given = [str(write_skill(project / f"s{n}", files={"more.md": "x\n"})) for n in range(3)]
    out = tmp_path / "out"
    package_skills(given, layout, fmt="well-known", output=out)
    assert len(list((out / ".well-known" / "agent-skills").glob("*.zip"))) == 3


def test_a_package_is_hashed_by_the_kits_one_hasher(
    layout: Layout, big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Archives and the files in them were hashed by a loop of their own with hashlib's
    SHA-256 (a copy of ``file_sha256``'s): they are hashed by ``digests.handle_sha256``, with
    ``sha256_hasher`` (the built-in module, no OpenSSL loaded), the digests the same."""
    from skillc_index import digests

    hashed: list[int] = []
    real = digests.sha256_hasher()

    class Counted:
        def __init__(self, data: bytes = b"") -> None:
            self.inner = real(data)
            hashed.append(len(data))

        def update(self, data: bytes) -> None:
            hashed.append(len(data))
            self.inner.update(data)

        def hexdigest(self) -> str:
            return str(self.inner.hexdigest())

    monkeypatch.setattr(digests, "_sha256", Counted)
    out = tmp_path / "out"
    package_skills([str(big)], layout, fmt="well-known", output=out)
    # each file hashed when read, then when copied into the zip; the zip when made
    assert sum(hashed) > 2 * sum(len(data) for data in BIG.values())
    zipped = out / ".well-known" / "agent-skills" / "big.zip"
    index = json.loads((zipped.parent / "index.json").read_text())
    digest = hashlib.sha256(zipped.read_bytes()).hexdigest()
    assert index["skills"][0]["digest"] == f"sha256:{digest}"


#: ``skc package`` of every skill under ``<project>/skills`` (argv: project, format, home),
#: each archive over a piece (of 64 bytes here), with 48 files open at most.
_MANY_ARCHIVES = """
import resource, sys
from pathlib import Path
from skillc_index import Layout
from skillc_index.package import archive
from skillc_index.package.make import package_skills

archive.CHUNK = 64
project, fmt = Path(sys.argv[1]), sys.argv[2]
layout = Layout.discover(project, {"SKILLC_HOME": sys.argv[3]})
skills = sorted(str(path) for path in (project / "skills").iterdir())
resource.setrlimit(resource.RLIMIT_NOFILE, (48, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
package_skills(skills, layout, fmt=fmt, output=project / "out")
"""


@pytest.mark.parametrize("fmt", ["upload", "well-known"])
def test_archives_over_a_piece_hold_no_file_open_till_written(
    project: Path, home: Path, write_skill: Callable[..., Path], tmp_path: Path, fmt: str
) -> None:
    """Each archive over a piece was a temporary file kept open until the whole package was
    written: 40 skills of a 1 MiB file each under ``ulimit -n 40`` were E999 ``Too many open
    files``. Each is a file of one temporary folder, closed once hashed and reopened when
    written; the folder is gone once the package is written."""
    pytest.importorskip("resource")
    for n in range(80):
        write_skill(project / "skills" / f"s{n}", files={"data.bin": os.urandom(1000)})
    spool = tmp_path / "tmp"
    spool.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", _MANY_ARCHIVES, str(project), fmt, str(home)],
        env={**os.environ, "TMPDIR": str(spool)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    zips = sorted((project / "out").rglob("*.zip"))
    assert len(zips) == 80
    with zipfile.ZipFile(zips[0]) as opened:
        assert opened.testzip() is None
    assert not list(spool.iterdir())


def test_the_spool_a_killed_run_left_is_removed_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``skc package`` killed (SIGKILL: no clean-up) left its ``skc-package-*`` folder of
    archives in ``$TMPDIR`` for good. The folder is named for its process, and the next
    run's removes those of processes gone; a running process's and other names stay."""
    import tempfile

    from skillc_index.package.archive import Spool

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    left = tmp_path / f".skc-package.{child.pid}-0a1b2c3d"
    running = tmp_path / f".skc-package.{os.getpid()}-0a1b2c3d"
    other = tmp_path / f".other.{child.pid}-0a1b2c3d"
    for folder in (left, running, other):
        folder.mkdir()
        (folder / "tmp1.zip").write_bytes(b"archive")
    with Spool() as spool:
        path, handle = spool.new_file()
        handle.close()
        assert Path(path).parent.parent == tmp_path
        assert not left.exists()
    assert sorted(tmp_path.iterdir()) == sorted([running, other])
