"""``search``: full-text search of a skill's sections (RFC-0004:C-SEARCH, C-QUERY-SYNTAX).

The query is a bag of words with implicit AND: each word is quoted as an FTS5 literal, so
FTS5 syntax (``AND``, ``NEAR``, ``*``, ``-x``, parentheses, quotes) is searched as text, never
interpreted. Results are ranked by BM25; the score shown is ``-bm25`` (higher is better).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index import (
    IndexUnusable,
    Notice,
    ResolvedSkill,
    SectionHit,
    ensure_index,
    fts_query,
    search_sections,
)
from skillc_index.index.scripts import spaceless
from skillc_index.parameters import checked_values
from skillc_index.record import Record

DEFAULT_LIMIT = 10
#: Said of a query holding words written without spaces when the index was not made with the
#: ``cjk`` tokenizer, which alone cuts them (the RFC's ``ascii`` default keeps a run whole).
SPACELESS_HINT = (
    "words written without spaces (Chinese, Japanese, Korean, Thai...) are found inside a "
    'sentence only with [search] tokenizer = "cjk" in the config (or SKILLC_TOKENIZER=cjk)'
)


if TYPE_CHECKING:
    from skillc_gateway.shapes import SearchFound


class SearchResult(Record):
    """A query and its hits, best first."""

    query: str
    results: tuple[SectionHit, ...]
    hint: str = ""
    """:data:`SPACELESS_HINT` when it applies to the query and the index, else empty."""
    warnings: tuple[Notice, ...] = ()
    """A file of the skill left out of the index, as this user may not read it."""

    def to_dict(self) -> SearchFound:
        """RFC-0004's canonical JSON: ``{"query", "results": [{file, section, snippet,
        score}]}``."""
        return {
            "query": self.query,
            "results": [
                {"file": h.file, "section": h.section, "snippet": h.snippet, "score": h.score}
                for h in self.results
            ],
        }


def search_skill(
    skill: ResolvedSkill,
    query: str,
    *,
    limit: int = DEFAULT_LIMIT,
    tokenizer_setting: str = "ascii",
) -> SearchResult:
    """The ``limit`` sections that best match ``query``.

    The index is checked first, in RFC-0004's order, and built on demand when it is not
    current (``ensure_index``); one that fails to read is built again, once. A file this
    user may not read is not searched, with a warning naming it. Raises E004 for
    an empty query, E002 for a skill that cannot be indexed, E003 for a colliding index,
    E100 for a ``query`` that is no text, or a ``limit`` that is no count of 1 or more
    (checked first, as the command line and the MCP tool check them:
    :func:`~skillc_index.parameters.checked_values`; the read failed on a bad limit, and a
    failed read is taken for a corrupt index, built again).
    """
    from skillc_gateway._section_ops import SearchParams
    from skillc_index.index.freshness import kept_in_memory, unreadable_notices

    query, limit = checked_values(SearchParams, {"query": query, "limit": limit}).values()
    index = ensure_index(skill, tokenizer_setting)
    match = fts_query(query, index.meta.tokenizer)  # the tokenizer the check required
    hint = SPACELESS_HINT if index.meta.tokenizer != "cjk" and spaceless(query) else ""
    try:
        found = tuple(search_sections(index, match, limit))
    except IndexUnusable:  # RFC-0004: a read failure is corruption
        index = ensure_index(skill, tokenizer_setting, damaged=index)
        found = tuple(search_sections(index, match, limit))
    return SearchResult(query, found, hint, unreadable_notices(index) + kept_in_memory(index))
