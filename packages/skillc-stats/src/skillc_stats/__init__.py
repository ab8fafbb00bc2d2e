"""skillc-stats: access logs and usage analytics for Agent Skills (stats, sync).

The analytics commands arrive with their own issue; this release ships the package and its
console script.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
