"""Game options: the number of players and the rule variants (rules.md, interchange.md §4).

Each option is described once, as metadata of its :class:`GameOptions` field: a label, a
sentence saying what it decides, and every value it takes with what that value means
(:class:`OptionInfo`, listed by :func:`option_info`). The command line's flags and help,
the web server's table form, the OpenSpiel game parameters and the documentation's table
of variants are all made from these descriptions, and the checks of
:class:`GameOptions` use the same values.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from .errors import InvalidOptionsError, short_repr

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPTION_NAMES",
    "GameOptions",
    "NextRoundFirstPlayer",
    "OptionChoice",
    "OptionInfo",
    "RefillTrigger",
    "RoundEndTiming",
    "SetupDuplicatesTo",
    "check_int",
    "option_info",
]

MIN_PLAYERS = 2
"""The fewest players a game can have."""

MAX_PLAYERS = 5
"""The most players a game can have."""

SetupDuplicatesTo = Literal["discard", "draw_pile"]
"""Where the cards set aside while building the rows go."""

RefillTrigger = Literal["capture", "same_species_lay"]
"""What makes a row left with a single species be refilled."""

RoundEndTiming = Literal["end_of_turn", "immediate"]
"""When an empty hand ends the round."""

NextRoundFirstPlayer = Literal["round_ender", "left_of_round_ender", "same_dealer"]
"""Who deals a new round and who takes its first turn."""

OptionValue = int | bool | str
"""The type of an option's value."""


@attrs.frozen
class OptionChoice:
    """One value an option can take, and what it means.

    Attributes:
        value: The value, as in :class:`GameOptions` and the JSON ``options`` object.
        text: What the value means, a short phrase that completes the option's label
            (for a form's choice, a flag's help or a table of variants).
    """

    value: OptionValue
    text: str


@attrs.frozen
class OptionInfo:
    """The description of one option of :class:`GameOptions`, for front ends and docs.

    Attributes:
        name: The field name, as in the JSON ``options`` object.
        label: A short label for a form or a table ("An empty hand ends the round").
        description: One sentence saying what the option decides, with its source.
        default: The value a game has when the option is not given (``None`` for the
            required ``num_players``).
        choices: Every value the option accepts, each with its meaning; the default
            comes first.

    Example:
        >>> info = {i.name: i for i in option_info()}["refill_trigger"]
        >>> info.default, [c.value for c in info.choices]
        ('capture', ['capture', 'same_species_lay'])
    """

    name: str
    label: str
    description: str
    default: OptionValue | None
    choices: tuple[OptionChoice, ...]

    @property
    def values(self) -> tuple[OptionValue, ...]:
        """The values the option accepts, in order."""
        return tuple(choice.value for choice in self.choices)


def _describe(label: str, description: str, *choices: tuple[OptionValue, str]) -> dict[str, Any]:
    """The field metadata of an option (see :class:`OptionInfo`)."""
    return {
        "label": label,
        "description": description,
        "choices": tuple(OptionChoice(value, text) for value, text in choices),
    }


def check_int(name: str, value: object, low: int, high: int) -> None:
    """Check that ``value`` is an integer (not a bool) from ``low`` to ``high``.

    Raises:
        InvalidOptionsError: Naming ``name``, for example ``"num_players: 6 is not in
            2..5"``.
    """
    if type(value) is not int:
        raise InvalidOptionsError(f"{name}: expected an integer, got {short_repr(value)}")
    if not low <= value <= high:
        raise InvalidOptionsError(f"{name}: {short_repr(value)} is not in {low}..{high}")


def _check(info: OptionInfo, values: tuple[OptionValue, ...], value: object) -> None:
    """Check one option's value against its description (``values``: ``info.values``)."""
    if type(values[0]) is int:
        numbers = [v for v in values if type(v) is int]
        check_int(info.name, value, min(numbers), max(numbers))
    elif type(values[0]) is bool:
        if type(value) is not bool:
            raise InvalidOptionsError(
                f"{info.name}: expected true or false, got {short_repr(value)}"
            )
    elif not isinstance(value, str) or value not in values:
        allowed = ", ".join(repr(v) for v in values)
        raise InvalidOptionsError(f"{info.name}: {short_repr(value)} is not one of {allowed}")


