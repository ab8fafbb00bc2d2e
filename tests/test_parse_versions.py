"""The find catalog keeps each skill's headings as skillc-index's parse gives them (find's
sections are outline's), under its own version (``postings.RANK_VERSION``): catalogs of an
older version are indexed anew, others are trusted. A parse change bumps the index's
``SCHEMA_VERSION`` (its fingerprint guard: packages/skillc-index/tests/
test_index_fingerprint.py); this guard makes the same change decide the catalog's version,
or a catalog made before keeps the old headings (an index of the old parse did, until
schema 6)."""

from __future__ import annotations

from skillc_gateway.catalog.postings import RANK_VERSION
from skillc_index.index.schema import SCHEMA_VERSION

#: The catalog's RANK_VERSION that goes with each index schema version: a new schema version
#: records the rank version its parse needs (the same one when the parse did not change).
CATALOG_RANK_OF_SCHEMA = {6: 11}


def test_the_find_catalog_version_is_decided_with_the_index_schema() -> None:
    assert CATALOG_RANK_OF_SCHEMA.get(SCHEMA_VERSION) == RANK_VERSION, (
        f"index schema {SCHEMA_VERSION} and find catalog rank version {RANK_VERSION} are not "
        "recorded together: if the parse changed, bump postings.RANK_VERSION too; then record "
        "the pair in CATALOG_RANK_OF_SCHEMA"
    )
