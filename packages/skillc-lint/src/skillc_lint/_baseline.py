"""The baseline file: the findings a repository had when it adopted the linter (written by
``--write-baseline``, hidden by ``--baseline``), matched by file, rule and message but for its
numbers (a count of lines that any edit changes), the same message and the text of the line
picking among equal ones, never by line number alone, so an edit above a finding does not
bring it back. The other ways of hiding findings (inline comments, per-file ignores) are in
:mod:`skillc_lint._suppress`.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from json.encoder import encode_basestring as string  # (the C one, as json.dumps uses)
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
    "BaselineWriter",
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


#: A count in a message (``SKILL.md is 601 lines long``, ``about 5,078 tokens``, ``(1% of
#: 200,000)``, ``hooks.Stop[2]``) that any edit of the file changes, so a baseline matches
#: messages with their counts left out: a number that is a word of its own, after a space or
#: an opening bracket (or the message's start), before a space, a closing bracket, ``%`` or a
#: sentence's punctuation (or the end). A digit of a name (``v2-api.md``, ``skill-3``,
#: ``references/5-run-tests.md``, ``U+0007``) is none: those are other findings.
_COUNT = re.compile(r"(?<![^\s(\[])\d+(?:[.,]\d+)*(?=\Z|[\s)\]%]|[.,;:!?](?:\s|\Z))")
_QUOTE = re.compile("['\"]")
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"\w")


def _quoted(message: str) -> list[tuple[int, int]]:
    """Where the quoted names of ``message`` start and end (``'references/v1-api.md'``,
    ``"Step 1: Do"``: a name a link or a heading wrote, whose digits are its own, never a
    count), in one pass: a quote opens one unless it is within a word (``the skill's
    argument 0``), and the next one alike closes it unless a word follows (``'it's.md'`` is
    one name); one with no closing quote after it opens none."""
    quotes = [(match.start(), match[0]) for match in _QUOTE.finditer(message)]
    last = {"'": -1, '"': -1}  # the last quote of each kind that may close a name
    for at, quote in quotes:
        if not _WORD.match(message, at + 1):
            last[quote] = at
    spans: list[tuple[int, int]] = []
    opened, kind = -1, ""
    for at, quote in quotes:
        if opened < 0:
            if at < last[quote] and not (at and _WORD.match(message, at - 1)):
                opened, kind = at, quote
        elif quote == kind and not _WORD.match(message, at + 1):
            spans.append((opened, at + 1))
            opened = -1
    return spans


def _key(file: str, rule: str, message: str) -> tuple[str, str, str]:
    """Findings a baseline entry may hide: same file and rule, same message but for its
    counts (:data:`_COUNT`; the digits of a quoted name, :func:`_quoted`, are kept). An old
    baseline file matches as before: it holds the messages, keyed here as it is read."""
    if _DIGIT.search(message) is None:  # (most messages: nothing to leave out)
        return (file, rule, message)
    spans = _quoted(message) if _QUOTE.search(message) else []
    if not spans:
        return (file, rule, _COUNT.sub("#", message))
    starts = [start for start, _ in spans]

    def count(match: re.Match[str]) -> str:
        at = bisect_right(starts, match.start()) - 1
        return match[0] if at >= 0 and match.start() < spans[at][1] else "#"

    return (file, rule, _COUNT.sub(count, message))


def finding_key(diagnostic: LintDiagnostic) -> tuple[str, str, str]:
    """:func:`_key` of a finding by its path in the skill."""
    return _key(diagnostic.file, diagnostic.rule, diagnostic.matched)


def _under(file: str, folder: str) -> bool:
    """Whether the baseline path ``file`` is in ``folder`` (a baseline path too)."""
    return folder == "." or file == folder or file.startswith(folder + "/")


class _Places:
    """How a baseline in ``folder`` (absolute, as given) names a skill folder: relative to
    it, POSIX separators. A folder reached through another spelling of the baseline's
    (a symlink above both: macOS ``/tmp``, a symlinked home, a shell's ``$PWD`` where
    Python's working folder is the real one) is named from the first folder above it that
    really is the baseline's, so both spellings name it alike; its own symlinks below are
    kept (``skills/x`` stays ``skills/x`` when it links elsewhere), and one outside the
    baseline's folder whatever the spelling is named as written (``../other/x``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._real: dict[str, str] = {}  # each folder above a skill: its real path, once

    def _real_path(self, path: str) -> str:
        real = self._real.get(path)
        if real is None:
            from skillc_index.files import real_path

            real = self._real[path] = real_path(path)
        return real

    def name(self, path: Path) -> str:
        """The baseline path of the folder ``path``."""
        from skillc_index.files import inside

        full, folder = os.path.abspath(path), str(self.folder)  # noqa: PTH100
        if not inside(full, folder):
            mine = self._real_path(folder)
            above = [str(p) for p in reversed(Path(full).parents)]
            for start in (*above, full):  # (from the top: the folder as near it as written)
                if self._real_path(start) == mine:
                    full = os.path.join(folder, os.path.relpath(full, start))  # noqa: PTH118
                    break
        return Path(os.path.relpath(full, folder)).as_posix()


def _file(named: str, rel: str) -> str:
    """The baseline path of the file ``rel`` (POSIX, in the skill) of a folder the baseline
    names ``named`` (:meth:`_Places.name`)."""
    return posixpath.normpath(posixpath.join(named, rel))


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
    _places: _Places | None = field(default=None, repr=False)

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
            if entry["file"].startswith("../"):  # perhaps written as spelled: see _named
                entry["file"] = baseline._named(entry["file"])
            key = _key(entry["file"], entry["rule"], entry["message"])
            baseline._pending.setdefault(key, []).append(entry)
        return baseline

    def _named(self, file: str) -> str:
        """The baseline path ``file`` as :class:`_Places` names it now: an older skillc-lint
        wrote paths as spelled, so a skill reached through another spelling of the
        baseline's folder (a symlink above both) was written ``../../alias/repo/skills/x/..``,
        which matched no finding once that folder was named ``skills/x``."""
        folder, name = posixpath.split(file)  # (a folder's real path is asked once)
        full = os.path.normpath(os.path.join(self.folder, folder))  # noqa: PTH118
        return _file(self.relative(Path(full)), name)

    def relative(self, path: Path) -> str:
        """The folder ``path`` as the baseline writes it (:class:`_Places`)."""
        if self._places is None:
            self._places = _Places(self.folder)
        return self._places.name(path)

    def hide(self, result: LintResult) -> list[LintDiagnostic]:
        """The diagnostics of ``result`` the baseline does not hold, in order. Among the
        entries that may hide a finding (same file and rule, same message but for its
        numbers: :func:`_key`), those of the same message whose line reads the same are
        matched first, then those of the same message, then the rest; each by nearest line,
        and each entry hides one finding."""
        named = self.relative(result.path)
        self._linted.setdefault(named, set()).update(result.rules)
        groups: dict[tuple[str, str, str], list[LintDiagnostic]] = {}
        for d in (d for d in result.diagnostics if not d.more):  # a count is never hidden
            file = _file(named, d.file)
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
        """Write every diagnostic of ``results`` to ``path`` (atomically); returns how many:
        :meth:`BaselineWriter.write` of a writer given them (a lint run gives its writer each
        result as it comes, keeping none). ``shown``: ``path`` as the user named it."""
        writer = BaselineWriter(path)
        for result in results:
            writer.add(result)
        return writer.write(path, shown)


#: The document :class:`BaselineWriter` writes, as ``json.dumps(..., indent=2)`` writes it:
#: its head and tail around the entries (each indented 4), and with no entry.
_OPEN = f'{{\n  "version": {BASELINE_VERSION},\n  "tool": "skillc-lint",\n  "findings": ['
_FIRST, _LAST, _NONE = f"{_OPEN}\n".encode(), b"\n  ]\n}\n", f"{_OPEN}]\n}}\n".encode()
#: An entry as the baseline holds it until it is written: file, line, rule, message, context.
_Entry = tuple[str, "int | None", str, str, str]
#: The order of the entries in the file: file, line (0 for none), rule, message.
_Order = tuple[str, int, str, str]


class BaselineWriter:
    """A baseline being written: each result's findings turned into its entries as they come
    (:meth:`add`), the size of the file they make counted as it grows; once past
    :data:`MAX_BASELINE_BYTES` the entries are let go (the file is refused: :meth:`write` is
    E100) and only counted, so what it holds is bounded by the bound, not by the findings
    (a run of 400,000 findings held them all, 850 MB, to refuse the file at the end).
    Each entry is rendered once, held as its place in the file and its bytes; :meth:`write`
    writes them once. ``path``: the baseline file (its paths start in its folder)."""

    def __init__(self, path: Path) -> None:
        self.folder = Path(os.path.abspath(path)).parent  # noqa: PTH100
        self._places = _Places(self.folder)
        self.count = 0
        """The findings given (the baseline's entries)."""
        self._entries: list[tuple[_Order, bytes]] = []
        self._bytes = 0  # the entries' JSON, each indented and encoded, without separators
        self._written = False

    @property
    def size(self) -> int:
        """The bytes of the file the findings given make."""
        if not self.count:
            return len(_NONE)
        return len(_FIRST) + self._bytes + 2 * (self.count - 1) + len(_LAST)  # ",\n" each

    @property
    def held(self) -> int:
        """The entries held (all of them while the file is within the bound, else none)."""
        return len(self._entries)

    def add(self, result: LintResult) -> None:
        """The findings of ``result`` (never a count: :attr:`LintDiagnostic.more`)."""
        self._unwritten()
        files: dict[str, str] = {}  # each file's baseline path, made once
        named = self._places.name(result.path)
        for d in result.diagnostics:
            if d.more:
                continue
            file = files.get(d.file)
            if file is None:
                file = files[d.file] = _file(named, d.file)
            rendered = _rendered((file, d.line, d.rule, d.matched, _context(d.source)))
            self.count += 1
            self._bytes += len(rendered)
            if self.size <= MAX_BASELINE_BYTES:
                self._entries.append(((file, d.line or 0, d.rule, d.matched), rendered))
            elif self._entries:  # refused at the end whatever comes: only counted now
                self._entries = []

    def _unwritten(self) -> None:
        if self._written:  # (its entries are let go as the file is made)
            raise RuntimeError(f"a baseline of {self.folder} is written once")

    def write(self, path: Path, shown: str | None = None) -> int:
        """Write the findings given to ``path`` (the one given to :class:`BaselineWriter`),
        atomically; returns how many. Only a missing file or a baseline skillc-lint wrote is
        replaced (:meth:`Baseline.replaces`, checked again right before the rename: a file
        made meanwhile is never replaced); ``shown``: ``path`` as the user named it (for the
        errors). A baseline larger than :data:`MAX_BASELINE_BYTES` (what
        :meth:`Baseline.read` reads) is E100 ``cannot write``, and nothing is written. Once
        written (or refused), the writer takes nothing more: a second call is a RuntimeError
        (its entries were let go)."""
        from skillc_index import write_file_atomic

        self._unwritten()
        if Path(os.path.abspath(path)).parent != self.folder:  # noqa: PTH100
            raise ValueError(f"a baseline of {self.folder} written to {path}")
        shown = str(path) if shown is None else shown
        replace = Baseline.replaces(path, shown)
        self._written = True
        if self.size > MAX_BASELINE_BYTES:  # --baseline would refuse it: nothing written
            from skillc_index.command_errors import CannotWrite

            raise CannotWrite(
                shown,
                f"{self.count} findings make a baseline of {self.size:,} bytes, more than "
                f"the {MAX_BASELINE_BYTES:,} --baseline reads; narrow the run (--select, "
                "--ignore, per-file-ignores) or fix some findings first",
            )
        self._entries.sort(key=lambda entry: entry[0])  # (stable: equal ones as they came)
        pieces = [rendered for _, rendered in self._entries]
        self._entries = []  # (let go before the file's bytes are made: written once)
        if pieces:  # (the file's bytes made in one join, no copy of them)
            pieces[0] = _FIRST + pieces[0]
            pieces[-1] += _LAST
        data = b",\n".join(pieces) if pieces else _NONE
        del pieces

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
        return self.count


def _rendered(entry: _Entry) -> bytes:
    """An entry as the baseline file holds it: the text ``json.dumps(document, indent=2,
    ensure_ascii=False)`` gives it in the list of findings (indented 4), made here with the
    strings' encoder it uses (an indenting encoder is Python's own: twice the time)."""
    file, line, rule, message, context = entry
    line_text = "null" if line is None else str(line)
    text = _ENTRY.format(string(file), string(rule), string(message), line_text, string(context))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a path that is not UTF-8 (its bytes as lone surrogates)
        return _surrogates_escaped(text).encode("utf-8")


#: A lone surrogate: a byte of a file name that is not UTF-8 (``surrogateescape``).
_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogates_escaped(json_text: str) -> str:
    """JSON text (``ensure_ascii=False``'s: a surrogate can only be in a string) with its lone
    surrogates written as ``\\udcXX`` escapes, the rest as it is: valid UTF-8, and JSON that
    reads back as the same str (so ``--baseline`` matches a finding in a file named with
    bytes that are not UTF-8, as the file system names it). JSON's escape, not skillc-index's
    ``deceptive.code_escape`` (Python's, whose ``\\U0001f680`` is no JSON): a surrogate is
    below U+10000, where the two agree; a character past U+FFFF stays as it is, UTF-8."""
    return _SURROGATE.sub(lambda char: f"\\u{ord(char[0]):04x}", json_text)


_ENTRY = (
    '    {{\n      "file": {},\n      "rule": {},\n      "message": {},\n'
    '      "line": {},\n      "context": {}\n    }}'
)


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
