"""The bounds of a ``find`` request, in a module of their own: the ``skc find`` client, the
find server, the catalog and the operation's schema all check them, and the client imports
nothing else of the gateway to do so."""

import math
from typing import TypeGuard

#: A longer query is refused (E100).
MAX_QUERY_CHARS = 10_000
#: At most this many skills per answer...
MAX_FIND_LIMIT = 100
#: ... and this many when not told.
DEFAULT_FIND_LIMIT = 10
#: At most this many folders in ``paths`` (``--path``, the MCP ``path`` a model chooses):
#: ``find``'s and ``eval``'s (the library), whose schemas say so (``maxItems``).
MAX_FIND_PATHS = 16


def query_fits(query: object) -> TypeGuard[str]:
    """Whether ``query`` is a query ``find`` answers: words, at most :data:`MAX_QUERY_CHARS`."""
    return isinstance(query, str) and bool(query.strip()) and len(query) <= MAX_QUERY_CHARS


def limit_fits(limit: object) -> TypeGuard[int]:
    """Whether ``limit`` is a number of skills ``find`` answers with (1 to the maximum)."""
    return isinstance(limit, int) and not isinstance(limit, bool) and 1 <= limit <= MAX_FIND_LIMIT


def budget_fits(budget: object) -> TypeGuard[float]:
    """Whether ``budget`` is a number of seconds ``find`` may take: an ``int`` or ``float``
    (not a ``bool``: ``True`` is no 1 second), finite (a NaN deadline is never reached), 0
    or more. The find server keeps its own upper bound too."""
    return (
        isinstance(budget, int | float)
        and not isinstance(budget, bool)
        and math.isfinite(budget)
        and budget >= 0
    )
