"""The ten tools of RFC-0007:C-COMMANDS and ``skc_find`` as MCP tool definitions, generated
from the operations of the kit's packages (:mod:`skillc_index.operation`).

Each definition is what ``tools/list`` returns for the tool: ``name``, ``title``, a
``description`` that tells an agent when to reach for it, an exact ``inputSchema`` (from the
operation's parameters record: ``additionalProperties: false``, enums, minimums, defaults),
an ``outputSchema`` (the object the command prints with ``--format json``, which is also the
result's ``structuredContent``, plus the ``warnings`` the server adds) and ``annotations``.
Schemas use JSON Schema 2020-12, MCP's default dialect. Output schemas list the keys every
result has and allow more, so a later release may add keys without breaking a client that
validates. The operation modules import only the standard library, so listing the tools
stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skillc_index.operation import WARNINGS

if TYPE_CHECKING:
    from skillc_index.operation import Operation

#: The modules whose ``OPERATIONS`` are the tools, in RFC-0007:C-COMMANDS order.
OPERATION_MODULES = (
    "skillc_index.operations",
    "skillc_lint.operations",
    "skillc_gateway.operations",
    "skillc_stats.operations",
)


def operations() -> dict[str, Operation[Any, Any]]:
    """Tool name -> the operation it runs, in the registry's order (the operations the
    server serves: all but those with a ``no_tool`` reason)."""
    from importlib import import_module

    found: dict[str, Operation[Any, Any]] = {}
    for module in OPERATION_MODULES:
        for operation in import_module(module).OPERATIONS:
            if operation.no_tool is None:
                found[operation.tool_name] = operation
    return found


def _tool(operation: Operation[Any, Any]) -> dict[str, Any]:
    tool = operation.tool()
    output = tool["outputSchema"]
    # a result whose JSON has its own warnings (build's) keeps them
    warnings = output["properties"].get("warnings", dict(WARNINGS))
    tool["outputSchema"] = {**output, "properties": {**output["properties"], "warnings": warnings}}
    return tool


_TOOLS: list[tuple[dict[str, Any], ...]] = []


def tools() -> tuple[dict[str, Any], ...]:
    """The ``tools`` array of ``tools/list``, made on the first call (the output schemas
    come from the results' shapes, which a server that was only asked to start, or to call
    a tool, never imports)."""
    if not _TOOLS:
        _TOOLS.append(tuple(_tool(operation) for operation in operations().values()))
    return _TOOLS[0]


def __getattr__(name: str) -> Any:
    if name == "TOOLS":  # the constant of earlier releases, made when first read
        return tools()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
