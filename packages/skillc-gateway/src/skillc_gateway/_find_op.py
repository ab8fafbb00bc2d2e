"""``find`` as an operation (:mod:`skillc_index.operation`): the installed skills for a task
(issue 15), from the catalog of every installed skill. In a module of its own so that ``skc
find`` (:mod:`skillc_gateway.cli_find`, when its quick path did not answer) defines no other
operation; the operation table, with this one, is :mod:`skillc_gateway.operations`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from skillc_gateway._limits import (
    DEFAULT_FIND_LIMIT,
    MAX_FIND_LIMIT,
    MAX_FIND_PATHS,
    MAX_QUERY_CHARS,
)
from skillc_index.operation import Operation, Param, Session
from skillc_index.record import Record

if TYPE_CHECKING:
    from collections.abc import Callable

    from skillc_gateway.catalog import FindResult

__all__ = ["FIND", "FindParams"]


class FindParams(Record):
    query: Annotated[
        str,
        Param(
            "The task, in words: what the user asked for, or the part of it a skill may help with.",
            max_length=MAX_QUERY_CHARS,  # an empty one is E004, as in skc find and skc_search
            argument=True,
        ),
    ]
    limit: Annotated[
        int,
        Param(
            "Return at most this many skills.",
            minimum=1,
            maximum=MAX_FIND_LIMIT,
            help="Most skills.",
            show_default=True,
        ),
    ] = DEFAULT_FIND_LIMIT
    path: Annotated[
        tuple[str, ...],
        Param(
            "Search only the skills under these folders (nested folders included), each in "
            "the project, the home folder or a folder of installed skills; default: "
            "every installed skill (the project and global stores, the agents' skills folders, "
            "project and home, and installed Claude Code plugins), or the folders of "
            "$SKILL_ROUTING_ROOTS when it is set.",
            help="Only the skills under this folder (repeatable) [default: "
            "$SKILL_ROUTING_ROOTS, else every installed skill].",
            metavar="DIR",
            names="dir",
            max_items=MAX_FIND_PATHS,
        ),
    ] = ()


def find(session: Session, params: FindParams) -> FindResult:
    """Not logged: it resolves no skill (the ``show`` that follows is). A session with
    ``confined_paths`` (the MCP server) searches only folders in the project, the home folder
    and the folders of installed skills (E100 for another). Kept to the
    session's ``reply_chars`` (:mod:`skillc_gateway._find_reply`). In a one-shot session
    (``skc find``), the home's find server answers when one runs (the same answer, without
    this process loading the catalog). A session that ``starts_servers`` (``skc find``, the
    MCP server) answers a library its catalog lacks from the skills' files, and starts a
    find server to build the catalog and compute the semantic step's vectors
    (:func:`_start_server`); a one-shot session also when it answered a large library
    itself, for the next finds. Whether a find server can start is asked once, and only when
    an answer needs it (a warm find never asks: :func:`~.catalog.lifecycle.can_serve`): when
    not, the find that answered from the files builds a share of the catalog itself. Any
    other session (an embedder's) starts nothing: it answers in its own process, building
    the catalog within the find's budget, as :func:`~.catalog.find_skills` does."""
    import functools

    from skillc_gateway.catalog import find_skills, lifecycle, nested_cut
    from skillc_index.inventory.folders import trusted_targets

    starts = session.starts_servers
    serves = functools.cache(functools.partial(lifecycle.can_serve, session.layout))
    found = find_skills(
        session.layout,
        params.query,
        limit=params.limit,
        paths=params.path,
        configured=trusted_targets(session.layout, session.config),
        server=session.one_shot,
        builds=starts,
        serves=serves if starts else False,
        confined=session.confined_paths,
    )
    if starts and not (found.served or found.partial or found.warnings):  # before the
        _start_server(session, params, found, serves)  # answer: its reader may stop early
    if not found.served:  # (a served answer says it already): not one to keep a server off
        found = nested_cut(found, params.path)
    if session.reply_chars is None:
        return found
    from skillc_gateway._find_reply import fit_answer

    return fit_answer(found, session.reply_chars)


def _start_server(
    session: Session, params: FindParams, found: FindResult, serves: Callable[[], bool]
) -> None:
    """After answering from the skills' files (the catalog not built yet: ``found.first``),
    or by the words alone while the semantic step waits for its vectors, start a find server
    in the background (it builds the catalog and computes the vectors, the model loaded in
    that one process; ``$SKILLC_FIND_SERVER=0``: never), and say so (an ``info`` notice:
    what the session warns is no part of the answer). A one-shot session also after
    answering a large library itself (``lifecycle.AUTO_START_SKILLS``): the next ``skc
    find`` is answered warm; a session that serves many calls (the MCP server) keeps its
    own catalog warm. ``serves``: whether one can start (:func:`find`'s, asked once)."""
    from skillc_gateway.catalog import embedding, lifecycle
    from skillc_gateway.find_socket import switched_off

    if switched_off("SKILLC_FIND_SERVER"):
        return
    waiting = found.ranker != "lexical+semantic" and embedding.available()
    large = session.one_shot and found.searched >= lifecycle.AUTO_START_SKILLS
    if not (large or waiting or found.first) or not serves():
        return
    build: list[str] = []
    if params.path and not session.confined_paths:  # the folders searched, absolute: the
        # server indexes them first (not a model's: its walk would follow their links out)
        from skillc_gateway.catalog import find_roots

        build = [str(root.path) for root in find_roots(session.layout, params.path)]
    pid = lifecycle.start_for_later(session.layout, build, serves=True)
    if pid is not None:
        from skillc_index import Notice
        from skillc_index.helppage import program_command

        text = (
            f"started a find server for the next finds (pid {pid}; it stops after an idle "
            f"hour, '{program_command('watch --stop')}' stops it now, SKILLC_FIND_SERVER=0 "
            "starts none)"
        )
        session.warn([Notice(text, "info")])


FIND: Operation[FindParams, FindResult] = Operation(
    name="find",
    title="Find the skills for a task",
    description="Rank the installed skills (every skill of the stores, the agents' skills "
    "folders and installed Claude Code plugins) for a task described in words, best first: "
    "each with its name, description, source folder (`path`), the agent folders it is "
    "deployed to, and its best-matching sections. Use it first when you do not know which "
    "skill fits, then read the best section with skc_show (skill: its name, or its `path`; "
    "a skill that is not built has no index for skc_show: read it with skc_open on "
    "SKILL.md from the section's `line`, or skc_outline). "
    "`partial` is true when some changed skills could not be indexed again in time.",
    params=FindParams,
    run=find,
    output="skillc_gateway.shapes:FindShape",
)
