"""Configuration (RFC-0009): global and project ``config.toml``, environment and CLI overrides.

A project's settings may also live in ``pyproject.toml`` as ``[tool.skillc]`` (its
``[tool.skillc.lint]`` is the ``[lint]`` table, ``[tool.skillc.search]`` the ``[search]``
one...): at the project's root, when it has no ``.skillc/config.toml``, every command reads
it (:func:`project_config_file`). A tool may name the file to read
(``--config PATH``) or find the one nearest a path (:func:`find_config`), as ruff finds its
own: walking up from the path, the first folder holding ``.skillc/config.toml`` or a
``pyproject.toml`` with a ``[tool.skillc]`` table, never past the project's root (the folder
holding its ``.skillc/``, or a repository's top) nor into the skillc home.

Resolution is per key (RFC-0009:C-RESOLUTION): CLI > environment > project > global > default.
A file that cannot be read or parsed is reported and ignored (and listed in
:attr:`Config.ignored`), unknown keys are reported and ignored, and nothing here ever fails a
command: problems come back as :class:`Notice` values in :attr:`Config.notices` for the front
end to print (at most :data:`~skillc_index.diagnostics.MAX_PROBLEMS`, then one for the rest).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from skillc_index.diagnostics import Notice, NoticeLevel, capped
from skillc_index.homes import env_folder
from skillc_index.layout import SKILLC_DIR, Layout, shown
from skillc_index.project import foreign_notice, is_project_marker, may_hold_project
from skillc_index.record import Record
from skillc_index.targets import home_relative, target_name_problem

SUPPORTED_VERSION = 1
TOKENIZERS = ("ascii", "cjk")

#: Settings with a fixed schema: dotted key -> default. ``[budget]`` is the skill listing
#: budget ``skc list --budget`` measures agent folders against: Claude Code's default, 1% of
#: a 200,000-token context window; ``context_tokens`` unset (None) is each agent's own
#: default (:func:`skillc_index.listing.agents.listing_budget`: Codex's window is unknown).
DEFAULTS: dict[str, Any] = {
    "search.tokenizer": "ascii",
    "budget.context_tokens": None,
    "budget.percent": 1.0,
    "stats.url": "",
}
#: The tables of :data:`DEFAULTS` (each a fixed set of keys).
FIXED_TABLES = ("search", "budget", "stats")
#: The largest ``[budget].context_tokens`` taken (a 100-million-token window is plenty).
MAX_CONTEXT_TOKENS = 100_000_000
#: Environment variables (RFC-0009 v0.1.0 defines the first): variable -> dotted key.
ENVIRONMENT: dict[str, str] = {
    "SKILLC_TOKENIZER": "search.tokenizer",
    "SKILLC_STATS_URL": "stats.url",
}
#: Environment variables naming a folder, read by :func:`~skillc_index.homes.env_folder`: an
#: absolute path only; a relative one is warned about and ignored (``SKILLC_CACHE_DIR=rel``
#: put skillc-lint's cache into each skill folder linted, where ``package`` shipped it).
FOLDER_VARIABLES = ("SKILLC_HOME", "SKILLC_CACHE_DIR")
#: Keys only the global config and the environment may set: a project's ``config.toml`` comes
#: with a checkout, and must not send the user's usage rows to a server of its choosing.
PERSONAL_KEYS = frozenset({"stats.url"})
#: At most this many ``[targets]`` entries are read from one file (the rest are warned about
#: and ignored): a listing and a build look into every target's folder (4,000 took 24 s).
MAX_CONFIG_TARGETS = 256
#: Tables whose keys are free-form and merged key by key.
OPEN_TABLES = ("lint", "targets", "libraries")
#: How a key of ``[lint.rules]`` is kept (``lint.rules.SKL108``): merged rule by rule, as
#: ``[lint]``'s own keys are, and given back as the ``rules`` table of :attr:`Config.lint`.
RULES_PREFIX = "lint.rules."
#: Where a value may come from (:attr:`Config.origins`), lowest precedence first.
ORIGINS = ("default", "global", "project", "env", "cli")


class Config(Record):
    """The effective configuration for one working directory."""

    tokenizer: str = "ascii"
    """``[search].tokenizer``: ``ascii`` or ``cjk`` (RFC-0009:C-TOKENIZER)."""
    lint: Mapping[str, Any] = MappingProxyType({})
    """The merged ``[lint]`` table, interpreted by skillc-lint (RFC-0008:C-EXTENSIONS)."""
    targets: Mapping[str, str] = MappingProxyType({})
    """Extra or overridden deployment targets from ``[targets]`` (ADR-0002)."""
    libraries: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    """Named sets of skill folders from ``[libraries]`` (``team = ["~/team/skills"]``):
    ``skc eval --library NAME`` scores against one. A project's relative paths are relative
    to its root, the global config's to the home folder (see :meth:`library`)."""
    budget_context_tokens: int | None = None
    """``[budget].context_tokens``: the context window an agent's skill listing is a share of;
    None when no config sets it: each agent's default (Claude Code 200,000 tokens, Codex an
    unknown window, 8,000 characters)."""
    budget_percent: float = 1.0
    """``[budget].percent``: the share of that window the listing may take (Claude Code: 1)."""
    home_budget: tuple[int | None, float] | None = None
    """``[budget]`` (context tokens, percent) without the project's config, when it sets one:
    what prices a listing that holds a home folder (a checkout does not decide what ``skc
    list --budget --apply overrides`` writes into the user's settings); None: the same."""
    stats_url: str = ""
    """``[stats].url`` (or ``$SKILLC_STATS_URL``): the team store, a ``postgresql://`` URL
    (``""``: none). Never read from a project's config."""
    origins: Mapping[str, str] = MappingProxyType({})
    """Where each set value came from: ``cli``, ``env``, ``project``, ``global`` or
    ``default`` (:data:`ORIGINS`)."""
    files: tuple[Path, ...] = ()
    """The config files that were read, lowest precedence first."""
    ignored: Mapping[Path, str] = MappingProxyType({})
    """The config files there that were ignored as a whole, each with why (``invalid TOML in
    config file ...: ...``): also a notice. A file the user named (``skillc-lint --config``)
    that is ignored is an error for the tool that reads it."""
    notices: tuple[Notice, ...] = ()
    """Problems found (unknown keys, bad values, unreadable files): to print, never fatal."""

    def library(
        self, name: str, project_root: Path | None, home: Path
    ) -> tuple[tuple[Path, ...], tuple[Notice, ...]]:
        """The folders of ``[libraries] NAME`` (``~/`` is ``home``, the skillc home, as in
        ``[targets]``; a relative path against the project root when the project's config set
        it, else ``home``), and a warning for each folder of a project's entry left out: one
        not really inside the project (a checkout's ``team = ["/"]`` made ``skc eval
        --library team`` walk the disk), as :func:`~skillc_index.inventory.folders.
        trusted_targets` keeps its ``[targets]``. E100 when no library has that name, or a
        project's has no folder left."""
        from skillc_index.option_errors import InvalidOption

        folders = self.libraries.get(name)
        if folders is None:
            known = ", ".join(sorted(self.libraries)) or "none: add [libraries] to the config"
            raise InvalidOption(f"no library named '{name}' (known: {known})", usage=True)
        project = self.project_library(name)
        base = project_root if project and project_root is not None else home
        paths = [
            (folder, base / folder if (under := home_relative(folder)) is None else home / under)
            for folder in folders
        ]
        if not project:
            return tuple(path for _, path in paths), ()
        from skillc_index.files import within  # only for a project's library

        kept = tuple(p for _, p in paths if project_root is not None and within(p, project_root))
        left = [  # each quoted bounded (:func:`shown`): a project's folder can be 100 KB long
            Notice(f"config [libraries] {shown(name)}: '{shown(folder)}' is not inside the "
                   "project; left out (a project's library stays in it: 'skc eval --path DIR' "
                   "takes any folder)")
            for folder, path in paths
            if path not in kept
        ]  # fmt: skip
        notices = tuple(capped(left, lambda n: Notice(f"... and {n:,} more folders left out")))
        if not kept:
            out = ", ".join(f"'{shown(folder)}'" for folder in folders[:3])
            out += f" and {len(folders) - 3:,} more" if len(folders) > 3 else ""
            raise InvalidOption(
                f"library '{name}' of the project's config has no folder inside the project "
                f"({out}: 'skc eval --path DIR' takes any folder)"
            )
        return kept, notices

    def project_library(self, name: str) -> bool:
        """Whether ``[libraries] NAME`` comes from the project's own ``config.toml``: a
        checkout controls it, so it directs no write outside the project (DECISIONS)."""
        return self.origins.get(f"libraries.{name}") == "project"

    @property
    def project_targets(self) -> frozenset[str]:
        """The ``[targets]`` names whose folder comes from the project's own ``config.toml``:
        a checkout controls them, so they may not lead outside the project (issue 13). The
        home config is the user's own and stays trusted."""
        return frozenset(
            key[len("targets.") :]
            for key, origin in self.origins.items()
            if key.startswith("targets.") and origin == "project"
        )


