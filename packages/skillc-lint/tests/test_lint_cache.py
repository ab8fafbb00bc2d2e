"""The result cache (lint README, "The result cache"): a second run reports the same from the
cache, and every input of a finding invalidates it: a byte of any file of the skill, a file
its .gitignore excludes, an execute bit, a hidden path, a sibling skill, the rules and their
configuration. A corrupt cache is never a crash; two runs at once share it."""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from skillc_lint._cache import CACHE_FILE, ResultCache, cache_dir

Run = Callable[..., "subprocess.CompletedProcess[str]"]
Writer = Callable[..., Path]


@pytest.fixture
def cache(home: Path) -> Path:
    """The cache folder the command line uses in these tests (conftest's ``clean_env``)."""
    return home / "cache"


def outputs(lint: Run, *args: str) -> dict[str, tuple[int, str, str]]:
    """The run's text, JSON and SARIF outputs (exit status, stdout, stderr)."""
    found = {}
    for output in ("text", "json", "sarif"):
        done = lint(*args, "--format", output, "-j", "1")
        found[output] = (done.returncode, done.stdout, done.stderr)
    return found


def stored(cache: Path) -> list[tuple[str, bytes]]:
    with closing(sqlite3.connect(cache / CACHE_FILE)) as db, db:
        return list(db.execute("SELECT key, value FROM results ORDER BY key"))


def rewrite(cache: Path, change: Callable[[bytes], bytes]) -> None:
    """Every stored value replaced by ``change(value)``."""
    db = sqlite3.connect(cache / CACHE_FILE)
    with db:
        for key, value in stored(cache):
            db.execute("UPDATE results SET value = ? WHERE key = ?", (change(value), key))
    db.close()


def same_as_fresh(lint: Run, *args: str) -> None:
    """The run from the cache reports what a run without it reports."""
    assert outputs(lint, *args) == outputs(lint, *args, "--no-cache")


def test_the_second_run_comes_from_the_cache_and_says_the_same(
    lint: Run, skill: Writer, cache: Path
) -> None:
    folder = skill(body="See [the guide](guide.md) and [gone](missing.md).\n")
    first = outputs(lint, str(folder))
    assert len(stored(cache)) == 1  # the three formats: one result
    assert outputs(lint, str(folder)) == first
    assert "missing.md" in first["json"][1]

    # what the second run printed was the stored result: a changed one is what it prints
    def marked(value: bytes) -> bytes:
        return value.replace(b"missing.md", b"MISSING.md")

    rewrite(cache, marked)
    assert "MISSING.md" in lint(str(folder), "--format", "json").stdout
    assert "MISSING.md" not in lint(str(folder), "--format", "json", "--no-cache").stdout


def test_no_cache_neither_reads_nor_writes(lint: Run, skill: Writer, cache: Path) -> None:
    folder = skill()
    lint(str(folder), "--no-cache")
    assert not cache.exists()


@pytest.mark.parametrize(
    ("path", "before", "after"),
    [
        ("SKILL.md", None, None),  # a byte of SKILL.md (its body's link)
        ("references/api.md", "[x](a.md)\n", "[x](b.md)\n"),  # another Markdown file
        ("scripts/run.sh", "cat /home/alice/data\n", "cat /home/alicf/data\n"),  # any file
    ],
)
def test_a_changed_byte_of_any_file_invalidates(
    lint: Run, skill: Writer, path: str, before: str | None, after: str | None
) -> None:
    files = {"references/api.md": "[x](a.md)\n", "scripts/run.sh": "cat /home/alice/data\n"}
    folder = skill(
        body="See `references/api.md`; run `bash scripts/run.sh`. [t](t1.md)\n", files=files
    )
    first = outputs(lint, str(folder))
    target = folder / path
    if before is None:
        target.write_text(target.read_text().replace("t1.md", "t2.md"))
    else:
        target.write_text(after or "")
    second = outputs(lint, str(folder))
    assert second != first
    same_as_fresh(lint, str(folder))


