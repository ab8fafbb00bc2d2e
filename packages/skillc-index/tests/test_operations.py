"""``init``, ``list``, ``build`` and ``route`` as operations (skillc_index.operations), run
in-process in a session as a front end makes one: what they return, what they log, the
session's hooks (``check_targets``, ``progress``) that a front end supplies, and their JSON
against its shape (the output schema)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from skillc_index import CLI_SPELLING, Diagnostic, InvalidOption, Layout, Notice, SkillcError
from skillc_index.accesslog import AccessLog
from skillc_index.build.batch import BatchResult
from skillc_index.build.jobs import NoSkillToBuild
from skillc_index.build.shapes import BatchShape
from skillc_index.build.skill import BuildResult
from skillc_index.command_errors import SkillExists
from skillc_index.operation import Session
from skillc_index.operations import (
    BUILD,
    INIT,
    LIST,
    OPERATIONS,
    BuildParams,
    InitParams,
    ListParams,
)
from skillc_index.route.operations import (
    ROUTE_INSTALL,
    ROUTE_STATUS,
    ROUTE_UNINSTALL,
    RouteParams,
    RouteStatusParams,
)
from skillc_index.shapes import shape_schema

WriteSkill = Callable[..., Path]
ReadSizes = Callable[..., list[int]]  # the root conftest's read_sizes


class Warnings(list[Diagnostic | Notice]):
    def __call__(self, diagnostics: Iterable[Diagnostic | Notice]) -> None:
        self.extend(diagnostics)


def session(layout: Layout, **hooks: Any) -> tuple[Session, Warnings]:
    warned = Warnings()
    return Session(layout, AccessLog(warned), **hooks), warned


def rows(runtime: Path) -> list[tuple[str, dict[str, Any], str | None]]:
    with closing(sqlite3.connect(runtime / ".skillc-meta" / "logs.db")) as db:
        found = db.execute("SELECT command, args, error FROM access_log ORDER BY id").fetchall()
    return [(command, json.loads(args), error) for command, args, error in found]


def test_the_package_operations_in_order() -> None:
    names = [operation.name for operation in OPERATIONS]
    assert names == [
        "init",
        "list",
        "build",
        "package",
        "route install",
        "route uninstall",
        "route status",
    ]
    # the MCP server serves init, list and build; package writes what leaves the machine,
    # route reorganises the agent's own folders
    assert [operation.name for operation in OPERATIONS if operation.no_tool is None] == names[:3]


def test_init_makes_the_project_then_a_skill(tmp_path: Path, home: Path) -> None:
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    run, warned = session(layout)
    project = INIT.run(run, InitParams())
    assert project.to_dict() == {
        "kind": "project",
        "name": None,
        "scope": None,
        "path": str(tmp_path / ".skillc" / "skills"),
        "created": True,
        "gitignore": ["/.skillc/runtime/", "/.skillc/logs/"],
    }
    assert INIT.run(run, InitParams()).to_dict()["created"] is False
    skill = INIT.run(run, InitParams("my-skill"))
    assert (tmp_path / ".skillc" / "skills" / "my-skill" / "SKILL.md").is_file()
    assert skill.to_dict()["scope"] == "project"
    assert skill.warnings == () and warned == []
    with pytest.raises(SkillExists):
        INIT.run(run, InitParams("my-skill"))


def test_a_global_init_needs_a_name_and_creates_nothing(tmp_path: Path, home: Path) -> None:
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    run, _ = session(layout)
    with pytest.raises(InvalidOption) as raised:
        INIT.run(run, InitParams(global_=True))
    assert raised.value.diagnostic.code == "E100"
    # the argument named bare: no quote doubled inside E100's ('invalid option: '...'')
    assert raised.value.diagnostic.message == "invalid option: 'global needs a skill name'"
    assert list(tmp_path.iterdir()) == [home]
    assert list(home.iterdir()) == []
    created = INIT.run(run, InitParams("g-skill", global_=True))
    assert created.to_dict()["scope"] == "global"
    assert (home / ".skillc" / "skills" / "g-skill" / "SKILL.md").is_file()


def test_list_reads_a_skill_md_as_far_as_its_frontmatter_can_go(
    layout: Layout, project: Path, write_skill: WriteSkill, read_sizes: ReadSizes
) -> None:
    """``list`` checks each store skill's frontmatter from the start of its SKILL.md only
    (what a parse reads, 4 MiB): before, a sparse 400 MB SKILL.md was read whole (838 MB)."""
    import skillc_index.files
    from skillc_index.markdown.document import MARKDOWN_READ_LIMIT

    skill_md = write_skill(project / ".skillc" / "skills" / "big") / "SKILL.md"
    os.truncate(skill_md, 4 * MARKDOWN_READ_LIMIT)  # sparse: no disk used
    read = read_sizes(skillc_index.files, "open_regular", path=skill_md)
    run, _ = session(layout)
    listed = LIST.run(run, ListParams())
    assert [skill["name"] for skill in listed.to_dict()["skills"]] == ["big"]
    assert read == [MARKDOWN_READ_LIMIT]


def test_list_filters_and_warns_of_skipped_skills(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    store = project / ".skillc" / "skills"
    for name in ("alpha", "beta", "gamma"):
        write_skill(store / name)
    write_skill(store / "broken", frontmatter="name: broken\n")
    run, warned = session(layout)
    listed = LIST.run(run, ListParams(pattern="*a", limit=1))
    data = listed.to_dict()
    assert [skill["name"] for skill in data["skills"]] == ["alpha"]
    assert (data["total"], data["filtered"]) == (3, 3)
    (skipped,) = listed.warnings
    assert isinstance(skipped, Notice) and "skipping skill 'broken'" in skipped.text
    assert warned == []  # a result's warnings are the front end's to print, not the session's
    built = LIST.run(run, ListParams(scope="global", status="normal"))
    assert built.to_dict()["skills"] == []


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"scope": "nope"}, "scope must be one of 'project', 'global', 'all' (not 'nope')"),
        ({"status": "bilt"}, "status must be one of 'normal', "),
        ({"limit": -1}, "limit must be at least 0, not -1"),
        ({"limit": "5"}, "limit must be an integer, not a string"),
        ({"pattern": 5}, "pattern must be a string, not a number"),
    ],
)
def test_the_python_api_checks_a_record_as_the_cli_and_mcp_do(
    layout: Layout, project: Path, write_skill: WriteSkill, params: dict[str, Any], message: str
) -> None:
    """``LIST.run(session, ListParams(scope="nope"))`` listed nothing, and ``limit=-1`` no
    skill, where ``skc list`` and ``skc_list`` refuse them (E100): ``Operation.run`` checks
    the record against its ``Param``s, as the tool's arguments are; ``list_skills`` too."""
    from skillc_index.listing.skills import list_skills

    write_skill(project / ".skillc" / "skills" / "alpha")
    run, _ = session(layout)
    with pytest.raises(InvalidOption, match=r"^error\[E100\]: invalid option: '(.*)'$") as caught:
        LIST.run(run, ListParams(**params))
    assert caught.value.diagnostic.params["message"].startswith(message)
    with pytest.raises(InvalidOption) as direct:
        list_skills(layout, **params)
    assert direct.value.diagnostic == caught.value.diagnostic
    assert LIST.run(run, ListParams(limit=1.0, scope="project")).to_dict()["total"] == 1  # type: ignore[arg-type]