#: A config file larger than this is ignored with a warning (real ones are a few lines).
MAX_CONFIG_BYTES = 256 * 1024


class _TooLarge(Exception):
    """The config file is larger than :data:`MAX_CONFIG_BYTES`."""


class _KeyTooLong(Exception):
    """A key of the config file has more parts than the TOML parser can take in bounded time
    and memory, or its keys too many parts in all (:func:`~skillc_index.toml_keys.key_refusal`):
    on the line in ``args[0]``, why in ``args[1]``."""


def _load_toml(path: Path) -> dict[str, Any]:
    """The TOML of the file at ``path``: :class:`FileNotFoundError` when there is none (the
    common case: checked before the TOML parser is imported), any other :class:`OSError`
    when it cannot be read (a link loop, ``ELOOP``). A leading UTF-8 BOM (Windows editors
    write one) is dropped; other bytes that are not UTF-8 are :class:`UnicodeDecodeError`.
    The one place skillc reads TOML: :class:`_TooLarge` and :class:`_KeyTooLong` bound what
    the parser is given (its cost is quadratic in a dotted key's parts)."""
    from skillc_index.bounded_json import read_bounded
    from skillc_index.toml_keys import key_refusal

    # a checkout's file: a FIFO, or a link to the reader's own stdin or stdout, is not read
    # (lint in CI waited on its own pipe for ever)
    data = read_bounded(path, MAX_CONFIG_BYTES)
    if len(data) > MAX_CONFIG_BYTES:
        raise _TooLarge
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    text = data.decode("utf-8-sig")
    refused = key_refusal(text)
    if refused is not None:
        raise _KeyTooLong(*refused)
    return tomllib.loads(text)


