"""SKL901 (tag ``security``): characters a reader cannot see, bidirectional controls,
invisible ones and terminal controls, in any text file of the skill
(:mod:`skillc_lint._rules.security` registers the rule with the other security rules)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from skillc_index import SKILL_FILE
from skillc_index.deceptive import (
    BIDI_CONTROLS,
    BIDI_MARKS,
    JOINERS,
    MAY_HIDE,
    SELECTORS,
    UNSEEN,
    hides,
)
from skillc_lint._registry import Finding
from skillc_lint._rules.fields import (
    Findings,
    Options,
    encoding_of,
    in_code,
    line_ends,
    position_of,
    text_files,
)
from skillc_lint._skill import Skill

__all__ = ["hidden_characters"]

# -- SKL901 invisible and bidirectional characters ---------------------------------------------

#: A character that may hide (:data:`skillc_index.deceptive.MAY_HIDE`; a finding where
#: :func:`~skillc_index.deceptive.hides` says it does, in code or in prose: :func:`_first_found`).
_MAY_HIDE = re.compile(MAY_HIDE)
_MAY_HIDE_CODES = BIDI_CONTROLS | UNSEEN | BIDI_MARKS | JOINERS | SELECTORS


def _utf8_pattern(codes: Iterable[int]) -> bytes:
    """The characters ``codes`` in UTF-8, as a regular expression of bytes: for each run of
    leading bytes, the class of the last bytes after it."""
    last: dict[bytes, list[int]] = {}
    for code in sorted(codes):
        utf8 = chr(code).encode("utf-8")
        last.setdefault(utf8[:-1], []).append(utf8[-1])
    return b"|".join(
        re.escape(lead) + b"[" + b"".join(b"\\x%02x" % byte for byte in ends) + b"]"
        for lead, ends in last.items()
    )


#: :data:`_MAY_HIDE` in a text's UTF-8 (rare lead bytes: half the time of the class in the
#: text).
_MAY_HIDE_UTF8 = re.compile(_utf8_pattern(_MAY_HIDE_CODES))

#: The terminal controls: the C0 control characters but tab, line feed, form feed and carriage
#: return (a line break), DEL and the C1 controls. ``cat`` in a terminal runs what they start:
#: ``ESC[8m`` conceals the text after it, ``ESC[2K`` erases the line.
_CONTROLS = "\x00-\x08\x0b\x0e-\x1f\x7f-\x9f"
_CONTROL = re.compile(f"[{_CONTROLS}]")
#: Every byte but the C0 controls of :data:`_CONTROLS` and DEL: what is left of a text's
#: bytes once these are deleted is empty when it has none (a C0 byte is never part of
#: another character's UTF-8). A fifth of the time of :data:`_CONTROL` searched in the text.
_NOT_C0 = bytes(byte for byte in range(256) if not _CONTROL.match(chr(byte)) or byte > 0x7F)
#: The C1 controls in UTF-8.
_C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")
#: What a finding names: a character of :data:`_MAY_HIDE`, or a control with the escape
#: sequence it starts (CSI ``ESC[...m``, OSC ``ESC]...BEL``, ``ESC c``, or ESC alone).
_SEQUENCE = "\x1b(?:\\[[0-?]{0,32}[ -/]{0,8}[@-~]?|\\][^\x07\x1b\n]{0,32}\x07?|[0-~])?"
_FOUND = re.compile(f"(?P<hidden>{MAY_HIDE})|{_SEQUENCE}|[{_CONTROLS}]")

#: An emoji subdivision flag (England: U+1F3F4 and tag characters): the one legitimate use of
#: tag characters.
_TAG_FLAG = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")


def hidden_characters(skill: Skill, options: Options) -> Findings:
    """SKL901: no bidirectional controls, invisible characters or terminal controls in any
    text file (a joiner next to an ASCII character counts; one inside an emoji or after a
    letter of a script that needs it does not: :func:`~skillc_index.deceptive.hides`). Code
    is read as code (:func:`_code_at`: a Markdown file's code blocks, code spans and link
    destinations, every other text file), where only an emoji's joiner and selector pass. One
    finding per line: the search goes on at the next line (linear in the text). A Markdown
    file that is not UTF-8 (UTF-16: a NUL in every line) is one finding, that (SKILL.md's is
    SKL100's)."""
    for rel, text in text_files(skill):
        encoding = encoding_of(skill, rel)
        if encoding:
            if rel != SKILL_FILE:
                yield Finding(f"{rel} {encoding}", file=rel, line=1)
            continue
        utf8 = b"" if text.isascii() else text.encode("utf-8", "surrogatepass")
        if not _MAY_HIDE_UTF8.search(utf8) and not _has_control(text, utf8):
            continue
        text = _flags_blanked(text)
        ends = line_ends(skill, rel, text)
        code = _code_at(skill, rel, text)
        match = _first_found(text, code=code)
        while match is not None:
            line, column = position_of(skill, rel, text, match.start())
            yield Finding(
                f"{_found(match)}: the text a reader sees is not the text the agent reads",
                file=rel,
                line=line,
                column=column,
            )
            match = _first_found(text, ends[line - 1], code=code)
    yield from _hidden_in_names(skill)


def _flags_blanked(text: str) -> str:
    """``text`` with each subdivision flag (:data:`_TAG_FLAG`) as spaces: the same offsets,
    the same lines."""
    if "\U0001f3f4" not in text:
        return text
    return _TAG_FLAG.sub(lambda flag: " " * len(flag.group()), text)


def _first_found(
    text: str, pos: int = 0, *, code: bool | Callable[[int], bool] = False
) -> re.Match[str] | None:
    """The first finding of ``text`` from ``pos`` on: a control (with its escape sequence),
    or a hidden character where it hides (:func:`~skillc_index.deceptive.hides`; ``code``:
    whether ``text`` is code, a name, or whether its character at an offset is)."""
    match = _FOUND.search(text, pos)
    while match is not None and match.group("hidden") is not None:
        at = match.start()
        if hides(text, at, code=code if isinstance(code, bool) else code(at)):
            break
        match = _FOUND.search(text, match.end())
    return match


def _code_at(skill: Skill, rel: str, text: str) -> bool | Callable[[int], bool]:
    """Whether ``text``, the text of the file ``rel`` of ``skill``, is code (True: any file
    but a Markdown one, a script the agent runs or data it reads), else whether its character
    at an offset is: in a code block, a code span (:func:`~skillc_lint._destinations.code_spans`
    of its line) or a link's destination, as the lint's parse found them."""
    if rel not in skill.docs:
        return True
    blocks = skill.docs[rel].code_blocks
    written: dict[int, list[tuple[int, int]]] = {}
    for link in skill.links:
        if link.source == rel and link.column is not None and not link.by_reference:
            start = link.column - 1
            written.setdefault(link.line, []).append((start, start + len(link.written)))
    spans: dict[int, list[tuple[int, int]]] = {}

    def code(at: int) -> bool:
        from skillc_lint._destinations import code_spans

        line, column = position_of(skill, rel, text, at)
        if in_code(blocks, line):
            return True
        if line not in spans:
            start = line_ends(skill, rel, text)[line - 2] if line > 1 else 0
            own = text[start : line_ends(skill, rel, text)[line - 1]]
            spans[line] = (code_spans(own) or []) if "`" in own else []
        places = (*spans[line], *written.get(line, ()))
        return any(start < column <= end for start, end in places)

    return code


def _hidden_in_names(skill: Skill) -> Findings:
    """SKL901 of the skill's file and folder names: one finding for each file or folder whose
    own name holds a hidden character or a control (``notes\u202etxt.md`` shows as
    ``notesdm.txt``), at that path, the first such character named. Each folder once,
    however many files it holds."""
    entries = {*skill.files, *skill.unread, *skill.escapes}
    paths = dict.fromkeys(entries)
    for path in list(paths):
        parent = path.rpartition("/")[0]
        while parent and parent not in paths:
            paths[parent] = None
            parent = parent.rpartition("/")[0]
    for path in sorted(paths):
        name = path.rpartition("/")[2]
        if name.isprintable() and (name.isascii() or not _MAY_HIDE.search(name)):
            continue
        match = _first_found(_flags_blanked(name), code=True)
        if match is not None:
            from skillc_index import printable
            from skillc_index.deceptive import hidden_escaped

            kind = "file" if path in entries else "folder"
            shown = hidden_escaped(printable(name), code=True)
            yield Finding(
                f"{kind} name '{shown}' holds {_found(match)}: "
                "the name a reader sees is not the name the agent reads",
                file=path,
            )


def _has_control(text: str, utf8: bytes) -> bool:
    """Whether ``text`` (``utf8``: its UTF-8, empty for an ASCII text) holds a character of
    :data:`_CONTROL`."""
    if (utf8 or text.encode("ascii")).translate(None, _NOT_C0):
        return True
    return bool(utf8) and _C1_UTF8.search(utf8) is not None


def _found(match: re.Match[str]) -> str:
    """What :data:`_FOUND` matched, named: ``bidirectional control U+202E RIGHT-TO-LEFT
    OVERRIDE``, ``terminal escape sequence \\x1b[8m``, ``control character U+0007``."""
    char = match.group()
    if match.group("hidden") is not None:
        kind = (
            "bidirectional control"
            if ord(char) in BIDI_CONTROLS
            else "bidirectional mark"
            if ord(char) in BIDI_MARKS
            else "invisible character"
        )
        from skillc_index import char_name

        return f"{kind} {char_name(char)}"
    if char[0] == "\x1b":
        from skillc_index import printable

        return f"terminal escape sequence {printable(char)}"
    return f"control character U+{ord(char):04X}"
