"""Security rules (SKL901-SKL908, tag ``security``): skills come from strangers.

An agent reads a skill's text as instructions and may run its scripts. These rules look for
what a reviewer would want to see before that happens: characters a reader cannot see, text
hidden from the rendered page, phrasing that turns the agent against its user, secrets, code
fetched and run in one step, tool grants that allow anything, and scripts nobody mentions.

Every file of the skill is read at most once and only its first
:data:`~skillc_lint._probes.TEXT_LIMIT` bytes (binary files are skipped); nothing is executed.
The phrase rules skip text that *describes* an attack rather than makes one: a match quoted,
in code, or on a line that talks about injection, attacks or examples.
"""

from __future__ import annotations

import bisect
import itertools
import posixpath
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from skillc_index import inline_text
from skillc_index.markdown.reading import is_markdown
from skillc_index.secrets import masked_line, secrets_in
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import (
    Findings,
    Options,
    Words,
    any_of,
    code_blocks,
    field_line,
    frontmatter,
    in_code,
    line_of,
    lines_holding,
    lowered_text,
    text_files,
)
from skillc_lint._rules.invisible import hidden_characters
from skillc_lint._skill import Skill

if TYPE_CHECKING:
    from skillc_index import Html

__all__ = ["RULES"]

TAGS = ("security",)

# -- reading ----------------------------------------------------------------------------------


def _markdown(skill: Skill) -> Iterator[tuple[str, str]]:
    """Every Markdown file of the skill with its text (what the agent reads as prose)."""
    for rel in skill.docs:
        text = skill.text(rel)
        if text is not None:
            yield rel, text


#: A quote (:func:`_code_ranges` looks for it on each line apart).
_QUOTE = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d|(?<![\w])'[^']{6,}'(?![\w])")


def _code_ranges(text: str, starts: Sequence[int] = (0,)) -> tuple[list[int], list[int]]:
    """What ``text`` quotes rather than says, found once for all its matches: inline code
    and quotes, a quote ending at its line (``starts``: where each line starts; an opened
    quote hides no later line). The starts of the spans, in order, and for each the
    furthest end of it and those before: a match is in one when that end reaches it."""
    spans = [m.span() for m in re.finditer(r"`[^`]*`", text)]  # a code span: over lines too
    for first, end in zip(starts, [*starts[1:], len(text)], strict=True):
        spans += [m.span() for m in _QUOTE.finditer(text, first, end)]
    spans.sort()
    return [a for a, _ in spans], list(itertools.accumulate((b for _, b in spans), max))


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
#: What is looked for in a text to find the lines holding one of :data:`_INJECTION_HINTS`:
#: the words sharing a letter three at a time (one search each, :func:`any_of`); the words
#: of a hint apart over a line break too (a wrapped paragraph is read whole), found on the
#: line where the hint starts.
_INJECTION_SEARCHED: Words = (
    any_of(("ignore", "disregard", "forget"), "g"),
    any_of(("bypass", "you are now", "system prompt"), "y", r"\s+"),
    any_of(("post", "upload"), "p"),
    "override", re.compile(r"the\s+user"), "im_start", "send", "exfiltrate", "transmit",
)  # fmt: skip
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


def _injections(text: str, starts: Sequence[int] = (0,)) -> Iterator[re.Match[str]]:
    """The matches of :data:`_INJECTION` in ``text`` that are not quoted and not on a line
    describing attacks (``starts``: where each line of ``text`` starts; one by default)."""
    lowered = text.lower()
    if not _INJECTION_HINT.search(lowered) or not _may_inject(lowered):
        return
    firsts, ends = _code_ranges(text, starts)
    for match in _INJECTION.finditer(text):
        quoted = bisect.bisect_right(firsts, match.start()) - 1
        if quoted >= 0 and ends[quoted] >= match.end():
            continue
        first = bisect.bisect_right(starts, match.start()) - 1
        last = bisect.bisect_left(starts, match.end(), first + 1)
        lines = text[starts[first] : starts[last] if last < len(starts) else len(text)]
        if not _DESCRIBING.search(_URL.sub("", lines)):
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