def read_toml(path: Path) -> dict[str, Any] | None:
    """Another program's TOML file (Codex's ``config.toml``), read as a config is
    (:func:`_load_toml`: within :data:`MAX_CONFIG_BYTES`, its keys bounded); None when it is
    not there, cannot be read, is too large, too deep or no valid TOML: it then sets
    nothing."""
    try:
        return _load_toml(path)
    except (OSError, ValueError, _TooLarge, _KeyTooLong, RecursionError):
        return None  # UnicodeDecodeError and tomllib's TOMLDecodeError are ValueErrors


#: The file name whose ``[tool.skillc]`` table is a config (the rest is other tools').
PYPROJECT = "pyproject.toml"


def _skillc_table(raw: dict[str, Any]) -> dict[str, Any] | None:
    """A ``pyproject.toml``'s ``[tool.skillc]`` table, or None when it has none."""
    tool = raw.get("tool")
    table = tool.get("skillc") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else None


class _Ignored(Exception):
    """The config file is ignored as a whole: why (the notice is ``<why>; file ignored``)."""

    def __init__(self, why: str, level: NoticeLevel = "warning") -> None:
        super().__init__(why)
        self.level: NoticeLevel = level


def _read_file(
    path: Path, notices: list[Notice], ignored: dict[Path, str]
) -> dict[str, Any] | None:
    """One config file as flat ``{dotted key: value}``, or None when it is absent or ignored
    (why in ``ignored``, and a notice). A ``pyproject.toml`` is read for its ``[tool.skillc]``
    table alone (one without is ignored: only a named one is read). A file that cannot be
    opened (a link to itself, or a loop of links) is a notice, not "no config"."""
    try:
        return _read_values(path, notices)
    except FileNotFoundError:
        return None
    except _Ignored as exc:
        why = str(exc)
        ignored[path] = why
        notices.append(Notice(f"{why}; file ignored", level=exc.level))
        return None


