"""The index on a file system whose times have no fraction of a second (ext4 made with 128-byte
inodes, ext3, HFS+, many network shares: whole seconds; FAT: two): a file saved twice within
one second, in place and at the same size, keeps all its stats, so they prove it unchanged only
once that granularity has passed (DECISIONS "Gateway and index": show and search never serve
wrong lines). The 100 ms window of a nanosecond file system trusted the first save's stats
and the readers served its lines for ever.

Deterministic on any file system: :class:`CoarseDisk` gives the sources whole-second times
(what ``stat_files`` sees of them) under a clock the test moves (``time.time_ns``, and
``time.sleep`` moving it). The real file system of 1-second times is in skillc-gateway's
``test_show_coarse_times.py`` (a loop-mounted ext4, as root)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from skillc_index import find_headings
from skillc_index.index import cache, schema
from skillc_index.index.freshness import checked_index
from skillc_index.layout import ResolvedSkill

SECOND = 1_000_000_000
FRONT = "---\nname: coarse\ndescription: Coarse.\n---\n# T\n\n"
V1 = FRONT + "## Alpha\n\nalpha-ONE\n\n## Beta\n\nbeta-ONE\n"
V2 = FRONT + "## Beta\n\nbeta-TWO\n\n## Alpha\n\nalpha-TWO\n"  # the same size
ALPHA_LINE = {V1: 7, V2: 11}  # where each version has its '## Alpha'


class CoarseDisk:
    """Source files whose times are whole seconds of a clock the test moves (a microsecond a
    reading, and as long as ``time.sleep`` is asked to wait): a file has the second of
    :attr:`now` when it was last :meth:`save`d (in place: its inode and size stay)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, start_ns: int) -> None:
        self.now = start_ns
        self.stamps: dict[str, int] = {}
        self.ctimes: dict[str, int] = {}
        """A change time other than the modification time (one of nanoseconds: ``tar x``)."""
        self.slept: list[float] = []
        real = schema.file_stat

        def coarse(rel: str, st: object) -> schema.FileStat:
            stat = real(rel, st)  # type: ignore[arg-type]
            stamp = self.stamps.get(rel)
            if stamp is None:
                return stat
            return stat._replace(mtime_ns=stamp, ctime_ns=self.ctimes.get(rel, stamp))

        monkeypatch.setattr(schema, "file_stat", coarse)
        monkeypatch.setattr(time, "time_ns", self.time_ns)
        monkeypatch.setattr(time, "sleep", self.sleep)

    def time_ns(self) -> int:
        self.now += 1_000  # reading the clock takes a microsecond
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += round(seconds * 1e9)

    def save(self, path: Path, text: str) -> None:
        with path.open("r+" if path.exists() else "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.truncate()
        self.stamps[path.name] = self.now - self.now % SECOND
        self.ctimes.pop(path.name, None)


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> CoarseDisk:
    start = time.time_ns() // SECOND * SECOND
    return CoarseDisk(monkeypatch, start + 300_000_000)  # 0.3 s into a second


@pytest.fixture
def coarse_skill(tmp_path: Path) -> ResolvedSkill:
    (tmp_path / "coarse").mkdir()
    return ResolvedSkill("coarse", tmp_path / "coarse", "project", tmp_path / "runtime", True)


def alpha_line(skill: ResolvedSkill) -> int:
    """The line of '## Alpha' in the index a reader gets."""
    (heading,) = find_headings(cache.ensure_index(skill, "porter"), "alpha")
    return heading.start_line


def test_a_second_same_size_save_within_the_second_is_seen(
    disk: CoarseDisk, coarse_skill: ResolvedSkill
) -> None:
    """Saved, indexed (by a reader's attempt that does not wait: ``settled`` False) and saved
    again 0.2 s later: the second save keeps every stat of the first. Two seconds on, the
    readers read the second version (the stats taken 0.3 s into the second proved nothing)."""
    skill_md = coarse_skill.source / "SKILL.md"
    disk.save(skill_md, V1)
    handle = cache.ensure_index(coarse_skill, "porter", settled=False)
    assert find_headings(handle, "alpha")[0].start_line == ALPHA_LINE[V1]
    recorded = handle.files["SKILL.md"]
    disk.now += 200_000_000
    disk.save(skill_md, V2)
    assert schema.stat_files(coarse_skill.source, ["SKILL.md"])["SKILL.md"] == recorded
    disk.now += 2 * SECOND
    assert alpha_line(coarse_skill) == ALPHA_LINE[V2]
    # and for as long as the stats stay the same (the index of V2 is now the current one)
    disk.now += 60 * SECOND
    assert alpha_line(coarse_skill) == ALPHA_LINE[V2]


@pytest.mark.parametrize("whole", [True, False])
def test_the_build_waits_out_the_granularity_of_the_times_it_records(
    disk: CoarseDisk, coarse_skill: ResolvedSkill, whole: bool
) -> None:
    """A build right after a save waits until the save's times are older than their file
    system's granularity before it records the stats (then readers check stats alone): two
    seconds for a time of whole seconds, so a save after the build has another time. Near
    miss: a time with a fraction (a nanosecond file system) is waited for 100 ms at most,
    as before."""
    skill_md = coarse_skill.source / "SKILL.md"
    disk.save(skill_md, V1)
    if not whole:
        disk.stamps["SKILL.md"] += 250_000_000  # 50 ms before the clock
    saved_at = disk.stamps["SKILL.md"]
    handle = cache.ensure_index(coarse_skill, "porter")
    window = (2 * SECOND if whole else 0) + 100_000_000
    assert max(disk.slept, default=0) <= window / 1e9
    assert handle.meta.stats_at_ns is not None
    assert handle.meta.stats_at_ns > saved_at + window  # recorded once the window passed
    assert handle.verified == handle.files  # the readers' check: stats alone
    assert window == (schema.COARSE_WINDOW_NS if whole else schema.RACY_WINDOW_NS)
    state, again = checked_index(coarse_skill, "porter")
    assert again is not None and again.verified == again.files, state
    disk.save(skill_md, V2)  # in another second than the first save
    assert alpha_line(coarse_skill) == ALPHA_LINE[V2]


def test_whole_seconds_widen_the_window_each_time_apart() -> None:
    """A file's times tell its file system's granularity: a modification time of whole
    seconds with a change time of whole seconds (ext3, HFS+) or of hundredths (FAT, whose
    change time is the creation's) is racy for two seconds, even when the change time is
    older; a time of whole seconds long past costs nothing. Near miss: a whole-second
    modification time beside a change time of nanoseconds (``tar x``, ``touch -d``, ``cp -p``
    on a nanosecond file system) gets the ordinary 100 ms."""
    at = 1_800_000_000 * SECOND + 500_000_000
    whole = at - at % SECOND
    fine = whole + 123_456_789
    hundredths = whole - SECOND + 120_000_000  # FAT's creation time
    stat = schema.FileStat("SKILL.md", 1, whole, 1, hundredths)
    assert schema.racy_window_ns(whole, hundredths) == schema.COARSE_WINDOW_NS
    assert schema.racy_window_ns(whole, whole - SECOND) == schema.COARSE_WINDOW_NS
    assert schema.racy_window_ns(fine, fine) == schema.RACY_WINDOW_NS
    assert schema.racy_window_ns(whole, fine) == schema.RACY_WINDOW_NS
    assert not stat.settled_before(at)
    assert not stat.settled_before(whole + schema.COARSE_WINDOW_NS)
    assert stat.settled_before(whole + schema.COARSE_WINDOW_NS + 1)
    assert not stat._replace(ctime_ns=whole).settled_before(at)  # ext3: both whole seconds
    assert stat._replace(mtime_ns=fine - SECOND, ctime_ns=fine - SECOND).settled_before(fine)
    long_past = stat._replace(mtime_ns=whole - 3 * SECOND, ctime_ns=hundredths - 2 * SECOND)
    assert long_past.settled_before(at)
    extracted = stat._replace(ctime_ns=whole + 123_456_789 - 300_000_000)  # tar x, 0.3 s ago
    assert extracted.settled_before(at)
    assert not extracted.settled_before(extracted.ctime_ns + schema.RACY_WINDOW_NS)


def test_a_whole_second_time_on_a_fine_file_system_is_not_waited_for(
    disk: CoarseDisk, coarse_skill: ResolvedSkill
) -> None:
    """``tar x`` of a file saved a moment ago gives it a modification time of whole seconds
    on a nanosecond file system, where its change time keeps the kernel's fraction: the build
    waits 100 ms at most, not the 2.1 s of a file system of whole seconds (the first ``show``
    took 1.4 s longer), and the readers still see the file extracted again over it with the
    same size and modification time (its change time moved)."""
    skill_md = coarse_skill.source / "SKILL.md"
    disk.save(skill_md, V1)
    disk.ctimes["SKILL.md"] = disk.now - 50_000_123  # extracted 50 ms ago, in nanoseconds
    handle = cache.ensure_index(coarse_skill, "porter")
    assert max(disk.slept, default=0) <= schema.RACY_WINDOW_NS / 1e9
    assert handle.verified == handle.files  # the readers' check: stats alone
    assert find_headings(handle, "alpha")[0].start_line == ALPHA_LINE[V1]
    mtime = disk.stamps["SKILL.md"]
    disk.save(skill_md, V2)  # extracted again: the same size and modification time
    disk.stamps["SKILL.md"] = mtime
    disk.ctimes["SKILL.md"] = disk.now - 1_234  # but another change time
    assert alpha_line(coarse_skill) == ALPHA_LINE[V2]
    disk.now += 60 * SECOND
    assert alpha_line(coarse_skill) == ALPHA_LINE[V2]


def test_an_index_file_of_whole_seconds_is_kept_in_memory_once_two_seconds_old(
    disk: CoarseDisk, coarse_skill: ResolvedSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a process read of an index file is kept while the file keeps its identity (device,
    inode, size, time): an index written again within its second, at the same size, into a
    freed inode, would keep it on a file system of whole seconds. So such a file is kept only
    once two seconds old; one with a fraction of a second, after 100 ms as before, and so is
    one of whole seconds with a change time of nanoseconds (a nanosecond file system)."""
    from skillc_index.index import freshness

    disk.save(coarse_skill.source / "SKILL.md", V1)
    disk.now += 3 * SECOND
    path = cache.ensure_index(coarse_skill, "porter").path
    whole = disk.now - disk.now % SECOND
    ctime: dict[str, int] = {}
    real_stat = Path.stat

    def coarse_stat(self: Path, **kwargs: bool) -> object:
        st = real_stat(self, **kwargs)
        return _Restamped(st, ctime["ns"]) if self == path and ctime else st

    monkeypatch.setattr(Path, "stat", coarse_stat)
    cases = ((whole, whole, 2 * SECOND), (whole + 5_000, whole + 5_000, 0), (whole, None, 0))
    for written, changed, kept_after in cases:
        freshness._snapshots.pop(path, None)
        os.utime(path, ns=(written, written))
        ctime.clear()
        if changed is not None:
            ctime["ns"] = changed
        disk.now = whole + 300_000_000
        assert checked_index(coarse_skill, "porter")[1] is not None
        assert (path in freshness._snapshots) is not bool(kept_after)
        disk.now += kept_after
        assert checked_index(coarse_skill, "porter")[1] is not None
        assert path in freshness._snapshots


class _Restamped:
    """An ``os.stat_result`` with another change time (a file system of whole seconds)."""

    def __init__(self, st: os.stat_result, ctime_ns: int) -> None:
        self._st = st
        self.st_ctime_ns = ctime_ns

    def __getattr__(self, name: str) -> object:
        return getattr(self._st, name)
