"""``show`` and ``search`` of a skill on a real file system of 1-second times (ext4 made with
128-byte inodes, loop-mounted; like HFS+, FAT's 2 s, many network shares): a same-size save
in place within the second of the save before keeps every stat of the file, and the index
built between the two trusted them, so the readers served the first save's lines for ever
(DECISIONS "Gateway and index": never wrong lines). Needs root (``mount``) and a loop device:
skipped otherwise. skillc-index's ``test_index_coarse_times.py`` checks the same on any file
system, with whole-second times and the clock injected."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]

FRONT = "---\nname: sk\ndescription: Coarse.\n---\n# T\n\n"
V1 = FRONT + "## Alpha\n\nalpha-ONE\n\n## Beta\n\nbeta-ONE\n"
V2 = FRONT + "## Beta\n\nbeta-TWO\n\n## Alpha\n\nalpha-TWO\n"  # the same size


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


@pytest.fixture
def coarse_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder on an ext4 of 128-byte inodes (whole-second times), loop-mounted for the test."""
    tools = [shutil.which(name) for name in ("mkfs.ext4", "mount", "umount")]
    if os.geteuid() != 0 or None in tools:
        pytest.skip("mounting a file system of 1-second times needs root, mkfs.ext4 and mount")
    image, folder = tmp_path / "coarse.img", tmp_path / "mnt"
    with image.open("wb") as handle:
        handle.truncate(16 << 20)
    folder.mkdir()
    made = _run("mkfs.ext4", "-q", "-I", "128", "-F", str(image))
    if made.returncode != 0:
        pytest.skip(f"mkfs.ext4 -I 128 failed: {made.stderr.strip()}")
    mounted = _run("mount", "-o", "loop", str(image), str(folder))
    if mounted.returncode != 0:
        pytest.skip(f"cannot loop-mount a file system here: {mounted.stderr.strip()}")
    try:
        probe = folder / "probe"
        probe.write_text("x")
        if probe.stat().st_mtime_ns % 1_000_000_000:
            pytest.skip("this ext4 keeps fractions of a second even with 128-byte inodes")
        probe.unlink()
        yield folder
    finally:
        _run("umount", str(folder))


def test_a_same_size_save_within_the_second_is_served_not_the_save_before(
    coarse_folder: Path, cli: Callable[..., Run]
) -> None:
    gateway = cli("skillc-gateway", script=True)  # this package's own script, as users run it
    skill = coarse_folder / "sk"
    skill.mkdir()
    skill_md = skill / "SKILL.md"
    while time.time() % 1 > 0.05:  # at the start of a second: both saves fit in it
        time.sleep(0.005)
    skill_md.write_text(V1, encoding="utf-8")
    first = gateway("show", str(skill), "--section", "Alpha")
    assert first.returncode == 0 and "alpha-ONE" in first.stdout, first.stderr
    with skill_md.open("r+", encoding="utf-8") as handle:  # in place, the same size
        handle.write(V2)
    saved = skill_md.stat().st_mtime_ns
    while time.time_ns() < saved + 2_200_000_000:  # past FAT's 2 s as well
        time.sleep(0.05)
    shown = gateway("show", str(skill), "--section", "Alpha")
    assert (shown.returncode, shown.stdout) == (0, "## Alpha\n\nalpha-TWO\n"), shown.stderr
    found = gateway("search", str(skill), "alpha-TWO")
    assert found.returncode == 0 and "SKILL.md#Alpha" in found.stdout, found.stderr
    assert "SKILL.md#" not in gateway("search", str(skill), "alpha-ONE").stdout  # no match


def test_a_file_extracted_a_moment_ago_is_shown_without_the_wait_of_whole_seconds(
    tmp_path: Path, cli: Callable[..., Run]
) -> None:
    """``tar x`` (``cp -p``, ``touch -d``) of a file saved a moment ago, on a nanosecond file
    system: its modification time is a whole second, its change time keeps the kernel's
    fraction, so the file system is a fine one and the first ``show`` does not wait out the
    2.1 s of a file system of whole seconds (it took 1.4 s longer). The file extracted again
    over it, of the same size and modification time, is still what is shown."""
    from skillc_index.index.schema import COARSE_WINDOW_NS

    gateway = cli("skillc-gateway", script=True)
    skill_md = tmp_path / "sk" / "SKILL.md"
    skill_md.parent.mkdir()

    def extract(text: str) -> int:  # what tar x does: write, then set the archive's time
        skill_md.write_text(text, encoding="utf-8")
        os.utime(skill_md, ns=(mtime, mtime))
        return skill_md.stat().st_ctime_ns

    while time.time() % 1 > 0.05:  # at the start of a second: the wait would be 2 s
        time.sleep(0.005)
    mtime = time.time_ns() // 1_000_000_000 * 1_000_000_000
    if extract(V1) % 10_000_000 == 0:
        pytest.skip("this file system keeps no fraction of a second in its change times")
    shown = gateway("show", str(skill_md.parent), "--section", "Alpha")
    assert (shown.returncode, shown.stdout) == (0, "## Alpha\n\nalpha-ONE\n\n"), shown.stderr
    assert time.time_ns() < mtime + COARSE_WINDOW_NS  # no wait of whole seconds
    extract(V2)  # the same size and modification time, another change time
    shown = gateway("show", str(skill_md.parent), "--section", "Alpha")
    assert (shown.returncode, shown.stdout) == (0, "## Alpha\n\nalpha-TWO\n"), shown.stderr
