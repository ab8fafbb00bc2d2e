"""A command written once (issue 33): the click command, the MCP input schema, the MCP
argument checks and the output schema all come from the operation's parameters record and
its result's shape."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict

import click
import pytest
from click.testing import CliRunner

from skillc_index import CLI_SPELLING, MCP_SPELLING, InvalidOption, Notice
from skillc_index.console import Call, command
from skillc_index.operation import Operation, Param, Session
from skillc_index.option_errors import TooManyItems
from skillc_index.record import Record
from skillc_index.shapes import shape_schema


class EchoParams(Record):
    skill: Annotated[str, Param("The skill.", min_length=1, argument=True)]
    words: Annotated[tuple[str, ...], Param("Words.", argument=True, metavar="[WORD]...")] = ()
    mode: Annotated[Literal["plain", "loud"], Param("How to say it.")] = "plain"
    times: Annotated[int, Param("How often.", minimum=1, maximum=5, help="Repeat count.")] = 1
    limit: Annotated[int | None, Param("At most.", mcp_default=3)] = None
    tag: Annotated[
        tuple[str, ...], Param("Tags.", flags=("-t", "--tag"), item_min_length=1, max_items=3)
    ] = ()
    dry_run: Annotated[bool, Param("Do nothing.")] = False
    jobs: Annotated[int | None, Param("Workers.", minimum=1)] = None


class EchoShape(TypedDict):
    skill: str
    said: Annotated[list[str], "What was said."]


class EchoResult(Record):
    params: EchoParams
    warnings: tuple[Notice, ...] = ()

    def to_dict(self) -> EchoShape:
        return {"skill": self.params.skill, "said": list(self.params.words)}


def echo(session: Session, params: EchoParams) -> EchoResult:
    return EchoResult(params, (Notice("said it"),))


ECHO: Operation[EchoParams, EchoResult] = Operation(
    name="echo",
    title="Echo",
    description="Say words.",
    params=EchoParams,
    run=echo,
    output=f"{__name__}:EchoShape",
    cli_only={"jobs": "workers are the command line's"},
    mcp_only={"limit": "a reply's bound"},
)


@command(ECHO)
def echo_command(result: EchoResult, call: Call[EchoParams]) -> int:
    """Say words.

    More text.
    """
    click.echo(repr(call.params))
    click.echo(call.output_format)
    return 3 if call.params.dry_run else 0


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SKILLC_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    yield


def test_every_field_becomes_its_argument_or_option() -> None:
    params = {p.name: p for p in echo_command.params}
    assert list(params) == [
        "skill",
        "words",
        "mode",
        "times",
        "tag",
        "dry_run",
        "jobs",
        "output_format",
        "verbose",
    ]  # the record's order, limit (MCP only) left out, then --format and -v
    assert isinstance(params["skill"], click.Argument) and params["skill"].required
    assert params["words"].nargs == -1 and not params["words"].required
    assert params["mode"].type.choices == ("plain", "loud")  # type: ignore[attr-defined]
    times = params["times"].type
    assert isinstance(times, click.IntRange) and (times.min, times.max) == (1, 5)
    assert params["tag"].opts == ["-t", "--tag"] and params["tag"].multiple
    assert params["dry_run"].is_flag and params["dry_run"].opts == ["--dry-run"]  # type: ignore[attr-defined]
    help_text = echo_command.get_help(click.Context(echo_command))
    assert "Repeat count." in help_text and "How often." not in help_text  # help, else description
    assert "[default: plain]" in help_text  # a choice shows its default
    assert help_text.splitlines()[2].strip() == "Say words."


def test_the_command_parses_by_name_and_renders() -> None:
    done = CliRunner().invoke(
        echo_command, ["x", "a", "b", "--mode", "loud", "-t", "one", "--tag", "two", "--dry-run"]
    )
    assert done.exit_code == 3, done.output
    record = EchoParams("x", ("a", "b"), "loud", 1, None, ("one", "two"), True, None)
    assert done.stdout.splitlines() == [repr(record), "text"]
    assert done.stderr == "warning: said it\n"  # warnings go to stderr


def test_json_is_the_results_dict_and_warnings_go_to_stderr() -> None:
    done = CliRunner().invoke(echo_command, ["x", "a", "--format", "json"])
    assert done.exit_code == 0
    assert done.stdout.strip() == '{\n  "skill": "x",\n  "said": [\n    "a"\n  ]\n}'
    assert "said it" in done.stderr


def test_json_is_utf8_whatever_the_streams_encoding() -> None:
    """``PYTHONIOENCODING=latin-1`` (a redirected stdout's Windows code page): a heading
    ``Café ☕`` made ``--format json`` (and lint's sarif) an E999 ``UnicodeEncodeError``;
    the JSON is UTF-8 bytes, as ``skc find`` writes its answer (``streams.write_stdout``)."""
    done = CliRunner(charset="latin-1").invoke(echo_command, ["x", "Café ☕", "--format", "json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout_bytes.decode("utf-8")) == {"skill": "x", "said": ["Café ☕"]}


def test_a_value_out_of_range_is_a_usage_error() -> None:
    done = CliRunner().invoke(echo_command, ["x", "--times", "6"])
    assert done.exit_code == 2 and "--times" in done.stderr


def test_the_input_schema_leaves_out_the_command_lines_own_fields() -> None:
    schema = ECHO.input_schema()
    assert list(schema["properties"]) == [
        "skill",
        "words",
        "mode",
        "times",
        "limit",
        "tag",
        "dry_run",
    ]
    assert schema["required"] == ["skill"]
    assert schema["properties"]["limit"]["default"] == 3  # the MCP default
    assert schema["properties"]["mode"] == {
        "enum": ["plain", "loud"],
        "description": "How to say it.",
        "default": "plain",
    }
    assert schema["properties"]["tag"]["items"] == {"type": "string", "minLength": 1}


def test_arguments_are_checked_against_the_schema_and_parsed_into_the_record() -> None:
    record = ECHO.parse({"skill": "x", "words": ["a"], "times": 2.0})
    assert record == EchoParams("x", ("a",), "plain", 2, 3, (), False, None)
    for arguments, message in [
        ({"skill": ""}, "skill must not be empty"),
        ({"skill": "x", "times": 6}, "times must be at most 5, not 6"),
        ({"skill": "x", "mode": "quiet"}, "mode must be one of 'plain', 'loud' (not 'quiet')"),
        ({"skill": "x", "jobs": 2}, "unknown argument 'jobs'"),
        ({"words": []}, "the required argument 'skill' is missing"),
        ({"skill": "x", "tag": [""]}, "tag[0] must not be empty"),
        ({"skill": "x", "dry_run": "yes"}, "dry_run must be a boolean, not a string"),
    ]:
        with pytest.raises(InvalidOption, match=re.escape(message)):
            ECHO.parse(arguments)


def test_more_items_than_max_items_are_refused_before_any_is_looked_at() -> None:
    """An array's bound (``max_items``, the schema's ``maxItems``) holds in both front ends,
    checked before its items: ``skc_eval``'s ``path`` of 20,000 folders, each confined and
    walked in turn, held the server 106 s (``skc_find``'s was refused at 16)."""
    assert ECHO.input_schema()["properties"]["tag"]["maxItems"] == 3
    with pytest.raises(TooManyItems) as caught:
        ECHO.parse({"skill": "x", "tag": [""] * 200_000})  # not "tag[0] must not be empty"
    assert str(caught.value).endswith("'tag holds 200,000 values; at most 3 are allowed'")
    done = CliRunner().invoke(echo_command, ["x", *["-t", "a"] * 4])
    assert isinstance(done.exception, TooManyItems) and done.stdout == ""  # nothing run
    assert "--tag holds 4 values;" in done.exception.spelled(CLI_SPELLING).params["message"]
    assert CliRunner().invoke(echo_command, ["x", *["-t", "a"] * 3]).exit_code == 0


def test_too_many_skill_arguments_name_the_argument_not_an_option() -> None:
    """``skc eval`` with 1,001 SKILL arguments said ``--skills holds 1,001 values``, an option
    that does not exist: the command line names its positional argument as ``--help`` does."""
    error = TooManyItems("skills", 1001, 1000)
    message = "holds 1,001 values; at most 1,000 are allowed"
    assert error.spelled(CLI_SPELLING).params["message"] == f"SKILL {message}"
    assert error.spelled(MCP_SPELLING).params["message"] == f"skills {message}"


def test_the_output_schema_is_the_shape_of_to_dict() -> None:
    assert ECHO.output_schema() == {
        "type": "object",
        "properties": {
            "skill": {"type": "string"},
            "said": {
                "type": "array",
                "items": {"type": "string"},
                "description": "What was said.",
            },
        },
        "required": ["skill", "said"],
    }


class _Required(TypedDict):
    name: str
    kind: Literal["a", "b", None]
    size: int | None


class Node(_Required, total=False):
    children: list[Node]
    extra: dict[str, Any]
    data: dict[str, Any] | list[Any]


class Root(TypedDict):
    root: Node


def test_shapes_optional_nullable_and_recursive() -> None:
    schema = shape_schema(Root)
    node = schema["$defs"]["Node"]
    assert schema["properties"]["root"] == {"$ref": "#/$defs/Node"}
    assert node["required"] == ["name", "kind", "size"]  # total=False keys are optional
    assert node["properties"]["kind"] == {"enum": ["a", "b", None]}
    assert node["properties"]["size"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert node["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert node["properties"]["extra"] == {"type": "object"}
    assert node["properties"]["data"] == {"anyOf": [{"type": "object"}, {"type": "array"}]}


#: Made in the functional form, so ``list["Tree"]`` is evaluated here (as in a shapes module
#: without ``from __future__ import annotations``) and holds the name as a string.
Tree = TypedDict("Tree", {"name": str, "children": list["Tree"]})  # noqa: UP013


def test_a_name_inside_a_list_is_the_shape_of_that_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python 3.10's ``get_type_hints`` leaves the ``"Tree"`` of ``list["Tree"]`` a string
    (3.11 resolves it): the schema is the same either way (it was a KeyError on 3.10)."""
    import typing

    monkeypatch.setattr(typing, "get_type_hints", lambda shape, **_: dict(shape.__annotations__))
    schema = shape_schema(Tree)
    assert schema["$ref"] == "#/$defs/Tree"
    assert schema["$defs"]["Tree"]["properties"]["children"] == {
        "type": "array",
        "items": {"$ref": "#/$defs/Tree"},
    }


class CountParams(Record):
    kind: Annotated[Literal["a", "b"], Param("Kind.", choice=False)] = "a"


class CountShape(TypedDict):
    kind: str


class CountResult(Record):
    kind: str
    warnings: tuple[Notice, ...] = ()

    def to_dict(self) -> CountShape:
        return {"kind": self.kind}


def count(session: Session, params: CountParams) -> CountResult:
    return CountResult(params.kind)


COUNT: Operation[CountParams, CountResult] = Operation(
    name="count",
    title="Count",
    description="Count.",
    params=CountParams,
    run=count,
    output=f"{__name__}:CountShape",
)


def _status(result: CountResult) -> int:
    return 0 if result.kind in ("a", "b") else 4


@command(COUNT, status=_status)
def count_command(result: CountResult, call: Call[CountParams]) -> None:
    """Count."""
    click.echo(result.kind)


def test_status_is_the_exit_status_in_every_format() -> None:
    for output, shown in [("text", "zzz\n"), ("json", '{\n  "kind": "zzz"\n}\n')]:
        done = CliRunner().invoke(count_command, ["--kind", "zzz", "--format", output])
        assert (done.exit_code, done.stdout) == (4, shown)  # plain text: the run checks it
    assert CliRunner().invoke(count_command, ["--kind", "b", "--format", "json"]).exit_code == 0
    # the tool's schema: text too, its values in the description, so that the run's own
    # check answers an MCP call as it answers the command line (an enum made it E100)
    kind = COUNT.input_schema()["properties"]["kind"]
    assert kind["type"] == "string" and "enum" not in kind
    assert kind["description"].endswith("One of: a, b.")


class BatchParams(Record):
    """A batch command's record: the tool's one ``name``, the command line's ``names``."""

    name: Annotated[str | None, Param("One name.", min_length=1)]
    names: Annotated[tuple[str, ...], Param("Names.", argument=True, metavar="[NAME]...")] = ()


class BatchResult(Record):
    names: tuple[str, ...]
    warnings: tuple[Notice, ...] = ()

    def to_dict(self) -> dict[str, Any] | list[Any]:
        return list(self.names) if len(self.names) != 1 else {"name": self.names[0]}


def batch(session: Session, params: BatchParams) -> BatchResult:
    return BatchResult(params.names if params.name is None else (params.name,))


BATCH: Operation[BatchParams, BatchResult] = Operation(
    name="batch",
    title="Batch",
    description="Names, one or many.",
    params=BatchParams,
    run=batch,
    output={"type": "object"},
    cli_only={"names": "the command line takes any number"},
    mcp_only={"name": "the tool takes one"},
)


@command(BATCH, render_json=True)
def batch_command(result: BatchResult, call: Call[BatchParams]) -> int:
    """Count names."""
    from skillc_index.console import print_json

    click.echo(f"{len(result.names)} names", err=True)  # beside the JSON too
    if call.output_format == "json":
        print_json(result.to_dict())
    return 0 if result.names else 4


def test_a_batch_records_the_tools_required_field_as_none_and_renders_its_json() -> None:
    """The tool requires ``name``, which the command line lacks (None there); the rendering
    prints the JSON itself, with what goes beside it and its exit status."""
    assert BATCH.input_schema()["required"] == ["name"]
    assert BATCH.parse({"name": "x"}) == BatchParams("x")
    assert [p.name for p in batch_command.params] == ["names", "output_format", "verbose"]
    done = CliRunner().invoke(batch_command, ["a", "b", "--format", "json"])
    assert (done.exit_code, done.stderr) == (0, "2 names\n")
    assert done.stdout == '[\n  "a",\n  "b"\n]\n'
    empty = CliRunner().invoke(batch_command, ["--format", "json"])
    assert (empty.exit_code, empty.stdout) == (4, "[]\n")  # the render's status, in json too


class Counted(Record):
    seen: tuple[tuple[int, int], ...]
    warnings: tuple[Notice, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"seen": [list(pair) for pair in self.seen]}


def counted(session: Session, params: CountParams) -> Counted:
    assert session.progress is not None  # the bar the command line made for this record
    session.progress(0, 2)
    return Counted(((0, 2),))


PART: Operation[CountParams, Counted] = Operation(
    name="group part",
    title="Part",
    description="A command of a group.",
    params=CountParams,
    run=counted,
    output={"type": "object"},
    no_tool="a test",
)
bars: list[str] = []


def _bar(params: CountParams, session: Session) -> Any:
    from skillc_index.progress import DelayedProgress

    bars.append(params.kind)
    return DelayedProgress(f"Counting {params.kind}")


@command(PART, progress=_bar)
def part_command(result: Counted, call: Call[CountParams]) -> None:
    """A part."""
    click.echo(repr(result.seen))


def test_a_command_of_a_group_is_named_by_the_operations_last_word() -> None:
    """``route install`` is the command ``install`` of the group ``route``; the progress bar
    may be made for the record; the command holds its operation (``operation_of``)."""
    from skillc_index.console import operation_of

    assert part_command.name == "part"
    done = CliRunner().invoke(part_command, ["--kind", "b"])
    assert (done.exit_code, done.stdout, bars) == (0, "((0, 2),)\n", ["b"])
    assert operation_of(part_command) is PART and operation_of(echo_command) is ECHO
    assert operation_of(click.Command("by-hand", callback=lambda: None)) is None


@pytest.mark.parametrize(
    ("program", "group", "said"),
    [
        ("skillc-gateway", True, "skillc-gateway watch --stop"),  # the package's own script
        ("skc", True, "skc watch --stop"),
        ("skillc-mcp", False, "skc watch --stop"),  # a script without that command
    ],
)
def test_a_hint_names_the_command_as_the_program_run_writes_it(
    program: str, group: bool, said: str
) -> None:
    """``program_command``: a hint or an error to paste names the command the user can run,
    the package script's own form under it (``skillc-gateway`` installed alone has no
    ``skc``), as its help examples do; outside a command, ``skc``."""
    from skillc_index.helppage import program_command

    heard: list[str] = []
    name = "watch" if group else "mcp"  # skillc-mcp is one command: its own
    leaf = click.Command(name, callback=lambda: heard.append(program_command("watch --stop")))
    root: click.Command = click.Group(program, commands=[leaf]) if group else leaf
    args = [name] if group else []
    result = CliRunner().invoke(root, args, prog_name=program, catch_exceptions=False)
    assert result.exit_code == 0 and heard == [said]
    assert program_command("show") == "skc show"


def test_a_parameter_of_several_items_is_read_and_checked_in_one_place() -> None:
    """``as_items``: one ``str`` or path is one item, not its characters; ``checked_items``
    raises the caller's error for a value that is no list (``listed`` False) or its first
    item of another type (True), never a bare ``TypeError``; a generator is read once."""
    from skillc_index.items import as_items, checked_items

    assert as_items("claude") == ("claude",)
    assert as_items(Path("/w")) == (Path("/w"),)

    def wrong(bad: object, listed: bool) -> InvalidOption:
        return InvalidOption(f"{bad!r} {listed}")

    assert checked_items((name for name in ("a", "b")), str, wrong) == ("a", "b")
    assert checked_items("a", str, wrong) == ("a",)
    with pytest.raises(InvalidOption, match="5 False"):
        checked_items(5, str, wrong)
    with pytest.raises(InvalidOption, match="5 True"):
        checked_items(["a", 5, None], str, wrong)


def test_a_help_page_is_wrapped_at_spaces_only() -> None:
    """``helppage.Command``'s page never breaks an option, a path or inline code at a hyphen
    (click's own did: ``--write-`` / ``baseline``), nor a word longer than the line; the
    rest is laid out as click lays it out (paragraphs, ``\\b`` blocks, the option list)."""
    from skillc_index.helppage import Command

    long_path = "~/.skillc/" + "x" * 60 + "-overrides.json"
    text = (
        "Reads the access log (`.skillc-meta/logs.db`) written by --write-baseline and "
        f"mcp-style tools, then {long_path} too.\n\n"
        "\b\nExamples:\n  skc demo --max-false-triggers 2   # a comment kept as it is\n\n"
        "A last paragraph of plain words that wraps as it always did."
    )
    option = click.Option(["--max-false-triggers"], help="Exit 1 beyond --max-false-triggers.")
    page = Command("demo", help=text, params=[option], context_settings={"terminal_width": 40})
    result = CliRunner().invoke(page, ["--help"], prog_name="skc")
    words = result.output.split()
    for word in ("(`.skillc-meta/logs.db`)", "--write-baseline", "mcp-style", long_path):
        assert word in words, result.output
    assert "--max-false-triggers." in words
    assert "    skc demo --max-false-triggers 2   # a comment kept as it is\n" in result.output
    plain = Command("plain", help=text.rpartition("\n\n")[2], params=[click.Option(["--x"])])
    ours = plain.get_help(plain.make_context("plain", [], resilient_parsing=True))
    clicks = plain.get_help(click.Context(plain, info_name="plain"))
    assert ours == clicks
