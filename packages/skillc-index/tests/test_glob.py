"""``skillc_index.glob``: a skill's ``.gitignore`` files read as git reads them, bounded, and
matched without backtracking (what ``skc package`` leaves out)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skillc_index import glob
from skillc_index.glob import MAX_IGNORE_BYTES, IgnoreRules, IgnoreTooLarge

#: (folder of the .gitignore, its text), and the files of the skill.
IGNORES = {
    "": "credentials.json\n*.key\n!public.key\nlocal/\n!local/keep.md\nbuild/**\n"
    "!build/dist/\n/top.md\n\\#literal\ntrailing.md   \nspace\\ \ndocs/**/draft.md\n",
    "sub/": "*.md\n!keep.md\n/anchored.txt\n",
    "sub/deep/": "!*.md\n",
}
FILES = [
    "SKILL.md",
    "credentials.json",
    "a/credentials.json",
    "deploy.key",
    "public.key",
    "keys/public.key",
    "local/notes.md",
    "local/keep.md",
    "build/x.js",
    "build/dist/y.js",
    "top.md",
    "a/top.md",
    "#literal",
    "trailing.md",
    "space ",
    "docs/draft.md",
    "docs/a/b/draft.md",
    "sub/a.md",
    "sub/keep.md",
    "sub/anchored.txt",
    "sub/x/anchored.txt",
    "sub/deep/b.md",
    "sub/deep/c.txt",
]


def make(root: Path, ignores: dict[str, str], files: list[str]) -> IgnoreRules:
    for rel in files:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x\n", encoding="utf-8")
    for folder, text in ignores.items():
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / ".gitignore").write_text(text, encoding="utf-8")
    folders = sorted({str(Path(rel).parent) for rel in files} - {"."})
    folders = sorted({str(p) for f in folders for p in [Path(f), *Path(f).parents]} - {"."})
    rules = IgnoreRules.read(root, folders)
    assert rules.unread == []
    return rules


def test_negation_nesting_and_excluded_folders_as_git_says(tmp_path: Path) -> None:
    """The last matching line decides, the deepest file first; a file below an excluded
    folder is never re-included (``!local/keep.md``), each file's patterns are relative to
    its folder; and git itself agrees on every file."""
    rules = make(tmp_path, IGNORES, FILES)
    excluded = {rel: rules.excluded(rel) for rel in FILES}
    assert {rel for rel, hit in excluded.items() if hit} == {
        "credentials.json",
        "a/credentials.json",
        "deploy.key",
        "local/notes.md",
        "local/keep.md",
        "build/x.js",
        "build/dist/y.js",  # '!build/dist/' keeps the folder, 'build/**' still takes y.js
        "top.md",
        "#literal",
        "trailing.md",
        "space ",
        "docs/draft.md",
        "docs/a/b/draft.md",
        "sub/a.md",
        "sub/anchored.txt",
    }
    assert excluded["local/keep.md"] == ("local/", ".gitignore")
    assert excluded["sub/a.md"] == ("sub/a.md", "sub/.gitignore")
    git = shutil.which("git")
    if git is None:
        pytest.skip("no git to compare with")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run([git, "init", "-q", str(tmp_path)], check=True, env=env)
    listed = subprocess.run(
        [git, "-C", str(tmp_path), "ls-files", "-z", "-o", "-i", "--exclude-standard"],
        check=True,
        capture_output=True,
        env=env,
    ).stdout.decode()
    assert {rel for rel in listed.split("\0") if rel} == {
        rel for rel, hit in excluded.items() if hit
    }


def test_a_hostile_pattern_is_matched_in_bounded_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``a*a*…a*b`` of 25 stars against a 200-character name: a regular expression
    backtracks exponentially; here each character comparison is counted, at most pattern
    length x name length."""
    pattern = "a*" * 25 + "b"
    name = "a" * 200
    steps = 0
    compare = glob._token_matches

    def counted(token: object, char: str) -> bool:
        nonlocal steps
        steps += 1
        return compare(token, char)  # type: ignore[arg-type]

    monkeypatch.setattr(glob, "_token_matches", counted)
    rules = IgnoreRules()
    rules.add("", f"{pattern}\n!{pattern}x\n")
    assert rules.excluded(f"dir/{name}") is None
    assert 0 < steps <= 2 * len(pattern) * len(name)  # two patterns


def test_a_huge_or_crowded_gitignore_is_refused_unread(tmp_path: Path) -> None:
    """A 1 MiB ``.gitignore`` is read up to its bound, then refused (what it excludes is
    unknown: no package leaves with its secrets); so are too many patterns."""
    (tmp_path / ".gitignore").write_bytes(b"x\n" * (1 << 19))
    with pytest.raises(IgnoreTooLarge, match=f"over {MAX_IGNORE_BYTES >> 10} KiB"):
        IgnoreRules.read(tmp_path, [])
    (tmp_path / ".gitignore").write_text("".join(f"f{n}\n" for n in range(5000)))
    with pytest.raises(IgnoreTooLarge, match="over 1000 patterns"):
        IgnoreRules.read(tmp_path, [])
    (tmp_path / ".gitignore").write_text("a" * 513 + "\n")
    with pytest.raises(IgnoreTooLarge, match="has a pattern over 512 characters"):
        IgnoreRules.read(tmp_path, [])


