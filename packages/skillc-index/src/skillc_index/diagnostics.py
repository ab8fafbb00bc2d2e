"""The diagnostic code registry (RFC-0005:C-CODES) and its one formatting function.

Every error and warning skillc reports has a code here, with the RFC's message template.
Library code raises the typed exceptions (errors) or returns :class:`Diagnostic` values
(warnings); command-line front ends format both with :func:`format_diagnostic`.

The errors of the commands that write, of the usage logs and of tool definitions are in
:mod:`skillc_index.command_errors`, which the readers (``skc show``, ``search``) never load;
E100's, an option or argument refused, in :mod:`skillc_index.option_errors` (import them
from there: this module does not hand them out).

Errors are told apart by type, never by message text: each condition has its class, a
subclass of the one of its code (``UnknownTarget(InvalidOption)`` is E100). No library message
names a command-line flag: an error that names a parameter of the command (``force``) or another
command to run is worded with :data:`PARAMETER_NAMES` (the names the Python API and MCP share),
and a front end gets its own wording with :meth:`SkillcError.spelled` (the command line's
``--force``, :data:`CLI_SPELLING`).
"""

from __future__ import annotations

import errno
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Literal, TypeVar

from skillc_index.record import Record
from skillc_index.spelling import PARAMETER_NAMES, Spelling
from skillc_index.text import NUL_REASON, cut_quotes, nul_shown, one_of, printable

Severity = Literal["error", "warning"]
NoticeLevel = Literal["error", "warning", "info"]
T = TypeVar("T")

#: RFC-0005:C-CODES, verbatim: code -> message template (without the ``error[EXXX]: `` prefix).
#: Except E002, whose RFC text ("run 'skc build <skill>' to rebuild") no longer applies: the
#: index is a cache built on demand (DECISIONS "Gateway and index"), so E002 is left for a
#: skill that cannot be indexed, and says why.
TEMPLATES: dict[str, str] = {
    "E001": "skill '<skill>' not found",
    "E002": "search index unusable for '<skill>': <reason>",
    "E003": "index hash collision; delete .skillc-meta/search-<hash16>.db and rebuild",
    "E004": "empty query",
    "E010": "not a valid skill: '<path>' (missing SKILL.md)",
    "E011": "missing frontmatter field '<field>' in SKILL.md",
    "E012": "path escapes skill root: '<path>'",
    "E020": "section not found: '<section>'",
    "E021": "file not found: '<path>'",
    "E022": "directory not found: '<path>'",
    "E023": "file too large: '<path>'",
    "E030": "invalid query type: '<type>'",
    "E031": "invalid filter: '<message>'",
    "E040": "no local logs found",
    "E041": "sync destination not writable: '<path>'",
    "E042": "sync source not readable: '<path>'",
    "E043": "team store unavailable: '<url>'",
    "E044": "the PostgreSQL driver is not installed",
    "E050": "skill '<skill>' already exists",
    "E060": "find server: <message>",
    "E061": "MCP HTTP server: <message>",
    "E062": "language server: <message>",
    "E070": "cannot package '<skill>' as <format>: <reason>",
    "E080": "invalid agent settings file '<path>': <reason>",
    "E100": "invalid option: '<message>'",
    "E300": "<rule-id> <rule-name>: <message>",
    "E999": "<message>",
    "W001": "multiple matches for '<section>'; showing first",
    "W002": "logging disabled; run 'skc sync' after session to merge logs",
    "W003": "stale local logs for '<skill>'; run 'skc sync' to upload",
    "W300": "<rule-id> <rule-name>: <message>",
}

#: skillc's other wording of a code, where the RFC's does not fit: E050 for a file that is no
#: skill (the page of ``skc stats --html FILE``), named by its path; E070 for an import
#: (``skc build <folder>``) refused for what ``skc package`` refuses. A diagnostic reads so
#: when its ``params`` fill this form's placeholders and not the RFC template's.
OTHER_FORMS: dict[str, str] = {
    "E050": "'<path>' already exists",
    "E070": "cannot import '<path>': <reason>",
}

# Patterns here and in the modules on the show/search path are compiled on first use (re keeps
# them): compiling one at import cost every command about 0.4M instructions (issue 32).
_PLACEHOLDER = r"<([a-z0-9-]+)>"


