"""The find server's wire format: where its files are, what a request and a reply hold.

One request per connection, a JSON object of at most :data:`MAX_REQUEST_BYTES` (the client
then shuts its side down), one JSON reply, then the server closes. Every request and reply
carries ``version`` (:data:`PROTOCOL`); ``op`` is ``find``, ``status``, ``stop`` or
``prepare`` (a find's query told ahead, which gets no reply: :mod:`skillc_gateway.find_socket`,
whose socket basics, the version and the message's encoding this module takes). A
``find`` request carries everything the answer depends on (:func:`find_request`: the query,
the limit, the folders the client computed to search, its working directory's layout, the
code it runs: :func:`code_id`; the agent variables the inventory reads, ``$CLAUDE_CONFIG_DIR``
and ``$CODEX_HOME``: :func:`agent_env`), which the server reads back with :func:`read_find_request`
(:class:`BadRequest` for anything else: a server answers only the finds of its own code, and
the client answers a refused find itself); nothing in a request is ever executed: it names
folders to read and words to rank. The answer travels whole (:func:`encode_result`,
:func:`decode_result`). The socket is ``.skillc/find.sock`` in the skillc home
(:func:`socket_path`), beside the server's lock and log.

On ``skc find``'s path (the client, :mod:`.client`): the standard library only at module
level, and none of the catalog machinery.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_gateway.catalog import BUDGET_SECONDS, FindResult, FoundSkill, SectionHit
from skillc_gateway.find_socket import (
    MAX_SOCKET_PATH,
    PROTOCOL,
    SOCKET_NAME,
    encode_message,
    fits,
    peer,
    switched_off,
)
from skillc_index import Diagnostic, FindServerError, Layout, Notice

if TYPE_CHECKING:
    from skillc_index.inventory.folders import Root

__all__ = [
    "FIND_FORMAT",
    "LOCK_NAME",
    "LOG_NAME",
    "MAX_REPLY_BYTES",
    "MAX_REQUEST_BYTES",
    "MAX_ROOTS",
    "PROTOCOL",
    "SOCKET_NAME",
    "BadRequest",
    "agent_env",
    "already_runs",
    "code_id",
    "decode_result",
    "encode_message",
    "encode_result",
    "find_request",
    "fits",
    "open_home_file",
    "other_version_reply",
    "peer",
    "read_find_request",
    "silent_record",
    "socket_path",
    "too_long",
]

LOCK_NAME = "find.lock"
LOG_NAME = "find.log"
#: A longer request is refused (the longest real one: a 10,000-character query, 256 roots).
MAX_REQUEST_BYTES = 256 * 1024
#: The most folders one request may name (``--path`` allows 16; what is installed, a few
#: dozen agent and plugin folders).
MAX_ROOTS = 256
#: A reply is at most this long (100 skills, each with its sections and duplicates).
MAX_REPLY_BYTES = 64 * 1024 * 1024
#: The format of a ``find`` request and of its answer: one more at any change of what they
#: hold or mean (:data:`PROTOCOL`, the envelope, stays; a request of another protocol is
#: answered as :func:`other_version_reply` says). 2: the request carries :func:`code_id`.
#: 3: each root travels whole (its agent, plugin and marketplace too: a plugin's skill is
#: named ``plugin:skill`` by the server as without it); a server of 2 refuses a request of 3
#: as one of other code, and the client answers it itself. 4: the request carries the
#: client's agent variables (``agent_env``: ``$CLAUDE_CONFIG_DIR``, ``$CODEX_HOME``), which
#: the server's names are read back through.
FIND_FORMAT = 4
#: The longest value of an agent variable a request may carry (a path: ``PATH_MAX``).
MAX_AGENT_VALUE = 4096
_ROOT_KINDS = frozenset({"store", "agent", "config", "plugin", "path"})
_SCOPES = frozenset({"project", "global"})


def socket_path(layout: Layout) -> Path:
    """Where the find server of ``layout``'s skillc home listens."""
    return layout.global_dir / SOCKET_NAME


def silent_record(socket: str | os.PathLike[str]) -> str:
    """The record beside the socket ``socket`` that its server did not answer a client in
    time (:mod:`.client` writes it, the server removes it once answering again)."""
    return f"{os.fspath(socket)}.silent"


