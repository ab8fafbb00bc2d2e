"""Gitignore-style globs, matched without backtracking: one pattern (:class:`Glob`, what
``sources --pattern`` keeps) and the lines of a skill's ``.gitignore`` files
(:class:`IgnoreRules`, what ``skc package`` leaves out, and every reader of a skill's files
with it: :func:`left_out`).

A regular expression made from a glob (what ``pathspec`` builds) backtracks: ``a*a*a*…b``
against a long name takes time exponential in the number of stars, and one call blocks the
MCP server. Here both levels (characters inside a path segment; segments against ``**``)
use the iterative two-pointer wildcard match, which remembers only the last star and so
costs at most (pattern length x text length) steps: a 25-star pattern is as quick as a
2-star one.

The rules are gitignore's, for one pattern: ``*`` and ``?`` never match ``/``; ``[...]``
is a character class (``!`` or ``^`` negates it); ``\\`` escapes the next character; a
pattern without a ``/`` (other than a trailing one) matches at any depth, one with a ``/``
is anchored at the skill root (a leading ``/`` only anchors); ``**`` as a whole segment
matches any number of folders (``**/x``, ``a/**/b``, ``a/**``); a trailing ``/`` matches
folders only; a path matches when it or one of its folders matches. A blank pattern, a
comment (``#``), a negation (``!``) or a pattern ending in a lone ``\\`` matches nothing.

:class:`IgnoreRules` takes a ``.gitignore`` file's lines as git does: ``!`` negates, the last
line that matches a path decides (a deeper file's before a shallower one's), a path below an
excluded folder stays excluded (nothing re-includes it), and each file's patterns are relative
to its folder and apply below it. Bounded: each file read is at most :data:`MAX_IGNORE_BYTES`,
a skill's files hold at most :data:`MAX_IGNORE_PATTERNS` patterns of at most
:data:`MAX_PATTERN_CHARS` characters, else :class:`IgnoreTooLarge`.
"""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from skillc_index.arguments import MAX_PATTERN_CHARS

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_index.diagnostics import SkillFileNotFound

__all__ = [
    "Glob",
    "IgnoreRules",
    "IgnoreTooLarge",
    "ignore_files",
    "ignore_lines",
    "left_out",
    "name_match",
    "refusal",
]

#: The most bytes of one ``.gitignore`` file read.
MAX_IGNORE_BYTES = 64 << 10
#: The most patterns a skill's ``.gitignore`` files hold together (the longest one:
#: :data:`~skillc_index.arguments.MAX_PATTERN_CHARS`, as a ``--pattern``).
MAX_IGNORE_PATTERNS = 1000
IGNORE_FILE = ".gitignore"

T = TypeVar("T")
P = TypeVar("P")


def parent_folders(rel: str) -> list[str]:
    """The folders the relative ``/``-separated path ``rel`` lies in, outermost first:
    ``a``, ``a/b`` for ``a/b/c.md``; none for a name at the root."""
    return [rel[:at] for at, char in enumerate(rel) if char == "/"]


def ignore_lines(text: str) -> list[str]:
    """The lines of a ``.gitignore`` file's ``text`` as git reads them, each with its break
    (the last may have none): only ``\\n`` ends a line (a ``\\r`` before it is part of the
    break; a lone ``\\r``, a form feed or U+2028 ends none, where ``str.splitlines`` splits)."""
    lines = [line + "\n" for line in text.split("\n")]
    last = lines.pop()[:-1]
    return [*lines, last] if last else lines


# A token of a segment: "*", "?", or ("char", c) / ("class", negated, chars).
_Token = tuple[str, ...] | str


def _wildcard(
    pattern: Sequence[P], text: Sequence[T], star: P, one: Callable[[P, T], bool]
) -> bool:
    """Whether ``text`` matches ``pattern``, where ``star`` matches any run of elements and
    ``one(p, t)`` says whether pattern element ``p`` matches element ``t``: the two-pointer
    algorithm (on a mismatch, only the last star takes one more element)."""
    p = t = 0
    last_star, star_t = -1, 0
    while t < len(text):
        if p < len(pattern) and pattern[p] == star:
            last_star, star_t = p, t
            p += 1
        elif p < len(pattern) and one(pattern[p], text[t]):
            p += 1
            t += 1
        elif last_star >= 0:
            star_t += 1
            p, t = last_star + 1, star_t
        else:
            return False
    while p < len(pattern) and pattern[p] == star:
        p += 1
    return p == len(pattern)


