"""Configuration (RFC-0009): files, precedence per key, environment, notices."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout, load_config
from skillc_index.diagnostics import format_diagnostic

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def texts(config: object) -> list[str]:
    return [notice.text for notice in config.notices]  # type: ignore[attr-defined]


def test_defaults_without_files(layout: Layout) -> None:
    config = load_config(layout, env={})
    assert config.tokenizer == "ascii"
    assert config.origins["search.tokenizer"] == "default"
    assert config.lint == {} and config.targets == {} and config.notices == ()


def test_precedence_is_per_key(layout: Layout) -> None:
    assert layout.project_config is not None
    write(
        layout.global_config,
        '[search]\ntokenizer = "cjk"\n[targets]\nmine = "~/m"\nother = "o"\n'
        "[lint]\nSKL201 = { threshold = 800 }\n",
    )
    write(layout.project_config, '[targets]\nmine = "agents/skills"\n[lint]\nSKL401 = "off"\n')
    config = load_config(layout, env={})
    assert config.tokenizer == "cjk"
    assert config.origins["search.tokenizer"] == "global"
    assert config.targets == {"mine": "agents/skills", "other": "o"}
    assert config.lint == {"SKL201": {"threshold": 800}, "SKL401": "off"}
    assert config.files == (layout.global_config, layout.project_config)


def test_a_rules_table_replaces_a_rules_value_set_before_it(layout: Layout) -> None:
    """A global ``[lint] rules = "strict"`` (no table) and a project's ``[lint.rules]`` (or a
    quoted ``"rules.SKL001"`` key after ``rules = "x"``) ended every command reading the config
    with error[E999] TypeError: the later, higher-precedence rule keys win."""
    assert layout.project_config is not None
    write(layout.global_config, '[lint]\nrules = "strict"\n')
    write(layout.project_config, '[lint.rules]\nSKL108 = "off"\n')
    assert load_config(layout, env={}).lint == {"rules": {"SKL108": "off"}}
    write(layout.global_config, '[lint]\nrules = "x"\n"rules.SKL401" = "error"\n')
    layout.project_config.unlink()
    assert load_config(layout, env={}).lint == {"rules": {"SKL401": "error"}}


def test_a_rules_value_that_is_no_table_is_ignored_and_replaces_nothing(layout: Layout) -> None:
    """A project's ``[lint] rules = "x"``, warned about as an unknown rule 'rules', still
    replaced the global ``[lint.rules]``: the global SKL108 = "error" was lost. It is
    warned about as what it is and ignored."""
    assert layout.project_config is not None
    write(layout.global_config, '[lint.rules]\nSKL108 = "error"\n')
    write(layout.project_config, '[lint]\nrules = "x"\nprofiles = ["claude-code"]\n')
    config = load_config(layout, env={})
    assert config.lint == {"rules": {"SKL108": "error"}, "profiles": ["claude-code"]}
    (notice,) = (n.text for n in config.notices if "rules" in n.text)
    assert notice == (
        f"config file {layout.project_config}: 'lint.rules' must be a table "
        "([lint.rules] ...), not a string; ignored"
    )


def test_project_beats_global_env_beats_project_cli_beats_env(layout: Layout) -> None:
    assert layout.project_config is not None
    write(layout.global_config, '[search]\ntokenizer = "ascii"\n')
    write(layout.project_config, '[search]\ntokenizer = "cjk"\n')
    assert load_config(layout, env={}).tokenizer == "cjk"
    write(layout.project_config, '[search]\ntokenizer = "ascii"\n')
    config = load_config(layout, env={"SKILLC_TOKENIZER": "cjk"})
    assert (config.tokenizer, config.origins["search.tokenizer"]) == ("cjk", "env")
    config = load_config(
        layout, env={"SKILLC_TOKENIZER": "cjk"}, overrides={"search.tokenizer": "ascii"}
    )
    assert (config.tokenizer, config.origins["search.tokenizer"]) == ("ascii", "cli")
    assert load_config(layout, env={}, overrides={"search.tokenizer": None}).tokenizer == "ascii"


def test_invalid_env_value_is_warned_and_ignored(layout: Layout) -> None:
    config = load_config(layout, env={"SKILLC_TOKENIZER": "klingon"})
    assert config.tokenizer == "ascii"
    assert any("SKILLC_TOKENIZER" in text for text in texts(config))


def test_unknown_keys_are_warned_and_ignored(layout: Layout) -> None:
    write(
        layout.global_config,
        'colour = "blue"\n[search]\ntokenizer = "cjk"\nstemmer = "x"\n[future]\na = 1\n',
    )
    config = load_config(layout, env={})
    assert config.tokenizer == "cjk"
    notices = texts(config)
    assert any("'colour'" in text for text in notices)
    assert any("'search.stemmer'" in text for text in notices)
    assert any("'future'" in text for text in notices)
    assert all(notice.level == "warning" for notice in config.notices)


def test_a_known_table_written_as_a_value_says_it_must_be_a_table(
    layout: Layout, tmp_path: Path
) -> None:
    """``search = "cjk"`` for ``[search] tokenizer = "cjk"`` was an "unknown key 'search'",
    sending the user to look for a typo in the name: it says the key must be a table."""
    write(layout.global_config, 'search = "cjk"\ntargets = "x"\nlint = 5\nlibraries = ["a"]\n')
    path = layout.global_config
    assert texts(load_config(layout, env={})) == [
        f"config file {path}: 'search' must be a table ([search] ...), not a string; ignored",
        f"config file {path}: 'targets' must be a table ([targets] ...), not a string; ignored",
        f"config file {path}: 'lint' must be a table ([lint] ...), not an integer; ignored",
        f"config file {path}: 'libraries' must be a table ([libraries] ...), not an array; ignored",
    ]
    pyproject = tmp_path / "pyproject.toml"
    write(pyproject, "[tool.skillc]\nbudget = true\n")
    assert texts(load_config(layout, env={}, project_file=pyproject))[-1] == (
        f"config file {pyproject}: 'budget' must be a table ([tool.skillc.budget] ...), "
        "not a boolean; ignored"
    )


def test_a_section_and_lint_rules_that_are_no_table_say_so_alike(tmp_path: Path) -> None:
    """``search = "cjk"`` and ``[lint] rules = "x"`` get the one notice (``_not_a_table``),
    its header as the file spells it: ``[tool.skillc.lint.rules]`` in pyproject.toml."""
    from skillc_index.config import _not_a_table

    pyproject, toml = tmp_path / "pyproject.toml", tmp_path / "skillc.toml"
    assert _not_a_table(pyproject, "lint.rules", "x").text == (
        f"config file {pyproject}: 'lint.rules' must be a table "
        "([tool.skillc.lint.rules] ...), not a string; ignored"
    )
    assert _not_a_table(toml, "search", 5).text == (
        f"config file {toml}: 'search' must be a table ([search] ...), not an integer; ignored"
    )
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    write(pyproject, '[tool.skillc.lint]\nrules = "x"\n')
    config = load_config(layout, env={}, project_file=pyproject)
    assert texts(config) == [_not_a_table(pyproject, "lint.rules", "x").text]


def test_bad_value_is_ignored_for_that_key_only(layout: Layout) -> None:
    write(layout.global_config, '[search]\ntokenizer = "klingon"\n[targets]\nx = 3\ny = "ok"\n')
    config = load_config(layout, env={})
    assert config.tokenizer == "ascii"
    assert config.targets == {"y": "ok"}
    assert len(config.notices) == 2


def test_broken_file_is_warned_and_ignored(layout: Layout) -> None:
    assert layout.project_config is not None
    write(layout.global_config, '[search]\ntokenizer = "cjk"\n')
    write(layout.project_config, "[search\ntokenizer = \n")
    config = load_config(layout, env={})
    assert config.tokenizer == "cjk"  # the global file still counts
    assert config.files == (layout.global_config,)
    assert any("invalid TOML" in text for text in texts(config))


def test_a_leading_bom_is_no_invalid_toml(layout: Layout) -> None:
    """A UTF-8 BOM at the start of the file (Windows editors write one) made every command
    warn "invalid TOML" and ignore the config: it is dropped, in a ``pyproject.toml`` too;
    other bytes that are not UTF-8 still make the file unreadable."""
    from skillc_index.config import find_config

    assert layout.project_config is not None and layout.project_root is not None
    layout.global_config.parent.mkdir(parents=True, exist_ok=True)
    layout.global_config.write_bytes(b'\xef\xbb\xbf[search]\ntokenizer = "cjk"\n')
    config = load_config(layout, env={})
    assert (config.tokenizer, config.notices) == ("cjk", ())
    pyproject = layout.project_root / "pyproject.toml"
    pyproject.write_bytes(b"\xef\xbb\xbf[tool.skillc.lint]\nSKL401 = 'off'\n")
    assert find_config(layout.project_root, layout) == pyproject
    assert load_config(layout, env={}, project_file=pyproject).lint == {"SKL401": "off"}
    layout.global_config.write_bytes(b'\xef\xbb\xbf[search]\ntokenizer = "cjk\xff"\n')
    assert any("cannot read" in text for text in texts(load_config(layout, env={})))


def test_a_config_link_loop_is_warned_not_silently_no_config(layout: Layout) -> None:
    """A ``config.toml`` that is a link to itself (or a loop of links) was "no config" without
    a word: it is a warning naming the file, as a file that cannot be read; a link to no
    file at all is still no config."""
    assert layout.project_config is not None
    layout.project_config.parent.mkdir(parents=True, exist_ok=True)
    layout.project_config.symlink_to("config.toml")
    config = load_config(layout, env={})
    assert config.files == ()
    assert texts(config) == [
        f"cannot read config file {layout.project_config}: Too many levels of symbolic links;"
        " file ignored"
    ]
    layout.project_config.unlink()
    layout.project_config.symlink_to("nothing.toml")
    assert load_config(layout, env={}).notices == ()


def test_thousands_of_config_problems_are_twenty_notices_and_a_count(layout: Layout) -> None:
    """A config with 20,000 unknown keys printed 20,000 warnings on every command: the first
    :data:`MAX_PROBLEMS` notices, then one counting the rest."""
    from skillc_index.diagnostics import MAX_PROBLEMS

    keys = "".join(f"k{i} = 0\n" for i in range(20_000))
    write(layout.global_config, f'[search]\ntokenizer = "cjk"\n{keys}')
    config = load_config(layout, env={})
    assert config.tokenizer == "cjk"
    notices = texts(config)
    assert len(notices) == MAX_PROBLEMS + 1
    assert notices[MAX_PROBLEMS - 1] == (
        f"config file {layout.global_config}: unknown key 'search.k{MAX_PROBLEMS - 1}' ignored"
    )
    assert notices[-1] == f"... and {20_000 - MAX_PROBLEMS:,} more config problems"


def test_version_handling(layout: Layout) -> None:
    write(layout.global_config, 'version = 1\n[search]\ntokenizer = "cjk"\n')
    assert load_config(layout, env={}).notices == ()
    write(layout.global_config, 'version = 2\n[search]\ntokenizer = "cjk"\n')
    config = load_config(layout, env={})
    assert config.tokenizer == "cjk"
    assert any("newer" in text for text in texts(config))
    for bad in ("0", '"1"', "-3", "1.5", "true"):
        write(layout.global_config, f'version = {bad}\n[search]\ntokenizer = "cjk"\n')
        config = load_config(layout, env={})
        assert config.tokenizer == "ascii", bad  # the whole file is ignored
        assert any("positive integer" in text for text in texts(config))
        # RFC-0009:C-FILES: "MUST emit an error" (issue 14: it was a warning); still no code.
        assert [format_diagnostic(n) for n in config.notices] == [
            f"error: config file {layout.global_config}: 'version' must be a positive integer;"
            " file ignored"
        ]


def test_unreadable_file_is_not_fatal(layout: Layout) -> None:
    layout.global_config.parent.mkdir(parents=True, exist_ok=True)
    layout.global_config.mkdir()  # a folder where the file should be
    config = load_config(layout, env={})
    assert config.tokenizer == "ascii"
    assert any("cannot read" in text for text in texts(config))


def test_deeply_nested_file_is_warned_and_ignored(layout: Layout) -> None:
    """Issue 13: 3,000 nested arrays or tables made tomllib raise RecursionError, which
    failed every command (E999). A config problem is a warning: that file is ignored."""
    assert layout.project_config is not None
    write(layout.global_config, '[search]\ntokenizer = "cjk"\n')
    for value in ("[" * 3000 + "]" * 3000, "{a = " * 3000 + "}" * 3000):
        write(layout.project_config, f"[lint]\nx = {value}\n")
        config = load_config(layout, env={})
        assert config.tokenizer == "cjk"  # the global file still counts
        assert config.files == (layout.global_config,)
        assert texts(config) == [
            f"config file {layout.project_config} is nested too deeply; file ignored"
        ]


def test_oversized_file_is_warned_and_ignored(layout: Layout) -> None:
    from skillc_index.config import MAX_CONFIG_BYTES

    assert layout.project_config is not None
    padding = "# padding\n" * (MAX_CONFIG_BYTES // 10 + 1)
    write(layout.project_config, f'[search]\ntokenizer = "cjk"\n{padding}')
    config = load_config(layout, env={})
    assert config.tokenizer == "ascii"
    assert config.files == ()
    kib = MAX_CONFIG_BYTES // 1024
    assert texts(config) == [
        f"config file {layout.project_config} is larger than {kib} KiB; file ignored"
    ]


def test_a_config_file_that_is_no_regular_file_is_warned_and_ignored(layout: Layout) -> None:
    """A checkout's config file may be a link to a device, a FIFO, or the reader's own stdin
    or stdout (``/proc/self/fd/1``: lint in CI waited on its own pipe for ever): only a
    regular file is read, without blocking; the rest is a warning, that file ignored, and a
    ``pyproject.toml`` so is no config."""
    from skillc_index.config import find_config

    assert layout.project_config is not None and layout.project_root is not None
    layout.project_config.parent.mkdir(parents=True, exist_ok=True)
    layout.project_config.symlink_to("/dev/zero")
    config = load_config(layout, env={})
    assert config.files == ()
    assert texts(config) == [
        f"cannot read config file {layout.project_config}: not a regular file; file ignored"
    ]
    layout.project_config.unlink()
    (layout.project_root / "pyproject.toml").symlink_to("/dev/zero")
    assert find_config(layout.project_root, layout) is None


def test_the_listing_budget_per_key(layout: Layout) -> None:
    assert layout.project_config is not None
    config = load_config(layout, env={})
    assert (config.budget_context_tokens, config.budget_percent) == (None, 1.0)
    write(layout.global_config, "[budget]\ncontext_tokens = 1000000\npercent = 2\n")
    write(layout.project_config, "[budget]\npercent = 0.5\n")
    config = load_config(layout, env={})
    assert (config.budget_context_tokens, config.budget_percent) == (1_000_000, 0.5)
    assert config.origins["budget.percent"] == "project"
    write(layout.project_config, '[budget]\npercent = 101\ncontext_tokens = "many"\nwindow = 3\n')
    config = load_config(layout, env={})
    assert (config.budget_context_tokens, config.budget_percent) == (1_000_000, 2.0)
    notices = texts(config)
    assert any("'budget.percent'" in text and "at most 100" in text for text in notices)
    assert any("'budget.context_tokens'" in text for text in notices)
    assert any("unknown key 'budget.window'" in text for text in notices)


def test_stats_url_from_the_global_config_and_the_environment_only(layout: Layout) -> None:
    """A checkout's config.toml must not choose where the user's usage rows are uploaded."""
    assert layout.project_config is not None
    assert load_config(layout, env={}).stats_url == ""
    write(layout.global_config, '[stats]\nurl = "postgresql://team@db/skills"\n')
    assert load_config(layout, env={}).stats_url == "postgresql://team@db/skills"
    write(layout.project_config, '[stats]\nurl = "postgresql://evil@elsewhere/x"\n')
    config = load_config(layout, env={})
    assert config.stats_url == "postgresql://team@db/skills"
    assert texts(config) == [
        f"config file {layout.project_config}: 'stats.url' is only read from the global config"
    ]
    env = {"SKILLC_STATS_URL": "postgresql://me@local/db"}
    assert load_config(layout, env=env).stats_url == "postgresql://me@local/db"


def test_a_bad_stats_url_is_not_printed(layout: Layout) -> None:
    """A value that is not a postgresql:// URL may still hold a password."""
    write(layout.global_config, '[stats]\nurl = "mysql://u:hunter2@h/db"\n')
    config = load_config(layout, env={"SKILLC_STATS_URL": "mysql://u:hunter3@h/db"})
    assert config.stats_url == ""
    assert len(texts(config)) == 2
    assert not [text for text in texts(config) if "hunter" in text]


