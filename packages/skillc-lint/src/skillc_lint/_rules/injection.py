"""SKL903 prompt injection (tag ``security``; :mod:`.security` registers it): phrasing that
turns the agent against its instructions or its user, read as a reader sees the text. SKL902
reads HTML comments with :func:`injections` too.

The phrase pattern is tuned for precision: text that quotes a phrase (in code, in quotes, or
on a line about injection, attacks or examples) describes it and is not reported. Each text
is first searched for a word every phrase holds (:data:`_INJECTION_SEARCHED`), the pattern
run only on the lines holding one.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from skillc_index import inline_text
from skillc_lint._registry import Finding
from skillc_lint._rules.fields import (
    Findings,
    Options,
    Words,
    any_of,
    in_code,
    lines_holding,
    lowered_text,
    markdown_texts,
)
from skillc_lint._skill import Skill

if TYPE_CHECKING:
    from skillc_index import Html, MarkdownDoc

__all__ = ["injections", "prompt_injection"]


#: A quote between straight quotes (:func:`_code_ranges` looks for it on each line apart; a
#: typographic one, \u201c to the first \u201d after it, is found by :func:`_quotes`).
_QUOTE = re.compile(r"\"[^\"]*\"|(?<![\w])'[^']{6,}'(?![\w])")
_OPEN, _CLOSE = "\u201c", "\u201d"


def _code_ranges(text: str, starts: Sequence[int] = (0,)) -> tuple[list[int], list[int]]:
    """What ``text`` quotes rather than says, found once for all its matches: inline code
    and quotes, a quote ending at its line (``starts``: where each line starts; an opened
    quote hides no later line). The starts of the spans, in order, and for each the
    furthest end of it and those before: a match is in one when that end reaches it."""
    spans = [m.span() for m in re.finditer(r"`[^`]*`", text)]  # a code span: over lines too
    for first, end in zip(starts, [*starts[1:], len(text)], strict=True):
        spans += _quotes(text, first, end)
    spans.sort()
    return [a for a, _ in spans], list(itertools.accumulate((b for _, b in spans), max))


def _quotes(text: str, first: int, end: int) -> list[tuple[int, int]]:
    """The quotes of the line ``text[first:end]``, left to right, none inside another: the
    leftmost of :data:`_QUOTE`'s match and a typographic quote, again after its end. One
    pass (a pattern for both looked for the closing mark from each opening one again: a
    line of unclosed \u201c took time squared); each closing mark found serves every
    opening one before it, and none after the last one closes."""
    spans: list[tuple[int, int]] = []
    pos = first
    straight = _QUOTE.search(text, pos, end)
    opened = text.find(_OPEN, pos, end)
    closed = text.find(_CLOSE, opened + 1, end) if opened >= 0 else -1
    while True:
        if closed < 0:  # no opening mark left closes on this line
            opened = -1
        if straight is None and opened < 0:
            return spans
        if straight is None or 0 <= opened < straight.start():
            span = (opened, closed + 1)
        else:
            span = straight.span()
        spans.append(span)
        pos = span[1]
        if straight is not None and straight.start() < pos:
            straight = _QUOTE.search(text, pos, end)
        if 0 <= opened < pos:
            opened = text.find(_OPEN, pos, end)
            if closed < opened:  # else the closing mark found is the first after it too
                closed = text.find(_CLOSE, opened + 1, end)


# -- SKL903 prompt injection (used by SKL902 too) ---------------------------------------------

_INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?"
    r"(?:the\s+|your\s+|my\s+|these\s+)?(?:previous|prior|above|earlier|preceding|original|"
    r"system|safety)\s+(?:instructions?|prompts?|rules|directives|guidelines|messages)"
    r"|\byou\s+are\s+now\s+(?:in\s+)?(?:DAN\b|developer\s+mode|jailbroken|unrestricted|"
    r"an?\s+unfiltered)"
    r"|\b(?:do\s+not|don't|never)\s+(?:tell|inform|alert|notify|warn|let)\s+the\s+user\s+"
    r"(?:know\s+)?(?:that\s+you|about\s+(?:this|these)\s+(?:instructions?|steps?|commands?|"
    r"actions?|skill)|what\s+you)"
    r"|\bnew\s+system\s+prompt\s*:"
    r"|<\|im_start\|>\s*system"
    r"|\b(?:reveal|print|output|repeat|leak)\s+(?:your|the)\s+(?:system\s+prompt|hidden\s+"
    r"instructions)"
    r"|\b(?:send|post|upload|exfiltrate|transmit)\s+(?:all|every|any|the\s+user's)\s+[^\n.]{0,30}"
    r"\b(?:credentials|api[ _-]?keys?|secrets|passwords|private\s+keys?|tokens)\b[^\n.]{0,60}"
    r"https?://",
    re.IGNORECASE,
)
#: A line that talks *about* injection (a security skill, a red-team checklist) rather than
#: carrying one: its matches are descriptions.
_DESCRIBING = re.compile(
    r"\b(?:injection|jailbreak\w*|attack\w*|malicious|adversar\w*|exploit\w*|threat\w*|"
    r"phishing|red[- ]team\w*|detect\w*|for\s+example|such\s+as|(?:patterns?|phrases?)\s+"
    r"like|examples?)\b|\be\.g\.",
    re.IGNORECASE,
)
_URL = re.compile(r"\S+://\S+")


#: Words one of which every _INJECTION match holds (lowercase): a line without any is not
#: searched (the regular expression is slow on every line of a large corpus).
_INJECTION_HINTS = (
    "ignore", "disregard", "forget", "override", "bypass", "you are now", "the user",
    "system prompt", "im_start", "send", "post", "upload", "exfiltrate", "transmit",
)  # fmt: skip


#: Any of :data:`_INJECTION_HINTS` (one search instead of a test of each).
_INJECTION_HINT = re.compile("|".join(map(re.escape, _INJECTION_HINTS)))
#: What stands between two words of a hint as written: white space, a line break too, and
#: the block-quote markers starting the next line (``the`` / ``> user``: a quoted paragraph
#: wrapped, which a reader reads as one).
HINT_SPACE = r"\s+(?:>[ \t]*)*"
#: What is looked for in a text to find the lines holding one of :data:`_INJECTION_HINTS`:
#: the words sharing a letter three at a time (one search each, :func:`any_of`); the words
#: of a hint apart over a line break too (a wrapped paragraph is read whole, a quoted one
#: too), found on the line where the hint starts.
_INJECTION_SEARCHED: Words = (
    any_of(("ignore", "disregard", "forget"), "g"),
    any_of(("bypass", "you are now", "system prompt"), "y", HINT_SPACE),
    any_of(("post", "upload"), "p"),
    "override", re.compile(f"the{HINT_SPACE}user"), "im_start", "send", "exfiltrate",
    "transmit",
)  # fmt: skip
#: A character reference (``&#105;``, ``&#x69;``, ``&colon;``; lowercase), which may write
#: a letter of a hint or the punctuation of a phrase: a line holding one is read too, as
#: decoded.
_REFERENCE = re.compile(r"&(?:#[0-9]|#x[0-9a-f]|[a-z][a-z0-9]*;)")
#: What the lines read are looked for by.
_SEARCHED: Words = (*_INJECTION_SEARCHED, _REFERENCE)
#: For each alternative of :data:`_INJECTION`, groups of words (lowercase) a line matching
#: it holds one word of each (the rarest group first): a line holding no alternative's
#: words is not searched.
_INJECTION_WORDS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("ignore", "disregard", "forget", "override", "bypass"),
     ("instruction", "prompt", "rules", "directive", "guideline", "message")),
    (("dan", "developer", "jailbroken", "unrestricted", "unfiltered"), ("now",), ("you",)),
    (("tell", "inform", "alert", "notify", "warn", "let"), ("not", "don't", "never"),
     ("user",)),
    (("prompt",), ("system",), ("new",), (":",)),
    (("<|im_start|>",),),
    (("reveal", "print", "output", "repeat", "leak"), ("prompt", "instructions")),
    (("://",), ("credentials", "api", "secrets", "passwords", "private", "tokens"),
     ("send", "post", "upload", "exfiltrate", "transmit")),
)  # fmt: skip
#: Characters a case-insensitive pattern matches with an ASCII letter though their
#: lowercase is not that letter (U+0130 lowercases to ``i`` and U+0307, U+0131, U+017F):
#: a line holding one may match without holding the lowercase words.
_FOLDS_APART = ("\u0307", "\u0131", "\u017f")


def _may_inject(lowered: str) -> bool:
    """Whether a lowercased line may match :data:`_INJECTION` (:data:`_INJECTION_WORDS`)."""
    for char in _FOLDS_APART:
        if char in lowered:
            return True
    for groups in _INJECTION_WORDS:  # (loops, not any(): twice as fast)
        for group in groups:
            for word in group:
                if word in lowered:
                    break
            else:  # none of the group's words
                break
        else:  # a word of each group
            return True
    return False


def injections(text: str, starts: Sequence[int] = (0,)) -> Iterator[re.Match[str]]:
    """The matches of :data:`_INJECTION` in ``text`` that are not quoted and not on a line
    describing attacks (``starts``: where each line of ``text`` starts; one by default). The
    lines a match is on are judged once for all their matches (non-overlapping matches share
    a line range or touch at its ends: linear in ``text``, not matches times line length)."""
    lowered = text.lower()
    if not _INJECTION_HINT.search(lowered) or not _may_inject(lowered):
        return
    firsts, ends = _code_ranges(text, starts)
    describing: dict[tuple[int, int], bool] = {}  # lines judged: once each, not per match
    for match in _INJECTION.finditer(text):
        quoted = bisect.bisect_right(firsts, match.start()) - 1
        if quoted >= 0 and ends[quoted] >= match.end():
            continue
        first = bisect.bisect_right(starts, match.start()) - 1
        last = bisect.bisect_left(starts, match.end(), first + 1)
        if (first, last) not in describing:
            lines = text[starts[first] : starts[last] if last < len(starts) else len(text)]
            describing[first, last] = bool(_DESCRIBING.search(_URL.sub("", lines)))
        if not describing[first, last]:
            yield match


def _inline_blocks(inlines: Sequence[tuple[int, int, str]], number: int) -> list[int]:
    """Which of ``inlines`` (:attr:`~skillc_index.MarkdownDoc.inlines`, their lines apart
    but for the cells of a table row) hold line ``number``: a paragraph's or a heading's
    index, a table row's cells', or none."""
    at = bisect.bisect_right(inlines, number, key=_first_line) - 1
    if at < 0 or inlines[at][1] < number:
        return []
    found = [at]
    while at > 0 and inlines[at - 1][0] == inlines[found[0]][0]:
        at -= 1
        found.append(at)
    return found


def _first_line(inline: tuple[int, int, str]) -> int:
    return inline[0]


def _shown(line: str) -> str:
    """A ``line`` of the body that no paragraph holds (an HTML block's, or beyond the parse
    a link reference definition) as a reader sees it: its character references decoded (a
    browser's)."""
    if "&" not in line:
        return line
    import html

    return html.unescape(line)


#: A run of characters but white space: a word of a YAML scalar, as written and as read.
_WORD = re.compile(r"\S+")


def _scalar_span(node: Any, block: str) -> tuple[int, int, int]:
    """Where in ``block`` (the frontmatter's text) a scalar ``node`` is written, its quotes
    too, and the line of ``block`` it starts on: a block scalar's from the line after its
    header (``>-``, a comment: no text of the value)."""
    start, end = node.start_mark.index, node.end_mark.index
    first = node.start_mark.line
    if node.style in ("|", ">"):
        header = block.find("\n", start, end)
        start, first = (end, first) if header < 0 else (header + 1, first + 1)
    return start, end, first


def _scalar_lines(node: Any, block: str) -> tuple[list[int], list[int]]:
    """Where in a scalar ``node``'s value (folded, as YAML reads it) each of its source
    lines starts and which line of ``block`` (the frontmatter's text) that is, for the
    lines holding a word: YAML's folding joins the lines of a plain, quoted or block
    scalar without adding, dropping or splitting a word, so the n-th word read is the
    n-th written. The first line alone when an escape made the words differ
    (``"a\\nb"``)."""
    start, end, first = _scalar_span(node, block)
    if node.style in ("'", '"'):
        start, end = start + 1, end - 1  # the quotes
    written = [len(_WORD.findall(line)) for line in block[start:end].split("\n")]
    read = [m.start() for m in _WORD.finditer(node.value)]
    if sum(written) != len(read):
        return [0], [first]
    starts, numbers, words = [0], [first], 0
    for at, count in enumerate(written):
        if count and words:
            starts.append(read[words])
            numbers.append(first + at)
        elif count:
            numbers[0] = first + at
        words += count
    return starts, numbers


def _frontmatter_injections(doc: MarkdownDoc) -> Iterator[tuple[int, re.Match[str]]]:
    """The matches of :func:`injections` in the values and keys of ``doc``'s frontmatter as
    YAML reads them (a folded or literal scalar's lines joined), each with the file line
    its phrase starts on; composed again within the frontmatter's bounds, each node read
    once (aliases share them). Raises :class:`~skillc_index.markdown.frontmatter.YAMLProblem`
    when the block does not read (then it is read line by line). A node holding a list is a
    mapping (of key and value pairs) or a sequence, any other a scalar: no PyYAML import here
    (lint reads YAML through skillc-index's bounded loader only)."""
    from skillc_index.markdown.frontmatter import load_bounded_yaml

    block = doc.frontmatter.text
    _data, root, _lines = load_bounded_yaml(block)
    stack, seen, spans = [root], set(), []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node.value, list):  # a mapping's (key, value) pairs, a sequence's items
            stack += reversed([i for e in node.value for i in (e if type(e) is tuple else (e,))])
        else:
            spans.append(_scalar_span(node, block)[:2])
            yield from _scalar_injections(node, block)
    yield from _outside_injections(block, spans)


