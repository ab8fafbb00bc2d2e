"""Errors are told apart by type (issue 14, item 5): each condition has its class, a subclass
of its code's, and no library message names a command-line flag (the CLI spells it)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from skillc_index import (
    CLI_SPELLING,
    BrokenTool,
    EmptyTimeRange,
    FileIsAFolder,
    InternalError,
    InvalidOption,
    Layout,
    MalformedFilter,
    NoSkillGiven,
    NotARegularFile,
    SkillcError,
    SkillFileNotFound,
    ToolArgumentError,
    UnknownSkillTool,
    UnreadableFile,
    UnsupportedPlatform,
    format_diagnostic,
)
from skillc_index.accesslog.errors import InvalidFilter
from skillc_index.build.scaffold import init_project, init_skill
from skillc_index.build.skill import build_skill
from skillc_index.command_errors import (
    CannotCreate,
    CompiledSkillGiven,
    DeploysOverOrigin,
    EmptyTargetName,
    ForeignFolder,
    RuntimeNotAFolder,
    SkillExists,
    StoreCopyDiffers,
    TargetInsideSkill,
)
from skillc_index.console import handle_exception
from skillc_index.diagnostics import BinaryFile
from skillc_index.option_errors import TooManyQueryWords, UnknownTarget, WordedOption
from skillc_index.spelling import PARAMETER_NAMES

CODES: list[tuple[type[SkillcError], type[SkillcError], str]] = [
    (ForeignFolder, SkillExists, "E050"),
    (StoreCopyDiffers, SkillExists, "E050"),
    (DeploysOverOrigin, SkillExists, "E050"),
    (FileIsAFolder, NotARegularFile, "E021"),
    (FileIsAFolder, SkillFileNotFound, "E021"),
    (MalformedFilter, InvalidFilter, "E031"),
    (EmptyTimeRange, InvalidFilter, "E031"),
    (UnknownSkillTool, InvalidOption, "E100"),
    (BrokenTool, InvalidOption, "E100"),
    (ToolArgumentError, InvalidOption, "E100"),
    (UnsupportedPlatform, InvalidOption, "E100"),
    (UnknownTarget, InvalidOption, "E100"),
    (EmptyTargetName, InvalidOption, "E100"),
    (TargetInsideSkill, InvalidOption, "E100"),
    (CompiledSkillGiven, InvalidOption, "E100"),
    (TooManyQueryWords, InvalidOption, "E100"),
    (NoSkillGiven, InvalidOption, "E100"),
    (UnreadableFile, InternalError, "E999"),
    (CannotCreate, InternalError, "E999"),
    (BinaryFile, InternalError, "E999"),
    (RuntimeNotAFolder, InternalError, "E999"),
]


@pytest.mark.parametrize(("error", "base", "code"), CODES)
def test_each_type_keeps_its_rfc_code(
    error: type[SkillcError], base: type[SkillcError], code: str
) -> None:
    assert issubclass(error, base)
    assert error.code == code
    # public, in one of the homes of the error types
    homes = (
        "skillc_index.diagnostics",
        "skillc_index.option_errors",
        "skillc_index.command_errors",
        "skillc_index.accesslog.errors",
        "skillc_index.tools.errors",
    )
    assert error.__module__ in homes
    assert getattr(sys.modules[error.__module__], error.__name__) is error


# -- one wording per front end --------------------------------------------------------------


def test_the_library_names_parameters_and_the_cli_spells_them_as_options() -> None:
    forced = ForeignFolder("demo", ".claude/skills/demo", "move it aside and deploy")
    assert format_diagnostic(forced.diagnostic) == (
        "error[E050]: skill 'demo' already exists\n"
        "hint: .claude/skills/demo exists and was not made by skillc; "
        "use force to move it aside and deploy"
    )
    assert format_diagnostic(forced.spelled(CLI_SPELLING)) == (
        "error[E050]: skill 'demo' already exists\n"
        "hint: .claude/skills/demo exists and was not made by skillc; "
        "use --force to move it aside and deploy"
    )
    assert forced.spelled(PARAMETER_NAMES) == forced.diagnostic
    # once force was given there is nothing to suggest
    plain = ForeignFolder("demo", "/x/demo")
    assert plain.spelled(CLI_SPELLING) == plain.diagnostic
    assert plain.diagnostic.detail == "hint: /x/demo exists and was not made by skillc"

    folder = FileIsAFolder("references")
    assert (
        folder.diagnostic.detail == "hint: 'references' is a folder; list it with 'sources' (dir)"
    )
    assert folder.spelled(CLI_SPELLING).detail == (
        "hint: 'references' is a folder; list it with 'skc sources --dir'"
    )

    broken = BrokenTool("t", "shell syntax '|' in command", 7)
    assert str(broken) == (
        "error[E100]: invalid option: 'tool 't' cannot run: shell syntax '|' in command "
        "(SKILL.md:7; see 'lint' (profile 'gibberish'))'"
    )
    assert broken.spelled(CLI_SPELLING).params["message"] == (
        "tool 't' cannot run: shell syntax '|' in command "
        "(SKILL.md:7; see 'skc lint --profile gibberish')"
    )
    assert BrokenTool("t").spelled(CLI_SPELLING).params["message"] == (
        "tool 't' cannot run: no command (see 'skc lint --profile gibberish')"
    )

    # a command named without an option: the same helper, each front end's spelling
    over = DeploysOverOrigin("demo", ".claude/skills/demo", False)
    assert "; 'skc route install' moves" in over.spelled(CLI_SPELLING).detail
    assert "; 'route install' moves" in over.spelled(PARAMETER_NAMES).detail
    over_global = DeploysOverOrigin("demo", "~/.claude/skills/demo", True)
    assert "; 'skc route install --global' moves" in over_global.spelled(CLI_SPELLING).detail
    assert "; 'route install' (global) moves" in over_global.spelled(PARAMETER_NAMES).detail

    since = MalformedFilter("since", "soon", "is not a time")
    assert since.diagnostic.params["message"] == "since 'soon' is not a time"
    assert since.spelled(CLI_SPELLING).params["message"] == "--since 'soon' is not a time"
    empty = EmptyTimeRange("2026-02-01T00:00:00Z", "2026-01-01T00:00:00Z")
    assert empty.spelled(CLI_SPELLING).params["message"] == (
        "--since 2026-02-01T00:00:00Z is after --until 2026-01-01T00:00:00Z"
    )


@pytest.mark.parametrize(
    "error",
    [
        ForeignFolder("demo", "p", "move it aside and deploy"),
        StoreCopyDiffers("demo", "project", "an edited", "s/demo", "/o/demo"),
        DeploysOverOrigin("demo", "~/.claude/skills/demo", True),
        DeploysOverOrigin("demo", ".claude/skills/demo", False),
        FileIsAFolder("references"),
        BrokenTool("t", "bad", 1),
        EmptyTargetName("a,,b"),
        MalformedFilter("project", "", "is not a path"),
        EmptyTimeRange("b", "a"),
    ],
)
def test_no_library_message_names_a_flag(error: SkillcError) -> None:
    assert "--" not in str(error)
    assert "skc " not in str(error)
    assert format_diagnostic(error.spelled(CLI_SPELLING)) != str(error)


def test_the_cli_prints_the_options_spelling(capsys: pytest.CaptureFixture[str]) -> None:
    error = StoreCopyDiffers("demo", "project", "an edited", ".skillc/skills/demo", "/o/demo")
    assert handle_exception(error, []) == 1
    assert capsys.readouterr().err == (
        "error[E050]: skill 'demo' already exists\n"
        "hint: the project store already holds an edited 'demo' (.skillc/skills/demo); "
        "use --force to move it aside and import /o/demo\n"
    )


# -- raise sites that had no test of their type --------------------------------------------


def test_a_runtime_that_is_a_file_is_runtime_not_a_folder(layout: Layout, project: Path) -> None:
    source = project / ".skillc" / "skills" / "demo"
    source.mkdir()
    (source / "SKILL.md").write_text("---\nname: demo\ndescription: D.\n---\n", encoding="utf-8")
    runtime = project / ".skillc" / "runtime" / "demo"
    runtime.parent.mkdir(parents=True)
    runtime.write_text("not a folder", encoding="utf-8")
    with pytest.raises(RuntimeNotAFolder) as caught:
        build_skill("demo", layout)
    assert caught.value.path == str(runtime)
    assert runtime.read_text(encoding="utf-8") == "not a folder"


def test_a_store_that_cannot_hold_a_skill_is_cannot_create(
    tmp_path: Path, env: dict[str, str]
) -> None:
    where = tmp_path / "work"
    (where / ".skillc").mkdir(parents=True)
    (where / ".skillc" / "skills").write_text("a file, not a folder", encoding="utf-8")
    layout = Layout.discover(where, env)
    with pytest.raises(CannotCreate) as caught:
        init_skill("demo", layout)
    assert caught.value.path == str(where / ".skillc" / "skills" / "demo" / "SKILL.md")
    with pytest.raises(CannotCreate) as caught:
        init_project(layout)
    assert caught.value.path == str(where / ".skillc" / "skills")


def test_the_readme_names_each_error_class_where_it_is_defined() -> None:
    """The README's ``diagnostics`` row names the error class of each code, those of the codes
    its note gives to ``command_errors``, ``accesslog.errors`` and ``option_errors`` defined
    there and the others in ``diagnostics``: it named ``ImportRefused``, ``PackageRefused``
    (E070) and ``InvalidSettings`` (E080) as ``diagnostics`` names, which ``from
    skillc_index.diagnostics import`` does not find."""
    from skillc_index import command_errors, diagnostics, option_errors
    from skillc_index.accesslog import errors as log_errors

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `diagnostics` ("))
    modules = {
        "command_errors": command_errors,
        "accesslog.errors": log_errors,
        "option_errors": option_errors,
    }
    notes = re.findall(r"(?:the error classes|those) of (.+?) (?:are )?in `([\w.]+)`", row)
    assert sorted(module for _, module in notes) == sorted(modules)
    homes: dict[str, object] = {}
    for text, module in notes:
        for first, last in re.findall(r"E(\d{3})(?:-E(\d{3}))?", text):
            for n in range(int(first), int(last or first) + 1):
                homes[f"E{n:03d}"] = modules[module]
    named = 0
    for name in re.findall(r"`([A-Z]\w+)`", row):
        found = getattr(diagnostics, name, None) or getattr(command_errors, name, None)
        if not isinstance(found, type) or not issubclass(found, SkillcError):
            continue
        home = homes.get(found.code, diagnostics)
        assert found.__module__ == home.__name__, (name, found.code)
        named += 1
    assert named > 20  # the row was found and read


#: A value for each parameter type of the error classes' ``__init__`` (by its annotation).
_SIMPLE: dict[str, object] = {
    "str": "a/b",
    "str | None": "c",
    "int": 3,
    "bool": True,
    "tuple[str, ...]": ("x", "y"),
    "Sequence[str]": ["x", "y"],
}


def _simple_errors() -> list[SkillcError]:
    """One of every :class:`SkillcError` class of skillc_index (each module imported) whose
    ``__init__`` takes only simple values (:data:`_SIMPLE`)."""
    import importlib
    import inspect
    import pkgutil

    import skillc_index

    for module in pkgutil.walk_packages(skillc_index.__path__, "skillc_index."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    classes: set[type[SkillcError]] = set()
    waiting: list[type[SkillcError]] = [SkillcError]
    while waiting:
        for subclass in waiting.pop().__subclasses__():
            waiting.append(subclass)
            classes.add(subclass)
    errors = []
    for error in sorted(classes, key=lambda c: (c.__module__, c.__qualname__)):
        parameters = list(inspect.signature(error.__init__).parameters.values())[1:]
        needed = [p for p in parameters if p.default is p.empty]
        if error is WordedOption:  # abstract: a subclass words its message
            continue
        if error.__name__.startswith("_") or any(p.annotation not in _SIMPLE for p in needed):
            continue
        args = [_SIMPLE[p.annotation] for p in needed if p.kind is not p.KEYWORD_ONLY]
        keywords = {p.name: _SIMPLE[p.annotation] for p in needed if p.kind is p.KEYWORD_ONLY}
        errors.append(error(*args, **keywords))
    return errors


def test_every_error_survives_a_pickle_round_trip() -> None:
    """A batch build's worker sends its errors to the parent pickled: the default rebuilt an
    error by calling its class with its message alone, which ``UnreadableFile(path,
    reason)`` refused (a TypeError in the parent, the pool broken: ``error[E999]:
    BrokenProcessPool``) and InternalError wrapped in ``error[E999]:`` a second time; a
    diagnostic's default parameters (a MappingProxyType) did not pickle at all. Every error
    class taking simple values is rebuilt as it was (each module's, 80 of them)."""
    import pickle

    errors = _simple_errors()
    names = {type(error).__name__ for error in errors}
    assert {"UnreadableFile", "InternalError", "FileTooLarge", "NotASkill"} <= names
    assert len(names) > 70
    broken = []
    for error in errors:
        try:
            again = pickle.loads(pickle.dumps(error))
        except Exception as exc:  # each class said, not the first alone
            broken.append(f"{type(error).__name__}: {exc!r}")
            continue
        if (type(again), str(again), again.args, vars(again)) != (
            type(error),
            str(error),
            error.args,
            vars(error),
        ) or again.spelled(CLI_SPELLING) != error.spelled(CLI_SPELLING):
            broken.append(f"{type(error).__name__}: {again!r} != {error!r}")
    assert broken == []