def _segment_tokens(segment: str) -> list[_Token] | None:
    """The tokens of one pattern segment (None: a lone trailing ``\\``, which matches
    nothing). Linear in the segment's length: where each ``[`` closes is read from one
    pass (:func:`_closes`), so a run of unclosed ``[`` (each a literal ``[``) is no scan to
    the segment's end per ``[``."""
    tokens: list[_Token] = []
    closes: list[int] | None = None
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "\\":
            if i + 1 == len(segment):
                return None
            tokens.append(("char", segment[i + 1]))
            i += 2
            continue
        if char == "*":
            if not tokens or tokens[-1] != "*":  # '**' inside a segment is one '*'
                tokens.append("*")
        elif char == "?":
            tokens.append("?")
        elif char == "[":
            closes = _closes(segment) if closes is None else closes
            parsed = _char_class(segment, i, closes)
            if parsed is None:
                tokens.append(("char", "["))
            else:
                token, i = parsed
                tokens.append(token)
                continue
        else:
            tokens.append(("char", char))
        i += 1
    return tokens


def _class_item(segment: str, i: int) -> tuple[str, int]:
    """The item of a ``[...]`` class at ``i`` (its bounds: ``aa`` for ``a``, ``az`` for
    ``a-z``; ``\\`` escapes a bound) and the index after it."""
    char = segment[i]
    if char == "\\" and i + 1 < len(segment):
        i += 1
        char = segment[i]
    if i + 2 < len(segment) and segment[i + 1] == "-" and segment[i + 2] != "]":
        high = segment[i + 2]
        if high == "\\" and i + 3 < len(segment):
            high = segment[i + 3]
            i += 1
        return char + high, i + 3
    return char + char, i + 1


def _closes(segment: str) -> list[int]:
    """For each index of ``segment`` (and its end), the ``]`` closing a class whose next item
    (not its first, which may be a ``]``) starts there, or -1 when none does: one pass from
    the end, as each item's end is known from its start (:func:`_class_item`)."""
    closes = [-1] * (len(segment) + 1)
    for at in range(len(segment) - 1, -1, -1):
        closes[at] = at if segment[at] == "]" else closes[_class_item(segment, at)[1]]
    return closes


def _char_class(segment: str, start: int, closes: list[int]) -> tuple[_Token, int] | None:
    """``[...]`` at ``start``: (its token, index after it), or None when it is not closed
    (``closes``: :func:`_closes` of the segment). Ranges (``a-z``) are expanded to their
    bounds' check at match time."""
    i = start + 1
    negated = i < len(segment) and segment[i] in "!^"
    if negated:
        i += 1
    if i >= len(segment):
        return None
    end = closes[_class_item(segment, i)[1]]  # the first item may be a ']'
    if end < 0:
        return None
    items: list[str] = []
    while i < end:
        item, i = _class_item(segment, i)
        items.append(item)
    return ("class", "!" if negated else "", *items), end + 1


def _token_matches(token: _Token, char: str) -> bool:
    if token == "?":
        return True
    kind = token[0]
    if kind == "char":
        return token[1] == char
    inside = any(pair[0] <= char <= pair[1] for pair in token[2:])
    return inside != (token[1] == "!")


@functools.lru_cache(maxsize=16)
def _name_tokens(pattern: str) -> list[_Token] | None:
    return _segment_tokens(pattern)


def name_match(name: str, pattern: str) -> bool:
    """Whether ``name`` (a skill's, not a path: ``/`` is a character as any other) matches the
    glob ``pattern``, by the rules of one segment of a :class:`Glob`: ``*``, ``?``, ``[...]``
    (``!`` or ``^`` negates), ``\\`` escapes the next character, case kept; a lone trailing
    ``\\`` matches nothing; both composed, as a typed :class:`Glob` (``café*`` typed matches
    the ``cafe\u0301-notes`` a Mac wrote). Without backtracking, as :class:`Glob` (a pattern
    of unclosed ``[`` is read in one pass, where :func:`fnmatch.translate` rescans the rest
    per ``[``). The one match of ``list --pattern``: its rows, the text's, the JSON's and the
    MCP tool's, and ``list --budget``'s."""
    from skillc_index.text import composed

    tokens = _name_tokens(composed(pattern))
    return tokens is not None and _wildcard(tokens, composed(name), "*", _token_matches)


