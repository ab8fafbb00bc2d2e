"""``skc package`` (audit s36): what goes into a package, and what is said of it. On real
folders."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout
from skillc_index.package.make import package_skills


def test_paths_one_file_on_macos_or_windows_are_warned_naming_both(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``README.md`` and ``readme.md``, ``Refs/api.md`` and ``refs/api.md``, ``café.md`` in
    NFC and NFD were packaged without a word: extracted on macOS or Windows, one replaces
    the other. Each pair is a warning naming both (the NFD one escaped), and packaged."""
    nfc, nfd = "caf\u00e9.md", "cafe\u0301.md"
    files = {"README.md": "a", "readme.md": "b", "Refs/api.md": "c", "refs/api.md": "d"}
    folder = write_skill(project / "guide", files={**files, nfc: "e", nfd: "f"})
    result = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    said = "differ only in case or Unicode normalisation: one file on macOS and Windows"
    assert [n.text.split(" differ")[0] for n in result.warnings if said in n.text] == [
        "guide: 'cafe\\u0301.md' and 'café.md'",
        "guide: 'README.md' and 'readme.md'",
        "guide: 'Refs/api.md' and 'refs/api.md'",
    ]
    assert result.to_dict()["warnings"][0].startswith("guide: 'cafe\\u0301.md' and 'café.md'")


@pytest.mark.parametrize(
    ("fmt", "name", "refused"),
    [
        ("claude-plugin", "acme.tools", "a Claude Code"),  # lint's SKL611/SKL612 refused it
        ("claude-plugin", "acme--tools", "a Claude Code"),
        ("claude-plugin", "acme-tools", None),
        ("plugin", "acme.tools", None),  # Agent Plugins 1.0 takes inner dots
        ("plugin", "acme..tools", "an Agent Plugins"),
        ("claude-plugin", "a" * 65, "a Claude Code"),  # package refused it, lint did not
        ("plugin", "a" * 64, None),
    ],
)
def test_a_plugin_name_is_the_one_its_format_and_lint_take(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path,
    fmt: str, name: str, refused: str | None,
) -> None:  # fmt: skip
    """``--to claude-plugin --name acme.tools`` wrote a plugin that skillc-lint's SKL611 and
    SKL612 refuse (Claude Code's plugin names are kebab-case): the one rule of both
    (:func:`~skillc_index.dialect.plugin_name_rule`) refuses it with E100, nothing written."""
    from skillc_index import InvalidOption
    from skillc_index.dialect import plugin_name_rule

    folder = write_skill(project / "guide")
    output = tmp_path / "out"
    assert (plugin_name_rule(name, fmt) is None) == (refused is None)
    if refused is None:
        package_skills([str(folder)], layout, fmt=fmt, output=output, name=name)
        assert (output / name / "skills/guide/SKILL.md").is_file()
        return
    with pytest.raises(InvalidOption) as error:
        package_skills([str(folder)], layout, fmt=fmt, output=output, name=name)
    assert str(error.value.diagnostic.params["message"]).startswith(
        f"not {refused} plugin name: '{name}': it must be "
    )
    assert not output.exists()


@pytest.mark.parametrize(
    ("fmt", "said"),
    [
        ("upload", "rewritten, each byte UTF-8 cannot read as U+FFFD"),  # x-extra dropped
        ("claude-plugin", "kept as it is"),  # the frontmatter as written
    ],
)
def test_a_skill_md_that_is_not_utf8_is_a_warning(
    layout: Layout, project: Path, tmp_path: Path, fmt: str, said: str
) -> None:
    """A Latin-1 SKILL.md went out with each ``é`` made U+FFFD when the format rewrote its
    frontmatter, and unchanged when not, without a word either way."""
    folder = project / "latin"
    folder.mkdir()
    (folder / "SKILL.md").write_bytes(
        b"---\nname: latin\ndescription: Caf\xe9 menu. Use when asked.\nx-extra: 2\n---\n# L\n"
    )
    result = package_skills([str(folder)], layout, fmt=fmt, output=tmp_path / "out")
    assert f"latin: SKILL.md is not UTF-8 ({said}): save it as UTF-8" in [
        notice.text for notice in result.warnings
    ]


