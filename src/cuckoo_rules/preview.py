"""What an action would do before it is taken, as the acting seat can tell.

:func:`preview` says from what the acting seat can see (its view, or the state) what a
legal action will do: the cards a lay takes, whether the row is then refilled, whether
the optional draw is offered after it, and how many birds a flock sends home. It asks
the same functions as the engine (:mod:`cuckoo_rules.decisions`, where each of these
rules is stated once); :func:`captured_by`, :func:`capture_sizes` and :func:`birds_home`
are here for front ends and bots.

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
from .cards import Species
from .decisions import (
    OFFER_DRAW,
    after_lay,
    capture_sizes,
    captured_by,
    flock_birds_home,
    lay_refills,
)
from .engine import apply, legal_actions
from .errors import IllegalActionError
from .state import GameState
from .views import PlayerView, observe, unseen_cards

__all__ = ["ActionPreview", "birds_home", "capture_sizes", "captured_by", "preview"]


def birds_home(species: Species, count: int) -> int:
    """How many of ``count`` birds of ``species`` a flock sends home (rules §3.2).

    Returns:
        2 for a big flock, 1 for a small one, 0 when ``count`` is below a small flock
        (which may not be revealed).

    Example:
        >>> birds_home(Species.OWL, 3), birds_home(Species.OWL, 4), birds_home(Species.OWL, 2)
        (1, 2, 0)
    """
    return flock_birds_home(count, species.small_flock, species.big_flock)


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
    # The engine's decisions, from what the seat sees (tests/rules/test_preview.py checks every
    # legal action of random games against step()).
    options = view.options
    piles = view.draw_pile_size + view.discard_pile_size
    absent = captured is None
    taken = 0 if captured is None else len(captured)
    refilled = (
        lay_refills(
            taken,
            absent,
            options.refill_trigger == "same_species_lay",
            left.count(species) == len(left),
        )
        and piles > 0
    )
    round_ends = options.round_end_timing == "immediate" and sum(hand) == hand[species.index]
    draw: bool | None = (
        after_lay(taken, absent, options.optional_draw_if_adjacent, round_ends, piles) == OFFER_DRAW
    )
    if draw and refilled and piles < unseen_cards(view)[species.index] + 2:
        # The refill takes cards of the row's species until another one: the piles keep
        # a card if they hold two cards of other species, which is sure when they hold
        # more cards than the unseen birds of that species and one more. A refill takes
        # a card at least, so from one card it surely leaves none. Otherwise a state
        # knows (it holds the piles), a view cannot.
        if piles == 1:
            draw = False
        else:
            draw = None if full is None else apply(full, action).phase is Phase.DRAW
    return ActionPreview(captured=captured or (), refilled=refilled, draw_offered=draw)
