"""The search and headings index (RFC-0004:C-INDEX): one SQLite database per skill source at
``<runtime>/.skillc-meta/search-<hash16>.db``. Nothing outside this subpackage opens the file.

- :mod:`~skillc_index.index.version`: the schema version (no imports: ``skc find`` reads it);
- :mod:`~skillc_index.index.schema`: the schema, the rows, where an index
  lives (``hash16``, ``index_path``) and the file stats it records;
- :mod:`~skillc_index.index.scripts`: which characters make words (the scripts written
  without spaces, the marks kept in words), for the index and the find catalog alike (only
  ``re``: ``skc find`` reads it);
- :mod:`~skillc_index.index.fts`: the tokenizer choice and the text preparation that build
  and search share (``fts_query``);
- :mod:`~skillc_index.index.writer`: ``write_index``, the one writer;
- :mod:`~skillc_index.index.freshness`: whether an index is usable (``check_index``,
  ``inspect_index``) and ``require_index``, which returns an :class:`IndexHandle` (path,
  metadata, file stats) that every read takes, so a read checks freshness once; the one
  per-process cache of what was read of each index file;
- :mod:`~skillc_index.index.queries`: the reads (headings, ``show``'s matching, ``search``
  with snippets).

The names the other packages use are exported by :mod:`skillc_index` itself (lazily); the
modules here are where they live. This ``__init__`` imports nothing.
"""