def test_an_execute_bit_invalidates(lint: Run, skill: Writer) -> None:
    folder = skill(body="Run `scripts/go.sh` to start.\n", files={"scripts/go.sh": "echo hi\n"})
    first = lint(str(folder), "--format", "json").stdout
    assert "SKL908" in first
    (folder / "scripts/go.sh").chmod(0o755)
    assert "SKL908" not in lint(str(folder), "--format", "json").stdout


def test_a_hidden_path_a_link_names_invalidates(lint: Run, skill: Writer) -> None:
    folder = skill(body="See [notes](.notes/todo.md).\n")
    assert "SKL301" in lint(str(folder), "--format", "json").stdout
    (folder / ".notes").mkdir()
    (folder / ".notes/todo.md").write_text("# Todo\n")
    same_as_fresh(lint, str(folder))
    # there now, but hidden: no package holds it (SKL301 says why, no longer "not found" alone)
    assert "link target is never packaged: '.notes/todo.md' (hidden)" in lint(str(folder)).stderr


def test_where_a_link_leads_out_of_the_package_invalidates(lint: Run, skill: Writer) -> None:
    """SKL301 says why no package holds a link's target (:meth:`Skill.never_packaged`, a
    probe): ``deps -> node_modules`` made ``deps -> .vendor`` changes no file the walk lists
    and no text, yet the reason; the cached result is not reused."""
    files = {"node_modules/a.js": "a\n", ".vendor/a.js": "v\n"}
    folder = skill(body="See [a](deps/a.js).\n", files=files)
    (folder / "deps").symlink_to("node_modules")
    assert "in node_modules/, a folder skillc skips" in lint(str(folder)).stderr
    (folder / "deps").unlink()
    (folder / "deps").symlink_to(".vendor")
    same_as_fresh(lint, str(folder))
    said = lint(str(folder)).stderr
    assert "leads to '.vendor/a.js', hidden" in said and "node_modules" not in said


def test_a_file_the_gitignore_excludes_invalidates(lint: Run, skill: Writer) -> None:
    # SKL301 says the .gitignore excludes build/x.md; once it is gone, the link is only missing
    files = {".gitignore": "build/\n", "build/x.md": "hi\n"}
    folder = skill(body="See [x](build/x.md) and [b](build/).\n", files=files)
    assert "excludes it" in lint(str(folder), "--format", "json").stdout
    (folder / "build/x.md").unlink()
    after = lint(str(folder), "--format", "json").stdout
    assert after == lint(str(folder), "--format", "json", "--no-cache").stdout
    assert "excludes it" not in after


def test_a_markdown_files_bom_is_read_with_its_text_and_keys_the_result(skill: Writer) -> None:
    """The BOM a Markdown file starts with (SKL100, SKL901) is noted from the read of its
    text: no second open, no probe asked again on each hit; a BOM added (the text the same)
    is a new key."""
    from skillc_index.text import BOM_BYTES
    from skillc_lint._cache import result_key
    from skillc_lint._skill import Skill

    folder = skill(files={"a.md": "# A\n"})
    (folder / "a.md").write_bytes("# A\n".encode("utf-16"))
    checked = Skill(folder)
    assert (checked.bom("a.md"), checked.bom("SKILL.md")) == ("UTF-16", None)
    assert checked.probes == {}
    (folder / "SKILL.md").write_bytes(BOM_BYTES + (folder / "SKILL.md").read_bytes())
    again = Skill(folder)
    assert again.texts == checked.texts
    assert again.bom("SKILL.md") == "UTF-8"
    assert result_key(again, "rules") != result_key(checked, "rules")


