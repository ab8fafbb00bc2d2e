"""Tests for the skill file walk, the source hash and safe_join (skillc_index.files)."""

from __future__ import annotations

import errno
import hashlib
import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from skillc_index.diagnostics import (
    HiddenPath,
    NotARegularFile,
    PathEscapesRoot,
    SkillcError,
    SkillDirectoryNotFound,
    SkillFileNotFound,
)
from skillc_index.digests import source_hash
from skillc_index.files import (
    is_hidden,
    open_in_root,
    read_in_root,
    read_text_in_root,
    safe_join,
    within,
)
from skillc_index.skill_files import SkillFiles, skipped_notices, walk_skill


def make(root: Path, files: Mapping[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode()
        path.write_bytes(content)
    return root


@pytest.fixture
def skill(tmp_path: Path, write_skill: Callable[..., Path]) -> Path:
    """A skill of three files: SKILL.md (frontmatter only), a reference and a script."""
    return write_skill(
        tmp_path / "skill",
        description="d",
        heading=False,
        files={"references/guide.md": "# Guide\n", "scripts/run.py": "print('hi')\n"},
    )


# -- walk_skill ------------------------------------------------------------------------------


def test_walk_lists_files_sorted(skill: Path) -> None:
    assert walk_skill(skill) == SkillFiles(
        ("SKILL.md", "references/guide.md", "scripts/run.py"), ()
    )


def test_walk_skips_hidden_entries_at_any_depth(skill: Path) -> None:
    make(
        skill,
        {
            ".git/config": "x",
            ".skillc-meta/manifest.json": "{}",
            ".github/workflows/ci.yml": "x",
            ".hidden.md": "x",
            "references/.DS_Store": "x",
            "references/.cache/deep.md": "x",
            "references/visible.md": "x",
        },
    )
    assert walk_skill(skill).files == (
        "SKILL.md",
        "references/guide.md",
        "references/visible.md",
        "scripts/run.py",
    )


def test_walk_orders_bytewise(tmp_path: Path) -> None:
    make(tmp_path, {"a.md": "", "B.md": "", "a/b.md": "", "a-b.md": "", "Z/z.md": "", "é.md": ""})
    # Bytes of the whole path decide: "B" < "Z" < "a", and "-" (0x2d) < "." (0x2e) < "/" (0x2f).
    assert walk_skill(tmp_path).files == ("B.md", "Z/z.md", "a-b.md", "a.md", "a/b.md", "é.md")


def test_walk_empty_and_missing_root(tmp_path: Path) -> None:
    assert walk_skill(tmp_path) == SkillFiles((), ())
    assert walk_skill(tmp_path / "missing") == SkillFiles((), ())


def test_walk_ignores_special_files(tmp_path: Path) -> None:
    make(tmp_path, {"a.md": ""})
    os.mkfifo(tmp_path / "pipe")
    assert walk_skill(tmp_path).files == ("a.md",)


#: Runs a command as root without its override of file permissions (a user's view).
UNPRIVILEGED = (
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search,-fowner",
    "--bounding-set=-dac_override,-dac_read_search,-fowner",
)


def as_user(probe: Sequence[str], code: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """``python -c *code`` as a user would run it (root without its override of file
    permissions, under setpriv); the test is skipped when ``python -c *probe``, which must be
    refused, is not (permissions do not apply here)."""
    prefix = UNPRIVILEGED if os.geteuid() == 0 and shutil.which("setpriv") else ()
    if subprocess.run([*prefix, sys.executable, "-c", *probe], capture_output=True).returncode == 0:
        pytest.skip("permissions do not apply here")
    run = [*prefix, sys.executable, "-c", *code]
    return subprocess.run(run, capture_output=True, text=True, timeout=120, check=False)


def test_walk_skips_a_folder_that_can_be_listed_but_not_searched(skill: Path) -> None:
    """A folder of mode 600: its names can be listed, but none of its files opened or
    stat'ed. Its files were listed, and ``skc build``, ``lint`` and ``package`` stopped at
    ``error[E999]: PermissionError``; now it is skipped as a folder of mode 000 is, and both
    are in ``skipped`` (what those commands warn of). Run as a user would (root without its
    override of permissions, under setpriv)."""
    make(skill, {"references/locked/f.md": "# F\n", "references/locked/sub/g.md": "# G\n"})
    locked = skill / "references" / "locked"
    (skill / "closed").mkdir()
    code = (
        "import sys; from pathlib import Path; from skillc_index.skill_files import walk_skill; "
        "from skillc_index.digests import source_hash; root = Path(sys.argv[1]); "
        "found = walk_skill(root); "
        "print(found.files, found.skipped); source_hash(root)"
    )
    probe = "import os, sys; os.stat(sys.argv[1])"
    locked.chmod(0o600)
    (skill / "closed").chmod(0o000)
    try:
        done = as_user([probe, str(locked / "f.md")], [code, str(skill)])
    finally:
        locked.chmod(0o755)
        (skill / "closed").chmod(0o755)
    assert done.returncode == 0, done.stderr
    files = ("SKILL.md", "references/guide.md", "scripts/run.py")
    assert done.stdout == f"{files!r} {('closed', 'references/locked')!r}\n"
    assert [n.text for n in skipped_notices(skill, ["references/locked"], "built")] == [
        f"{locked}: folder cannot be read (Permission denied): its files are not built"
    ]


def test_a_file_that_cannot_be_read_is_unreadable_file_naming_it(skill: Path) -> None:
    """A file of the skill its user may not read (mode 000): the source hash and the reads
    inside the skill raised a bare ``PermissionError``, which ``skc build``, ``lint`` and
    ``package`` printed as ``error[E999]: PermissionError: [Errno 13] ...``; each is now
    :class:`UnreadableFile` naming the file as the skill has it. Run as a user would (root
    without its override of permissions, under setpriv)."""
    make(skill, {"references/secret.md": "# S\n"})
    secret = skill / "references" / "secret.md"
    code = (
        "import sys; from pathlib import Path; from skillc_index.diagnostics import "
        "UnreadableFile; from skillc_index.files import open_in_root, read_in_root; "
        "from skillc_index.digests import source_hash\n"
        "root, rel = Path(sys.argv[1]), 'references/secret.md'\n"
        "for read in (lambda: source_hash(root), lambda: open_in_root(root, rel), "
        "lambda: read_in_root(root, rel, 10)):\n"
        "    try: read()\n"
        "    except UnreadableFile as exc: print(exc.path, exc.reason)\n"
        "    except Exception as exc: print(type(exc).__name__)"
    )
    secret.chmod(0o000)
    try:
        done = as_user(["import sys; open(sys.argv[1])", str(secret)], [code, str(skill)])
    finally:
        secret.chmod(0o644)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "references/secret.md Permission denied\n" * 3


def test_escaping_symlinks_are_reported_not_followed(tmp_path: Path) -> None:
    outside = make(tmp_path / "outside", {"secret.md": "s", "dir/inner.md": "i"})
    root = make(tmp_path / "skill", {"SKILL.md": "x"})
    (root / "leak.md").symlink_to(outside / "secret.md")
    (root / "leakdir").symlink_to(outside / "dir", target_is_directory=True)
    (root / "sub").mkdir()
    (root / "sub" / "up").symlink_to(Path("..") / ".." / "outside")
    (root / "dangling.md").symlink_to(outside / "missing.md")
    (root / ".hidden-leak").symlink_to(outside / "secret.md")
    result = walk_skill(root)
    assert result.files == ("SKILL.md",)
    assert result.escapes == ("dangling.md", "leak.md", "leakdir", "sub/up")


def test_a_link_out_in_a_folder_no_walk_enters_or_git_ignores_is_no_escape(
    tmp_path: Path,
) -> None:
    """``venv/bin/python -> /usr/bin/python3``, ``node_modules/lib -> ../../lib`` and
    ``local/host`` under a git-ignored ``local/`` made build, package and lint refuse the
    skill (E012), though git and the package leave them out: the walk skips the folders no
    walk enters (their files too) and reports no link the skill's ``.gitignore`` excludes.
    One git would commit is still an escape."""
    outside = make(tmp_path / "outside", {"secret.md": "s"})
    root = make(
        tmp_path / "skill",
        {"SKILL.md": "x", "venv/pyvenv.cfg": "v", "node_modules/pkg/index.js": "j"},
    )
    (root / "venv" / "bin").mkdir()
    (root / "venv" / "bin" / "python").symlink_to(outside / "secret.md")
    (root / "node_modules" / "lib").symlink_to(outside, target_is_directory=True)
    (root / "scripts" / "__pycache__").mkdir(parents=True)
    (root / "scripts" / "__pycache__" / "run.pyc").write_bytes(b"\0")
    (root / "local").mkdir()
    (root / "local" / "host").symlink_to(outside / "secret.md")
    (root / "leak.md").symlink_to(outside / "secret.md")
    (root / ".gitignore").write_text("local/\n")
    result = walk_skill(root)
    assert result.files == ("SKILL.md",)
    assert result.escapes == ("leak.md",)
    (root / ".gitignore").write_text("local/\nleak.md\n")
    assert walk_skill(root).escapes == ()


def test_what_the_skills_gitignore_excludes_is_no_file_of_it(tmp_path: Path) -> None:
    """``skc package`` left out what a skill's ``.gitignore`` files exclude, yet ``sources``
    listed it, ``open`` served it, ``search`` indexed it and lint called a link to it
    bundled: the walk every reader shares leaves it out of ``files`` (``ignored`` lists it;
    ``every`` is the folder as an import copies it), and of ``dirs``. SKILL.md is never
    excluded; a nested ``.gitignore`` applies below its folder; a link to an excluded file
    is excluded too."""
    root = make(
        tmp_path / "skill",
        {
            "SKILL.md": "x",
            "secrets.txt": "k",
            "out/build.log": "l",
            "docs/a.md": "a",
            "docs/draft.md": "d",
            "keep.md": "k",
        },
    )
    (root / ".gitignore").write_text("out/\nsecrets.txt\nSKILL.md\n")
    (root / "docs" / ".gitignore").write_text("draft.md\n")
    (root / "creds.txt").symlink_to("secrets.txt")
    dirs: list[str] = []
    found = walk_skill(root, dirs=dirs)
    assert found.files == ("SKILL.md", "docs/a.md", "keep.md")
    assert found.ignored == ("creds.txt", "docs/draft.md", "out/build.log", "secrets.txt")
    assert found.every == tuple(sorted((*found.files, *found.ignored)))
    assert dirs == ["docs"]
    assert source_hash(root) == source_hash(root, found.files)
    # over their bounds, what they exclude is unknown: nothing is left out
    (root / ".gitignore").write_text("x\n" * 1001)
    unignored = walk_skill(root)
    assert unignored.files == found.every
    assert unignored.every is unignored.files  # nothing ignored: not sorted again


def test_open_in_root_serves_no_file_the_gitignore_excludes(tmp_path: Path) -> None:
    """A reader serving a skill's files (``hidden=False``: ``open``, MCP resources) refuses
    what the skill's ``.gitignore`` files exclude as it refuses a hidden file (E021), by the
    path given or where a symlink leads; the build's own reads are not refused."""
    root = make(tmp_path / "skill", {"SKILL.md": "x", "secrets.txt": "k", "out/b.log": "l"})
    (root / ".gitignore").write_text("out/\nsecrets.txt\nSKILL.md\n")
    (root / "creds.txt").symlink_to("secrets.txt")
    for rel in ("secrets.txt", "out/b.log", "creds.txt", "./out/../secrets.txt"):
        with pytest.raises(SkillFileNotFound, match=r"excluded by the skill's \.gitignore"):
            open_in_root(root, rel, hidden=False)
        with open_in_root(root, rel) as handle:
            assert handle.read() in (b"k", b"l")
    with open_in_root(root, "SKILL.md", hidden=False) as handle:
        assert handle.read() == b"x"


def test_inner_symlinks_are_followed(tmp_path: Path) -> None:
    """A symlink to a file inside counts as that file; one to a folder walked by its own path
    (``mirror -> docs``) is a second path to it, skipped as a cycle is."""
    root = make(tmp_path / "skill", {"SKILL.md": "x", "docs/a.md": "a"})
    (root / "alias.md").symlink_to("docs/a.md")
    (root / "mirror").symlink_to("docs", target_is_directory=True)
    (root / "broken.md").symlink_to("nowhere.md")
    result = walk_skill(root)
    assert result.files == ("SKILL.md", "alias.md", "docs/a.md")
    assert result.escapes == ()
    assert result.second_links == ("mirror",)  # what lint says a link through it reaches


def test_second_links_to_a_folder_are_listed(tmp_path: Path) -> None:
    """Each symlink the walk skips because its folder was walked by another path is in
    ``second_links`` (a link to the root, one inside a linked folder), the one walked is not:
    lint tells a link through one from a link to a file of the skill, though both are on
    disk. A link to a folder no walk enters (``lib1 -> node_modules/pkg``) is no part of the
    skill, nor a second link: it is not followed."""
    root = make(tmp_path / "skill", {"SKILL.md": "x", "docs/a.md": "a"})
    make(root, {"node_modules/pkg/index.md": "i"})  # no walk enters it by its own path
    (root / "self").symlink_to(".", target_is_directory=True)
    (root / "lib2").symlink_to("node_modules/pkg", target_is_directory=True)
    (root / "lib1").symlink_to("node_modules/pkg", target_is_directory=True)
    (root / "docs" / "up").symlink_to("..", target_is_directory=True)
    result = walk_skill(root)
    assert result.files == ("SKILL.md", "docs/a.md")
    assert result.second_links == ("docs/up", "self")
    assert walk_skill(tmp_path / "skill" / "docs").second_links == ()


def test_folder_symlinks_cannot_multiply_the_walk(tmp_path: Path) -> None:
    """Folder symlinks inside a skill, none leading out and no cycle, multiplied the walk:
    ``lvl<i>/l0..l9 -> ../lvl<i+1>`` made 60 symlinks walk as 1,000,000 files (68 s, 1 GB)
    for ``sources``, build, package, lint and MCP alike (audit bigskill, item 1). Each real
    folder is walked once: by its own path, else by the bytewise first symlink to it."""
    root = make(tmp_path / "skill", {"SKILL.md": "x", "lvl12/d.dat": "d"})
    for level in range(12):  # two links a level: 2^12 paths to d.dat
        (root / f"lvl{level}").mkdir()
        for link in ("l0", "l1"):
            (root / f"lvl{level}" / link).symlink_to(f"../lvl{level + 1}")
    make(root, {"node_modules/pkg/index.md": "i"})  # no walk enters it by its own path
    for link in ("lib2", "lib1"):
        (root / link).symlink_to("node_modules/pkg", target_is_directory=True)
    folders: list[str] = []
    dirs: list[str] = []
    result = walk_skill(root, folders, dirs=dirs)
    assert result.files == ("SKILL.md", "lvl12/d.dat")  # node_modules/pkg: entered by none
    assert len(folders) == len(set(folders)) == 14  # the root, 13 levels
    assert sorted(dirs) == sorted(f"lvl{level}" for level in range(13))


def test_symlink_loops_terminate(tmp_path: Path) -> None:
    root = make(tmp_path / "skill", {"SKILL.md": "x", "a/file.md": "f", "b/other.md": "o"})
    (root / "a" / "self").symlink_to(".", target_is_directory=True)
    (root / "a" / "to_b").symlink_to("../b", target_is_directory=True)
    (root / "b" / "to_a").symlink_to("../a", target_is_directory=True)
    (root / "top").symlink_to(root, target_is_directory=True)
    (root / "loop1").symlink_to("loop2")
    (root / "loop2").symlink_to("loop1")
    result = walk_skill(root)
    assert result.files == ("SKILL.md", "a/file.md", "b/other.md")  # each folder once
    assert result.escapes == ()


def test_a_path_typed_composed_finds_the_one_written_decomposed(tmp_path: Path) -> None:
    """A folder copied from a Mac names its files decomposed (NFD); a path typed composed
    (NFC: a keyboard, an agent) finds the one entry that differs from it only so, by
    ``open_in_root``, ``read_in_root`` and ``safe_join`` alike (audit unicode, item 2), never
    past the root (a symlink so named still escapes) nor when two entries could be meant."""
    from skillc_index.files import entry_named

    nfd, nfc = "re\u0301sume\u0301", "r\u00e9sum\u00e9"
    outside = make(tmp_path / "outside", {"secret.md": "s"})
    root = make(tmp_path / "skill", {"SKILL.md": "x", f"{nfd}/{nfd}.md": "cv"})
    (root / "de\u0301.md").symlink_to(outside / "secret.md")
    make(root, {"e\u0323\u0302.md": "1", "\u1eb9\u0302.md": "2"})  # two forms of U+1EC7
    with open_in_root(root, f"{nfc}/{nfc}.md") as handle:
        assert handle.read() == b"cv"
    assert read_in_root(root, f"./{nfc}/{nfc}.md", 10) == b"cv"
    assert safe_join(root, f"{nfc}/{nfc}.md") == root / nfd / f"{nfd}.md"
    assert entry_named(root, f"{nfc}") == nfd and entry_named(root, "SKILL.md") == "SKILL.md"
    with pytest.raises(PathEscapesRoot):
        open_in_root(root, "d\u00e9.md")
    with pytest.raises(PathEscapesRoot):
        safe_join(root, "d\u00e9.md")
    with pytest.raises(SkillFileNotFound):
        open_in_root(root, "\u1ec7.md")
    assert entry_named(root, "\u1ec7.md") == "\u1ec7.md"


def test_symlinked_root(tmp_path: Path) -> None:
    real = make(tmp_path / "real", {"SKILL.md": "x"})
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    assert walk_skill(link).files == ("SKILL.md",)


# -- source_hash -----------------------------------------------------------------------------


def test_source_hash_definition(skill: Path) -> None:
    digest = hashlib.sha256()
    for rel in ("SKILL.md", "references/guide.md", "scripts/run.py"):
        file_hash = hashlib.sha256((skill / rel).read_bytes()).hexdigest()
        digest.update(f"{rel}\0{file_hash}\n".encode())
    assert source_hash(skill) == digest.hexdigest()


def test_source_hash_is_stable(skill: Path) -> None:
    assert source_hash(skill) == source_hash(skill)
    assert source_hash(skill, ["scripts/run.py", "SKILL.md", "references/guide.md"]) == (
        source_hash(skill)
    )


def test_source_hash_changes_with_one_byte(skill: Path) -> None:
    before = source_hash(skill)
    (skill / "scripts" / "run.py").write_bytes(b"print('hI')\n")
    assert source_hash(skill) != before


def test_source_hash_changes_on_rename(skill: Path) -> None:
    before = source_hash(skill)
    (skill / "scripts" / "run.py").rename(skill / "scripts" / "main.py")
    assert source_hash(skill) != before


def test_source_hash_ignores_hidden_files(skill: Path) -> None:
    before = source_hash(skill)
    make(skill, {".skillc-meta/manifest.json": "{}", ".DS_Store": "x"})
    assert source_hash(skill) == before


def test_source_hash_independent_of_creation_order(tmp_path: Path) -> None:
    files = {"b.md": "b", "a/x.md": "x", "A.md": "A", "a-b.md": "ab", "c/d/e.md": "e"}
    first = make(tmp_path / "one", files)
    second = make(tmp_path / "two", dict(reversed(list(files.items()))))
    assert source_hash(first) == source_hash(second)


def test_source_hash_of_empty_folder(tmp_path: Path) -> None:
    assert source_hash(tmp_path) == hashlib.sha256().hexdigest()


def test_source_hash_large_file(tmp_path: Path) -> None:
    data = os.urandom(3 * 1024 * 1024 + 17)
    make(tmp_path, {"big.bin": data})
    digest = hashlib.sha256(f"big.bin\0{hashlib.sha256(data).hexdigest()}\n".encode())
    assert source_hash(tmp_path) == digest.hexdigest()


@pytest.mark.parametrize("rel", ["../x", "a/../../x", "/etc/passwd"])
def test_source_hash_rejects_escaping_file_lists(skill: Path, rel: str) -> None:
    with pytest.raises(PathEscapesRoot):
        source_hash(skill, [rel])


# -- safe_join -------------------------------------------------------------------------------


def test_safe_join_inside(skill: Path) -> None:
    real = skill.resolve()
    assert safe_join(skill, "references/guide.md") == real / "references" / "guide.md"
    assert safe_join(skill, "references/../SKILL.md") == real / "SKILL.md"
    assert safe_join(skill, "not/yet/there.md") == real / "not" / "yet" / "there.md"
    assert safe_join(skill, "") == real
    assert safe_join(skill, ".") == real


@pytest.mark.parametrize("rel", ["../x", "a/../../x", "..", "/etc/passwd", "/"])
def test_safe_join_rejects_escapes(skill: Path, rel: str) -> None:
    with pytest.raises(PathEscapesRoot) as caught:
        safe_join(skill, rel)
    assert caught.value.path == rel
    assert caught.value.diagnostic.code == "E012"
    assert str(caught.value) == f"error[E012]: path escapes skill root: '{rel}'"


def test_safe_join_rejects_symlink_pointing_outside(tmp_path: Path) -> None:
    outside = make(tmp_path / "outside", {"secret.md": "s"})
    root = make(tmp_path / "skill", {"SKILL.md": "x"})
    (root / "leak.md").symlink_to(outside / "secret.md")
    (root / "leakdir").symlink_to(outside, target_is_directory=True)
    for rel in ("leak.md", "leakdir/secret.md", "leakdir"):
        with pytest.raises(PathEscapesRoot):
            safe_join(root, rel)


def test_safe_join_sibling_with_common_prefix(tmp_path: Path) -> None:
    root = make(tmp_path / "skill", {"SKILL.md": "x"})
    make(tmp_path / "skill-evil", {"x.md": "x"})
    with pytest.raises(PathEscapesRoot):
        safe_join(root, "../skill-evil/x.md")


def test_safe_join_follows_inner_symlinks_and_survives_loops(tmp_path: Path) -> None:
    root = make(tmp_path / "skill", {"docs/a.md": "a"})
    (root / "alias").symlink_to("docs", target_is_directory=True)
    assert safe_join(root, "alias/a.md") == root.resolve() / "docs" / "a.md"


@pytest.mark.parametrize(
    ("rel", "hint"),
    [
        ("a\0b", "a path cannot hold a NUL byte"),
        ("a" * 300, os.strerror(errno.ENAMETOOLONG)),
        ("/".join(["d" * 200] * 25), os.strerror(errno.ENAMETOOLONG)),
        ("loop", os.strerror(errno.ELOOP)),
        ("loop/x.md", os.strerror(errno.ELOOP)),
    ],
)
def test_safe_join_refuses_paths_no_file_can_have(tmp_path: Path, rel: str, hint: str) -> None:
    root = make(tmp_path / "skill", {"SKILL.md": "x"})
    (root / "loop").symlink_to("loop")
    with pytest.raises(SkillFileNotFound) as caught:
        safe_join(root, rel)
    assert caught.value.diagnostic.detail == f"hint: {hint}"
    assert "\0" not in str(caught.value)  # shown as \0, never a raw NUL
    with pytest.raises(SkillDirectoryNotFound) as as_folder:
        safe_join(root, rel, SkillDirectoryNotFound)
    assert as_folder.value.diagnostic.code == "E022"


def test_within_compares_real_paths(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "a").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "link").symlink_to(outside, target_is_directory=True)
    (root / "inner").symlink_to(root / "a", target_is_directory=True)
    assert within(root, root) and within(root / "a" / "not-yet" / "x.db", root)
    assert within(root / "inner" / "x.db", root)
    assert not within(root / "link" / "x.db", root)
    assert not within(root / ".." / "outside", root)
    assert not within(tmp_path / "project-2", root)  # a prefix of the name is not inside


def test_a_nul_byte_is_a_part_taken_as_written(tmp_path: Path) -> None:
    """No file has a NUL byte in its path (``realpath`` raises ``ValueError``): the shared
    helpers take it as a part that is not there, so no caller checks for it."""
    from skillc_index.atomic import creation_start
    from skillc_index.bounded_json import read_bounded
    from skillc_index.command_errors import CannotCreate

    root = tmp_path / "project"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "link").symlink_to(outside, target_is_directory=True)
    assert within(root / "a\0b" / "c", root)
    assert not within(root / "link" / "a\0b", root)
    assert not within(root / "a\0" / ".." / ".." / "outside", root)
    with pytest.raises(OSError, match="a path cannot hold a NUL byte") as unread:
        read_bounded(root / "x\0.json", 10)
    assert unread.value.errno == errno.EINVAL and unread.value.filename.endswith("x\\0.json")
    with pytest.raises(CannotCreate, match=r"x\\0': a path cannot hold a NUL byte"):
        creation_start(root / "x\0")


def test_read_bounded_reads_beside_a_folders_descriptor_and_refuses_a_link_when_asked(
    tmp_path: Path,
) -> None:
    """The one bounded reader of a walk's ``.skillc-package.json`` and ``CACHEDIR.TAG``
    (which re-implemented it): relative to the folder a walk checked (``dir_fd``), never
    through a link (``follow=False``), never blocking on a FIFO, at most one byte more than
    asked."""
    from skillc_index.bounded_json import read_bounded, read_json_bounded

    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "record.json").write_text('{"version": 1}', encoding="utf-8")
    (folder / "link.json").symlink_to(folder / "record.json")
    os.mkfifo(folder / "fifo")
    fd = os.open(folder, os.O_RDONLY)
    try:
        assert read_json_bounded("record.json", dir_fd=fd, follow=False) == {"version": 1}
        assert read_bounded("record.json", 3, dir_fd=fd) == b'{"ve'
        assert read_bounded("link.json", 20, dir_fd=fd) == b'{"version": 1}'  # followed
        with pytest.raises(OSError) as linked:
            read_bounded("link.json", 20, dir_fd=fd, follow=False)
        assert linked.value.errno == errno.ELOOP
        with pytest.raises(OSError, match="not a regular file"):
            read_bounded("fifo", 20, dir_fd=fd, follow=False)
    finally:
        os.close(fd)
    with pytest.raises(OSError):
        read_json_bounded(folder / "link.json", follow=False)


