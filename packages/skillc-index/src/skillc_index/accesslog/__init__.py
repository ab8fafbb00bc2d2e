"""The access log (RFC-0007:C-LOGGING): one way to log a command, and the row shapes.

- :class:`AccessLog` (``service``): log a command run on a skill, at once or queued.
- ``ShowArgs``, ``OpenArgs``, ``SearchArgs``, ``SourcesArgs`` (``args``): the keys of the
  logged ``args`` that usage analytics read.
"""

from __future__ import annotations

from skillc_index.accesslog.args import OpenArgs, SearchArgs, ShowArgs, SourcesArgs
from skillc_index.accesslog.service import AccessLog, Warn

__all__ = ["AccessLog", "OpenArgs", "SearchArgs", "ShowArgs", "SourcesArgs", "Warn"]