def test_a_symlinked_gitignore_is_not_read(tmp_path: Path) -> None:
    """A ``.gitignore`` that is a symlink (out of the skill, or in it) is not read, as git
    reads none: it is named; one in an excluded folder is not looked at."""
    outside = tmp_path / "outside"
    outside.write_text("*\n")
    root = tmp_path / "skill"
    (root / "sub").mkdir(parents=True)
    (root / "gone").mkdir()
    (root / ".gitignore").write_text("gone/\n")
    (root / "sub" / ".gitignore").symlink_to(outside)
    (root / "gone" / ".gitignore").symlink_to(outside)
    rules = IgnoreRules.read(root, ["gone", "sub"])
    assert rules.unread == ["sub/.gitignore"]
    assert rules.excluded("sub/a.md") is None and rules.excluded("gone/a.md") is not None


def test_the_folders_a_path_lies_in_are_told_once_for_all_their_readers() -> None:
    """The folders of a relative path (a ``.gitignore`` verdict's bases, the folders of
    links whose rules are read, an import's copy) were computed four times in place."""
    assert glob.parent_folders("a/b/c.md") == ["a", "a/b"]
    assert glob.parent_folders("SKILL.md") == []


def test_a_pattern_of_unclosed_brackets_is_read_in_one_pass() -> None:
    """Each unclosed ``[`` (a literal ``[``) was found by a scan to the segment's end, once
    per ``[``: 8,000 held the MCP server 9 s, 100,000 minutes (``sources --pattern``, and
    ``list --pattern``'s :func:`fnmatch.translate` alike). Both read 100,000 in one pass now:
    run in a child given a minute, far more than one pass needs."""
    code = (
        "from skillc_index.glob import Glob, name_match\n"
        "p = '[' * 100_000\n"
        "print(Glob(p).match(p), Glob(p).match('x/' + p), Glob(p).match('x'),"
        " name_match(p, p), name_match('[', p), Glob(p + ']').match('['))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["True", "True", "False", "True", "False", "True"]


@pytest.mark.parametrize(
    ("pattern", "name", "hit"),
    [
        ("a[b", "a[b", True),  # unclosed: a literal '['
        ("[[[\\]", "[[[]", True),  # an escaped ']' closes none
        ("[[x]", "[", True),  # the first '[' opens a class holding '[' and 'x'
        ("[]a]", "]", True),  # a ']' first in a class is one of its characters
        ("[!]]", "]", False),
        ("[A-\\]]", "\\", True),  # a range to an escaped ']' (A to ])
        ("x[", "x[", True),
        ("[!", "[!", True),
        ("b*[gk]", "brand-gk", True),
        ("\\*", "*", True),  # '\' escapes, as in sources' globs
        ("[^a]*", "abc", False),  # '^' negates, as '!'
        ("x\\", "x\\", False),  # a lone trailing '\' matches nothing
        ("plugin:*", "plugin:a/b", True),  # a name: '/' is a character as any other
    ],
)
def test_a_name_glob_follows_a_segments_rules(pattern: str, name: str, hit: bool) -> None:
    """``list --pattern`` matches with :func:`glob.name_match`, one matcher with ``sources``'
    globs: a segment's rules, ``/`` a character as any other."""
    assert glob.name_match(name, pattern) is hit


def test_a_typed_glob_and_a_name_glob_compare_composed() -> None:
    """A pattern a user typed (``sources --pattern``, ``list --pattern``) and the path or name
    it is matched with are compared composed (NFC): ``résumé*`` typed finds the
    ``re\u0301sume\u0301.md`` a Mac wrote, a pattern typed decomposed the name written composed
    (s50 unicode3: ``sources`` compared bytes). A ``.gitignore`` line is compared as written,
    as git does; ``resume*`` (no accent) matches neither."""
    decomposed, typed = "docs/re\u0301sume\u0301.md", "r\u00e9sum\u00e9*"
    assert glob.Glob(typed, typed=True).match(decomposed)
    assert glob.Glob("docs/re\u0301sume\u0301.*", typed=True).match("docs/r\u00e9sum\u00e9.md")
    assert not glob.Glob(typed).match(decomposed)  # a .gitignore line: as written
    assert not glob.Glob("resume*", typed=True).match(decomposed)
    assert glob.name_match("re\u0301sume\u0301-notes", typed)
    assert glob.name_match("r\u00e9sum\u00e9-notes", "re\u0301sume\u0301-*")
    assert not glob.name_match("re\u0301sume\u0301-notes", "resume*")
