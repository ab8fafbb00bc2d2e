"""Storage layout and skill resolution (RFC-0007:C-RESOLUTION, DECISIONS "Paths and resolution")."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import (
    KNOWN_TARGETS,
    InvalidOption,
    Layout,
    NotASkill,
    resolve_skill,
    skill_name_problem,
)
from skillc_index.diagnostics import PathEscapesRoot, SkillNotFound
from skillc_index.homes import home_dir
from skillc_index.import_record import ImportRecord
from skillc_index.layout import IMPORT_RECORD, MAX_SHOWN, not_packaged, require_skill_name, shown
from skillc_index.option_errors import UnknownTarget

WriteSkill = Callable[..., Path]


def test_skillc_home_replaces_home(home: Path) -> None:
    assert home_dir({"SKILLC_HOME": str(home)}) == home.resolve()
    assert home_dir({}) == Path.home().resolve()


@pytest.mark.parametrize("value", ["", "relative/home"])
def test_a_home_that_is_no_absolute_path_is_the_users_own(value: str) -> None:
    """``HOME=""`` made the home ``/``: every command wrote ``/.skillc``."""
    import pwd

    own = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()
    assert home_dir({"HOME": value}) == own
    assert home_dir({"HOME": str(own / "x")}) == own / "x"


@pytest.mark.parametrize("value", [None, "", "relative/home"])
def test_a_user_with_no_home_has_the_documented_none(
    value: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A uid with no entry in the password database (``docker run -u 4321``) and no absolute
    ``$HOME``: ``Path.home()`` raised (E999 in every command) or took a relative ``$HOME``
    against the working folder; it is :data:`NO_HOME`, nothing there."""
    import pwd

    from skillc_index.homes import user_home
    from skillc_index.layout import NO_HOME

    def unknown(uid: int) -> object:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", unknown)
    monkeypatch.delenv("HOME", raising=False)
    env = {} if value is None else {"HOME": value}
    assert home_dir(env) == user_home(env) == NO_HOME == Path("/nonexistent")
    assert home_dir({**env, "SKILLC_HOME": "/somewhere"}) == Path("/somewhere").resolve()


@pytest.mark.parametrize("value", [".skillc-home", "./h", "~nouser-of-skillc/h"])
def test_a_skillc_home_that_is_no_absolute_path_is_warned_about_and_ignored(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RFC-0009: an invalid value is warned about and ignored. A relative ``SKILLC_HOME``
    was taken against each working folder (each its own global store), ``~nouser/h`` made a
    folder named ``~nouser`` there."""
    from skillc_index import load_config

    home = tmp_path / "h"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(home))  # what ``~`` expands to
    env = {"SKILLC_HOME": value, "HOME": str(home)}
    layout = Layout.discover(tmp_path / "project", env)
    assert home_dir(env) == layout.home == home
    assert [notice.text for notice in load_config(layout, env=env).notices] == [
        f"environment variable SKILLC_HOME={value!r} is not an absolute path; ignored"
    ]
    assert home_dir({"SKILLC_HOME": "~/x", "HOME": str(home)}) == home / "x"
    assert not load_config(layout, env={"SKILLC_HOME": "~/x", "HOME": str(home)}).notices


def test_project_root_is_found_walking_up(project: Path, env: dict[str, str]) -> None:
    deep = project / "src" / "pkg"
    deep.mkdir(parents=True)
    layout = Layout.discover(deep, env)
    assert layout.project_root == project.resolve()
    assert layout.store("project") == project.resolve() / ".skillc" / "skills"
    assert layout.runtime_store("project") == project.resolve() / ".skillc" / "runtime"


def test_config_toml_is_not_needed_and_home_is_never_a_project(
    home: Path, env: dict[str, str]
) -> None:
    (home / ".skillc" / "skills").mkdir(parents=True)
    inside = home / "work"
    inside.mkdir()
    assert Layout.discover(home, env).project_root is None
    assert Layout.discover(inside, env).project_root is None
    assert Layout.discover(home, env).scopes() == ("global",)


def test_the_users_own_home_is_no_project_while_skillc_home_replaces_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``SKILLC_HOME`` set, a checkout under ``~`` without ``.skillc/`` took the real
    home's global store for its project: built into ``~/.skillc/runtime``, deployed where
    ``~/.skillc/config.toml`` said, linted by its ``[lint]``."""
    from skillc_index import find_config
    from skillc_index.layout import find_project_root

    real = (tmp_path / "realhome").resolve()
    (real / ".skillc" / "skills" / "mine").mkdir(parents=True)
    (real / ".skillc" / "config.toml").write_text('[lint]\nSKL108 = "off"\n', encoding="utf-8")
    checkout = real / "code" / "checkout"
    checkout.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(real))
    env = {"HOME": str(real), "SKILLC_HOME": str(tmp_path / "isolated")}
    layout = Layout.discover(checkout, env)
    assert layout.project_root is None
    assert layout.scopes() == ("global",)
    assert find_project_root(checkout, layout.home) is None
    assert find_config(checkout, layout) is None
    (checkout / ".skillc").mkdir()  # its own project still is one
    assert Layout.discover(checkout, env).project_root == checkout