class Glob:
    """One compiled pattern; :meth:`match` takes a relative POSIX path of a file.

    ``typed``: a pattern a user typed (``sources --pattern``), compared composed (NFC,
    :func:`~skillc_index.text.composed`) with each path composed too, as :func:`name_match`
    compares (``list --pattern``): ``résumé*`` typed matches the ``re\u0301sume\u0301.md`` a
    Mac wrote. A ``.gitignore`` line is compared as written, as git compares it."""

    def __init__(self, pattern: str, *, typed: bool = False) -> None:
        self.typed = typed
        if typed:
            from skillc_index.text import composed

            pattern = composed(pattern)
        self.segments: list[list[_Token] | str] | None = None
        self.dir_only = False
        self.folders_only = pattern.endswith("/")  # as written: 'x/**' matches files too
        self.inside = False  # 'x/**': what is inside x, not x itself
        if not pattern.strip() or pattern.startswith(("#", "!")):
            return
        if pattern.endswith("/"):
            self.dir_only = True
            pattern = pattern.rstrip("/")
        anchored = "/" in pattern
        parts = [part for part in pattern.strip("/").split("/") if part]
        if not parts:
            return
        if not anchored:
            parts.insert(0, "**")
        segments: list[list[_Token] | str] = []
        for part in parts:
            if part == "**":
                if not segments or segments[-1] != "**":
                    segments.append("**")
                continue
            tokens = _segment_tokens(part)
            if tokens is None:
                return
            segments.append(tokens)
        if len(segments) > 1 and segments[-1] == "**":  # 'x/**': what is inside a folder x
            segments.pop()
            self.dir_only = self.inside = True
        self.segments = segments

    def _matches(self, names: Sequence[str]) -> bool:
        assert self.segments is not None
        return _wildcard(self.segments, names, "**", self._segment_matches)

    @staticmethod
    def _segment_matches(tokens: list[_Token] | str, name: str) -> bool:
        assert not isinstance(tokens, str)
        return _wildcard(tokens, name, "*", _token_matches)

    def match(self, path: str) -> bool:
        """Whether the file ``path`` (or one of its folders) matches."""
        if self.segments is None:
            return False
        if self.typed:
            from skillc_index.text import composed

            path = composed(path)
        names = path.split("/")
        last = len(names) if not self.dir_only else len(names) - 1
        return any(self._matches(names[:count]) for count in range(1, last + 1))

    def fits(self, path: str, *, folder: bool) -> bool:
        """Whether ``path`` itself (a folder when ``folder``), not one of its folders,
        matches: what a line of a ``.gitignore`` file says of it."""
        if self.segments is None or (self.folders_only and not folder):
            return False
        names = path.split("/")
        if self.inside:
            return any(self._matches(names[:count]) for count in range(1, len(names)))
        return self._matches(names)


class IgnoreTooLarge(ValueError):
    """A skill's ``.gitignore`` files are over the bounds (:data:`MAX_IGNORE_BYTES`,
    :data:`MAX_IGNORE_PATTERNS`, :data:`MAX_PATTERN_CHARS`), or one cannot be read: what
    they exclude is unknown."""


