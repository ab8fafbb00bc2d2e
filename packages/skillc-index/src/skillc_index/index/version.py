"""The index's schema version (:mod:`~skillc_index.index.schema` tells what each version
holds), alone in a module that imports nothing: the find catalog records the version its
skills' headings were parsed under and reads it on every ``skc find``."""

from __future__ import annotations

__all__ = ["SCHEMA_VERSION"]

SCHEMA_VERSION = 16