def open_home_file(path: Path, flags: int) -> int:
    """The find server's lock or log ``path`` in the skillc home, opened with ``flags`` (with
    ``os.O_CREAT``: made 0600 when missing) only if it is a regular file
    (:func:`skillc_index.files.regular_fd`): a symlink there is not followed (nothing outside
    the home is truncated or written), a FIFO or a device is not waited on (the open does not
    block; the descriptor blocks again once checked). FindServerError (E060) naming it
    otherwise; OSError when it cannot be opened."""
    import stat

    from skillc_index import NotARegularFile
    from skillc_index.files import file_kind, regular_fd

    try:
        return regular_fd(str(path), None, str(path), flags=flags)
    except NotARegularFile as exc:
        kind = exc.kind
    except OSError:  # ELOOP: a symlink; ENXIO: a FIFO with no reader, opened to write
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        if stat.S_ISREG(mode):
            raise
        kind = "a symlink" if stat.S_ISLNK(mode) else file_kind(mode)
    raise FindServerError(f"{path} is {kind}, not a regular file: remove it first")


def too_long(path: str) -> str:
    """What to say of a socket ``path`` that does not :func:`fit <fits>`: the skillc home is
    its real path (symlinks resolved), so a short symlink to a long folder is no way around
    the limit (it was what the hint seemed to offer)."""
    return (
        f"the socket path {path} is {len(os.fsencode(path))} bytes long; a Unix socket's "
        f"path holds at most {MAX_SOCKET_PATH}: set SKILLC_HOME to a folder whose real path "
        "is shorter (the path is resolved: a short symlink to a long folder does not help)"
    )


def already_runs(pid: object) -> str:
    """E060's words for the find server of this home that runs already (pid ``pid``): what
    ``skc watch`` says whether it finds it before starting or its server finds the lock held
    (its ``--stop`` as the program the user ran writes it: ``skillc-gateway watch --stop``)."""
    from skillc_index.helppage import program_command

    stop = program_command("watch --stop")
    return f"a find server already runs for this skillc home (pid {pid}); '{stop}' stops it"


# -- a request of another protocol version ---------------------------------------------------

#: The longest skillc-gateway version a reply of another protocol version is believed to name.
MAX_VERSION_CHARS = 64


def other_version_reply(message: object) -> tuple[dict[str, Any], bool]:
    """A server's reply to ``message``, a request that is not of its :data:`PROTOCOL`, and
    whether the server stops. The envelope every version keeps, so that any skillc can name
    the server and stop it (``skc watch --status``, ``--stop``, ``--detach``): the server's
    ``version`` (added on the wire), ``pid`` and ``skillc_gateway`` (its package's version);
    ``ok`` false and ``error``, except for a ``stop``, which is honoured whatever its version
    (``ok`` true: the same user's request, as every request: ``SO_PEERCRED``)."""
    from skillc_gateway import __version__

    identity = {"pid": os.getpid(), "skillc_gateway": __version__}
    if isinstance(message, dict) and message.get("op") == "stop":
        return {"ok": True, **identity}, True
    return {"ok": False, "error": f"this server speaks version {PROTOCOL} only", **identity}, False


# -- the code a find is answered by ------------------------------------------------------------


def code_id() -> str:
    """The code that answers a find in this process, which a find server answers only the
    finds of: skillc-gateway's version, :data:`FIND_FORMAT`, and the count, total size and
    summed modification times of skillc-gateway's and skillc-index's modules (``.py``), so a
    server started before an upgrade (one version number until a release), a reinstall or an
    edit of a checkout answers none of the code installed since. Computed once a process, the
    server's when it starts (:meth:`.server.FindServer.open`); about 150 stats, 0.5 ms."""
    global _code_id
    if _code_id is None:
        import skillc_index.record as index_module  # (any: its folder is skillc-index's)
        from skillc_gateway import __version__

        gateway = os.path.dirname(os.path.dirname(__file__))  # noqa: PTH120
        index = os.path.dirname(index_module.__file__)  # noqa: PTH120
        count, size, mtime = _modules_stamp([gateway, index])
        _code_id = f"{__version__} find/{FIND_FORMAT} {count}:{size}:{mtime}"
    return _code_id


_code_id: str | None = None