def _searched(layout: Layout, limit: object) -> object:
    from skillc_index import ensure_index, fts_query, resolve_skill, search_sections

    index = ensure_index(resolve_skill("alpha", layout), "porter")
    return search_sections(index, fts_query("alpha", "porter"), limit)  # type: ignore[arg-type]


class _BytesPath:
    """A path object whose ``__fspath__`` gives ``bytes`` (``os.PathLike`` all the same)."""

    def __fspath__(self) -> bytes:
        return b"alpha"


class _IntPath:
    """A path object whose ``__fspath__`` gives what ``os.fspath`` refuses (TypeError)."""

    def __fspath__(self) -> int:
        return 5


def _built(layout: Layout, skill: object) -> object:
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session
    from skillc_index.operations import BUILD, BuildParams

    return BUILD.run(Session(layout, AccessLog(print)), BuildParams(skill=skill))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("resolve_skill(None)", "skill must be a name or a path, not NoneType"),
        ("resolve_skill(b'alpha')", "skill must be a name or a path, not bytes"),
        ("resolve_skill(BytesPath())", "skill must be a name or a path, not _BytesPath"),
        ("BUILD.run(skill=IntPath())", "skill must be a string, not an object"),
        ("init_skill(5)", "name must be a string, not a number"),
        ("build_skill(targets=5)", "targets must be agent names or folders (str), not int"),
        ("build_skill(targets=[5])", "targets must be agent names or folders (str), not int"),
        ("search_sections(limit=2**70)", "limit must be at most 1000000000"),
        ("search_sections(limit='x')", "limit must be an integer, not a string"),
    ],
)
def test_the_functions_behind_the_operations_refuse_a_wrong_type_with_e100(
    layout: Layout, project: Path, write_skill: WriteSkill, call: str, message: str
) -> None:
    """``resolve_skill(None)``, ``init_skill(5)`` and ``build_skill(targets=5)`` failed on a
    bare TypeError or AttributeError (a path object whose ``__fspath__`` gives bytes or an
    int too, through ``resolve_skill`` and an operation's ``path`` parameter),
    ``search_sections(limit=2**70)`` on an OverflowError and
    ``limit="x"`` on E002 "index unusable ... datatype mismatch": each is E100 naming the
    parameter, before any work (nothing made, nothing built)."""
    from skillc_index import resolve_skill
    from skillc_index.build.scaffold import init_skill
    from skillc_index.build.skill import build_skill

    write_skill(project / ".skillc" / "skills" / "alpha")
    calls: dict[str, Callable[[], object]] = {
        "resolve_skill(None)": lambda: resolve_skill(None, layout),  # type: ignore[arg-type]
        "resolve_skill(b'alpha')": lambda: resolve_skill(b"alpha", layout),  # type: ignore[arg-type]
        "resolve_skill(BytesPath())": lambda: resolve_skill(_BytesPath(), layout),  # type: ignore[arg-type]
        "BUILD.run(skill=IntPath())": lambda: _built(layout, _IntPath()),
        "init_skill(5)": lambda: init_skill(5, layout),  # type: ignore[arg-type]
        "build_skill(targets=5)": lambda: build_skill("alpha", layout, targets=5),  # type: ignore[arg-type]
        "build_skill(targets=[5])": lambda: build_skill("alpha", layout, targets=[5]),  # type: ignore[list-item]
        "search_sections(limit=2**70)": lambda: _searched(layout, 2**70),
        "search_sections(limit='x')": lambda: _searched(layout, "x"),
    }
    with pytest.raises(InvalidOption) as caught:
        calls[call]()
    assert caught.value.diagnostic.params["message"].startswith(message)
    assert [path.name for path in (project / ".skillc" / "skills").iterdir()] == ["alpha"]
    assert not (project / ".claude").exists()  # nothing deployed


