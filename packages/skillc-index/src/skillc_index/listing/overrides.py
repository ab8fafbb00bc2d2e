"""Claude Code's ``skillOverrides`` setting (issue 38): read so that ``skc list --budget``
prices a Claude Code folder as the agent lists it, and written, only when asked, by ``skc list
--budget --apply overrides``.

The setting, as Claude Code's skills documentation describes it ("Override skill visibility
from settings", quoted by a maintainer in anthropics/claude-code#76156; its values listed in
#56494 and set in public dotfiles) is an object of ``settings.json`` from skill name (the
frontmatter ``name``) to one of ``on`` (name and description listed), ``name-only`` (listed by
name alone), ``user-invocable-only`` (not listed; the user can still type ``/name``) and
``off`` (neither). It does not apply to plugin skills. Claude Code reads it from the user's
``~/.claude/settings.json``, the project's ``.claude/settings.json`` and the personal
``.claude/settings.local.json`` (precedence: local, then project, then user); skillc merges
the three key by key in that order (an assumption: how Claude Code merges this object is not
documented); the user's is in ``$CLAUDE_CONFIG_DIR`` when it is set
(:func:`~skillc_index.inventory.folders.claude_home`). The managed policy file is not read.
The listing's own settings are read from the same files, the strongest winning:
``skillListingBudgetFraction`` (the budget's share of the context window) and
``skillListingMaxDescChars`` (an entry's cut).

Applying sets ``name-only`` for the skills whose description the listing drops anyway
(:attr:`~skillc_index.listing.budget_result.FolderBudget.dropped_entries`,
the least used first), so the listing fits and the budget goes to the skills used most, in
every session rather than as the agent's ranking of the day decides. A skill the user already
set (to any value, in any of the three files) is left as it is. The entries it writes are
recorded (:data:`WRITTEN`): a later run plans without them and takes out those the listing
has room for again; ``--apply overrides --reset`` takes them all out
(:func:`reset_overrides`). A project folder's choices go
to ``<project>/.claude/settings.local.json``: they follow this user's usage, so they belong in
the personal file, not in the ``settings.json`` a team commits. The home folder's go to
the user's ``settings.json`` (``~/.claude``, or ``$CLAUDE_CONFIG_DIR``). Every other key of
the file is kept; the file is replaced in one rename; a file that is not a JSON object (or is
over 1 MiB) is E080 and nothing is written. A project's settings file that leads (symlinks
followed) outside the project is E012: a checkout never directs a write elsewhere. A settings
file that is a symlink is written where it leads (a dotfiles checkout keeps its link).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from skillc_index.diagnostics import Notice
from skillc_index.inventory.plugins import MAX_SETTINGS_BYTES, settings_files
from skillc_index.layout import Layout, Scope

if TYPE_CHECKING:
    from skillc_index.listing.budget_result import FolderBudget, ListingEntry
    from skillc_index.listing.shapes import OverridePlanShape

__all__ = [
    "HIDDEN",
    "NAME_ONLY",
    "SETTING",
    "ClaudeOverrides",
    "OverridePlan",
    "apply_overrides",
    "claude_overrides",
    "reset_overrides",
    "settings_target",
]

#: The settings key.
SETTING = "skillOverrides"
NAME_ONLY = "name-only"
#: The values that keep a skill out of the model's listing.
HIDDEN = frozenset({"off", "user-invocable-only"})
#: The values Claude Code takes (others are kept as the user wrote them, and price as ``on``).
VALUES = ("on", NAME_ONLY, "user-invocable-only", "off")
#: Claude Code's settings of its listing: the budget's share of the context window, and the
#: cut of an entry's description.
BUDGET_FRACTION = "skillListingBudgetFraction"
MAX_DESC_CHARS = "skillListingMaxDescChars"
_LISTING_SETTINGS: dict[str, Callable[[Any], bool]] = {
    BUDGET_FRACTION: lambda v: type(v) in (int, float) and 0 < v <= 1,
    MAX_DESC_CHARS: lambda v: type(v) is int and v > 0,
}
#: skillc's record, in its global folder, of the ``name-only`` entries ``--apply`` wrote, by
#: settings file: those it may change or remove later (never the user's own).
WRITTEN = "listing-overrides.json"


def settings_target(layout: Layout, scope: Scope) -> Path | None:
    """The settings file an override of a ``scope`` folder is written to (see the module
    docstring); None for a project scope outside any project."""
    from skillc_index.inventory.folders import claude_home, project_base

    if scope == "global":
        return claude_home(layout) / "settings.json"
    base = project_base(layout)
    return None if base is None else base / ".claude" / "settings.local.json"


def read_settings(path: Path, layout: Layout) -> dict[str, Any] | None:
    """The settings object of ``path``; None when there is no such file. Raises
    :class:`~skillc_index.command_errors.InvalidSettings` (E080) when it cannot be read, is
    not JSON within the bounds, is not an object, or its ``skillOverrides`` is not one."""
    from skillc_index.bounded_json import JsonRejected, read_json_bounded
    from skillc_index.command_errors import InvalidSettings, UnreadableSettings

    shown = layout.display(path)
    try:
        data = read_json_bounded(path, max_bytes=MAX_SETTINGS_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise UnreadableSettings(shown, exc.strerror or str(exc)) from None
    except ValueError as exc:  # not JSON (1e400 included), not UTF-8, over the bounds
        reason = str(exc) if isinstance(exc, JsonRejected) else f"not JSON ({exc})"
        raise InvalidSettings(shown, " ".join(f"is {reason}".split())) from None
    if not isinstance(data, dict):
        raise InvalidSettings(shown, "not a JSON object")
    if not isinstance(data.get(SETTING, {}), dict):
        raise InvalidSettings(shown, f"its {SETTING} is not an object")
    return data


class ClaudeOverrides(NamedTuple):
    """The ``skillOverrides`` that apply here (:func:`claude_overrides`)."""

    values: dict[str, str]
    """By skill name, the strongest file's value (one of :data:`VALUES`)."""
    named: frozenset[str]
    """Every skill name any file sets, whatever its value: the user's choices."""
    notices: tuple[Notice, ...] = ()
    """The files left out because they cannot be used (when not ``strict``)."""
    fraction: float | None = None
    """``skillListingBudgetFraction``, the strongest file's (above 0, at most 1), or None."""
    max_desc_chars: int | None = None
    """``skillListingMaxDescChars``, the strongest file's (a positive integer), or None."""
    ours: Mapping[Path, frozenset[str]] = MappingProxyType({})
    """By settings file, the ``name-only`` entries ``--apply`` wrote there (its record,
    :data:`WRITTEN`) and still there as written: skillc's own, not in ``named``."""
    home_fraction: float | None = None
    """``skillListingBudgetFraction`` of the user's own settings file alone: what prices a
    listing that holds a home folder (a checkout's settings do not decide what ``--apply``
    writes into the user's)."""
    home_max_desc_chars: int | None = None
    """``skillListingMaxDescChars`` of the user's own settings file alone (as above)."""
    project_listing: tuple[Path, ...] = ()
    """The project's settings files that set a listing setting (not used for such a listing)."""

    def planning(self) -> ClaudeOverrides:
        """These overrides without skillc's own: what ``--apply`` plans from again."""
        mine = {name for names in self.ours.values() for name in names} - self.named
        values = {name: value for name, value in self.values.items() if name not in mine}
        return self._replace(values=values)


