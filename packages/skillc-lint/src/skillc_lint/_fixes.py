"""Autofix: a fix is data a rule attaches to its finding, and this module applies fixes.

A :class:`Fix` is a description, whether it is safe, and :class:`TextEdit` values (a range of
lines and columns of the diagnostic's file, and its replacement). Rules compute them from the
text they read (:mod:`skillc_lint._rules.fixes`); nothing here knows a rule.

:func:`fix_skill` lints a skill, applies the fixes of each file together (of overlapping
fixes the first in diagnostic order wins; the others wait for the next round), lints the
changed texts again and repeats until nothing is left to fix (at most :data:`MAX_ROUNDS`
rounds). Only then are files written, each one atomically
(:func:`skillc_index.write_file_atomic`: a temporary file in the same folder, fsync, one
rename; mode kept), never through a symlink that leaves the skill, never outside the folder
the fixer was given (``tree``: a folder of skills may link to a skill elsewhere, which is
linted but not rewritten), never outside the ``places`` of a skill found by its name (the
project and the skillc home: a store or agent folder entry linked out of them directs no
write), never when its text is unchanged, and never when it changed on
disk meanwhile (its bytes are compared with the text the first lint read, which the fixes
were computed from, and again just before the write). What cannot be written is reported
(E999, E012), never raised: the other files are still fixed.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index import split_lines
from skillc_index.text import BOM, BOM_BYTES

if TYPE_CHECKING:
    from skillc_index import SkillcError
    from skillc_lint._engine import LintDiagnostic, LintResult
    from skillc_lint._registry import RuleRegistry

__all__ = [
    "MAX_ROUNDS",
    "FileChange",
    "Fix",
    "FixOutcome",
    "TextEdit",
    "apply_edits",
    "fix_skill",
    "unified_diff",
]

#: Rounds of lint-and-fix before :func:`fix_skill` stops (a fix that a later round undoes
#: would otherwise loop forever; real skills need one or two).
MAX_ROUNDS = 10

Span = tuple[int, int, str]
"""An edit as offsets into a text: start, end, replacement."""


@dataclass(frozen=True)
class TextEdit:
    """Replace the text from ``line``:``column`` up to (not including) ``end_line``:``end_column``
    with ``text``. Lines and columns are 1-based; columns count characters (code points);
    a range ending at column 1 of the next line takes the line break with it; an empty range
    inserts. Lines are those of :mod:`skillc_index` (``\\n``, ``\\r\\n`` or ``\\r`` end one)."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "text": self.text,
        }


@dataclass(frozen=True)
class Fix:
    """How to fix one finding: edits of the finding's file. ``safe`` fixes keep the meaning
    (``--fix``); the others may change it (a skill's name) and need ``--unsafe-fixes``."""

    description: str
    edits: tuple[TextEdit, ...]
    safe: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "safe": self.safe,
            "edits": [edit.to_dict() for edit in self.edits],
        }


def _offsets(text: str, edits: Iterable[TextEdit]) -> list[Span] | None:
    """Each edit as ``(start, end, text)`` offsets into ``text``; None when one is out of
    range (the text is not the one the fix was made for)."""
    starts = [0]
    for text_line in split_lines(text):
        starts.append(starts[-1] + len(text_line))
    found = []
    for edit in edits:
        positions = []
        for line, column in ((edit.line, edit.column), (edit.end_line, edit.end_column)):
            if not 1 <= line <= len(starts) or column < 1:
                return None
            offset = starts[line - 1] + column - 1
            if offset > starts[min(line, len(starts) - 1)]:  # past the next line's start
                return None
            positions.append(offset)
        if positions[0] > positions[1]:
            return None
        found.append((positions[0], positions[1], edit.text))
    return found


def line_break(lines: Sequence[str]) -> str:
    """The line break of a text split in ``lines`` (its first one; ``\\n`` when it has none)."""
    for line in lines:
        if line.endswith("\r\n"):
            return "\r\n"
        if line.endswith(("\n", "\r")):
            return line[-1]
    return "\n"


def _conflict(one: Span, other: Span) -> bool:
    """Whether two edits touch the same text (or insert at the same place); edits that only
    meet end to start do not."""
    return (one[0] < other[1] and other[0] < one[1]) or one[0] == other[0]