#: A Git LFS pointer file, as a checkout made without ``git lfs pull`` holds one.
LFS = b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"4d" * 32 + b"\nsize 48213\n"


def test_a_git_lfs_pointer_is_a_warning(layout: Layout, project: Path, tmp_path: Path) -> None:
    """A checkout without ``git lfs pull``: ``assets/form.pdf`` was a 130-byte pointer, and
    the package shipped it as the PDF without a word. Each pointer is said once, as the
    encoding of SKILL.md is; a file that merely starts like one, or is longer, is not."""
    from skillc_index.files import lfs_pointer

    folder = project / "lfs"
    (folder / "assets").mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: lfs\ndescription: Forms. Use when asked.\n---\n")
    (folder / "assets" / "form.pdf").write_bytes(LFS)
    (folder / "assets" / "notes.txt").write_bytes(LFS + b"and more\n")
    (folder / "assets" / "big.bin").write_bytes(LFS + b"\0" * 1024)
    result = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    said = [notice.text for notice in result.warnings if "LFS" in notice.text]
    assert said == [
        "lfs: assets/form.pdf is a Git LFS pointer (packaged as it is): "
        "`git lfs pull` fetches its content"
    ]
    ext = LFS.replace(b"\noid", b"\next-0-foo sha256:" + b"0" * 64 + b"\noid")
    assert lfs_pointer(LFS.rstrip(b"\n")) and lfs_pointer(ext)
    assert not lfs_pointer(LFS.replace(b"4d", b"4D", 1)) and not lfs_pointer(b"version")


@pytest.mark.parametrize("fmt", ["upload", "well-known", "plugin", "claude-plugin"])
def test_what_the_skills_gitignore_excludes_is_left_out_and_listed(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    fmt: str,
    count_calls: Callable[[object, str], list[tuple[Any, ...]]],
) -> None:
    """``credentials.json``, ``*.key`` and ``local/`` of the skill's ``.gitignore`` were
    published in every format (git never commits them). They are left out, each listed (a
    folder once) with the ``.gitignore`` excluding it, a nested one's patterns below it;
    SKILL.md is packaged all the same, with a warning. The ``.gitignore`` files are read
    once, by the walk (they were read again for the package)."""
    from skillc_index.glob import IgnoreRules

    files = {
        "credentials.json": "{}",
        "deploy.key": "k",
        "public.key": "p",
        "local/notes.md": "n",
        "local/keep.md": "k",
        "refs/api.md": "a",
        "refs/draft.md": "d",
    }
    folder = write_skill(project / "api", files=files)
    (folder / ".gitignore").write_text(
        "credentials.json\n*.key\n!public.key\nlocal/\n!local/keep.md\nSKILL.md\n"
    )
    (folder / "refs" / ".gitignore").write_text("draft.md\n")
    out = tmp_path / "out"
    reads = count_calls(IgnoreRules, "read")
    result = package_skills([str(folder)], layout, fmt=fmt, output=out)
    assert len(reads) == 1
    assert result.to_dict()["ignored"] == [
        {"skill": "api", "path": "credentials.json", "by": ".gitignore"},
        {"skill": "api", "path": "deploy.key", "by": ".gitignore"},
        {"skill": "api", "path": "local/", "by": ".gitignore"},
        {"skill": "api", "path": "refs/draft.md", "by": "refs/.gitignore"},
    ]
    said = "api: .gitignore excludes SKILL.md: packaged all the same (a skill needs it)"
    assert said in result.to_dict()["warnings"]
    packaged = set()
    for path in out.rglob("*"):
        if path.suffix == ".zip":
            packaged |= {name.split("/")[-1] for name in zipfile.ZipFile(path).namelist()}
        elif path.is_file() and path.parent.name not in (".claude-plugin", "out"):
            packaged.add(path.name)
    assert {"SKILL.md", "public.key", "api.md"} <= packaged
    assert not packaged & {"credentials.json", "deploy.key", "notes.md", "keep.md", "draft.md"}
    assert json.dumps(result.to_dict())  # the JSON holds it