def claude_overrides(layout: Layout, *, strict: bool = False) -> ClaudeOverrides:
    """The merged ``skillOverrides`` of :func:`settings_files`. A file that cannot be used
    is E080 when ``strict`` (before anything is written), else left out: with a warning when
    it is not a JSON object, silently when it cannot be read (the agent cannot read it
    either: an agent folder beside it that cannot be listed is warned already)."""
    from skillc_index.command_errors import InvalidSettings, UnreadableSettings

    values: dict[str, str] = {}
    named: set[str] = set()
    notices: list[Notice] = []
    listing: dict[str, Any] = {}
    written = _written(layout)
    ours: dict[Path, frozenset[str]] = {}
    home: dict[str, Any] = {}  # the listing settings of the user's own file
    project: list[Path] = []
    files = settings_files(layout)  # the user's file first
    for path in files:
        try:
            data = read_settings(path, layout)
        except InvalidSettings as exc:
            if strict:
                raise
            if not isinstance(exc, UnreadableSettings):
                notices.append(Notice(f"{exc.path}: {exc.reason}; its {SETTING} are not counted"))
            continue
        for key, valid in _LISTING_SETTINGS.items():
            value = (data or {}).get(key)
            if value is None:
                continue
            if valid(value):
                listing[key] = value
                if path == files[0]:
                    home[key] = value
                elif path not in project:
                    project.append(path)
            else:
                notices.append(Notice(f"{layout.display(path)}: its {key} is invalid; ignored"))
        set_here = (data or {}).get(SETTING, {})
        mine = _ours(written.get(str(path), ()), set_here)
        if mine:
            ours[path] = mine
        for name, value in set_here.items():
            if name not in mine:
                named.add(name)
            if value in VALUES:
                values[name] = value
            else:
                values.pop(name, None)  # unknown: priced as listed, never overwritten
    return ClaudeOverrides(
        values,
        frozenset(named),
        tuple(notices),
        listing.get(BUDGET_FRACTION),
        listing.get(MAX_DESC_CHARS),
        ours,
        home.get(BUDGET_FRACTION),
        home.get(MAX_DESC_CHARS),
        tuple(project),
    )


