"""The baseline file: the findings a repository had when it adopted the linter (written by
``--write-baseline``, hidden by ``--baseline``), matched by file, rule and message but for its
numbers (a count of lines that any edit changes), the same message and the text of the line
picking among equal ones, never by line number alone, so an edit above a finding does not
bring it back. The other ways of hiding findings (inline comments, per-file ignores) are in
:mod:`skillc_lint._suppress`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skillc_index import SkillcError
    from skillc_lint._engine import LintDiagnostic, LintResult

__all__ = [
    "BASELINE_VERSION",
    "MAX_BASELINE_BYTES",
    "Baseline",
    "BaselineError",
    "finding_key",
]

#: The most bytes of a baseline file that is read (a baseline of 200,000 findings is ~40 MB).
MAX_BASELINE_BYTES = 64 << 20
BASELINE_VERSION = 1


class BaselineError(ValueError):
    """A baseline file that cannot be read or is not a baseline."""


def _context(source: str | None) -> str:
    """The fingerprint of a finding's line: its text, whitespace collapsed, hashed."""
    text = " ".join((source or "").split())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


#: A number in a message: a count (``SKILL.md is 601 lines long``) that any edit of the file
#: changes, so a baseline matches messages with their numbers left out.
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _key(file: str, rule: str, message: str) -> tuple[str, str, str]:
    """Findings a baseline entry may hide: same file and rule, same message but for its
    numbers."""
    return (file, rule, _NUMBER.sub("#", message))


def finding_key(diagnostic: LintDiagnostic) -> tuple[str, str, str]:
    """:func:`_key` of a finding by its path in the skill."""
    return _key(diagnostic.file, diagnostic.rule, diagnostic.matched)


def _under(file: str, folder: str) -> bool:
    """Whether the baseline path ``file`` is in ``folder`` (a baseline path too)."""
    return folder == "." or file == folder or file.startswith(folder + "/")


