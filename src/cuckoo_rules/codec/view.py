"""The JSON view document, format version 2: what one seat may see (``interchange.md`` §4).

:func:`encode_view` writes a :class:`~cuckoo_rules.PlayerView` as a plain ``dict``, its
fields in the order the class defines them (:data:`VIEW_KEYS`); :func:`decode_view`
reads one back, checks each field and then the view as a whole with
:func:`~cuckoo_rules.views.check_view_consistency`, the check
:func:`~cuckoo_rules.determinize` makes too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ..cards import DECK_SIZE
from ..errors import DecodeError, ViewError
from ..state import Counts
from ..views import PlayerView, check_view_consistency
from ._public import decode_public, field_writer
from .fields import array, counts, fail, int_in, mapping
from .versions import CURRENT_VERSION, check_header, upgrade

__all__ = ["VIEW_FORMAT", "VIEW_KEYS", "VIEW_VERSION", "decode_view", "encode_view"]

VIEW_FORMAT = "cuckoo-rules/view"
"""The ``format`` name of a JSON view document."""

VIEW_VERSION = CURRENT_VERSION
"""The ``version`` of the JSON view format this library writes."""

VIEW_KEYS: tuple[str, ...] = (
    "format",
    "version",
    *(field.name for field in attrs.fields(PlayerView)),
)
"""The keys of a view document in format order: the header, then the fields of
:class:`~cuckoo_rules.PlayerView` in the order the class defines them."""

_write_view = field_writer(PlayerView, {"format": VIEW_FORMAT, "version": VIEW_VERSION})


def encode_view(view: PlayerView) -> dict[str, Any]:
    """Return the JSON document (format version 2) of a player view, keys in format order.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> doc = encode_view(observe(new_game(GameOptions(num_players=3), seed=42), 0))
        >>> doc["viewer"], doc["hand_sizes"], doc["draw_pile_size"], "draw_pile" in doc
        (0, [8, 8, 8], 69, False)
        >>> list(doc["hand"])[:3], doc["hand"]["magpie"]
        (['flamingo', 'owl', 'duck'], 2)
    """
    return _write_view(view)


def decode_view(data: Mapping[str, Any]) -> PlayerView:
    """Read a JSON view document (format version 1 or 2), checking what a view can show.

    Each field is checked on its own, then the view as a whole with
    :func:`~cuckoo_rules.views.check_view_consistency`.

    Raises:
        DecodeError: If the document is malformed or inconsistent (for example more
            cards of a species in sight than the game has); the message names the field.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=3), seed=42), None)
        >>> decode_view(encode_view(view)) == view
        True
    """
    doc = mapping(data, "view")
    check_header(doc, "view", VIEW_KEYS, VIEW_FORMAT)
    doc = upgrade(doc, "view")  # an older version is read as the current one
    (options, round_, turn, dealer, current, phase, rows, known_hands, collections, winners) = (
        decode_public(doc)
    )
    n = options.num_players
    viewer_doc = doc["viewer"]
    viewer = None if viewer_doc is None else int_in(viewer_doc, "viewer", 0, n - 1)
    draw_size = int_in(doc["draw_pile_size"], "draw_pile_size", 0, DECK_SIZE)
    discard_size = int_in(doc["discard_pile_size"], "discard_pile_size", 0, DECK_SIZE)
    sizes_doc = array(doc["hand_sizes"], "hand_sizes")
    if len(sizes_doc) != n:
        fail("hand_sizes", f"expected {n} entries (one per player), got {len(sizes_doc)}")
    hand_sizes = tuple(int_in(h, f"hand_sizes[{i}]", 0, DECK_SIZE) for i, h in enumerate(sizes_doc))
    hand: Counts | None = None
    if viewer is None:
        if doc["hand"] is not None:
            fail("hand", "a spectator's view (viewer null) has no hand")
    else:
        hand = counts(doc["hand"], "hand")
    view = PlayerView(  # positional, in the order of PlayerView's fields
        viewer,
        options,
        round_,
        turn,
        dealer,
        current,
        phase,
        rows,
        draw_size,
        discard_size,
        hand,
        hand_sizes,
        known_hands,
        collections,
        winners,
    )
    try:
        check_view_consistency(view)
    except ViewError as error:
        raise DecodeError(str(error)) from None
    return view