def _ours(recorded: Iterable[str], set_here: Mapping[str, Any]) -> frozenset[str]:
    """Of the entries skillc recorded writing in a settings file, those still there as
    written (``name-only``): skillc's own, which it may change or take out."""
    return frozenset(name for name in recorded if set_here.get(name) == NAME_ONLY)


def _written(layout: Layout, *, strict: bool = False) -> dict[str, tuple[str, ...]]:
    """skillc's record of the entries ``--apply`` wrote (:data:`WRITTEN`), by settings
    file; empty when there is none, it cannot be read or a newer skillc wrote it (nothing is
    then skillc's), else each entry that is a list, its names alone (another entry is
    dropped, not the whole record). With ``strict`` (before it is written again), a record
    this version cannot read in full is E999 naming it, and nothing is written: a newer
    skillc's (its ``version`` above :data:`RECORD_VERSION`), or one holding what this
    version would drop (another value than a list of names, a file that is not a JSON
    object); rewritten, it lost the entries of other projects."""
    from skillc_index.bounded_json import read_json_bounded

    path = layout.global_dir / WRITTEN
    try:
        data = read_json_bounded(path, max_bytes=MAX_SETTINGS_BYTES)
    except (FileNotFoundError, NotADirectoryError):  # (no folder: E999 when it is written)
        return {}
    except (OSError, ValueError) as exc:
        if strict:
            _unusable_record(layout, path, _reason(exc))
        return {}
    problem = _record_problem(data)
    if problem is not None and strict:
        _unusable_record(layout, path, problem)
    if not isinstance(data, dict) or _newer(data):
        return {}
    return {
        key: tuple(name for name in names if isinstance(name, str))
        for key, names in data.items()
        if key != "version" and isinstance(names, list)
    }


#: The format of :data:`WRITTEN` this version reads and writes (``"version": 1``; a record
#: without it, as written before, is version 1).
RECORD_VERSION = 1


def _newer(data: Mapping[str, Any]) -> int | None:
    """The ``version`` of a record a newer skillc wrote, or None."""
    version = data.get("version", RECORD_VERSION)
    return version if type(version) is int and version > RECORD_VERSION else None