def _outside_injections(
    block: str, spans: list[tuple[int, int]]
) -> Iterator[tuple[int, re.Match[str]]]:
    """The matches of :func:`injections` in the frontmatter's text ``block`` outside every
    scalar (``spans``: where each is written): its comments, which an agent reading the
    file reads too, line by line, each with its file line. A line is searched whole (a
    value describing attacks describes its comment's phrase too), a match kept when it
    starts outside the scalars."""
    outside = list(block)
    for start, end in spans:
        outside[start:end] = ["\n" if c == "\n" else "\0" for c in block[start:end]]
    shown = "".join(outside).split("\n")
    for number, line in enumerate(block.split("\n")):
        rest = shown[number].replace("\0", " ")
        if rest.strip() and _may_inject(rest.lower()):
            for match in injections(line):
                if shown[number][match.start()] != "\0":
                    yield number + 2, match  # (the block starts on line 2)


def _scalar_injections(node: Any, block: str) -> Iterator[tuple[int, re.Match[str]]]:
    """:func:`_frontmatter_injections` of one scalar ``node`` of the frontmatter's text
    ``block`` (a literal's line breaks read as spaces, as a paragraph's)."""
    shown = node.value.replace("\n", " ")
    lowered = shown.lower()
    if _INJECTION_HINT.search(lowered) and _may_inject(lowered):
        starts, numbers = _scalar_lines(node, block)
        for match in injections(shown, starts):
            at = numbers[bisect.bisect_right(starts, match.start()) - 1]
            yield at + 2, match  # (the block starts on line 2)


