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
commands never pay for YAML or markdown parsing. A name 0.1.0 exported from here and the facade
no longer holds (``_MOVED``) still resolves until the next release, with a DeprecationWarning
naming its module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index._lazy import lazy_exports as _lazy_exports

__version__ = "0.2.0.dev0"

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
    "FolderChanged": "diagnostics",
    "NotARegularFile": "diagnostics",
    "FileIsAFolder": "diagnostics",
    "FileTooLarge": "diagnostics",
    "FindServerError": "diagnostics",
    "HttpServerError": "diagnostics",
    "LanguageServerError": "diagnostics",
    "InvalidOption": "option_errors",
    "UnknownTarget": "option_errors",
    "InternalError": "diagnostics",
    "UnreadableFile": "diagnostics",
    # the errors of the commands that write, of the usage logs and of tools
    "InvalidQueryType": "accesslog.errors",
    "MalformedFilter": "accesslog.errors",
    "EmptyTimeRange": "accesslog.errors",
    "NoLocalLogs": "accesslog.errors",
    "SyncDestinationNotWritable": "accesslog.errors",
    "SyncSourceNotReadable": "accesslog.errors",
    "TeamStoreUnavailable": "accesslog.errors",
    "DriverMissing": "accesslog.errors",
    "UnknownSkillTool": "tools.errors",
    "BrokenTool": "tools.errors",
    "ToolArgumentError": "tools.errors",
    "UnsupportedPlatform": "tools.errors",
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
    "KNOWN_TARGETS": "targets",
    "SKILL_FILE": "layout",
    "META_DIR": "layout",
    "expand_user": "layout",
    # a skill's files (RFC-0001:C-MANIFEST): walked, read inside its root, written atomically
    "walk_skill": "skill_files",
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
    "counted": "text",
    "table_lines": "columns",
    "char_name": "text",
    "composed": "text",
    "composed_match": "text",
    "composed_shown": "text",
    "grapheme_boundary": "text",
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
    "inline_text": "markdown.document",
    "read_markdown": "markdown.document",
    "read_parsed": "markdown.reading",
    "is_markdown": "markdown.reading",
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
    # what skc package refuses or warns of in a skill's paths (lint's SKL933 says it first)
    "path_problems": "package.portable",
    # what an agent's skill listing costs
    "CHARS_PER_TOKEN": "listing.budget_result",
    "MAX_ENTRY_DESCRIPTION": "listing.budget",
    "estimate_tokens": "listing.budget_result",
    "folder_budget": "listing.budget",
    # the search and headings index (RFC-0004:C-INDEX)
    "index_path": "index.schema",
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