# -- pyproject.toml and the config nearest a path (issue 39) -------------------------------------


def test_pyproject_tool_skillc_is_a_project_config(layout: Layout, tmp_path: Path) -> None:
    from skillc_index import find_config

    repo = tmp_path / "repo"
    write(
        repo / "pyproject.toml",
        '[project]\nname = "x"\n[tool.ruff]\nline-length = 99\n'
        '[tool.skillc.lint]\nSKL108 = "off"\n[tool.skillc.search]\ntokenizer = "cjk"\n'
        '[tool.skillc.stats]\nurl = "postgresql://evil/x"\n',
    )
    (repo / "skills" / "a").mkdir(parents=True)
    found = find_config(repo / "skills" / "a", layout)
    assert found == repo / "pyproject.toml"
    config = load_config(layout, env={}, project_file=found)
    assert config.lint == {"SKL108": "off"} and config.tokenizer == "cjk"
    assert config.stats_url == ""  # personal keys never come from a project's file
    assert not any("unknown key" in text for text in texts(config))  # [project], [tool.ruff]


def test_the_project_roots_pyproject_is_its_config_for_every_command(layout: Layout) -> None:
    """``[tool.skillc.search]`` and ``[tool.skillc.targets]`` in the project's
    ``pyproject.toml`` were read by ``skc lint`` alone (``search`` indexed with ``ascii``,
    ``build --target mine`` was E100, without a word): without a ``.skillc/config.toml``,
    the root's ``pyproject.toml`` is the project's config for every command."""
    from skillc_index import find_config
    from skillc_index.config import project_config_file

    assert layout.project_root is not None and layout.project_config is not None
    pyproject = layout.project_root / "pyproject.toml"
    write(
        pyproject,
        '[project]\nname = "x"\n[tool.skillc.search]\ntokenizer = "cjk"\n'
        '[tool.skillc.targets]\nmine = "agents/mine"\n[tool.skillc.lint]\nSKL108 = "error"\n',
    )
    config = load_config(layout, env={})
    assert (config.tokenizer, dict(config.targets)) == ("cjk", {"mine": "agents/mine"})
    assert config.project_targets == {"mine"} and config.files == (pyproject,)
    assert project_config_file(layout) == find_config(layout.project_root, layout) == pyproject
    write(layout.project_config, "[lint]\n")  # the .skillc/config.toml comes first
    config = load_config(layout, env={})
    assert (config.tokenizer, config.targets, config.files) == (
        "ascii",
        {},
        (layout.project_config,),
    )
    assert project_config_file(layout) == layout.project_config


