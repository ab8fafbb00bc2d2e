"""Tests of the installed ``skc`` whose commands span packages (search and build, sync and
outline), moved here from the package suites, whose CI envs install one package and not
``skc``: what the user meets through the umbrella's one command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

OwnedBy = Callable[..., None]
NOBODY = 65534
as_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root"
)


def test_search_names_a_hit_s_file_as_it_is_on_disk(
    project: Path, cli: Callable[..., Any], write_skill: Callable[..., Path]
) -> None:
    """``é.md`` written decomposed (as macOS writes it) beside its composed twin: each hit
    names its own file as on disk (skillc-index's ``test_a_hit_names_its_file_as_it_is_on_disk``
    for the index itself)."""
    nfc, nfd = "\u00e9.md", "e\u0301.md"
    skill = write_skill(project / ".skillc" / "skills" / "demo")
    (skill / nfc).write_text("# One\n\nnfc okapi\n", encoding="utf-8")
    (skill / nfd).write_text("# Two\n\nnfd okapi\n", encoding="utf-8")
    done = cli("skc", process=True)("search", "demo", "okapi", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert sorted(hit["file"] for hit in json.loads(done.stdout)["results"]) == [nfd, nfc]


def test_every_command_refuses_another_users_home(
    home: Path, owned_by: OwnedBy, cli: Callable[..., Callable[..., object]]
) -> None:
    """``list`` and ``sync --to team`` (whose ``[stats] url`` is the other user's) both stop
    at the home: ``error[E999]``, exit 1, no traceback, nothing sent."""
    (home / ".skillc").mkdir()
    config = home / ".skillc" / "config.toml"
    config.write_text('[stats]\nurl = "postgresql://x:y@127.0.0.1:1/steal"\n', encoding="utf-8")
    owned_by(config)
    skc = cli("skc")
    for args in (("list",), ("sync", "--to", "team"), ("outline", "rust")):
        done = skc(*args)
        assert done.returncode == 1, (args, done.stderr)  # type: ignore[attr-defined]
        assert done.stderr.startswith(  # type: ignore[attr-defined]
            f"error[E999]: '{config}' in the skillc home '{home}' is owned by another user"
        )
        assert "Traceback" not in done.stderr  # type: ignore[attr-defined]
        assert "E043" not in done.stderr  # type: ignore[attr-defined]


@as_root
def test_the_installed_skc_writes_no_query_into_another_uids_folder(
    tmp_path: Path,
    home: Path,
    cli: Callable[..., Callable[..., object]],
    write_skill: Callable[..., Path],
) -> None:
    """The audit's case: ``nobody`` made ``.skillc/logs/<skill>/.skillc-meta`` (0777) in a
    shared folder; the user's primary log cannot be written; ``skc search`` there answers,
    warns, and leaves the query nowhere ``nobody`` can read. The warning says the use was not
    logged and why, and nothing else: W002 followed it, saying to run ``skc sync``, which
    refuses that log too (there was nothing to merge)."""
    write_skill(home / ".skillc" / "skills" / "rust", body="## Install\n\nCargo.\n")
    skc = cli("skc", script=True)
    assert skc("build", "rust", "--global").returncode == 0  # type: ignore[attr-defined]
    log = home / ".skillc" / "runtime" / "rust" / ".skillc-meta" / "logs.db"
    log.unlink()
    log.mkdir()  # the primary cannot be written, even by root
    shared = (tmp_path / "shared").resolve()
    meta = shared / ".skillc" / "logs" / "rust" / ".skillc-meta"
    meta.mkdir(parents=True)
    shared.chmod(0o1777)
    for path in (shared / ".skillc", *(shared / ".skillc").rglob("*")):
        os.chown(path, NOBODY, NOBODY)
        path.chmod(0o777)
    done = skc("search", "rust", "merger with globex", cwd=shared)
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]
    assert done.stderr.splitlines() == [  # type: ignore[attr-defined]
        "warning: this use was not logged: access log "
        "'~/.skillc/runtime/rust/.skillc-meta/logs.db' could not be written, and access log "
        "'.skillc/logs/rust/.skillc-meta/logs.db' is in '.skillc', which is owned by another "
        "user (nobody, uid 65534)"
    ]
    assert "sync" not in done.stderr  # type: ignore[attr-defined]
    assert list(meta.iterdir()) == []


@pytest.mark.skipif(os.name != "posix", reason="the kit runs itself again on POSIX only")
def test_the_installed_skc_writes_utf8_in_the_c_locale(
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
    project: Path,
    write_skill: Callable[..., Path],
) -> None:
    """What the user meets in the C locale with UTF-8 mode off: ``skc outline`` writes its
    headings, and an error its diagnostic, as UTF-8 (click writes UTF-8 to a stream named
    ASCII, as under ``PYTHONIOENCODING=ascii``: the README's known limit), not the ASCII
    with escapes the text streams hold (skillc-index's ``test_streams.py``)."""
    write_skill(project / "cafe", body="## Caf\u00e9 \u2615\n\nText.\n")
    skc = cli("skc", script=True)
    c_locale = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    c_locale["PYTHONIOENCODING"] = ""  # empty: as not set, whatever the tests run under
    done = skc("outline", "./cafe", env_extra=c_locale)
    assert done.returncode == 0, done.stderr
    assert "## Caf\u00e9 \u2615" in done.stdout  # decoded as UTF-8: no escape
    missing = skc("show", "./cafe", "--section", "n\u00f6pe \u2615", env_extra=c_locale)
    assert missing.returncode == 1
    assert missing.stderr.startswith("error[E020]: section not found: 'n\u00f6pe \u2615'")


#: Runs a command as root without its override of file permissions (a user's view).
UNPRIVILEGED = (
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search",
    "--bounding-set=-dac_override,-dac_read_search",
)


def test_a_folder_imported_from_that_cannot_be_read_fails_its_skill_alone(
    project: Path,
    clean_env: dict[str, str],
    script_path: Callable[[str], Path],
    write_skill: Callable[..., Path],
) -> None:
    """The audit's case: a skill built from ``packages/secret/``, a folder that then becomes
    mode 000 (another team's). ``build --all``, ``stats --all`` and ``stats alpha`` (another
    skill) stopped at ``error[E999]: PermissionError``, building nothing, and ``list`` said
    the folder was gone and advised ``rm -r`` of the store copy. Now ``build --all`` fails
    that skill alone, with an error line naming it; ``stats`` answers; ``list`` says the
    folder cannot be read and advises nothing. Run as a user would (root without its
    override of permissions, under setpriv)."""
    write_skill(project / "packages" / "team-a" / "skills" / "alpha")
    write_skill(project / "packages" / "secret" / "skills" / "secret-skill")
    prefix = UNPRIVILEGED if os.geteuid() == 0 and shutil.which("setpriv") else ()

    def skc(*args: str) -> subprocess.CompletedProcess[str]:
        command = [*prefix, str(script_path("skc")), *args]
        return subprocess.run(
            command, cwd=project, env=clean_env, capture_output=True, text=True, timeout=120
        )

    assert skc("init").returncode == 0
    built = skc("build", "packages")
    assert built.returncode == 0, built.stderr
    secret = project / "packages" / "secret"
    secret.chmod(0o000)
    try:
        if subprocess.run([*prefix, "ls", str(secret)], capture_output=True).returncode == 0:
            pytest.skip("permissions do not apply here")
        runs = {args: skc(*args) for args in (("build", "--all"), ("stats", "--all"))}
        runs["stats", "alpha"] = skc("stats", "alpha")
        runs["list",] = skc("list")
        for named in (("secret-skill", "alpha"), (".skillc/skills",)):  # not --all: the same
            runs[("build", *named)] = skc("build", *named)
    finally:
        secret.chmod(0o755)
    origin = secret / "skills" / "secret-skill"
    build = runs["build", "--all"]
    assert build.returncode == 1
    assert build.stderr.splitlines() == [
        f"error[E999]: .skillc/skills/secret-skill: cannot read '{origin}': Permission denied"
    ]
    assert build.stdout.splitlines()[-1] == "2 skills: 0 built, 1 up to date, 1 failed"
    assert build.stdout.startswith("up to date  alpha ")
    for label, named in (
        ("secret-skill", ("secret-skill", "alpha")),  # its label: the name as given
        (".skillc/skills/secret-skill", (".skillc/skills",)),
    ):
        built = runs[("build", *named)]
        assert built.returncode == 1
        assert built.stderr.splitlines() == [
            f"error[E999]: {label}: cannot read '{origin}': Permission denied"
        ]
        assert built.stdout.splitlines()[-1] == "2 skills: 0 built, 1 up to date, 1 failed"
    for args in (("stats", "--all"), ("stats", "alpha")):
        assert runs[args].returncode == 0, runs[args].stderr
    assert "alpha" in runs["stats", "alpha"].stdout
    listed = runs["list",]
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr.splitlines() == [
        "warning: skill 'secret-skill' (.skillc/skills/secret-skill) was imported from "
        "packages/secret/skills/secret-skill, which cannot be read (Permission denied); its "
        "store copy is listed as it is"
    ]


def test_a_nested_lookup_cut_at_its_bound_says_so_and_walks_in_name_order(
    project: Path, cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]]
) -> None:
    """The audit's case: a monorepo of more packages than the nested ``.claude/skills``
    lookup lists (``NESTED_FOLDERS``), some with their own skills. The lookup stopped in
    silence, in ``os.scandir`` order: ``list``, ``find`` and ``outline`` saw a different few
    of them, ``find`` said ``partial: false``, ``outline`` of one past the bound was a bare
    E001. Now the folders are walked in name order (the first packages' skills are seen,
    the same on every run) and each command says the lookup was cut short."""
    from skillc_index.inventory.nested import NESTED_FOLDERS

    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=60)
    count = NESTED_FOLDERS + 100
    for i in range(count):
        package = project / "packages" / f"p{i:04d}"
        (package / "src").mkdir(parents=True)
        if i % 100 == 0:
            skill = package / ".claude" / "skills" / f"team-skill-{i:04d}"
            skill.mkdir(parents=True)
            (skill / "SKILL.md").write_text(
                f"---\nname: team-skill-{i:04d}\ndescription: Use when doing team {i} work.\n"
                "---\n\n# T\n",
                encoding="utf-8",
            )
    # listed: the project, packages/, then the packages in name order up to the bound
    seen = {f"team-skill-{i:04d}" for i in range(0, NESTED_FOLDERS - 2, 100)}
    warning = (
        f"warning: {project} holds more than {NESTED_FOLDERS:,} folders within 3 levels: "
        "only the first, in name order, were searched for nested .claude/skills folders"
    )
    skc = cli("skc", script=True)
    listed = skc("list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert {skill["name"] for skill in json.loads(listed.stdout)["skills"]} == seen
    assert listed.stderr.splitlines() == [warning]
    found = skc("find", "team work", "--limit", "100", "--format", "json")
    assert found.returncode == 0, found.stderr
    answer = json.loads(found.stdout)
    assert {skill["name"] for skill in answer["skills"]} == seen
    assert answer["partial"] is True
    assert answer["warnings"] == [warning]
    past = skc("outline", f"team-skill-{count - 100:04d}")
    assert past.returncode == 1
    assert past.stderr.splitlines()[1].startswith(f"hint: {warning[len('warning: ') :]}; ")