# a name 0.1.0 exported and the facade no longer does -> the public module holding it now: it
# still resolves, with a DeprecationWarning naming that module, until the next release (the
# CHANGELOG's "Moved" list is this table; test_moved_names.py keeps the two the same)
_MOVED: dict[str, str] = {
    "batch_jobs": "build.jobs",
    "BatchItem": "build.batch",
    "BatchJob": "build.jobs",
    "BatchResult": "build.batch",
    "build_skills": "build.batch",
    "is_folder_of_skills": "build.jobs",
    "compile_skill": "build.compiler",
    "CompileResult": "build.compiler",
    "IndexReport": "build.compiler",
    "Deployment": "build.deploy",
    "Manifest": "build.manifest",
    "read_manifest": "build.manifest",
    "write_manifest": "build.manifest",
    "init_project": "build.scaffold",
    "init_skill": "build.scaffold",
    "InitResult": "build.scaffold",
    "NameNeeded": "build.scaffold",
    "skill_template": "build.scaffold",
    "build_skill": "build.skill",
    "BuildResult": "build.skill",
    "utc_now": "clock",
    "CannotCreate": "command_errors",
    "CompiledSkillGiven": "command_errors",
    "EmptyTargetName": "command_errors",
    "ForeignFolder": "command_errors",
    "InvalidFilter": "accesslog.errors",
    "MissingFrontmatterField": "command_errors",
    "RuntimeNotAFolder": "command_errors",
    "SkillExists": "command_errors",
    "StoreCopyDiffers": "command_errors",
    "TargetInsideSkill": "command_errors",
    "TrackedDestination": "command_errors",
    "BinaryFile": "diagnostics",
    "HiddenPath": "diagnostics",
    "logging_disabled": "diagnostics",
    "PARAMETER_NAMES": "diagnostics",
    "PathNotFound": "diagnostics",
    "severity_of": "diagnostics",
    "SkillNotFound": "diagnostics",
    "stale_local_logs": "diagnostics",
    "TEMPLATES": "diagnostics",
    "TooManyQueryWords": "option_errors",
    "read_text_in_root": "files",
    "source_hash": "digests",
    "SkillFiles": "skill_files",
    "check_index": "index.freshness",
    "index_is_fresh": "index.freshness",
    "IndexState": "index.freshness",
    "inspect_index": "index.freshness",
    "require_index": "index.freshness",
    "index_tokenizer": "index.fts",
    "prepare_fts_text": "index.fts",
    "restore_fts_text": "index.fts",
    "IndexOutline": "index.queries",
    "section_queries": "index.queries",
    "markdown_documents": "index.rows",
    "FileStat": "index.schema",
    "hash16": "index.schema",
    "IndexMeta": "index.schema",
    "SCHEMA_VERSION": "index.schema",
    "ROUTER_MARK": "inventory.deployed",
    "AgentTarget": "layout",
    "find_project_root": "layout",
    "home_dir": "homes",
    "Scope": "layout",
    "FolderBudget": "listing.budget_result",
    "listing_budgets": "listing.budget",
    "ListingEntry": "listing.budget_result",
    "list_skills": "listing.skills",
    "SkillEntry": "listing.skills",
    "SkillList": "listing.skills",
    "Heading": "markdown.document",
    "Link": "markdown.document",
    "MARKDOWN_LIMIT": "markdown.document",
    "read_skill_metadata": "markdown.metadata",
    "SkillMetadata": "markdown.metadata",
    "title_of": "markdown.document",
    "Frontmatter": "markdown.frontmatter",
    "MAX_COUNT": "arguments",
    "route_install": "route.commands",
    "route_status": "route.commands",
    "route_uninstall": "route.uninstall",
    "FolderRoutedAs": "route.result",
    "NoProjectToRoute": "route.result",
    "RouteBusy": "route.result",
    "RoutedElsewhere": "route.result",
    "RoutedSkill": "route.result",
    "RouteOutside": "route.result",
    "RouteResult": "route.result",
    "SkillLeft": "route.result",
    "ROUTER_NAME": "route.router_skill",
    "sqlite_uri": "sqlite",
    "iter_lines": "text",
    "one_line": "text",
    "CodeValue": "tools.code_values",
    "OptionLikeValue": "tools.command",
    "parse_command": "tools.command",
    "Placeholder": "tools.command",
    "Text": "tools.command",
    "Parameter": "tools.model",
    "PARAMETER_TYPES": "tools.model",
}


__getattr__, __dir__ = _lazy_exports(__name__, _EXPORTS, globals(), _MOVED)


