"""What an action would do before it is taken: the rules of a lay and a flock, once.

The engine takes a lay's capture from :func:`captured_by` and a flock's birds from
:func:`birds_home`; front ends and bots ask the same functions, or :func:`preview`, which
says from what the acting seat can see (its view, or the state) what a legal action will
do: the cards a lay takes, whether the row is then refilled, whether the optional draw
is offered after it, and how many birds a flock sends home.

Example:
    >>> import cuckoo_rules as cr
    >>> state = cr.new_game(cr.GameOptions(num_players=3), seed=42)
    >>> seen = preview(state, cr.Lay(cr.Species.DUCK, 0, cr.Side.RIGHT))
    >>> seen.captured, seen.refilled, seen.draw_offered
    ((Species.ROBIN, Species.PARROT), True, False)
"""

from __future__ import annotations

import attrs

from .actions import Action, FlyHome, Lay, Phase, Side
from .cards import NUM_SPECIES, Species
from .errors import IllegalActionError
from .state import GameState, Row
from .views import PlayerView, observe, unseen_cards

__all__ = ["ActionPreview", "birds_home", "capture_sizes", "captured_by", "preview"]


def captured_by(row: Row, species: Species, side: Side) -> tuple[Species, ...] | None:
    """Return the cards a lay of ``species`` at ``side`` of ``row`` captures (rules §3.1).

    Returns:
        The cards strictly between the laid birds and the nearest bird of the species,
        left to right (none when that bird is the end card), or ``None`` when the species
        is not in the row.

    Example:
        >>> from cuckoo_rules import Species as S
        >>> captured_by((S.OWL, S.DUCK, S.ROBIN), S.ROBIN, Side.LEFT)
        (Species.OWL, Species.DUCK)
        >>> captured_by((S.OWL, S.DUCK), S.ROBIN, Side.LEFT) is None
        True
    """
    if species not in row:
        return None
    if side is Side.LEFT:
        return row[: row.index(species)]
    return row[len(row) - row[::-1].index(species) :]


def capture_sizes(row: Row) -> tuple[list[int], list[int], list[int]]:
    """Return, for every species at once, how many cards its lays on ``row`` capture.

    This is :func:`captured_by` for every lay on a row in one pass, for the bots and the
    observation encoder that weigh them all: a lay of species ``i`` at the left captures
    ``row[:left[i]]``, at the right ``row[len(row) - right[i]:]``, provided ``counts[i]``
    (the birds of the species in the row) is not zero; a species absent from the row
    captures nothing.

    Args:
        row: A row, left to right.

    Returns:
        ``(counts, left, right)``, three lists of eight integers indexed by species
        index (:attr:`Species.index <cuckoo_rules.Species.index>`).

    Example:
        >>> from cuckoo_rules import Species as S
        >>> counts, left, right = capture_sizes((S.OWL, S.DUCK, S.ROBIN, S.OWL))
        >>> counts[S.OWL.index], left[S.ROBIN.index], right[S.DUCK.index]
        (2, 2, 2)
    """
    last = len(row) - 1
    counts = [0] * NUM_SPECIES
    left = [0] * NUM_SPECIES
    right = [0] * NUM_SPECIES
    for position, card in enumerate(row):
        i = card.index
        if not counts[i]:
            left[i] = position
        counts[i] += 1
        right[i] = last - position
    return counts, left, right


def birds_home(species: Species, count: int) -> int:
    """How many of ``count`` birds of ``species`` a flock sends home (rules §3.2).

    Returns:
        2 for a big flock, 1 for a small one, 0 when ``count`` is below a small flock
        (which may not be revealed).

    Example:
        >>> birds_home(Species.OWL, 3), birds_home(Species.OWL, 4), birds_home(Species.OWL, 2)
        (1, 2, 0)
    """
    if count >= species.big_flock:
        return 2
    return 1 if count >= species.small_flock else 0


@attrs.frozen
class ActionPreview:
    """What an action will do, as the acting seat can tell before taking it.

    Attributes:
        captured: For a lay, the cards it takes into the hand (public: they are face up).
        refilled: For a lay, whether the row is then refilled from the draw pile (a
            capture, or with ``refill_trigger = "same_species_lay"`` a lay of a species
            already in the row, leaves it with one species, and a pile holds cards).
        draw_offered: For a lay, whether the optional draw is offered after it; ``None``
            when that depends on cards nobody has seen (a refill that could take every
            card left in the piles).
        birds_home: For a flock, the birds that join the collection (1 or 2).
        discarded: For a flock, the birds that go to the discard pile.
    """

    captured: tuple[Species, ...] = ()
    refilled: bool = False
    draw_offered: bool | None = False
    birds_home: int = 0
    discarded: int = 0


def preview(state: GameState | PlayerView, action: Action) -> ActionPreview:
    """Say what ``action`` would do, from the public facts and the acting seat's hand.

    Args:
        state: The state, or the acting seat's view.
        action: One of the legal actions (a draw or a pass previews as nothing taken).

    Raises:
        IllegalActionError: If ``action`` is not legal there.
        ViewError: If given the view of a seat that is not to act.
    """
    from .engine import apply, legal_actions  # the engine takes its rules from here

    if action not in legal_actions(state):
        raise IllegalActionError(f"{action!r} is not legal: nothing to preview")
    if isinstance(state, PlayerView):
        full, view = None, state
    else:
        full, view = state, observe(state, state.current_player)
    hand = view.hand
    assert hand is not None  # legal_actions checked that the view is the acting seat's
    if isinstance(action, FlyHome):
        count = hand[action.species.index]
        home = birds_home(action.species, count)
        return ActionPreview(birds_home=home, discarded=count - home)
    if not isinstance(action, Lay):
        return ActionPreview()
    species, row = action.species, view.rows[action.row]
    captured = captured_by(row, species, action.side)
    if captured is None:  # the species is absent: the lay takes nothing
        left = row
    elif action.side is Side.LEFT:
        left = row[len(captured) :]
    else:
        left = row[: len(row) - len(captured)]
    # The rest mirrors the engine's lay (kept inline there, on apply's hot path);
    # tests/test_preview.py checks every legal action of random games against step().
    options = view.options
    piles = view.draw_pile_size + view.discard_pile_size
    refills = captured is not None and (
        bool(captured) or options.refill_trigger == "same_species_lay"
    )
    refilled = refills and left.count(species) == len(left) and piles > 0
    if captured:
        return ActionPreview(captured=captured, refilled=refilled, draw_offered=False)
    if options.round_end_timing == "immediate" and sum(hand) == hand[species.index]:
        return ActionPreview(refilled=refilled, draw_offered=False)  # the round ends
    draw: bool | None = (captured is None or options.optional_draw_if_adjacent) and piles > 0
    if draw and refilled and piles < unseen_cards(view)[species.index] + 2:
        # The refill takes cards of the row's species until another one: the piles keep
        # a card if they hold two cards of other species, which is sure when they hold
        # more cards than the unseen birds of that species and one more. Otherwise a
        # state knows (it holds the piles), a view cannot.
        draw = None if full is None else apply(full, action).phase is Phase.DRAW
    return ActionPreview(refilled=refilled, draw_offered=draw)
