"""Security rules (SKL901-SKL908, tag ``security``): skills come from strangers.

An agent reads a skill's text as instructions and may run its scripts. These rules look for
what a reviewer would want to see before that happens: characters a reader cannot see, text
hidden from the rendered page, phrasing that turns the agent against its user, secrets, code
fetched and run in one step, tool grants that allow anything, and scripts nobody mentions.

Every file of the skill is read at most once and only its first
:data:`~skillc_lint._probes.TEXT_LIMIT` bytes (binary files are skipped); nothing is executed.
The phrase rules skip text that *describes* an attack rather than makes one: a match quoted,
in code, or on a line that talks about injection, attacks or examples (the phrases and how a
text is read for them: :mod:`.injection`).
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from skillc_index.markdown.reading import is_markdown
from skillc_index.secrets import masked_line, secrets_in
from skillc_lint._destinations import code_spans
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
    markdown_texts,
    position_of,
    text_files,
)
from skillc_lint._rules.injection import injections, prompt_injection
from skillc_lint._rules.invisible import hidden_characters
from skillc_lint._skill import Skill

if TYPE_CHECKING:
    from skillc_index import Html

__all__ = ["RULES"]

TAGS = ("security",)

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
                injected = next(injections(body.replace("\n", " "), starts), None)
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
            line, column = position_of(skill, rel, text, secret.offset)
            yield Finding(
                f"{secret.kind} in the skill{shown}: anyone who installs the skill can read it",
                file=rel,
                line=line,
                column=column,
            )


# -- SKL905 remote code -----------------------------------------------------------------------

_FETCH = r"(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b"
#: What a line must hold for _PIPED or _REMOTE_CODE to match (lowercase): a fetch command.
_FETCH_HINTS = ("curl", "wget", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "webclient")
#: What is looked for in a text to find those lines: the two ``invoke-`` commands at once,
#: the words with a ``w`` in one search (:func:`any_of`), the lines then kept when they
#: hold a word of :data:`_FETCH_HINTS`.
_FETCH_SEARCHED: Words = ("curl", any_of(("wget", "iwr", "webclient"), "w"), "irm", "invoke-")
_RUNNER = (
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z|k|da|fi|c)?sh|python[0-9.]*|node|perl|ruby|php|"
    r"iex|Invoke-Expression|pwsh|powershell)\b"
)
#: A data consumer given its program inline reads the download as data (as ``| jq`` does):
#: ``python3 -c "import json..."``, ``python3 -m json.tool``, ``node -e``/``-p``, ``perl -ne``,
#: ``ruby -e``; a shell's ``-c`` never (``| bash -c "$(cat)"`` runs the download), nor a
#: program that evaluates what it reads (:data:`_EVALUATES`).
_READS_DATA = re.compile(
    r"(?:python[0-9.]*\s+(?:-m\s+json|-c\b)|node\s+-[ep]\b|(?:perl|ruby)\s+-n?e\b)",
    re.IGNORECASE,
)
#: An inline program that runs what it reads (``python3 -c "exec(sys.stdin.read())"``).
_EVALUATES = re.compile(r"\b(?:exec|eval)\b")
#: The most pipes a download is followed through to a runner (``curl … | tee f | sh``): a
#: longer pipeline is not read further (each fetch's search stays bounded).
_PIPES = 8
#: A command of a pipeline after a pipe, its quoted words whole (``python3 -c "a; b"``); a
#: backtick ends it (a code span's end: the ``|`` after it is a table's, not a pipe).
_STAGE = r"(?:[^|\n;&'\"`]|'[^'\n]*'|\"(?:[^\"\\\n]|\\.)*\")*"
#: After a pipe, the stages a download goes through before a runner, each with the pipe
#: after it (any program passing it on: ``tee``, ``cat``, ``grep``, a data consumer): the
#: fewest that reach one (``||`` is no pipe).
_THROUGH = rf"(?:(?![|&]){_STAGE}\|){{0,{_PIPES - 1}}}?"
#: One command of a pipeline (a data consumer's: where its inline program ends).
_ONE_STAGE = re.compile(_STAGE)
#: From the end of a runner's name: the next runner of its pipeline, :data:`_THROUGH`.
_NEXT_RUNNER = re.compile(rf"{_STAGE}\|{_THROUGH}\s*(?P<runner>{_RUNNER})", re.IGNORECASE)
#: A download piped on to a runner (``curl … | sh``), through :data:`_THROUGH`.
_PIPED = re.compile(rf"\b{_FETCH}[^|\n;&]*\|{_THROUGH}\s*(?P<runner>{_RUNNER})", re.IGNORECASE)
#: The same in a Markdown table row of prose, read as written (:func:`_row_commands`), its
#: first pipe only: ``| Install | curl … | sh |`` (the others are the table's cells:
#: ``| curl | HTTP client | bash |`` runs nothing).
_PIPED_ROW = re.compile(rf"\b{_FETCH}[^|\n;&]*\|\s*(?P<runner>{_RUNNER})", re.IGNORECASE)
#: A pipe of a table row, escaped or not.
_ROW_PIPE = re.compile(r"\\?\|")
#: Where :data:`_PIPED` may start, and what ends its scan for the pipe.
_FETCH_AT = re.compile(rf"\b{_FETCH}", re.IGNORECASE)
_SEPARATOR = re.compile(r"[|\n;&]")
#: A download run by a shell or PowerShell without a pipe.
_REMOTE_CODE = re.compile(
    rf"\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?\$\(\s*{_FETCH}"
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
#: Words saying a command is refused (``curl ... | sh` must be rejected``): counted only in a
#: Markdown paragraph, outside the command (before it, or after the code span holding it),
#: never as an option (``--reject=html``) nor in the command's output (``echo '403 Forbidden'``).
_REFUSED = re.compile(
    r"(?<![\w=-])(?:must\s+not|should\s+not|reject(?:ed)?|forbidden|prohibited|disallowed|"
    r"refused?)\b",
    re.IGNORECASE,
)
#: Text a command prints, not runs: a match inside the quotes of ``echo "install: curl … | sh"``
#: (searched up to the match: the quote is still open there, and no ``$(`` or backtick in
#: double quotes runs a command: ``echo "$(curl … | sh)"`` runs it; single quotes escape
#: nothing, a backslash neither).
_PRINTED = re.compile(
    r"\b(?:echo|printf|print|Write-(?:Host|Output))\s*\(?\s*"
    r"(?:(')[^']*|(\")(?:[^\"\\`$]|\\.|\$(?!\())*)\Z",
    re.IGNORECASE,
)
#: The rest of a quoted text and a pipe on to a runner: ``echo 'curl … | sh' | sh`` runs it.
_QUOTE_RUN = {
    "'": re.compile(rf"[^']*'[^\n;&]*\|\s*{_RUNNER}", re.IGNORECASE),
    '"': re.compile(rf'(?:[^"\\]|\\.)*"[^\n;&]*\|\s*{_RUNNER}', re.IGNORECASE),
}


def _remote_code(line: str, piped: re.Pattern[str]) -> Iterator[re.Match[str]]:
    """The remote-code matches of ``line``, ``piped`` (:data:`_PIPED` or :data:`_PIPED_ROW`)
    or :data:`_REMOTE_CODE`'s, in order and none overlapping, as one pattern's ``finditer``
    (``piped`` first at one place) in linear time: each fetch scans to the same separator
    as the fetches before it up to there, and when its pipe leads to no runner, no fetch
    before that separator is tried again (``curl x 'b' `` 16,000 times then ``| a``: 3.9 s)."""
    other = _REMOTE_CODE.search(line)
    pos = separator = dead = -1  # dead: a separator after which no runner is reached
    for fetch in _FETCH_AT.finditer(line):
        start = fetch.start()
        while other is not None and other.start() < start:
            yield other
            pos = other.end()
            other = _REMOTE_CODE.search(line, pos)
        if start < pos:
            continue
        if start > separator:
            found = _SEPARATOR.search(line, start)
            separator = found.start() if found else len(line)
        if separator == dead:
            continue
        match = piped.match(line, start)
        if match is None:
            dead = separator
            continue
        yield match
        pos = match.end()
        if other is not None and other.start() < pos:
            other = _REMOTE_CODE.search(line, pos)
    while other is not None:
        yield other
        other = _REMOTE_CODE.search(line, other.end())


def _row_commands(row: str) -> str:
    """A Markdown table row of prose as the commands of its cells, offsets kept: a ``|`` not
    escaped and outside a code span, read as a cell's border, made a ``;``, an escaped pipe
    (``\\|``, how a table's cell writes one) a pipe: ``| `curl … \\| sh` |`` and ``| `curl …
    | sh` |`` pipe the download on, ``| curl | HTTP client | bash |`` runs nothing. A ``|`` in
    a code span is read as the author wrote the command, though GFM splits the cell there."""
    spans = iter(code_spans(row) or ())  # unpaired backticks: no code span
    span = next(spans, None)
    commands = list(row)
    for pipe in _ROW_PIPE.finditer(row):
        if pipe.end() - pipe.start() == 2:
            commands[pipe.start()] = " "
            continue
        while span is not None and span[1] <= pipe.start():
            span = next(spans, None)
        if span is None or pipe.start() < span[0]:
            commands[pipe.start()] = ";"
    return "".join(commands)


def _run_end(line: str, match: re.Match[str]) -> int | None:
    """Where the remote-code ``match`` of ``line`` ends: at the runner that runs the download,
    the match's own, or when that is a data consumer given its program inline (its output
    is still the download's), the next runner of the pipeline that is none (``curl … |
    python3 -c "print(…)" | sh``); None when every runner of it is one (``| python3 -c
    "import json…"``, as ``| jq``), within :data:`_PIPES` pipes."""
    end = match.end()
    if match.re is _REMOTE_CODE:  # no pipe: run by the shell that fetches it
        return end
    start = match.start("runner")
    for _ in range(_PIPES):
        inline = _READS_DATA.match(line, start)
        if not inline:
            return end
        program = _ONE_STAGE.match(line, inline.end())  # its own command, not the line's rest
        assert program is not None  # a stage may be empty: it always matches
        if _EVALUATES.search(line, inline.end(), program.end()):
            return end
        later = _NEXT_RUNNER.match(line, end)
        if later is None:
            return None
        start, end = later.start("runner"), later.end()
    return None


def _exempt(line: str, match: re.Match[str], end: int, prose: bool) -> bool:
    """Whether the remote-code ``match`` of ``line``, its command run up to ``end``
    (:func:`_run_end`), runs nothing: the quoted text of an ``echo`` not piped on to a
    runner, or (in a Markdown paragraph, ``prose``) a command said to be refused."""
    printed = _PRINTED.search(line, 0, match.start())
    if printed and not _QUOTE_RUN[printed[1] or printed[2]].match(line, end):
        return True
    if not prose:
        return False
    after = len(line)
    if line.count("`", 0, match.start()) % 2:  # in a code span: the prose resumes after it
        close = line.find("`", end)
        after = close + 1 if close >= 0 else after
    return bool(_REFUSED.search(line, 0, match.start()) or _REFUSED.search(line, after))


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
        blocks = code_blocks(skill, rel) if rel in skill.texts else None  # Markdown: its code
        for number, line in lines_holding(
            text, _FETCH_SEARCHED, searched=lowered_text(skill, rel, text)
        ):
            lowered = line.lower()
            if number <= taken or not any(word in lowered for word in _FETCH_HINTS):
                continue
            first = len(line)  # a match starting on a line continued onto: no column
            line, taken = _continued(skill, rel, number, line)
            if _WARNING_AGAINST.search(line):
                continue
            prose = blocks is not None and not in_code(blocks, number)
            # a table row's: its cells' commands, then its fetches' first pipes as written
            row = prose and line.lstrip().startswith("|")
            read = ((_row_commands(line), _PIPED), (line, _PIPED_ROW)) if row else ((line, _PIPED),)
            runs = (
                (seen, m, _run_end(seen, m))
                for seen, piped in read
                for m in _remote_code(seen, piped)
            )
            found = ((t, m, end) for t, m, end in runs if end and not _exempt(t, m, end, prose))
            if (hit := next(found, None)) is not None:
                seen, match, end = hit
                shown = " ".join(seen[match.start() : end].split())
                yield Finding(
                    f"downloads and runs code in one step ('{shown}'): nothing checks what runs",
                    file=rel,
                    line=number,
                    column=match.start() + 1 if match.start() < first else None,
                )


# -- SKL906 allowed-tools ---------------------------------------------------------------------

_TOOL = re.compile(r"[A-Za-z_][\w.-]*(?:\([^)]*\))?")
_SHELL_TOOLS = ("bash", "powershell")
#: The names as Claude Code spells them (its tool names are case-sensitive).
_SPELLED = ("Bash", "PowerShell", "WebFetch")
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
            name = tool.partition("(")[0]
            if name not in _SPELLED:  # Claude Code's names are case-sensitive (SKL609)
                why += (
                    " where an agent matches tool names without case"
                    f" (Claude Code reads '{name}' as no tool)"
                )
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
    for rel, text in markdown_texts(skill):
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
