"""``show`` and ``search`` as operations (:mod:`skillc_index.operation`): the two reading
commands agents run many times a session, in a module of their own so that ``skc show`` and
``skc search`` (:mod:`skillc_gateway.cli_sections`) do not define the other operations, their
records and schemas (a record costs about as much to define as a click option). The
operation table, with these two, is :mod:`skillc_gateway.operations`; ``open`` shares the
paging texts below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from skillc_gateway._limits import MAX_QUERY_CHARS
from skillc_index.operation import (
    SKILL_DESCRIPTION,
    Operation,
    Param,
    Session,
)
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_gateway._open import Page
    from skillc_gateway._search import SearchResult
    from skillc_gateway._show import SectionText
    from skillc_gateway.shapes import SearchShape, ShowShape
    from skillc_index import Diagnostic, Notice
    from skillc_index.accesslog import SearchArgs, ShowArgs

__all__ = [
    "HIDDEN",
    "HIDDEN_HELP",
    "MAX_LINES",
    "OFFSET",
    "OFFSET_HELP",
    "PAGE",
    "SEARCH",
    "SHOW",
    "SearchParams",
    "SearchResults",
    "SectionResult",
    "ShowParams",
]

MAX_LINES = (
    "Return at most this many lines (and at most 100,000 characters: whole lines, a longer "
    "single line is cut); `truncated` tells whether something was left out, `next_offset` "
    "where to read on."
)
OFFSET = "Skip this many lines first: pass the `next_offset` of the previous reply to read on."
OFFSET_HELP = "Skip this many lines first (the `next_offset` of a JSON reply reads on)."
HIDDEN = (
    "Also read a hidden file (a dot-file or dot-folder such as '.env' or '.git/config'), "
    "which skc_sources does not list."
)
HIDDEN_HELP = "Also serve a hidden file (a dot-file or dot-folder: .env, .git/...)."
PAGE = {
    "offset": {"type": "integer", "description": "Lines skipped before `content`."},
    "next_offset": {
        "type": "integer",
        "description": "Present when lines are left and this reply shows some: the `offset` "
        "that reads on.",
    },
}


# -- show (RFC-0002:C-SHOW) ---------------------------------------------------------------


class ShowParams(Record):
    skill: Annotated[str, Param(SKILL_DESCRIPTION, argument=True, path=True, skill=True)]
    section: Annotated[
        str,
        Param(
            "The heading text, without the leading #s.",
            max_length=MAX_QUERY_CHARS,
            help="The heading to show (case-insensitive).",
        ),
    ]
    file: Annotated[
        str | None,
        Param(
            "Only look in this file (relative to the skill root).",
            help="Only look in this file.",
            min_length=1,
            metavar="PATH",
            in_skill=True,
        ),
    ] = None
    nth: Annotated[
        int | None,
        Param(
            "Which of the headings that match to show, in file then line order (1: the first; "
            "`matches` in the reply counts them): a heading text used more than once, such as "
            "two 'Examples' under different titles. Not given: the first, with W001 when "
            "several match.",
            minimum=1,
            help="Show the Nth heading that matches (file, then line order; not given: the "
            "first, with W001 when several match).",
            metavar="N",
        ),
    ] = None
    max_lines: Annotated[
        int | None,
        Param(MAX_LINES, minimum=0, mcp_default=500, help="Show at most this many lines."),
    ] = None
    offset: Annotated[int, Param(OFFSET, minimum=0, help=OFFSET_HELP)] = 0
    hidden: Annotated[bool, Param(HIDDEN, help=HIDDEN_HELP)] = False

    def log_args(self) -> ShowArgs:
        args: ShowArgs = {"section": self.section, "file": self.file, "max_lines": self.max_lines}
        if self.nth not in (None, 1):
            args["nth"] = self.nth
        if self.offset:
            args["offset"] = self.offset
        if self.hidden:
            args["hidden"] = True
        return args


class SectionResult(Record):
    """A section of a skill, or the page of it that was asked for."""

    skill: str
    section: SectionText
    page: Page

    @property
    def warnings(self) -> tuple[Diagnostic | Notice, ...]:
        return self.section.warnings

    def to_dict(self) -> ShowShape:
        return {"skill": self.skill, **self.section.to_dict(), **self.page.to_dict()}


def show(session: Session, params: ShowParams) -> SectionResult:
    from skillc_gateway._open import page
    from skillc_gateway._show import show_section

    tokenizer = session.config.tokenizer
    with session.logged("show", params.skill, params.log_args()) as skill:
        found = show_section(
            skill,
            params.section,
            file=params.file,
            max_lines=params.max_lines,
            tokenizer_setting=tokenizer,
            skip=params.offset,
            hidden=params.hidden,
            nth=params.nth,
        )
    shown = page(
        found.text, found.shown_lines, found.total_lines, params.offset, session.reply_chars
    )
    return SectionResult(skill.shown, found, shown)


SHOW: Operation[ShowParams, SectionResult] = Operation(
    name="show",
    title="Read a section of a skill",
    description="Read one section of a skill: the text under a heading down to the next "
    "heading of the same or a higher level. Use it after skc_outline or skc_search to read "
    "just the part you need instead of whole files. Matching ignores case, and a line copied "
    "from the skill's stub ('Heading — description') works. Works on any installed skill, "
    "built or not (its index is made on demand). On E020 the error lists similar headings "
    "to retry with.",
    params=ShowParams,
    run=show,
    output="skillc_gateway.shapes:ShowShape",
)


# -- search (RFC-0004) --------------------------------------------------------------------


class SearchParams(Record):
    skill: Annotated[str, Param(SKILL_DESCRIPTION, argument=True, path=True, skill=True)]
    query: Annotated[str, Param("Words to look for.", max_length=MAX_QUERY_CHARS, argument=True)]
    limit: Annotated[
        int,
        Param(
            "Return at most this many results.", minimum=1, help="Most results.", show_default=True
        ),
    ] = 10

    def log_args(self) -> SearchArgs:
        # RFC-0004:C-LOGGING: every search row has result_count; a failed search found nothing
        return {"query": self.query, "limit": self.limit, "result_count": 0}


class SearchResults(Record):
    skill: str
    found: SearchResult
    warnings: tuple[Diagnostic | Notice, ...] = ()

    def to_dict(self) -> SearchShape:
        """RFC-0004's JSON (``query``, ``results``), with the skill searched, and the
        ``hint`` when there is one."""
        found = self.found.to_dict()
        data: SearchShape = {
            "skill": self.skill,
            "query": found["query"],
            "results": found["results"],
        }
        if self.found.hint:
            data["hint"] = self.found.hint
        return data


def search(session: Session, params: SearchParams) -> SearchResults:
    from skillc_gateway._search import search_skill

    tokenizer = session.config.tokenizer
    args = params.log_args()
    with session.logged("search", params.skill, args) as skill:
        found = search_skill(skill, params.query, limit=params.limit, tokenizer_setting=tokenizer)
        args["result_count"] = len(found.results)
    kept, cut = session.fit(
        lambda: found.to_dict()["results"],
        "search",
        "results",
        "ask for fewer with `limit`, or add words to the query",
        beside=SearchResults(skill.shown, found._replace(results=())).to_dict(),
        warnings=found.warnings,
    )
    if cut:
        from itertools import compress

        found = found._replace(results=tuple(compress(found.results, kept)))
    return SearchResults(skill.shown, found, (*found.warnings, *cut))


SEARCH: Operation[SearchParams, SearchResults] = Operation(
    name="search",
    title="Search a skill",
    description="Full-text search (BM25) over the sections of a skill's .md and .txt files; "
    "every word of the query must appear, in any order. Returns the best sections first, each "
    "with its file, heading and a snippet marking hits as [MATCH]...[/MATCH]. Use it when you "
    "do not know which section holds the answer, then read it with skc_show (section and file "
    "from the result). Works on any installed skill, built or not (its index is made on "
    "demand).",
    params=SearchParams,
    run=search,
    output="skillc_gateway.shapes:SearchShape",
)
