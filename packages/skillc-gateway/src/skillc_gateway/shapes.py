"""The JSON shapes of the gateway's results: what ``--format json`` prints and the MCP tools
return as ``structuredContent``, each a ``TypedDict`` that the result's ``to_dict()``
returns and from which the tool's output schema is made (:mod:`skillc_index.shapes`).

Imported by type checkers and when the MCP server lists its tools, never by a command's run.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from skillc_index.operation import Param


class PageShape(TypedDict):
    """The lines of a section or a file one reply holds (:class:`~skillc_gateway._reader.Page`)."""

    content: str
    total_lines: int
    shown_lines: int
    truncated: bool
    offset: Annotated[int, "Lines skipped before `content`."]


class Paged(PageShape, total=False):
    next_offset: Annotated[int, "Present when lines are left: the `offset` that reads on."]


class SectionShape(TypedDict):
    """A section found (:class:`~skillc_gateway._show.SectionText`), before its page."""

    file: str
    section: Annotated[str, "The heading found."]
    level: int
    start_line: int
    end_line: Annotated[int, "The line after the section (the next heading, or EOF+1)."]
    content: str
    total_lines: int
    shown_lines: int
    truncated: bool
    matches: Annotated[int, "Headings that matched; the first is shown."]


class ShowShape(SectionShape, Paged):
    """``show``: the skill, its section, and the page of it shown."""

    skill: str


class SearchHit(TypedDict):
    file: str
    section: str
    snippet: str
    score: Annotated[float, "Higher is better."]


class SearchFound(TypedDict):
    """RFC-0004's JSON."""

    query: str
    results: list[SearchHit]


class SearchShape(SearchFound):
    """``search``: RFC-0004's JSON (``query``, ``results``), with the skill searched."""

    skill: str


class HeadingShape(TypedDict):
    file: str
    level: Annotated[int, Param("The heading's level.", minimum=1, maximum=6)]
    text: str
    line: int


class OutlineShape(TypedDict):
    """``outline``: every heading of the skill's Markdown files, files in path order."""

    skill: str
    headings: list[HeadingShape]


class TextShape(TypedDict):
    """A text file read (:class:`~skillc_gateway._reader.FileText`), before its page."""

    path: str
    content: str
    total_lines: int
    shown_lines: int
    truncated: bool


class BinaryShape(TypedDict):
    """A binary file, whole (:class:`~skillc_gateway._reader.FileBytes`)."""

    path: str
    encoding: Literal["base64"]
    mime_type: str
    size: int
    content: str
    truncated: bool


class _FileShape(TypedDict):
    skill: str
    path: str
    content: Annotated[str, "The lines shown; for a binary file its bytes in base64."]
    truncated: bool


class FileShape(_FileShape, total=False):
    """``open``: a text file's page of lines, or a binary file whole in base64."""

    total_lines: Annotated[int, "Text files only."]
    shown_lines: Annotated[int, "Text files only."]
    offset: Annotated[int, "Text files only. Lines skipped before `content`."]
    next_offset: Annotated[
        int, "Text files only. Present when lines are left: the `offset` that reads on."
    ]
    encoding: Annotated[Literal["base64"], "Binary files only: `content` is base64."]
    mime_type: Annotated[str, "Binary files only."]
    size: Annotated[int, "Binary files only: bytes."]


class _TreeNode(TypedDict):
    name: str
    path: Annotated[str, "Relative to the skill root ('' for it)."]
    type: Literal["directory", "file"]


class TreeNode(_TreeNode, total=False):
    """A file or folder of a skill; a folder holds its ``children``."""

    file_count: Annotated[int, "Files under a directory."]
    children: Annotated[list[TreeNode], "Absent on a directory shown collapsed (depth reached)."]


class TreeRoot(TreeNode):
    truncated: Annotated[int, "Entries left out by `limit`."]


class SourcesShape(TypedDict):
    """``sources``: the skill's files as a tree."""

    skill: str
    tree: TreeRoot