def prompt_injection(skill: Skill, options: Options) -> Findings:
    """SKL903: no phrasing aimed at the agent against its instructions or its user (ignore
    previous instructions, do not tell the user, send the keys to a URL). A paragraph (a
    heading, a table cell) is read as a reader sees it (:func:`skillc_index.inline_text`:
    emphasis, HTML and entities do not split a phrase, nor do its line breaks), other text
    (the frontmatter, HTML blocks) line by line; code is skipped, and so are quotes and
    lines describing attacks. A finding is on the line where its phrase starts."""
    for rel, text in _markdown(skill):
        hinted = lines_holding(
            text,
            _INJECTION_SEARCHED,
            searched=lowered_text(skill, rel, text),
            lines=skill.lines(rel),
        )
        doc = skill.docs[rel] if hinted else None
        read: set[int] = set()  # the inline blocks read (by index)
        for number, line in hinted:
            if doc is None or in_code(doc.code_blocks, number):
                continue
            holding = _inline_blocks(doc.inlines, number)
            found = [] if holding else [(number, m) for m in _injections(line)]
            for index in holding:
                first, _last, source = doc.inlines[index]
                if index in read or not _may_inject(source.lower()):
                    continue
                read.add(index)
                shown, starts = inline_text(source)
                found += [
                    (first + bisect.bisect_right(starts, m.start()) - 1, m)
                    for m in _injections(shown, starts)
                ]
            for at, match in found:
                phrase = " ".join(match.group().split())
                yield Finding(f"text aimed at the agent: '{phrase}'", file=rel, line=at)


# -- SKL902 hidden instructions -----------------------------------------------------------------

#: A comment speaking to the agent (not one about it: "rules the agent must follow" is a
#: note to the author): addressing it, or asking for something done out of sight.
_AGENT_ADDRESS = re.compile(
    r"^\s*(?:note\s+(?:to|for)\s+(?:the\s+)?)?(?:AI|assistant|agent|Claude|LLM|model)s?\s*[,:]"
    r"|\bif\s+you\s+are\s+(?:an?\s+)?(?:AI|LLM|language\s+model|assistant|agent|Claude)\b"
    r"|\b(?:AI|LLM|assistant|agent|Claude)s?\s+(?:reading|processing)\s+this\b"
    r"|\b(?:secretly|covertly|without\s+(?:mentioning|telling)\b)",
    re.IGNORECASE,
)
#: The start of an opening tag: ``<`` and its name.
_OPENING = re.compile(r"<[a-z][a-z0-9]*\b", re.IGNORECASE)
#: An opening tag a rendered page hides, with what it holds.
_HIDING = re.compile(
    _OPENING.pattern + r"[^>]*?(?:(?<=\s)hidden\b(?!\s*=\s*[\"']?false)|style\s*=\s*[\"'][^\"']*"
    r"(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em|rem|%)?\s*"
    r"(?:;|[\"'])|opacity\s*:\s*0(?:\.0+)?\s*(?:;|[\"'])|(?:width|height)\s*:\s*0(?:px)?\s*"
    r"(?:;|[\"'])))[^>]*>",
    re.IGNORECASE,
)


def _comments(source: str) -> Iterator[tuple[int, str]]:
    """The start and the text of each HTML comment (``<!--`` to the first ``-->``) of
    ``source``, found with linear scans: an unclosed one ends the search (nothing after it
    closes either)."""
    end = 0
    while (start := source.find("<!--", end)) >= 0:
        close = source.find("-->", start + 4)
        if close < 0:
            return
        yield start, source[start + 4 : close]
        end = close + 3


def _hiding_tags(source: str) -> Iterator[re.Match[str]]:
    """The matches of :data:`_HIDING` in ``source``, those ``finditer`` gives, in linear
    time: a tag whose opening reads and whose attributes do not fails for every ``<`` after
    it up to its ``>`` too (each sees fewer of the same attributes), so the search goes on
    after that ``>``; nothing matches after the last ``>``. (``finditer`` tried each ``<``
    up to the end: quadratic on thousands of ``<a`` with no ``>``.)"""
    at, close = 0, -1
    while (start := source.find("<", at)) >= 0:
        if close < start and (close := source.find(">", start)) < 0:
            return
        match = _HIDING.match(source, start)
        if match is not None:
            yield match
            at = match.end()
        else:
            at = close + 1 if _OPENING.match(source, start) else start + 1


def _hidden_text(html: Html, end: int) -> str:
    """The text a hiding tag ending at ``end`` of ``html`` holds: what follows it in the same
    HTML up to the next tag, or, when the tag ends its HTML, the text shown after it (an
    inline tag's content, or the paragraphs under a tag alone on its line). "" when the
    next thing is another tag."""
    source = html.source
    following = source.find("<", end)
    before = source[end:] if following < 0 else source[end:following]
    if following >= 0 or before.strip():
        return " ".join(before.split())
    return html.text_after