def test_the_command_line_lists_what_the_gitignore_left_out(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path]
) -> None:
    folder = write_skill(project / "api", files={"credentials.json": "{}"})
    (folder / ".gitignore").write_text("credentials.json\n")
    (folder / "big").mkdir()
    (folder / "big" / ".gitignore").write_bytes(b"#" * (1 << 20))
    refused = cli("skillc_index")("package", "api")
    assert refused.returncode == 1 and "error[E070]" in refused.stderr
    assert "its big/.gitignore is over 64 KiB" in refused.stderr
    (folder / "big" / ".gitignore").unlink()
    done = cli("skillc_index")("package", "api")
    assert done.returncode == 0, done.stderr
    assert "left out  api/credentials.json  (.gitignore excludes it)" in done.stdout


def test_a_symlink_to_what_the_gitignore_excludes_is_left_out_and_listed(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    cli: Callable[..., Any],
) -> None:
    """``creds-link.json -> credentials.json`` and ``pub -> local`` (both excluded) put the
    secrets in the package under the link's name: git commits the link, never the content.
    Each link to a file is left out and listed with the excluded path it leads to (``pub``,
    a second path to the folder ``local/``, is not walked at all); a link to a file kept,
    and a real folder holding a link to an excluded file, are judged one by one."""
    files = {"credentials.json": "TOPSECRET", "local/key.txt": "LOCALSECRET", "refs/a.md": "a"}
    folder = write_skill(project / "api", files=files)
    (folder / ".gitignore").write_text("credentials.json\nlocal/\n")
    (folder / "creds-link.json").symlink_to("credentials.json")
    (folder / "pub").symlink_to("local")
    (folder / "refs" / "key.txt").symlink_to("../local/key.txt")
    (folder / "refs" / "b.md").symlink_to("a.md")
    out = tmp_path / "out"
    result = package_skills([str(folder)], layout, fmt="upload", output=out)
    assert result.to_dict()["ignored"] == [
        {"skill": "api", "path": "credentials.json", "by": ".gitignore"},
        {
            "skill": "api",
            "path": "creds-link.json",
            "by": ".gitignore",
            "target": "credentials.json",
        },
        {"skill": "api", "path": "local/", "by": ".gitignore"},
        {"skill": "api", "path": "refs/key.txt", "by": ".gitignore", "target": "local/"},
    ]
    archive = zipfile.ZipFile(out / "api.zip")
    assert sorted(archive.namelist()) == ["api/SKILL.md", "api/refs/a.md", "api/refs/b.md"]
    assert not any(b"SECRET" in archive.read(name) for name in archive.namelist())
    done = cli("skillc_index")("package", "api", "-o", str(tmp_path / "cli"))
    assert done.returncode == 0, done.stderr
    said = "left out  api/refs/key.txt  (a link to local/, which .gitignore excludes)"
    assert said in done.stdout


