"""The tool model of gibb.eri.sh skills (spec/003): a SKILL.md whose body defines tools.

Each H3 heading of the body with a ``#### Parameters`` or ``#### Command`` section under it is
a tool (§3.1; any other H3 is prose, as an ordinary skill's are): its name, the text under it
(its description), an H4 ``Parameters`` section holding a table (``Name | Type | Required |
Description``, plus an optional ``Default`` column) and an H4 ``Command`` section holding a
```` ```bash ```` or ```` ```sh ```` block. The command is parsed once into a
:class:`CommandTemplate`: words made of literal text and ``{{name}}`` / ``{{name:--flag}}``
placeholders, split the way a POSIX shell splits words (quotes, backslashes) but never run
by one (§3.5).

Parsing never fails: what is wrong is collected as :class:`ToolIssue` values (``kind``, message,
line), the one definition of "a broken tool" that both ``skc lint --profile gibberish`` and
``skc run`` (which refuses a tool with an error) use.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from skillc_index.dialect import folded_text
from skillc_index.markdown.frontmatter import split_frontmatter
from skillc_index.text import BOM, normalize_newlines
from skillc_index.tools.command import (
    PARAMETER_NAME,
    CommandTemplate,
    Placeholder,
    parse_command,
)

if TYPE_CHECKING:
    from markdown_it.token import Token


__all__ = [
    "DEFAULT_TIMEOUT",
    "MODES",
    "PARAMETER_TYPES",
    "Parameter",
    "Tool",
    "ToolIssue",
    "ToolSkill",
    "parse_tool_skill",
    "read_tool_skill",
    "script_file",
    "skill_holds",
]

PARAMETER_TYPES = ("string", "integer", "number", "boolean", "array")
#: Types whose values cannot be code (checked as numbers or booleans before they are used).
DATA_TYPES = ("integer", "number", "boolean")
MODES = ("Global", "Dev", "Meeting")
DEFAULT_TIMEOUT = 30
MAX_TIMEOUT = 300
COMMAND_LANGUAGES = ("bash", "sh")
COMMAND_WORD_LIMIT = 1_000
"""Words of a tool's command: past them the tool is a ``command-block`` error and its command
is not read further (the longest command of the corpus has 25 words)."""

_TOOL_NAME = re.compile(r"[a-z0-9_]{1,32}\Z")
_DEFAULT_IN_TEXT = re.compile(r"\(default:\s*([^)]*)\)", re.IGNORECASE)
_NO_DEFAULT = frozenset({"", "none", "null", "-", "n/a"})

IssueKind = Literal[
    "no-tools",
    "tool-name",
    "tool-duplicate",
    "parameters-missing",
    "parameter-table",
    "parameter-type",
    "parameter-required",
    "command-block",
    "command-variable",
    "command-shell",
    "command-code",
]


class ToolIssue(NamedTuple):
    """Something wrong with a tool definition (spec/003 §9)."""

    kind: IssueKind
    message: str
    line: int
    tool: str | None = None
    """The tool's name (None for the skill as a whole)."""
    severity: Literal["error", "warning"] = "error"


class Parameter(NamedTuple):
    """One row of a tool's parameter table (§3.1, §3.3)."""

    name: str
    type: str
    """As written, lowercased (one of :data:`PARAMETER_TYPES` when valid)."""
    required: bool
    description: str = ""
    default: Any = None
    """From a ``Default`` column, else ``(default: X)`` in the description; typed."""
    line: int = 0
    option: bool = False
    """From an ``Option`` column (``yes``): the value may start with ``-`` and so be an
    option of the program; otherwise ``skc run`` refuses such a value (E100)."""

    def schema(self) -> dict[str, Any]:
        """This parameter as a JSON Schema property (MCP ``inputSchema``)."""
        schema: dict[str, Any] = {}
        if self.type in PARAMETER_TYPES:  # spec/003 §3.3's names are JSON Schema's
            schema["type"] = self.type
        if self.type == "array":
            schema["items"] = {"type": "string"}
        if self.description:
            schema["description"] = self.description
        if self.default is not None:
            schema["default"] = self.default
        return schema