def _disjoint(spans: Sequence[Span]) -> bool:
    ordered = sorted(spans)
    return not any(_conflict(a, b) for a, b in itertools.pairwise(ordered))


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str | None:
    """``text`` with ``edits`` (which must not overlap) applied; None when one does not fit
    or two overlap."""
    spans = _offsets(text, edits)
    if spans is None or not _disjoint(spans):
        return None
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _apply_file(text: str, fixes: Sequence[Fix]) -> tuple[str, int]:
    """``text`` with the fixes applied that do not overlap an earlier one, and how many were
    (a fix identical to one applied counts: its finding is gone too). A fix that does not
    fit the text, or whose own edits overlap, is left out."""
    taken: list[Span] = []
    chosen: list[TextEdit] = []
    seen: set[tuple[TextEdit, ...]] = set()
    count = 0
    for fix in fixes:
        if fix.edits in seen:
            count += 1
            continue
        spans = _offsets(text, fix.edits)
        if spans is None or not _disjoint(spans):
            continue
        if any(_conflict(span, other) for span in spans for other in taken):
            continue  # the next round, on the changed text
        seen.add(fix.edits)
        taken.extend(spans)
        chosen.extend(fix.edits)
        count += 1
    new = apply_edits(text, chosen) if chosen else text
    return (text, 0) if new is None else (new, count)


@dataclass(frozen=True)
class FileChange:
    """A file the fixes change: its path in the skill, its text before and after (without
    a BOM, which is kept), and how many fixes changed it."""

    file: str
    before: str
    after: str
    fixes: int


@dataclass(frozen=True)
class FixOutcome:
    """What fixing one skill did."""

    result: LintResult
    """The lint of the fixed skill: what remains (``result.fixed``: fixes applied)."""
    changes: tuple[FileChange, ...]
    """The files changed (or, with ``write=False``, that would be)."""
    problems: tuple[SkillcError, ...] = ()
    """Files that could not be fixed or written, one error each (E999, E012)."""

    @property
    def applied(self) -> int:
        return sum(change.fixes for change in self.changes)


