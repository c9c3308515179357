"""``python -m cuckoo_rules.cli``: the ``cuckoo-rules`` command line."""

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