def _read_values(path: Path, notices: list[Notice]) -> dict[str, Any]:
    """:func:`_read_file`'s values; :class:`_Ignored` when the file is no usable config."""
    try:
        raw = _load_toml(path)
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc.__class__.__name__
        raise _Ignored(f"cannot read config file {path}: {reason}") from None
    except ValueError as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise _Ignored(f"invalid TOML in config file {path}: {exc}") from None
    except _TooLarge:
        kib = MAX_CONFIG_BYTES // 1024
        raise _Ignored(f"config file {path} is larger than {kib} KiB") from None
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise _Ignored(f"config file {path} is nested too deeply") from None
    except _KeyTooLong as exc:
        raise _Ignored(f"config file {path}: line {exc.args[0]} {exc.args[1]}") from None
    if path.name == PYPROJECT:
        table = _skillc_table(raw)
        if table is None:
            raise _Ignored(f"config file {path} has no [tool.skillc] table")
        raw = table

    version = raw.pop("version", SUPPORTED_VERSION)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        # RFC-0009:C-FILES: "MUST emit an error" (the command still runs)
        raise _Ignored(f"config file {path}: 'version' must be a positive integer", "error")
    if version > SUPPORTED_VERSION:
        notices.append(
            Notice(
                f"config file {path}: version {version} is newer than the supported version "
                f"{SUPPORTED_VERSION}; using only the settings this version knows"
            )
        )

    flat: dict[str, Any] = {}
    for section, body in raw.items():
        if section in FIXED_TABLES and isinstance(body, dict):
            for key, value in body.items():
                dotted = f"{section}.{key}"
                if dotted not in DEFAULTS:
                    unknown = f"unknown key '{shown(dotted)}' ignored"
                    notices.append(Notice(f"config file {path}: {unknown}"))
                elif not _valid(dotted, value):
                    # a URL may hold a password
                    quoted = "" if dotted in PERSONAL_KEYS else f" {shown(repr(value))}"
                    notices.append(
                        Notice(
                            f"config file {path}: invalid value{quoted} for '{shown(dotted)}' "
                            f"(expected {_EXPECTED[dotted]}); ignored"
                        )
                    )
                else:
                    flat[dotted] = value
        elif section in OPEN_TABLES and isinstance(body, dict):
            entries = list(body.items())
            if section == "targets" and len(entries) > MAX_CONFIG_TARGETS:
                notices.append(_too_many_targets(path, len(entries)))
                del entries[MAX_CONFIG_TARGETS:]
            for key, value in entries:
                problem = _entry_problem(section, key, value)
                if problem is not None:
                    what = "target" if section == "targets" else "library"
                    notices.append(
                        Notice(f"config file {path}: {what} '{shown(key)}' {problem}; ignored")
                    )
                    continue
                if section == "lint" and key == "rules":
                    if not isinstance(value, dict):  # it replaced the global [lint.rules]
                        notices.append(_not_a_table(path, "lint.rules", value))
                        continue
                    # RFC-0009's [lint.rules]: each rule a key, so a project's table merges
                    # into the global one rule by rule (it replaced the whole table)
                    flat.update({f"{RULES_PREFIX}{rule}": v for rule, v in value.items()})
                    continue
                flat[f"{section}.{key}"] = value
        elif section in FIXED_TABLES or section in OPEN_TABLES:  # search = "cjk"
            notices.append(_not_a_table(path, section, body))
        else:
            notices.append(Notice(f"config file {path}: unknown key '{shown(section)}' ignored"))
    return flat


def _nested_rules(lint: Mapping[str, Any]) -> dict[str, Any]:
    """The ``[lint]`` table with its ``rules.<rule>`` keys put back in a ``rules`` table (in
    the place of the first of them, keys in merged order). A ``rules`` value that is no table
    never gets here (:func:`_read_values` warns and ignores it)."""
    prefix = RULES_PREFIX.removeprefix("lint.")
    table: dict[str, Any] = {}
    for key, value in lint.items():
        if key.startswith(prefix):
            table.setdefault("rules", {})[key[len(prefix) :]] = value
        else:
            table[key] = value
    return table