@dataclass
class Baseline:
    """A baseline file's findings (see the module docstring); ``folder`` is where its paths
    start (the folder holding the file)."""

    folder: Path
    entries: list[dict[str, Any]] = field(default_factory=list)
    matched: int = 0
    """Findings hidden so far."""
    _pending: dict[tuple[str, str, str], list[dict[str, Any]]] = field(
        default_factory=dict, repr=False
    )
    _linted: dict[str, set[str]] = field(default_factory=dict, repr=False)
    """The folders linted so far (baseline paths) and the rules that ran on each: only their
    entries of those rules can be stale."""

    @classmethod
    def read(cls, path: Path) -> Baseline:
        """Raises :class:`BaselineError` for a missing, unreadable, oversized or malformed file."""
        from skillc_index import JsonRejected, read_json_bounded

        try:  # a checkout's file: bounded, and never a FIFO or a link to lint's own stdout
            document = read_json_bounded(path, max_bytes=MAX_BASELINE_BYTES)
        except OSError as exc:  # its file name writes a NUL byte as \\0
            shown = exc.filename or path
            raise BaselineError(f"cannot read '{shown}': {exc.strerror or exc}") from None
        except JsonRejected as exc:
            raise BaselineError(f"'{path}' is {exc}") from None
        except ValueError as exc:  # UnicodeDecodeError is one
            raise BaselineError(f"'{path}' is not JSON: {exc}") from None
        findings = document.get("findings") if isinstance(document, dict) else None
        why = _written_by_newer(document)
        if why is not None:
            raise BaselineError(f"'{path}' was {why}")
        if (
            not _written_by_us(document)  # a dict whose "tool" is skillc-lint (not eslint's)
            or document.get("version") != BASELINE_VERSION
            or not isinstance(findings, list)
            or not all(_valid_entry(entry) for entry in findings)
        ):
            raise BaselineError(
                f"'{path}' is not a skillc-lint baseline (version {BASELINE_VERSION})"
            )
        baseline = cls(Path(os.path.abspath(path)).parent, list(findings))  # noqa: PTH100
        for entry in baseline.entries:
            key = _key(entry["file"], entry["rule"], entry["message"])
            baseline._pending.setdefault(key, []).append(entry)
        return baseline

    def relative(self, path: Path) -> str:
        """``path`` as the baseline writes it: relative to its folder, POSIX separators."""
        return Path(os.path.relpath(os.path.abspath(path), self.folder)).as_posix()  # noqa: PTH100

    def hide(self, result: LintResult) -> list[LintDiagnostic]:
        """The diagnostics of ``result`` the baseline does not hold, in order. Among the
        entries that may hide a finding (same file and rule, same message but for its
        numbers: :func:`_key`), those of the same message whose line reads the same are
        matched first, then those of the same message, then the rest; each by nearest line,
        and each entry hides one finding."""
        self._linted.setdefault(self.relative(result.path), set()).update(result.rules)
        groups: dict[tuple[str, str, str], list[LintDiagnostic]] = {}
        for d in (d for d in result.diagnostics if not d.more):  # a count is never hidden
            file = self.relative(result.path / d.file)
            groups.setdefault(_key(file, d.rule, d.matched), []).append(d)
        hidden: set[int] = set()
        contexts: dict[int, str] = {}  # each finding's line hashed once

        def same_line(d: LintDiagnostic, e: dict[str, Any]) -> bool:
            if id(d) not in contexts:
                contexts[id(d)] = _context(d.source)
            return e["message"] == d.matched and e.get("context") == contexts[id(d)]

        passes = (same_line, lambda d, e: e["message"] == d.matched, lambda d, e: True)
        for key, found in groups.items():
            entries = self._pending.get(key, [])
            for same in passes:
                for d in found:
                    candidates = [e for e in entries if same(d, e)]
                    if id(d) in hidden or not candidates:
                        continue
                    near = min(candidates, key=lambda e: abs((e.get("line") or 0) - (d.line or 0)))
                    entries.remove(near)
                    hidden.add(id(d))
        self.matched += len(hidden)
        return [d for d in result.diagnostics if id(d) not in hidden]

    @property
    def stale(self) -> int:
        """Entries of the folders linted that matched no finding of the run (fixed since);
        those of folders the run did not lint, or of rules that did not run there
        (``--select``, ``--ignore``, a profile not in use, a compiled skill skipped), are not
        counted."""
        return sum(
            1
            for entries in self._pending.values()
            for entry in entries
            if any(
                entry["rule"] in rules and _under(entry["file"], folder)
                for folder, rules in self._linted.items()
            )
        )

    @staticmethod
    def replaces(path: Path, shown: str) -> bool:
        """Whether :meth:`write` replaces a baseline at ``path`` (True) or makes a new file
        (False: nothing there; read once while unchanged: :data:`_JUDGED`); anything else
        there is never replaced, whatever it holds (``--write-baseline README.md`` replaced
        the README): a baseline a newer skillc-lint wrote is E100 (``cannot write 'SHOWN': it
        was written by a newer skillc-lint (...): upgrade skillc-lint``, as :meth:`read`
        refuses it), any other file (one not JSON, JSON without ``"tool": "skillc-lint"``, a
        symlink, a FIFO) E050 naming ``shown``."""
        from skillc_index import read_json_bounded
        from skillc_index.command_errors import CannotWrite

        if not (path.is_symlink() or path.exists()):
            return False
        if (str(path), (seen := _stat_key(path))) in _JUDGED:
            return True  # judged a baseline of ours already, and not changed since
        document: object = None
        if not path.is_symlink():  # (a link is replaced by the rename, never its target)
            try:
                document = read_json_bounded(path, max_bytes=MAX_BASELINE_BYTES)
            except (OSError, ValueError):  # (JsonRejected is a ValueError)
                document = _oversized_head(path)
        why = _written_by_newer(document)
        if why is not None:
            raise CannotWrite(shown, f"it was {why}")
        if not _written_by_us(document):
            raise _foreign(shown)
        if seen is not None and seen == _stat_key(path):  # (not changed while it was read)
            _JUDGED[:] = [(str(path), seen)]
        return True

    @staticmethod
    def write(path: Path, results: Iterable[LintResult], shown: str | None = None) -> int:
        """Write every diagnostic of ``results`` to ``path`` (atomically); returns how many.
        Only a missing file or a baseline skillc-lint wrote is replaced (:meth:`replaces`,
        checked again right before the rename: a file made meanwhile is never replaced);
        ``shown``: ``path`` as the user named it (for the errors). A baseline larger than
        :data:`MAX_BASELINE_BYTES` (what :meth:`read` reads) is E100 ``cannot write``, and
        nothing is written."""
        from skillc_index import write_file_atomic

        shown = str(path) if shown is None else shown
        replace = Baseline.replaces(path, shown)
        folder = Path(os.path.abspath(path)).parent  # noqa: PTH100
        entries = sorted(
            (
                {
                    "file": Path(
                        os.path.relpath(os.path.abspath(result.path / d.file), folder)  # noqa: PTH100
                    ).as_posix(),
                    "rule": d.rule,
                    "message": d.matched,
                    "line": d.line,
                    "context": _context(d.source),
                }
                for result in results
                for d in (d for d in result.diagnostics if not d.more)  # (a count: none)
            ),
            key=lambda e: (e["file"], e["line"] or 0, e["rule"], e["message"]),
        )
        document = {"version": BASELINE_VERSION, "tool": "skillc-lint", "findings": entries}
        data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        if len(data) > MAX_BASELINE_BYTES:  # --baseline would refuse it: nothing written
            from skillc_index.command_errors import CannotWrite

            raise CannotWrite(
                shown,
                f"{len(entries)} findings make a baseline of {len(data):,} bytes, more than "
                f"the {MAX_BASELINE_BYTES:,} --baseline reads; narrow the run (--select, "
                "--ignore, per-file-ignores) or fix some findings first",
            )

        def unchanged() -> None:  # what is there now is replaced only when it was a baseline
            if Baseline.replaces(path, shown) != replace:
                raise _foreign(shown)

        try:
            write_file_atomic(
                Path(path),
                data,
                parents=True,
                before_rename=unchanged,
                replace=replace,
            )
        except FileExistsError:  # (made meanwhile, as a new baseline was linked into place)
            raise _foreign(shown) from None
        return len(entries)