def severity_of(code: str) -> Severity:
    """``"error"`` for E-codes, ``"warning"`` for W-codes."""
    return "warning" if code.startswith("W") else "error"


_NO_PARAMS: Mapping[str, str] = MappingProxyType({})


# Records on the show/search path are Records (NamedTuples), not dataclasses: importing
# dataclasses (and inspect with it) and creating frozen dataclasses costs more than all of
# ``skc show``'s own work (bench/RESULTS.md, issue 5).
class Diagnostic(Record):
    """One reportable condition: a registry code and the values for its placeholders.

    ``params`` keys are the template's placeholder names (``skill``, ``path``, ``rule-id``...).
    ``detail`` is extra text printed after the message on following lines (E020's suggestions).
    ``subject``: the skill it is about when a command handles several (``build a b``,
    ``package a b``), written before the message: ``error[E011]: bad: missing ...``.
    A code missing from the registry raises ``ValueError`` when the message is made.
    """

    code: str
    params: Mapping[str, str] = _NO_PARAMS
    detail: str = ""
    subject: str = ""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (a batch build's worker sends its errors to the parent) with ``params`` a
        dict: the default, a ``MappingProxyType``, does not pickle."""
        return (type(self), (self.code, dict(self.params), self.detail, self.subject))

    @property
    def severity(self) -> Severity:
        return severity_of(self.code)

    @property
    def message(self) -> str:
        """The template with its placeholders filled, without the ``error[EXXX]:`` prefix,
        what each quotes of what it was given cut (:func:`~skillc_index.text.cut_quotes`)."""

        def fill(match: re.Match[str]) -> str:
            name = match.group(1)
            value = self.params.get(name, match.group(0))
            lint = self.code[1:] == "300"  # a rule's message (E300, W300): the linter's words
            return value if lint else cut_quotes(value, whole=name not in ("message", "reason"))

        template = TEMPLATES.get(self.code)
        if template is None:
            raise ValueError(f"unknown diagnostic code {self.code!r}")
        other = OTHER_FORMS.get(self.code)
        if other is not None and self.params:
            fills = set(self.params).issuperset
            if fills(re.findall(_PLACEHOLDER, other)) and not fills(
                re.findall(_PLACEHOLDER, template)
            ):
                template = other
        return re.sub(_PLACEHOLDER, fill, template)


class Notice(Record):
    """A message the registry has no code for: config file problems (RFC-0009 asks for a
    warning, or an error for an invalid ``version``, but RFC-0005 reserves no code) and lint's
    ``info: skipping compiled skill``. Printed as ``<level>: <text>``; never changes the exit
    status."""

    text: str
    level: NoticeLevel = "warning"


#: The most problems of one source printed (a checkout's config may hold 60,000 bad entries,
#: one warning each): the first ones, then one line for the rest (:func:`capped`).
MAX_PROBLEMS = 20


def capped(problems: Sequence[T], more: Callable[[int], T]) -> list[T]:
    """``problems``, at most :data:`MAX_PROBLEMS` of them, then ``more(N)`` standing for the
    ``N`` left out when there were more."""
    if len(problems) <= MAX_PROBLEMS:
        return list(problems)
    return [*problems[:MAX_PROBLEMS], more(len(problems) - MAX_PROBLEMS)]


def format_diagnostic(diagnostic: Diagnostic | Notice, *, terminal: bool = False) -> str:
    """The one formatting function: ``error[E001]: skill 'x' not found`` (RFC-0005:C-CODES).
    With ``terminal`` (text output), the control characters of what it quotes (a file name
    holding a newline, a heading holding an escape sequence) are escapes
    (:func:`~skillc_index.text.printable`): the message is one line, and so is each line
    of the detail."""
    line = printable if terminal else str
    if isinstance(diagnostic, Notice):
        return f"{diagnostic.level}: {line(diagnostic.text)}"
    about = f"{line(diagnostic.subject)}: " if diagnostic.subject else ""
    text = f"{diagnostic.severity}[{diagnostic.code}]: {about}{line(diagnostic.message)}"
    if diagnostic.detail:
        detail = "\n".join(line(part) for part in diagnostic.detail.split("\n"))
        text = f"{text}\n{detail}"
    return text


def warning_text(warning: Diagnostic | Notice) -> str:
    """A warning as a ``--format json`` result lists it: a notice's text alone (stderr
    prefixes its level), a diagnostic as :func:`format_diagnostic` writes it."""
    return warning.text if isinstance(warning, Notice) else format_diagnostic(warning)


def diagnostic_json(diagnostic: Diagnostic) -> dict[str, str]:
    """An error as the kit's JSON holds it: ``{"code", "message"}``, the message without the
    ``error[EXXX]:`` prefix, and ``"detail"`` (a hint, suggestions) when it has one. A batch
    build's failed item and skillc-lint's run errors are written so."""
    data = {"code": diagnostic.code, "message": diagnostic.message}
    if diagnostic.detail:
        data["detail"] = diagnostic.detail
    return data


def _hint(text: str) -> str:
    """The detail line of a diagnostic that says what to do (empty when there is nothing)."""
    return f"hint: {text}" if text else ""


class SkillcError(Exception):
    """Base of every error skillc raises on purpose; carries its :class:`Diagnostic`."""

    code: ClassVar[str] = "E999"
    #: A refusal that is no failure (another command holds a lock it waits for): a warning
    #: that something was not done gives its message alone, no ``error[E999]:``
    #: (:func:`warning_reason`).
    busy: ClassVar[bool] = False
    #: What an access log stores instead of :attr:`diagnostic` when that quotes a value the
    #: user gave, which may be a secret (:func:`error_line`); None: the diagnostic itself.
    logged: Diagnostic | None = None

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(format_diagnostic(diagnostic))
        self.diagnostic = diagnostic

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (a batch build's worker sends its errors to the parent) as the error it
        is, rebuilt from its message and attributes without calling its ``__init__`` again:
        the default called it with the message alone, which a subclass taking other
        arguments refused (:class:`UnreadableFile`: a TypeError, the pool broken) and
        :class:`InternalError` wrapped in ``error[E999]:`` a second time."""
        return (_rebuilt, (type(self), self.args), self.__dict__)

    def spelled(self, spelling: Spelling) -> Diagnostic:
        """The diagnostic with the parameters and commands it names written as ``spelling``
        does; :attr:`diagnostic` is the one of :data:`PARAMETER_NAMES`. Only the errors that
        name one (:class:`SkillExists` with a ``force`` remedy...) override this."""
        return self.diagnostic


