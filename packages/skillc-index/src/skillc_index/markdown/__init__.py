"""The skill model: a Markdown file parsed once.

- :mod:`~skillc_index.markdown.frontmatter`: the YAML block at the top (the one place YAML is
  loaded), ``parse_frontmatter``;
- :mod:`~skillc_index.markdown.document`: the one parser of a Markdown file, ``MarkdownDoc``
  (frontmatter, headings with line ranges, links, HTML), the parse limits.

This ``__init__`` imports nothing: ``skc show`` and ``search`` never parse Markdown.
"""