@attrs.frozen
class GameOptions:
    """The options of a game: player count and rule variants.

    Field names and values are exactly those of the JSON ``options`` object
    (``interchange.md`` §4), in the same order. Only ``num_players`` is required; every
    variant defaults to the ruling of ``rules.md``. Invalid values raise
    :class:`InvalidOptionsError`. :func:`option_info` describes every field for front
    ends (labels, the meaning of each value).

    Attributes:
        num_players: Number of players, 2 to 5.
        initial_row_length: Cards in each row at setup, 3 (default) or 4.
        setup_duplicates_to: Where cards set aside while building the rows go:
            ``"discard"`` (default) or ``"draw_pile"`` (shuffled back in).
        optional_draw_if_adjacent: Whether the optional draw is offered after a lay next
            to birds of the same species that captured nothing (default ``True``);
            ``False`` offers it only when the species was absent from the row.
        refill_trigger: What refills a row left with a single species: ``"capture"``
            (default: only a capture) or ``"same_species_lay"`` (any lay of a species
            already in the row, which also refills a row that a refill without cards
            left with one species).
        round_end_timing: ``"end_of_turn"`` (default): an empty hand ends the round at
            the end of the turn; ``"immediate"``: a lay that empties the hand without a
            capture ends the turn and the round at once.
        exhaustion_counts_discard: Whether the discard pile counts towards the
            ``8 * players`` cards needed to deal a new round (default ``True``).
        next_round_first_player: Who deals a new round and starts it:
            ``"round_ender"`` (default: the player who ended the round does both),
            ``"left_of_round_ender"`` (the round-ender deals, the next seat starts) or
            ``"same_dealer"`` (the first dealer deals and starts every round).
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

    num_players: int = attrs.field(
        metadata=_describe(
            "Players",
            "The number of players.",
            *((n, f"{n} players") for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)),
        )
    )
    initial_row_length: int = attrs.field(
        default=3,
        metadata=_describe(
            "Cards in each row at setup",
            "How many cards each row holds at setup (4 is SEED0's reading).",
            (3, "3 cards"),
            (4, "4 cards"),
        ),
    )
    setup_duplicates_to: SetupDuplicatesTo = attrs.field(
        default="discard",
        metadata=_describe(
            "Cards set aside while building the rows go to",
            "Where the cards set aside while building the rows go.",
            ("discard", "the discard pile"),
            ("draw_pile", "the draw pile, shuffled back in"),
        ),
    )
    optional_draw_if_adjacent: bool = attrs.field(
        default=True,
        metadata=_describe(
            "Offer the draw after a lay next to the same species",
            "Whether the optional draw is offered after a lay next to birds of the same "
            "species that captured nothing (SEED2 says no).",
            (True, "yes, whenever the lay took no cards"),
            (False, "no, only when the laid species was absent from the row"),
        ),
    )
    refill_trigger: RefillTrigger = attrs.field(
        default="capture",
        metadata=_describe(
            "A row left with one species is refilled after",
            "What refills a row left with a single species (SEED2 read literally refills "
            "after any lay of a species already in the row).",
            ("capture", "a capture"),
            (
                "same_species_lay",
                "any lay of a species already in the row, so that a row a refill left "
                "with one species is refilled when that species is laid on it",
            ),
        ),
    )
    round_end_timing: RoundEndTiming = attrs.field(
        default="end_of_turn",
        metadata=_describe(
            "An empty hand ends the round",
            "When an empty hand ends the round (the rulebook says 'as soon as').",
            ("end_of_turn", "at the end of the turn"),
            (
                "immediate",
                "at once, when a lay that captured nothing empties the hand (before the "
                "optional draw)",
            ),
        ),
    )
    exhaustion_counts_discard: bool = attrs.field(
        default=True,
        metadata=_describe(
            "Count the discard pile when dealing a new round",
            "Whether the discard pile counts towards the 8 cards per player needed to deal "
            "a new round (SEED2 counts the draw pile alone).",
            (True, "yes, the draw and discard piles together"),
            (False, "no, the draw pile alone"),
        ),
    )
    next_round_first_player: NextRoundFirstPlayer = attrs.field(
        default="round_ender",
        metadata=_describe(
            "A new round is dealt and started by",
            "Who deals a new round and takes its first turn.",
            ("round_ender", "the player who ended the round"),
            ("left_of_round_ender", "the round-ender deals, the next player clockwise starts"),
            ("same_dealer", "the first dealer, every round (SEED2 read literally)"),
        ),
    )
    always_prompt_flock: bool = attrs.field(
        default=False,
        metadata=_describe(
            "Always ask about flocks",
            "Whether the flock step is offered every turn, so that nobody can tell who "
            "holds a flock (as Board Game Arena plays).",
            (False, "no, only when a flock is possible"),
            (True, "yes, every turn, with pass as the only choice when no flock is possible"),
        ),
    )

    def __attrs_post_init__(self) -> None:
        for info, values in _CHECKS:
            value = getattr(self, info.name)
            if value not in values or type(value) is not type(values[0]):  # True == 1
                _check(info, values, value)  # raises, saying what is wrong

    def to_json(self) -> dict[str, Any]:
        """Return the JSON ``options`` object, every key present, in format order."""
        return {name: getattr(self, name) for name in OPTION_NAMES}


def _info(field: attrs.Attribute[Any]) -> OptionInfo:
    default = None if field.default is attrs.NOTHING else field.default
    return OptionInfo(field.name, default=default, **field.metadata)


_INFO: tuple[OptionInfo, ...] = tuple(_info(f) for f in attrs.fields(GameOptions))

_CHECKS: tuple[tuple[OptionInfo, tuple[OptionValue, ...]], ...] = tuple(
    (info, info.values) for info in _INFO
)

OPTION_NAMES: tuple[str, ...] = tuple(info.name for info in _INFO)
"""The option names in JSON order."""


def option_info() -> tuple[OptionInfo, ...]:
    """Return the description of every option of :class:`GameOptions`, in JSON order.

    Front ends build their forms, flags and help from it, so that an option is described
    in one place.

    Example:
        >>> [info.name for info in option_info()][:3]
        ['num_players', 'initial_row_length', 'setup_duplicates_to']
        >>> {i.name: i for i in option_info()}["round_end_timing"].choices[0].text
        'at the end of the turn'
    """
    return _INFO
