"""The gateway's commands as operations (:mod:`skillc_index.operation`): ``outline``,
``show``, ``open``, ``sources`` (RFC-0002), ``search`` (RFC-0004), ``find`` (the skills for a
task, from the catalog of every installed skill), ``eval`` (will the agent pick each skill:
:mod:`skillc_gateway._eval_op`), and ``tools`` and ``run`` (gibb.eri.sh
tool-defining skills, spec/003; no MCP tools: ``no_tool`` says why).

Each has its parameters record, its function (resolve, log, read) and its result; the
``skc`` commands render the result as text or JSON, the MCP server returns ``to_dict()``.
``show`` and ``search`` are defined in :mod:`skillc_gateway._section_ops` (which ``skc show``
and ``skc search`` import alone), ``find`` in :mod:`skillc_gateway._find_op`, ``tools`` and
``run`` in :mod:`skillc_gateway._tool_ops`; they are part of this table like the others.
Only the standard library and :mod:`skillc_index.operation` are imported here: the readers
load when an operation runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, cast

from skillc_gateway._eval_op import EVAL, EvalParams
from skillc_gateway._find_op import FIND, FindParams
from skillc_gateway._section_ops import (
    HIDDEN,
    HIDDEN_HELP,
    MAX_LINES,
    OFFSET,
    OFFSET_HELP,
    SEARCH,
    SHOW,
    SearchParams,
    SearchResults,
    SectionResult,
    ShowParams,
)
from skillc_gateway._tool_ops import RUN, TOOLS, RunOutcome, RunParams, ToolsParams
from skillc_index.arguments import MAX_PATTERN_CHARS
from skillc_index.operation import SKILL_DESCRIPTION, Operation, Param, Part, Session
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_gateway._open import FileBytes, Page
    from skillc_gateway._outline import Outline
    from skillc_gateway._sources import SourceTree
    from skillc_gateway.shapes import FileShape, OutlineShape, SourcesShape
    from skillc_index import Diagnostic, Notice
    from skillc_index.accesslog import OpenArgs, SourcesArgs

__all__ = [
    "EVAL",
    "FIND",
    "OPEN",
    "OPERATIONS",
    "OUTLINE",
    "RUN",
    "SEARCH",
    "SHOW",
    "SOURCES",
    "TOOLS",
    "EvalParams",
    "FileResult",
    "FindParams",
    "OpenParams",
    "OutlineParams",
    "OutlineResult",
    "RunOutcome",
    "RunParams",
    "SearchParams",
    "SearchResults",
    "SectionResult",
    "ShowParams",
    "SourcesParams",
    "SourcesResult",
    "ToolsParams",
]


# -- outline (RFC-0002:C-OUTLINE) ---------------------------------------------------------


class OutlineParams(Record):
    skill: Annotated[str, Param(SKILL_DESCRIPTION, argument=True, path=True, skill=True)]
    level: Annotated[
        int | None,
        Param(
            "Only headings of this level or higher (1-6; default: all).",
            minimum=1,
            maximum=6,
            help="Only headings of this level or higher (1-6; default: all).",
        ),
    ] = None

    def log_args(self) -> dict[str, Any]:
        return {"level": self.level}


class OutlineResult(Record):
    skill: str
    outline: Outline

    @property
    def warnings(self) -> tuple[Diagnostic | Notice, ...]:
        return self.outline.warnings

    def to_dict(self) -> OutlineShape:
        return {
            "skill": self.skill,
            "headings": [h.to_dict() for h in self.outline.headings],
            "files": list(self.outline.files),
        }


def outline(session: Session, params: OutlineParams) -> OutlineResult:
    from itertools import compress

    from skillc_gateway._outline import outline as read_outline
    from skillc_index import SKILL_FILE

    with session.logged("outline", params.skill, params.log_args()) as skill:
        found = read_outline(skill, level=params.level, tokenizer_setting=session.config.tokenizer)
    # both lists in one fit, the longer trimmed first (fitted one after the other, 3,000 files
    # left no room for a heading); SKILL.md's headings first: kept while they fit
    order = sorted(range(len(found.headings)), key=lambda i: found.headings[i].file != SKILL_FILE)
    fewer = "ask for the top levels only with `level` (1 or 2), " if params.level != 1 else ""
    beside = OutlineResult(skill.shown, found._replace(headings=(), files=())).to_dict()
    kept, cut = session.fit_parts(
        lambda: [
            Part("files", found.files),
            Part("headings", [found.headings[i].to_dict() for i in order]),
        ],
        "outline",
        f"list the files with skc_sources (narrow it with `dir` or `pattern`), {fewer}or "
        "search the skill for what you need",
        beside,
        warnings=found.warnings,  # the reply's too
    )
    if cut:
        held = {i for i, keep in zip(order, kept[1], strict=True) if keep}
        headings = tuple(h for i, h in enumerate(found.headings) if i in held)
        files = tuple(compress(found.files, kept[0]))
        found = found._replace(files=files, headings=headings, warnings=(*found.warnings, *cut))
    return OutlineResult(skill.shown, found)


OUTLINE: Operation[OutlineParams, OutlineResult] = Operation(
    name="outline",
    title="Outline a skill",
    description="List the headings of every Markdown file of a skill (file, level, text, "
    "line), files in path order, and every Markdown file (`files`, those without a heading "
    "too). Use it first to see what a skill covers without reading it, "
    "then read the section you need with skc_show.",
    params=OutlineParams,
    run=outline,
    output="skillc_gateway.shapes:OutlineShape",
)


# -- open (RFC-0002:C-OPEN) ---------------------------------------------------------------


class OpenParams(Record):
    skill: Annotated[str, Param(SKILL_DESCRIPTION, argument=True, path=True, skill=True)]
    path: Annotated[
        str,
        Param(
            "File path relative to the skill root ('references/api.md').",
            argument=True,
            min_length=1,
            in_skill=True,
        ),
    ]
    max_lines: Annotated[
        int | None,
        Param(MAX_LINES, minimum=0, mcp_default=500, help="Show at most this many lines."),
    ] = None
    offset: Annotated[int, Param(OFFSET, minimum=0, help=OFFSET_HELP)] = 0
    hidden: Annotated[bool, Param(HIDDEN, help=HIDDEN_HELP)] = False

    def log_args(self) -> OpenArgs:
        args: OpenArgs = {"path": self.path, "max_lines": self.max_lines}
        if self.offset:
            args["offset"] = self.offset
        if self.hidden:
            args["hidden"] = True
        return args


class FileResult(Record):
    """A text file of a skill, or the page of it that was asked for; or a binary file,
    whole (``binary``; ``page`` is then None)."""

    skill: str
    path: str
    page: Page | None
    warnings: tuple[Diagnostic | Notice, ...] = ()
    binary: FileBytes | None = None

    def to_dict(self) -> FileShape:
        # one shape for both kinds of file, its keys of the other kind left out (the type
        # checker asks for every optional key to be spelled out in a literal; cast instead)
        if self.binary is not None:
            return cast("FileShape", {"skill": self.skill, **self.binary.to_dict()})
        assert self.page is not None
        return cast("FileShape", {"skill": self.skill, "path": self.path, **self.page.to_dict()})

    def resource(self) -> dict[str, Any] | None:
        """A binary file as MCP resource contents (``uri``, ``mimeType``, base64 ``blob``):
        the MCP server adds it to the reply as an embedded resource, which a client can hand
        the model as what it is (an image as an image); None for a text file."""
        if self.binary is None:
            return None
        return {
            "uri": self.binary.uri,
            "mimeType": self.binary.mime_type,
            "blob": self.binary.base64(),
        }


def open_(session: Session, params: OpenParams) -> FileResult:
    from skillc_gateway._open import FileBytes, base64_capacity, open_file, page

    limit = None if session.reply_chars is None else base64_capacity(session.reply_chars)
    with session.logged("open", params.skill, params.log_args()) as skill:
        found = open_file(
            skill,
            params.path,
            max_lines=params.max_lines,
            hidden=params.hidden,
            skip=params.offset,
            max_bytes=limit,
            stream=limit is None,  # the command line: its bytes written as they are read
        )
    if isinstance(found, FileBytes):
        return FileResult(skill.shown, found.path, None, binary=found)
    shown = page(
        found.text, found.shown_lines, found.total_lines, params.offset, session.reply_chars
    )
    if found.lfs_pointer:  # served as it is, as build and package warn of it
        from skillc_index.files import lfs_notice

        warned = (lfs_notice(skill.shown, found.path, "served as it is"),)
        return FileResult(skill.shown, found.path, shown, warned)
    return FileResult(skill.shown, found.path, shown)


OPEN: Operation[OpenParams, FileResult] = Operation(
    name="open",
    title="Read a file of a skill",
    description="Read a file of a skill verbatim: references, scripts, data, any file. "
    "Use it when one section is not enough, or for files that are not Markdown (listed by "
    "skc_sources, found by skc_search). `path` is relative to the skill root; a path leading "
    "outside the skill is refused (E012). A text file comes in pages of lines; a binary file "
    "(an image, an archive) whole, its bytes in base64 (`encoding`), also as an embedded "
    "resource, or E023 when it is larger than a reply holds.",
    params=OpenParams,
    run=open_,
    output="skillc_gateway.shapes:FileShape",
)


# -- sources (RFC-0002:C-SOURCES) ---------------------------------------------------------


class SourcesParams(Record):
    skill: Annotated[str, Param(SKILL_DESCRIPTION, argument=True, path=True, skill=True)]
    depth: Annotated[
        int | None,
        Param(
            "Show this many levels; deeper folders are collapsed with their file count "
            "(default: all).",
            minimum=1,
            help="Show this many levels of the tree (default: all).",
        ),
    ] = None
    dir: Annotated[
        str | None,
        Param(
            "Only the tree under this folder (relative to the skill).",
            help="Only the tree under this folder.",
            min_length=1,
            metavar="PATH",
            in_skill=True,
        ),
    ] = None
    limit: Annotated[
        int,
        Param(
            "Show at most this many entries (0: all of them, as many as fit in the reply); "
            "SKILL.md comes first.",
            minimum=0,
            help="Show at most this many entries (0: all).",
            show_default=True,
        ),
    ] = 100
    pattern: Annotated[
        str | None,
        Param(
            "Only files matching this glob ('*.md', 'references/**').",
            help="Only files matching this glob (e.g. '*.md').",
            min_length=1,
            max_length=MAX_PATTERN_CHARS,
            metavar="GLOB",
        ),
    ] = None

    def log_args(self) -> SourcesArgs:
        return {"depth": self.depth, "dir": self.dir, "limit": self.limit, "pattern": self.pattern}


class SourcesResult(Record):
    skill: str
    tree: SourceTree
    warnings: tuple[Diagnostic | Notice, ...] = ()

    def to_dict(self) -> SourcesShape:
        return {"skill": self.skill, "tree": self.tree.to_dict()}


def sources(session: Session, params: SourcesParams) -> SourcesResult:
    from skillc_gateway._sources import source_tree

    with session.logged("sources", params.skill, params.log_args()) as skill:
        tree = source_tree(
            skill,
            depth=params.depth,
            directory=params.dir,
            limit=params.limit,
            pattern=params.pattern,
        )
    kept, warnings = session.fit(
        lambda: tree.items()[: len(tree.shown)],
        "sources",
        "entries",
        "narrow it with `dir`, `depth` or `pattern`",
        total=len(tree.entries),
        beside=SourcesResult(skill.shown, tree.cut(0)).to_dict(),  # the root's counted twice
    )
    if warnings:  # (no entry is longer alone than a reply: what is kept comes first)
        tree = tree.cut(sum(kept))
    return SourcesResult(skill.shown, tree, warnings)


SOURCES: Operation[SourcesParams, SourcesResult] = Operation(
    name="sources",
    title="List the files of a skill",
    description="List a skill's files as a tree, folders first (hidden files are not "
    "sources). Use it to see which files a skill has before reading one with skc_open.",
    params=SourcesParams,
    run=sources,
    output="skillc_gateway.shapes:SourcesShape",
)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    OUTLINE,
    SHOW,
    OPEN,
    SOURCES,
    SEARCH,
    FIND,
    EVAL,
    TOOLS,
    RUN,
)
"""The operations of this package, in the order ``skc`` and the MCP server list them (the
server serves those without a ``no_tool`` reason)."""
