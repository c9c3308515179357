"""Game options: the number of players and the rule variants (rules.md, interchange.md §4)."""

from __future__ import annotations

from typing import Any, Literal, get_args

import attrs

from .errors import InvalidOptionsError

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "GameOptions",
    "NextRoundFirstPlayer",
    "RoundEndTiming",
    "SetupDuplicatesTo",
]

MIN_PLAYERS = 2
"""The fewest players a game can have."""

MAX_PLAYERS = 5
"""The most players a game can have."""

SetupDuplicatesTo = Literal["discard", "draw_pile"]
"""Where the cards set aside while building the rows go."""

RoundEndTiming = Literal["end_of_turn", "immediate"]
"""When an empty hand ends the round."""

NextRoundFirstPlayer = Literal["round_ender", "left_of_round_ender"]
"""Who takes the first turn of a new round."""


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if type(value) is not int:
        raise InvalidOptionsError(f"{name}: expected an integer, got {value!r}")
    if not low <= value <= high:
        raise InvalidOptionsError(f"{name}: {value} is not in {low}..{high}")


def _check_bool(name: str, value: object) -> None:
    if type(value) is not bool:
        raise InvalidOptionsError(f"{name}: expected true or false, got {value!r}")


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise InvalidOptionsError(f"{name}: {value!r} is not one of {allowed}")


@attrs.frozen
class GameOptions:
    """The options of a game: player count and rule variants.

    Field names and values are exactly those of the JSON ``options`` object
    (``interchange.md`` §4). Only ``num_players`` is required; every variant defaults to
    the ruling of ``rules.md``. Invalid values raise :class:`InvalidOptionsError`.

    Attributes:
        num_players: Number of players, 2 to 5.
        initial_row_length: Cards in each row at setup, 3 (default) or 4.
        setup_duplicates_to: Where cards set aside while building the rows go:
            ``"discard"`` (default) or ``"draw_pile"`` (shuffled back in).
        optional_draw_if_adjacent: Whether the optional draw is offered after a lay next
            to birds of the same species that captured nothing (default ``True``);
            ``False`` offers it only when the species was absent from the row.
        round_end_timing: ``"end_of_turn"`` (default): an empty hand ends the round at
            the end of the turn; ``"immediate"``: a lay that empties the hand without a
            capture ends the turn and the round at once.
        exhaustion_counts_discard: Whether the discard pile counts towards the
            ``8 * players`` cards needed to deal a new round (default ``True``).
        next_round_first_player: ``"round_ender"`` (default) or
            ``"left_of_round_ender"``: who takes the first turn of a new round.
        always_prompt_flock: Offer the flock step every turn, with ``pass`` as the only
            choice when no flock is possible (default ``False``).

    Example:
        >>> GameOptions(num_players=3, round_end_timing="immediate").round_end_timing
        'immediate'
        >>> GameOptions(num_players=6)
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.InvalidOptionsError: num_players: 6 is not in 2..5
    """

    num_players: int
    initial_row_length: int = 3
    setup_duplicates_to: SetupDuplicatesTo = "discard"
    optional_draw_if_adjacent: bool = True
    round_end_timing: RoundEndTiming = "end_of_turn"
    exhaustion_counts_discard: bool = True
    next_round_first_player: NextRoundFirstPlayer = "round_ender"
    always_prompt_flock: bool = False

    def __attrs_post_init__(self) -> None:
        _check_int("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        _check_int("initial_row_length", self.initial_row_length, 3, 4)
        _check_choice("setup_duplicates_to", self.setup_duplicates_to, get_args(SetupDuplicatesTo))
        _check_bool("optional_draw_if_adjacent", self.optional_draw_if_adjacent)
        _check_choice("round_end_timing", self.round_end_timing, get_args(RoundEndTiming))
        _check_bool("exhaustion_counts_discard", self.exhaustion_counts_discard)
        _check_choice(
            "next_round_first_player",
            self.next_round_first_player,
            get_args(NextRoundFirstPlayer),
        )
        _check_bool("always_prompt_flock", self.always_prompt_flock)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON ``options`` object, every key present, in format order."""
        return {f.name: getattr(self, f.name) for f in attrs.fields(GameOptions)}


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in attrs.fields(GameOptions))
"""The option names in JSON order."""