def _modules_stamp(folders: list[str]) -> tuple[int, int, int]:
    """The count, total size and summed ``st_mtime_ns`` of the ``.py`` files in ``folders``
    and their subfolders (``__pycache__`` aside): what an install or an edit changes."""
    count = size = mtime = 0
    while folders:
        try:
            with os.scandir(folders.pop()) as entries:
                for entry in entries:
                    if entry.name.endswith(".py"):
                        st = entry.stat()
                        count, size, mtime = count + 1, size + st.st_size, mtime + st.st_mtime_ns
                    elif "." not in entry.name and entry.name != "__pycache__" and entry.is_dir():
                        folders.append(entry.path)
        except OSError:
            continue
    return count, size, mtime


# -- a find request ----------------------------------------------------------------------------


class BadRequest(Exception):
    """A request the server refuses (its text is the reply's ``error``)."""


def find_request(
    layout: Layout, query: str, limit: int, roots: Sequence[Root], budget: float
) -> dict[str, Any]:
    """The ``find`` request for an answer computed as this process would compute it: the
    semantic step as its environment wants it (the server's may differ)."""
    return {
        "op": "find",
        "code": code_id(),
        "home": str(layout.home),
        "cwd": str(layout.cwd),
        "project_root": None if layout.project_root is None else str(layout.project_root),
        "agent_env": agent_env(layout),
        "query": query,
        "limit": limit,
        "budget": budget,
        "semantic": not switched_off("SKILLC_FIND_SEMANTIC"),
        "roots": [
            [str(root.path), root.kind, root.scope, root.agent, root.plugin, root.marketplace]
            for root in roots
        ],
    }


def read_find_request(
    message: dict[str, Any], home: Path
) -> tuple[Layout, str, int, float, bool, tuple[Root, ...]]:
    """The ``find`` request ``message`` as :func:`find_request` writes it, for a server of
    the skillc home ``home``: ``(layout, query, limit, budget, semantic, roots)``;
    :class:`BadRequest` for anything else (a client of other code: :func:`code_id`, another
    home, a bound not kept). A tuple, not a record: the client imports this module, and a
    record class costs every ``skc find`` its making."""
    from skillc_gateway import __version__
    from skillc_gateway._limits import budget_fits, limit_fits, query_fits
    from skillc_index.inventory.folders import Root

    if message.get("code") != code_id():  # the server runs what was installed when it started
        raise BadRequest(f"this server runs other code (skillc-gateway {__version__}): restart it")
    if message.get("home") != str(home):
        raise BadRequest(f"this server serves the skillc home {home}")
    query, limit, budget = message.get("query"), message.get("limit"), message.get("budget")
    if not query_fits(query):
        raise BadRequest("bad query")
    if not limit_fits(limit):
        raise BadRequest("bad limit")
    if not budget_fits(budget) or not 0 < budget <= BUDGET_SECONDS:
        raise BadRequest("bad budget")
    semantic = message.get("semantic")
    if not isinstance(semantic, bool):
        raise BadRequest("bad semantic")
    cwd, project = message.get("cwd"), message.get("project_root")
    if not _absolute(cwd) or not (project is None or _absolute(project)):
        raise BadRequest("bad layout")
    given = message.get("roots")
    if not isinstance(given, list) or len(given) > MAX_ROOTS:
        raise BadRequest("bad roots")
    roots: list[Root] = []
    for item in given:
        if not (
            isinstance(item, list)
            and len(item) == 6
            and _absolute(item[0])
            and item[1] in _ROOT_KINDS
            and (item[2] is None or item[2] in _SCOPES)
            and all(_name_or_none(value) for value in item[3:])
        ):
            raise BadRequest("bad roots")
        path, kind, scope, agent, plugin, marketplace = item
        roots.append(Root(Path(path), kind, scope, agent, plugin, marketplace))
    agents = _read_agent_env(message.get("agent_env"))
    project_root = None if project is None else Path(project)
    layout = Layout(Path(str(cwd)), home, project_root, agent_env=agents)
    return layout, query, limit, float(budget), semantic, tuple(roots)


