"""`python -m skillc_lint` runs the `skillc-lint` command."""

from skillc_lint.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