# -- open_in_root: regular files only, walked from the root's descriptor ---------------------


@pytest.fixture
def watchdog() -> Iterator[None]:
    """Fail (instead of hanging the run) if a test blocks for 20 s, e.g. on a FIFO."""
    import signal

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError("blocked: a reader opened a FIFO")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def read_in(root: Path, rel: str, **options: bool) -> bytes:
    with open_in_root(root, rel, **options) as handle:
        return handle.read()


def test_open_in_root_reads_files_and_inner_symlinks(skill: Path) -> None:
    (skill / "docs").symlink_to("references")
    (skill / "abs.md").symlink_to(skill / "references" / "guide.md")
    (skill / "up.md").symlink_to("scripts/../references/guide.md")
    for rel in ("references/guide.md", "docs/guide.md", "abs.md", "up.md", "docs/../SKILL.md"):
        assert read_in(skill, rel) in (b"# Guide\n", (skill / "SKILL.md").read_bytes()), rel
    assert read_in(skill, "./references//guide.md") == b"# Guide\n"


@pytest.mark.parametrize("rel", ["../x", "references/../../x", "/etc/passwd", "out/secret"])
def test_open_in_root_refuses_escapes(tmp_path: Path, skill: Path, rel: str) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret").write_text("secret", encoding="utf-8")
    (skill / "out").symlink_to(tmp_path / "outside")
    with pytest.raises(PathEscapesRoot):
        read_in(skill, rel)