class Tool(NamedTuple):
    """One tool of a skill: an H3 heading and what follows it, up to the next H1-H3."""

    name: str
    description: str
    parameters: tuple[Parameter, ...]
    command: CommandTemplate | None
    line: int

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)

    def input_schema(self) -> dict[str, Any]:
        """An MCP-style ``inputSchema``: a JSON Schema object of the parameters."""
        return {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.parameters},
            "required": [p.name for p in self.parameters if p.required],
            "additionalProperties": False,
        }


class ToolSkill(NamedTuple):
    """A gibb.eri.sh skill (§2, §10): its frontmatter settings and its tools.

    Frontmatter values are read leniently (a bad value gives the default, a timeout out of
    range is clamped to 1-300): the linter reports them; the runner keeps going.
    """

    name: str
    description: str
    version: str | None
    modes: tuple[str, ...]
    read_only: bool
    always_ask: bool
    timeout: int
    network: bool
    tools: tuple[Tool, ...]
    issues: tuple[ToolIssue, ...]

    def tool(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)

    def problems(self, tool: str) -> list[ToolIssue]:
        """The errors that stop ``tool`` from running."""
        return [i for i in self.issues if i.tool == tool and i.severity == "error"]


# -- the Markdown body -------------------------------------------------------------------------


def _inline_text(token: Token) -> str:
    from skillc_index.markdown.links import plain_text

    return " ".join(plain_text(token.children or ()).split())


_TRUE = ("true", "yes", "1", "on")
_FALSE = ("false", "no", "0", "off")


def typed_value(kind: str, value: Any) -> Any:
    """``value`` as a parameter of type ``kind`` (§3.3), or None when it is not one; text is
    parsed (``5``, ``2.5``; a boolean's ``true/false/yes/no/1/0/on/off``): an argument of
    ``skc run`` and a Default column's text alike. An array's items are the caller's."""
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        return text in _TRUE if text in (*_TRUE, *_FALSE) else None
    if isinstance(value, bool):
        return None if kind in ("integer", "number") else str(value).lower()
    if kind in ("integer", "number"):
        if isinstance(value, int) or (kind == "number" and isinstance(value, float)):
            return value
        try:
            return int(str(value).strip()) if kind == "integer" else float(str(value).strip())
        except ValueError:
            return None
    return str(value)


def _typed_default(raw: str, kind: str) -> tuple[Any, bool]:
    """A default written as text, typed by the parameter's type (None when absent), and
    whether it fits the type (``abc`` for an integer, ``maybe`` for a boolean do not: None,
    False). A parameter of an unknown type has none (its type is the error)."""
    text = raw.strip().strip("`").strip()
    if text.lower() in _NO_DEFAULT or kind not in PARAMETER_TYPES:
        return None, True
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    if kind == "array":
        return [item.strip() for item in text.split(",") if item.strip()], True
    value = typed_value(kind, text)
    return value, value is not None


def _table(
    tokens: Sequence[Token], start: int, offset: int
) -> tuple[list[list[str]], list[int], int]:
    """Rows of the table opening at ``tokens[start]`` (header first), their lines, the end."""
    rows: list[list[str]] = []
    lines: list[int] = []
    index = start + 1
    while tokens[index].type != "table_close":
        token = tokens[index]
        if token.type == "tr_open":
            rows.append([])
            lines.append((token.map[0] if token.map else 0) + offset + 1)
        elif token.type == "inline":
            rows[-1].append(_inline_text(token))
        index += 1
    return rows, lines, index


def _code(cell: str) -> str:
    """A table cell without surrounding whitespace and backticks (`` `string` ``)."""
    return cell.strip().strip("`").strip()