class IgnoreRules:
    """The patterns of a skill's ``.gitignore`` files (:meth:`read`), by the folder holding
    each file (``""`` for the root, else ``"sub/"``)."""

    def __init__(self) -> None:
        self.files: dict[str, list[tuple[Glob, bool]]] = {}
        """Each file's patterns in order, each with whether it is negated (``!``)."""
        self.unread: list[str] = []
        """The ``.gitignore`` files :meth:`read` left unread: symlinks (git follows none)."""
        self._count = 0
        self._folders: dict[str, str | None] = {}  # a folder's verdict, once

    def add(self, folder: str, text: str) -> None:
        """The lines of the ``.gitignore`` file of ``folder`` (``""`` or ``"sub/"``)."""
        rules = self.files.setdefault(folder, [])
        for line in text.removeprefix("\ufeff").split("\n"):
            line = line.removesuffix("\r")
            kept = line.rstrip(" ")
            if kept.endswith("\\") and kept != line:  # 'x\ ': an escaped space is kept
                kept += " "
            if not kept or kept.startswith("#"):
                continue
            negated = kept.startswith("!")
            if negated:  # '!#x', '!!x': the pattern '#x', '!x'
                kept = kept[1:]
                kept = "\\" + kept if kept.startswith(("#", "!")) else kept
            self._count += 1
            if self._count > MAX_IGNORE_PATTERNS:
                raise IgnoreTooLarge(
                    f"its {IGNORE_FILE} files hold over {MAX_IGNORE_PATTERNS} patterns"
                )
            if len(kept) > MAX_PATTERN_CHARS:
                why = f"a pattern over {MAX_PATTERN_CHARS} characters"
                raise IgnoreTooLarge(f"its {folder}{IGNORE_FILE} has {why}")
            rules.append((Glob(kept), negated))

    def _verdict(self, path: str, folder: bool) -> str | None:
        """The ``.gitignore`` file excluding ``path`` itself (a folder when ``folder``), by the
        last of its lines matching it, the deepest file first; None when none excludes it."""
        bases = ["", *(f"{folder}/" for folder in parent_folders(path))]
        for base in reversed(bases):
            for glob, negated in reversed(self.files.get(base, ())):
                if glob.fits(path[len(base) :], folder=folder):
                    return None if negated else base + IGNORE_FILE
        return None

    def excluded(self, rel: str, *, folder: bool = False) -> tuple[str, str] | None:
        """Whether the file ``rel`` (the folder, with ``folder``) is excluded: (the path
        excluded, ``rel`` or the first of its folders excluded, a folder with a trailing
        ``/``; the ``.gitignore`` excluding it), or None."""
        at = -1
        while (at := rel.find("/", at + 1)) >= 0:
            above = rel[:at]
            if above not in self._folders:
                self._folders[above] = self._verdict(above, True)
            if (by := self._folders[above]) is not None:
                return above + "/", by
        by = self._verdict(rel, folder)
        return None if by is None else (rel + "/" if folder else rel, by)

    def excluded_link(self, real_root: str, rel: str) -> tuple[str, str, str] | None:
        """Whether the file ``rel`` of the skill at ``real_root`` is reached through a symlink
        (staying inside it) to a path :meth:`excluded` excludes, as ``creds.json ->
        credentials.json`` or ``pub -> local`` (git commits the link, never the content it
        leads to): (the link, a folder's with a trailing ``/``; the ``.gitignore`` excluding
        its target; the excluded target), or None."""
        if not self.files:  # no .gitignore: nothing to resolve
            return None
        from skillc_index.files import inside, real_path

        real = real_path(f"{real_root}/{rel}")
        target = real[len(real_root) + 1 :]
        if not target or target == rel or not inside(real, real_root):
            return None
        if (excluded := self.excluded(target)) is None:
            return None
        below = target[len(excluded[0]) :]  # the file's path below an excluded folder
        link = rel[: len(rel) - len(below)].rstrip("/")  # the folder link, when it is one
        if below and rel.endswith("/" + below) and os.path.islink(f"{real_root}/{link}"):  # noqa: PTH114
            return link + "/", excluded[1], excluded[0]
        return rel, excluded[1], excluded[0]

    @classmethod
    def read(
        cls, root: Path, folders: Iterable[str], *, real_root: str | None = None
    ) -> IgnoreRules:
        """The rules of the ``.gitignore`` files of ``root`` and of its ``folders`` (relative,
        each after its parent, as :func:`~skillc_index.skill_files.walk_skill` lists them) but
        those in an excluded folder, the files not read in :attr:`unread`: a symlink (git
        follows none, and one may lead out of the skill). Each is read inside
        the skill (:func:`~skillc_index.files.read_in_root`); one over the bounds, or that
        cannot be read, is :class:`IgnoreTooLarge`."""
        from skillc_index.diagnostics import SkillcError
        from skillc_index.files import read_in_root

        real_root = real_root or os.path.realpath(root)
        rules = cls()
        for rel, link in ignore_files(real_root, folders):
            folder = rel.removesuffix(IGNORE_FILE)
            if (excluded := rules.excluded(rel)) is not None and excluded[0] != rel:
                continue  # in an excluded folder: git reads none there either
            if link:
                rules.unread.append(rel)
                continue
            try:
                data = read_in_root(root, rel, MAX_IGNORE_BYTES + 1, real_root=real_root)
            except (OSError, SkillcError) as exc:
                raise IgnoreTooLarge(f"its {rel} cannot be read ({exc})") from None
            if len(data) > MAX_IGNORE_BYTES:
                raise IgnoreTooLarge(f"its {rel} is over {MAX_IGNORE_BYTES >> 10} KiB")
            rules.add(folder, data.decode("utf-8", "surrogateescape"))
        return rules