def _rebuilt(cls: type[SkillcError], args: tuple[object, ...]) -> SkillcError:
    """A :class:`SkillcError` of class ``cls`` unpickled: made without its ``__init__``
    (its attributes, the diagnostic among them, are set next, from the pickle)."""
    return cls.__new__(cls, *args)


class SkillNotFound(SkillcError):
    """E001; ``suggestions`` are near skill names, given as a ``hint:`` line after it, after
    ``gone`` (an entry of that name that is no skill, such as a link whose target is gone)."""

    code = "E001"

    def __init__(self, skill: str, suggestions: tuple[str, ...] = (), gone: str = "") -> None:
        near = f"did you mean {one_of(suggestions)}?" if suggestions else ""
        hint = "; ".join(part for part in (gone, near) if part)
        super().__init__(Diagnostic(self.code, {"skill": skill}, _hint(hint)))
        self.skill = skill
        self.suggestions = suggestions


class IndexUnusable(SkillcError):
    """E002: the skill cannot be indexed (the index is a cache, built on demand: DECISIONS
    "Gateway and index"), or its index failed to read; ``reason`` says why."""

    code = "E002"

    def __init__(self, skill: str, reason: str = "") -> None:
        super().__init__(Diagnostic(self.code, {"skill": skill, "reason": reason or "unknown"}))
        self.skill = skill
        self.reason = reason


class IndexCollision(SkillcError):
    code = "E003"

    def __init__(self, hash16: str) -> None:
        super().__init__(Diagnostic(self.code, {"hash16": hash16}))
        self.hash16 = hash16


class EmptyQuery(SkillcError):
    code = "E004"

    def __init__(self) -> None:
        super().__init__(Diagnostic(self.code))


