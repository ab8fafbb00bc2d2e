"""skillc-index: the foundation of the skillc kit.

The diagnostics registry (RFC-0005), configuration (RFC-0009), storage layout and skill
resolution (RFC-0007, ADR-0001/0002), the skill model (frontmatter, headings, links), the
source hash, and the ``init`` and ``list`` commands' library functions.

Importing this package is cheap: names are loaded from their modules on first use (PEP 562),
so ``--help`` and unrelated commands never pay for YAML or markdown parsing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skillc_index._lazy import lazy_exports

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    # the PEP 562 helper every package of the kit uses for its own lazy names
    "lazy_exports": "_lazy",
    # the one clock (RFC 3339 UTC timestamps)
    "utc_now": "clock",
    # the one way to open SQLite: a URI for a path, WAL that waits for other processes
    "sqlite_uri": "sqlite",
    "use_wal": "sqlite",
    # diagnostics (RFC-0005)
    "TEMPLATES": "diagnostics",
    "Diagnostic": "diagnostics",
    "Notice": "diagnostics",
    "format_diagnostic": "diagnostics",
    "severity_of": "diagnostics",
    "lint_diagnostic": "diagnostics",
    "multiple_matches": "diagnostics",
    "logging_disabled": "diagnostics",
    "stale_local_logs": "diagnostics",
    "SkillcError": "diagnostics",
    "SkillNotFound": "diagnostics",
    "IndexUnusable": "diagnostics",
    "IndexCollision": "diagnostics",
    "EmptyQuery": "diagnostics",
    "NotASkill": "diagnostics",
    "MissingFrontmatterField": "command_errors",
    "PathEscapesRoot": "diagnostics",
    "SectionNotFound": "diagnostics",
    "SkillFileNotFound": "diagnostics",
    "PathNotFound": "diagnostics",
    "SkillDirectoryNotFound": "diagnostics",
    "NotARegularFile": "diagnostics",
    "HiddenPath": "diagnostics",
    "InvalidQueryType": "command_errors",
    "InvalidFilter": "command_errors",
    "NoLocalLogs": "command_errors",
    "SyncDestinationNotWritable": "command_errors",
    "SyncSourceNotReadable": "command_errors",
    "TeamStoreUnavailable": "command_errors",
    "DriverMissing": "command_errors",
    "SkillExists": "command_errors",
    "FindServerError": "diagnostics",
    "InvalidOption": "diagnostics",
    "InternalError": "diagnostics",
    "Spelling": "diagnostics",
    "PARAMETER_NAMES": "diagnostics",
    "CLI_SPELLING": "diagnostics",
    "ForeignFolder": "command_errors",
    "TrackedDestination": "command_errors",
    "StoreCopyDiffers": "command_errors",
    "FileIsAFolder": "diagnostics",
    "FileTooLarge": "diagnostics",
    "MalformedFilter": "command_errors",
    "EmptyTimeRange": "command_errors",
    "UnknownSkillTool": "command_errors",
    "BrokenTool": "command_errors",
    "ToolArgumentError": "command_errors",
    "UnsupportedPlatform": "command_errors",
    "UnknownTarget": "diagnostics",
    "EmptyTargetName": "command_errors",
    "TargetInsideSkill": "command_errors",
    "CompiledSkillGiven": "command_errors",
    "TooManyQueryWords": "diagnostics",
    "NoSkillGiven": "command_errors",
    "UnreadableFile": "diagnostics",
    "CannotCreate": "command_errors",
    "BinaryFile": "diagnostics",
    "RuntimeNotAFolder": "command_errors",
    "error_line": "diagnostics",
    "MAX_COUNT": "diagnostics",
    # configuration (RFC-0009)
    "Config": "config",
    "load_config": "config",
    # layout and resolution (RFC-0007:C-RESOLUTION, ADR-0001/0002)
    "KNOWN_TARGETS": "layout",
    "AgentTarget": "layout",
    "Layout": "layout",
    "ResolvedSkill": "layout",
    "Scope": "layout",
    "home_dir": "layout",
    "find_project_root": "layout",
    "resolve_skill": "layout",
    "skill_name_problem": "layout",
    "SKILL_FILE": "layout",
    "META_DIR": "layout",
    "runtime_for": "layout",
    # the skill model
    "Frontmatter": "markdown.frontmatter",
    "Heading": "markdown.document",
    "Html": "markdown.document",
    "Link": "markdown.document",
    "MarkdownDoc": "markdown.document",
    "SkillMetadata": "markdown.document",
    "parse_frontmatter": "markdown.frontmatter",
    "type_name": "markdown.frontmatter",
    "parse_markdown": "markdown.document",
    "MARKDOWN_LIMIT": "markdown.document",
    "limit_notice": "markdown.document",
    "over_limit_notice": "markdown.document",
    "read_markdown": "markdown.document",
    "read_skill_metadata": "markdown.document",
    "title_of": "markdown.document",
    # files and the source hash (RFC-0001:C-MANIFEST)
    "write_file_atomic": "atomic",
    "SkillFiles": "files",
    "walk_skill": "files",
    "source_hash": "files",
    "safe_join": "files",
    "is_hidden": "files",
    "open_in_root": "files",
    "within": "files",
    "is_folder": "files",
    "read_text_in_root": "files",
    "fs_bytes": "files",
    # text: the one line splitter, UTF-8 checks
    "iter_line_bytes": "text",
    "iter_lines": "text",
    "split_lines": "text",
    "json_text": "text",
    "one_line": "text",
    "printable": "text",
    "valid_utf8": "text",
    # JSON someone else could have written: bounded in size and nesting
    "MAX_JSON_BYTES": "bounded_json",
    "MAX_JSON_DEPTH": "bounded_json",
    "JsonRejected": "bounded_json",
    "json_depth": "bounded_json",
    "loads_bounded": "bounded_json",
    "read_json_bounded": "bounded_json",
    # manifest
    "Manifest": "build.manifest",
    "read_manifest": "build.manifest",
    "manifest_path": "build.manifest",
    "write_manifest": "build.manifest",
    # init (RFC-0006) and list (RFC-0007:C-LIST)
    "InitResult": "build.scaffold",
    "NameNeeded": "build.scaffold",
    "init_project": "build.scaffold",
    "init_skill": "build.scaffold",
    "skill_template": "build.scaffold",
    "SkillEntry": "listing.skills",
    "SkillList": "listing.skills",
    "list_skills": "listing.skills",
    # what an agent's skill listing costs (list --budget) and the router (route)
    "CHARS_PER_TOKEN": "listing.budget",
    "MAX_ENTRY_DESCRIPTION": "listing.budget",
    "estimate_tokens": "listing.budget",
    "FolderBudget": "listing.budget",
    "ListingEntry": "listing.budget",
    "folder_budget": "listing.budget",
    "listing_budgets": "listing.budget",
    "ROUTER_NAME": "route.router_skill",
    "ROUTER_MARK": "installed",
    "RouteResult": "route.result",
    "RoutedSkill": "route.result",
    "SkillLeft": "route.result",
    "NoProjectToRoute": "route.result",
    "RouteOutside": "route.result",
    "RoutedElsewhere": "route.result",
    "FolderRoutedAs": "route.result",
    "RouteBusy": "route.result",
    "route_install": "route.commands",
    "route_uninstall": "route.commands",
    "route_status": "route.commands",
    # build (RFC-0001, RFC-0007 build): compile, index, deploy
    "BuildResult": "build.skill",
    "build_skill": "build.skill",
    "BatchJob": "build.batch",
    "BatchItem": "build.batch",
    "BatchResult": "build.batch",
    "batch_jobs": "build.batch",
    "build_skills": "build.batch",
    # walking a folder for skills: the one rule of build, lint and find
    "find_skill_folders": "walk",
    "SKIPPED_FOLDERS": "walk",
    "skips_folder": "walk",
    "is_folder_of_skills": "build.batch",
    "CompileResult": "build.compiler",
    "IndexReport": "build.compiler",
    "compile_skill": "build.compiler",
    "markdown_documents": "build.compiler",
    "Deployment": "build.deploy",
    "parse_targets": "build.deploy",
    # the search and headings index (RFC-0004:C-INDEX), in the index/ subpackage
    "SCHEMA_VERSION": "index.schema",
    "FileStat": "index.schema",
    "IndexMeta": "index.schema",
    "IndexedHeading": "index.schema",
    "hash16": "index.schema",
    "index_path": "index.schema",
    "IndexHandle": "index.freshness",
    "IndexState": "index.freshness",
    "check_index": "index.freshness",
    "index_is_fresh": "index.freshness",
    "inspect_index": "index.freshness",
    "require_index": "index.freshness",
    "fresh_index": "index.freshness",
    "SectionHit": "index.queries",
    "read_headings": "index.queries",
    "IndexOutline": "index.queries",
    "read_outline": "index.queries",
    "find_headings": "index.queries",
    "section_queries": "index.queries",
    "search_sections": "index.queries",
    "fts_query": "index.fts",
    "index_tokenizer": "index.fts",
    "prepare_fts_text": "index.fts",
    "restore_fts_text": "index.fts",
    # the tool model of gibb.eri.sh skills (spec/003)
    "CommandTemplate": "tools.command",
    "CodeValue": "tools.command",
    "OptionLikeValue": "tools.command",
    "Placeholder": "tools.command",
    "Text": "tools.command",
    "parse_command": "tools.command",
    "PARAMETER_TYPES": "tools.model",
    "Parameter": "tools.model",
    "Tool": "tools.model",
    "ToolIssue": "tools.model",
    "ToolSkill": "tools.model",
    "parse_tool_skill": "tools.model",
    "read_tool_skill": "tools.model",
    "MAX_TIMEOUT": "tools.model",
    "MODES": "tools.model",
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
        json_depth,
        loads_bounded,
        read_json_bounded,
    )
    from skillc_index.build.batch import (
        BatchItem,
        BatchJob,
        BatchResult,
        batch_jobs,
        build_skills,
        is_folder_of_skills,
    )
    from skillc_index.build.compiler import (
        CompileResult,
        IndexReport,
        compile_skill,
        markdown_documents,
    )
    from skillc_index.build.deploy import Deployment, parse_targets
    from skillc_index.build.manifest import Manifest, manifest_path, read_manifest, write_manifest
    from skillc_index.build.scaffold import (
        InitResult,
        NameNeeded,
        init_project,
        init_skill,
        skill_template,
    )
    from skillc_index.build.skill import BuildResult, build_skill
    from skillc_index.clock import utc_now
    from skillc_index.command_errors import (
        BrokenTool,
        CannotCreate,
        CompiledSkillGiven,
        DriverMissing,
        EmptyTargetName,
        EmptyTimeRange,
        ForeignFolder,
        InvalidFilter,
        InvalidQueryType,
        MalformedFilter,
        MissingFrontmatterField,
        NoLocalLogs,
        NoSkillGiven,
        RuntimeNotAFolder,
        SkillExists,
        StoreCopyDiffers,
        SyncDestinationNotWritable,
        SyncSourceNotReadable,
        TargetInsideSkill,
        TeamStoreUnavailable,
        ToolArgumentError,
        TrackedDestination,
        UnknownSkillTool,
        UnsupportedPlatform,
    )
    from skillc_index.config import Config, load_config
    from skillc_index.diagnostics import (
        CLI_SPELLING,
        MAX_COUNT,
        PARAMETER_NAMES,
        TEMPLATES,
        BinaryFile,
        Diagnostic,
        EmptyQuery,
        FileIsAFolder,
        FileTooLarge,
        FindServerError,
        HiddenPath,
        IndexCollision,
        IndexUnusable,
        InternalError,
        InvalidOption,
        NotARegularFile,
        NotASkill,
        Notice,
        PathEscapesRoot,
        PathNotFound,
        SectionNotFound,
        SkillcError,
        SkillDirectoryNotFound,
        SkillFileNotFound,
        SkillNotFound,
        Spelling,
        TooManyQueryWords,
        UnknownTarget,
        UnreadableFile,
        error_line,
        format_diagnostic,
        lint_diagnostic,
        logging_disabled,
        multiple_matches,
        severity_of,
        stale_local_logs,
    )
    from skillc_index.files import (
        SkillFiles,
        fs_bytes,
        is_folder,
        is_hidden,
        open_in_root,
        read_text_in_root,
        safe_join,
        source_hash,
        walk_skill,
        within,
    )
    from skillc_index.index.freshness import (
        IndexHandle,
        IndexState,
        check_index,
        fresh_index,
        index_is_fresh,
        inspect_index,
        require_index,
    )
    from skillc_index.index.fts import (
        fts_query,
        index_tokenizer,
        prepare_fts_text,
        restore_fts_text,
    )
    from skillc_index.index.queries import (
        IndexOutline,
        SectionHit,
        find_headings,
        read_headings,
        read_outline,
        search_sections,
        section_queries,
    )
    from skillc_index.index.schema import (
        SCHEMA_VERSION,
        FileStat,
        IndexedHeading,
        IndexMeta,
        hash16,
        index_path,
    )
    from skillc_index.installed import ROUTER_MARK
    from skillc_index.layout import (
        KNOWN_TARGETS,
        META_DIR,
        SKILL_FILE,
        AgentTarget,
        Layout,
        ResolvedSkill,
        Scope,
        find_project_root,
        home_dir,
        resolve_skill,
        runtime_for,
        skill_name_problem,
    )
    from skillc_index.listing.budget import (
        CHARS_PER_TOKEN,
        MAX_ENTRY_DESCRIPTION,
        FolderBudget,
        ListingEntry,
        estimate_tokens,
        folder_budget,
        listing_budgets,
    )
    from skillc_index.listing.skills import SkillEntry, SkillList, list_skills
    from skillc_index.markdown.document import (
        MARKDOWN_LIMIT,
        Heading,
        Html,
        Link,
        MarkdownDoc,
        SkillMetadata,
        limit_notice,
        over_limit_notice,
        parse_markdown,
        read_markdown,
        read_skill_metadata,
        title_of,
    )
    from skillc_index.markdown.frontmatter import Frontmatter, parse_frontmatter, type_name
    from skillc_index.route.commands import route_install, route_status, route_uninstall
    from skillc_index.route.result import (
        FolderRoutedAs,
        NoProjectToRoute,
        RouteBusy,
        RoutedElsewhere,
        RoutedSkill,
        RouteOutside,
        RouteResult,
        SkillLeft,
    )
    from skillc_index.route.router_skill import ROUTER_NAME
    from skillc_index.sqlite import sqlite_uri, use_wal
    from skillc_index.text import (
        iter_line_bytes,
        iter_lines,
        json_text,
        one_line,
        printable,
        split_lines,
        valid_utf8,
    )
    from skillc_index.tools.command import (
        CodeValue,
        CommandTemplate,
        OptionLikeValue,
        Placeholder,
        Text,
        parse_command,
    )
    from skillc_index.tools.model import (
        MAX_TIMEOUT,
        MODES,
        PARAMETER_TYPES,
        Parameter,
        Tool,
        ToolIssue,
        ToolSkill,
        parse_tool_skill,
        read_tool_skill,
    )
    from skillc_index.walk import SKIPPED_FOLDERS, find_skill_folders, skips_folder