def ignore_files(real_root: str, folders: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """The ``.gitignore`` files of the skill at ``real_root`` and of its ``folders``
    (relative, each after its parent): (its relative path, whether it is a symlink), in that
    order. A folder or another entry of that name is none (git reads none)."""
    for folder in ("", *(f"{name}/" for name in folders)):
        rel = folder + IGNORE_FILE
        try:
            mode = os.lstat(f"{real_root}/{rel}").st_mode
        except OSError:
            continue  # none there (most folders)
        if stat.S_ISLNK(mode) or stat.S_ISREG(mode):
            yield rel, stat.S_ISLNK(mode)


def left_out(
    root: Path,
    real_root: str,
    found: tuple[list[str], list[str], list[str] | None],
    holders: Iterable[str],
    links: set[str],
    into: list[IgnoreRules] | None = None,
) -> list[str]:
    """What the ``.gitignore`` files of the skill at ``root`` exclude, taken out of
    :func:`~skillc_index.skill_files.walk_skill`'s lists (``found``: its files, its links out of
    the skill, its folders when asked for) in place, and the files taken out returned: no
    part of the skill (never ``SKILL.md``; git commits none of them, ``skc package`` packs
    none). A file reached through a symlink (``links``: those the walk followed) to what
    they exclude is one (:meth:`IgnoreRules.excluded_link`). Only the files of ``holders``
    (the folders a ``.gitignore`` was seen in, ``""`` or ``"sub/"``) are read, and their
    rules appended to ``into`` when given; over their bounds (:class:`IgnoreTooLarge`), what
    they exclude is unknown: nothing is taken out."""
    from skillc_index.layout import SKILL_FILE

    files, escapes, dirs = found
    try:
        rules = IgnoreRules.read(
            root, sorted({held[:-1] for held in holders if held}), real_root=real_root
        )
    except IgnoreTooLarge:
        return []
    if into is not None:
        into.append(rules)
    gone: list[str] = []
    kept: list[str] = []
    for rel in files:
        linked = bool(links) and (rel in links or not links.isdisjoint(parent_folders(rel)))
        if rel != SKILL_FILE and (
            rules.excluded(rel) or (linked and rules.excluded_link(real_root, rel))
        ):
            gone.append(rel)
        else:
            kept.append(rel)
    files[:] = kept
    escapes[:] = [rel for rel in escapes if rules.excluded(rel) is None]
    if dirs is not None:
        dirs[:] = [rel for rel in dirs if rules.excluded(rel, folder=True) is None]
    return gone


def refusal(
    root: Path,
    real_root: str,
    rel: str,
    real: str,
    *,
    folder: bool = False,
    rules: IgnoreRules | None = None,
) -> SkillFileNotFound | None:
    """The E021 a reader of the skill at ``root`` raises for ``rel`` (the path as given; a
    folder's with ``folder``) leading to ``real`` (below the root, symlinks followed) unless
    hidden files were asked for: a hidden one (:func:`~skillc_index.files.hidden_refusal`),
    one of the skill's tests (:func:`~skillc_index.files.evals_refusal`: refused even then),
    else an editor's, OS's or merge's leftover (:func:`~skillc_index.skill_files.is_leftover`), else
    one its ``.gitignore`` files exclude, as :func:`left_out` takes them out of its
    files. None for a file of the skill (``SKILL.md``, the skill's root, which no
    ``.gitignore`` of it can exclude, or any file when the ``.gitignore`` files are over their
    bounds: what they exclude is unknown). Only the ``.gitignore`` files on the two paths are
    looked for, unless ``rules`` gives those a walk of the skill read
    (``walk_skill(rules=...)``)."""
    import posixpath

    from skillc_index.diagnostics import IgnoredPath, LeftoverPath
    from skillc_index.files import evals_refusal, hidden_refusal
    from skillc_index.layout import SKILL_FILE
    from skillc_index.skill_files import is_leftover

    hidden = hidden_refusal(rel, real) or evals_refusal(rel, real, folder, real_root)
    if hidden is not None:
        return hidden
    given = posixpath.normpath(rel)
    paths = [path for path in {given, real} if path not in (".", "..") and path[:3] != "../"]
    for path in paths:  # `SKILL.md~`, or a symlink leading to one: not listed by the walk
        parent, _, name = path.rpartition("/")
        if not folder and is_leftover(name, os.path.join(real_root, parent)):  # noqa: PTH118
            return LeftoverPath(rel)
    if given == SKILL_FILE:
        return None
    if rules is None:
        folders = sorted({folder for path in paths for folder in parent_folders(path)})
        try:
            rules = IgnoreRules.read(root, folders, real_root=real_root)
        except IgnoreTooLarge:
            return None
    for path in sorted(paths):
        if (excluded := rules.excluded(path, folder=folder)) is not None:
            return IgnoredPath(rel, excluded[1])
    return None
