"""``skc package`` (issue 37): upload archives, discovery indexes and plugins of skills
(:mod:`skillc_index.package.make`), with deterministic bytes
(:mod:`skillc_index.package.archive`); the command as an operation is
:mod:`skillc_index.package.operation`'s (``PACKAGE``)."""