def _line_in(html: Html, offset: int, breaks: list[int]) -> int:
    """The file line of ``offset`` of ``html.source``. ``breaks`` starts empty and holds the
    offsets of the source's line breaks after the first call: many findings in one HTML
    block cost one scan of it, not one each."""
    if not breaks:
        breaks += [-1, *(match.start() for match in re.finditer("\n", html.source))]
    return html.line + bisect.bisect_right(breaks, offset) - 1


def hidden_instructions(skill: Skill, options: Options) -> Findings:
    """SKL902: no instructions where the rendered page does not show them: an HTML comment
    to the agent, text in hidden markup, blocks nested deeper than the parser reads. HTML is
    what it reads as HTML (``MarkdownDoc.html``): no code span or block, no bare ``<``."""
    for rel, doc in skill.docs.items():
        if doc.nested_cut is not None:  # renderers built on markdown-it drop them too
            yield Finding(
                "blocks nested deeper than 20 levels: no check reads them", rel, doc.nested_cut
            )
        for html in doc.html:
            source = html.source
            breaks: list[int] = []
            for start, body in _comments(source):
                if re.match(r"\s*skillc-lint\s*:", body):
                    continue  # a suppression comment, meant for the linter
                starts = [0, *(m.end() for m in re.finditer("\n", body))]  # lines joined
                injected = next(_injections(body.replace("\n", " "), starts), None)
                hit = injected or _AGENT_ADDRESS.search(body)
                if hit:
                    yield Finding(
                        f"HTML comment with instructions for the agent, hidden from readers: "
                        f"'{' '.join(hit.group().split())}'",
                        file=rel,
                        line=_line_in(html, start, breaks),
                    )
            for match in _hiding_tags(source):
                shown = _hidden_text(html, match.end())[:60]
                if shown:
                    yield Finding(
                        f"text in hidden markup, read by the agent and not shown to readers: "
                        f"'{shown}'",
                        file=rel,
                        line=_line_in(html, match.start(), breaks),
                    )


# -- SKL904 secrets ---------------------------------------------------------------------------


def embedded_secrets(skill: Skill, options: Options) -> Findings:
    """SKL904: no API keys, tokens or private keys in the skill's files (placeholders such as
    ``AKIAIOSFODNN7EXAMPLE`` or ``sk-...xxxx`` are not reported): the keys of
    :func:`skillc_index.secrets.secrets_in`, which ``skc package`` warns of too."""
    for rel, text in text_files(skill):
        for secret in secrets_in(text):
            shown = f" ({secret.masked})" if secret.masked else ""
            yield Finding(
                f"{secret.kind} in the skill{shown}: anyone who installs the skill can read it",
                file=rel,
                line=line_of(skill, rel, text, secret.offset),
            )


# -- SKL905 remote code -----------------------------------------------------------------------

_FETCH = r"(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b"
#: What a line must hold for _REMOTE_CODE to match (lowercase): a fetch command.
_FETCH_HINTS = ("curl", "wget", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "webclient")
#: What is looked for in a text to find those lines: the two ``invoke-`` commands at once,
#: the words with a ``w`` in one search (:func:`any_of`), the lines then kept when they
#: hold a word of :data:`_FETCH_HINTS`.
_FETCH_SEARCHED: Words = ("curl", any_of(("wget", "iwr", "webclient"), "w"), "irm", "invoke-")
_RUNNER = (
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z|k|da|fi|c)?sh|python[0-9.]*|node|perl|ruby|php|"
    r"iex|Invoke-Expression|pwsh|powershell)\b"
)
_REMOTE_CODE = re.compile(
    rf"\b{_FETCH}[^|\n;&]*\|\s*{_RUNNER}(?!\s*-m\s+json)"
    rf"|\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?\$\(\s*{_FETCH}"
    rf"|(?:\b(?:ba|z)?sh|\bsource|(?<![\w.])\.)\s+<\(\s*{_FETCH}"
    r"|\b(?:iex|Invoke-Expression)\s*[\(\s]\s*\(?\s*(?:iwr|irm|Invoke-WebRequest|"
    r"Invoke-RestMethod|New-Object\s+(?:System\.)?Net\.WebClient)",
    re.IGNORECASE,
)
#: A line warning against the pattern: its match is advice, not an instruction.
_WARNING_AGAINST = re.compile(
    r"\b(?:never|avoid|don't|do\s+not|instead\s+of|dangerous|insecure|unsafe|risky|"
    r"anti-?pattern)\b",
    re.IGNORECASE,
)