class NotASkill(SkillcError):
    """E010; ``hint``, when given, says why on a ``hint:`` line after it (a folder whose
    walk for skills left out what ``skc package`` wrote there)."""

    code = "E010"

    def __init__(self, path: str, hint: str = "") -> None:
        super().__init__(Diagnostic(self.code, {"path": path}, _hint(hint)))
        self.path = path


class PathEscapesRoot(SkillcError):
    code = "E012"

    def __init__(self, path: str) -> None:
        super().__init__(Diagnostic(self.code, {"path": path}))
        self.path = path


class SectionNotFound(SkillcError):
    code = "E020"

    def __init__(
        self,
        section: str,
        suggestions: list[tuple[str, str]] | None = None,
        *,
        matched: int = 0,
        unreadable: Sequence[tuple[str, str]] = (),
    ) -> None:
        """``matched``: the headings that do match, fewer than the one asked for (``show``'s
        ``nth``), said in a hint; ``unreadable``: the files (and why) whose headings could
        not be looked in (this user may not read them), each named in a hint."""
        self.suggestions = list(suggestions or [])[:5]
        match = "headings match" if matched > 1 else "heading matches"
        detail = _hint(f"only {matched} {match} it") if matched else ""
        if self.suggestions:
            lines = ["Did you mean one of these?"]
            lines += [f"  - {text} ({file})" for text, file in self.suggestions]
            detail = "\n".join(lines)
        maybe = "the section may be in it"
        unread = [_hint(f"cannot read '{rel}' ({why}): {maybe}") for rel, why in unreadable]
        detail = "\n".join(line for line in (detail, *unread[:MAX_PROBLEMS]) if line)
        super().__init__(Diagnostic(self.code, {"section": section}, detail))
        self.section = section


class PathNotFound(SkillcError):
    """A path of a skill that names nothing usable: :class:`SkillFileNotFound` (a file, E021)
    or :class:`SkillDirectoryNotFound` (a folder, E022). A path holding a NUL byte (an MCP
    client can send one) is quoted as ``text.nul_shown`` writes it, with ``text.NUL_REASON``
    as the hint, whoever raises it."""

    def __init__(self, path: str, hint: str = "") -> None:
        if "\0" in path:
            path, hint = nul_shown(path), NUL_REASON
        super().__init__(Diagnostic(self.code, {"path": path}, _hint(hint)))
        self.path = path


class SkillFileNotFound(PathNotFound):
    code = "E021"


class SkillDirectoryNotFound(PathNotFound):
    code = "E022"


class FolderChanged(SkillDirectoryNotFound):
    """E022 for a skill folder that changed on disk as it was resolved (a part of its path
    swapped between two looks, :meth:`raised_by`); ``again``: what to do (lint's ``lint it
    again``)."""

    def __init__(self, path: str, again: str = "run the command again") -> None:
        super().__init__(path, f"it changed on disk while it was read; {again}")

    @staticmethod
    def raised_by(exc: BaseException) -> bool:
        """Whether ``exc`` is what resolving a path raises when a part of it is swapped
        meanwhile: ``os.path.realpath``'s ``readlink`` of a symlink made a folder (``EINVAL``),
        removed (``ENOENT``) or a file's folder (``ENOTDIR``) since its ``lstat``, a loop
        (``ELOOP``); ``Path.resolve``'s ``RuntimeError`` of a loop (before Python 3.13); a
        ``FolderChanged`` itself (a resolution that turned it into one already)."""
        if isinstance(exc, OSError):
            return exc.errno in (errno.EINVAL, errno.ENOENT, errno.ENOTDIR, errno.ELOOP)
        loop = type(exc) is RuntimeError and str(exc).startswith("Symlink loop")
        return loop or isinstance(exc, FolderChanged)