#: The baseline last judged ours, with its (device, inode, size, mtime): read again if changed.
_JUDGED: list[tuple[str, tuple[int, ...]]] = []


#: The head of what :meth:`Baseline.write` writes (the keys in its order, as json.dumps
#: indents them): how a baseline larger than :data:`MAX_BASELINE_BYTES` (an older
#: skillc-lint wrote one) is still known as ours, to be replaced (:func:`_oversized_head`).
_HEAD = re.compile(rb'\{\s*"version":\s*(\d{1,9}),\s*"tool":\s*"skillc-lint",\s*"findings":\s*\[')
_HEAD_BYTES = 256


def _oversized_head(path: Path) -> dict[str, Any] | None:
    """A document standing for the regular file at ``path`` when it is larger than
    :data:`MAX_BASELINE_BYTES` and its first bytes are a baseline's skillc-lint wrote
    (:data:`_HEAD`: version and tool, no findings read); None for anything else."""
    from skillc_index.bounded_json import read_bounded

    try:
        if path.stat().st_size <= MAX_BASELINE_BYTES:
            return None  # (read whole, and not a baseline)
        head = _HEAD.match(read_bounded(path, _HEAD_BYTES))
    except OSError:
        return None
    return {"version": int(head[1]), "tool": "skillc-lint", "findings": []} if head else None


def _stat_key(path: Path) -> tuple[int, ...] | None:
    try:
        st = path.lstat()  # (a link's own, never its target's)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _written_by_newer(document: object) -> str | None:
    """Why a baseline ``document`` a newer skillc-lint wrote (:func:`_newer_version`) is
    neither read nor replaced; None for another."""
    newer = _newer_version(document)
    if newer is None:
        return None
    from skillc_index.command_errors import written_by_newer

    return written_by_newer("baseline version", newer, BASELINE_VERSION, "skillc-lint")


def _written_by_us(document: object) -> bool:
    """Whether ``document`` is a baseline skillc-lint wrote (its ``"tool"`` and an integer
    ``version``: :meth:`Baseline.write` may replace it)."""
    return (
        isinstance(document, dict)
        and document.get("tool") == "skillc-lint"
        and type(document.get("version")) is int
        and isinstance(document.get("findings"), list)
    )


def _foreign(shown: str) -> SkillcError:
    """E050 naming ``shown``: a file a baseline would replace that skillc-lint did not write."""
    from skillc_index.command_errors import ForeignFile

    return ForeignFile(
        shown,
        "it is not a skillc-lint baseline (only one is replaced); name another file, or "
        "move it aside first",
    )


def _newer_version(document: object) -> int | None:
    """The ``version`` of a baseline a newer skillc-lint wrote (its ``"tool"``, a version
    above :data:`BASELINE_VERSION`), else None."""
    if not isinstance(document, dict) or document.get("tool") != "skillc-lint":
        return None
    version = document.get("version")
    return version if type(version) is int and version > BASELINE_VERSION else None


def _valid_entry(entry: object) -> bool:
    return (
        isinstance(entry, dict)
        and all(isinstance(entry.get(key), str) for key in ("file", "rule", "message"))
        and (entry.get("line") is None or isinstance(entry.get("line"), int))
    )