def _escaped(text: str) -> bool:
    """Whether a frontmatter's ``text`` may hold a double-quoted scalar with an escape
    (``"\\x49gnore ..."``, ``"\\u0049..."``, a line joined by ``\\``), whose words YAML
    reads other than written: its values are judged as read whatever its lines hold (a quick
    test: almost no frontmatter holds a backslash)."""
    return "\\" in text and '"' in text


def _frontmatter_found(doc: MarkdownDoc) -> list[tuple[int, re.Match[str]]] | None:
    """:func:`_frontmatter_injections` of ``doc``; None when YAML does not read its
    frontmatter (SKL100 says so): then its lines are read each apart."""
    if doc.frontmatter.data is None or not doc.frontmatter.text:
        return None
    text = doc.frontmatter.text
    if not _may_inject(text.lower()) and not _escaped(text):  # (most: a hint's word alone)
        return []
    from skillc_index.markdown.frontmatter import YAMLProblem

    try:
        return list(_frontmatter_injections(doc))
    except YAMLProblem:  # (the bounds the parse read it within: never)
        return None


def _html_injections(html: Html) -> Iterator[tuple[int, re.Match[str]]]:
    """The matches of :func:`injections` in an HTML block as a browser shows its text: its
    lines joined, character references decoded; each with the line its phrase starts on."""
    lines = [_shown(line) for line in html.source.split("\n")]
    starts = [0, *itertools.accumulate(len(line) + 1 for line in lines[:-1])]
    for match in injections(" ".join(lines), starts):  # (a line break is a space to a browser)
        yield html.line + bisect.bisect_right(starts, match.start()) - 1, match


