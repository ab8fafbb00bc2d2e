"""An option that takes one value, given twice: a usage error (E100) rather than its last
value kept silently, where click keeps the last (``Param.once``: ``skc route ... -t``, which
``build`` takes several of). Read by :func:`skillc_index.console.command`'s parameters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

__all__ = ["given_once"]


def given_once(check: Callable[..., Any] | None) -> Callable[..., Any]:
    """The callback of an option that takes one value (``Param.once``), read as a repeated
    one: given twice it is a usage error (E100), where click kept the last value silently;
    the one value (None when not given) goes to ``check`` (:func:`non_empty`) when set."""

    def callback(ctx: click.Context, param: click.Parameter, value: tuple[Any, ...]) -> Any:
        if len(value) > 1:
            raise click.BadParameter(f"given {len(value)} times; it takes one value", ctx, param)
        one = value[0] if value else None
        return one if check is None or one is None else check(ctx, param, one)

    return callback
