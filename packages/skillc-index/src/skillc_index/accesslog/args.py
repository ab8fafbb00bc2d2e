"""The ``args`` of access-log rows that usage analytics read (RFC-0007:C-LOGGING).

A command's operation logs ``params.log_args()``; these types name the keys that the
operations write and ``skillc-stats`` reads, so both sides are checked against one
definition. Rows from older or foreign writers may lack keys: readers use ``.get``.
"""

from __future__ import annotations

from typing import TypedDict


class ShowArgs(TypedDict, total=False):
    """``show``: the section asked for, as given, and the file it was limited to."""

    section: str
    file: str | None
    nth: int
    max_lines: int | None
    offset: int
    hidden: bool


class OpenArgs(TypedDict, total=False):
    """``open``: the file asked for, relative to the skill root as given."""

    path: str
    max_lines: int | None
    offset: int
    hidden: bool


class SearchArgs(TypedDict, total=False):
    """``search``: the query and how many results it found (0 when it failed)."""

    query: str
    limit: int
    result_count: int


class SourcesArgs(TypedDict, total=False):
    """``sources``: the listing asked for."""

    depth: int | None
    dir: str | None
    limit: int
    pattern: str | None