@pytest.mark.parametrize("rel", ["../x", "references/../../x", "out/secret", "leak.md"])
def test_a_root_resolved_once_still_checks_every_symlink(
    tmp_path: Path, skill: Path, rel: str
) -> None:
    """A caller resolving the skill's root once (``real_root=``, skillc-lint for each skill)
    skips no check: an escape through ``..`` or a symlink is E012 as without it, from a
    symlinked root too, and a walk still reports the escaping symlinks."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret").write_text("secret", encoding="utf-8")
    (skill / "out").symlink_to(tmp_path / "outside")
    (skill / "leak.md").symlink_to(tmp_path / "outside" / "secret")
    (tmp_path / "alias").symlink_to(skill)
    for root in (skill, tmp_path / "alias"):
        real = os.path.realpath(root)
        with pytest.raises(PathEscapesRoot):
            open_in_root(root, rel, real_root=real)
        with pytest.raises(PathEscapesRoot):
            safe_join(root, rel, real_root=real)
        assert set(walk_skill(root, real_root=real).escapes) == {"leak.md", "out"}
        assert read_text_in_root(root, "references/guide.md", real_root=real) == "# Guide\n"


def test_open_in_root_refuses_special_files_without_blocking(
    skill: Path, tmp_path: Path, watchdog: None
) -> None:
    """A FIFO, a socket or a folder is E021 (NotARegularFile), directly or through a symlink:
    never opened in a way that could block."""
    import socket

    os.mkfifo(skill / "pipe.md")
    (skill / "to-pipe.md").symlink_to("pipe.md")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(skill / "sock"))
        for rel, kind in [
            ("pipe.md", "a FIFO"),
            ("to-pipe.md", "a FIFO"),
            ("sock", "a socket"),
            ("references", "a folder"),
            ("references/..", "a folder"),
        ]:
            with pytest.raises(NotARegularFile) as caught:
                read_in(skill, rel)
            assert caught.value.diagnostic.code == "E021" and caught.value.kind == kind
    finally:
        server.close()
    with pytest.raises(NotARegularFile):
        source_hash(skill, ["pipe.md"])  # a file list naming a FIFO (swapped in after a walk)


def test_open_in_root_hidden_only_when_asked(skill: Path) -> None:
    make(skill, {".env": "TOKEN=1\n", ".git/config": "[core]\n", "a/.b/c.md": "x"})
    for rel in (".env", ".git/config", "a/.b/c.md", "references/../.env"):
        with pytest.raises(HiddenPath):
            read_in(skill, rel, hidden=False)
        assert read_in(skill, rel, hidden=True)
    assert not is_hidden("../x") and not is_hidden("./a/b") and is_hidden("a/.x")


def test_a_symlink_to_a_hidden_file_is_hidden(skill: Path) -> None:
    """A visible name leading to a dot-file (`notes.md -> .env`, `priv -> .private`) is
    served only as the hidden file would be, and is not a source."""
    make(skill, {".env": "TOKEN=1\n", ".private/n.md": "x"})
    (skill / "notes.md").symlink_to(".env")
    (skill / "priv").symlink_to(".private")
    (skill / "references" / "n.md").symlink_to("../.private/n.md")
    (skill / "abs.md").symlink_to(skill / ".env")
    for rel in ("notes.md", "priv/n.md", "references/n.md", "abs.md"):
        with pytest.raises(HiddenPath, match="leads to a hidden file"):
            read_in(skill, rel, hidden=False)
        assert read_in(skill, rel, hidden=True)
    assert walk_skill(skill).files == ("SKILL.md", "references/guide.md", "scripts/run.py")


def test_read_in_root_reads_as_open_in_root_does(
    tmp_path: Path, skill: Path, watchdog: None
) -> None:
    """``read_in_root`` (a name in the root opened by its path, ``O_NOFOLLOW``) gives what
    ``open_in_root`` gives, bytes or error, for every kind of name: files, inner and
    escaping symlinks, a FIFO, a socket, a folder, missing and impossible names, hidden ones,
    from the root and from a symlink to it, resolved or not."""
    import socket

    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret").write_text("secret", encoding="utf-8")
    make(skill, {".env": "TOKEN=1\n", "big.md": "x" * 200_000})
    (skill / "inner.md").symlink_to("references/guide.md")
    (skill / "abs.md").symlink_to(skill / "references" / "guide.md")
    (skill / "leak.md").symlink_to(tmp_path / "outside" / "secret")
    (skill / "notes.md").symlink_to(".env")
    (skill / "loop").symlink_to("loop")
    (skill / "to-pipe.md").symlink_to("pipe.md")
    os.mkfifo(skill / "pipe.md")
    (tmp_path / "alias").symlink_to(skill)
    names = ["SKILL.md", "big.md", "inner.md", "abs.md", "leak.md", "notes.md", ".env", "loop"]
    names += ["pipe.md", "to-pipe.md", "sock", "references", "nope.md", "x" * 300, "a\0b", ".."]
    names += ["references/guide.md", "references/../SKILL.md", "SKILL.md/", ""]
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(skill / "sock"))
        for root, rel, hidden, limit in itertools.product(
            (skill, tmp_path / "alias"), names, (True, False), (5, 1 << 20)
        ):
            for real in (None, os.path.realpath(root)):
                try:
                    with open_in_root(root, rel, hidden=hidden, real_root=real) as handle:
                        expected: object = handle.read(limit)
                except (SkillcError, OSError) as error:
                    expected = type(error)
                try:
                    found: object = read_in_root(root, rel, limit, hidden=hidden, real_root=real)
                except (SkillcError, OSError) as error:
                    found = type(error)
                assert found == expected, (root, rel, hidden, limit, real)
    finally:
        server.close()
    assert read_in_root(skill, "big.md", 1 << 20) == b"x" * 200_000  # more than one read


@pytest.mark.parametrize("rel", ["SKILL.md/", "SKILL.md/.", "SKILL.md/./"])
def test_a_file_named_as_a_folder_is_not_opened(skill: Path, rel: str) -> None:
    with pytest.raises(SkillFileNotFound, match="not a folder"):
        read_in(skill, rel)


@pytest.mark.parametrize(
    "rel",
    ["d/" * 400_000, "./" * 3_000 + "SKILL.md"],
    ids=["many-parts", "dots-to-a-file"],
)
@pytest.mark.parametrize("reader", [safe_join, read_in], ids=["safe_join", "open_in_root"])
def test_a_path_longer_than_path_max_is_refused_before_any_lookup(
    skill: Path, monkeypatch: pytest.MonkeyPatch, rel: str, reader: Callable[[Path, str], object]
) -> None:
    """No file has a path longer than PATH_MAX (the system refuses it whole), and resolving
    one of 400,000 parts took 36 s (realpath is quadratic in them): E021 at once."""
    realpath = os.path.realpath
    found = skill.resolve() / "SKILL.md"

    def short_only(path: str | Path, **options: bool) -> str:
        assert len(str(path)) < 8_192, "a path longer than PATH_MAX was resolved"
        return realpath(path, **options)

    monkeypatch.setattr(os.path, "realpath", short_only)
    with pytest.raises(SkillFileNotFound) as caught:
        reader(skill, rel)
    assert caught.value.diagnostic.detail == f"hint: {os.strerror(errno.ENAMETOOLONG)}"
    with pytest.raises(SkillDirectoryNotFound):
        safe_join(skill, rel, SkillDirectoryNotFound)
    assert safe_join(skill, "./" * 2_000 + "SKILL.md") == found  # shorter: as before


@pytest.mark.parametrize("rel", ["nope.md", "SKILL.md/x", "a\0b", "x" * 300, "loop/x"])
def test_open_in_root_missing_is_e021(skill: Path, rel: str) -> None:
    (skill / "loop").symlink_to("loop")
    with pytest.raises(SkillFileNotFound):
        read_in(skill, rel)


def test_open_in_root_is_not_fooled_by_a_folder_swapped_for_an_escaping_symlink(
    tmp_path: Path, skill: Path
) -> None:
    """The TOCTOU race, for real: a thread keeps replacing the folder ``inner`` with a
    symlink to a folder outside (and back) while ``inner/f.txt`` is opened. Every read gives
    the inside file, or E012, or E021: never the outside one."""
    import threading

    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "f.txt").write_text("outside", encoding="utf-8")
    make(skill, {"inner/f.txt": "inside"})
    stop = threading.Event()

    def swap() -> None:
        """Move the real folder away, put a symlink pointing outside in its place, and back."""
        away = skill / ".inner-away"
        while not stop.is_set():
            (skill / "inner").rename(away)
            (skill / "inner").symlink_to(tmp_path / "outside")
            (skill / "inner").unlink()
            away.rename(skill / "inner")

    swapper = threading.Thread(target=swap)
    swapper.start()
    seen: set[bytes] = set()
    try:
        for _ in range(3000):
            try:
                seen.add(read_in(skill, "inner/f.txt"))
            except (PathEscapesRoot, SkillFileNotFound):
                seen.add(b"refused")
    finally:
        stop.set()
        swapper.join()
    assert b"outside" not in seen
    assert seen <= {b"inside", b"refused"}


def test_regular_fd_opens_with_the_flags_it_is_given(tmp_path: Path) -> None:
    """``regular_fd`` with ``flags`` (the find server's lock and log: ``open_home_file``)
    makes a missing file 0600 with ``O_CREAT`` and opens it to write; a symlink or a FIFO
    there is still refused, never followed nor waited on."""
    from skillc_index.files import regular_fd

    made = tmp_path / "find.lock"
    fd = regular_fd(str(made), None, "find.lock", flags=os.O_RDWR | os.O_CREAT)
    try:
        os.write(fd, b"42\n")
    finally:
        os.close(fd)
    assert made.read_bytes() == b"42\n" and made.stat().st_mode & 0o777 == 0o600
    (tmp_path / "link").symlink_to(made)
    with pytest.raises(OSError, match="Too many levels") as caught:
        regular_fd(str(tmp_path / "link"), None, "link", flags=os.O_WRONLY | os.O_APPEND)
    assert caught.value.errno == errno.ELOOP
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(NotARegularFile, match="a FIFO"):
        regular_fd(str(tmp_path / "pipe"), None, "pipe", flags=os.O_RDONLY)
    assert made.read_bytes() == b"42\n"


#: What editors, OSes and merges leave beside a skill's files
#: (skillc_index.skill_files.is_leftover).
LEFTOVERS = {
    "SKILL.md~": "old",
    "#SKILL.md#": "autosave",
    "4913": "",
    "SKILL.md.tmp": "half-written",
    "SKILL.md___jb_tmp___": "jb",
    "SKILL.md___jb_old___": "jb",
    "SKILL.md.orig": "merge",
    "SKILL.md.rej": "patch",
    "Thumbs.db": "x",
    "desktop.ini": "x",
    "references/guide.md~": "old",
    "references/guide.md.swp": "swap",
    "references/guide.md.swo": "swap",
    "references/guide.md.swx": "swap",
}


def test_the_walk_leaves_out_editor_os_and_merge_leftovers(tmp_path: Path) -> None:
    kept = {"SKILL.md": "# S\n", "references/guide.md": "# G\n", "notes.md.bak": "bak"}
    kept |= {"data.tmp": "no data beside it", "#": "one hash", "##": "two"}
    skill = make(tmp_path / "s", kept)
    before = source_hash(skill)
    make(skill, LEFTOVERS)
    (skill / "link~").symlink_to("SKILL.md")  # a leftover's name, whatever it leads to
    assert walk_skill(skill).files == tuple(sorted(kept, key=str.encode))
    assert source_hash(skill) == before


def test_a_leftover_is_refused_by_name_as_a_hidden_file_is(tmp_path: Path) -> None:
    from skillc_index.diagnostics import LeftoverPath

    skill = make(tmp_path / "s", {"SKILL.md": "# S\n", "data.tmp": "d", **LEFTOVERS})
    (skill / "guide").symlink_to("references/guide.md~")
    for rel in (*LEFTOVERS, "guide"):
        with pytest.raises(LeftoverPath, match="leftover"):
            open_in_root(skill, rel, hidden=False)
        open_in_root(skill, rel).close()  # asked for as hidden files are: served
    open_in_root(skill, "data.tmp", hidden=False).close()  # no `data` beside it


def test_a_listed_file_gone_before_it_is_hashed_is_e021_saying_so(tmp_path: Path) -> None:
    """A skill removed as ``skc build`` read it (a branch switch, ``git clean``) ended in
    ``error[E999]: cannot read 'SKILL.md': No such file or directory``, an internal error:
    a file the walk listed and then gone is E021, which says the skill changed as it was
    read; one that is there but cannot be read stays E999."""
    from skillc_index.diagnostics import SkillFileNotFound, UnreadableFile
    from skillc_index.digests import file_digests
    from skillc_index.files import typed_os_error

    (tmp_path / "SKILL.md").write_text("# s\n", encoding="utf-8")
    with pytest.raises(SkillFileNotFound) as caught:
        file_digests(tmp_path, ["SKILL.md", "references/units.md"])
    assert str(caught.value) == (
        "error[E021]: file not found: 'references/units.md'\n"
        "hint: it changed on disk while it was read; run the command again"
    )
    (tmp_path / "references").write_text("a file where a folder was\n", encoding="utf-8")
    with pytest.raises(SkillFileNotFound):
        file_digests(tmp_path, ["references/units.md"])
    denied = typed_os_error("SKILL.md", PermissionError(errno.EACCES, "Permission denied"))
    assert isinstance(denied, UnreadableFile)
    assert str(denied) == "error[E999]: cannot read 'SKILL.md': Permission denied"