def _parameters(
    rows: list[list[str]], lines: list[int], tool: str, issues: list[ToolIssue]
) -> list[Parameter]:
    header = [cell.lower() for cell in rows[0]]
    missing = [column for column in ("name", "type", "required") if column not in header]
    if missing:
        shown = ", ".join(f"'{column.title()}'" for column in missing)
        issues.append(
            ToolIssue("parameter-table", f"parameter table has no {shown} column", lines[0], tool)
        )
        return []
    found: list[Parameter] = []
    names: set[str] = set()
    for row, line in zip(rows[1:], lines[1:], strict=True):
        cells = dict(zip(header, row, strict=False))
        name, kind, required = (
            _code(cells.get("name", "")),
            _code(cells.get("type", "")).lower(),
            _code(cells.get("required", "")).lower(),
        )
        description = cells.get("description", "")
        if not PARAMETER_NAME.match(name):
            message = f"invalid parameter name '{name}' (letters, digits and _)"
            issues.append(ToolIssue("parameter-table", message, line, tool))
            continue
        if name in names:
            message = f"parameter '{name}' is declared twice"
            issues.append(ToolIssue("parameter-table", message, line, tool))
            continue
        names.add(name)
        if kind not in PARAMETER_TYPES:
            message = (
                f"parameter '{name}' has unknown type '{kind}' "
                f"(one of {', '.join(PARAMETER_TYPES)})"
            )
            issues.append(ToolIssue("parameter-type", message, line, tool))
        if required not in ("yes", "no"):
            message = f"parameter '{name}': Required must be 'yes' or 'no', not '{required}'"
            issues.append(ToolIssue("parameter-required", message, line, tool))
        option = _code(cells.get("option", "")).lower()
        if option not in ("", "yes", "no"):
            message = f"parameter '{name}': Option must be 'yes' or 'no', not '{option}'"
            issues.append(ToolIssue("parameter-table", message, line, tool))
        written = _code(cells.get("default", ""))
        if not written:
            match = _DEFAULT_IN_TEXT.search(description)
            written = match.group(1) if match else ""
        default, fits = _typed_default(written, kind)
        if not fits:  # left out: the run drops the word, the schema has none (SKL815)
            article = "an" if kind[:1] in ("a", "i") else "a"
            message = f"parameter '{name}': default '{written}' is not {article} {kind}"
            if kind == "boolean":
                message += " (true, false, yes, no, 1, 0, on or off)"
            message += "; it is left out"
            issues.append(ToolIssue("parameter-type", message, line, tool, "warning"))
        found.append(
            Parameter(name, kind, required == "yes", description, default, line, option == "yes")
        )
    return found


def _command(
    blocks: list[tuple[str, str, int]], tool: str, line: int, issues: list[ToolIssue]
) -> CommandTemplate | None:
    """The tool's command from its fenced blocks ``(language, content, line)``."""
    shell_blocks = [block for block in blocks if block[0] in COMMAND_LANGUAGES]
    if not shell_blocks:
        message = "no ```bash or ```sh command block"
        if blocks:
            message += f" (found ```{blocks[0][0] or '(no language)'})"
        issues.append(ToolIssue("command-block", message, blocks[0][2] if blocks else line, tool))
        return None
    _, content, block_line = shell_blocks[0]
    # (first line in the block, command): "\\" continuations joined, blanks and comments skipped
    commands: list[tuple[int, str]] = []
    pending, first = "", 0
    for number, raw in enumerate([*content.split("\n"), ""]):
        if not pending:
            first = number
        if raw.endswith("\\"):
            pending += raw[:-1]
            continue
        text, pending = (pending + raw).strip(), ""
        if text and not text.startswith("#"):
            commands.append((first, text))
    if not commands:
        issues.append(ToolIssue("command-block", "the command block is empty", block_line, tool))
        return None
    if len(commands) > 1:
        message = f"the command block holds {len(commands)} commands (one per tool)"
        issues.append(ToolIssue("command-block", message, block_line, tool))
    number, text = commands[0]
    template, operators, problems = parse_command(text, block_line + 1 + number)
    if len(template.words) > COMMAND_WORD_LIMIT:
        message = f"the command has {len(template.words)} words (at most {COMMAND_WORD_LIMIT})"
        issues.append(ToolIssue("command-block", message, template.line, tool))
        return None
    for problem in problems:
        issues.append(ToolIssue("command-variable", problem, template.line, tool))
    if operators:
        shown = ", ".join(f"'{op}'" for op in operators)
        message = (
            f"shell syntax {shown} in command: commands run without a shell "
            "(put shell features in a script)"
        )
        issues.append(ToolIssue("command-shell", message, template.line, tool))
    if template.words and any(isinstance(f, Placeholder) for f in template.words[0]):
        message = "the program must be written out, not a placeholder"
        issues.append(ToolIssue("command-variable", message, template.line, tool))
    return template


