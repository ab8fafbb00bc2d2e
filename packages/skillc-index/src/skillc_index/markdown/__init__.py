"""The skill model: a Markdown file parsed once.

- :mod:`~skillc_index.markdown.frontmatter`: the YAML block at the top (the one place YAML is
  loaded), ``parse_frontmatter``;
- :mod:`~skillc_index.markdown.document`: the one parser of a Markdown file, ``MarkdownDoc``
  (frontmatter, headings with line ranges, links, HTML), the parse limits;
- :mod:`~skillc_index.markdown.metadata`: a skill's ``name`` and ``description``, checked
  (``read_skill_metadata``);
- :mod:`~skillc_index.markdown.headings`: the headings alone without markdown-it (what the
  index needs), the very ones the parser gives, or None when it cannot tell.

This ``__init__`` imports nothing: ``skc show`` and ``search`` never parse Markdown.
"""
