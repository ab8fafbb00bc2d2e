"""skillc: the umbrella distribution of the skillc kit, providing the unified ``skc`` command.

``skc`` has no commands of its own: each distribution of the kit declares its commands under
the ``skillc.commands`` entry-point group, and ``skc`` loads only the one that runs.
"""

from __future__ import annotations

__version__ = "0.2.0.dev0"

__all__ = ["__version__"]