def test_a_sibling_skill_invalidates(
    lint: Run, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    collection = tmp_path / "skills"
    one = write_skill(
        collection / "one", "one", "Does one thing. Use for one.", "[two](../two/SKILL.md)\n"
    )
    before = lint(str(one), "--format", "json").stdout
    write_skill(collection / "two", "two", "Does two things. Use for two.", "")
    after = lint(str(one), "--format", "json").stdout
    assert json.loads(after) != json.loads(before)
    same_as_fresh(lint, str(one))


def test_the_configuration_invalidates(lint: Run, skill: Writer, cwd: Path) -> None:
    folder = skill(body="See [gone](missing.md).\n")
    assert '"severity": "error"' in lint(str(folder), "--format", "json").stdout
    assert "SKL301" not in lint(str(folder), "--format", "json", "--ignore", "SKL301").stdout
    config = cwd / ".skillc" / "config.toml"
    config.parent.mkdir()
    config.write_text('[lint]\nSKL301 = "warning"\n')
    found = json.loads(lint(str(folder), "--format", "json", "--config", str(config)).stdout)
    assert {d["severity"] for d in found["diagnostics"] if d["rule"] == "SKL301"} == {"warning"}
    same_as_fresh(lint, str(folder), "--config", str(config))


def test_a_corrupt_cache_is_never_a_crash(lint: Run, skill: Writer, cache: Path) -> None:
    folder = skill(body="See [gone](missing.md).\n")
    first = outputs(lint, str(folder))
    rewrite(cache, lambda value: value[: len(value) // 2])  # a cut value
    assert outputs(lint, str(folder)) == first
    # a value naming another class is not read back (nothing in it runs)
    rewrite(cache, lambda value: pickle.dumps(((os.system, ("true",)), ())))
    assert outputs(lint, str(folder)) == first
    (cache / CACHE_FILE).write_bytes(b"not a database" * 100)  # a file that is no database
    for extra in ("-wal", "-shm"):
        (cache / (CACHE_FILE + extra)).unlink(missing_ok=True)
    again = outputs(lint, str(folder))  # made anew, said once (the first of the three runs)
    assert again["text"][2].startswith("warning: the lint cache")
    assert again == first | {"text": (*first["text"][:2], again["text"][2])}


def _damaged_in_its_tables(path: Path) -> None:
    """The schema page of the database at ``path`` overwritten (its header kept)."""
    data = bytearray(path.read_bytes())
    data[100:4096] = os.urandom(3996)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(os.urandom(8192)),  # random bytes
        _damaged_in_its_tables,  # malformed
    ],
    ids=["random", "malformed"],
)
def test_a_damaged_cache_is_made_anew_with_one_warning(
    lint: Run, skill: Writer, cache: Path, damage: Callable[[Path], None]
) -> None:
    """A cache database that is no database (or malformed) was never rebuilt nor mentioned:
    every later run linted without it. It is removed and made anew, with one warning."""
    folder = skill(body="See [gone](missing.md).\n")
    first = lint(str(folder), "-j", "1")
    assert len(stored(cache)) == 1
    for extra in ("-wal", "-shm"):
        (cache / (CACHE_FILE + extra)).unlink(missing_ok=True)
    damage(cache / CACHE_FILE)
    renewed = lint(str(folder), "-j", "1")
    assert renewed.stdout == first.stdout and renewed.returncode == first.returncode
    assert renewed.stderr.count("warning:") == 1, renewed.stderr
    assert f"the lint cache '{cache / CACHE_FILE}' was damaged" in renewed.stderr
    assert len(stored(cache)) == 1  # a sound cache again, the result stored
    later = lint(str(folder), "-j", "1")
    assert (later.stdout, later.stderr) == (first.stdout, first.stderr)


def test_a_folder_at_the_cache_s_name_is_never_removed(
    lint: Run, skill: Writer, cache: Path
) -> None:
    folder = skill()
    (cache / CACHE_FILE).mkdir(parents=True)
    (cache / CACHE_FILE / "mine.txt").write_text("kept")
    done = lint(str(folder), "-j", "1")
    assert done.returncode == 0 and "warning" not in done.stderr
    assert (cache / CACHE_FILE / "mine.txt").read_text() == "kept"


def test_fixes_are_never_taken_from_the_cache(lint: Run, skill: Writer) -> None:
    folder = skill(body="See [the guide](GUIDE.md).\n", files={"guide.md": "# Guide\n"})
    assert "SKL301" in lint(str(folder), "--format", "json").stdout
    lint(str(folder), "--fix")
    assert "(guide.md)" in (folder / "SKILL.md").read_text()
    same_as_fresh(lint, str(folder))
    assert "SKL301" not in lint(str(folder), "--format", "json").stdout


def test_suppressions_written_are_seen_by_the_next_run(lint: Run, skill: Writer) -> None:
    folder = skill(body="See [gone](missing.md).\n")
    assert lint(str(folder)).returncode == 1
    assert lint(str(folder), "--add-suppressions").returncode == 0
    assert lint(str(folder)).returncode == 0
    same_as_fresh(lint, str(folder))


def test_two_runs_at_once_share_the_cache(
    tmp_path: Path, write_skill: Callable[..., Path], clean_env: dict[str, str]
) -> None:
    collection = tmp_path / "skills"
    for n in range(12):
        write_skill(collection / f"s{n}", f"s{n}", "Does a thing. Use for it.", f"[x](x{n}.md)\n")
    command = [sys.executable, "-m", "skillc_lint", str(collection), "--format", "json"]
    runs = [
        subprocess.Popen(
            [*command, "-j", jobs], env=clean_env, stdout=subprocess.PIPE, cwd=tmp_path
        )
        for jobs in ("2", "1")
    ]
    printed = [run.communicate(timeout=300)[0] for run in runs]
    fresh = subprocess.run(
        [*command, "--no-cache"], env=clean_env, capture_output=True, check=False, cwd=tmp_path
    ).stdout
    assert printed == [fresh, fresh]
    assert len(stored(Path(clean_env["SKILLC_CACHE_DIR"]))) == 12
    again = subprocess.run(command, env=clean_env, capture_output=True, check=False, cwd=tmp_path)
    assert again.stdout == fresh


def test_the_cache_keeps_its_bound(skill: Writer, tmp_path: Path) -> None:
    from skillc_lint import lint_skill

    cache = ResultCache(tmp_path / "c")
    for n in range(5):
        lint_skill(skill(f"s{n}"), cache=cache)
    cache.evict(keep=3)
    assert len(stored(tmp_path / "c")) == 3
    cache.close()


def test_a_result_over_the_bound_is_not_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result holds every finding (the cap is its reader's): a skill of 100,000 orphaned
    files stored 19 MB, and each warm run read it back (295 MB). One larger than
    MAX_RESULT_BYTES (here 50,000: 1,000 findings are ~100 KB) is not stored, the skill
    linted again and capped the same; a small one of the same run is, every finding."""
    import skillc_lint._cache as results
    from skillc_lint import lint_skill

    def links(name: str, count: int) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        front = f"---\nname: {name}\ndescription: M. Use when m.\n---\n\n# {name}\n\n"
        body = "".join(f"[x](gone-{n}.md)" + ("\n\n" if n % 10 == 9 else " ") for n in range(count))
        (folder / "SKILL.md").write_text(front + body, encoding="utf-8")
        return folder

    monkeypatch.setattr(results, "MAX_RESULT_BYTES", 50_000)
    small, large = links("small", 150), links("large", 1_000)
    cache = ResultCache(tmp_path / "c")
    assert len(lint_skill(small, cache=cache).diagnostics) == 101
    assert len(lint_skill(large, cache=cache, cap=False).diagnostics) == 1_000
    cache.close()
    ((_, value),) = stored(tmp_path / "c")  # the small one's alone
    fields, _ = pickle.loads(value)
    assert (fields[0], len(fields[1])) == ("small", 150)  # every finding, uncapped
    again = ResultCache(tmp_path / "c")
    assert len(lint_skill(large, cache=again).diagnostics) == 101  # linted again, capped
    assert len(lint_skill(small, cache=again).diagnostics) == 101  # (from the cache)
    again.close()
    assert len(stored(tmp_path / "c")) == 1


def test_a_one_process_run_stores_every_result_it_batched(skill: Writer, tmp_path: Path) -> None:
    """A one-process run stores its results in batches: all of them at its end, more than a
    batch too, and those linted before the caller stopped reading."""
    from skillc_lint import default_registry, lint_folders
    from skillc_lint._cache import BATCH

    folders = [skill(f"s{n}") for n in range(BATCH + 3)]
    registry = default_registry()
    assert len(list(lint_folders(folders, registry, cache=tmp_path / "all"))) == BATCH + 3
    assert len(stored(tmp_path / "all")) == BATCH + 3
    run = lint_folders(folders, registry, cache=tmp_path / "some")
    for _ in range(5):
        next(run)
    run.close()
    assert len(stored(tmp_path / "some")) == 5


def test_a_batch_that_cannot_be_stored_is_dropped_without_a_trace(
    skill: Writer, tmp_path: Path
) -> None:
    """A batch whose transaction fails (here the table is gone) is rolled back, not raised,
    and the cache's connection is left out of any transaction for the next write."""
    from skillc_lint import lint_skill

    cache = ResultCache(tmp_path / "c", batch=64)
    lint_skill(skill("s0"), cache=cache)  # opens the database, keeps its result
    lint_skill(skill("s1"), cache=cache)
    other = sqlite3.connect(tmp_path / "c" / CACHE_FILE)
    other.execute("ALTER TABLE results RENAME TO gone")
    other.commit()
    cache.flush()
    assert cache._db is not None and not cache._db.in_transaction
    other.execute("ALTER TABLE gone RENAME TO results")
    other.commit()
    other.close()
    lint_skill(skill("s2"), cache=cache)
    cache.close()
    assert len(stored(tmp_path / "c")) == 1


def test_the_cache_folder(tmp_path: Path) -> None:
    """``SKILLC_CACHE_DIR``, else under ``SKILLC_HOME`` (which replaces the home folder for
    every path of skillc's: the cache went to the real home's), else the user's cache."""
    assert cache_dir({"SKILLC_CACHE_DIR": str(tmp_path)}) == tmp_path
    home = tmp_path / "home"
    given = {"SKILLC_HOME": str(home), "SKILLC_CACHE_DIR": str(tmp_path / "c")}
    assert cache_dir(given) == tmp_path / "c"
    del given["SKILLC_CACHE_DIR"]
    assert cache_dir(given) == home.resolve() / ".cache" / "skillc" / "lint"
    assert cache_dir({}).parts[-2:] in {("skillc", "lint"), ("Cache", "lint")}


@pytest.mark.parametrize("value", ["", "relative"])
def test_a_home_platformdirs_cannot_find_puts_the_cache_under_skillcs_home(
    value: str,
    lint: Run,
    skill: Writer,
    tmp_path: Path,
    cwd: Path,
    clean_env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``HOME=""`` or a relative one and no ``XDG_CACHE_HOME``: platformdirs raised
    ``RuntimeError`` (the lint was E999); the cache would be under the home folder skillc
    uses, here a user without one (no entry in the password database): :data:`NO_HOME`
    (moved into the test's folder, root could make the real one), where nothing is made (as
    root, ``/nonexistent/.cache/skillc/lint`` was): the run is not cached."""
    import pwd

    from skillc_index import layout

    def unknown(uid: int) -> object:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", unknown)
    monkeypatch.setattr(layout, "NO_HOME", tmp_path / "nonexistent")
    clean_env.pop("XDG_CACHE_HOME", None)
    clean_env.update(HOME=value, SKILLC_HOME="", SKILLC_CACHE_DIR="")  # the command's
    at_root = Path("/.cache/skillc/lint", CACHE_FILE)
    there = at_root.exists()
    done = lint(str(skill()), "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "E999" not in done.stderr
    assert not (tmp_path / "nonexistent").exists()
    assert list(cwd.iterdir()) == []  # not under the working folder (relative HOME)
    assert at_root.exists() == there  # nor at /.cache (HOME="")


@pytest.mark.parametrize("value", ["", "relative"])
def test_what_older_platformdirs_answer_for_no_home_is_not_used(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Older platformdirs answer ``expanduser("~/.cache/skillc")`` whatever ``$HOME`` is:
    ``/.cache/skillc`` for ``HOME=""`` (before 4.12), a folder relative to the working one for
    a relative ``HOME`` (before 4.14; the newest on Python 3.10 is 4.12). The cache is
    under the home folder skillc uses instead (the password database's here)."""
    import platformdirs

    from skillc_index.homes import user_home

    monkeypatch.setattr(
        platformdirs,
        "user_cache_dir",
        lambda *_, **__: os.path.expanduser("~/.cache/skillc"),  # noqa: PTH111 (as it did)
    )
    monkeypatch.setenv("HOME", value)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    env = {"HOME": value}
    assert cache_dir(env) == user_home(env) / ".cache" / "skillc" / "lint"
    assert cache_dir(env).is_absolute()


def test_a_run_from_the_cache_imports_neither_parser(
    lint: Run, skill: Writer, clean_env: dict[str, str]
) -> None:
    """A cached result needs no parse: the run that reads it loads neither markdown-it nor
    PyYAML (the code's fingerprint reads their versions from their files; importing them
    cost a one-skill run about 50 ms)."""
    folder = skill(body="See [the guide](guide.md).\n", frontmatter={"metadata": {"a": "b"}})
    lint(str(folder))  # stores the result
    code = (
        "import sys\n"
        "from skillc_lint.cli import main\n"
        f"status = main([{str(folder)!r}])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('markdown_it', 'yaml')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=clean_env, capture_output=True, text=True, check=False
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", (done.stdout, done.stderr)


def test_clean_removes_only_the_cache_files(lint: Run, skill: Writer, cache: Path) -> None:
    lint(str(skill()), "-j", "1")
    assert (cache / CACHE_FILE).is_file()
    (cache / "notes.txt").write_text("mine\n", encoding="utf-8")
    (cache / f"{CACHE_FILE}-shm").unlink(missing_ok=True)
    (cache / f"{CACHE_FILE}-shm").mkdir()  # so named but not the cache's: it stays
    before = sorted(path.name for path in cache.iterdir())

    done = lint("clean")
    assert done.returncode == 0, done.stderr
    gone = [name for name in before if not (cache / name).exists()]
    assert CACHE_FILE in gone
    assert done.stdout.splitlines() == [f"removed {cache / name}" for name in gone]
    assert sorted(path.name for path in cache.iterdir()) == [f"{CACHE_FILE}-shm", "notes.txt"]

    again = lint("clean", "--format", "json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == {"cache_dir": str(cache), "removed": []}
    assert lint("clean").stdout == f"nothing to remove in {cache}\n"


def test_clean_of_a_cache_folder_that_is_a_file_has_nothing_to_remove(
    lint: Run, cache: Path
) -> None:
    """``SKILLC_CACHE_DIR`` naming a regular file: nothing of skillc's is there, as for a
    dangling link (it was E999 "cannot remove '<file>/lint-cache.db': Not a directory")."""
    cache.write_text("mine\n", encoding="utf-8")
    done = lint("clean")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"nothing to remove in {cache}\n", "")
    assert cache.read_text(encoding="utf-8") == "mine\n"


def test_a_relative_cache_dir_is_warned_about_and_ignored(
    lint: Run, skill: Writer, home: Path, clean_env: dict[str, str]
) -> None:
    """``SKILLC_CACHE_DIR=lintcache`` was taken against each working folder: a lint run in a
    skill folder wrote ``lintcache/lint-cache.db`` into the skill (which ``package`` then
    shipped). As a relative ``SKILLC_HOME``: warned about and ignored."""
    folder = skill()
    clean_env["SKILLC_CACHE_DIR"] = "lintcache"
    warning = (
        "warning: environment variable SKILLC_CACHE_DIR='lintcache' is not an absolute path;"
        " ignored"
    )
    done = lint(".", "-j", "1", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(warning) == 1
    assert sorted(path.name for path in folder.iterdir()) == ["SKILL.md"]
    default = home / ".cache" / "skillc" / "lint"  # where it goes with SKILLC_HOME set
    assert (default / CACHE_FILE).is_file()
    assert cache_dir(clean_env) == default
    done = lint("clean", cwd=folder)
    assert (done.returncode, done.stderr.strip()) == (0, warning)
    assert done.stdout == f"removed {default / CACHE_FILE}\n"
    assert cache_dir({**clean_env, "SKILLC_CACHE_DIR": str(home / "lc")}) == home / "lc"


def test_clean_json_lists_what_it_removed(lint: Run, skill: Writer, cache: Path) -> None:
    lint(str(skill()), "-j", "1")
    done = lint("clean", "--format", "json", script=True)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["cache_dir"] == str(cache)
    assert str(cache / CACHE_FILE) in found["removed"]
    assert not (cache / CACHE_FILE).exists()
    # the next run lints again and stores its result anew
    lint(str(skill()), "-j", "1")
    assert len(stored(cache)) == 1


def test_clean_help_shows_an_example(lint: Run) -> None:
    done = lint("clean", "--help")
    assert done.returncode == 0
    assert "skillc-lint clean --format json" in done.stdout
    assert "SKILLC_CACHE_DIR" in done.stdout


def test_the_cache_is_its_owners_alone(lint: Run, skill: Writer, cache: Path) -> None:
    """Under ``umask 022`` the cache, which keeps the lines of the user's skills, was made
    0o644, readable by every user of the machine: it is made 0o600."""
    import stat

    old = os.umask(0o022)
    try:
        lint(str(skill(body="Plain text.\n")))
    finally:
        os.umask(old)
    assert stat.S_IMODE((cache / CACHE_FILE).stat().st_mode) == 0o600


def emptied(value: bytes) -> bytes:
    """A stored result with its findings taken out: what another user who can write the
    cache makes of it (a clean lint of a skill with errors)."""
    fields, probes = pickle.loads(value)  # the test's own cache
    name, _diagnostics, *rest = fields
    return pickle.dumps(((name, (), *rest), probes))


WARNING = (
    "warning: the lint cache '{}' is owned by another user (uid 4242), so it is not used: set "
    "SKILLC_CACHE_DIR to a folder of your own"
)


@pytest.mark.parametrize("part", ["", CACHE_FILE, f"{CACHE_FILE}-wal"])
def test_a_cache_another_user_owns_is_never_trusted(
    lint: Run, skill: Writer, cache: Path, owned_by: Callable[..., None], part: str
) -> None:
    """A shared ``SKILLC_CACHE_DIR`` (``/tmp/lint-cache``) another user made, or could write:
    they emptied the stored findings and the user's lint said 0 errors. Not used now: the
    skills are linted, one warning says why, and nothing is written there."""
    folders = [skill(name, body="See [gone](missing.md).\n") for name in ("one", "two")]
    first = lint(*map(str, folders), "-j", "1")
    assert (first.returncode, first.stdout.splitlines()[-1]) == (
        1,
        "2 skills: 2 errors, 0 warnings",
    )
    rewrite(cache, emptied)
    forged = stored(cache)
    assert lint(*map(str, folders), "-j", "1").returncode == 0  # the user's own: trusted
    (cache / part).touch()
    owned_by(cache / part)
    for jobs in ("1", "2"):
        done = lint(*map(str, folders), "-j", jobs)
        assert (done.returncode, done.stdout) == (first.returncode, first.stdout)
        assert done.stderr.splitlines().count(WARNING.format(cache / part)) == 1, done.stderr
    assert stored(cache) == forged  # nothing written there either
    assert ResultCache(cache)._connection() is None  # nor by the API's own use


@pytest.mark.parametrize("depth", [1, 2])
def test_a_cache_in_a_folder_another_user_made_is_never_trusted(
    skill: Writer,
    tmp_path: Path,
    cli: Callable[..., Run],
    cwd: Path,
    owned_by: Callable[..., None],
    depth: int,
) -> None:
    """``SKILLC_CACHE_DIR=/tmp/x/cache`` (or ``/tmp/x/y/cache``) where another user made
    ``/tmp/x`` and all in it: each part passed as its folder's owner's, and their emptied
    findings made a clean lint. The folders above it are judged up to ``/`` (the user's own
    home folder is elsewhere): the skill is linted, one warning names the folder."""
    folder = skill(body="See [gone](missing.md).\n")
    x = (tmp_path / "x").resolve()
    shared = x / "y" / "cache" if depth == 2 else x / "cache"
    run = cli("skillc-lint")
    env = {"SKILLC_CACHE_DIR": str(shared)}
    first = run(str(folder), "-j", "1", cwd=cwd, env_extra=env)
    assert first.returncode == 1
    rewrite(shared, emptied)
    assert run(str(folder), "-j", "1", cwd=cwd, env_extra=env).returncode == 0  # trusted
    for path in (x, *x.rglob("*")):
        owned_by(path)
    done = run(str(folder), "-j", "1", cwd=cwd, env_extra=env)
    assert (done.returncode, done.stdout) == (first.returncode, first.stdout)
    warning = (
        f"warning: the lint cache '{shared}' is in '{x}', which is owned by another user "
        "(uid 4242), so it is not used: set SKILLC_CACHE_DIR to a folder of your own"
    )
    assert done.stderr.splitlines().count(warning) == 1, done.stderr


def test_clean_removes_nothing_of_a_cache_another_user_owns(
    lint: Run, skill: Writer, cache: Path, owned_by: Callable[..., None]
) -> None:
    """``skillc-lint clean`` with a shared ``SKILLC_CACHE_DIR`` another user made removed
    their files (where the folder's mode let it): nothing skillc did not make for this user
    is deleted. E999 says why, and everything stays."""
    lint(str(skill()), "-j", "1")
    before = sorted(path.name for path in cache.iterdir())
    assert CACHE_FILE in before
    owned_by(cache)
    done = lint("clean")
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"error[E999]: cannot remove '{cache}': the lint cache '{cache}' is owned by another"
        " user (uid 4242)"
    ), done.stderr
    assert "nothing removed" in done.stderr
    assert sorted(path.name for path in cache.iterdir()) == before


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_the_installed_skillc_lint_lints_past_a_cache_another_uid_made(
    lint: Run, skill: Writer, tmp_path: Path, cli: Callable[..., Run], cwd: Path
) -> None:
    """The audit's case with a real second uid: ``nobody``'s cache (0777, its database 0666)
    with the findings emptied: the installed ``skillc-lint`` reports the errors."""
    folder = skill(body="See [gone](missing.md).\n")
    shared = tmp_path / "lint-cache"
    env = {"SKILLC_CACHE_DIR": str(shared)}
    first = cli("skillc-lint", script=True)(str(folder), cwd=cwd, env_extra=env)
    assert first.returncode == 1
    rewrite(shared, emptied)
    for path in (shared, *shared.iterdir()):
        os.chown(path, 65534, 65534)
        path.chmod(0o777)
    done = cli("skillc-lint", script=True)(str(folder), cwd=cwd, env_extra=env)
    assert (done.returncode, done.stdout) == (first.returncode, first.stdout)
    assert done.stderr.splitlines()[0] == (
        f"warning: the lint cache '{shared}' is owned by another user (nobody, uid 65534), so "
        "it is not used: set SKILLC_CACHE_DIR to a folder of your own"
    )


def test_a_run_whose_last_skill_fails_stores_the_others_when_it_ends(
    lint: Run, cwd: Path, cache: Path, unreadable: Callable[[Path], None]
) -> None:
    """The run's cache (its batch of results, its connection) was stored and closed only when
    the garbage collector finalized the pool's generator, the last skill having failed (E999:
    its generator held the error): a run with the collector off stored none of the others'
    results, and Python 3.13 warned of the connection the collector closed. It is closed as
    the run ends."""
    import gc

    text = "---\nname: {name}\ndescription: Formats tables. Use when tables need it.\n---\n"
    for name in ("a", "b"):
        (cwd / "skills" / name).mkdir(parents=True)
        (cwd / "skills" / name / "SKILL.md").write_text(text.format(name=name), "utf-8")
    secret = cwd / "skills" / "b" / "references" / "secret.md"
    secret.parent.mkdir()
    secret.write_text("# S\n", encoding="utf-8")
    unreadable(secret)
    gc.collect()
    gc.disable()
    try:
        done = lint("skills", "--format", "json", "-j", "1")
        assert done.returncode == 1 and "E999" in done.stdout, done.stderr
        assert len(stored(cache)) == 1  # skill a's, stored as the run ended
    finally:
        gc.enable()