def _check_placeholders(tool: Tool, issues: list[ToolIssue]) -> None:
    if tool.command is None:
        return
    parameters = {p.name: p for p in tool.parameters}
    for placeholder in dict.fromkeys(tool.command.placeholders):
        parameter = parameters.get(placeholder.name)
        if parameter is None:
            message = f"'{{{{{placeholder.name}}}}}' is not a declared parameter"
        elif placeholder.modifier is not None and parameter.type != "boolean":
            message = (
                f"'{{{{{placeholder.name}:{placeholder.modifier}}}}}': a flag needs a "
                f"boolean parameter ('{parameter.name}' is {parameter.type})"
            )
        else:
            continue
        issues.append(ToolIssue("command-variable", message, tool.command.line, tool.name))
    for value in tool.command.code_values():
        parameter = parameters.get(value.placeholder.name)
        # a number may be `inf` or `nan`: glued to an option, letters are options (`-inf`)
        checked = ("integer",) if value.kind == "option" else DATA_TYPES
        if parameter is not None and parameter.type in checked:
            continue
        shown = f"'{{{{{value.placeholder.name}}}}}'"
        if value.kind == "program":
            message = (
                f"{shown} is the program '{value.where}' runs: a value must not choose the "
                "program (write the program out)"
            )
        elif value.kind == "environment":
            wrapper, variable = value.where.split(" ", 1)
            message = (
                f"{shown} is in the variable {variable} that '{wrapper}' sets for the program "
                "it runs: a value must not set a program's environment (PATH, LD_PRELOAD, "
                "PYTHONPATH...: write the value out)"
            )
        elif value.kind == "option" and not value.where.strip("-"):
            message = (  # `-{{x}}`, `{{f:--}}{{x}}` (`{{a}}-{{x}}`: E100 at run when a is empty)
                f"{shown} follows only '{value.where}' at the start of its word: a value "
                f"there chooses an option (write the option out, '--name={shown[1:-1]}', or "
                "give the value a word of its own)"
            )
        elif value.kind == "option":
            message = (
                f"{shown} is glued to the option text '{value.where}': a value there chooses "
                f"the option (write the option out and the value as its own word, "
                f"'{value.where} {{{{{value.placeholder.name}}}}}', or after '=': "
                f"'--name={{{{{value.placeholder.name}}}}}')"
            )
        elif value.kind == "open":
            message = (
                f"{shown} is a file '{value.where}' opens with perl's two-argument open (<>): "
                "a value there runs a command ('cmd|') or truncates a file ('>file') (read "
                "the files with <<>>: perl -e 'while (<<>>) { print }' ...)"
            )
        else:
            where = (
                f"is in the inline code of '{value.where}'"
                if value.kind == "inline"
                else f"is the code '{value.where}' runs"
            )
            message = (
                f"{shown} {where}: a value there is code, not data (write the code out; "
                'pass it as an argument after the code and read it there, e.g. "$1" or '
                "sys.argv[1])"
            )
        issues.append(ToolIssue("command-code", message, tool.command.line, tool.name))
    options = [p.name for p in tool.parameters if p.option]
    for names, text in tool.command.option_starts(options):
        if not text.lstrip("-"):  # `{{name}}-{{size}}.png`: names no option
            continue
        shown = ", ".join(f"'{{{{{name}}}}}'" for name in names)
        message = (  # `{{a}}-u{{x}}`: `-uVALUE` when `a` is empty, E100 at run
            f"{shown} starts a word before the command's '{text}': empty, the word starts "
            f"with '{text}', an option, and skc run refuses it (put text before the value, or "
            "give the option a word of its own)"
        )
        issues.append(ToolIssue("command-code", message, tool.command.line, tool.name, "warning"))


