"""skillc-stats: usage analytics of Agent Skills (RFC-0003) and fallback log sync (RFC-0007).

``query_stats`` answers the RFC-0003 queries over a skill's access log and returns the
RFC-0003:C-SCHEMA response (what ``skc stats --format json`` prints); ``unused_sections``
lists the headings no agent read; ``query_all`` reports the use of every installed skill
(``skc stats --all``); ``sync_logs`` moves fallback logs into the primary logs (``skc sync``),
``sync_transcripts`` imports skill usage from Claude Code's transcripts (``skc sync --from
claude-code``) and ``upload_logs`` sends this machine's rows to a team store (``skc sync
--to``). Each returns data; the ``skc`` commands and the MCP server format it.
Importing this package is cheap: names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index import lazy_exports

__version__ = "0.2.0.dev0"

_EXPORTS: dict[str, str] = {
    "QUERY_TYPES": "_stats",
    "query_stats": "_stats",
    "unused_sections": "_stats",
    "SkillSync": "_sync",
    "SyncReport": "_sync",
    "sync_logs": "_sync",
    "SkillImport": "_transcripts",
    "TranscriptSync": "_transcripts",
    "sync_transcripts": "_transcripts",
    "query_all": "_usage",
    "UploadInterrupted": "_team",
    "UploadReport": "_team",
    "upload_logs": "_team",
}

__all__ = ["__version__", *_EXPORTS]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


if TYPE_CHECKING:
    from skillc_stats._stats import QUERY_TYPES as QUERY_TYPES
    from skillc_stats._stats import query_stats as query_stats
    from skillc_stats._stats import unused_sections as unused_sections
    from skillc_stats._sync import SkillSync as SkillSync
    from skillc_stats._sync import SyncReport as SyncReport
    from skillc_stats._sync import sync_logs as sync_logs
    from skillc_stats._team import UploadInterrupted as UploadInterrupted
    from skillc_stats._team import UploadReport as UploadReport
    from skillc_stats._team import upload_logs as upload_logs
    from skillc_stats._transcripts import SkillImport as SkillImport
    from skillc_stats._transcripts import TranscriptSync as TranscriptSync
    from skillc_stats._transcripts import sync_transcripts as sync_transcripts
    from skillc_stats._usage import query_all as query_all
