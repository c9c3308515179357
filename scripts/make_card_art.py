"""Write the flock sizes of the model into the card art ``web/static/birds.svg``.

Each card face of the sprite (``<symbol id="bird-<species>">``) shows the species' two
flock sizes in its corner: ``<text class="flock-small">`` (cards that fly one bird home)
and ``<text class="flock-big">`` (two birds). The drawings are made by hand; the numbers
are not: this script rewrites the text of those two elements of every card from
:attr:`~cuckoo_rules.cards.Species.small_flock` and
:attr:`~cuckoo_rules.cards.Species.big_flock`, and leaves every other byte of the file as
it is. ``tests/frontends/test_card_art.py`` checks that the file holds what this script writes.

Run ``python scripts/make_card_art.py`` after changing a flock size in ``cards.py``, and
review the diff; ``--check`` only says whether the file is out of date (exit status 1).
It reads the model beside the file it writes (``src/`` of this checkout), so it works in
a scratch copy of the repository too. A species without a card face, or a card face of
no species, is an error: a new species needs a drawing first.

Usage::

    python scripts/make_card_art.py [--check]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))  # the model of this checkout, also in a copy

from cuckoo_rules.cards import SPECIES  # noqa: E402

SPRITE = ROOT / "src" / "cuckoo_rules" / "web" / "static" / "birds.svg"
"""The card art the browser client draws its cards from."""

SYMBOL = re.compile(r'<symbol id="bird-(?P<species>[^"]+)"[^>]*>(?P<body>.*?)</symbol>', re.DOTALL)
"""A card face of the sprite: its species' value and its content."""

FLOCK_CLASSES = ("flock-small", "flock-big")
"""The classes of the two ``<text>`` elements of a card face that hold its flock sizes."""


class CardArtError(ValueError):
    """The sprite and the model do not match: a species lacks a face, or a face its numbers."""


def model_sizes() -> dict[str, tuple[int, int]]:
    """Return the flock sizes of every species in the model: value -> (small, big)."""
    return {species.value: (species.small_flock, species.big_flock) for species in SPECIES}


def _flock_text(class_name: str) -> re.Pattern[str]:
    """The pattern of the ``<text class="<class_name>" ...>N</text>`` of a card face."""
    return re.compile(rf'(<text class="{class_name}"[^>]*>)[^<]*(</text>)')


def render(text: str, sizes: Mapping[str, tuple[int, int]] | None = None) -> str:
    """Return the sprite ``text`` with the flock sizes of ``sizes`` on its card faces.

    Args:
        text: The sprite's SVG source.
        sizes: The flock sizes of each species, by species value: (small, big); by
            default the model's (:func:`model_sizes`).

    Raises:
        CardArtError: If a species has no card face, a card face belongs to no species,
            or a card face lacks one of its two numbers or has it twice.
    """
    wanted = model_sizes() if sizes is None else dict(sizes)
    faces = [match.group("species") for match in SYMBOL.finditer(text)]
    if sorted(faces) != sorted(wanted):
        missing = sorted(set(wanted) - set(faces))
        unknown = sorted(set(faces) - set(wanted))
        raise CardArtError(
            f"card faces and species differ: no face for {missing}, no species for {unknown}"
            f"{' (a face twice)' if len(faces) != len(set(faces)) else ''}"
        )

    def face(match: re.Match[str]) -> str:
        species = match.group("species")
        card = match.group(0)
        for class_name, size in zip(FLOCK_CLASSES, wanted[species], strict=True):
            card, count = _flock_text(class_name).subn(rf"\g<1>{size}\g<2>", card)
            if count != 1:
                raise CardArtError(f"bird-{species} has {count} <text class={class_name!r}>")
        return card

    return SYMBOL.sub(face, text)


def main(argv: Sequence[str] | None = None, path: Path = SPRITE) -> int:
    """Write the model's flock sizes into the sprite; with ``--check``, only compare.

    Args:
        argv: The command-line arguments (by default ``sys.argv[1:]``): ``--check`` or none.
        path: The sprite to write.

    Returns:
        0 if the sprite is (now) up to date, 1 if ``--check`` found it is not.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if any(arg != "--check" for arg in args):
        print(f"usage: python scripts/make_card_art.py [--check] (got {args})", file=sys.stderr)
        return 2
    text = path.read_text(encoding="utf-8")
    updated = render(text)
    if updated == text:
        return 0
    if args:
        print(f"out of date: {path} (run scripts/make_card_art.py)")
        return 1
    path.write_text(updated, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