def _not_a_table(path: Path, table: str, value: Any) -> Notice:
    """The notice for ``table`` (``search``, ``lint.rules``) given a value that is no table,
    ignored: its header as ``path`` spells it (``[tool.skillc.search]`` in pyproject.toml)."""
    header = f"tool.skillc.{table}" if path.name == PYPROJECT else table
    return Notice(
        f"config file {path}: '{table}' must be a table ([{header}] ...), "
        f"not {_toml_kind(value)}; ignored"
    )


def _too_many_targets(path: Path, count: int) -> Notice:
    """The notice for a ``[targets]`` table of ``count`` entries, over the bound."""
    header = "tool.skillc.targets" if path.name == PYPROJECT else "targets"
    return Notice(
        f"config file {path}: [{header}] has {count:,} entries, more than "
        f"{MAX_CONFIG_TARGETS}; the first {MAX_CONFIG_TARGETS} are read, the rest ignored"
    )


def _toml_kind(value: Any) -> str:
    """What a TOML value is, for a message (``a string``, ``an array``...)."""
    kinds = (
        (bool, "a boolean"),
        (int, "an integer"),
        (float, "a float"),
        (str, "a string"),
        (list, "an array"),
    )
    return next((kind for cls, kind in kinds if isinstance(value, cls)), "a date or time")


def _entry_problem(section: str, key: str, value: Any) -> str | None:
    """Why an entry of ``[targets]`` or ``[libraries]`` is unusable, or None: a key that
    names no target (:func:`~skillc_index.targets.target_name_problem`), a value that is no
    path (not a non-empty string, or holding a NUL, which no path can: every command reading
    the folders failed on it)."""
    if section == "targets":
        problem = target_name_problem(key)
        if problem is None and not _is_path(value):
            problem = "must be a path string (not empty, no NUL)"
        return problem
    if section == "libraries" and not (
        isinstance(value, list) and value and len(value) <= 256 and all(map(_is_path, value))
    ):
        return "must be a list of 1 to 256 folder paths (not empty, no NUL)"
    return None


def _is_path(value: Any) -> bool:
    return isinstance(value, str) and bool(value) and "\0" not in value


_EXPECTED = {
    "search.tokenizer": f"one of {', '.join(TOKENIZERS)}",
    "budget.context_tokens": f"an integer from 1 to {MAX_CONTEXT_TOKENS:,}",
    "budget.percent": "a number above 0, at most 100",
    "stats.url": "a postgresql:// URL",
}


def _valid(dotted: str, value: Any) -> bool:
    if dotted == "search.tokenizer":
        return value in TOKENIZERS
    if dotted == "stats.url":
        return isinstance(value, str) and value.startswith(("postgresql://", "postgres://"))
    if isinstance(value, bool):
        return False
    if dotted == "budget.context_tokens":
        return isinstance(value, int) and 1 <= value <= MAX_CONTEXT_TOKENS
    if dotted == "budget.percent":
        return isinstance(value, int | float) and 0 < value <= 100
    return True


def find_config(
    start: Path, layout: Layout, nearest: dict[Path, Path | None] | None = None
) -> Path | None:
    """The config file nearest ``start`` (a file or folder): walking up from it, the first
    folder holding ``.skillc/config.toml`` (not the global one) or a ``pyproject.toml`` with
    a ``[tool.skillc]`` table; None when there is none. The walk ends at the project's root
    (a folder holding a ``.skillc/`` directory, as :class:`~skillc_index.layout.Layout` finds
    it, or a repository's top, holding ``.git``), that folder included, and before the skillc
    home: a file above them (a parent's ``.skillc/config.toml``, a ``pyproject.toml`` in
    ``/tmp`` above ``$SKILLC_HOME``) is no one's in the project and configures none of its
    skills, nor a global skill (DECISIONS: the home never counts as a project). A
    ``pyproject.toml`` that cannot be
    parsed is taken (:func:`load_config` reports it and ignores it, as a broken
    ``.skillc/config.toml``); one that cannot be opened is passed over. ``nearest``:
    the answer for each folder walked, kept and reused by a caller asking for many paths
    (a lint of thousands of skills walks each folder above them once)."""
    folder = start.absolute()
    if not folder.is_dir():
        folder = folder.parent
    walked: list[Path] = []
    found: Path | None = None
    for here in (folder, *folder.parents):
        if nearest is not None and here in nearest:
            found = nearest[here]
            break
        if here == layout.home:
            break  # its config is the global one, read anyway
        walked.append(here)
        found = _config_in(here, layout)
        if found is not None or _is_top(here):
            break
    if nearest is not None:
        nearest.update(dict.fromkeys(walked, found))
    return found