if TYPE_CHECKING:
    from skillc_index._lazy import lazy_exports as lazy_exports
    from skillc_index.accesslog.errors import DriverMissing as DriverMissing
    from skillc_index.accesslog.errors import EmptyTimeRange as EmptyTimeRange
    from skillc_index.accesslog.errors import InvalidQueryType as InvalidQueryType
    from skillc_index.accesslog.errors import MalformedFilter as MalformedFilter
    from skillc_index.accesslog.errors import NoLocalLogs as NoLocalLogs
    from skillc_index.accesslog.errors import (
        SyncDestinationNotWritable as SyncDestinationNotWritable,
    )
    from skillc_index.accesslog.errors import SyncSourceNotReadable as SyncSourceNotReadable
    from skillc_index.accesslog.errors import TeamStoreUnavailable as TeamStoreUnavailable
    from skillc_index.atomic import write_file_atomic as write_file_atomic
    from skillc_index.bounded_json import MAX_JSON_BYTES as MAX_JSON_BYTES
    from skillc_index.bounded_json import MAX_JSON_DEPTH as MAX_JSON_DEPTH
    from skillc_index.bounded_json import JsonRejected as JsonRejected
    from skillc_index.bounded_json import loads_bounded as loads_bounded
    from skillc_index.bounded_json import read_json_bounded as read_json_bounded
    from skillc_index.build.deploy import parse_targets as parse_targets
    from skillc_index.build.manifest import manifest_path as manifest_path
    from skillc_index.build.project import project_frontmatter as project_frontmatter
    from skillc_index.columns import table_lines as table_lines
    from skillc_index.command_errors import NoSkillBeforeCut as NoSkillBeforeCut
    from skillc_index.command_errors import NoSkillGiven as NoSkillGiven
    from skillc_index.config import Config as Config
    from skillc_index.config import find_config as find_config
    from skillc_index.config import load_config as load_config
    from skillc_index.diagnostics import Diagnostic as Diagnostic
    from skillc_index.diagnostics import EmptyQuery as EmptyQuery
    from skillc_index.diagnostics import FileIsAFolder as FileIsAFolder
    from skillc_index.diagnostics import FileTooLarge as FileTooLarge
    from skillc_index.diagnostics import FindServerError as FindServerError
    from skillc_index.diagnostics import FolderChanged as FolderChanged
    from skillc_index.diagnostics import HttpServerError as HttpServerError
    from skillc_index.diagnostics import IndexCollision as IndexCollision
    from skillc_index.diagnostics import IndexUnusable as IndexUnusable
    from skillc_index.diagnostics import InternalError as InternalError
    from skillc_index.diagnostics import LanguageServerError as LanguageServerError
    from skillc_index.diagnostics import NotARegularFile as NotARegularFile
    from skillc_index.diagnostics import NotASkill as NotASkill
    from skillc_index.diagnostics import Notice as Notice
    from skillc_index.diagnostics import PathEscapesRoot as PathEscapesRoot
    from skillc_index.diagnostics import SectionNotFound as SectionNotFound
    from skillc_index.diagnostics import SkillcError as SkillcError
    from skillc_index.diagnostics import SkillDirectoryNotFound as SkillDirectoryNotFound
    from skillc_index.diagnostics import SkillFileNotFound as SkillFileNotFound
    from skillc_index.diagnostics import UnreadableFile as UnreadableFile
    from skillc_index.diagnostics import diagnostic_json as diagnostic_json
    from skillc_index.diagnostics import error_line as error_line
    from skillc_index.diagnostics import format_diagnostic as format_diagnostic
    from skillc_index.diagnostics import lint_diagnostic as lint_diagnostic
    from skillc_index.diagnostics import multiple_matches as multiple_matches
    from skillc_index.dialect import Dialect as Dialect
    from skillc_index.dialect import name_refusals as name_refusals
    from skillc_index.dialect import skill_name_problem as skill_name_problem
    from skillc_index.dialect import target_dialects as target_dialects
    from skillc_index.files import fs_bytes as fs_bytes
    from skillc_index.files import is_file as is_file
    from skillc_index.files import is_folder as is_folder
    from skillc_index.files import is_hidden as is_hidden
    from skillc_index.files import open_in_root as open_in_root
    from skillc_index.files import read_in_root as read_in_root
    from skillc_index.files import safe_join as safe_join
    from skillc_index.files import within as within
    from skillc_index.index.cache import ensure_index as ensure_index
    from skillc_index.index.freshness import IndexHandle as IndexHandle
    from skillc_index.index.freshness import fresh_index as fresh_index
    from skillc_index.index.fts import fts_query as fts_query
    from skillc_index.index.queries import HeadingMatcher as HeadingMatcher
    from skillc_index.index.queries import SectionHit as SectionHit
    from skillc_index.index.queries import find_headings as find_headings
    from skillc_index.index.queries import matching_headings as matching_headings
    from skillc_index.index.queries import normalized_query as normalized_query
    from skillc_index.index.queries import read_headings as read_headings
    from skillc_index.index.queries import read_outline as read_outline
    from skillc_index.index.queries import search_sections as search_sections
    from skillc_index.index.schema import IndexedHeading as IndexedHeading
    from skillc_index.index.schema import index_path as index_path
    from skillc_index.layout import META_DIR as META_DIR
    from skillc_index.layout import SKILL_FILE as SKILL_FILE
    from skillc_index.layout import Layout as Layout
    from skillc_index.layout import ResolvedSkill as ResolvedSkill
    from skillc_index.layout import expand_user as expand_user
    from skillc_index.layout import resolve_skill as resolve_skill
    from skillc_index.layout import runtime_for as runtime_for
    from skillc_index.listing.budget import MAX_ENTRY_DESCRIPTION as MAX_ENTRY_DESCRIPTION
    from skillc_index.listing.budget import folder_budget as folder_budget
    from skillc_index.listing.budget_result import CHARS_PER_TOKEN as CHARS_PER_TOKEN
    from skillc_index.listing.budget_result import estimate_tokens as estimate_tokens
    from skillc_index.markdown.document import CodeBlock as CodeBlock
    from skillc_index.markdown.document import Html as Html
    from skillc_index.markdown.document import MarkdownDoc as MarkdownDoc
    from skillc_index.markdown.document import inline_text as inline_text
    from skillc_index.markdown.document import limit_notice as limit_notice
    from skillc_index.markdown.document import over_limit_notice as over_limit_notice
    from skillc_index.markdown.document import parse_markdown as parse_markdown
    from skillc_index.markdown.document import read_markdown as read_markdown
    from skillc_index.markdown.frontmatter import parse_frontmatter as parse_frontmatter
    from skillc_index.markdown.frontmatter import type_name as type_name
    from skillc_index.markdown.reading import is_markdown as is_markdown
    from skillc_index.markdown.reading import read_parsed as read_parsed
    from skillc_index.option_errors import InvalidOption as InvalidOption
    from skillc_index.option_errors import UnknownTarget as UnknownTarget
    from skillc_index.package.portable import path_problems as path_problems
    from skillc_index.skill_files import walk_skill as walk_skill
    from skillc_index.spelling import CLI_SPELLING as CLI_SPELLING
    from skillc_index.spelling import MCP_SPELLING as MCP_SPELLING
    from skillc_index.spelling import Spelling as Spelling
    from skillc_index.sqlite import use_wal as use_wal
    from skillc_index.targets import KNOWN_TARGETS as KNOWN_TARGETS
    from skillc_index.text import char_name as char_name
    from skillc_index.text import composed as composed
    from skillc_index.text import composed_match as composed_match
    from skillc_index.text import composed_shown as composed_shown
    from skillc_index.text import counted as counted
    from skillc_index.text import grapheme_boundary as grapheme_boundary
    from skillc_index.text import iter_line_bytes as iter_line_bytes
    from skillc_index.text import json_text as json_text
    from skillc_index.text import printable as printable
    from skillc_index.text import shell_word as shell_word
    from skillc_index.text import split_lines as split_lines
    from skillc_index.text import valid_utf8 as valid_utf8
    from skillc_index.tools.command import CommandTemplate as CommandTemplate
    from skillc_index.tools.errors import BrokenTool as BrokenTool
    from skillc_index.tools.errors import ToolArgumentError as ToolArgumentError
    from skillc_index.tools.errors import UnknownSkillTool as UnknownSkillTool
    from skillc_index.tools.errors import UnsupportedPlatform as UnsupportedPlatform
    from skillc_index.tools.model import MAX_TIMEOUT as MAX_TIMEOUT
    from skillc_index.tools.model import MODES as MODES
    from skillc_index.tools.model import Tool as Tool
    from skillc_index.tools.model import ToolIssue as ToolIssue
    from skillc_index.tools.model import ToolSkill as ToolSkill
    from skillc_index.tools.model import parse_tool_skill as parse_tool_skill
    from skillc_index.tools.model import read_tool_skill as read_tool_skill
    from skillc_index.walk import SKIPPED_FOLDERS as SKIPPED_FOLDERS
    from skillc_index.walk import cut_short as cut_short
    from skillc_index.walk import find_skill_folders as find_skill_folders
    from skillc_index.walk import skips_folder as skips_folder
