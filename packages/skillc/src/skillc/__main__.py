"""`python -m skillc` runs the `skc` command."""

from skillc.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