def _is_top(here: Path) -> bool:
    """Whether ``here`` is the top a walk for a config ends at: a project's root (a
    ``.skillc/`` folder as :class:`~skillc_index.layout.Layout` counts one, or another
    user's, whose config is passed over: nothing above it is taken either) or a
    repository's (``.git``, a folder or a file: worktrees and submodules)."""
    return is_project_marker(here / SKILLC_DIR) or os.path.lexists(here / ".git")


def _config_in(here: Path, layout: Layout) -> Path | None:
    """The config file of the folder ``here`` itself (see :func:`find_config`), or None. A
    folder that cannot be looked into (another user's ``.skillc/``, a working folder of mode
    000: ``is_file`` raises on ``EACCES``) has none: passed over like an unreadable file; so
    has a ``.skillc/`` that is no project's (a global store, another user's:
    :func:`~skillc_index.project.may_hold_project`)."""
    project = here / ".skillc" / "config.toml"
    try:
        if project.is_file() and may_hold_project(here, layout):
            return project
    except OSError:
        return None
    pyproject = here / PYPROJECT
    try:
        stat = pyproject.stat()
    except OSError:
        return None
    if _pyproject_is_config(str(pyproject), stat.st_mtime_ns, stat.st_size):
        return pyproject
    return None


@functools.lru_cache(maxsize=256)
def _pyproject_is_config(path: str, mtime_ns: int, size: int) -> bool:
    """Whether the ``pyproject.toml`` at ``path`` (as of ``mtime_ns`` and ``size``) is a
    config: it has a ``[tool.skillc]`` table, or it cannot be parsed (not TOML, not UTF-8,
    too large or deep) and its text names ``tool.skillc``, so it may have one, and
    :func:`load_config` says why it is ignored (a team's ``[tool.skillc.lint]`` was dropped
    without a word for a duplicate key in ``[tool.ruff]``; a vendored package's broken file
    that names no skillc table is passed over, not taken for the project's config). Read once
    for all the skills under it; one that cannot be opened (a FIFO, another user's) is passed
    over."""
    try:
        return _skillc_table(_load_toml(Path(path))) is not None
    except OSError:
        return False
    except (UnicodeDecodeError, ValueError, _TooLarge, _KeyTooLong, RecursionError):
        pass
    import re

    from skillc_index.bounded_json import read_bounded

    try:
        data = read_bounded(Path(path), MAX_CONFIG_BYTES)
    except OSError:
        return False
    return re.search(rb"tool\s*\.\s*[\"']?skillc\b", data) is not None


def project_config_file(layout: Layout) -> Path | None:
    """The project's config file, which :func:`load_config` reads for every command and
    :func:`find_config` finds at the project's root: its ``.skillc/config.toml``, or, when it
    has none, the root's ``pyproject.toml`` with a ``[tool.skillc]`` table (whose
    ``[tool.skillc.search]`` and ``[tool.skillc.targets]`` count for ``search`` and ``build``
    as its ``[tool.skillc.lint]`` does for ``lint``); None outside a project."""
    root = layout.project_root
    if root is None:
        return None
    return _config_in(root, layout) or layout.project_config


def folder_variable_notices(env: Mapping[str, str]) -> list[Notice]:
    """A warning for each of :data:`FOLDER_VARIABLES` set to a path that is not absolute
    (those reading it ignore it), and for a home (``SKILLC_HOME``, ``HOME``) whose symlinks
    loop (:func:`~skillc_index.homes.resolved_home`, which found it so: no home is used)."""
    from skillc_index.homes import home_loops

    notices = [
        Notice(f"environment variable {variable}={value!r} is not an absolute path; ignored")
        for variable in FOLDER_VARIABLES
        if (value := env.get(variable)) and env_folder(env, variable) is None
    ]
    for variable in ("SKILLC_HOME", "HOME"):
        folder = env_folder(env, variable)
        if folder is not None and home_loops(folder, seen=True):
            notices.append(
                Notice(
                    f"environment variable {variable}={env[variable]!r} is a symlink loop;"
                    " no home folder is used: set it to a folder of your own"
                )
            )
    return notices