def _record_problem(data: object) -> str | None:
    """Why this version cannot read the record ``data`` in full, or None."""
    from skillc_index.command_errors import written_by_newer

    if not isinstance(data, dict):
        return "not a JSON object"
    newer = _newer(data)
    if newer is not None:
        return written_by_newer("listing overrides record", newer, RECORD_VERSION)
    version = data.get("version", RECORD_VERSION)
    if version != RECORD_VERSION or type(version) is not int:
        return f"its version is {json.dumps(version)[:40]}, not one skillc writes"
    for key, names in data.items():
        if key != "version" and not (
            isinstance(names, list) and all(isinstance(name, str) for name in names)
        ):
            return f"its entry for '{key[:200]}' is not a list of skill names"
    return None


def _reason(exc: OSError | ValueError) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def _unusable_record(layout: Layout, path: Path, problem: str) -> None:
    """E999: skillc's record cannot be written back (:func:`_written`, ``strict``)."""
    from skillc_index.diagnostics import InternalError

    advice = (
        ""
        if problem.startswith("written by a newer")
        else ("; move it aside and run again (the entries it names then count as yours)")
    )
    raise InternalError(
        f"skillc's record of its {SETTING} entries '{layout.display(path)}' is left as it is: "
        f"{problem}{advice}"
    )


class OverridePlan(NamedTuple):
    """What ``--apply overrides`` does (or would do) for one over-budget agent folder."""

    agent: str
    scope: Scope
    folder: Path
    settings: Path | None
    """The settings file written (None: the agent has no such setting)."""
    names: tuple[str, ...] = ()
    """The skills set to ``name-only``, the least used first."""
    kept: tuple[str, ...] = ()
    """Skills the listing drops that the user already set: left as they are (a reset's:
    those skillc set that the user changed since)."""
    removed: tuple[str, ...] = ()
    """Skills an earlier ``--apply`` set that keep their description now: set no more (a
    reset's: every one it set)."""
    reason: str | None = None
    """Why nothing is applied to this folder, or None."""
    tokens: int = 0
    """Estimated tokens of the folder's listing before."""
    tokens_after: int = 0
    """...and once the overrides apply."""
    budget_tokens: int = 0
    written: bool = False
    """Whether the settings file was written (never with ``dry_run``)."""
    dry_run: bool = False

    def to_dict(self) -> OverridePlanShape:
        return {
            "agent": self.agent,
            "scope": self.scope,
            "folder": str(self.folder),
            "settings": None if self.settings is None else str(self.settings),
            "name_only": list(self.names),
            "kept": list(self.kept),
            "removed": list(self.removed),
            "reason": self.reason,
            "tokens": self.tokens,
            "tokens_after": self.tokens_after,
            "budget_tokens": self.budget_tokens,
            "written": self.written,
            "dry_run": self.dry_run,
        }


def _no_setting(folder: FolderBudget) -> str:
    if folder.model == "codex":
        routes = f" ({'; '.join(folder.routes)})" if folder.routes else ""
        return (
            "Codex has no setting that lists a skill by name only: move the skills seldom used "
            f"out of the folder, or route them{routes}"
        )
    return f"{folder.agent} has no skillOverrides setting: only Claude Code's own folders have one"