#: The most lines a command's trailing backslashes continue it onto (:func:`_continued`).
_CONTINUED_LINES = 20


def _continued(skill: Skill, rel: str, number: int, line: str) -> tuple[str, int]:
    """Line ``number`` of the file ``rel`` (``line``) with the lines a backslash at its end
    continues it onto, joined by a space, in a script (any file not Markdown) or a Markdown
    code block (in prose a backslash ends a line, it continues no command); and the last
    line taken. At most :data:`_CONTINUED_LINES` more."""
    if not line.endswith("\\"):
        return line, number
    blocks = code_blocks(skill, rel) if rel in skill.texts else None  # Markdown: its code
    if blocks is not None and not in_code(blocks, number):
        return line, number
    lines = skill.text_lines(rel)
    last = min(len(lines), number + _CONTINUED_LINES)
    taken = number
    while line.endswith("\\") and taken < last and (blocks is None or in_code(blocks, taken + 1)):
        line = f"{line[:-1]} {lines[taken]}"  # (lines[taken] is line taken + 1)
        taken += 1
    return line, taken


def remote_code(skill: Skill, options: Options) -> Findings:
    """SKL905: no code downloaded and run in one step (``curl … | sh``, ``wget -O- | bash``,
    ``bash -c "$(curl …)"``, ``iex (iwr …)``) in the instructions or the scripts, a command
    continued over lines by backslashes too (reported at its first line)."""
    for rel, text in text_files(skill):
        taken = 0  # the last line a command continued onto: read with its first line
        for number, line in lines_holding(
            text, _FETCH_SEARCHED, searched=lowered_text(skill, rel, text)
        ):
            lowered = line.lower()
            if number <= taken or not any(word in lowered for word in _FETCH_HINTS):
                continue
            line, taken = _continued(skill, rel, number, line)
            match = _REMOTE_CODE.search(line)
            if match and not _WARNING_AGAINST.search(line):
                shown = " ".join(match.group().split())
                yield Finding(
                    f"downloads and runs code in one step ('{shown}'): nothing checks what runs",
                    file=rel,
                    line=number,
                )


# -- SKL906 allowed-tools ---------------------------------------------------------------------

_TOOL = re.compile(r"[A-Za-z_][\w.-]*(?:\([^)]*\))?")
_SHELL_TOOLS = ("bash", "powershell")
_ANY = re.compile(r"\s*[*:]*\s*\**\s*\Z")
_NETWORK_COMMAND = re.compile(
    r"\s*(?:sudo\s+)?(?:curl|wget|nc|ncat|netcat|ssh|scp|sftp|rsync|ftp|telnet|socat)"
    r"(?:\s*:?\s*\*+)?\s*\Z",
    re.IGNORECASE,
)
#: Commands that destroy data whatever their arguments (``rm -rf``, ``rm:*``, ``dd``...).
_DESTRUCTIVE = re.compile(
    r"\s*(?:sudo\s+)?(?:rm\s+-\w*[rRf]|rm\s*:?\s*\*|dd\b|mkfs|shred\b|"
    r"ch(?:mod|own)\s+-R|git\s+push\s+(?:-f\b|--force)|git\s+reset\s+--hard)",
    re.IGNORECASE,
)
_ANY_CODE = re.compile(
    r"\s*(?:sudo|eval|exec|(?:ba|z|da|k)?sh|env|xargs)(?:\s*:?\s*\*+)?\s*\Z", re.IGNORECASE
)


def _tools(value: object) -> list[str]:
    if isinstance(value, str):
        return _TOOL.findall(value)
    if isinstance(value, list):
        return [tool for item in value if isinstance(item, str) for tool in _TOOL.findall(item)]
    return []


def _broad(tool: str) -> str | None:
    """Why a granted tool allows too much, or None."""
    name, _, argument = tool.partition("(")
    argument = argument.removesuffix(")")
    lowered = name.lower()
    if lowered in _SHELL_TOOLS:
        if "(" not in tool or _ANY.match(argument):
            return "any shell command"
        if _NETWORK_COMMAND.match(argument):
            return "any network transfer"
        if _ANY_CODE.match(argument):
            return "any shell command (through a wrapper)"
        if _DESTRUCTIVE.match(argument):
            return "a command that destroys data"
    elif lowered == "webfetch" and ("(" not in tool or _ANY.match(argument)):
        return "fetching any URL"
    return None


