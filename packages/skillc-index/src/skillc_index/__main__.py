"""`python -m skillc_index` and the `skillc-index` console script:
:mod:`skillc_index.cli` run through :func:`skillc_index.streams.script`
(a Ctrl-C while it loads exits 130 quietly)."""

from skillc_index.streams import script


def main() -> int:
    """The `skillc-index` command's exit status."""
    return script("skillc_index.cli")


if __name__ == "__main__":
    raise SystemExit(main())