def parse_tools(body: str, offset: int = 0) -> tuple[tuple[Tool, ...], tuple[ToolIssue, ...]]:
    """The tools of a Markdown body whose first line is file line ``offset + 1``. Its tables
    hold at most :data:`~skillc_index.markdown.table_rule.MAX_TABLE_CELLS` cells in all, as
    the skill model reads them: tools are read from the part before the row past the bound
    (:func:`~skillc_index.markdown.document.block_tokens`; 60 wide tables took gigabytes)."""
    from skillc_index.markdown.document import block_tokens

    tokens = block_tokens(body.replace("\r\n", "\n"), whole=True)
    issues: list[ToolIssue] = []
    sections: list[tuple[str, int, list[Token]]] = []  # (heading text, line, tokens)
    current: list[Token] | None = None
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and int(token.tag[1:]) <= 3:
            current = None
            if token.tag == "h3":
                line = (token.map[0] if token.map else 0) + offset + 1
                current = []
                sections.append((_inline_text(tokens[index + 1]), line, current))
        elif current is not None:
            current.append(token)
    tools: list[Tool] = []
    names: set[str] = set()
    for name, line, section in sections:
        if not _defines_tool(section):
            continue  # a heading of prose (`### Step 1: Install`), no tool
        if not _TOOL_NAME.match(name):
            message = f"tool name '{name}' must be 1-32 of a-z, 0-9 and _"
            issues.append(ToolIssue("tool-name", message, line, name))
        if name in names:
            issues.append(ToolIssue("tool-duplicate", f"duplicate tool '{name}'", line, name))
        names.add(name)
        tools.append(_tool(name, line, section, offset, issues))
    if not tools:
        message = (
            "no tool definitions found (### tool_name with a #### Parameters or #### Command "
            "section)"
        )
        issues.append(ToolIssue("no-tools", message, offset or 1))
    for tool in tools:
        _check_placeholders(tool, issues)
    return tuple(tools), tuple(issues)


#: The H4 sections that make an H3 a tool (§3.1): any other H3 is prose of the skill.
_TOOL_SECTIONS = frozenset({"parameters", "command"})


def _defines_tool(tokens: list[Token]) -> bool:
    """Whether the H3 section of ``tokens`` (its heading's inline token first) is a tool: it
    has a ``#### Parameters`` or ``#### Command`` heading (§3.1's block). An ordinary skill's
    H3 headings (``### Step 1: Install``, with a ```` ```bash ```` example or none) are not."""
    return any(
        token.type == "heading_open" and _inline_text(tokens[index + 1]).lower() in _TOOL_SECTIONS
        for index, token in enumerate(tokens[:-1])
    )


def _tool(name: str, line: int, tokens: list[Token], offset: int, issues: list[ToolIssue]) -> Tool:
    description: list[str] = []
    parameters: list[Parameter] = []
    blocks: dict[str, list[tuple[str, str, int]]] = {"command": [], "": []}
    subsection = ""  # the current H4+ heading, lowercased
    has_parameters = False
    index = 1  # tokens[0] is the heading's inline token
    while index < len(tokens):
        token = tokens[index]
        if token.type == "heading_open":
            subsection = _inline_text(tokens[index + 1]).lower()
            has_parameters = has_parameters or subsection == "parameters"
            index += 2
            continue
        if token.type == "inline" and not subsection:
            description.append(_inline_text(token))
        elif token.type == "table_open" and subsection == "parameters" and not parameters:
            rows, lines, index = _table(tokens, index, offset)
            parameters = _parameters(rows, lines, name, issues)
        elif token.type == "fence" and subsection in blocks:
            block_line = (token.map[0] if token.map else 0) + offset + 1
            language = token.info.strip().split(" ")[0].lower()
            blocks[subsection].append((language, token.content, block_line))
        index += 1
    if not has_parameters:
        message = f"tool '{name}' has no Parameters section (write 'None.' when it takes none)"
        issues.append(ToolIssue("parameters-missing", message, line, name, "warning"))
    # The blocks under "#### Command"; without that heading, those before any H4.
    command = _command(blocks["command"] or blocks[""], name, line, issues)
    return Tool(name, " ".join(description), tuple(parameters), command, line)


# -- the skill ---------------------------------------------------------------------------------


def _flag(data: Mapping[str, Any], key: str) -> bool:
    return data.get(key) is True


