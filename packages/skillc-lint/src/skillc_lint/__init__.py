"""skillc-lint: validate Agent Skills against the authoring standard (RFC-0008).

The linter arrives with its own issue; this release ships the package and its console script.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