class NotARegularFile(SkillFileNotFound):
    """E021 for a path that names a folder, FIFO, socket or device: only regular files are
    read (opening a FIFO would block)."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(path, f"'{path}' is {kind}, not a regular file")
        self.kind = kind


class HiddenPath(SkillFileNotFound):
    """E021 for a hidden path (a dot-file or dot-folder) that was not asked for explicitly:
    hidden files are skill-private, not sources."""

    def __init__(self, path: str, target: str | None = None) -> None:
        why = "is hidden (a dot-file or dot-folder)" if target is None else "leads to a hidden file"
        super().__init__(path, f"'{path}' {why}" + ("" if target is None else f" ('{target}')"))


class LeftoverPath(SkillFileNotFound):
    """E021 for an editor's, OS's or merge's leftover (``SKILL.md~``, ``#x.md#``, ``4913``,
    ``x.orig``: :func:`skillc_index.skill_files.is_leftover`) that was not asked for as hidden files
    are: no part of the skill (not listed, indexed, packaged)."""

    def __init__(self, path: str) -> None:
        why = "an editor's, OS's or merge's leftover (no part of the skill)"
        super().__init__(path, f"'{path}' is {why}")


class IgnoredPath(SkillFileNotFound):
    """E021 for a path the skill's ``.gitignore`` file ``by`` excludes, or that leads to one:
    no part of the skill (not listed, indexed, packaged), served only as a hidden file is."""

    def __init__(self, path: str, by: str) -> None:
        super().__init__(path, f"'{path}' is excluded by the skill's {by} (no part of the skill)")


class EvalsPath(SkillFileNotFound):
    """E021 for a file of the skill's tests (``evals/``) or a path to one: served to no agent."""

    def __init__(self, path: str, target: str | None = None) -> None:
        tests = "the skill's tests " + ("(evals/)" if target is None else f"('{target}')")
        how = "is" if target is None else "leads to"
        super().__init__(path, f"'{path}' {how} {tests}, not served to agents")


class FileIsAFolder(NotARegularFile):
    """E021 for a folder given where a file is read (``open``): the hint names the command
    that lists a folder."""

    def __init__(self, path: str) -> None:
        self.path, self.kind = path, "a folder"
        SkillcError.__init__(self, self.spelled(PARAMETER_NAMES))

    def spelled(self, spelling: Spelling) -> Diagnostic:
        listing = spelling.command("sources", "dir")
        hint = f"'{self.path}' is a folder; list it with {listing}"
        return Diagnostic(self.code, {"path": self.path}, _hint(hint))


class FileTooLarge(SkillcError):
    """E023 (skillc's own, in the RFC's gateway range): a binary file larger than one reply
    may carry (``limit`` bytes: the MCP server's 100,000 characters of base64, ``skc open
    --format json``'s 16 MiB), which is never cut (its first bytes are no file). The hint
    says so; the command line's (:meth:`spelled` with a program) also says where it is
    served whole, which the Python API and the MCP tool do not offer (it named ``skc open``
    and ``--format json`` to them)."""

    code = "E023"

    def __init__(self, path: str, size: int, limit: int) -> None:
        self.path, self.size, self.limit = path, size, limit
        super().__init__(self.spelled(PARAMETER_NAMES))

    def spelled(self, spelling: Spelling) -> Diagnostic:
        hint = (
            f"'{self.path}' is a binary file of {self.size:,} bytes; a reply carries at most "
            f"{self.limit:,} (in base64), and a binary file is never cut"
        )
        if spelling.program:
            hint += (
                f"; '{spelling.program} open' without {spelling.option('format')} json writes "
                "its bytes as they are"
            )
        return Diagnostic(self.code, {"path": self.path}, _hint(hint))


class FindServerError(SkillcError):
    """E060: the find server (``skc watch``) cannot start, stop or be reached: another one
    runs, its socket path is too long, it does not answer."""

    code = "E060"

    def __init__(self, message: str) -> None:
        super().__init__(Diagnostic(self.code, {"message": message}))
        self.message = message


class HttpServerError(SkillcError):
    """E061: the MCP HTTP server (``skc mcp --http``) cannot start: an address that is not
    loopback without tokens, a token file that cannot be read or is malformed, the extra that
    holds the HTTP server not installed, an address in use. The message never holds a token;
    ``hint``, when given, is a ``hint:`` line after it."""

    code = "E061"

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(Diagnostic(self.code, {"message": message}, _hint(hint)))
        self.message = message


