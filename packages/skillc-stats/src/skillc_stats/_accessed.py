"""What a logged row accessed, read from its ``args`` (:mod:`._stats` counts it): the args
themselves, bounded (:func:`load_args`), a value that should be text (:func:`as_text`,
:func:`label`), a file as ``outline`` names it (:func:`relative_file`), the section a
``show`` row read among the skill's current headings (:class:`Headings`, :func:`show_query`),
what a failed access asked for (:func:`error_target`) and who chose an activated skill
(:func:`activation_source`)."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from skillc_index import (
    HeadingMatcher,
    IndexedHeading,
    SkillcError,
    is_markdown,
    loads_bounded,
    normalized_query,
    read_markdown,
    valid_utf8,
    walk_skill,
)

if TYPE_CHECKING:
    from skillc_index.accesslog import OpenArgs, SearchArgs, ShowArgs, SourcesArgs

__all__ = [
    "NOT_TEXT",
    "UNREADABLE",
    "Headings",
    "activation_source",
    "as_text",
    "error_target",
    "label",
    "load_args",
    "relative_file",
    "show_query",
]


#: What :func:`load_args` gives for ``args`` that are not JSON within bounds.
UNREADABLE: Mapping[str, Any] = MappingProxyType({})


def load_args(text: str | None) -> Mapping[str, Any]:
    """A row's ``args``; anything but a JSON object (a foreign or damaged row) reads as ``{}``:
    :data:`UNREADABLE` when the text is not JSON (nor UTF-8: a local log's bytes that are not
    read as lone surrogates, ``LocalRows``), or is larger or nested deeper than the
    bounds of :func:`skillc_index.loads_bounded` (any teammate writes the team store's rows:
    such a row must not stop everyone's stats)."""
    if text is None:
        return {}
    if isinstance(text, str) and valid_utf8(text) is not text:
        return UNREADABLE
    try:
        value = loads_bounded(text)
    except (TypeError, ValueError):
        return UNREADABLE
    return value if isinstance(value, dict) else {}


def as_text(value: object) -> str | None:
    """A logged value that should be text; None when it is not (a foreign row)."""
    return value if isinstance(value, str) else None


#: What a ``command``, ``error`` or ``cwd`` that is not text (a BLOB, a number, NULL: a log a
#: checkout ships can hold anything) is counted under: ranked with the others, of no kind.
NOT_TEXT = "(not text)"


def label(value: object) -> str:
    """A logged ``command``, ``error`` or ``cwd`` as counted: its text, else :data:`NOT_TEXT`
    (a ``bytes`` key among ``str`` ones cannot be sorted)."""
    return value if isinstance(value, str) else NOT_TEXT


def relative_file(path: str) -> str:
    """A file path as given to ``open``/``show --file`` in the form ``outline`` prints:
    POSIX separators, no ``./``, no ``a/../``."""
    return posixpath.normpath(path.replace(os.sep, "/"))


class Headings:
    """The skill's current headings, for finding the section a ``show`` row read."""

    def __init__(self, headings: Iterable[IndexedHeading]) -> None:
        self._matcher = HeadingMatcher(headings)
        self.headings: tuple[IndexedHeading, ...] = tuple(self._matcher.headings)
        """In file (bytewise) then line order, as ``outline`` lists them."""
        self._found: dict[tuple[str, str | None, int], tuple[str, str] | None] = {}

    @classmethod
    def of(cls, source: Path) -> Headings:
        headings: list[IndexedHeading] = []
        for relative in walk_skill(source).files:
            if not is_markdown(relative):
                continue
            try:
                doc = read_markdown(source / relative)
            except SkillcError:  # vanished, unreadable, a FIFO: it has no headings to offer
                continue
            headings += [
                IndexedHeading(relative, h.text, h.level, h.line, h.end_line) for h in doc.headings
            ]
        return cls(headings)

    def find(self, query: str, file: str | None, nth: int = 1) -> tuple[str, str] | None:
        """``(file, heading)`` that ``show`` would serve for this query, ``--file`` and
        ``--nth`` (its own rule, ``matching_headings``: :class:`~skillc_index.HeadingMatcher`),
        or None."""
        key = (query, file, nth)
        if key not in self._found:
            matches = self._matcher.matches(query, file)
            found = matches[nth - 1] if nth <= len(matches) else None
            self._found[key] = None if found is None else (found.file, found.text)
        return self._found[key]


def show_query(query: str) -> str:
    """The section a ``show`` query names when no heading matches it any more."""
    return normalized_query(query)


def error_target(args: Mapping[str, Any], skill: str) -> str:
    """What a failed access asked for: the section, path, query or folder it named, else the
    skill itself (``build``, ``lint``, ``outline``... act on the whole skill)."""
    for value in (
        cast("ShowArgs", args).get("section"),
        cast("OpenArgs", args).get("path"),
        cast("SearchArgs", args).get("query"),
        cast("SourcesArgs", args).get("dir"),
    ):
        if isinstance(value, str):
            return value
    return skill


#: Who chose a skill an imported ``activate`` row records, by the ``tool`` in its ``args``
#: (``sync --from claude-code``): the user typed ``/skill`` (``typed``), or the model called
#: the Skill tool or ran the slash command itself.
_ACTIVATED_BY = {"typed": "user", "Skill": "model", "SlashCommand": "model"}


def activation_source(args: Mapping[str, Any]) -> str:
    """``user``, ``model``, or ``unknown`` (an activation logged otherwise) for the ``args`` of
    an ``activate`` row."""
    return _ACTIVATED_BY.get(str(args.get("tool")), "unknown")