def allowed_tools_broad(skill: Skill, options: Options) -> Findings:
    """SKL906: ``allowed-tools`` grants no unrestricted tool: bare ``Bash``, ``Bash(*)``,
    ``Bash(curl:*)`` and other network commands, ``WebFetch`` with no domain."""
    value = frontmatter(skill).get("allowed-tools")
    line = field_line(skill, "allowed-tools")
    for tool in dict.fromkeys(_tools(value)):
        why = _broad(tool)
        if why:
            yield Finding(f"allowed-tools grants '{tool}': {why}, without asking", line=line)


# -- SKL907 / SKL908 scripts ------------------------------------------------------------------

SCRIPT_SUFFIXES = (
    ".sh", ".bash", ".zsh", ".fish", ".ps1", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb",
    ".pl", ".php", ".bat", ".cmd",
)  # fmt: skip
#: Files that are part of a program, never run on their own (a package marker, test files).
_NOT_ENTRY = re.compile(r"(?:^|/)(?:__init__\.py|conftest\.py|tests?/|__pycache__/|node_modules/)")


def _scripts(skill: Skill) -> list[str]:
    return [
        rel
        for rel in skill.files
        if rel.lower().endswith(SCRIPT_SUFFIXES) and not _NOT_ENTRY.search(rel)
    ]


def _mentioned(rel: str, texts: dict[str, str]) -> bool:
    """Whether a script is named (its path or file name) in a Markdown file, or imported or
    called by another script (its name without suffix, as a word)."""
    name = posixpath.basename(rel)
    stem = posixpath.splitext(name)[0]
    word = re.compile(rf"(?<![\w-]){re.escape(stem)}(?![\w-])")
    for other, text in texts.items():
        if other == rel:
            continue
        if is_markdown(other):
            if name in text:
                return True
        elif word.search(text):
            return True
    return False


def unreferenced_scripts(skill: Skill, options: Options) -> Findings:
    """SKL907: every script of the skill is named in its Markdown (or used by another
    script): a script no instruction mentions is code nobody reviews for what it does."""
    scripts = _scripts(skill)
    if not scripts:
        return
    texts = {rel: text for rel in [*skill.docs, *scripts] if (text := skill.text(rel))}
    for rel in scripts:
        if not _mentioned(rel, texts):
            yield Finding(
                f"script {rel} is not mentioned in SKILL.md or any file of the skill", file=rel
            )


_PREFIX = r"(?:\./|\{baseDir\}/|\$\{?CLAUDE_SKILL_DIR\}?/|\$\{?SKILL_DIR\}?/)?"