class _Original:
    """A file's bytes as read before fixing, and its text (None: not UTF-8, never fixed)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.bom = data.startswith(BOM_BYTES)
        try:
            self.text: str | None = data.decode("utf-8").removeprefix(BOM)
        except UnicodeDecodeError:
            self.text = None

    def encode(self, text: str) -> bytes:
        return (BOM_BYTES if self.bom else b"") + text.encode("utf-8")


def _read(root: Path, rel: str) -> bytes:
    from skillc_index import open_in_root

    with open_in_root(root, rel) as handle:
        return handle.read()


def fix_skill(
    path: str | os.PathLike[str],
    *,
    registry: RuleRegistry | None = None,
    force: bool = False,
    unsafe: bool = False,
    write: bool = True,
    skip: Callable[[LintDiagnostic], bool] | None = None,
    tree: str | os.PathLike[str] | None = None,
    places: Sequence[Path] = (),
    leave_out: Collection[str] = (),
) -> FixOutcome:
    """Apply the fixes of the skill at ``path`` (the safe ones; every one when ``unsafe``) until
    none is left, and lint what remains (every finding: :func:`~skillc_lint._engine.capped`
    bounds them for a report). ``write=False`` computes the same changes and writes nothing
    (``--diff``); ``skip``: diagnostics whose fix is not applied (those a per-file ignore
    hides). ``tree``: the folder the fixer was given (a folder of skills; default: the skill
    folder itself); a file whose real path is outside it (the skill folder, or the file, is a
    symlink leading out of it) is not fixed, even in memory:
    :class:`~skillc_lint.FixOutsideTree`. ``places``: for a skill found by its name, not given
    as its folder, the folders a fixed file's real path must be in
    (:func:`~skillc_index.inventory.folders.write_places`); one outside all of them is not
    fixed: ``PathEscapesProject`` (E012). ``leave_out``: files that are no part of the skill
    (:func:`~skillc_lint.lint_skill`'s). Raises what :func:`~skillc_lint.lint_skill` raises."""
    from skillc_index import SkillcError
    from skillc_lint._engine import lint_skill, lint_with_texts, skill_root

    root = skill_root(path)  # E100 for no path, before anything is read
    confine = root if tree is None else Path(tree)
    originals: dict[str, _Original] = {}
    left: set[str] = set()  # files that are not fixed (problems says why)
    texts: dict[str, str] = {}  # the current text of each file a fix touched
    counts: dict[str, int] = {}
    problems: list[SkillcError] = []
    result, read = lint_with_texts(
        root, registry=registry, force=force, cap=False, leave_out=leave_out
    )
    for _ in range(MAX_ROUNDS):
        by_file: dict[str, list[Fix]] = {}
        for d in result.diagnostics:
            if d.fix is not None and (unsafe or d.fix.safe) and not (skip and skip(d)):
                by_file.setdefault(d.file, []).append(d.fix)
        changed = False
        for rel, fixes in by_file.items():
            if rel in left:
                continue
            if rel not in originals:
                try:
                    original = read_original(root, rel, confine, read.get(rel), places)
                    if original.text is None:
                        raise not_fixed(root, rel, "not UTF-8 text")
                except SkillcError as exc:
                    problems.append(exc)
                    left.add(rel)
                    continue
                except OSError as exc:
                    problems.append(not_fixed(root, rel, exc.strerror or str(exc)))
                    left.add(rel)
                    continue
                originals[rel] = original
            original = originals[rel]
            if original.text is None:
                continue
            text, count = _apply_file(texts.get(rel, original.text), fixes)
            if count and text != texts.get(rel, original.text):
                texts[rel] = text
                counts[rel] = counts.get(rel, 0) + count
                changed = True
        if not changed:
            break
        # every file read is linted as read (or as fixed), never read again from the disk:
        # as it is written (_Original.encode), its BOM kept
        current = {rel: o.text for rel, o in originals.items() if o.text is not None}
        given = {**current, **texts}
        given = {rel: (BOM if originals[rel].bom else "") + text for rel, text in given.items()}
        result, read = lint_with_texts(
            root, registry=registry, force=force, texts=given, cap=False, leave_out=leave_out
        )
    changes = tuple(
        FileChange(rel, before, texts[rel], counts[rel])
        for rel in sorted(texts)
        if (before := originals[rel].text) is not None and texts[rel] != before
    )
    if not write or not changes:
        fixed = sum(c.fixes for c in changes)
        return FixOutcome(_with(result, fixed, problems), changes, tuple(problems))
    written, failed = write_changes(root, changes, originals, confine, places)
    problems += failed
    result = lint_skill(root, registry=registry, force=force, cap=False, leave_out=leave_out)
    applied = sum(change.fixes for change in written)
    return FixOutcome(_with(result, applied, problems), tuple(written), tuple(problems))


def read_original(
    root: Path, rel: str, tree: Path, linted: str | None, places: Sequence[Path] = ()
) -> _Original:
    """The bytes of the skill's file ``rel`` before it is changed, checked: inside ``tree``
    (:class:`~skillc_lint.FixOutsideTree`) and in one of ``places`` if any (E012), and, when
    it is UTF-8 text, the text ``linted`` (what the lint read, and its findings and fixes
    were made for; else E999 "changed on disk"). Raises what opening it raises too (E012,
    OSError)."""
    _confined(root, rel, tree, places)
    original = _Original(_read(root, rel))
    if original.text is not None and original.text != linted:
        raise not_fixed(root, rel, _CHANGED)
    return original


def write_changes(
    root: Path,
    changes: Iterable[FileChange],
    originals: Mapping[str, _Original],
    tree: Path,
    places: Sequence[Path] = (),
) -> tuple[list[FileChange], list[SkillcError]]:
    """Write each change (:func:`_write`: inside the skill, ``tree`` and one of ``places`` if
    any, not read-only, not
    changed on disk since ``originals`` were read); a file reached by two names (a symlink)
    is written once. The changes written (or, for a second name, the same), and the errors
    of the others: a write failure stops only its own file."""
    written: list[FileChange] = []
    problems: list[SkillcError] = []
    by_real: dict[str, str] = {}
    for change in changes:
        real = os.path.realpath(root / change.file)
        if real in by_real:
            if by_real[real] == change.after:
                written.append(change)
            else:
                reason = "another name of this file is fixed differently"
                problems.append(not_fixed(root, change.file, reason))
            continue
        by_real[real] = change.after
        problem = _write(root, change.file, originals[change.file], change.after, tree, places)
        if problem is None:
            written.append(change)
        else:
            problems.append(problem)
    return written, problems


_CHANGED = "it changed on disk while fixing; lint it again"


def _with(result: LintResult, fixed: int, problems: Sequence[SkillcError]) -> LintResult:
    """``result`` saying how many fixes were applied and which files were not fixed."""
    return replace(result, fixed=fixed, not_fixed=tuple(p.diagnostic for p in problems))


def not_fixed(root: Path, rel: str, reason: str) -> SkillcError:
    from skillc_lint._errors import NotFixed

    return NotFixed((root / rel).as_posix(), reason)


def _confined(root: Path, rel: str, tree: Path, places: Sequence[Path] = ()) -> None:
    """Raise :class:`~skillc_lint.FixOutsideTree` when the skill's file ``rel`` really is
    (symlinks followed) outside ``tree``, the folder the fixer was given: a fixer writes only
    inside it; ``PathEscapesProject`` (E012) when ``places`` are given and it is in none of
    them (a skill found by its name through a link out of the project and the skillc home).
    Checked before a file is fixed, and again just before it is written."""
    from skillc_index import within
    from skillc_lint._errors import FixOutsideTree

    path = root / rel
    if not within(path, tree):
        raise FixOutsideTree(path.as_posix(), os.path.realpath(path), str(tree))
    if places and not any(within(path, place) for place in places):
        from skillc_index.command_errors import PathEscapesProject

        raise PathEscapesProject(path.as_posix(), os.path.realpath(path))


def _write(
    root: Path, rel: str, original: _Original, text: str, tree: Path, places: Sequence[Path]
) -> SkillcError | None:
    """Write ``text`` to the skill's file ``rel`` atomically, only where it really is inside
    the skill, inside ``tree`` and in one of ``places`` if any; the error when it cannot be."""
    import errno
    import stat

    from skillc_index import PathEscapesRoot, SkillcError, safe_join, write_file_atomic

    try:
        target = safe_join(root, rel)  # the real file (a symlink inside the skill followed)
        _confined(root, rel, tree, places)
        if _read(root, rel) != original.data:
            return not_fixed(root, rel, _CHANGED)
        info = target.stat()
        if not os.access(target, os.W_OK) or not info.st_mode & 0o222:  # root: the mode too
            return not_fixed(root, rel, "the file is read-only")
    except PathEscapesRoot:
        return PathEscapesRoot((root / rel).as_posix())
    except SkillcError as exc:
        return exc
    except OSError as exc:
        return not_fixed(root, rel, exc.strerror or str(exc))

    def unchanged() -> None:  # again once the new text is on disk: a save meanwhile stays
        if _read(root, rel) != original.data:
            raise not_fixed(root, rel, _CHANGED)

    data, mode = original.encode(text), stat.S_IMODE(info.st_mode)
    try:  # in the folder checked: one swapped for a symlink since is not followed
        write_file_atomic(target, data, mode=mode, sync=True, before_rename=unchanged, follow=False)
    except SkillcError as exc:
        return exc
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            return not_fixed(root, rel, _CHANGED)
        return not_fixed(root, rel, exc.strerror or str(exc))
    return None


def unified_diff(changes: Iterable[FileChange], label: Mapping[str, str]) -> str:
    """A unified diff of ``changes``, each file named ``a/<label>`` and ``b/<label>``
    (``label``: the file as shown to the user)."""
    import difflib

    parts: list[str] = []
    for change in changes:
        name = label.get(change.file, change.file)
        lines = difflib.unified_diff(
            split_lines(change.before),
            split_lines(change.after),
            f"a/{name}",
            f"b/{name}",
        )
        for line in lines:
            parts.append(
                line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
            )
    return "".join(parts)


def fixable(diagnostics: Iterable[LintDiagnostic]) -> tuple[int, int]:
    """How many of ``diagnostics`` have a safe fix, and how many an unsafe one."""
    safe = unsafe = 0
    for d in diagnostics:
        if d.fix is not None:
            if d.fix.safe:
                safe += 1
            else:
                unsafe += 1
    return safe, unsafe
