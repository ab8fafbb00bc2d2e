"""``sources --pattern``: one gitignore-style glob, matched without backtracking.

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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["Glob"]

T = TypeVar("T")
P = TypeVar("P")

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
    nothing)."""
    tokens: list[_Token] = []
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
            parsed = _char_class(segment, i)
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


def _char_class(segment: str, start: int) -> tuple[_Token, int] | None:
    """``[...]`` at ``start``: (its token, index after it), or None when it is not closed.
    Ranges (``a-z``) are expanded to their bounds' check at match time."""
    i = start + 1
    negated = i < len(segment) and segment[i] in "!^"
    if negated:
        i += 1
    items: list[str] = []
    first = True
    while i < len(segment) and (segment[i] != "]" or first):
        first = False
        char = segment[i]
        if char == "\\" and i + 1 < len(segment):
            i += 1
            char = segment[i]
        if i + 2 < len(segment) and segment[i + 1] == "-" and segment[i + 2] != "]":
            high = segment[i + 2]
            if high == "\\" and i + 3 < len(segment):
                high = segment[i + 3]
                i += 1
            items.append(char + high)
            i += 3
            continue
        items.append(char + char)
        i += 1
    if i >= len(segment):
        return None
    return ("class", "!" if negated else "", *items), i + 1


def _token_matches(token: _Token, char: str) -> bool:
    if token == "?":
        return True
    kind = token[0]
    if kind == "char":
        return token[1] == char
    inside = any(pair[0] <= char <= pair[1] for pair in token[2:])
    return inside != (token[1] == "!")


class Glob:
    """One compiled pattern; :meth:`match` takes a relative POSIX path of a file."""

    def __init__(self, pattern: str) -> None:
        self.segments: list[list[_Token] | str] | None = None
        self.dir_only = False
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
            self.dir_only = True
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
        names = path.split("/")
        last = len(names) if not self.dir_only else len(names) - 1
        return any(self._matches(names[:count]) for count in range(1, last + 1))
