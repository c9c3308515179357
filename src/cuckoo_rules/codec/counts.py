"""The JSON of a multiset of cards, as every document writes it (``interchange.md`` §4).

A multiset (:data:`~cuckoo_rules.state.Counts`: a discard pile, a hand, the known part
of a hand, a collection) is an object ``{species id: count}``: species in species order,
zero counts omitted.
"""

from __future__ import annotations

from itertools import compress

from ..state import Counts
from .fields import IDS

__all__ = ["encode_counts"]


def encode_counts(counts: Counts) -> dict[str, int]:
    """Encode a multiset as ``{species id: count}``, species order, zero counts omitted.

    Example:
        >>> encode_counts((0, 1, 0, 0, 0, 2, 0, 0))
        {'owl': 1, 'magpie': 2}
    """
    return dict(compress(zip(IDS, counts, strict=True), counts))  # pairs with a count