def _keyable(name: str) -> bool:
    """Whether ``name`` can be a key of the settings file: a folder name that is not UTF-8
    (the listing names a skill without a frontmatter ``name`` after its folder) cannot, and
    is left out rather than failing the whole write."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _plan(
    folder: FolderBudget, layout: Layout, found: ClaudeOverrides, dry_run: bool
) -> list[OverridePlan]:
    """The plans of one agent's listing over its budget: one per settings file written (a
    skill's goes to the file of its folder's scope), or one saying why nothing applies."""
    from skillc_index.listing.budget_result import estimate_tokens

    plan = OverridePlan(
        folder.agent, folder.scope, folder.path, None, tokens=folder.tokens,
        tokens_after=folder.tokens, budget_tokens=folder.budget_tokens, dry_run=dry_run,
    )  # fmt: skip
    if folder.agent != "claude":
        return [plan._replace(reason=_no_setting(folder))]
    targets: dict[Path, list[str]] = {}
    scopes: dict[Path, Scope] = {}
    names: set[str] = set()
    kept: list[str] = []
    saved = 0
    dropped = folder.dropped_entries
    # past the ones it drops, the next in its order while the listing does not fit: a skill
    # the user set (kept as set) saves nothing, and the listing stayed over the budget
    following = [
        entry
        for entry in (folder.entries[i] for i in reversed(folder.order))
        if entry.described and entry not in dropped
    ]
    for place, entry in enumerate((*dropped, *following)):
        if place >= len(dropped) and folder.chars - saved <= folder.budget_chars:
            break
        target = None if entry.plugin else settings_target(layout, entry.scope)
        if entry.key in found.named:  # keyed by the frontmatter name, not the listed one
            kept.append(entry.key)
        elif target is not None and entry.key not in names and _keyable(entry.key):
            names.add(entry.key)
            targets.setdefault(target, []).append(entry.key)
            scopes[target] = entry.scope
            saved += entry.chars - entry.name_chars
    after = estimate_tokens(folder.chars - saved)
    if not targets:
        return [plan._replace(kept=tuple(kept), reason=_nothing(dropped))]
    first = {part.scope: part.path for part in reversed(folder.folders)}
    return [
        plan._replace(
            scope=scopes[target],
            folder=first.get(scopes[target], folder.path),
            settings=target,
            names=tuple(chosen),
            kept=tuple(kept) if index == 0 else (),
            tokens_after=after,
        )
        for index, (target, chosen) in enumerate(targets.items())
    ]


def _nothing(dropped: tuple[ListingEntry, ...]) -> str:
    if dropped and all(entry.plugin for entry in dropped):
        return "skillOverrides does not apply to plugin skills, the only ones it drops"
    return "every skill it drops already has a skillOverrides setting"


def _check_inside(path: Path, scope: Scope, layout: Layout) -> None:
    """E012 when a project's settings file leads (symlinks followed) outside the project."""
    from skillc_index.inventory.folders import check_project_write

    if scope == "project":
        check_project_write(path, layout)


def _write(
    path: Path, data: dict[str, Any], names: Iterable[str], removed: Iterable[str] = ()
) -> bool:
    """Add ``name-only`` for ``names`` to the settings object ``data``, take out the
    ``name-only`` of ``removed`` (skillc's own), and write it at the place ``path`` leads
    to, keeping its mode; False when nothing changes."""
    from skillc_index.atomic import write_file_atomic

    overrides = dict(data.get(SETTING, {}))
    before = dict(overrides)
    for name in removed:
        if overrides.get(name) == NAME_ONLY:
            del overrides[name]
    for name in names:
        overrides.setdefault(name, NAME_ONLY)  # never over the user's own value
    if overrides == before:
        return False
    data = {**data, SETTING: overrides}
    real = Path(os.path.realpath(path))
    try:
        mode: int | None = real.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\\ud800" in the file): kept escaped
        encoded = (json.dumps(data, indent=2) + "\n").encode("ascii")
    write_file_atomic(real, encoded, mode=mode, sync=True)
    return True


def _ignore_made(path: Path, layout: Layout) -> tuple[Notice, ...]:
    """Git-ignore the project's settings file ``path`` skillc just made, as Claude Code does
    when it makes one (personal settings): a line ``/.claude/settings.local.json`` in the
    project's ``.gitignore``, in a git work tree only, unless a line or git's rules cover it
    (:func:`~skillc_index.build.scaffold.ignore_folders`); said as an ``info:`` notice. What
    cannot be added (a ``.gitignore`` that cannot be written) is a warning: the settings stay
    written."""
    from skillc_index.build.scaffold import ignore_folders
    from skillc_index.diagnostics import SkillcError

    root = layout.project_root
    if root is None:
        return ()
    rel = Path(os.path.relpath(path, root)).as_posix()
    try:
        added = ignore_folders(root, (), layout, files=(rel,))
    except SkillcError as exc:
        reason = str(exc).partition("]: ")[2] or str(exc)  # without its ``error[EXXX]:``
        return (Notice(f"{rel} was not added to .gitignore: {reason}"),)
    said = tuple(Notice(text) for text in added.unanswered)
    if not added.lines:
        return said
    return (*said, Notice(f"Added to .gitignore: {', '.join(added.lines)}", "info"))


