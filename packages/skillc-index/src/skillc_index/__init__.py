"""skillc-index: the foundation of the skillc kit.

The diagnostics registry (RFC-0005), configuration (RFC-0009), storage layout and skill
resolution (RFC-0007, ADR-0001/0002), the skill model (frontmatter, headings, links), the
source hash, the search index, the access log, and the ``init``, ``list``, ``build`` and
``route`` commands.

This facade holds the names the other packages of the kit (skillc-lint, skillc-gateway,
skillc-stats, skillc-mcp, skillc) import from ``skillc_index``, and nothing more; everything
else is imported from its public module (``from skillc_index.build.skill import
build_skill``: the README's "Layout" says which module holds what). Importing it is cheap:
names are loaded from their modules on first use (PEP 562), so ``--help`` and unrelated
commands never pay for YAML or markdown parsing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index._lazy import lazy_exports

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    # the PEP 562 helper every package of the kit uses for its own lazy names
    "lazy_exports": "_lazy",
    # diagnostics (RFC-0005): the registry, formatting, the errors of finding and reading
    "Diagnostic": "diagnostics",
    "Notice": "diagnostics",
    "format_diagnostic": "diagnostics",
    "diagnostic_json": "diagnostics",
    "error_line": "diagnostics",
    "lint_diagnostic": "diagnostics",
    "multiple_matches": "diagnostics",
    "CLI_SPELLING": "spelling",
    "MCP_SPELLING": "spelling",
    "Spelling": "spelling",
    "SkillcError": "diagnostics",
    "IndexUnusable": "diagnostics",
    "IndexCollision": "diagnostics",
    "EmptyQuery": "diagnostics",
    "NotASkill": "diagnostics",
    "PathEscapesRoot": "diagnostics",
    "SectionNotFound": "diagnostics",
    "SkillFileNotFound": "diagnostics",
    "SkillDirectoryNotFound": "diagnostics",
    "NotARegularFile": "diagnostics",
    "FileIsAFolder": "diagnostics",
    "FileTooLarge": "diagnostics",
    "FindServerError": "diagnostics",
    "HttpServerError": "diagnostics",
    "LanguageServerError": "diagnostics",
    "InvalidOption": "diagnostics",
    "UnknownTarget": "diagnostics",
    "InternalError": "diagnostics",
    "UnreadableFile": "diagnostics",
    # the errors of the commands that write, of the usage logs and of tools
    "InvalidQueryType": "command_errors",
    "MalformedFilter": "command_errors",
    "EmptyTimeRange": "command_errors",
    "NoLocalLogs": "command_errors",
    "SyncDestinationNotWritable": "command_errors",
    "SyncSourceNotReadable": "command_errors",
    "TeamStoreUnavailable": "command_errors",
    "DriverMissing": "command_errors",
    "UnknownSkillTool": "command_errors",
    "BrokenTool": "command_errors",
    "ToolArgumentError": "command_errors",
    "UnsupportedPlatform": "command_errors",
    "NoSkillGiven": "command_errors",
    "NoSkillBeforeCut": "command_errors",
    # configuration (RFC-0009)
    "Config": "config",
    "load_config": "config",
    "find_config": "config",
    # layout and resolution (RFC-0007:C-RESOLUTION, ADR-0001/0002)
    "Layout": "layout",
    "ResolvedSkill": "layout",
    "resolve_skill": "layout",
    "runtime_for": "layout",
    "skill_name_problem": "dialect",
    "KNOWN_TARGETS": "layout",
    "SKILL_FILE": "layout",
    "META_DIR": "layout",
    "expand_user": "layout",
    # a skill's files (RFC-0001:C-MANIFEST): walked, read inside its root, written atomically
    "walk_skill": "files",
    "safe_join": "files",
    "is_hidden": "files",
    "is_folder": "files",
    "is_file": "files",
    "within": "files",
    "open_in_root": "files",
    "read_in_root": "files",
    "fs_bytes": "files",
    "write_file_atomic": "atomic",
    # walking a folder for skills: the one rule of build, lint and find
    "find_skill_folders": "walk",
    "cut_short": "walk",
    "SKIPPED_FOLDERS": "walk",
    "skips_folder": "walk",
    # text: its lines, UTF-8 checks, escaping for a terminal
    "iter_line_bytes": "text",
    "split_lines": "text",
    "json_text": "text",
    "cut": "text",
    "printable": "text",
    "shell_word": "text",
    "valid_utf8": "text",
    # JSON someone else could have written: bounded in size and nesting
    "MAX_JSON_BYTES": "bounded_json",
    "MAX_JSON_DEPTH": "bounded_json",
    "JsonRejected": "bounded_json",
    "loads_bounded": "bounded_json",
    "read_json_bounded": "bounded_json",
    # the one way to open SQLite (skillc_index.sqlite.connect): WAL that waits for others
    "use_wal": "sqlite",
    # the skill model
    "parse_frontmatter": "markdown.frontmatter",
    "type_name": "markdown.frontmatter",
    "CodeBlock": "markdown.document",
    "Html": "markdown.document",
    "MarkdownDoc": "markdown.document",
    "parse_markdown": "markdown.document",
    "read_markdown": "markdown.document",
    "read_parsed": "markdown.document",
    "limit_notice": "markdown.document",
    "over_limit_notice": "markdown.document",
    # build: where the manifest is, the deployment targets
    "manifest_path": "build.manifest",
    "parse_targets": "build.deploy",
    # what each agent reads (issue 37): the dialects and the projection onto one
    "Dialect": "dialect",
    "target_dialects": "dialect",
    "name_refusals": "dialect",
    "project_frontmatter": "build.project",
    # what an agent's skill listing costs
    "CHARS_PER_TOKEN": "listing.budget",
    "MAX_ENTRY_DESCRIPTION": "listing.budget",
    "estimate_tokens": "listing.budget",
    "folder_budget": "listing.budget",
    # the search and headings index (RFC-0004:C-INDEX)
    "index_path": "index.schema",
    "FileStat": "index.schema",
    "IndexedHeading": "index.schema",
    "IndexHandle": "index.freshness",
    "ensure_index": "index.cache",
    "fresh_index": "index.freshness",
    "fts_query": "index.fts",
    "read_headings": "index.queries",
    "read_outline": "index.queries",
    "find_headings": "index.queries",
    "matching_headings": "index.queries",
    "HeadingMatcher": "index.queries",
    "normalized_query": "index.queries",
    "search_sections": "index.queries",
    "SectionHit": "index.queries",
    # the tool model of gibb.eri.sh skills (spec/003)
    "read_tool_skill": "tools.model",
    "parse_tool_skill": "tools.model",
    "ToolSkill": "tools.model",
    "Tool": "tools.model",
    "ToolIssue": "tools.model",
    "MODES": "tools.model",
    "MAX_TIMEOUT": "tools.model",
    "CommandTemplate": "tools.command",
}

__all__ = ["__version__", *_EXPORTS]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


if TYPE_CHECKING:
    from skillc_index._lazy import lazy_exports
    from skillc_index.atomic import write_file_atomic
    from skillc_index.bounded_json import (
        MAX_JSON_BYTES,
        MAX_JSON_DEPTH,
        JsonRejected,
        loads_bounded,
        read_json_bounded,
    )
    from skillc_index.build.deploy import parse_targets
    from skillc_index.build.manifest import manifest_path
    from skillc_index.build.project import project_frontmatter
    from skillc_index.command_errors import (
        BrokenTool,
        DriverMissing,
        EmptyTimeRange,
        InvalidQueryType,
        MalformedFilter,
        NoLocalLogs,
        NoSkillBeforeCut,
        NoSkillGiven,
        SyncDestinationNotWritable,
        SyncSourceNotReadable,
        TeamStoreUnavailable,
        ToolArgumentError,
        UnknownSkillTool,
        UnsupportedPlatform,
    )
    from skillc_index.config import Config, find_config, load_config
    from skillc_index.diagnostics import (
        Diagnostic,
        EmptyQuery,
        FileIsAFolder,
        FileTooLarge,
        FindServerError,
        HttpServerError,
        IndexCollision,
        IndexUnusable,
        InternalError,
        InvalidOption,
        LanguageServerError,
        NotARegularFile,
        NotASkill,
        Notice,
        PathEscapesRoot,
        SectionNotFound,
        SkillcError,
        SkillDirectoryNotFound,
        SkillFileNotFound,
        UnknownTarget,
        UnreadableFile,
        diagnostic_json,
        error_line,
        format_diagnostic,
        lint_diagnostic,
        multiple_matches,
    )
    from skillc_index.dialect import Dialect, name_refusals, skill_name_problem, target_dialects
    from skillc_index.files import (
        fs_bytes,
        is_file,
        is_folder,
        is_hidden,
        open_in_root,
        read_in_root,
        safe_join,
        walk_skill,
        within,
    )
    from skillc_index.index.cache import ensure_index
    from skillc_index.index.freshness import IndexHandle, fresh_index
    from skillc_index.index.fts import fts_query
    from skillc_index.index.queries import (
        HeadingMatcher,
        SectionHit,
        find_headings,
        matching_headings,
        normalized_query,
        read_headings,
        read_outline,
        search_sections,
    )
    from skillc_index.index.schema import FileStat, IndexedHeading, index_path
    from skillc_index.layout import (
        KNOWN_TARGETS,
        META_DIR,
        SKILL_FILE,
        Layout,
        ResolvedSkill,
        expand_user,
        resolve_skill,
        runtime_for,
    )
    from skillc_index.listing.budget import (
        CHARS_PER_TOKEN,
        MAX_ENTRY_DESCRIPTION,
        estimate_tokens,
        folder_budget,
    )
    from skillc_index.markdown.document import (
        CodeBlock,
        Html,
        MarkdownDoc,
        limit_notice,
        over_limit_notice,
        parse_markdown,
        read_markdown,
        read_parsed,
    )
    from skillc_index.markdown.frontmatter import parse_frontmatter, type_name
    from skillc_index.spelling import CLI_SPELLING, MCP_SPELLING, Spelling
    from skillc_index.sqlite import use_wal
    from skillc_index.text import (
        cut,
        iter_line_bytes,
        json_text,
        printable,
        shell_word,
        split_lines,
        valid_utf8,
    )
    from skillc_index.tools.command import CommandTemplate
    from skillc_index.tools.model import (
        MAX_TIMEOUT,
        MODES,
        Tool,
        ToolIssue,
        ToolSkill,
        parse_tool_skill,
        read_tool_skill,
    )
    from skillc_index.walk import SKIPPED_FOLDERS, cut_short, find_skill_folders, skips_folder