def git_in(project: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``git -C FOLDER ARGS...`` in a repository made at ``project`` (no user or system
    config); the test is skipped without git."""
    found = shutil.which("git")
    if found is None:
        pytest.skip("no git to ask")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}

    def git(folder: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        run = [found, "-C", str(folder), *args]
        return subprocess.run(run, check=check, env=env, capture_output=True, text=True)

    git(project, "init", "-q")
    return git


def test_a_store_copy_keeps_the_skills_gitignore_for_package_and_git(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``skc build skills/demo`` copied ``credentials.json`` and ``deploy.key`` into the store
    copy but not the ``.gitignore`` excluding them (a hidden name): ``skc package demo``
    then zipped both secrets and git offered them. The import carries the skill's
    ``.gitignore`` files; a copy whose ones differ (edited in the folder, or imported before)
    is imported again, by path and by name."""
    files = {"credentials.json": "TOPSECRET", "deploy.key": "KEYSECRET", "refs/a.md": "a"}
    folder = write_skill(project / "skills" / "demo", files=files)
    (folder / ".gitignore").write_text("credentials.json\n")
    (folder / "refs" / ".gitignore").write_text("draft.md\n")
    skc = cli("skillc_index")
    assert skc("build", "skills/demo").returncode == 0
    copy = project / ".skillc" / "skills" / "demo"
    assert (copy / ".gitignore").read_text() == "credentials.json\n"
    assert (copy / "refs" / ".gitignore").read_text() == "draft.md\n"
    (folder / ".gitignore").write_text("credentials.json\n*.key\n")  # the rules alone edited
    assert skc("build", "skills/demo").returncode == 0
    assert (copy / ".gitignore").read_text() == "credentials.json\n*.key\n"
    (copy / ".gitignore").unlink()  # a copy imported before: none
    assert skc("build", "demo").returncode == 0
    assert (copy / ".gitignore").read_text() == "credentials.json\n*.key\n"
    done = skc("package", "demo", "-o", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert "left out  demo/deploy.key  (.gitignore excludes it)" in done.stdout
    archive = zipfile.ZipFile(tmp_path / "out" / "demo.zip")
    assert sorted(archive.namelist()) == ["demo/SKILL.md", "demo/refs/a.md"]
    git = git_in(project)
    status = git(copy, "status", "--porcelain", "--untracked-files=all", ".").stdout
    assert "SKILL.md" in status
    assert "credentials.json" not in status and "deploy.key" not in status


def test_a_store_copy_keeps_a_link_to_what_the_gitignore_excludes_as_a_link(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``skc build skills/demo`` copied ``creds-link.json -> credentials.json`` and ``pub ->
    local`` (both excluded) into the store copy as a regular file and folder holding the
    secrets, so ``skc package demo`` zipped them and git offered them under the links' names.
    The copy keeps such links to files as relative links (git commits the link, package
    leaves it out); ``pub``, a second path to the folder ``local/``, is not walked, so not
    copied; its source hash is the folder's, so a rebuild is up to date; a copy holding the
    content (imported before) is imported again."""
    files = {"credentials.json": "TOPSECRET", "local/key.txt": "KEYSECRET", "refs/a.md": "a"}
    folder = write_skill(project / "skills" / "demo", files=files)
    (folder / ".gitignore").write_text("credentials.json\nlocal/\n")
    (folder / "creds-link.json").symlink_to("credentials.json")
    (folder / "pub").symlink_to("local")
    (folder / "refs" / "key.txt").symlink_to(folder / "local" / "key.txt")  # absolute
    skc = cli("skillc_index")
    assert skc("build", "skills/demo").returncode == 0
    copy = project / ".skillc" / "skills" / "demo"
    links = {rel: str((copy / rel).readlink()) for rel in ("creds-link.json", "refs/key.txt")}
    assert links == {"creds-link.json": "credentials.json", "refs/key.txt": "../local/key.txt"}
    assert not (copy / "pub").is_symlink()
    for given in ("skills/demo", "demo"):
        done = skc("build", given)
        assert done.returncode == 0, done.stderr
        assert "(up to date)" in done.stdout
    (copy / "creds-link.json").unlink()  # a copy imported before: the content under the link
    shutil.copy(folder / "credentials.json", copy / "creds-link.json")
    assert skc("build", "demo").returncode == 0
    assert str((copy / "creds-link.json").readlink()) == "credentials.json"
    done = skc("package", "demo", "-o", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    archive = zipfile.ZipFile(tmp_path / "out" / "demo.zip")
    assert sorted(archive.namelist()) == ["demo/SKILL.md", "demo/refs/a.md"]
    git = git_in(project)
    git(copy, "add", "-A", ".")
    staged = git(copy, "ls-files", "-s", ".").stdout
    assert "120000" in staged and "pub" not in staged
    found = git(copy, "grep", "--cached", "-l", "SECRET", check=False)
    assert found.returncode == 1 and not found.stdout  # no staged file holds a secret


def test_a_store_copy_leaves_out_what_git_ignores_in_the_folder_by_rules_above_it(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path]
) -> None:
    """``skc build skills/demo`` copied what the project's ``.gitignore`` (``skills/*/private/``)
    and ``.git/info/exclude`` keep out of git into the store copy, where no rule ignores it
    and ``git add -A`` commits it. Such files, and a link's content they are, are left out of
    the copy; a tracked file stays, as do the files the skill's own ``.gitignore`` excludes
    (copied with it); the next build is up to date."""
    git = git_in(project)
    files = {
        "private/token.txt": "TOKEN=SECRET1",
        "deploy.key": "SECRET2",
        "kept.key": "committed all the same",
        "credentials.json": "own rule",
        "refs/a.md": "a",
    }
    folder = write_skill(project / "skills" / "demo", files=files)
    (folder / ".gitignore").write_text("credentials.json\n")
    (folder / "alias.txt").symlink_to("private/token.txt")
    with (project / ".gitignore").open("a") as rules:
        rules.write("skills/*/private/\n")
    with (project / ".git" / "info" / "exclude").open("a") as exclude:
        exclude.write("*.key\n")
    git(project, "add", "-f", "skills/demo/kept.key")
    skc = cli("skillc_index")
    assert skc("build", "skills/demo").returncode == 0
    copy = project / ".skillc" / "skills" / "demo"
    held = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file())
    assert held == [
        ".gitignore", ".skillc-import.json", "SKILL.md", "credentials.json", "kept.key",
        "refs/a.md",
    ]  # fmt: skip
    status = git(project, "status", "--porcelain", "--untracked-files=all", str(copy)).stdout
    assert b"SECRET" not in b"".join((project / p[3:]).read_bytes() for p in status.splitlines())
    assert "(up to date)" in skc("build", "skills/demo").stdout


def test_git_is_asked_of_a_folders_files_only_where_it_can_be_and_links_resolved_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``skc build FOLDER`` resolved each file of the folder (17-30 ms for 500 files),
    even outside git: outside git nothing is looked at; in git only what is reached through
    a link is resolved (a folder link's files, the link's target asked of git)."""
    from skillc_index.build import store
    from skillc_index.glob import IgnoreRules

    folder = tmp_path / "demo"
    (folder / "refs").mkdir(parents=True)
    for rel in ("SKILL.md", "a.md", "refs/b.md"):
        (folder / rel).write_text("x")
    (folder / "linked").symlink_to("refs")
    paths = ["SKILL.md", "a.md", "refs/b.md", "linked/b.md"]
    resolved: list[str] = []
    realpath = os.path.realpath

    def counted(path: str, *args: Any, **kwargs: Any) -> str:
        resolved.append(os.fspath(path))
        return realpath(path, *args, **kwargs)

    monkeypatch.setattr(store.os.path, "realpath", counted)
    assert store._ignored_outside(folder, paths, IgnoreRules()) == set()
    outside = list(resolved)
    git_in(folder)(folder, "config", "core.excludesFile", "")
    (folder / ".git" / "info" / "exclude").write_text("refs/b.md\n")
    resolved.clear()
    ignored = store._ignored_outside(folder, paths, IgnoreRules())
    # the folder itself is resolved (git is asked where it really is: a stow-folded link),
    # none of its files outside git, only what a link reaches in git
    assert ([p for p in outside if Path(p) != folder], ignored) == (
        [],
        {"refs/b.md", "linked/b.md"},
    )
    assert [Path(p).name for p in resolved if Path(p) != folder] == ["b.md"]


def test_git_is_started_once_for_a_folder_it_ignores_nothing_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ignored_below`` started git twice on every import (is the folder itself ignored,
    then its files): the files first, and the folder only when some file is ignored (all a
    folder git ignores whole holds is, which says nothing of each: none is left out)."""
    from skillc_index import _git

    git_in(tmp_path)
    folder = tmp_path / "skills" / "demo"
    folder.mkdir(parents=True)
    (folder / "a.md").write_text("a")
    started: list[object] = []
    real = _git._git

    def counted(*args: Any) -> list[str] | None:
        started.append(args)
        return real(*args)

    monkeypatch.setattr(_git, "_git", counted)
    assert (_git.ignored_below(folder, ["a.md"]), len(started)) == (set(), 1)
    (tmp_path / ".gitignore").write_text("*.md\n")
    assert _git.ignored_below(folder, ["a.md"]) == {"a.md"}
    (tmp_path / ".gitignore").write_text("skills/\n")
    assert _git.ignored_below(folder, ["a.md"]) == set()
    # at the top of the work tree (asking of ``../top/`` fails there): the files' answer
    assert _git.ignored_below(tmp_path, ["skills/demo/a.md"]) == {"skills/demo/a.md"}


@pytest.mark.parametrize("store", [(), ("--global",)])
def test_a_folder_imported_into_a_store_is_packaged_as_it_is_now(
    cli: Callable[..., Any],
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    store: tuple[str, ...],
) -> None:
    """``skc package skills/demo`` of a folder built earlier (``skc build skills/demo``, into
    the project or the global store) packaged its store copy: the edits made in the folder
    since the build were left out. A path names the folder, packaged as it is; the bare name
    names the installed skill, the store copy."""
    folder = write_skill(project / "skills" / "demo", files={"refs/a.md": "a"})
    skc = cli("skillc_index")
    assert skc("build", "skills/demo", *store).returncode == 0
    (folder / "refs" / "b.md").write_text("added after the build\n")
    for given, names in [
        ("skills/demo", ["demo/SKILL.md", "demo/refs/a.md", "demo/refs/b.md"]),
        ("demo", ["demo/SKILL.md", "demo/refs/a.md"]),
    ]:
        output = tmp_path / given.replace("/", "-")
        done = skc("package", given, "-o", str(output))
        assert done.returncode == 0, done.stderr
        assert sorted(zipfile.ZipFile(output / "demo.zip").namelist()) == names


def test_an_import_reads_the_folders_gitignore_files_once(
    cli: Callable[..., Any],
    project: Path,
    write_skill: Callable[..., Path],
    count_calls: Callable[[object, str], list[Any]],
) -> None:
    """An import read the folder's ``.gitignore`` files up to three times to parse them and
    three to hash them (the build by name, the plan, the copy): now once each. The folders
    are the walk's, so a folder holding hidden files only brings its ``.gitignore`` too, and
    the copy is then up to date."""
    from skillc_index import digests
    from skillc_index import files as files_module

    folder = write_skill(project / "skills" / "demo", files={"refs/a.md": "a"})
    (folder / ".gitignore").write_text("credentials.json\n")
    (folder / "refs" / ".gitignore").write_text("draft.md\n")
    (folder / "quiet").mkdir()
    (folder / "quiet" / ".gitignore").write_text("*.tmp\n")
    skc = cli("skillc_index")
    assert skc("build", "skills/demo").returncode == 0
    copy = project / ".skillc" / "skills" / "demo"
    assert (copy / "quiet" / ".gitignore").read_text() == "*.tmp\n"
    assert "(up to date)" in skc("build", "demo").stdout
    (folder / ".gitignore").write_text("credentials.json\n*.key\n")  # the rules alone edited
    parsed = count_calls(files_module, "read_in_root")
    hashed = count_calls(digests, "file_sha256")
    done = skc("build", "demo")
    assert done.returncode == 0, done.stderr
    assert (copy / ".gitignore").read_text() == "credentials.json\n*.key\n"
    rules = str(folder.resolve() / ".gitignore")
    assert sum(str(call[0] / call[1]) == rules for call in parsed) == 1
    assert sum(call[0] == rules for call in hashed) == 1


def test_an_import_refuses_gitignore_files_over_their_bounds_as_package_does(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``skc package skills/demo`` refused a folder whose ``.gitignore`` files are over their
    bounds (E070), but ``skc build skills/demo`` imported it with ``creds-link.json ->
    credentials.json`` copied as a regular file holding the secret (which links to keep was
    unknown). The import is E070 too, by path and by name, and nothing is copied."""
    folder = write_skill(project / "skills" / "demo", files={"credentials.json": "TOPSECRET"})
    (folder / "creds-link.json").symlink_to("credentials.json")
    too_many = "credentials.json\n" + "".join(f"pattern{n}\n" for n in range(1000))
    (folder / ".gitignore").write_text(too_many)
    skc = cli("skillc_index")
    copy = project / ".skillc" / "skills" / "demo"
    said = "error[E070]: cannot import 'skills/demo': its .gitignore files hold over 1000 patterns"
    refused = skc("build", "skills/demo")
    assert refused.returncode == 1
    assert said in refused.stderr and "Traceback" not in refused.stderr
    assert not copy.exists()
    assert "error[E070]" in skc("package", "skills/demo", "-o", str(tmp_path / "out")).stderr
    (folder / ".gitignore").write_text("credentials.json\n")
    assert skc("build", "skills/demo").returncode == 0
    assert str((copy / "creds-link.json").readlink()) == "credentials.json"
    (folder / ".gitignore").write_text(too_many)
    refused = skc("build", "demo")  # the store copy, whose folder is imported again
    assert refused.returncode == 1 and said in refused.stderr
    assert (copy / ".gitignore").read_text() == "credentials.json\n"
    assert str((copy / "creds-link.json").readlink()) == "credentials.json"


def test_a_file_holding_a_key_is_warned_of_masked(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """A private key and a token file (what skillc-lint's SKL904 reports) went into a
    publishable package without a word: each file holding one is a warning, the key masked
    as SKL904 masks it; a placeholder, a binary file and a left-out file are not."""
    token = "ghp_" + "iK2ZWeqhFWCEPyYngFb51yBMWXaSCrUZoL8g"  # assembled: no key in this file
    body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
    files = {
        "id_ed25519": f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH ...\n",
        "config.json": f'{{"token": "{token}"}}\n',
        "sample.env": "KEY=AKIAIOSFODNN7EXAMPLE\n",  # a placeholder
        "blob.bin": f"\0{token}",  # binary
        "evals/keys.txt": token,  # never packaged
    }
    folder = write_skill(project / "deployer", files=files)
    result = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    assert [n.text for n in result.warnings] == [
        "deployer: config.json holds a GitHub token (ghp_iK…8g): packaged all the same; "
        "anyone who installs the skill can read it (SKL904)",
        "deployer: id_ed25519 holds a private key block: packaged all the same; anyone who "
        "installs the skill can read it (SKL904)",
    ]
    assert token not in json.dumps(result.to_dict())


def test_a_markdown_file_is_looked_through_for_keys_as_far_as_the_linter_reads_it(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """A key past the first 256 KiB of a Markdown file, which skillc-lint's SKL904 reads
    whole, went into the package without a word (``skc package`` read 256 KiB of every file):
    a Markdown file is looked through as the linter reads it; a script still its first 256
    KiB (the linter's ``TEXT_LIMIT``)."""
    from skillc_index.secrets import TEXT_LIMIT

    token = "ghp_" + "iK2ZWeqhFWCEPyYngFb51yBMWXaSCrUZoL8g"  # assembled: no key in this file
    padding = ("word " * 15 + "four\n") * (TEXT_LIMIT // 80 + 1)  # over TEXT_LIMIT
    files = {"refs/setup.md": f"{padding}token: {token}\n", "run.sh": f"{padding}T={token}\n"}
    folder = write_skill(project / "deployer", files=files)
    result = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    assert [n.text for n in result.warnings] == [
        "deployer: refs/setup.md holds a GitHub token (ghp_iK…8g): packaged all the same; "
        "anyone who installs the skill can read it (SKL904)",
    ]


def test_a_folder_renamed_its_name_not_is_packaged_under_the_name_build_deploys(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path]
) -> None:
    """A skill's folder renamed (``pdf-forms`` to ``pdf-filler``), its ``name:`` not: build
    deployed ``.claude/skills/pdf-filler`` and package wrote ``pdf-forms.zip`` and a plugin
    named ``pdf-forms``, both without a word. Package takes the name build deploys (the
    folder's), the frontmatter's set to it and said, as a build's projection does."""
    write_skill(project / ".skillc" / "skills" / "pdf-filler", name="pdf-forms")
    run = cli("skillc-index", script=True)
    built = run("build", "pdf-filler", "--target", "claude")
    assert built.returncode == 0, built.stderr
    assert (project / ".claude" / "skills" / "pdf-filler").is_dir()
    done = run("package", "pdf-filler", "-o", "out")
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in (project / "out").iterdir()) == [
        ".skillc-package.json",
        "pdf-filler.zip",
    ]
    with zipfile.ZipFile(project / "out" / "pdf-filler.zip") as archive:
        assert archive.namelist() == ["pdf-filler/SKILL.md"]
        assert archive.read("pdf-filler/SKILL.md").decode().startswith("---\nname: pdf-filler\n")
    assert "'name' set to 'pdf-filler', the name of its folder" in done.stderr
    plugin = run("package", "pdf-filler", "--to", "plugin", "-o", "plugin")
    assert plugin.returncode == 0, plugin.stderr
    made = project / "plugin" / "pdf-filler"
    assert json.loads((made / "plugin.json").read_text(encoding="utf-8"))["name"] == "pdf-filler"
    assert (made / "skills" / "pdf-filler" / "SKILL.md").is_file()