def skill_holds(root: str | os.PathLike[str]) -> Callable[[str], bool]:
    """Whether the skill folder ``root`` holds a file or folder of a name (``setup.js``): a
    module an interpreter loads first (``node -r setup.js``), which ``skc run`` then loads
    from the skill. A name with a ``/`` (or ``.``, ``..``) holds none: those are read as file
    names whatever the skill holds."""

    def holds(name: str) -> bool:
        return name not in ("", ".", "..") and "/" not in name and os.path.lexists(Path(root, name))

    return holds


#: A script word that names no file: standard input (``-``), or a specifier or URL with a
#: scheme (deno's ``npm:x``, ``jsr:@std/x``, ``https://...``).
_NO_FILE = re.compile(r"\A(?:-|[A-Za-z][A-Za-z0-9+.-]+:.*)\Z", re.DOTALL)


def script_file(word: str) -> str | None:
    """The file of the skill that ``word``, the script an interpreter runs
    (:meth:`CommandTemplate.scripts`), names: ``word`` normalized (``./x.py`` is ``x.py``).
    Every relative script is the skill's, held or not: ``skc run`` runs it from the skill
    (missing: not found, 127), never the working folder's file of that name, and the linter
    reports one the skill lacks. None for an absolute path, ``-`` or a specifier
    (:data:`_NO_FILE`)."""
    if not word or os.path.isabs(word) or _NO_FILE.match(word):  # noqa: PTH117 - a str
        return None
    return os.path.normpath(word).replace(os.sep, "/")


def parse_tool_skill(text: str, folder_name: str = "") -> ToolSkill:
    """A SKILL.md's text as a gibb.eri.sh skill; ``folder_name`` names it when the
    frontmatter has no ``name``. Tools are read from the part the skill model
    parses of any Markdown file (:func:`skillc_index.markdown.document.parsed_end`: 1 MiB,
    20,000 lines)."""
    from skillc_index.markdown.document import parsed_end

    text = normalize_newlines(text.removeprefix(BOM))  # as parse_markdown reads it
    frontmatter, body_offset = split_frontmatter(text)
    data: Mapping[str, Any] = frontmatter.data or {}
    offset = frontmatter.end_line if body_offset else 0
    end = parsed_end(text)
    tools, issues = parse_tools(text[body_offset:end] if body_offset < end else "", offset)
    name = data.get("name")
    description = data.get("description")
    version = data.get("version")
    raw_modes = data.get("modes", ["Global"])
    modes = tuple(m for m in (raw_modes if isinstance(raw_modes, list) else []) if m in MODES)
    timeout = data.get("timeout", DEFAULT_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, int):
        timeout = DEFAULT_TIMEOUT
    return ToolSkill(
        name=name if isinstance(name, str) and name else folder_name,
        description=folded_text(description),
        version=version if isinstance(version, str) else None,
        modes=modes or ("Global",),
        read_only=_flag(data, "read_only"),
        always_ask=_flag(data, "always_ask"),
        timeout=min(max(timeout, 1), MAX_TIMEOUT),
        network=_flag(data, "network"),
        tools=tools,
        issues=issues,
    )


def read_tool_skill(root: str | os.PathLike[str]) -> ToolSkill:
    """The skill folder ``root``'s SKILL.md as a gibb.eri.sh skill (UTF-8, never an error),
    read inside the skill (:func:`~skillc_index.files.read_in_root`: a SKILL.md linked out of
    it is E012, a FIFO E021) and no further than the part parsed (a 1 GB file took 2 GB of
    memory to run a tool). A ``root`` that is no folder is E022, an unreadable file E999
    (:func:`~skillc_index.files.typed_os_errors`). ``root`` may be a ``str``."""
    from skillc_index.diagnostics import SkillDirectoryNotFound
    from skillc_index.files import decoded, read_in_root, typed_os_errors
    from skillc_index.markdown.document import MARKDOWN_LIMIT

    root = Path(root)
    with typed_os_errors(str(root), SkillDirectoryNotFound):
        data = read_in_root(root, "SKILL.md", 4 * MARKDOWN_LIMIT)  # UTF-8: 4 bytes a character
    return parse_tool_skill(decoded(data), root.resolve().name)
