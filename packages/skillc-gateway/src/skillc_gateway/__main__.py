"""`python -m skillc_gateway` runs the `skillc-gateway` command."""

from skillc_gateway.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
