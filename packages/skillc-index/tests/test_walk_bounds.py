"""The walk for skills (``skillc_index.walk``) past build outputs and crowded folders: a cache
its tool tagged (``CACHEDIR.TAG``: cargo's ``target/``) is not entered, and of one folder at
most ``MAX_ENTRIES`` entries are read, the walk naming a folder holding more. Also the nested
``.claude/skills`` search of find and list (``inventory.nested.nested_folders``)."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import skillc_index.walk
from skillc_index.inventory.nested import nested_folders
from skillc_index.walk import CACHE_SIGNATURE, CACHE_TAG, find_skill_folders

Run = Callable[..., Any]
WriteSkill = Callable[..., Path]
TAG = CACHE_SIGNATURE + b"\n# This file is a cache directory tag created by cargo.\n"


def _deep_target(project: Path, write_skill: WriteSkill) -> Path:
    """A Rust ``target/`` as cargo leaves it: tagged, ten levels deep, a SKILL.md in it (a
    build script's copy of a skill)."""
    target = project / "target"
    deep = target / "debug" / "build" / "x-1" / "out" / "a" / "b" / "c" / "d" / "e"
    deep.mkdir(parents=True)
    write_skill(target / "debug" / "copied")
    (target / CACHE_TAG).write_bytes(TAG)
    return target


def test_a_tagged_cache_is_not_entered_and_a_folder_named_like_one_is(
    project: Path, write_skill: WriteSkill
) -> None:
    target = _deep_target(project, write_skill)
    write_skill(project / "skills" / "real")
    write_skill(project / "build" / "built-here")  # `build`, `dist`: maybe sources, walked
    write_skill(project / "dist" / "shipped")
    found = find_skill_folders(project)
    assert found == [project / "build" / "built-here", project / "dist" / "shipped",
                     project / "skills" / "real"]  # fmt: skip
    assert not found.cut_short  # the 10 levels of target/ were not walked
    # the folder given is walked even when tagged: the user named it
    assert find_skill_folders(target) == [target / "debug" / "copied"]


@pytest.mark.parametrize(
    "tag",
    [
        b"Signature: 8a477f597d28d172789f06886806bc5",  # one digit short
        b"signature: 8a477f597d28d172789f06886806bc55",  # the spec's bytes, exactly
        b"",
    ],
)
def test_a_tag_without_the_signature_is_no_cache(
    project: Path, write_skill: WriteSkill, tag: bytes
) -> None:
    write_skill(project / "out" / "kept")
    (project / "out" / CACHE_TAG).write_bytes(tag)
    assert find_skill_folders(project) == [project / "out" / "kept"]


def test_a_tag_that_is_a_link_or_a_fifo_is_no_cache_and_never_blocks(
    project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    real_tag = tmp_path / "elsewhere.tag"
    real_tag.write_bytes(TAG)
    write_skill(project / "linked" / "kept")
    (project / "linked" / CACHE_TAG).symlink_to(real_tag)
    write_skill(project / "piped" / "kept-too")
    os.mkfifo(project / "piped" / CACHE_TAG)  # read without O_NONBLOCK: the walk would hang
    assert find_skill_folders(project) == [
        project / "linked" / "kept",
        project / "piped" / "kept-too",
    ]


def test_build_and_lint_of_a_checkout_with_a_rust_target_say_nothing_of_depth(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """A cargo ``target/`` made every ``skc build .`` and ``skillc-lint .`` warn that the
    folder "holds folders more than 8 levels deep" (the installed command, in a process)."""
    _deep_target(project, write_skill)
    write_skill(project / "skills" / "real")
    assert cli("skillc-index", script=True)("init").returncode == 0
    built = cli("skillc-index", script=True)("build", ".")
    assert built.returncode == 0, built.stderr
    assert "levels deep" not in built.stderr
    assert "copied" not in built.stdout and "real" in built.stdout


def test_lint_of_a_checkout_with_a_rust_target_says_nothing_of_depth(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """``skillc-lint .`` walks by the same rule (where skillc-lint is installed: not in
    skillc-index's own environment)."""
    pytest.importorskip("skillc_lint")
    _deep_target(project, write_skill)
    write_skill(project / "skills" / "real")
    linted = cli("skillc-lint", script=True)(".")
    assert "levels deep" not in linted.stderr
    assert "copied" not in linted.stdout + linted.stderr


class _Counted:
    """``os.scandir`` counting the entries read of each folder."""

    def __init__(self, scandir: Callable[..., Any], counts: list[int]) -> None:
        self.scandir = scandir
        self.counts = counts

    def __call__(self, folder: Any) -> Any:
        listing = self.scandir(folder)
        counts = self.counts
        counts.append(0)

        class Counting:
            def __iter__(self) -> Iterator[os.DirEntry[str]]:
                for entry in listing:
                    counts[-1] += 1
                    yield entry

            def __enter__(self) -> Counting:
                return self

            def __exit__(self, *_exc: object) -> None:
                listing.close()

            def close(self) -> None:
                listing.close()

        return Counting()


def _crowd(folder: Path, files: int) -> None:
    folder.mkdir(parents=True)
    for number in range(files):
        (folder / f"f{number}.bin").touch()


def test_a_walk_reads_at_most_max_entries_of_a_folder_and_names_it(
    project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    monkeypatch.setattr(skillc_index.walk, "MAX_ENTRIES", 50)
    _crowd(project / "data" / "cache", 400)
    write_skill(project / "skills" / "one")
    counts: list[int] = []
    monkeypatch.setattr(os, "scandir", _Counted(os.scandir, counts))
    found = find_skill_folders(project)
    assert found == [project / "skills" / "one"]
    assert found.crowded == (project / "data" / "cache",)
    assert max(counts) == 51  # the bound, and one more to know there is more
    assert skillc_index.walk.crowded("data/cache", "skills past them are not built").text == (
        "data/cache holds more than 50 entries: not walked past them, "
        "skills past them are not built"
    )


def test_build_and_lint_warn_once_of_a_crowded_folder(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    monkeypatch.setattr(skillc_index.walk, "MAX_ENTRIES", 50)
    _crowd(project / "data" / "cache", 60)
    write_skill(project / "skills" / "one")
    assert cli("skillc_index")("init").returncode == 0
    built = cli("skillc_index")("build", ".")
    assert built.returncode == 0, built.stderr
    said = (
        "warning: data/cache holds more than 50 entries: not walked past them, skills past "
        "them are not built"
    )
    assert built.stderr.splitlines().count(said) == 1


def test_lint_warns_once_of_a_crowded_folder(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    """The same walk in ``skillc-lint`` (where it is installed: not in skillc-index's own
    environment)."""
    pytest.importorskip("skillc_lint")
    monkeypatch.setattr(skillc_index.walk, "MAX_ENTRIES", 50)
    _crowd(project / "data" / "cache", 60)
    write_skill(project / "skills" / "one")
    linted = cli("skillc_lint")(".")
    told = (
        "warning: data/cache holds more than 50 entries: not walked past them, skills past "
        "them are not linted"
    )
    assert linted.stderr.splitlines().count(told) == 1, linted.stderr


def test_the_nested_agent_folder_search_reads_a_bounded_part_of_each_folder(
    project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    """``find``, ``list`` and every name lookup look for ``<package>/.claude/skills``: each
    read every entry of a folder of a million files."""
    monkeypatch.setattr(skillc_index.walk, "MAX_ENTRIES", 50)
    (project / ".git").mkdir()
    _crowd(project / "data" / "cache", 400)
    write_skill(project / "packages" / "web" / ".claude" / "skills" / "web-skill")
    counts: list[int] = []
    monkeypatch.setattr(os, "scandir", _Counted(os.scandir, counts))
    roots = nested_folders(project)
    assert [root.path for root in roots] == [project / "packages" / "web" / ".claude" / "skills"]
    assert max(counts) == 51  # MAX_ENTRIES read, and one to know the folder holds more


def test_the_nested_agent_folder_search_does_not_enter_a_cache(
    project: Path, write_skill: WriteSkill
) -> None:
    (project / ".git").mkdir()
    write_skill(project / "target" / "pkg" / ".claude" / "skills" / "copied")
    write_skill(project / "untagged" / "pkg" / ".claude" / "skills" / "kept")
    assert [root.path for root in nested_folders(project)] == [
        project / "target" / "pkg" / ".claude" / "skills",
        project / "untagged" / "pkg" / ".claude" / "skills",
    ]
    (project / "target" / CACHE_TAG).write_bytes(TAG)
    assert [root.path for root in nested_folders(project)] == [
        project / "untagged" / "pkg" / ".claude" / "skills"
    ]


def test_a_big_cache_does_not_cut_the_nested_agent_folder_search_short(
    project: Path, cli: Callable[..., Run], write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cargo ``target/`` of 1,100 folders: its subfolders were queued, counted against the
    bound of 1,000 and the walk marked cut short, before the folder was found to be a tagged
    cache and skipped. ``skc list`` warned that only the first folders were searched, for
    folders never searched, and ``find`` said its answer partial. Now the cache is known
    first: nothing is cut, nothing said, the package past it still found."""
    from skillc_index.inventory import nested
    from skillc_index.inventory.nested import NESTED_FOLDERS, nested_notices

    # the walks cut short are this process's: the cut this test makes last is not told by
    # the commands of the tests that run after it in the same process
    monkeypatch.setattr(nested, "_NESTED_CUT", {})
    (project / ".git").mkdir()
    target = project / "target"
    for number in range(NESTED_FOLDERS + 100):
        (target / f"d{number}").mkdir(parents=True)
    (target / CACHE_TAG).write_bytes(TAG)
    write_skill(project / "web" / ".claude" / "skills" / "web-skill")
    roots = nested_folders(project)
    assert [root.path for root in roots] == [project / "web" / ".claude" / "skills"]
    assert not [notice for notice in nested_notices() if str(project) in notice.text]
    listed = cli("skillc-index")("list")
    assert listed.returncode == 0, listed.stderr
    assert "folders within" not in listed.stderr
    assert "web-skill" in listed.stdout
    (target / CACHE_TAG).unlink()  # the same tree untagged: cut short, and said
    nested_folders(project)
    assert [notice for notice in nested_notices() if str(project) in notice.text]


class _TagLast:
    """``os.scandir`` listing a folder's ``CACHEDIR.TAG`` after its other entries and its
    folders first: the system's order for a crowded cache whose tag lies past the bound."""

    def __init__(self, scandir: Callable[..., Any], folders_last: bool = False) -> None:
        self.scandir = scandir
        self.folders_last = folders_last  # a folder holding a skill past the bound

    def __call__(self, folder: Any) -> Any:
        with self.scandir(folder) as listing:
            entries = sorted(
                listing,
                key=lambda e: (
                    e.name == CACHE_TAG,
                    e.is_dir(follow_symlinks=False) == self.folders_last,
                ),
            )

        class Listed:
            def __iter__(self) -> Iterator[os.DirEntry[str]]:
                return iter(entries)

            def __enter__(self) -> Listed:
                return self

            def __exit__(self, *_exc: object) -> None:
                pass

            def close(self) -> None:
                pass

        return Listed()


def _crowded_cache(folder: Path, write_skill: WriteSkill) -> None:
    """A tagged cache of 60 files and a folder holding a skill's copy, read with the
    bound at 50 and its tag listed last: past the entries read."""
    _crowd(folder, 60)
    (folder / CACHE_TAG).write_bytes(TAG)
    write_skill(folder / "pkg" / ".claude" / "skills" / "copied")
    write_skill(folder / "copied")


def test_a_crowded_cache_whose_tag_lies_past_the_bound_is_not_entered(
    project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    """The walk looked for the tag only among the entries it read: a cache of more than
    ``MAX_ENTRIES`` entries listing its tag past them was entered (its skills' copies built,
    the folder named crowded)."""
    monkeypatch.setattr(skillc_index.walk, "MAX_ENTRIES", 50)
    _crowded_cache(project / "target", write_skill)
    write_skill(project / "skills" / "one")
    monkeypatch.setattr(os, "scandir", _TagLast(os.scandir))
    found = find_skill_folders(project)
    assert found == [project / "skills" / "one"]
    assert found.crowded == ()
    (project / "target" / CACHE_TAG).unlink()  # untagged: walked (as far as read), named
    found = find_skill_folders(project)
    assert found == [
        project / "skills" / "one",
        project / "target" / "copied",
        project / "target" / "pkg" / ".claude" / "skills" / "copied",
    ]
    assert found.crowded == (project / "target",)


def test_the_nested_search_sees_a_crowded_caches_tag_past_the_bound(
    project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    monkeypatch.setattr(skillc_index.walk, "MAX_ENTRIES", 50)
    (project / ".git").mkdir()
    _crowded_cache(project / "target", write_skill)
    write_skill(project / "web" / ".claude" / "skills" / "web-skill")
    monkeypatch.setattr(os, "scandir", _TagLast(os.scandir))
    assert [root.path for root in nested_folders(project)] == [
        project / "web" / ".claude" / "skills"
    ]
    (project / "target" / CACHE_TAG).unlink()  # untagged: searched
    assert [root.path for root in nested_folders(project)] == [
        project / "target" / "pkg" / ".claude" / "skills",
        project / "web" / ".claude" / "skills",
    ]


@pytest.mark.usefixtures("skc_on_path")
def test_a_walk_stopped_at_the_entry_bound_before_a_skill_is_said_not_e010(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    """A folder of more entries than the walk reads, its skill listed past them, was E010
    "missing SKILL.md" in build and lint: the walk stopped at the bound is said, naming the
    folder (the first, when several were cut)."""
    monkeypatch.setattr(skillc_index.walk, "MAX_ENTRIES", 50)
    lib = project / "lib"
    _crowd(lib, 60)
    write_skill(lib / "zz-skill")
    monkeypatch.setattr(os, "scandir", _TagLast(os.scandir, folders_last=True))
    found = find_skill_folders(lib)
    assert (found, found.crowded, found.stopped) == ([], (lib,), True)
    told = (
        "the walk for skills stopped at 50 entries of lib before it found one (SKILL.md may "
        "lie past them); name a folder nearer the skills"
    )
    built = cli("skillc_index")("build", "lib")
    assert (built.returncode, built.stderr) == (1, f"error[E100]: lib: invalid option: '{told}'\n")
    (lib / "zz-skill").rename(project / "zz-skill")  # lib/ a folder of files: none to find
    (project / "data" / "a").mkdir(parents=True)
    _crowd(project / "data" / "a" / "one", 60)
    _crowd(project / "data" / "b", 60)
    built = cli("skillc_index")("build", "data")
    assert built.returncode == 1
    assert "E010" not in built.stderr and "missing SKILL.md" not in built.stderr
    assert built.stderr == (
        "error[E100]: data: invalid option: 'the walk for skills of data stopped at 50 entries "
        "of data/b (and of 1 other folder) before it found one (SKILL.md may lie past them); "
        "name a folder nearer the skills'\n"
    )
    if importlib.util.find_spec("skillc_lint") is not None:  # where it is installed
        linted = cli("skillc_lint")("lib")
        assert (linted.returncode, linted.stderr) == (1, f"error[E100]: invalid option: '{told}'\n")


@pytest.mark.parametrize("command", ["build", "lint"])
@pytest.mark.usefixtures("skc_on_path")
def test_skc_over_a_folder_of_more_files_than_the_bound_says_so(
    cli: Callable[..., Run], project: Path, command: str
) -> None:
    """The installed scripts (``skillc-index build``, ``skillc-lint``), the real bound: a
    folder of 20,001 files and no skill among the entries read is not "missing SKILL.md"."""
    if command == "lint":
        pytest.importorskip("skillc_lint")
    lib = project / "lib"
    lib.mkdir()
    for number in range(skillc_index.walk.MAX_ENTRIES + 1):
        os.close(os.open(lib / f"f{number}", os.O_CREAT | os.O_WRONLY, 0o644))
    told = (
        "the walk for skills stopped at 20,000 entries of lib before it found one (SKILL.md may "
        "lie past them); name a folder nearer the skills"
    )
    script = ("skillc-index", "build") if command == "build" else ("skillc-lint",)
    done = cli(script[0], script=True)(*script[1:], "lib")
    which = "lib: " if command == "build" else ""  # a batch names its failed argument
    assert (done.returncode, done.stderr) == (1, f"error[E100]: {which}invalid option: '{told}'\n")


def test_the_files_read_of_a_crowded_skill_are_the_first_with_skill_md_among_them() -> None:
    """One bound for the index, lint and outline (``MAX_INDEXED_FILES``, at home in
    ``skill_files``): of a skill with more files, the first in path order are read, SKILL.md
    always one of them, in its place (upper-case ``Refs/`` sorts before it); with no more, all
    of them."""
    from skillc_index.index.cache import MAX_INDEXED_FILES
    from skillc_index.skill_files import first_files, past_file_bound

    bound = skillc_index.skill_files.MAX_INDEXED_FILES
    assert MAX_INDEXED_FILES == bound == 10_000
    refs = [f"Refs/f{number:05}.md" for number in range(bound + 5)]
    every = ["0.md", *refs, "SKILL.md", "zz.md"]
    first = first_files(every)
    assert first == ("0.md", *refs[: bound - 2], "SKILL.md")
    assert first_files(every[:-1][:bound]) == tuple(every[:bound])  # none past it: all
    assert first_files(refs) == tuple(refs[:bound])  # no SKILL.md: none added
    skill_md_first = ["SKILL.md", *refs]
    assert first_files(skill_md_first) == tuple(skill_md_first[:bound])
    # Only Markdown and text files count (the index's): every other file is kept, before,
    # among and after them; the ones past the bound are Markdown or text only.
    assets = [f"assets/a{number:05}.png" for number in range(bound + 5)]
    mixed = ["SKILL.md", *assets, "notes.txt", *refs[:3], "scripts/install.sh", "zz.md"]
    assert first_files(mixed) == tuple(mixed)
    many = ["SKILL.md", *assets, *refs, "scripts/install.sh"]
    assert first_files(many) == ("SKILL.md", *assets, *refs[: bound - 1], "scripts/install.sh")
    assert past_file_bound("skills/big", 10_007, "files", "linted").text == (
        "skills/big holds 10,007 files, more than 10,000: only the first 10,000 in path "
        "order are linted"
    )