class LanguageServerError(SkillcError):
    """E062: the lint language server (``skillc-lint server``) cannot start: the extra that
    holds its LSP library is not installed."""

    code = "E062"

    def __init__(self, message: str) -> None:
        super().__init__(Diagnostic(self.code, {"message": message}))
        self.message = message


class InternalError(SkillcError):
    """E999: RFC-0005's "IO, database, parsing, or other unexpected failures"; the expected
    ones among them have their subclass (:class:`UnreadableFile`, :class:`BinaryFile`...)."""

    code = "E999"

    def __init__(self, message: str) -> None:
        super().__init__(Diagnostic(self.code, {"message": message}))

    @classmethod
    def unexpected(cls, exc: BaseException) -> InternalError:
        """E999 for an exception nobody planned for: its type and message, on one line."""
        message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return cls(" ".join(message.split()))


class UnreadableFile(InternalError):
    """E999: a file that is there but cannot be read (``reason``: the system's word for
    why); ``what`` names the kind of file when it is not a skill's (``access log``)."""

    def __init__(self, path: str, reason: str, what: str = "") -> None:
        super().__init__(f"cannot read {f'{what} ' if what else ''}'{path}': {reason}")
        self.path = path
        self.reason = reason


class BinaryFile(InternalError):
    """E999: a file holding NUL bytes, asked for as text (it has no text to show). ``open``
    no longer raises it: it serves a binary file as bytes (or :class:`FileTooLarge`)."""

    def __init__(self, path: str, size: int) -> None:
        super().__init__(f"'{path}' is a binary file ({size} bytes); it has no text to show")
        self.path = path
        self.size = size


def error_line(exc: BaseException, spelling: Spelling | None = None) -> str:
    """The one-line diagnostic of a failure, as an access-log row records it: with
    ``spelling``, its parameters named as that front end names them (the command line's
    ``--since``, as the user was told), else as the API and MCP do; without the value the
    user gave when the message quotes one (:attr:`SkillcError.logged`: a tool's argument)."""
    error = exc if isinstance(exc, SkillcError) else InternalError.unexpected(exc)
    diagnostic = error.diagnostic if spelling is None else error.spelled(spelling)
    diagnostic = diagnostic if error.logged is None else error.logged
    return format_diagnostic(diagnostic).splitlines()[0]


def warning_reason(exc: OSError | SkillcError) -> str:
    """Why something besides a command's own work failed, for the warning that says it was
    not done (a refresh, a ``.gitignore`` update): an error that is no failure
    (:attr:`SkillcError.busy`: another route command holding its lock) by its message alone,
    another as ``error[EXXX]: ...`` (its first line), a system error by its text."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    if exc.busy:
        return exc.diagnostic.message
    return format_diagnostic(exc.diagnostic).splitlines()[0]


def lint_diagnostic(
    rule_id: str, rule_name: str, message: str, severity: Severity = "error"
) -> Diagnostic:
    """An E300/W300 lint diagnostic (RFC-0005 lint format, rule ids from RFC-0008)."""
    code = "E300" if severity == "error" else "W300"
    return Diagnostic(code, {"rule-id": rule_id, "rule-name": rule_name, "message": message})


def multiple_matches(section: str) -> Diagnostic:
    """W001, returned by ``show`` when several headings match."""
    return Diagnostic("W001", {"section": section})


def ambiguous_skill(skill: str, candidates: list[str], plugin: str | None = None) -> Diagnostic:
    """W001 for a skill name that several installed skills have (DECISIONS "Paths and
    resolution"): the first of ``candidates`` (each a line: where it is) is the one used;
    the hint says how to name another (``plugin``: a plugin's skill, as ``plugin:skill``)."""
    how = "give its path"
    if plugin is not None:
        how += f", or a plugin's skill as '{plugin}'"
    lines = [f"  {candidate}" for candidate in candidates]
    return Diagnostic(
        "W001", {"section": skill}, "\n".join([*lines, _hint(f"to read another, {how}")])
    )


def logging_disabled() -> Diagnostic:
    """W002: neither the primary nor the fallback access log could be written."""
    return Diagnostic("W002")


def stale_local_logs(skill: str) -> Diagnostic:
    """W003: fallback logs for ``skill`` are older than an hour."""
    return Diagnostic("W003", {"skill": skill})