def _block_holding(blocks: Sequence[Html], number: int) -> int:
    """Which of the HTML ``blocks`` (in order) holds line ``number``; -1: none."""
    at = bisect.bisect_right(blocks, number, key=_html_line) - 1
    if at >= 0 and number < blocks[at].line + len(blocks[at].source.rstrip("\n").split("\n")):
        return at
    return -1


def _html_line(html: Html) -> int:
    return html.line


def prompt_injection(skill: Skill, options: Options) -> Findings:
    """SKL903: no phrasing aimed at the agent against its instructions or its user (ignore
    previous instructions, do not tell the user, send the keys to a URL). Text is read as a
    reader sees it: a paragraph (a heading, a table cell) as rendered
    (:func:`skillc_index.inline_text`: emphasis, HTML, character references and block-quote
    markers do not split a phrase, nor do its line breaks; a reference does not hide a word,
    ``&#105;gnore``), an HTML block's text with its lines joined and its references decoded
    as a browser decodes them, the frontmatter's values as YAML reads them (a folded or
    literal scalar's lines joined, its escapes decoded, ``"\\x49gnore ..."``; no reference
    decoded), other text line by line; code is
    skipped, and so are quotes and lines describing attacks. A finding is on the line where
    its phrase starts."""
    for rel, text in markdown_texts(skill):
        hinted = lines_holding(
            text, _SEARCHED, searched=lowered_text(skill, rel, text), lines=skill.lines(rel)
        )
        # (an escape in a quoted value may write a hint's letter: then the values are read)
        escaped = text.startswith(("---", "\ufeff---")) and _escaped(text)
        doc = skill.docs[rel] if hinted or escaped else None
        read: set[int] = set()  # the inline blocks read (by index), the HTML blocks (-1 - index)
        blocks: list[Html] | None = None  # the HTML blocks, once a line outside paragraphs asks
        front: list[tuple[int, re.Match[str]]] | None = None  # the frontmatter's (None: by line)
        front_read = False
        if doc is not None and escaped and _escaped(doc.frontmatter.text):
            front_read, front = True, _frontmatter_found(doc)
            for at, match in front or []:
                yield _finding(match, rel, at)
        for number, line in hinted:
            if doc is None or in_code(doc.code_blocks, number):
                continue
            found: list[tuple[int, re.Match[str]]] = []
            holding: list[int] = []
            if number < doc.frontmatter.body_start:
                if not front_read:
                    front_read, front = True, _frontmatter_found(doc)
                    found = front or []
                if front is None:
                    found = [(number, m) for m in injections(line)]
            elif not (holding := _inline_blocks(doc.inlines, number)):
                if blocks is None:
                    blocks = [html for html in doc.html if html.block]
                at = _block_holding(blocks, number)
                if at < 0:
                    found = [(number, m) for m in injections(_shown(line))]
                elif -1 - at not in read:
                    read.add(-1 - at)
                    found = list(_html_injections(blocks[at]))
            for index in holding:
                first, _last, source = doc.inlines[index]
                # (a reference may write a hint's letter: then the text shown is searched)
                if index in read or ("&" not in source and not _may_inject(source.lower())):
                    continue
                read.add(index)
                shown, starts = inline_text(source)
                found += [
                    (first + bisect.bisect_right(starts, m.start()) - 1, m)
                    for m in injections(shown, starts)
                ]
            for at, match in found:
                yield _finding(match, rel, at)


def _finding(match: re.Match[str], rel: str, line: int) -> Finding:
    phrase = " ".join(match.group().split())
    return Finding(f"text aimed at the agent: '{phrase}'", file=rel, line=line)