def test_the_command_line_checks_a_record_once(
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
    layout: Layout,
    count_calls: Callable[[object, str], list[tuple[Any, ...]]],
) -> None:
    """click refused a bad value already, and ``Operation.run`` checked the record again
    (the Python API's check): the command line calls the operation's function on the record
    it parsed; ``run`` still checks it."""
    import skillc_index.operation

    checks = count_calls(skillc_index.operation, "checked_record")
    assert cli("skillc-index")("list").returncode == 0
    assert checks == []
    LIST.run(session(layout)[0], ListParams())
    assert len(checks) == 1


def test_a_checked_record_keeps_what_the_front_ends_give(layout: Layout) -> None:
    """A record of right values is itself; one ``str`` for a tuple field is one item, a path
    an ``os.PathLike`` as its ``str``, an integral float an int (as JSON's ``5.0``)."""
    from skillc_index.parameters import checked_record

    given = BuildParams("demo", target=("claude",))
    assert checked_record(given) is given
    assert checked_record(BuildParams(Path("skills/demo"), target="claude")) == BuildParams(  # type: ignore[arg-type]
        "skills/demo", target=("claude",)
    )
    assert checked_record(ListParams(limit=2.0)).limit == 2  # type: ignore[arg-type]
    assert type(checked_record(ListParams(limit=2.0)).limit) is int  # type: ignore[arg-type]


