"""Command-line interface (placeholder)."""


def main() -> int:
    """Run the command line."""
    return 0