def test_find_config_takes_the_nearest_and_passes_over_other_pyprojects(
    layout: Layout, tmp_path: Path
) -> None:
    from skillc_index import find_config

    repo = tmp_path / "repo"
    write(repo / ".skillc" / "config.toml", '[lint]\nSKL108 = "error"\n')
    write(repo / "sub" / "pyproject.toml", "[tool.black]\nline-length = 80\n")
    (repo / "sub" / "deeper" / "skill").mkdir(parents=True)
    assert find_config(repo / "sub" / "deeper" / "skill", layout) == (
        repo / ".skillc" / "config.toml"
    )
    write(repo / "sub" / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "off"\n')
    assert find_config(repo / "sub" / "deeper" / "skill" / "x.md", layout) == (
        repo / "sub" / "pyproject.toml"
    )
    assert find_config(tmp_path, layout) in (None, layout.project_config)


def test_a_pyproject_that_cannot_be_parsed_is_found_and_warned(
    layout: Layout, tmp_path: Path
) -> None:
    """A ``pyproject.toml`` with a TOML error anywhere (a duplicate key in ``[tool.ruff]``)
    was passed over without a word, its ``[tool.skillc.lint]`` dropped and a config above
    used: it is the config found, reported and ignored as a broken ``.skillc/config.toml``
    is. One that parses without ``[tool.skillc]`` is still passed over; named, it is
    ignored, saying why (``Config.ignored``)."""
    from skillc_index import find_config

    repo = tmp_path / "repo"
    write(repo / ".skillc" / "config.toml", '[lint]\nSKL108 = "off"\n')
    broken = repo / "sub" / "pyproject.toml"
    write(broken, '[tool.ruff]\nx = 1\nx = 2\n[tool.skillc.lint]\nSKL108 = "error"\n')
    (repo / "sub" / "skill").mkdir(parents=True)
    assert find_config(repo / "sub" / "skill", layout) == broken
    config = load_config(layout, env={}, project_file=broken)
    assert config.lint == {} and broken not in config.files
    assert config.ignored[broken].startswith(f"invalid TOML in config file {broken}: ")
    assert texts(config) == [f"{config.ignored[broken]}; file ignored"]
    write(broken, "[tool.ruff]\nx = 1\n")
    assert find_config(repo / "sub" / "skill", layout) == repo / ".skillc" / "config.toml"
    named = load_config(layout, env={}, project_file=broken)
    assert named.ignored == {broken: f"config file {broken} has no [tool.skillc] table"}
    # a vendored package's broken file naming no skillc table is not the project's config
    # (it took the place of the .skillc/config.toml above: the team's rules dropped)
    write(broken, "[project]\nname = 1\nname = 2\n")
    assert find_config(repo / "sub" / "skill", layout) == repo / ".skillc" / "config.toml"
    write(broken, "[project]\nname = 1\nname = 2\n[tool . 'skillc'.lint]\n")
    assert find_config(repo / "sub" / "skill", layout) == broken


def test_a_skillc_folder_that_cannot_be_opened_is_passed_over(
    layout: Layout,
    tmp_path: Path,
    write_skill: Callable[..., Path],
    unreadable: Callable[[Path], None],
) -> None:
    """Another user's ``.skillc/`` (mode 700) above a skill, or a working folder of mode 000:
    its config cannot be looked for (``is_file`` raises on ``EACCES``), so it has none, and
    the walk goes on up (skillc-lint's tests run a lint there: it was E999)."""
    from skillc_index import find_config

    repo = tmp_path / "repo"
    write(repo / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "off"\n')
    write(repo / "work" / ".skillc" / "config.toml", "[lint]\n")
    skill = write_skill(repo / "work" / "sub" / "demo-skill")
    locked = repo / "work" / "sub" / "locked"
    locked.mkdir()
    unreadable(repo / "work" / ".skillc")
    unreadable(locked)
    assert find_config(skill, layout) == repo / "pyproject.toml"
    assert find_config(locked, layout) == repo / "pyproject.toml"


def test_find_config_with_answers_kept_gives_the_same_answers(
    layout: Layout, tmp_path: Path
) -> None:
    """A lint of many skills keeps each folder's answer (``nearest``): a skill with its own
    config and its siblings without one still get their own nearest file."""
    from skillc_index import find_config

    repo = tmp_path / "repo"
    write(repo / ".skillc" / "config.toml", "[lint]\n")
    write(repo / "skills" / "own" / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "off"\n')
    for name in ("a", "own", "b"):
        (repo / "skills" / name / "deep").mkdir(parents=True, exist_ok=True)
    starts = [repo / "skills" / n / "deep" for n in ("a", "own", "b")] + [repo / "skills" / "a"]
    nearest: dict[Path, Path | None] = {}
    kept = [find_config(start, layout, nearest) for start in starts]
    assert kept == [find_config(start, layout) for start in starts]
    assert kept[1] == repo / "skills" / "own" / "pyproject.toml"
    assert kept[2] == repo / ".skillc" / "config.toml"


def test_a_named_config_file_that_is_missing_is_a_notice(layout: Layout, tmp_path: Path) -> None:
    config = load_config(layout, env={}, project_file=tmp_path / "nowhere.toml")
    assert texts(config) == [f"config file {tmp_path / 'nowhere.toml'} not found; ignored"]


def test_named_libraries_merge_by_name_and_resolve_from_where_they_were_set(
    layout: Layout,
) -> None:
    assert layout.project_config is not None and layout.project_root is not None
    write(layout.global_config, '[libraries]\nteam = ["~/team"]\nmine = ["lib"]\nbad = "x"\n')
    write(layout.project_config, '[libraries]\nteam = ["vendor/skills", "/abs/skills"]\n')
    config = load_config(layout, env={})
    assert config.libraries == {"team": ("vendor/skills", "/abs/skills"), "mine": ("lib",)}
    assert [t for t in texts(config) if "library 'bad'" in t]
    # a project's folder outside the project is left out, with a warning naming it
    folders, left_out = config.library("team", layout.project_root, layout.home)
    assert folders == (layout.project_root / "vendor/skills",)
    assert [n.text.split(";")[0] for n in left_out] == [
        "config [libraries] team: '/abs/skills' is not inside the project"
    ]
    assert config.library("mine", layout.project_root, layout.home) == ((layout.home / "lib",), ())


def test_a_library_folder_left_out_is_quoted_bounded(layout: Layout) -> None:
    """A project's library folder outside the project is named cut (its start and its end
    kept), not whole: a 100 KB folder was a 100 KB warning on each run; so is the E100 of a
    library with no folder left, and many folders are capped."""
    from skillc_index.diagnostics import MAX_PROBLEMS
    from skillc_index.option_errors import InvalidOption
    from skillc_index.text import MAX_SHOWN

    assert layout.project_config is not None and layout.project_root is not None
    long = "/" + "x" * 100_000 + "/end"
    many = ", ".join(f'"/out/{index}"' for index in range(MAX_PROBLEMS + 5))
    write(
        layout.project_config,
        f'[libraries]\nteam = ["vendor", "{long}", {many}]\nbad = ["{long}"]\n',
    )
    config = load_config(layout, env={})
    _, left_out = config.library("team", layout.project_root, layout.home)
    assert len(left_out) == MAX_PROBLEMS + 1
    assert left_out[-1].text == "... and 6 more folders left out"
    first = left_out[0].text
    assert len(first) < MAX_SHOWN + 200 and "/end'" in first, first[:300]
    with pytest.raises(InvalidOption) as caught:
        config.library("bad", layout.project_root, layout.home)
    assert len(str(caught.value)) < MAX_SHOWN + 200


def test_a_library_s_tilde_is_the_skillc_home_as_a_target_s_is(
    layout: Layout, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``$SKILLC_HOME`` replaces the home folder for every global path (DECISIONS): a
    library's ``~/team`` is the skillc home's, not ``$HOME``'s, as ``[targets]``' ``~/x``."""
    monkeypatch.setenv("HOME", str(tmp_path / "real-home"))
    write(layout.global_config, '[libraries]\nteam = ["~/team", "~"]\n[targets]\nt = "~/t"\n')
    config = load_config(layout, env={})
    assert config.library("team", layout.project_root, layout.home) == (
        (layout.home / "team", layout.home),
        (),
    )
    assert layout.target_root("t", "global", config.targets) == layout.home / "t"


def test_unusable_targets_and_libraries_entries_are_warned_and_ignored(layout: Layout) -> None:
    """A ``[targets]`` key that can name no target (a ``/`` makes a target a folder path, a
    comma separates names, a control character) or a value no path can be (empty, a NUL),
    a library folder holding a NUL: each entry is warned and ignored, the others kept."""
    assert layout.project_config is not None
    write(
        layout.project_config,
        "[targets]\n"
        '"x/y" = "/tmp/x"\n"a,b" = "ab"\n"" = "e"\n" sp" = "sp"\n"n\\u0000k" = "nk"\n'
        'nul = "x\\u0000y"\nempty = ""\ngood = "agents/good"\n'
        '[libraries]\nbad = ["ok", "x\\u0000y"]\nteam = ["team"]\n',
    )
    config = load_config(layout, env={})
    assert config.targets == {"good": "agents/good"}
    assert config.libraries == {"team": ("team",)}
    notices = texts(config)
    assert len(notices) == 8, notices
    assert any("target 'x/y' holds '/', which makes a target a folder path" in t for t in notices)
    assert any("target 'n\\x00k' holds a control character" in t for t in notices)
    assert any("target 'nul' must be a path string (not empty, no NUL)" in t for t in notices)
    assert any("library 'bad' must be a list of 1 to 256 folder paths" in t for t in notices)
    assert all("\0" not in t for t in notices)


def test_a_nul_in_a_checkout_s_targets_fails_no_command(
    cli: Callable[..., Run], project: Path
) -> None:
    """A NUL in a ``[targets]`` value or key made ``list``, ``find`` and name resolution
    fail (E999 "embedded null byte"); the entries are warned and ignored."""
    write(
        project / ".skillc/config.toml",
        '[targets]\nbad = "x\\u0000y"\n"k\\u0000" = "z"\n[libraries]\nl = ["a\\u0000"]\n',
    )
    index = cli("skillc-index")  # (this package alone: no gateway's outline here)
    listed = index("list")
    assert listed.returncode == 0, listed.stderr
    assert "target 'bad' must be a path string" in listed.stderr
    missing = index("build", "nosuch")
    assert missing.returncode == 1
    assert "error[E001]: skill 'nosuch' not found" in missing.stderr, missing.stderr
    assert "E999" not in missing.stderr


def test_find_config_stops_at_the_project_root_and_the_home(
    layout: Layout, tmp_path: Path, home: Path
) -> None:
    """``skc lint`` took its ``[lint]`` from a parent's ``.skillc/config.toml`` above the
    project (whose ``.skillc/`` had none), where ``skc search`` read no project config, and
    a global skill's from a ``pyproject.toml`` above ``$SKILLC_HOME``: the walk ends at the
    project's root (or a repository's top), that folder included, and before the home."""
    from skillc_index import find_config

    write(tmp_path / "parent" / ".skillc" / "config.toml", '[lint]\nSKL108 = "error"\n')
    proj = tmp_path / "parent" / "proj"
    (proj / ".skillc" / "skills" / "demo").mkdir(parents=True)
    assert find_config(proj / ".skillc" / "skills" / "demo", layout) is None
    write(proj / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "off"\n')
    assert find_config(proj / ".skillc" / "skills" / "demo", layout) == proj / "pyproject.toml"
    repo = tmp_path / "parent" / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "skills" / "a").mkdir(parents=True)
    assert find_config(repo / "skills" / "a", layout) is None
    write(tmp_path / "pyproject.toml", '[tool.skillc.lint]\nSKL108 = "off"\n')
    (home / ".skillc" / "skills" / "gs").mkdir(parents=True)
    assert find_config(home / ".skillc" / "skills" / "gs", layout) is None
    assert find_config(tmp_path / "loose", layout) == tmp_path / "pyproject.toml"


def test_keys_of_too_many_parts_in_all_are_warned_and_ignored_before_parsing(
    layout: Layout,
) -> None:
    """A 230 KB file of tables each with one key of the most parts allowed took 2 s in the
    TOML parser on every command: the parts beyond the 4th of all keys are bounded too,
    the file ignored with one warning naming the line where they pass the bound."""
    import time

    from skillc_index.toml_keys import MAX_DEEP_PARTS, MAX_KEY_PARTS

    assert layout.project_config is not None
    write(layout.global_config, '[search]\ntokenizer = "cjk"\n')
    key = ".".join(["k"] * MAX_KEY_PARTS)
    tables = 3000  # 227 KB: under the size bound
    write(layout.project_config, "".join(f"[x{n}]\n{key} = 1\n" for n in range(tables)))
    started = time.monotonic()
    config = load_config(layout, env={})
    assert time.monotonic() - started < 1.0  # refused unparsed (parsed: about 2 s)
    assert config.tokenizer == "cjk" and config.files == (layout.global_config,)
    line = 2 * (MAX_DEEP_PARTS // (MAX_KEY_PARTS - 4) + 1)
    assert texts(config) == [
        f"config file {layout.project_config}: line {line} brings the dotted keys' parts "
        f"beyond the 4th to more than {MAX_DEEP_PARTS:,} in all; file ignored"
    ]


def test_a_key_of_too_many_parts_is_warned_and_ignored_before_parsing(layout: Layout) -> None:
    """A dotted key of 16,000 parts (a 32 KB file) made the TOML parser take 1.5 GB and
    seconds on every command (131,000, under the size bound, 18 GB): its cost is quadratic
    in the parts. A key (a table header's too) of more than ``MAX_KEY_PARTS`` parts is
    refused before parsing: one warning naming the line, that file ignored, the global one
    still read."""
    from skillc_index.toml_keys import MAX_KEY_PARTS

    assert layout.project_config is not None
    write(layout.global_config, '[search]\ntokenizer = "cjk"\n')
    many = "x" + ".x" * 5000
    for text in (
        f"[lint]\n{many} = 1\n",
        f"[search]\ntokenizer = 'ascii'\n\n[{many}]\n",
        "[lint]\nx" + ' . "a.b"' * MAX_KEY_PARTS + " = 1\n",  # quoted parts, spaces
        "[lint]\nx = {" + "a." * MAX_KEY_PARTS + "b = 1}\n",  # in an inline table
    ):
        write(layout.project_config, text)
        config = load_config(layout, env={})
        assert config.tokenizer == "cjk"
        assert config.files == (layout.global_config,)
        line = text.count("\n", 0, text.index(".x" if many in text else ".")) + 1
        assert texts(config) == [
            f"config file {layout.project_config}: line {line} has a key of more than "
            f"{MAX_KEY_PARTS} parts; file ignored"
        ]
    # as many parts as the bound, dots in strings, comments and values are no long key
    dots = "." * 200
    longest = ".".join(["a"] * MAX_KEY_PARTS)
    write(
        layout.project_config,
        f'[lint]\n{longest} = "{dots}"  # {dots}\nb = """\n{dots}\n"""\nc = 1.5\n',
    )
    config = load_config(layout, env={})
    assert config.notices == () and config.files[-1] == layout.project_config


def test_a_pyproject_with_a_key_of_too_many_parts_is_no_config(
    cli: Callable[..., Run], project: Path
) -> None:
    """Every command reads the root ``pyproject.toml`` for a ``[tool.skillc]`` table: one
    whose ``[tool.ruff]`` has a key of thousands of parts was parsed (seconds, gigabytes);
    it is passed over without a word (it names no skillc table); one that does is the
    project's config, warned and ignored."""
    index = cli("skillc-index")
    many = "x" + ".x" * 5000
    write(project / "pyproject.toml", f"[tool.ruff]\n{many} = 1\n")
    listed = index("list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr == ""
    write(project / "pyproject.toml", f"[tool.skillc.lint]\n{many} = 1\n")
    listed = index("list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr.splitlines() == [
        f"warning: config file {project / 'pyproject.toml'}: line 2 has a key of more than "
        "32 parts; file ignored"
    ]


def test_at_most_256_targets_are_read_from_a_file(
    cli: Callable[..., Run], project: Path, layout: Layout
) -> None:
    """Thousands of ``[targets]`` entries made every listing and build look into thousands
    of folders: the first ``MAX_CONFIG_TARGETS`` of a file are read, the rest ignored, one
    warning naming the bound (the header as the file spells it)."""
    from skillc_index.config import MAX_CONFIG_TARGETS

    entries = "".join(f't{i} = "x/t{i}"\n' for i in range(MAX_CONFIG_TARGETS + 50))
    write(project / ".skillc" / "config.toml", f"[targets]\n{entries}")
    config = load_config(layout, env={})
    assert list(config.targets) == [f"t{i}" for i in range(MAX_CONFIG_TARGETS)]
    warning = "[targets] has 306 entries, more than 256; the first 256 are read, the rest ignored"
    assert texts(config) == [f"config file {project / '.skillc' / 'config.toml'}: {warning}"]
    listed = cli("skillc-index")("list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr.count("\n") == 1 and warning in listed.stderr, listed.stderr
    (project / ".skillc" / "config.toml").unlink()
    write(project / "pyproject.toml", f"[tool.skillc.targets]\n{entries}")
    config = load_config(layout, env={})
    assert len(config.targets) == MAX_CONFIG_TARGETS
    assert "[tool.skillc.targets] has 306 entries" in texts(config)[0]


def test_a_long_value_or_key_is_shown_cut(cli: Callable[..., Run], project: Path) -> None:
    """``[search] tokenizer = "<200 KB>"`` made every command print 200 KB to stderr: a
    value or key a config warning quotes is cut to its start and end (``layout.shown``)."""
    big = "A" * 100_000
    write(project / ".skillc" / "config.toml", f'[search]\ntokenizer = "{big}"\n{big} = 1\n')
    listed = cli("skillc-index")("list")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stderr.splitlines()
    assert len(lines) == 2, lines
    assert all(len(line) < 600 and "…" in line for line in lines), [len(x) for x in lines]
    assert "invalid value 'AAAA" in lines[0] and "for 'search.tokenizer'" in lines[0]
    assert "unknown key 'search.AAAA" in lines[1]
