"""Findings a team chose not to see, three ways:

- inline comments in a skill's Markdown (:func:`inline_suppressions`):
  ``<!-- skillc-lint: disable=SKL401 -->`` (the whole file),
  ``<!-- skillc-lint: disable-line=SKL301 -->`` (its own line) and
  ``<!-- skillc-lint: disable-next-line=SKL301,SKL302 -->`` (the line after it);
- per-file ignores of the ``[lint]`` table (:class:`PathIgnores`): gitignore-style patterns
  (pathspec) mapped to rules;
- a baseline file (:class:`skillc_lint._baseline.Baseline`, in its own module): the findings
  a repository had when it adopted the linter.

And the comments ``--add-suppressions`` writes for the current findings
(:func:`add_suppressions`).

Rules are named as ``--select`` names them, resolved by the one matcher
(:meth:`RuleRegistry.match <skillc_lint._registry.RuleRegistry.match>`): an id (``SKL301``),
an id prefix (``SKL3``), a name (``link-file-exists``) or a tag (``guidance``),
case-insensitively.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index import split_lines

if TYPE_CHECKING:
    from pathspec import PathSpec

    from skillc_index import CodeBlock, SkillcError
    from skillc_index.operation import Session
    from skillc_lint._engine import LintDiagnostic, LintResult
    from skillc_lint._fixes import FixOutcome
    from skillc_lint._registry import RuleRegistry
    from skillc_lint._run import LintRun
    from skillc_lint.operations import LintParams, LintReport, Suppressions

__all__ = [
    "InlineSuppressions",
    "PathIgnores",
    "inline_suppressions",
]

#: ``<!-- skillc-lint: disable=RULES -->``, ``disable-line=`` or ``disable-next-line=``; on
#: one line; RULES comma- or space-separated.
_COMMENT = re.compile(
    r"<!--\s*skillc-lint:\s*(disable|disable-line|disable-next-line)\s*=\s*(.*?)\s*-->",
    re.IGNORECASE,
)
#: What every such comment holds, in any case as the comment is read (a quick test of a text
#: holding a ``<!--``: a search ignoring case over every text cost 0.13 s of the corpus's lint).
_MARK = re.compile("skillc-lint:", re.IGNORECASE)
#: Bounds of a per-file-ignores pattern: pathspec matches with a regular expression, which
#: backtracks; a pattern of a checkout's config must not make a lint hang.
MAX_PATTERN_CHARS = 256
MAX_PATTERN_WILDCARDS = 4


#: A selector of a list of them (comma- or space-separated).
_SELECTOR = re.compile(r"[^\s,]+")


def _selectors(text: str) -> tuple[str, ...]:
    return tuple(_SELECTOR.findall(text))


@dataclass(frozen=True)
class InlineSuppressions:
    """The suppression comments of one Markdown file."""

    file: tuple[str, ...] = ()
    """Selectors disabled in the whole file."""
    lines: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    """Line -> selectors disabled on it."""
    comments: tuple[tuple[int, int, str], ...] = ()
    """Every selector written, with its line and column (to report unknown ones, and those
    naming a security rule)."""

    def hides(self, diagnostic: LintDiagnostic, named: Mapping[str, Collection[str]]) -> bool:
        """Whether a comment hides ``diagnostic``; ``named``: the ids each selector written
        names (:meth:`RuleRegistry.match <skillc_lint._registry.RuleRegistry.match>`)."""
        selectors = self.file + (self.lines.get(diagnostic.line, ()) if diagnostic.line else ())
        return any(diagnostic.rule in named.get(s, ()) for s in selectors)


NO_SUPPRESSIONS = InlineSuppressions()


#: markdown-it's tokens of code, and of HTML blocks (where a comment added would be text of
#: the block, or close an HTML comment the block opens).
_CODE = frozenset(("fence", "code_block"))
_CODE_OR_HTML = _CODE | {"html_block"}


def _block_lines(lines: Sequence[str], start: int, kinds: frozenset[str]) -> set[int]:
    """The numbers (from 1) of the lines of ``lines`` after index ``start`` (the
    frontmatter) that Markdown reads as blocks of ``kinds`` (markdown-it's token types):
    a fence in a list item or a blockquote too, an indented code block. Of a text over the
    parse limit, the lines the linter parses
    (:func:`~skillc_index.markdown.document.parsed_end`), by skillc-index's parser."""
    from skillc_index.markdown.document import block_tokens, parsed_end

    body = "".join(line.rstrip("\r\n") + "\n" for line in lines[start:])
    found: set[int] = set()
    for token in block_tokens(body[: parsed_end(body)]):
        if token.type in kinds and token.map is not None:
            found.update(range(start + token.map[0] + 1, start + token.map[1] + 1))
    return found


def inline_suppressions(text: str, code: Sequence[CodeBlock]) -> InlineSuppressions:
    """The ``skillc-lint:`` comments of a Markdown text. Comments inside code blocks (fenced
    or indented, in a list item or a blockquote too: ``code``, the text's as the lint parsed
    it, :attr:`~skillc_index.MarkdownDoc.code_blocks`) and inside a code span (a backtick
    right before ``<!--``) are examples, not comments."""
    if "<!--" not in text or _MARK.search(text) is None:
        return NO_SUPPRESSIONS
    from skillc_lint._rules.fields import in_code

    whole: list[str] = []
    lines: dict[int, list[str]] = {}
    written: list[tuple[int, int, str]] = []
    for number, line in enumerate(split_lines(text), 1):
        if in_code(code, number):
            continue
        for match in _COMMENT.finditer(line):
            if match.start() and line[match.start() - 1] == "`":
                continue
            form, found = match.group(1).lower(), list(_SELECTOR.finditer(match[2]))
            selectors = [s.group() for s in found]
            at = match.start(2) + 1  # each selector's column
            written += ((number, at + s.start(), s.group()) for s in found)
            if form == "disable":
                whole += selectors
            else:
                target = number if form == "disable-line" else number + 1
                lines.setdefault(target, []).extend(selectors)
    return InlineSuppressions(tuple(whole), {n: tuple(s) for n, s in lines.items()}, tuple(written))


# -- per-file ignores ---------------------------------------------------------------------------


class PathIgnores:
    """``[lint] per-file-ignores``: gitignore-style patterns -> the ids of the rules they
    ignore, matched against a file's path relative to ``root`` (the project, else the
    working folder)."""

    def __init__(self, root: Path, table: Mapping[str, Collection[str]]) -> None:
        self.root = Path(os.path.abspath(root))  # noqa: PTH100  # `..` gone, as in hides()
        self.off: dict[str, Path] = {}
        """The security rules a config turned off, each with that file: hidden everywhere."""
        self.security: frozenset[str] = frozenset()
        """The security rules, whose findings the patterns hide are counted (:meth:`count`)."""
        self.source: Path | None = None
        """The config file of the patterns."""
        self.hid: dict[Path, int] = {}
        """How many security findings each config file hid: said on stderr, as a baseline
        says how many it hid (a config may turn the audit off, never silently)."""
        self._specs: list[tuple[PathSpec[Any], frozenset[str]]] = []
        if table:
            from pathspec import GitIgnoreSpec

            self._specs = [
                (GitIgnoreSpec.from_lines([pattern]), frozenset(ids))
                for pattern, ids in table.items()
            ]

    @classmethod
    def from_config(
        cls, root: Path, value: object, registry: RuleRegistry, guard: bool = False
    ) -> tuple[PathIgnores, list[str]]:
        """Read the table; bad entries are skipped with a problem each (never fatal; at most
        :data:`~skillc_index.diagnostics.MAX_PROBLEMS`, then one for the rest). Each
        selector is resolved to rule ids by ``registry`` (:meth:`RuleRegistry.match
        <skillc_lint._registry.RuleRegistry.match>`, as ``--ignore`` is). ``guard``: the
        table is a config file's found inside the linted skill, which ignores no security
        rule (:meth:`RuleRegistry.guarded <skillc_lint._registry.RuleRegistry.guarded>`)."""
        if not isinstance(value, Mapping):
            return cls(root, {}), ["per-file-ignores must be a table of patterns; ignored"]
        table: dict[str, set[str]] = {}
        problems: list[str] = []
        for pattern, selectors in value.items():
            wildcards = len(re.findall(r"\*\*|\*|\?", str(pattern)))
            if len(str(pattern)) > MAX_PATTERN_CHARS or wildcards > MAX_PATTERN_WILDCARDS:
                problems.append(
                    f"per-file-ignores: '{str(pattern)[:40]}...' is longer than "
                    f"{MAX_PATTERN_CHARS} characters or has more than {MAX_PATTERN_WILDCARDS} "
                    "wildcards; ignored"
                )
                continue
            if isinstance(selectors, str):
                selectors = [selectors]
            if not isinstance(selectors, list) or not all(isinstance(s, str) for s in selectors):
                problems.append(
                    f"per-file-ignores: '{pattern}' must map to a list of rules; ignored"
                )
                continue
            ids = table[str(pattern)] = set()
            for selector in _selectors(",".join(selectors)):
                named = frozenset(registry.match(selector))
                if not named:
                    from skillc_index.layout import shown

                    unknown = shown(selector)
                    problems.append(f"per-file-ignores: '{pattern}': unknown rule '{unknown}'")
                kept = named - registry.guarded(named) if guard else named
                if kept != named:
                    from skillc_lint._registry import GUARDED_NOTE

                    problems.append(f"per-file-ignores: '{pattern}': '{selector}': {GUARDED_NOTE}")
                ids.update(kept)
        from skillc_index.diagnostics import capped

        return cls(root, table), capped(problems, "per-file-ignores: ... and {:,} more".format)

    def __bool__(self) -> bool:
        return bool(self._specs or self.off)

    def watch(
        self, registry: RuleRegistry, origins: Mapping[str, str], files: Mapping[str, Path]
    ) -> None:
        """Hide the findings of the security rules the config turned off (which run:
        :attr:`RuleRegistry.turned_off <skillc_lint._registry.RuleRegistry.turned_off>`),
        and count every security finding hidden, by the config file that hid it; ``origins``:
        :attr:`Config.origins <skillc_index.Config.origins>`, ``files``: each origin's file."""
        off = registry.turned_off
        self.off = {rule: files[origin] for rule, origin in off.items() if origin in files}
        self.security = frozenset(rule.id for rule in registry if rule.guarded)
        self.source = files.get(origins.get("lint.per-file-ignores", ""))

    def count(self, diagnostic: LintDiagnostic) -> None:
        """Count ``diagnostic``, which this hid, when it is a security finding."""
        source = self.off.get(diagnostic.rule)
        if source is None and diagnostic.rule in self.security:
            source = self.source
        if source is not None:
            self.hid[source] = self.hid.get(source, 0) + 1

    def hides(self, path: Path, diagnostic: LintDiagnostic) -> bool:
        """Whether the diagnostic of the file at ``path`` (absolute) is ignored."""
        if diagnostic.rule in self.off:
            return True
        try:
            rel = Path(os.path.abspath(path)).relative_to(self.root).as_posix()  # noqa: PTH100
        except ValueError:
            return False  # outside the root: no pattern names it
        return any(diagnostic.rule in ids and spec.match_file(rel) for spec, ids in self._specs)


# -- writing comments for the current findings (--add-suppressions) -----------------------------

_HEADING = re.compile(r"^ {0,3}(?:#{1,6}(?:\s|$)|=+\s*$|-+\s*$)")


def _frontmatter_end(lines: Sequence[str]) -> int:
    """The index of the line after a frontmatter block (``---`` ... ``---``), or 0."""
    if lines and lines[0].rstrip() == "---":
        for index, line in enumerate(lines[1:], 1):
            if line.rstrip() == "---":
                return index + 1
    return 0


#: A whole-file comment line as :func:`suppression_comments` writes it (merged into, not added
#: again).
_WHOLE_FILE = re.compile(r"<!-- skillc-lint: disable=([^\s>]*) -->[\r\n]*")
#: What ends a line with a hard break (a backslash, or two spaces and more): a comment goes
#: before it, where it keeps the break.
_HARD_BREAK = re.compile(r"(?:\\| {2,})$")


def _top_blocks(body: Sequence[str]) -> list[tuple[int, int]]:
    """The line ranges (indexes in ``body``, end excluded) of its top-level blocks."""
    from skillc_index.markdown.document import block_tokens

    text = "".join(line.rstrip("\r\n") + "\n" for line in body)
    blocks: list[tuple[int, int]] = []
    for token in block_tokens(text):  # a block's tokens come after its first, within its lines
        if token.map is not None and (not blocks or token.map[0] >= blocks[-1][1]):
            blocks.append((token.map[0], token.map[1]))
    return blocks


def _commented_line(line: str, comment: str) -> str:
    """``line`` with ``comment`` at its end, before a hard break's backslash or spaces."""
    body = line.rstrip("\r\n")
    hard_break = _HARD_BREAK.search(body)
    cut = hard_break.start() if hard_break else len(body)
    return f"{body[:cut].rstrip()} {comment}{body[cut:]}{line[len(body) :]}"


def _rendered(text: str, comment: str) -> tuple[str, int, int]:
    """``text`` rendered, with its whitespace and ``comment`` left out; how many times the
    HTML holds ``comment``, and how many of them are HTML comments of their own. Parsed by
    skillc-index's parser of every inline (CommonMark, GFM tables, HTML passed: as a reader
    renders it), its tables' cells bounded: :class:`~skillc_index.markdown.table_rule.
    TooManyCells` past the bound (:func:`~skillc_index.markdown.parsers.markdown_parser`)."""
    from skillc_index.markdown.parsers import markdown_parser, parse_closed

    md = markdown_parser(whole=True)
    tokens = parse_closed(md, text)
    html = md.renderer.render(tokens, md.options, {})
    own = sum(
        child.type == "html_inline" and child.content == comment
        for token in tokens
        for child in token.children or ()
    )
    return "".join(html.replace(comment, "").split()), html.count(comment), own


def _renders_alike(block: list[str], index: int, new_line: str, comment: str) -> bool:
    """Whether ``block`` with its line ``index`` replaced by ``new_line`` renders as before
    but for ``comment``, which is an HTML comment of its own there or nothing (a table row's
    cell past the header's, which tables drop): not swallowed by a code span or a tag
    running on, not closing an HTML comment the line opens, not turning a link reference
    definition into text, not losing a hard break. A block whose tables hold more cells
    than a parse reads (:class:`~skillc_index.markdown.table_rule.TooManyCells`) is not
    judged: False (the whole-file comment)."""
    from skillc_index.markdown.table_rule import TooManyCells

    try:
        before = _rendered("".join(block), comment)
        after = _rendered("".join([*block[:index], new_line, *block[index + 1 :]]), comment)
    except TooManyCells:
        return False
    shown, own = after[1] - before[1], after[2] - before[2]
    return after[0] == before[0] and (shown, own) in ((0, 0), (1, 1))


def suppression_comments(text: str, findings: Iterable[tuple[int | None, str]]) -> str:
    """``text`` with a ``skillc-lint`` comment hiding each of ``findings`` (line, rule id):
    ``<!-- skillc-lint: disable-line=... -->`` at the end of a line of prose (before a hard
    break), where Markdown reads it as a comment and renders the rest as before; a finding
    of the frontmatter, a heading (the comment would change its anchor), a code block (where
    a comment is an example), an HTML block (where it is the block's text, or closes a
    comment the block opens), a line whose comment would change what a reader sees (in a
    code span or a tag running on, an HTML comment it opens, a link reference definition),
    or the whole file goes to one ``<!-- skillc-lint: disable=... -->`` line after the
    frontmatter (at the top without one), merged into the one written before."""
    lines = split_lines(text)
    start = _frontmatter_end(lines)

    def prose(number: int) -> bool:  # a line of the body, not blank, no heading
        return (
            start < number <= len(lines)
            and bool(lines[number - 1].strip())
            and not _HEADING.match(lines[number - 1])
        )

    findings = list(findings)
    # the body is parsed for its code and HTML blocks only when a finding may take a comment
    # on its line (most go to the whole-file comment: no line, the frontmatter, a heading)
    lined = any(n is not None and prose(n) for n, _ in findings)
    code = _block_lines(lines, start, _CODE_OR_HTML) if lined else set()
    per_line: dict[int, list[str]] = {}
    whole: list[str] = []
    for line_number, rule in findings:
        if line_number is not None and prose(line_number) and line_number not in code:
            per_line.setdefault(line_number, []).append(rule)
        else:
            whole.append(rule)
    blocks = _top_blocks(lines[start:]) if per_line else []
    for number, rules in per_line.items():
        index = number - 1 - start  # in the body
        comment = f"<!-- skillc-lint: disable-line={','.join(dict.fromkeys(rules))} -->"
        new = _commented_line(lines[number - 1], comment)
        block = next(((a, b) for a, b in blocks if a <= index < b), None)
        body = lines[start + block[0] : start + block[1]] if block else []
        if block and _renders_alike(body, index - block[0], new, comment):
            lines[number - 1] = new
        else:  # a link reference definition is in no block
            whole += rules
    if whole:
        from skillc_lint._fixes import line_break

        newline = line_break(lines)  # the file's own: "\r" in a file of lone CRs
        if start and not lines[start - 1].endswith(("\n", "\r")):
            lines[start - 1] += newline
        written = _WHOLE_FILE.fullmatch(lines[start]) if start < len(lines) else None
        rules = [*(written.group(1).split(",") if written else ()), *whole]
        comment = f"<!-- skillc-lint: disable={','.join(dict.fromkeys(rules))} -->{newline}"
        if written:
            lines[start] = comment
        else:
            lines.insert(start, comment)
    return "".join(lines)


def add_suppressions(
    result: LintResult,
    texts: Mapping[str, str],
    tree: Path | None = None,
    places: Sequence[Path] = (),
    guarded: Collection[str] = (),
) -> tuple[FixOutcome, int]:
    """Write comments hiding every finding of ``result`` into the Markdown files of its
    skill (:func:`suppression_comments`), as ``--fix`` writes (:mod:`skillc_lint._fixes`):
    only inside the skill and inside ``tree`` (the folder the command was given; default the
    skill folder) and, for a skill found by its name, in one of ``places`` (E012), never
    over a read-only file, never over one whose text is no longer ``texts``' (what the lint
    read), each file once however many names reach it, atomically, keeping its mode and BOM.
    Returns what was written and the files that could not be (one error each), and how many
    findings were left: in files that take no comment (not Markdown, not read as Markdown by
    the lint, not UTF-8), and of the rules ``guarded`` (ids: the security rules, which no
    comment hides)."""
    from skillc_index import SkillcError, is_markdown
    from skillc_lint._fixes import (
        FileChange,
        FixOutcome,
        _Original,
        not_fixed,
        read_original,
        write_changes,
    )

    root = result.path
    confine = root if tree is None else tree
    by_real: dict[str, tuple[str, list[tuple[int | None, str]]]] = {}
    left = 0
    for d in result.diagnostics:
        if not is_markdown(d.file) or d.file not in texts or d.rule in guarded:
            left += 1
            continue
        # a file reached by two names (a symlink in the skill) gets one set of comments
        by_real.setdefault(os.path.realpath(root / d.file), (d.file, []))[1].append(
            (d.line, d.rule)
        )
    originals: dict[str, _Original] = {}
    changes: list[FileChange] = []
    problems: list[SkillcError] = []
    for rel, findings in sorted(by_real.values()):
        try:
            original = read_original(root, rel, confine, texts[rel], places)
        except SkillcError as exc:
            problems.append(exc)
            continue
        except OSError as exc:
            problems.append(not_fixed(root, rel, exc.strerror or str(exc)))
            continue
        if original.text is None:  # bytes the lint read as U+FFFD would be lost
            left += len(findings)
            continue
        originals[rel] = original
        new = suppression_comments(original.text, findings)
        changes.append(FileChange(rel, original.text, new, len(findings)))
    written, failed = write_changes(root, changes, originals, confine, places)
    return FixOutcome(result, tuple(written), (*problems, *failed)), left


def suppressions_added(
    session: Session,
    run: LintRun,
    params: LintParams,
    registry: RuleRegistry,
    hidden: Suppressions,
    tree: Path | None,
    places: Sequence[Path],
    leave_out: Collection[str],
) -> LintReport:
    """A lint run's ``add_suppressions`` (:mod:`._run`): lint one skill and write a comment
    hiding each finding (:func:`add_suppressions`, from the texts the lint read); its
    ``fixes`` say what was written and what could not be."""
    from collections import Counter

    from skillc_lint._baseline import finding_key
    from skillc_lint._engine import lint_with_texts
    from skillc_lint.operations import lint

    read: dict[str, str] = {}
    found: list[LintResult] = []  # each lint's findings, before the ignores and the baseline

    def engine(folder: Path) -> LintResult:
        result, texts = lint_with_texts(
            folder, registry=registry, force=params.force, cap=False, leave_out=leave_out
        )
        read.update(texts)
        found.append(result)
        return result

    done = lint(session, params, registry, hidden, engine=engine, leave_out=leave_out)
    if done.result.skipped:
        return done
    guarded = registry.guarded(rule.id for rule in registry)
    outcome, left = add_suppressions(done.result, read, tree, places, guarded)
    if outcome.changes and not outcome.problems:
        # the comments may make findings of their own (a line more: SKL201's 500 lines, more
        # tokens: SKL921): a second pass hides those, in the comment line written (so that a
        # run again finds nothing to add)
        before = Counter(finding_key(d) for d in found[0].diagnostics)
        after = engine(found[0].path)
        new = []
        for d in after.diagnostics:
            if before[finding_key(d)] > 0:
                before[finding_key(d)] -= 1
            elif not hidden.ignores.hides(after.path / d.file, d):
                new.append(d)
        second, _ = add_suppressions(
            replace(after, diagnostics=tuple(new)), read, tree, places, guarded
        )
        changes = {change.file: change for change in outcome.changes}
        for change in second.changes:
            first = changes.get(change.file)
            if first is not None:
                change = replace(change, before=first.before, fixes=first.fixes + change.fixes)
            changes[change.file] = change
        outcome = replace(
            outcome, changes=tuple(changes.values()), problems=outcome.problems + second.problems
        )
    run.uncommented += left
    return done._replace(fixes=outcome)
