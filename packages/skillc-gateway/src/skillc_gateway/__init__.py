"""skillc-gateway: how agents read an Agent Skill on demand (RFC-0002, RFC-0004).

``outline`` (headings of every Markdown file), ``open`` (one file, verbatim) and ``sources``
(the file tree) read the skill's sources; ``show`` (one section) and ``search`` (BM25 full
text) use the skill's index, a cache built on demand when missing or stale;
``find_skills`` ranks every installed skill for a task (the catalog,
:mod:`skillc_gateway.catalog`); ``list_tools`` and ``plan_run``/``run_tool`` list and run the
tools of a gibb.eri.sh skill (spec/003); ``exec_in_skill`` runs a command in a skill's folder
(``skc exec``). Each returns data; the ``skc`` commands and the MCP server format it. Importing
this package is cheap: names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index import lazy_exports

__version__ = "0.2.0.dev0"

_EXPORTS: dict[str, str] = {
    "Outline": "_outline",
    "OutlineHeading": "_outline",
    "outline": "_outline",
    "FileBytes": "_open",
    "FileText": "_open",
    "open_file": "_open",
    "read_lines": "_open",
    "SourceTree": "_sources",
    "source_tree": "_sources",
    "SectionText": "_show",
    "normalize_query": "_show",
    "show_section": "_show",
    "SearchResult": "_search",
    "search_skill": "_search",
    "FindResult": "catalog",
    "FoundSkill": "catalog",
    "QueryTooLong": "catalog",
    "SectionHit": "catalog",
    "find_skills": "catalog",
    "ToolList": "_tools",
    "list_tools": "_tools",
    "RunPlan": "_runner",
    "RunResult": "_runner",
    "NotAnAssignment": "_runner",
    "plan_run": "_runner",
    "run_tool": "_runner",
    "ExecResult": "_exec",
    "exec_in_skill": "_exec",
}

__all__ = ["__version__", *_EXPORTS]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


if TYPE_CHECKING:
    from skillc_gateway._exec import ExecResult as ExecResult
    from skillc_gateway._exec import exec_in_skill as exec_in_skill
    from skillc_gateway._open import FileBytes as FileBytes
    from skillc_gateway._open import FileText as FileText
    from skillc_gateway._open import open_file as open_file
    from skillc_gateway._open import read_lines as read_lines
    from skillc_gateway._outline import Outline as Outline
    from skillc_gateway._outline import OutlineHeading as OutlineHeading
    from skillc_gateway._outline import outline as outline
    from skillc_gateway._runner import NotAnAssignment as NotAnAssignment
    from skillc_gateway._runner import RunPlan as RunPlan
    from skillc_gateway._runner import RunResult as RunResult
    from skillc_gateway._runner import plan_run as plan_run
    from skillc_gateway._runner import run_tool as run_tool
    from skillc_gateway._search import SearchResult as SearchResult
    from skillc_gateway._search import search_skill as search_skill
    from skillc_gateway._show import SectionText as SectionText
    from skillc_gateway._show import normalize_query as normalize_query
    from skillc_gateway._show import show_section as show_section
    from skillc_gateway._sources import SourceTree as SourceTree
    from skillc_gateway._sources import source_tree as source_tree
    from skillc_gateway._tools import ToolList as ToolList
    from skillc_gateway._tools import list_tools as list_tools
    from skillc_gateway.catalog import FindResult as FindResult
    from skillc_gateway.catalog import FoundSkill as FoundSkill
    from skillc_gateway.catalog import QueryTooLong as QueryTooLong
    from skillc_gateway.catalog import SectionHit as SectionHit
    from skillc_gateway.catalog import find_skills as find_skills
