"""``package`` as an operation (:mod:`skillc_index.operation`): its parameters record and its
function (issue 37). No MCP tool: what leaves the machine is a person's decision."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from skillc_index.operation import WRITES, Operation, Param, Session
from skillc_index.parameters import given
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_index.package.result import PackageResult

__all__ = ["PACKAGE", "PackageParams", "package"]


class PackageParams(Record):
    """What to package, as what, and where."""

    skills: Annotated[
        tuple[str, ...],
        Param(
            "Skill names or skill folders to package.",
            argument=True,
            metavar="SKILL...",
            skill=True,
        ),
    ] = ()
    to: Annotated[
        Literal["upload", "well-known", "plugin", "claude-plugin"],
        Param(
            "What to make: upload (a zip for claude.ai and the Skills API), well-known (a "
            "/.well-known/agent-skills/ discovery index), plugin (Agent Plugins 1.0), "
            "claude-plugin (a Claude Code plugin and its marketplace).",
            flags=("--to",),
            show_default=True,
        ),
    ] = "upload"
    output: Annotated[
        str,
        Param(
            "The folder the package is written into.",
            flags=("-o", "--output"),
            names="dir",
            min_length=1,
            show_default=True,
        ),
    ] = "dist"
    name: Annotated[
        str | None,
        Param("The plugin's name (default: the skill's, when there is one skill).", min_length=1),
    ] = None
    version: Annotated[
        str | None,
        Param("The plugin's version (default: the last run's, else 1.0.0).", min_length=1),
    ] = None
    author: Annotated[
        str | None, Param("The plugin's author (and the marketplace's owner).", min_length=1)
    ] = None
    description: Annotated[
        str | None,
        Param(
            "The plugin's description, and its marketplace's (default: the skill's, when there "
            "is one skill; the marketplace has none).",
            min_length=1,
        ),
    ] = None
    base_url: Annotated[
        str,
        Param("What each well-known artifact's url starts with.", min_length=1, show_default=True),
    ] = "/.well-known/agent-skills/"
    force: Annotated[
        bool,
        Param(
            "Move aside (to a hidden backup beside them) files in the output folder that skc "
            "package did not write there (or that were edited since it did).",
            flags=("-f", "--force"),
        ),
    ] = False


def package(session: Session, params: PackageParams) -> PackageResult:
    """:func:`skillc_index.package.make.package_skills`; not logged (nothing is read for an
    agent)."""

    from skillc_index.layout import expand_user
    from skillc_index.package.make import package_skills

    if not params.output:  # "" is not the working folder
        from skillc_index.option_errors import InvalidOption

        raise InvalidOption("the output folder is empty: name one")
    _check_format_options(params)
    output = expand_user(params.output)
    if not output.is_absolute():
        output = session.layout.cwd / output
    return package_skills(
        params.skills,
        session.layout,
        fmt=params.to,
        output=output,
        name=params.name,
        version=params.version,
        author=params.author,
        base_url=params.base_url,
        force=params.force,
        description=params.description,
    )


def _check_format_options(params: PackageParams) -> None:
    """E100 for an option the chosen format has no use for (``--to upload --name x``: the
    plugin's name, version, author and description, ``--base-url`` of well-known), as others
    refuse an option without the one it goes with; a value equal to the default is taken
    as not given."""
    from skillc_index.option_errors import ParameterError

    plugin: tuple[str, ...] = ("name", "version", "author", "description")
    if params.to in ("plugin", "claude-plugin"):
        plugin = ()
    field = given(params, (*plugin, *(() if params.to == "well-known" else ("base_url",))))
    if field is not None:
        formats = "well-known" if field == "base_url" else "plugin or claude-plugin"
        raise ParameterError(f"{{{field}}} goes with {{to}} {formats}")


PACKAGE: Operation[PackageParams, PackageResult] = Operation(
    name="package",
    title="Package skills for upload, a web site or a plugin",
    description="Write skills as a package: an upload zip, a discovery index, a plugin.",
    params=PackageParams,
    run=package,
    output="skillc_index.package.shapes:PackageShape",
    annotations=WRITES,
    no_tool="it writes release files to publish outside the project's stores: a person "
    "decides what leaves the machine, on the command line",
)
