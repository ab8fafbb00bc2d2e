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
    "utc_now": "_clock",
    # the one way to open SQLite: a URI for a path, WAL that waits for other processes
    "sqlite_uri": "_sqlite",
    "use_wal": "_sqlite",
    # diagnostics (RFC-0005)
    "TEMPLATES": "_diagnostics",
    "Diagnostic": "_diagnostics",
    "Notice": "_diagnostics",
    "format_diagnostic": "_diagnostics",
    "severity_of": "_diagnostics",
    "lint_diagnostic": "_diagnostics",
    "multiple_matches": "_diagnostics",
    "logging_disabled": "_diagnostics",
    "stale_local_logs": "_diagnostics",
    "SkillcError": "_diagnostics",
    "SkillNotFound": "_diagnostics",
    "IndexUnusable": "_diagnostics",
    "IndexCollision": "_diagnostics",
    "EmptyQuery": "_diagnostics",
    "NotASkill": "_diagnostics",
    "MissingFrontmatterField": "_diagnostics",
    "PathEscapesRoot": "_diagnostics",
    "SectionNotFound": "_diagnostics",
    "SkillFileNotFound": "_diagnostics",
    "PathNotFound": "_diagnostics",
    "SkillDirectoryNotFound": "_diagnostics",
    "NotARegularFile": "_diagnostics",
    "HiddenPath": "_diagnostics",
    "InvalidQueryType": "_diagnostics",
    "InvalidFilter": "_diagnostics",
    "NoLocalLogs": "_diagnostics",
    "SyncDestinationNotWritable": "_diagnostics",
    "SyncSourceNotReadable": "_diagnostics",
    "SkillExists": "_diagnostics",
    "InvalidOption": "_diagnostics",
    "InternalError": "_diagnostics",
    "Spelling": "_diagnostics",
    "PARAMETER_NAMES": "_diagnostics",
    "CLI_SPELLING": "_diagnostics",
    "ForeignFolder": "_diagnostics",
    "TrackedDestination": "_diagnostics",
    "StoreCopyDiffers": "_diagnostics",
    "FileIsAFolder": "_diagnostics",
    "MalformedFilter": "_diagnostics",
    "EmptyTimeRange": "_diagnostics",
    "UnknownSkillTool": "_diagnostics",
    "BrokenTool": "_diagnostics",
    "ToolArgumentError": "_diagnostics",
    "UnsupportedPlatform": "_diagnostics",
    "UnknownTarget": "_diagnostics",
    "EmptyTargetName": "_diagnostics",
    "TargetInsideSkill": "_diagnostics",
    "CompiledSkillGiven": "_diagnostics",
    "TooManyQueryWords": "_diagnostics",
    "NoSkillGiven": "_diagnostics",
    "UnreadableFile": "_diagnostics",
    "CannotCreate": "_diagnostics",
    "BinaryFile": "_diagnostics",
    "RuntimeNotAFolder": "_diagnostics",
    "error_line": "_diagnostics",
    "MAX_COUNT": "_diagnostics",
    # configuration (RFC-0009)
    "Config": "_config",
    "load_config": "_config",
    # layout and resolution (RFC-0007:C-RESOLUTION, ADR-0001/0002)
    "KNOWN_TARGETS": "_layout",
    "AgentTarget": "_layout",
    "Layout": "_layout",
    "ResolvedSkill": "_layout",
    "Scope": "_layout",
    "home_dir": "_layout",
    "find_project_root": "_layout",
    "resolve_skill": "_layout",
    "skill_name_problem": "_layout",
    "SKILL_FILE": "_layout",
    "META_DIR": "_layout",
    "runtime_for": "_layout",
    # the skill model
    "Frontmatter": "_frontmatter",
    "Heading": "_model",
    "Link": "_model",
    "MarkdownDoc": "_model",
    "SkillMetadata": "_model",
    "parse_frontmatter": "_frontmatter",
    "type_name": "_frontmatter",
    "parse_markdown": "_model",
    "MARKDOWN_LIMIT": "_model",
    "limit_notice": "_model",
    "over_limit_notice": "_model",
    "read_markdown": "_model",
    "read_skill_metadata": "_model",
    "title_of": "_model",
    # files and the source hash (RFC-0001:C-MANIFEST)
    "write_file_atomic": "_atomic",
    "SkillFiles": "_files",
    "walk_skill": "_files",
    "source_hash": "_files",
    "safe_join": "_files",
    "is_hidden": "_files",
    "open_in_root": "_files",
    "within": "_files",
    "read_text_in_root": "_files",
    "fs_bytes": "_files",
    # text: the one line splitter, UTF-8 checks
    "iter_lines": "_lines",
    "split_lines": "_lines",
    "valid_utf8": "_text",
    # manifest
    "Manifest": "_manifest",
    "read_manifest": "_manifest",
    "manifest_path": "_manifest",
    "write_manifest": "_manifest",
    # init (RFC-0006) and list (RFC-0007:C-LIST)
    "InitResult": "_scaffold",
    "NameNeeded": "_scaffold",
    "init_project": "_scaffold",
    "init_skill": "_scaffold",
    "skill_template": "_scaffold",
    "SkillEntry": "_listing",
    "SkillList": "_listing",
    "list_skills": "_listing",
    # what an agent's skill listing costs (list --budget) and the router (route)
    "FolderBudget": "_budget",
    "ListingEntry": "_budget",
    "folder_budget": "_budget",
    "listing_budgets": "_budget",
    "ROUTER_NAME": "_router",
    "ROUTER_MARK": "_router",
    "RouteResult": "_router",
    "RoutedSkill": "_router",
    "SkillLeft": "_router",
    "NoProjectToRoute": "_router",
    "RouteOutside": "_router",
    "RoutedElsewhere": "_router",
    "RouteBusy": "_router",
    "route_install": "_router",
    "route_uninstall": "_router",
    "route_status": "_router",
    # build (RFC-0001, RFC-0007 build): compile, index, deploy
    "BuildResult": "_build",
    "build_skill": "_build",
    "BatchJob": "_batch",
    "BatchItem": "_batch",
    "BatchResult": "_batch",
    "batch_jobs": "_batch",
    "build_skills": "_batch",
    "find_skill_folders": "_batch",
    "is_folder_of_skills": "_batch",
    "CompileResult": "_compiler",
    "IndexReport": "_compiler",
    "compile_skill": "_compiler",
    "markdown_documents": "_compiler",
    "Deployment": "_deploy",
    "parse_targets": "_deploy",
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
    "CommandTemplate": "_tool_command",
    "CodeValue": "_tool_command",
    "OptionLikeValue": "_tool_command",
    "Placeholder": "_tool_command",
    "Text": "_tool_command",
    "parse_command": "_tool_command",
    "PARAMETER_TYPES": "_tool_model",
    "Parameter": "_tool_model",
    "Tool": "_tool_model",
    "ToolIssue": "_tool_model",
    "ToolSkill": "_tool_model",
    "parse_tool_skill": "_tool_model",
    "read_tool_skill": "_tool_model",
    "MAX_TIMEOUT": "_tool_model",
    "MODES": "_tool_model",
}