def agent_env(layout: Layout) -> list[list[str]]:
    """The agent variables the inventory reads (:data:`~skillc_index.inventory.folders.
    AGENT_VARIABLES`) as ``layout`` sees them (:func:`~skillc_index.inventory.folders.
    agent_variable`: its own, else the process's), ``[name, value]`` for each one set: the
    server answers with the client's Claude Code and Codex folders, not its own, so it names
    a skill of ``$CLAUDE_CONFIG_DIR/skills`` as the client reads it back."""
    from skillc_index.inventory.folders import AGENT_VARIABLES, agent_variable

    return [
        [name, value]
        for name in AGENT_VARIABLES
        if (value := agent_variable(layout, name)) is not None
    ]


def _read_agent_env(given: object) -> tuple[tuple[str, str], ...]:
    """:func:`agent_env`'s list read back as a layout's ``agent_env`` (each variable of
    :data:`~skillc_index.inventory.folders.AGENT_VARIABLES` at most once, a value of at most
    :data:`MAX_AGENT_VALUE` characters without NUL); :class:`BadRequest` otherwise."""
    from skillc_index.inventory.folders import AGENT_VARIABLES

    if not isinstance(given, list) or len(given) > len(AGENT_VARIABLES):
        raise BadRequest("bad agent_env")
    pairs: dict[str, str] = {}
    for item in given:
        if not (
            isinstance(item, list)
            and len(item) == 2
            and item[0] in AGENT_VARIABLES
            and item[0] not in pairs
            and isinstance(item[1], str)
            and len(item[1]) <= MAX_AGENT_VALUE
            and "\0" not in item[1]
        ):
            raise BadRequest("bad agent_env")
        pairs[item[0]] = item[1]
    return tuple(pairs.items())


def _absolute(value: object) -> bool:
    return isinstance(value, str) and value.startswith("/") and "\0" not in value


def _name_or_none(value: object) -> bool:
    """A root's agent, plugin or marketplace: None or a name (the request's size bounds it)."""
    return value is None or (isinstance(value, str) and bool(value) and "\0" not in value)


# -- the answer on the wire --------------------------------------------------------------------


def encode_result(result: FindResult) -> dict[str, Any]:
    """``result`` as JSON values, every field kept (``to_dict`` rounds the score and leaves
    out ``in_store``, which the text output needs)."""
    return {
        "query": result.query,
        "skills": [
            [
                skill.name,
                skill.description,
                skill.path,
                list(skill.deployed_to),
                skill.score,
                [list(section) for section in skill.sections],
                list(skill.duplicates),
                skill.in_store,
            ]
            for skill in result.skills
        ],
        "searched": result.searched,
        "skipped": result.skipped,
        "partial": result.partial,
        "ranker": result.ranker,
        "warnings": [
            {"text": warning.text, "level": warning.level}
            if isinstance(warning, Notice)
            else {"code": warning.code, "params": dict(warning.params), "detail": warning.detail}
            for warning in result.warnings
        ],
    }


def decode_result(data: dict[str, Any]) -> FindResult:
    """The :class:`FindResult` :func:`encode_result` wrote (TypeError, ValueError or
    KeyError for anything else)."""
    skills = tuple(
        FoundSkill(
            name=_string(name),
            description=_string(description),
            path=_string(path),
            deployed_to=tuple(_string(item) for item in deployed),
            score=float(score),
            sections=tuple(
                SectionHit(_string(file), _string(heading), _integer(line))
                for file, heading, line in sections
            ),
            duplicates=tuple(_string(item) for item in duplicates),
            in_store=_boolean(in_store),
        )
        for name, description, path, deployed, score, sections, duplicates, in_store in data[
            "skills"
        ]
    )
    warnings: list[Diagnostic | Notice] = []
    for warning in data["warnings"]:
        if "code" in warning:
            params = {_string(key): _string(value) for key, value in warning["params"].items()}
            code, detail = _string(warning["code"]), _string(warning["detail"])
            warnings.append(Diagnostic(code, params, detail))
        else:
            level = warning["level"]
            if level not in ("warning", "info", "error"):
                raise ValueError(level)
            warnings.append(Notice(_string(warning["text"]), level))
    return FindResult(
        query=_string(data["query"]),
        skills=skills,
        searched=_integer(data["searched"]),
        skipped=_integer(data["skipped"]),
        partial=_boolean(data["partial"]),
        warnings=tuple(warnings),
        ranker=_string(data["ranker"]),
    )


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(value)
    return value


def _integer(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(value)
    return value


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(value)
    return value