def test_find_config_passes_over_the_home_of_the_env_the_layout_was_discovered_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With an ``env`` whose ``HOME`` is not the process's, ``find_config`` took that home's
    ``.skillc/config.toml`` for a project's config, where the layout refused its folder."""
    from skillc_index import find_config

    given = (tmp_path / "givenhome").resolve()
    (given / ".skillc").mkdir(parents=True)
    (given / ".skillc" / "config.toml").write_text('[lint]\nSKL108 = "off"\n', encoding="utf-8")
    skill = given / "code" / "skill"
    skill.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "processhome"))
    env = {"HOME": str(given), "SKILLC_HOME": str(tmp_path / "isolated")}
    layout = Layout.discover(skill, env)
    assert layout.project_root is None
    assert find_config(skill, layout) is None


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_another_users_skillc_folder_is_passed_over_with_a_warning(
    tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``.skillc/`` another user made in a shared parent (``/tmp/.skillc``) became the
    project of everyone working below it without their own: skills imported into that
    user's store, deployed where its config said, linted by its ``[lint]``. As git's
    ``safe.directory``, only the current user's, root's or its folder owner's counts."""
    from skillc_index import find_config, load_config

    shared = (tmp_path / "shared").resolve()
    (shared / ".skillc" / "skills").mkdir(parents=True)
    (shared / ".skillc" / "config.toml").write_text('[lint]\nSKL108 = "off"\n', encoding="utf-8")
    work = shared / "mywork"
    work.mkdir()
    os.chown(shared / ".skillc", 65534, 65534)  # nobody's
    layout = Layout.discover(work, env)
    assert layout.project_root is None
    assert layout.foreign == (shared / ".skillc",)
    assert find_config(work, layout) is None
    assert [notice.text for notice in load_config(layout).notices] == [
        f"{shared / '.skillc'} is owned by another user, so it is not taken as the project: a "
        ".skillc/ counts only when the current user, root or the owner of its folder owns it "
        "(chown it if it is yours)"
    ]
    (work / ".skillc").mkdir()  # the user's own below it is the project, without a word
    assert Layout.discover(work, env)[:4] == (work, layout.home, work, ())
    os.chown(shared / ".skillc", 0, 0)  # root's counts for every user
    monkeypatch.setattr(os, "geteuid", lambda: 65533)
    assert Layout.discover(shared, env).project_root == shared
    os.chown(shared / ".skillc", 65533, 65533)  # and one's own
    assert Layout.discover(shared, env).project_root == shared
    # another user's link to a folder root owns is theirs (/tmp/.skillc -> /tmp was trusted)
    target = (tmp_path / "roots").resolve()
    (target / "skills").mkdir(parents=True)
    os.chown(shared / ".skillc", 0, 0)
    (shared / ".skillc").rename(tmp_path / "aside")
    (shared / ".skillc").symlink_to(target, target_is_directory=True)
    os.lchown(shared / ".skillc", 65534, 65534)
    assert Layout.discover(shared, env).project_root is None
    (shared / ".skillc").unlink()
    (tmp_path / "aside").rename(shared / ".skillc")
    # a checkout's .skillc/ is its owner's, whoever runs there (CI: root over uid 1001's)
    monkeypatch.undo()
    (work / ".skillc").rmdir()
    os.chown(shared, 65532, 65532)
    os.chown(shared / ".skillc", 65532, 65532)
    assert Layout.discover(work, env).project_root == shared


def test_a_log_fallback_folder_is_not_a_project(tmp_path: Path, env: dict[str, str]) -> None:
    outer = tmp_path / "outer"
    (outer / ".skillc" / "skills").mkdir(parents=True)
    inner = outer / "sub"
    (inner / ".skillc" / "logs" / "demo").mkdir(parents=True)  # what the log fallback makes
    assert Layout.discover(inner, env).project_root == outer.resolve()
    (inner / ".skillc" / "config.toml").write_text("", encoding="utf-8")
    assert Layout.discover(inner, env).project_root == inner.resolve()


def test_global_paths_follow_skillc_home(layout: Layout, home: Path) -> None:
    assert layout.store("global") == home.resolve() / ".skillc" / "skills"
    assert layout.runtime_store("global") == home.resolve() / ".skillc" / "runtime"
    assert layout.global_config == home.resolve() / ".skillc" / "config.toml"


def test_resolve_by_name_project_first(layout: Layout, write_skill: WriteSkill) -> None:
    write_skill(layout.store("global") / "rust")
    local = write_skill(layout.store("project") / "rust")
    found = resolve_skill("rust", layout)
    assert found.source == local.resolve()
    assert found.scope == "project"
    assert found.in_store
    assert found.runtime == layout.runtime_store("project") / "rust"


def test_resolve_global_name(layout: Layout, write_skill: WriteSkill) -> None:
    source = write_skill(layout.store("global") / "cuda")
    found = resolve_skill("cuda", layout)
    assert (found.source, found.scope) == (source.resolve(), "global")
    assert found.runtime == layout.runtime_store("global") / "cuda"


def test_a_path_object_is_resolved_as_its_text(
    layout: Layout, write_skill: WriteSkill, tmp_path: Path
) -> None:
    """A ``pathlib.Path`` (any ``os.PathLike``) is the path it names (it raised TypeError)."""
    outside = write_skill(tmp_path / "elsewhere" / "rust")
    assert resolve_skill(outside, layout) == resolve_skill(str(outside), layout)
    with pytest.raises(SkillNotFound):
        resolve_skill(Path("no-such-skill"), layout)


def test_path_wins_over_names(layout: Layout, write_skill: WriteSkill, tmp_path: Path) -> None:
    write_skill(layout.store("project") / "rust")
    outside = write_skill(tmp_path / "elsewhere" / "rust")
    found = resolve_skill(str(outside), layout)
    assert found.source == outside.resolve()
    assert not found.in_store
    assert found.scope == "project"  # outside any store, inside a project: project runtime


def test_relative_path_from_cwd(layout: Layout, write_skill: WriteSkill) -> None:
    write_skill(layout.cwd / "skills" / "mine")
    assert resolve_skill("skills/mine", layout).name == "mine"
    assert resolve_skill("./skills/mine/", layout).name == "mine"


def test_a_skill_md_path_is_its_folder_and_another_file_is_said_to_be_one(
    layout: Layout, write_skill: WriteSkill
) -> None:
    """``skc outline demo/SKILL.md`` (a path tab-completed to the file) was E001 with no hint,
    where skillc-lint lints the skill: a ``SKILL.md`` names its folder, and another file is
    E001 saying what it is."""
    write_skill(layout.cwd / "skills" / "mine")
    (layout.cwd / "notes.txt").write_text("x\n", encoding="utf-8")
    assert resolve_skill("skills/mine/SKILL.md", layout) == resolve_skill("skills/mine/", layout)
    for given in ("skills/mine/SKILL.md", "./skills/mine/SKILL.md"):  # run's too: a path
        assert resolve_skill(given, layout, stores_only=True).name == "mine"
    for given in ("notes.txt", "skills/mine/../../notes.txt"):
        with pytest.raises(SkillNotFound) as caught:
            resolve_skill(given, layout)
        assert (
            caught.value.diagnostic.detail == f"hint: '{given}' is a file; name the skill's folder"
        )
    with pytest.raises(SkillNotFound) as missing:  # no file there: no such hint
        resolve_skill("skills/other/SKILL.md", layout)
    assert missing.value.diagnostic.detail == ""


def test_outside_path_without_project_uses_global_runtime(
    write_skill: WriteSkill, tmp_path: Path, env: dict[str, str]
) -> None:
    write_skill(tmp_path / "loose" / "solo")
    layout = Layout.discover(tmp_path / "loose", env)
    found = resolve_skill("solo", layout)
    assert found.scope == "global"
    assert found.runtime == layout.runtime_store("global") / "solo"


def test_force_global(layout: Layout, write_skill: WriteSkill) -> None:
    write_skill(layout.store("project") / "rust")
    found = resolve_skill("rust", layout, force_global=True)
    assert found.runtime == layout.runtime_store("global") / "rust"
    assert not found.in_store


def test_e010_for_folder_without_skill_md(layout: Layout) -> None:
    (layout.store("project") / "empty").mkdir()
    with pytest.raises(NotASkill) as caught:
        resolve_skill("empty", layout)
    assert caught.value.diagnostic.code == "E010"
    (layout.cwd / "plain").mkdir()
    with pytest.raises(NotASkill, match="'plain'"):
        resolve_skill("plain", layout)


def test_a_skill_folder_that_cannot_be_searched_is_unreadable_naming_it(
    layout: Layout, write_skill: WriteSkill, unreadable: Callable[[Path], None]
) -> None:
    """A store skill's folder without search permission (mode 644 or 000): every command
    naming it (``show``, ``build``, ``lint``, the MCP tools) was ``error[E999]:
    PermissionError: [Errno 13] ...`` (pathlib's ``is_file`` raises on ``EACCES``); it is
    ``cannot read '<folder>': Permission denied``, by name and by path."""
    from skillc_index.diagnostics import UnreadableFile

    folder = write_skill(layout.store("project") / "locked")
    unreadable(folder)
    for given in ("locked", str(folder)):
        with pytest.raises(UnreadableFile) as caught:
            resolve_skill(given, layout)
        assert str(caught.value) == f"error[E999]: cannot read '{folder}': Permission denied"


def test_folder_without_skill_md_does_not_hide_a_store_skill(
    layout: Layout, write_skill: WriteSkill
) -> None:
    (layout.cwd / "rust").mkdir()
    write_skill(layout.store("project") / "rust")
    assert resolve_skill("rust", layout).in_store


def test_e001_when_nothing_is_found(layout: Layout) -> None:
    with pytest.raises(SkillNotFound) as caught:
        resolve_skill("nope", layout)
    assert str(caught.value) == "error[E001]: skill 'nope' not found"


def test_e001_suggests_near_store_names(layout: Layout, write_skill: WriteSkill) -> None:
    write_skill(layout.store("project") / "python-testing")
    write_skill(layout.store("global") / "python-typing")
    write_skill(layout.store("global") / "rust")
    (layout.store("global") / "python-test").mkdir()  # no SKILL.md: not a skill, not named
    with pytest.raises(SkillNotFound) as caught:
        resolve_skill("python-tsting", layout)
    lines = str(caught.value).splitlines()
    assert lines[0] == "error[E001]: skill 'python-tsting' not found"  # RFC-0005, unchanged
    assert lines[1] == "hint: did you mean 'python-testing' or 'python-typing'?"
    assert caught.value.suggestions == ("python-testing", "python-typing")
    assert len(lines) == 2


def test_e001_suggests_at_most_three_names_and_none_when_nothing_is_near(
    layout: Layout, write_skill: WriteSkill
) -> None:
    for name in ("data-a", "data-b", "data-c", "data-d"):
        write_skill(layout.store("project") / name)
    with pytest.raises(SkillNotFound) as caught:
        resolve_skill("data-x", layout)
    assert len(caught.value.suggestions) == 3
    assert caught.value.diagnostic.detail.startswith("hint: did you mean 'data-")
    with pytest.raises(SkillNotFound) as far:
        resolve_skill("kubernetes", layout)
    assert str(far.value) == "error[E001]: skill 'kubernetes' not found"


def test_names_never_traverse_out_of_the_store(layout: Layout, write_skill: WriteSkill) -> None:
    # <store>/../x exists, but "../x" is only ever a path (from the cwd), never a store name.
    write_skill(layout.store("project").parent / "x")
    with pytest.raises(SkillNotFound):
        resolve_skill("../x", layout)


def test_symlinked_skill_resolves_to_its_real_path(
    layout: Layout, write_skill: WriteSkill, tmp_path: Path
) -> None:
    real = write_skill(tmp_path / "real" / "linked")
    (layout.store("project") / "linked").symlink_to(real)
    assert resolve_skill("linked", layout).source == real.resolve()


def test_the_agent_folders_of_many_targets_parse_each_entry_once(
    layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``target_root`` parsed every ``[targets]`` entry to find one (``agent_targets``), and
    ``AgentFolders`` asks it for each target: 4,000 entries made ``skc build`` take 24 s and
    ``skc list`` 9 s. It parses the entry it looks up, so all the folders parse each once."""
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.targets import AgentTarget

    parsed: list[str] = []
    parse = AgentTarget.parse.__func__  # type: ignore[attr-defined]

    def counted(cls: type[AgentTarget], spec: str) -> AgentTarget:
        parsed.append(spec)
        return parse(cls, spec)  # type: ignore[no-any-return]

    monkeypatch.setattr(AgentTarget, "parse", classmethod(counted))
    configured = {f"t{i}": f"x/t{i}" for i in range(1000)}
    folders = AgentFolders("project", layout, configured)
    assert len(folders.roots) == len(KNOWN_TARGETS) + 1000
    assert folders.roots["t999"] == layout.cwd / "x" / "t999"
    assert len(parsed) <= 2 * len(configured)


def test_targets(layout: Layout, home: Path) -> None:
    assert set(KNOWN_TARGETS) == {
        "agents",
        "claude",
        "codex",
        "copilot",
        "cursor",
        "gemini",
        "kiro",
        "opencode",
        "trae",
    }
    assert layout.target_root("claude", "project") == layout.cwd / ".claude" / "skills"
    assert layout.target_root("copilot", "project") == layout.cwd / ".github" / "skills"
    assert layout.target_root("copilot", "global") == home.resolve() / ".copilot" / "skills"
    assert layout.target_root("opencode", "project") == layout.cwd / ".opencode" / "skills"
    assert (
        layout.target_root("opencode", "global")
        == home.resolve() / ".config" / "opencode" / "skills"
    )
    for scope, base in (("project", layout.cwd), ("global", home.resolve())):
        for agent in ("agents", "codex"):
            assert layout.target_root(agent, scope) == base / ".agents" / "skills"  # type: ignore[arg-type]
    # a home-only [targets] entry: the home folder, for a project skill too
    assert (
        layout.target_root("mine", "project", {"mine": "~/agents/skills"})
        == home.resolve() / "agents" / "skills"
    )
    assert (
        layout.target_root("claude", "project", {"claude": "elsewhere/skills"})
        == layout.cwd / "elsewhere" / "skills"
    )
    assert (
        layout.target_root("mine", "global", {"mine": "~/agents/skills"})
        == home.resolve() / "agents" / "skills"
    )
    assert layout.target_root("./out/skills", "project") == layout.cwd / "out" / "skills"
    with pytest.raises(UnknownTarget, match="unknown target 'nope'") as caught:
        layout.target_root("nope", "project")
    assert caught.value.target == "nope" and "claude" in caught.value.known


def test_display_paths(layout: Layout, home: Path) -> None:
    assert layout.display(layout.cwd / ".skillc" / "skills" / "a") == ".skillc/skills/a"
    assert layout.display(home.resolve() / ".skillc") == "~/.skillc"
    assert layout.display(Path("/elsewhere/x")) == "/elsewhere/x"


@pytest.mark.parametrize("name", ["a", "my-skill", "skill123", "a" * 64])
def test_valid_names(name: str) -> None:
    assert skill_name_problem(name) is None


@pytest.mark.parametrize(
    "name", ["", "My-Skill", "-skill", "skill-", "a--b", "skill_name", "../x", "a" * 65]
)
def test_invalid_names(name: str) -> None:
    assert skill_name_problem(name)


@pytest.mark.parametrize("name", ["abc\n", "a\nb", "-x", ".x", "a b", "a\tb", "é"])
def test_names_with_line_breaks_or_leading_marks_are_invalid(name: str) -> None:
    assert skill_name_problem(name)
    with pytest.raises(InvalidOption) as caught:
        require_skill_name(name)
    assert "\n" not in str(caught.value)  # one error line, whatever the name holds


def test_a_long_name_is_quoted_cut_as_the_kit_cuts() -> None:
    """A name too long to quote is cut by :func:`~skillc_index.text.cut_middle`: its start and
    its end, the white space the cut leaves next to the ellipsis dropped."""
    name = "a" * (MAX_SHOWN // 2 - 2) + " " * 5 + "b" * 500 + " " * 5 + "c" * (MAX_SHOWN // 2 - 3)
    cut = "a" * (MAX_SHOWN // 2 - 2) + "…" + "c" * (MAX_SHOWN // 2 - 3)
    with pytest.raises(InvalidOption) as caught:
        require_skill_name(name)
    assert f"'{cut}'" in str(caught.value)
    assert shown(name) == cut


# -- names vs paths (issue 13: a checkout cannot take a store skill's name) ------------------


def test_stores_only_never_takes_a_cwd_folder_for_a_bare_name(
    layout: Layout, write_skill: WriteSkill
) -> None:
    trusted = write_skill(layout.store("global") / "gt")
    write_skill(layout.cwd / "gt")
    assert resolve_skill("gt", layout).source == (layout.cwd / "gt").resolve()  # reads: folder
    assert resolve_skill("gt", layout, stores_only=True).source == trusted.resolve()
    for written in ("./gt", "gt/", str(layout.cwd / "gt")):
        found = resolve_skill(written, layout, stores_only=True)
        assert found.source == (layout.cwd / "gt").resolve(), written


def test_stores_only_without_a_store_skill_is_e001_with_a_hint(
    layout: Layout, write_skill: WriteSkill
) -> None:
    write_skill(layout.cwd / "gt")
    with pytest.raises(SkillNotFound) as caught:
        resolve_skill("gt", layout, stores_only=True)
    assert str(caught.value).splitlines()[0] == "error[E001]: skill 'gt' not found"
    assert "'./gt'" in caught.value.diagnostic.detail


def test_a_cwd_folder_shadowing_a_store_skill_carries_a_warning(
    layout: Layout, write_skill: WriteSkill, home: Path
) -> None:
    write_skill(layout.store("global") / "gt")
    write_skill(layout.cwd / "gt")
    [notice] = resolve_skill("gt", layout).notices
    assert "./gt" in notice.text and "~/.skillc/skills/gt" in notice.text
    assert resolve_skill("./gt", layout).notices == ()  # written as a path: no surprise
    assert resolve_skill("gt", layout, stores_only=True).notices == ()


def test_stores_only_warns_when_the_projects_store_skill_shadows_a_global_one(
    layout: Layout, write_skill: WriteSkill
) -> None:
    """``run``/``exec`` in a checkout shipping ``.skillc/skills/gt`` run its code, not the
    user's global ``gt``: said as ``build`` says the same shadowing, naming both."""
    write_skill(layout.store("global") / "gt")
    assert resolve_skill("gt", layout, stores_only=True).notices == ()
    project = write_skill(layout.store("project") / "gt")
    found = resolve_skill("gt", layout, stores_only=True)
    assert found.source == project.resolve()
    [notice] = found.notices
    assert notice.text == (
        "the project's 'gt' shadows the global 'gt' in this project (.skillc/skills/gt): the "
        f"project's runs here; give the global one's path to run it: {layout.store('global')}/gt"
    )
    assert resolve_skill("gt", layout).notices == ()  # reads: RFC-0007's order, said by build


def test_an_imported_folder_resolves_to_its_store_copy(
    layout: Layout, write_skill: WriteSkill
) -> None:
    folder = write_skill(layout.cwd / "mine").resolve()
    copy = write_skill(layout.store("project") / "mine")
    (copy / IMPORT_RECORD).write_bytes(ImportRecord(str(folder), "0" * 64).to_bytes())
    for given in ("mine", "./mine", str(folder)):
        found = resolve_skill(given, layout)
        assert (found.source, found.imported_from) == (copy.resolve(), folder), given
        assert found.in_store and found.notices == ()
    # a record naming another folder: the folder is its own skill, with a warning
    (copy / IMPORT_RECORD).write_bytes(ImportRecord("/elsewhere/mine", "0" * 64).to_bytes())
    found = resolve_skill("mine", layout)
    assert (found.source, found.imported_from, len(found.notices)) == (folder, None, 1)


def test_a_skill_md_leading_out_of_its_folder_is_e012_by_path_and_by_name(
    layout: Layout, write_skill: WriteSkill, tmp_path: Path
) -> None:
    """``skills/demo/SKILL.md -> ../../../outside/SKILL.md`` resolved, so ``sources``,
    ``outline`` and ``search`` answered an empty skill (rc 0) and ``show`` E020, where the
    commands that walk its files said E012: resolving it is E012. A link inside stays one."""
    outside = write_skill(tmp_path / "outside" / "demo")
    for folder in (layout.cwd / "skills" / "demo", layout.store("project") / "demo"):
        folder.mkdir(parents=True)
        (folder / "SKILL.md").symlink_to(os.path.relpath(outside / "SKILL.md", folder))
    for given, folder in [
        ("skills/demo", layout.cwd / "skills" / "demo"),
        ("demo", layout.store("project") / "demo"),
    ]:
        with pytest.raises(PathEscapesRoot) as caught:
            resolve_skill(given, layout)
        assert caught.value.path == str(folder / "SKILL.md")  # as lint names it
    inner = write_skill(layout.cwd / "inner")
    (inner / "SKILL.md").rename(inner / "real.md")
    (inner / "SKILL.md").symlink_to("real.md")
    assert resolve_skill("./inner", layout).source == inner.resolve()


@pytest.mark.parametrize("data", [b"", b"[]", b"{", b'{"origin": 1}', b"\xff"])
def test_an_unreadable_import_record_is_no_record(
    layout: Layout, write_skill: WriteSkill, data: bytes
) -> None:
    copy = write_skill(layout.store("project") / "mine")
    (copy / IMPORT_RECORD).write_bytes(data)
    assert ImportRecord.read(copy) is None


def test_a_removed_working_directory_is_e022(clean_env: dict[str, str], tmp_path: Path) -> None:
    import subprocess
    import sys

    gone = tmp_path / "gone"
    gone.mkdir()
    # the child removes its own working directory, then runs the command
    code = (
        "import os, sys; os.rmdir(os.getcwd()); "
        "from skillc_index.cli import main; sys.exit(main(['list']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=gone, env={**clean_env, "PWD": str(gone)},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error[E022]: directory not found: '{gone}'\nhint: the working directory was removed\n"
    )


def test_a_nested_projects_store_skill_has_that_projects_runtime(
    layout: Layout, env: dict[str, str], write_skill: WriteSkill
) -> None:
    """A nested project's skill read from the outer project (its deployment, its store path)
    was indexed and logged in the outer project's runtime of the same name; ``list`` said
    the nested one's, and ``stats`` read each project's log for half its uses."""
    from skillc_index import load_config
    from skillc_index.accesslog.store import primary_log_finder
    from skillc_index.build.skill import build_skill
    from skillc_index.listing.skills import list_skills

    write_skill(layout.store("project") / "x")
    inner_root = layout.cwd / "packages" / "a"
    inner = write_skill(inner_root / ".skillc" / "skills" / "x")
    inner_layout = Layout.discover(inner_root, env)
    build_skill("x", inner_layout, config=load_config(inner_layout, env={}))
    runtime = inner_root / ".skillc" / "runtime" / "x"
    for given in (str(inner), "packages/a/.claude/skills/x"):
        resolved = resolve_skill(given, layout)
        assert (resolved.source, resolved.runtime) == (inner, runtime)
    assert resolve_skill("x", layout).runtime == layout.runtime_store("project") / "x"
    listed = {entry.source_path: entry.runtime_path for entry in list_skills(layout).skills}
    assert listed[inner] == runtime
    assert primary_log_finder(layout)(str(inner)) == runtime / ".skillc-meta" / "logs.db"


def test_a_store_link_to_one_of_a_folders_skills_is_that_stores_log(
    layout: Layout, env: dict[str, str], write_skill: WriteSkill
) -> None:
    """A project that links one of a nested project's store skills into its own store logs
    that skill in its own runtime, the other one in the nested project's: the log finder
    kept one runtime store per parent folder, so whichever came first decided both."""
    from skillc_index.accesslog.store import primary_log_finder

    inner_root = layout.cwd / "packages" / "a"
    inner = inner_root / ".skillc" / "skills"
    for name in ("a", "b"):
        write_skill(inner / name)
    (layout.store("project") / "a").parent.mkdir(parents=True, exist_ok=True)
    (layout.store("project") / "a").symlink_to(inner / "a")
    expected = {
        "a": layout.runtime_store("project") / "a" / ".skillc-meta" / "logs.db",
        "b": inner_root / ".skillc" / "runtime" / "b" / ".skillc-meta" / "logs.db",
    }
    for order in (("b", "a"), ("a", "b")):
        log_of = primary_log_finder(layout)
        assert {name: log_of(str(inner / name)) for name in order} == expected


def test_what_is_no_part_of_a_skill_is_one_rule() -> None:
    """``evals/`` at a skill's root (its tests) and compiled Python are left out of every
    package and named by no Markdown (SKL521): one rule, skc package's and the lint's;
    ``evals/`` below the root, or a file named ``evals``, is the skill's content."""
    left_out = ["evals/evals.json", "evals/sub/notes.csv", "a.pyc", "scripts/__pycache__/x.pyc"]
    kept = ["SKILL.md", "evals", "data/evals/rows.csv", "evalsx/a.json", "references/evals.md"]
    assert [rel for rel in left_out + kept if not_packaged(rel)] == left_out


def test_the_runtime_of_a_nested_projects_skill_looks_at_each_store_once(
    layout: Layout,
    env: dict[str, str],
    write_skill: WriteSkill,
    count_calls: Callable[[object, str], list[tuple[Any, ...]]],
) -> None:
    """``runtime_for`` saw that no store of the layout holds the nested project's skill,
    then ``store_owner`` looked at each store again: once each, and the runtime is the one
    ``Layout.runtime_store`` names for that project."""
    import skillc_index.layout
    from skillc_index.layout import runtime_for

    inner_root = layout.cwd / "packages" / "a"
    inner = write_skill(inner_root / ".skillc" / "skills" / "x")
    looks = count_calls(skillc_index.layout, "store_entry")
    scope, runtime, in_store = runtime_for(inner, layout)
    assert (scope, runtime, in_store) == (
        "project",
        inner_root / ".skillc" / "runtime" / "x",
        False,
    )
    assert len(looks) == len(layout.scopes())


def test_a_target_with_a_path_separator_is_a_folder() -> None:
    """The one test of "this target is a folder path" (``target_root``, the deployment's
    checks and the MCP server's allowed folders each wrote it)."""
    from skillc_index.targets import is_folder_target

    assert not is_folder_target("claude")
    assert is_folder_target("./agents") and is_folder_target("out/skills")
    assert is_folder_target(f"out{os.sep}skills")


def test_a_name_of_hidden_characters_is_quoted_within_the_bound(
    cli: Callable[..., Any],
) -> None:
    """``shown`` cut a name to 200 characters, then escaped it: 300 zero-width spaces were
    quoted as 1,200 characters (and a control character cut at the bound as half an
    escape). Escaped first, the quote is at most 200 characters, each escape whole."""
    name = "\u200b\x1b" * 300
    result = cli("skillc-index", script=True)("build", name)
    assert result.returncode == 1 and result.stderr.startswith("error[E001]: skill '")
    quoted = result.stderr.split("'")[1]
    assert len(quoted) <= MAX_SHOWN and "\u2026" in quoted, quoted
    head, tail = quoted.split("\u2026")
    assert all(part.replace("\\u200b", "").replace("\\x1b", "") == "" for part in (head, tail))
    assert shown(name) == quoted
