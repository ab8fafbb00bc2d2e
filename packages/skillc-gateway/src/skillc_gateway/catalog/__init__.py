"""The catalog: every installed skill, indexed for ``skc find``, kept current from file stats.

:func:`find_skills` ranks the skills under the searched folders (by default the inventory's:
:func:`skillc_index.inventory.folders.search_roots`, their entries, the skills
:func:`skillc_index.inventory.entries.installed_skills` lists) for a task described in words.
Before it answers, the catalog looks at every searched folder again, from file stats (a new,
changed or removed skill is indexed again first, or the answer says it is ``partial``); it
never rebuilds from nothing. This module holds the answer's types and the entry points; the
machinery is imported when a query runs. The modules, by job:

- keeping current and answering: :mod:`.engine` (the :class:`Catalog`), :mod:`.scan` (the
  walk over the folders, full or targeted), :mod:`.tree_state` (what is known of a root's
  folders: their stamps and flags, saved between queries), :mod:`.watch` (change
  notification), :mod:`.indexer` (reading changed skills into the catalog, in timed write
  transactions), :mod:`.fill` (the find server's background work: the words' best rows, the
  vectors),
  :mod:`.first_answer` (the answer over many skills the catalog does not hold yet, from their
  files, while the find server builds it),
  :mod:`.skill_text` (what the ranker reads of a SKILL.md, read lightly), :mod:`.answer`
  (the skills found made into the answer's rows);
- the SQLite file: :mod:`.database` (opening it, its own tables and their statements);
- ranking: :mod:`.postings` (the ranker's tables, and how a skill is written into them),
  :mod:`.rank` (scoring a query), :mod:`.background` (the word counts of a public collection
  that IDF adds to the catalog's), :mod:`.heads` (the words' best rows a warm process keeps
  in memory), :mod:`.embedding` (the semantic extra's model: its pinned files, a text's
  vector), :mod:`.semantic` (the semantic step: the catalog's vectors and their fill, the
  blend);
- the find server (``skc watch``: a process that keeps the catalog warm and answers ``skc
  find``): :mod:`.protocol` (the wire format), :mod:`.client` (what ``skc find`` asks
  first), :mod:`.server` (the server; its lock and socket:
  :mod:`.server_socket`), :mod:`.lifecycle` (starting, stopping, its status).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from skillc_gateway._limits import (
    DEFAULT_FIND_LIMIT,
    MAX_FIND_LIMIT,
    MAX_FIND_PATHS,
    MAX_QUERY_CHARS,
    budget_fits,
    limit_fits,
    query_fits,
)
from skillc_gateway.find_socket import switched_off
from skillc_index import (
    Diagnostic,
    InvalidOption,
    Layout,
    Notice,
    SkillcError,
    SkillDirectoryNotFound,
    format_diagnostic,
)
from skillc_index.inventory.folders import Root, routing_roots, search_roots
from skillc_index.inventory.reads import PathNotSearched, confine
from skillc_index.option_errors import TextTooLong, TooManyItems

if TYPE_CHECKING:
    from skillc_gateway.catalog.engine import Catalog
    from skillc_gateway.shapes import FindShape, FoundSection, FoundSkillShape, Ranker

__all__ = [
    "BUDGET_SECONDS",
    "FINISH_WITHIN",
    "MAX_FIND_PATHS",
    "Catalog",
    "Elsewhere",
    "FindResult",
    "FoundSkill",
    "PathNotSearched",
    "QueryTooLong",
    "SectionHit",
    "Stopped",
    "confine",
    "find_roots",
    "find_skills",
    "nested_cut",
    "served_answer",
]

#: Reading changed skills stops after this many seconds; the answer is then ``partial``...
BUDGET_SECONDS = 10.0
#: ... unless the pace so far says the rest is read within this many budgets from the start:
#: then it goes on to the end (a first build of a few thousand skills answers whole, one of
#: twenty thousand still answers partial after the budget).
FINISH_WITHIN = 3.0


def __getattr__(name: str) -> Any:
    if name == "Catalog":  # the machinery, imported when first used
        from skillc_gateway.catalog.engine import Catalog

        return Catalog
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Elsewhere(Exception):
    """The answer would come from the skills' files, made elsewhere than where it was asked:
    the find server, which builds the catalog of those skills meanwhile and has not read
    their files itself (:meth:`.server.FindServer._read_files`), leaves it to its client,
    which answers from the files in its own process, on the other core
    (:mod:`.first_answer`)."""


class Stopped(Exception):
    """The skills' files were being read for the finds to come (:meth:`.engine.Catalog.read`)
    when the find server was asked to stop (SIGINT, SIGTERM, a ``stop``): given up between two
    skills, nothing kept."""


class QueryTooLong(TextTooLong):
    """E100: a query longer than :data:`~skillc_gateway._limits.MAX_QUERY_CHARS` (worded as a
    tool call's query over the schema's ``maxLength``)."""

    def __init__(self, length: int) -> None:
        super().__init__("query", length, MAX_QUERY_CHARS)


class SectionHit(NamedTuple):
    """A section of a found skill that fits the query: ``skc show`` reads it."""

    file: str
    heading: str
    line: int

    def to_dict(self) -> FoundSection:
        return {"file": self.file, "heading": self.heading, "line": self.line}


class FoundSkill(NamedTuple):
    """One skill of an answer."""

    name: str
    """As ``skc list`` names it, which the read commands take: its entry's name, a plugin's
    ``plugin:skill`` (not its frontmatter ``name``); its path when that name reads another
    skill, or none (``skc show <name>`` reads this one)."""
    description: str
    path: str
    """The source folder (real path): a deployed skillc skill is its source."""
    deployed_to: tuple[str, ...]
    """The agent-folder entries (``.claude/skills/<name>``...) through which agents get it."""
    score: float
    """Higher is better; comparable within one answer only."""
    sections: tuple[SectionHit, ...]
    """Its best-matching sections, best first."""
    duplicates: tuple[str, ...]
    """Other folders holding the same skill (same name, description and body)."""
    in_store: bool = False
    """Whether ``path`` is in a source store (``skc show <name>`` finds it by name)."""

    def to_dict(self) -> FoundSkillShape:
        return {
            "name": self.name,
            "description": self.description,
            "path": self.path,
            "deployed_to": list(self.deployed_to),
            "score": round(self.score, 4),
            "sections": [section.to_dict() for section in self.sections],
            "duplicates": list(self.duplicates),
        }


class FindResult(NamedTuple):
    """The answer of ``skc find``."""

    query: str
    skills: tuple[FoundSkill, ...]
    searched: int
    """Skills searched (each folder once, duplicates included)."""
    skipped: int
    """Skills (and folders) that could not be read or are invalid."""
    partial: bool
    """Some changed skills were not indexed again before answering (time budget, a busy
    catalog; an unwritable one without an answer from the files): the answer may miss or
    misplace them."""
    warnings: tuple[Diagnostic | Notice, ...] = ()
    ranker: str = "lexical"
    """``lexical``, or ``lexical+semantic`` when the semantic extra ranked too
    (``lexical+semantic-names``: by the vectors of the skills' names and descriptions only,
    while those of their bodies are being computed; ``lexical+semantic-partial``: by the
    names' vectors computed so far, while the find server computes the rest)."""
    served: bool = False
    """Answered by the find server (``skc watch``), not in this process (not in JSON)."""
    first: bool = False
    """Ranked from the skills' files, read for this answer, without indexing them: the
    catalog lacked many of them (:mod:`.first_answer`), and a find server is to build it
    (not in JSON)."""

    def to_dict(self) -> FindShape:
        return {
            "query": self.query,
            "skills": [skill.to_dict() for skill in self.skills],
            "searched": self.searched,
            "skipped": self.skipped,
            "partial": self.partial,
            "warnings": [format_diagnostic(warning) for warning in self.warnings],
            "ranker": cast("Ranker", self.ranker),
        }


def find_skills(
    layout: Layout,
    query: str,
    *,
    limit: int = DEFAULT_FIND_LIMIT,
    paths: Sequence[str | os.PathLike[str]] | str | os.PathLike[str] = (),
    configured: dict[str, str] | None = None,
    budget: float = BUDGET_SECONDS,
    server: bool = False,
    builds: bool = False,
    serves: bool | Callable[[], bool] | None = None,
    confined: bool = False,
) -> FindResult:
    """Rank the installed skills for ``query`` (a task in words), best first.

    ``paths``: search only the skills under these folders (relative to the working
    directory; one ``str`` is one folder), else those of ``$SKILL_ROUTING_ROOTS``, else what
    is installed (the stores, every agent folder, ``configured`` being the config's
    ``[targets]``: by default those ``skc find`` takes from the layout's config, ``{}`` for
    none; and the skills of installed Claude Code plugins). Raises EmptyQuery (E004) for a
    blank query, :class:`QueryTooLong` (E100), InvalidOption (E100) for a query that is no
    ``str``, a limit that is no integer from 1 to 100, a budget that is no number of seconds
    or a path that is no ``str`` or ``os.PathLike`` (checked first), and
    SkillDirectoryNotFound (E022) for a path that is not a folder; ``confined`` (the caller
    is a model: the MCP server), :class:`PathNotSearched` (E100) for one outside the
    project, the home folder and the folders of installed skills (:func:`find_roots`).

    ``server``: ask the home's find server (``skc watch``, :mod:`.client`) first, and
    answer here only when none answers; the answer is the same either way. Worth it for a
    process that asks once (``skc find``): it then imports none of the catalog machinery.
    With ``server`` or ``builds`` (the caller starts a find server after such an answer:
    the find operation), it answers from the skills' files when the catalog lacks many of
    them (:mod:`.first_answer`: ``first`` set), for the find server to build the catalog
    (unless ``$SKILLC_FIND_SERVER`` turns it off: then it indexes them here, within
    ``budget``, as without either). ``serves``: whether a find server can start to build it
    (:func:`.lifecycle.can_serve`), or a function asked only then (the find operation's,
    cached, which then starts one). When not (not Linux, the socket path too long or a file,
    the home not writable), an answer from the files is followed by indexing here for as
    long as it took (stretched at most to what keeps the find within ``budget``): each find
    builds a share, until the catalog answers."""
    from skillc_index.items import checked_items, checked_targets

    if not limit_fits(limit):  # before any work: 2.5 failed after the whole walk
        raise InvalidOption(f"limit must be an integer from 1 to {MAX_FIND_LIMIT}, not {limit!r}")
    if not budget_fits(budget):
        raise InvalidOption(f"budget must be a number of seconds, 0 or more, not {budget!r}")
    if not query_fits(query):  # before the config and the find server: all three up front
        if not isinstance(query, str):  # len(5): a bare TypeError
            raise InvalidOption(f"query must be a str, not {type(query).__name__}")
        from skillc_index import EmptyQuery

        raise QueryTooLong(len(query)) if len(query) > MAX_QUERY_CHARS else EmptyQuery()

    def wrong(path: object, _listed: bool) -> InvalidOption:  # paths=5, paths=[5]
        return InvalidOption(f"paths must be folder paths (str), not {type(path).__name__}")

    paths = checked_items(paths, (str, os.PathLike), wrong)  # iterated once (a generator)
    checked_targets(configured, "configured")
    if configured is None:  # as `skc find` reads them (it answered more skills than this)
        from skillc_index.config import load_config
        from skillc_index.inventory.folders import trusted_targets

        configured = trusted_targets(layout, load_config(layout))
    told = False  # the find server builds these skills' catalog: answer from their files
    if server:
        try:
            answer = served_answer(layout, query, limit, paths, configured, budget, confined)
        except Elsewhere:
            told = True
        else:
            if answer is not None:
                return answer
    # $SKILL_ROUTING_ROOTS is the user's: only a model's own paths are confined
    roots = find_roots(
        layout, paths or routing_roots(), configured, confined=confined and bool(paths)
    )
    from skillc_gateway.catalog.engine import Catalog

    # no find server answered: after an answer from the files, the one the caller starts
    # builds the catalog, or (none can start) this find builds a share of it
    first = (server or builds) and not switched_off("SKILLC_FIND_SERVER")
    catalog = Catalog.shared(layout)
    started = time.monotonic()
    found = catalog.find(query, roots, limit, budget=budget, first=first, told=told)
    if found.first and not _asked(serves) and catalog.database.path is not None:
        took = time.monotonic() - started
        seconds = min(took, (budget - took) / FINISH_WITHIN)  # stretched, within budget
        if seconds > 0:
            catalog.build(roots, seconds)
    return found


def served_answer(
    layout: Layout,
    query: str,
    limit: int = DEFAULT_FIND_LIMIT,
    paths: Sequence[str] = (),
    configured: dict[str, str] | None = None,
    budget: float = BUDGET_SECONDS,
    confined: bool = False,
) -> FindResult | None:
    """The answer of the home's find server (``served`` set), or None: no server answered,
    or the input is bad (:func:`find_skills` then raises its error, in its order; the server
    would refuse it all the same). A server that did not answer is not asked again by this
    process (:func:`.client.ask`). :class:`Elsewhere` when the server builds the catalog of
    these skills and leaves the answer from their files to this process."""
    if not (query_fits(query) and limit_fits(limit) and 0 < budget <= BUDGET_SECONDS):
        return None  # (the server's own bounds: it would refuse the request)
    try:
        roots = find_roots(
            layout, paths or routing_roots(), configured, confined=confined and bool(paths)
        )
    except SkillcError:
        return None
    if any(root.allowed for root in roots):  # the server's request carries no confinement
        return None
    from skillc_gateway.catalog.client import ask

    answer = ask(layout, query, limit, roots, budget)
    return None if answer is None else nested_cut(answer._replace(served=True), paths)


def nested_cut(found: FindResult, paths: Sequence[str]) -> FindResult:
    """``found``, partial and warned, when the installed skills were searched (no ``paths``,
    nor ``$SKILL_ROUTING_ROOTS``) and a project's lookup of nested ``.claude/skills``
    folders stopped at its bound (:func:`~skillc_index.inventory.nested.nested_notices`):
    the skills past it, which Claude Code loads, were not searched."""
    from skillc_index.inventory.nested import nested_notices

    notices = () if paths or routing_roots() else nested_notices()
    if not notices:
        return found
    return found._replace(partial=True, warnings=(*found.warnings, *notices))


def find_roots(
    layout: Layout,
    paths: Sequence[str],
    configured: dict[str, str] | None = None,
    *,
    confined: bool = False,
) -> tuple[Root, ...]:
    """The folders to search: ``paths`` (relative to the working directory; E022 for one
    that is not a folder), a folder of the inventory among them (a store, an agent folder, a
    plugin's skills, under any name: matched by its real path) searched as one (its
    entries); else what is installed (the inventory's folders:
    :func:`skillc_index.inventory.folders.search_roots`), but for a plugin its agent fails
    to load (:attr:`~skillc_index.inventory.folders.Root.unloaded`: ``skc list`` skips it,
    no name reads its skills). ``confined`` (the caller is a
    model): a path outside the folders a model may search is :class:`PathNotSearched`
    (E100: :mod:`skillc_index.inventory.reads`), and a linked entry of one leading out of
    them is not walked (:attr:`~skillc_index.inventory.folders.Root.allowed`); the command
    line's are followed."""
    if not paths:  # the folders whose skills the inventory serves
        return tuple(root for root in search_roots(layout, configured) if root.unloaded is None)
    from skillc_index import expand_user, is_folder
    from skillc_index.inventory.folders import KnownRoots
    from skillc_index.inventory.reads import model_folders

    if len(paths) > MAX_FIND_PATHS:  # as the operation's schema says (maxItems)
        raise TooManyItems("path", len(paths), MAX_FIND_PATHS)
    known = KnownRoots(layout, configured)
    allowed = model_folders(layout, known.roots) if confined else ()
    roots: list[Root] = []
    for given in paths:
        path = layout.cwd / expand_user(given)
        try:  # one stat for a folder (a warm find's): is it one, and a symlink?
            mode = os.lstat(path).st_mode
        except (OSError, ValueError):
            mode = 0
        link = stat.S_ISLNK(mode)
        if not given or not (stat.S_ISDIR(mode) or (link and is_folder(path))):  # "": no cwd
            raise SkillDirectoryNotFound(given)
        if confined:
            confine(given, path, allowed)
        absolute = Path(os.path.abspath(path))  # noqa: PTH100 - not resolved: as given
        root = known.get(absolute, link) or Root(absolute, "path", allowed=allowed)
        if all(other.path != root.path for other in roots):
            roots.append(root)
    return tuple(roots)


def _asked(serves: bool | Callable[[], bool] | None) -> bool:
    """``serves`` said (a bool, as the README writes it) or asked (the find operation's cached
    function: only when an answer needs it)."""
    return serves() if callable(serves) else bool(serves)