def not_executable(skill: Skill, options: Options) -> Findings:
    """SKL908: a script the instructions run as a command (``scripts/x.sh``, ``./x.sh``,
    ``{baseDir}/scripts/x.sh`` first on a command line) has an execute bit; one run through
    an interpreter (``bash scripts/x.sh``) needs none."""
    scripts = [rel for rel in _scripts(skill) if not rel.lower().endswith((".bat", ".cmd"))]
    if not scripts:
        return
    for rel, text in _markdown(skill):
        folder = posixpath.dirname(rel)
        for script in scripts:
            written = posixpath.relpath(script, folder or ".")
            command = re.compile(
                rf"(?:^|[`$;&|(]\s*|^\s*(?:\$|>)\s+|^\s*!`?)(?:sudo\s+)?{_PREFIX}"
                rf"{re.escape(written)}(?=[\s`'\")]|$)",
                re.MULTILINE,
            )
            match = command.search(text)
            if match and not skill.executable(script):
                yield Finding(
                    f"{script} is run as a command here but is not executable "
                    "(chmod +x, or run it through its interpreter)",
                    file=rel,
                    line=line_of(skill, rel, text, match.start()),
                )


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL901",
        "hidden-characters",
        "error",
        hidden_characters,
        "No bidirectional controls, invisible characters or terminal controls in the skill's "
        "files.",
        category="agentskills",
        tags=TAGS,
        rationale="Bidirectional controls reorder what an editor shows (Trojan Source), "
        "zero-width or tag characters carry text no reviewer sees, and a terminal escape "
        "sequence conceals or erases text when the file is shown with `cat`; the agent reads "
        "every one of them, so a skill can say one thing to its reviewer and another to the "
        "agent.",
        fix="Delete the character (the message names it and its line; `grep -nP "
        "'[\\x{200B}\\x{202A}-\\x{202E}\\x{2066}-\\x{2069}\\x00-\\x08\\x0B\\x0E-\\x1F\\x7F]'` "
        "finds them). If the text needs right-to-left words, write them without embedding "
        "controls.",
    ),
    Rule(
        "SKL902",
        "hidden-instructions",
        "error",
        hidden_instructions,
        "No instructions for the agent in HTML comments or hidden markup.",
        category="agentskills",
        tags=TAGS,
        rationale="A rendered SKILL.md hides HTML comments and zero-size or `display:none` "
        "markup, but the agent reads the raw text: instructions there reach the agent "
        "without ever being seen by the person who installs the skill.",
        fix="Move the instruction into the visible text, or delete it. Comments for authors "
        "are fine as long as they do not address the agent.",
    ),
    Rule(
        "SKL903",
        "prompt-injection",
        "error",
        prompt_injection,
        "No phrasing that turns the agent against its instructions or its user.",
        category="agentskills",
        tags=TAGS,
        rationale="'Ignore previous instructions', 'do not tell the user' or 'send the keys "
        "to <url>' are how an injected skill takes over an agent. Text that quotes such "
        "phrases (in code, in quotes, or on a line about injection or attacks) is a "
        "description and is not reported.",
        fix="Remove the phrase. A skill that teaches about injection should quote the "
        "examples (in backticks or a code block) so they read as examples.",
    ),
    Rule(
        "SKL904",
        "embedded-secret",
        "error",
        embedded_secrets,
        "No API keys, tokens or private keys in the skill's files.",
        category="agentskills",
        tags=TAGS,
        rationale="A skill is copied to every machine that installs it: a key in it is "
        "public. AWS, GitHub, OpenAI, Anthropic, Slack, Stripe and Google key shapes and "
        "private key blocks are recognised; placeholders (EXAMPLE, xxxx, <your-key>) are not.",
        fix="Revoke the key at its provider, delete it from the skill (and its history), "
        "and have the skill read it from an environment variable.",
        frame=masked_line,  # skillc_index.secrets's
    ),
    Rule(
        "SKL905",
        "remote-code",
        "warning",
        remote_code,
        "No code downloaded and run in one step (curl | sh, iex (iwr ...)).",
        category="agentskills",
        tags=TAGS,
        rationale="`curl … | sh` runs whatever the server sends at that moment, as the user, "
        "with no chance to read or pin it; an agent following the skill does it without "
        "asking twice.",
        fix="Download to a file, check it (a pinned version and a checksum), then run it; or "
        "install through a package manager.",
    ),
    Rule(
        "SKL906",
        "allowed-tools-broad",
        "warning",
        allowed_tools_broad,
        "allowed-tools grants no unrestricted shell or network tool.",
        category="agentskills",
        tags=TAGS,
        rationale="Tools in `allowed-tools` run without asking the user. Bare `Bash`, "
        "`Bash(*)`, a shell or `sudo` wrapper, `Bash(curl:*)` and other network commands, "
        "or `WebFetch` without a domain let the skill run anything or send anything anywhere.",
        fix="Grant the commands the skill needs, each narrowly: `Bash(git status)`, "
        "`Bash(npm run test:*)`, `WebFetch(domain:docs.example.com)`.",
    ),
    Rule(
        "SKL907",
        "script-unreferenced",
        "warning",
        unreferenced_scripts,
        "Every script of the skill is named in its Markdown or used by another script.",
        category="agentskills",
        tags=TAGS,
        rationale="A script nothing mentions is either dead or run in a way no instruction "
        "shows; either way no reviewer reading the skill learns what it does.",
        fix="Say in SKILL.md (or a linked file) when and how the script is run, or delete it.",
    ),
    Rule(
        "SKL908",
        "script-not-executable",
        "warning",
        not_executable,
        "A script run as a command has its execute bit.",
        category="agentskills",
        tags=TAGS,
        rationale="An instruction that runs `scripts/x.sh` directly fails with 'permission "
        "denied' when the file is not executable, and an agent then improvises another way to "
        "run it.",
        fix="`chmod +x` the script (and commit the mode: `git update-index --chmod=+x`), or "
        "write the command with its interpreter: `bash scripts/x.sh`.",
    ),
)