__all__ = ["__version__", *_EXPORTS]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


if TYPE_CHECKING:
    from skillc_index._atomic import write_file_atomic
    from skillc_index._batch import (
        BatchItem,
        BatchJob,
        BatchResult,
        batch_jobs,
        build_skills,
        find_skill_folders,
        is_folder_of_skills,
    )
    from skillc_index._budget import FolderBudget, ListingEntry, folder_budget, listing_budgets
    from skillc_index._build import BuildResult, build_skill
    from skillc_index._clock import utc_now
    from skillc_index._compiler import (
        CompileResult,
        IndexReport,
        compile_skill,
        markdown_documents,
    )
    from skillc_index._config import Config, load_config
    from skillc_index._deploy import Deployment, parse_targets
    from skillc_index._diagnostics import (
        CLI_SPELLING,
        MAX_COUNT,
        PARAMETER_NAMES,
        TEMPLATES,
        BinaryFile,
        BrokenTool,
        CannotCreate,
        CompiledSkillGiven,
        Diagnostic,
        EmptyQuery,
        EmptyTargetName,
        EmptyTimeRange,
        FileIsAFolder,
        ForeignFolder,
        HiddenPath,
        IndexCollision,
        IndexUnusable,
        InternalError,
        InvalidFilter,
        InvalidOption,
        InvalidQueryType,
        MalformedFilter,
        MissingFrontmatterField,
        NoLocalLogs,
        NoSkillGiven,
        NotARegularFile,
        NotASkill,
        Notice,
        PathEscapesRoot,
        PathNotFound,
        RuntimeNotAFolder,
        SectionNotFound,
        SkillcError,
        SkillDirectoryNotFound,
        SkillExists,
        SkillFileNotFound,
        SkillNotFound,
        Spelling,
        StoreCopyDiffers,
        SyncDestinationNotWritable,
        SyncSourceNotReadable,
        TargetInsideSkill,
        ToolArgumentError,
        TooManyQueryWords,
        TrackedDestination,
        UnknownSkillTool,
        UnknownTarget,
        UnreadableFile,
        UnsupportedPlatform,
        error_line,
        format_diagnostic,
        lint_diagnostic,
        logging_disabled,
        multiple_matches,
        severity_of,
        stale_local_logs,
    )
    from skillc_index._files import (
        SkillFiles,
        fs_bytes,
        is_hidden,
        open_in_root,
        read_text_in_root,
        safe_join,
        source_hash,
        walk_skill,
        within,
    )
    from skillc_index._frontmatter import Frontmatter, parse_frontmatter, type_name
    from skillc_index._layout import (
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
    from skillc_index._lazy import lazy_exports
    from skillc_index._lines import iter_lines, split_lines
    from skillc_index._listing import SkillEntry, SkillList, list_skills
    from skillc_index._manifest import Manifest, manifest_path, read_manifest, write_manifest
    from skillc_index._model import (
        MARKDOWN_LIMIT,
        Heading,
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
    from skillc_index._router import (
        ROUTER_MARK,
        ROUTER_NAME,
        NoProjectToRoute,
        RouteBusy,
        RoutedElsewhere,
        RoutedSkill,
        RouteOutside,
        RouteResult,
        SkillLeft,
        route_install,
        route_status,
        route_uninstall,
    )
    from skillc_index._scaffold import (
        InitResult,
        NameNeeded,
        init_project,
        init_skill,
        skill_template,
    )
    from skillc_index._sqlite import sqlite_uri, use_wal
    from skillc_index._text import valid_utf8
    from skillc_index._tool_command import (
        CodeValue,
        CommandTemplate,
        OptionLikeValue,
        Placeholder,
        Text,
        parse_command,
    )
    from skillc_index._tool_model import (
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