def apply_overrides(
    folders: Iterable[FolderBudget],
    layout: Layout,
    found: ClaudeOverrides,
    *,
    dry_run: bool = False,
) -> tuple[tuple[OverridePlan, ...], tuple[Notice, ...]]:
    """For each over-budget listing of ``folders`` (priced without skillc's own entries:
    :meth:`ClaudeOverrides.planning`), set ``name-only`` for the skills it drops (see the
    module docstring), ``found`` the overrides already set (:func:`claude_overrides`,
    strict); the entries an earlier run set (``found.ours``) that it drops no more are taken
    out. Every settings file is read and checked before any is written: E080 (not a JSON
    object) or E012 (a project's leading outside it) writes nothing, nor does skillc's folder
    (:data:`WRITTEN` is recorded there) when it cannot be written (E999). With ``dry_run``,
    says what it would do and writes nothing. And the warnings: without a home folder
    (:data:`~skillc_index.layout.NO_HOME`) the settings are written with no record."""
    from skillc_index.layout import in_no_home

    every = [
        plan
        for folder in folders
        if folder.error is None and folder.over
        for plan in _plan(folder, layout, found, dry_run)
    ]
    kept = {(plan.settings, name) for plan in every for name in plan.names}
    plans: list[OverridePlan] = []
    for plan in every:
        had = found.ours.get(plan.settings, frozenset()) if plan.settings else frozenset()
        new = tuple(name for name in plan.names if name not in had)
        if plan.settings is None or new or not plan.names:  # what changes, or why nothing
            plans.append(plan._replace(names=new))
    chosen = {path: set(names) for path, names in found.ours.items()}  # what stays skillc's
    for path, names in found.ours.items():
        removed = tuple(sorted(name for name in names if (path, name) not in kept))
        if not removed:
            continue
        chosen[path] -= set(removed)
        index = next((i for i, p in enumerate(plans) if p.settings == path), None)
        if index is None:
            scope: Scope = "global" if path == settings_target(layout, "global") else "project"
            plans.append(OverridePlan("claude", scope, path.parent / "skills", path,
                                      dry_run=dry_run))  # fmt: skip
            index = len(plans) - 1
        plans[index] = plans[index]._replace(removed=removed)
    writes: list[tuple[int, Path, dict[str, Any]]] = []
    for index, plan in enumerate(plans):
        if plan.settings is None or not (plan.names or plan.removed):
            continue
        _check_inside(plan.settings, plan.scope, layout)
        writes.append((index, plan.settings, read_settings(plan.settings, layout) or {}))
    record = bool(writes) and not in_no_home(layout.home)
    if record:
        _written(layout, strict=True)  # E999 when it cannot be written back: nothing written
    notices: tuple[Notice, ...] = ()
    if writes and not record:
        notices = (Notice(f"no home folder: skillc keeps no record of the {SETTING} entries "
                          "it writes, and a later --apply cannot take them out"),)  # fmt: skip
    if dry_run:
        return tuple(plans), notices
    if record:
        from skillc_index.build.deploy import check_writable

        check_writable(layout.global_dir, layout, "skillc's folder")  # E999 before any write
    for index, path, data in writes:
        plan = plans[index]
        made = plan.scope == "project" and not os.path.lexists(path)
        plans[index] = plan._replace(written=_write(path, data, plan.names, plan.removed))
        chosen.setdefault(path, set()).update(plan.names)
        if made and plans[index].written:
            notices += _ignore_made(path, layout)
    if record:
        _record(layout, chosen, settings_files(layout))
    return tuple(plans), notices