def load_config(
    layout: Layout,
    *,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    project_file: Path | None = None,
) -> Config:
    """Resolve the configuration seen from ``layout`` (RFC-0009:C-RESOLUTION).

    ``overrides`` are CLI flags as dotted keys (``{"search.tokenizer": "cjk"}``); ``None``
    values are ignored so callers can pass unset options straight through.
    ``project_file``: the project's config file to read instead of the layout's own
    (:func:`project_config_file`; a
    ``--config PATH``, or what :func:`find_config` found); its keys have the project's
    precedence and limits. A file named that does not exist is a notice; one that cannot be
    used (a ``pyproject.toml`` without ``[tool.skillc]`` too) is in :attr:`Config.ignored`.
    """
    env = os.environ if env is None else env
    notices: list[Notice] = []
    merged: dict[str, Any] = {}
    origins: dict[str, str] = {}
    files: list[Path] = []
    ignored: dict[Path, str] = {}

    unprojected: dict[str, Any] = {}  # [budget] from every source but the project's

    def apply(values: Mapping[str, Any], origin: str) -> None:
        for key, value in values.items():
            merged.pop(key, None)  # in the order of its file: in [lint], the last key wins
            merged[key] = value
            origins[key] = origin
            if origin != "project" and key.startswith("budget."):
                unprojected[key] = value

    apply(DEFAULTS, "default")
    if project_file is not None and not project_file.is_file():
        notices.append(Notice(f"config file {project_file} not found; ignored"))
    sources: list[tuple[Path | None, str]] = [
        (layout.global_config, "global"),
        (project_config_file(layout) if project_file is None else project_file, "project"),
    ]
    for path, origin in sources:
        if path is None:
            continue
        values = _read_file(path, notices, ignored)
        if values is not None and origin == "project":
            for key in PERSONAL_KEYS & values.keys():
                del values[key]
                notices.append(
                    Notice(f"config file {path}: '{key}' is only read from the global config")
                )
        if values is not None:
            files.append(path)
            apply(values, origin)

    for variable, dotted in ENVIRONMENT.items():
        value = env.get(variable)
        if value is None:
            continue
        if _valid(dotted, value):
            apply({dotted: value}, "env")
        else:
            notices.append(
                Notice(
                    f"environment variable {variable} is not {_EXPECTED[dotted]}; ignored"
                    if dotted in PERSONAL_KEYS  # its value may hold a password
                    else f"environment variable {variable}={value!r} is not one of "
                    f"{', '.join(TOKENIZERS)}; ignored"
                )
            )

    notices.extend(folder_variable_notices(env))
    notices.extend(Notice(foreign_notice(skillc_dir)) for skillc_dir in layout.foreign)
    apply({k: v for k, v in (overrides or {}).items() if v is not None}, "cli")

    def table(name: str) -> dict[str, Any]:
        prefix = f"{name}."
        return {k[len(prefix) :]: v for k, v in merged.items() if k.startswith(prefix)}

    def budget(values: Mapping[str, Any]) -> tuple[int | None, float]:
        context = values["budget.context_tokens"]
        return None if context is None else int(context), float(values["budget.percent"])

    context, percent = budget(merged)
    home = budget(unprojected)
    return Config(
        tokenizer=str(merged["search.tokenizer"]),
        lint=_nested_rules(table("lint")),
        targets={k: str(v) for k, v in table("targets").items()},
        libraries={k: tuple(v) for k, v in table("libraries").items()},
        budget_context_tokens=context,
        budget_percent=percent,
        home_budget=None if home == (context, percent) else home,
        stats_url=str(merged["stats.url"]),
        origins=origins,
        files=tuple(files),
        ignored=ignored,
        notices=tuple(capped(notices, lambda n: Notice(f"... and {n:,} more config problems"))),
    )
