"""`python -m skillc_gateway` and the `skillc-gateway` console script:
:mod:`skillc_gateway.cli` run through :func:`skillc_index.streams.script`
(a Ctrl-C while it loads exits 130 quietly)."""

from skillc_index.streams import script


def main() -> int:
    """The `skillc-gateway` command's exit status."""
    return script("skillc_gateway.cli")


if __name__ == "__main__":
    raise SystemExit(main())