def reset_overrides(
    layout: Layout, scopes: Iterable[Scope], *, dry_run: bool = False
) -> tuple[OverridePlan, ...]:
    """``--apply overrides --reset``: take out of the settings file of each of ``scopes``
    (:func:`settings_target`; for ``global``, every user's ``settings.json`` the record
    names too: one written before ``$CLAUDE_CONFIG_DIR`` was set or changed, where Claude
    Code reads again once it is not) the ``name-only`` entries skillc recorded writing there
    and still there as written (:func:`_ours`, read strict; the plan's ``removed``), and
    forget them. An entry the user changed
    since (to another value) is the user's: left as it is, named in ``kept``, forgotten too;
    the user's own entries are never looked at. One plan per settings file with a recorded
    entry still there; none when nothing is recorded. Every file is read and checked before
    any is written, as by :func:`apply_overrides` (E080, E012, E999); ``dry_run`` writes
    nothing."""
    written = _written(layout, strict=True)  # (E999 when it cannot be written back)
    reset: list[tuple[OverridePlan, Path, dict[str, Any]]] = []
    visited = [(scope, path) for scope in dict.fromkeys(scopes)
               for path in _reset_files(layout, scope, written)]  # fmt: skip
    for scope, path in visited:
        names = written.get(str(path), ())
        if not names:
            continue
        _check_inside(path, scope, layout)
        data = read_settings(path, layout) or {}  # what is written back
        set_here = data.get(SETTING, {})
        ours = _ours(names, set_here)
        removed = tuple(name for name in names if name in ours)
        kept = tuple(name for name in names if set_here.get(name, NAME_ONLY) != NAME_ONLY)
        plan = OverridePlan("claude", scope, path.parent / "skills", path, kept=kept,
                            removed=removed, dry_run=dry_run)  # fmt: skip
        reset.append((plan, path, data))
    plans = [plan for plan, _, _ in reset]
    if reset and not dry_run:
        from skillc_index.build.deploy import check_writable

        check_writable(layout.global_dir, layout, "skillc's folder")  # E999 before any write
        plans = [plan._replace(written=_write(path, data, (), plan.removed))
                 for plan, path, data in reset]  # fmt: skip
        _record(layout, {}, [path for _, path, _ in reset], written)
    return tuple(plan for plan in plans if plan.removed or plan.kept)


def _reset_files(
    layout: Layout, scope: Scope, written: Mapping[str, tuple[str, ...]]
) -> list[Path]:
    """The settings files a reset of ``scope`` visits: its :func:`settings_target`; for
    ``global``, every user's ``settings.json`` of the record too (``written``: the project
    files are ``settings.local.json``), whatever ``$CLAUDE_CONFIG_DIR`` says now."""
    target = settings_target(layout, scope)
    files = [] if target is None else [target]
    if scope == "global":
        files += [Path(path) for path in written if Path(path).name == "settings.json"]
    return list(dict.fromkeys(files))


def _record(
    layout: Layout,
    chosen: Mapping[Path, Iterable[str]],
    handled: Iterable[Path],
    recorded: Mapping[str, tuple[str, ...]] | None = None,
) -> None:
    """Write skillc's record of its entries (:data:`WRITTEN`), by settings file: those of
    the files ``handled`` (the ones read here) are now ``chosen``; the other files' (another
    project's) are kept as ``recorded`` (:func:`_written`, read here when not given)."""
    from skillc_index.atomic import ensure_dir, write_file_atomic

    here = {str(path) for path in handled}
    old = (_written(layout) if recorded is None else recorded).items()
    data: dict[str, Any] = {"version": RECORD_VERSION}
    data.update({path: list(names) for path, names in old if names and path not in here})
    data.update({str(path): sorted(names) for path, names in chosen.items() if names})
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    target = layout.global_dir / WRITTEN
    ensure_dir(target.parent)
    write_file_atomic(target, text.encode("utf-8", errors="surrogateescape"), sync=True)