@pytest.mark.usefixtures("skc_on_path")
def test_build_logs_one_row_after_the_build(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc" / "skills" / "demo", body="## Usage\n\nText.\n")
    seen: list[tuple[int, int]] = []
    run, _ = session(layout, progress=lambda done, total: seen.append((done, total)))
    built = BUILD.run(run, BuildParams("demo", target=("claude",), copy=True))
    data = built.to_dict()
    assert data["skill"] == "demo" and data["warnings"] == []
    assert [d["method"] for d in data["deployments"]] == ["copy"]
    assert seen and seen[-1][0] == seen[-1][1]  # the progress hook saw the work to its end
    runtime = Path(data["runtime_path"])
    assert rows(runtime) == [
        ("build", {"global": False, "target": ["claude"], "copy": True, "force": False}, None)
    ]


def test_a_failed_build_is_logged_with_its_error(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc" / "skills" / "demo")
    run, _ = session(layout)
    BUILD.run(run, BuildParams("demo"))
    with pytest.raises(InvalidOption):
        BUILD.run(run, BuildParams("demo", target=("no-such-agent",)))
    runtime = project / ".skillc" / "runtime" / "demo"
    (first, failed) = rows(runtime)
    assert first[2] is None
    assert failed[0] == "build" and failed[1]["target"] == ["no-such-agent"]
    assert failed[2] is not None and failed[2].startswith("error[E100]")


@pytest.mark.parametrize("global_", [False, True])
def test_a_failed_build_of_a_folder_in_no_store_logs_nothing_anywhere(
    layout: Layout, project: Path, home: Path, tmp_path: Path, global_: bool
) -> None:
    """Nothing was imported: no runtime folder in the project or the home for a skill no store
    has, and no fallback row under the draft's path that sync could never move (as lint of
    such a folder; DECISIONS.md)."""
    draft = tmp_path / "drafts" / "notes"
    draft.mkdir(parents=True)
    (draft / "SKILL.md").write_text("no frontmatter\n", encoding="utf-8")
    run, _ = session(layout)
    with pytest.raises(SkillcError):
        BUILD.run(run, BuildParams(str(draft), global_=global_))
    assert not (project / ".skillc" / "logs").exists()
    assert [*project.rglob("notes"), *home.rglob("notes")] == []
    assert not layout.runtime_store("global").joinpath("notes").exists()


def test_check_targets_refuses_before_anything_is_written(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """The front end's target policy (the MCP server's ``--allow-target``) sees the layout
    and the targets first: a refusal builds, deploys and logs nothing."""
    write_skill(project / ".skillc" / "skills" / "demo")
    asked: list[tuple[Layout, Sequence[str]]] = []

    def refuse(where: Layout, targets: Sequence[str]) -> None:
        asked.append((where, targets))
        raise InvalidOption("not here")

    run, _ = session(layout, check_targets=refuse)
    with pytest.raises(InvalidOption, match="not here"):
        BUILD.run(run, BuildParams("demo", target=("/tmp/elsewhere",)))
    assert asked == [(layout, ("/tmp/elsewhere",))]
    assert not (project / ".skillc" / "runtime").exists()
    assert not (project / ".claude").exists()

    def allow(where: Layout, targets: Sequence[str]) -> None:
        asked.append((where, targets))

    allowed, _ = session(layout, check_targets=allow)
    assert BUILD.run(allowed, BuildParams("demo")).to_dict()["deployments"]
    assert asked[-1] == (layout, ())


def test_init_in_the_skillc_home_has_the_shape_the_tool_advertises(home: Path) -> None:
    """``init`` run in the skillc home answers ``kind: global``, which the tool's output
    schema once left out of its enum (a client validating the reply refused it)."""
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    run, _ = session(layout)
    data = INIT.run(run, InitParams()).to_dict()
    assert (data["kind"], data["scope"]) == ("global", "global")
    jsonschema.validate(data, INIT.output_schema())


def test_a_global_init_without_a_name_names_the_parameters_as_each_front_end_does(
    tmp_path: Path, home: Path
) -> None:
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    with pytest.raises(InvalidOption) as raised:
        INIT.run(session(layout)[0], InitParams(global_=True))
    assert raised.value.spelled(CLI_SPELLING).params["message"] == "--global needs a skill NAME"


def test_the_command_lines_batch_runs_inside_build(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """``skills`` naming several skills or a folder of skills, and ``all_``, are a batch that
    the operation builds (one item per skill, in order, a failure stopping none); one skill
    named is a build of one skill, whose JSON is the tool's."""
    store = project / ".skillc" / "skills"
    write_skill(store / "alpha")
    write_skill(project / "skills" / "gamma")
    write_skill(project / "skills" / "broken", frontmatter="name: broken\n")  # E011
    run, _ = session(layout)
    one = BUILD.run(run, BuildParams(None, skills=("alpha",)))
    assert isinstance(one, BuildResult)
    jsonschema.validate(one.to_dict(), BUILD.output_schema())
    batch = BUILD.run(run, BuildParams(None, skills=("alpha", "skills")))
    assert isinstance(batch, BatchResult)
    assert [(item.job.name, item.status) for item in batch.items] == [
        ("alpha", "up-to-date"),
        ("broken", "failed"),
        ("gamma", "built"),
    ]
    data = batch.to_dict()
    assert data["summary"] == {"skills": 3, "built": 1, "up_to_date": 1, "failed": 1}
    jsonschema.validate(data, shape_schema(BatchShape))
    folder = BUILD.run(run, BuildParams(None, skills=("skills",)))
    assert isinstance(folder, BatchResult) and len(folder.items) == 2  # a folder of skills
    stores = BUILD.run(run, BuildParams(None, all_=True))
    assert isinstance(stores, BatchResult)
    assert sorted(item.job.name for item in stores.items) == ["alpha", "gamma"]  # imported


def test_the_tool_builds_one_skill_never_a_folder_of_skills(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / "skills" / "gamma")
    run, _ = session(layout)
    with pytest.raises(SkillcError):
        BUILD.run(run, BUILD.parse({"skill": "skills"}))
    assert not (project / ".skillc" / "runtime").exists()


def test_a_build_of_nothing_names_the_parameters_as_each_front_end_does(layout: Layout) -> None:
    run, _ = session(layout)
    with pytest.raises(NoSkillToBuild) as raised:
        BUILD.run(run, BuildParams(None))
    assert raised.value.diagnostic.code == "E100"
    assert raised.value.diagnostic.params["message"] == (
        "no skill to build: give skill, skills or all"
    )
    assert raised.value.spelled(CLI_SPELLING).params["message"] == 'Missing argument "SKILL...".'
    with pytest.raises(InvalidOption, match="no skills to build: the stores hold none"):
        BUILD.run(run, BuildParams(None, all_=True))


def test_route_install_status_and_uninstall_are_operations(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    claude = project / ".claude" / "skills"
    write_skill(claude / "tidy")
    run, _ = session(layout)
    plan = ROUTE_INSTALL.run(run, RouteParams(dry_run=True))
    assert plan.dry_run and [skill.name for skill in plan.skills] == ["tidy"]
    assert (claude / "tidy" / "SKILL.md").is_file()  # a dry run moves nothing
    done = ROUTE_INSTALL.run(run, RouteParams())
    assert not (claude / "tidy").exists() and (claude / "skill-router").is_dir()
    status = ROUTE_STATUS.run(run, RouteStatusParams(target="claude"))
    assert (status.command, status.routed) == ("status", 1)
    back = ROUTE_UNINSTALL.run(run, RouteParams())
    assert (claude / "tidy" / "SKILL.md").is_file() and not (claude / "skill-router").exists()
    for result in (plan, done, status, back):
        jsonschema.validate(result.to_dict(), ROUTE_STATUS.output_schema())
    assert all(op.no_tool for op in (ROUTE_INSTALL, ROUTE_UNINSTALL, ROUTE_STATUS))


def test_fit_parts_leaves_out_an_item_too_long_alone_not_the_ones_after_it(
    tmp_path: Path, home: Path
) -> None:
    """The reply's fitter kept a prefix of each list: one item longer alone than the reply
    (first, here) left out every item after it. It is left out alone (a mask), the others
    still fitted, the last of the longest part first, and the warning counts what is kept."""
    from skillc_index.operation import Part

    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    run = Session(layout, AccessLog(print), reply_chars=100)
    huge, small = "h" * 200, "s" * 8  # 202 and 12 characters of JSON (each with its ", ")
    kept, cut = run.fit_parts(
        lambda: [Part("a", [huge, small, small, huge, small]), Part("b", [small] * 6)], "x", "y"
    )
    # 36 + 72 over 100: the last of the longer part left out
    assert kept == ((False, True, True, False, True), (True,) * 5 + (False,))
    [warning] = cut
    limit = "the reply's limit of 100 characters; 2 too long alone"
    assert warning.text == f"x cut at 3 of 5 a and 5 of 6 b ({limit}): y"
    kept, cut = Session(layout, AccessLog(print), reply_chars=50).fit(
        lambda: [huge, *[small] * 6], "x", "n", "y"
    )
    assert kept == (False, True, True, True, True, False, False) and "4 of 7 n" in cut[0].text


def test_a_reply_chars_that_is_no_integer_from_1_to_max_count_is_e100(
    tmp_path: Path, home: Path
) -> None:
    """``Session(..., reply_chars=N)`` is public (this README): a negative or zero bound (every
    list cut to nothing), a bool, a string (a ``TypeError`` at the first reply) or a bound
    past :data:`~skillc_index.arguments.MAX_COUNT` was kept as given. Each is E100 naming
    ``reply_chars``, as every other bound of the API; 1, ``5.0`` (JSON's integer) and None
    (no bound) are taken."""
    from skillc_index import format_diagnostic
    from skillc_index.arguments import MAX_COUNT

    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    for bad in (-5, 0, True, False, "100", 2.5, MAX_COUNT + 1, 10**30):
        with pytest.raises(InvalidOption) as raised:
            Session(layout, AccessLog(print), reply_chars=bad)  # type: ignore[arg-type]
        assert raised.value.diagnostic.code == "E100", bad
        assert "reply_chars must be " in format_diagnostic(raised.value.diagnostic), bad
    for good, kept in ((1, 1), (5.0, 5), (MAX_COUNT, MAX_COUNT), (None, None)):
        run = Session(layout, AccessLog(print), reply_chars=good)  # type: ignore[arg-type]
        assert run.reply_chars == kept and type(run.reply_chars) is type(kept)


@pytest.mark.parametrize("noticed", [False, True])
def test_fit_parts_keeps_the_reply_with_its_warnings_within_the_bound(
    tmp_path: Path, home: Path, noticed: bool
) -> None:
    """The warning of the cut was added after the fitting: an MCP outline came out 100,297
    characters for a bound of 100,000. The reply with the warning (and the session's
    notices, which the reply's ``warnings`` hold too) fits; each item more would not."""
    from skillc_index import format_diagnostic
    from skillc_index.operation import Part

    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    run = Session(layout, AccessLog(print), reply_chars=2_000)
    if noticed:
        run.result_notices.append(Notice("skill 'x' found twice: the project's read"))
    items = [f"item {n:03d} of a list" for n in range(200)]
    beside = {"skill": "x", "items": []}
    kept, cut = run.fit_parts(lambda: [Part("items", items)], "x", "y", beside)

    def reply(held: int) -> str:
        warnings = [*run.result_notices, *cut]
        data = {**beside, "items": items[:held], "warnings": list(map(format_diagnostic, warnings))}
        return json.dumps(data, ensure_ascii=False)

    held = sum(kept[0])
    assert kept[0] == (True,) * held + (False,) * (200 - held)
    assert len(reply(held)) <= 2_000 < len(reply(held + 1)) + 2  # (a first item's ", " too)
    assert cut[0].text.startswith(f"x cut at {held} of 200 items")


def test_given_names_the_first_parameter_off_its_default() -> None:
    """``given``: the one test of "``--x`` goes with ``--y``" (``package``, ``lint``, ``eval``
    alike): the first of the names whose value is not its field's default, a value equal to
    the default taken as not given (``--to plugin --base-url /.well-known/agent-skills/``),
    None when none is."""
    from skillc_index.package.operation import PackageParams
    from skillc_index.parameters import given

    upload = PackageParams(("a",), to="upload", output="dist")
    assert given(upload, ("name", "version", "base_url")) is None
    default = upload._replace(base_url="/.well-known/agent-skills/")
    assert given(default, ("name", "base_url")) is None  # the default
    # --version has none (the last run's, else 1.0.0): 1.0.0 is given
    assert given(upload._replace(version="1.0.0"), ("name", "version")) == "version"
    assert given(upload._replace(version="2.0.0"), ("name", "version")) == "version"
    wrong = upload._replace(base_url="https://x", author="me")
    assert given(wrong, ("name", "version", "author", "base_url")) == "author"
    assert given(wrong, ("base_url", "author")) == "base_url"
