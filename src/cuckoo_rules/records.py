"""Game records: a whole game as options, seed and actions, in JSON format version 2.

A :class:`GameRecord` is what it takes to reproduce a game exactly: the options, the
seed and the actions in order (the engine is deterministic), plus optional
:class:`Metadata` (player names, date, event, result). Record a game as it is played
with :meth:`GameRecord.start` and :meth:`GameRecord.append`; replay it with
:func:`replay` or :func:`final_state`.

Building or decoding a record is cheap and checks every field's type and range, but
does **not** replay the game, so it does not know whether the actions are legal.
:func:`replay` is what checks legality, move by move, and raises :class:`RecordError`
naming the first illegal move; :func:`check_record` replays the whole record and also
checks the recorded result.

The JSON document (``encode_record``, keys in this order)::

    {"format": "cuckoo-rules/record", "version": 2,
     "options": {...every option, as in the state format...},
     "seed": 42,
     "actions": [{"type": "lay", "species": "parrot", "row": 0, "side": "left"},
                 {"type": "pass"}],
     "metadata": {"players": ["Ann", "greedy"], "date": "2026-11-29",
                  "result": {"winners": [1]}}}

- ``metadata`` is always written, as ``{}`` when nothing is known, and is required on
  reading, like every other key. Inside it every key is optional: a key whose value is
  unknown (``None``) is omitted, and ``null`` is rejected on reading (omit the key
  instead). Unknown keys are rejected, in ``metadata`` as everywhere else, so that one
  record has exactly one document.
- ``players`` has one name per seat; ``date`` and ``event`` are free text (ISO 8601
  ``YYYY-MM-DD`` is recommended for ``date``); ``result.winners`` lists the winning seats
  in increasing order, like ``winners`` in the state format.
- Version 2 is written; version 1 records (written by cuckoo-rules 0.1, for example by
  ``cuckoo-rules play --save``) are read too, as the state format reads them
  (:data:`~cuckoo_rules.codec.READ_VERSIONS`), through the same upgrade steps
  (:func:`~cuckoo_rules.codec.versions.upgrade`): their ``options`` have no
  ``refill_trigger`` (it means ``"capture"``) and no ``"same_dealer"``, and they give the
  same record, so the same game, as version 2.
- Text is read strictly (:func:`loads_record`): nesting deeper than 64 levels, numbers
  of more than 40 digits, bytes that are not UTF-8 and lone surrogates are refused with
  a :class:`~cuckoo_rules.DecodeError` that says where.

Example:
    >>> from cuckoo_rules import GameOptions, apply, legal_actions, new_game
    >>> record = GameRecord.start(GameOptions(num_players=2), seed=7,
    ...                           metadata=Metadata(players=("Ann", "Bob")))
    >>> state = new_game(record.options, record.seed)
    >>> for _ in range(6):
    ...     action = legal_actions(state)[0]
    ...     state, record = apply(state, action), record.append(action)
    >>> len(record.actions), final_state(record) == state
    (6, True)
    >>> loads_record(dumps_record(record)) == record
    True
    >>> encode_record(record)["metadata"]
    {'players': ['Ann', 'Bob']}
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

import attrs

from .actions import Action, action_id
from .codec import decode_action, decode_options, encode_action
from .codec.fields import array, fail, int_in, keys, mapping
from .codec.versions import CURRENT_VERSION, check_header, upgrade
from .engine import apply, new_game, step
from .errors import DecodeError, IllegalActionError, InvalidOptionsError, RecordError, short_repr
from .events import Event
from .jsontext import loads, lone_surrogate_in, undecodable
from .options import GameOptions
from .rng import SEED_LIMIT
from .state import GameState

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "GameRecord",
    "GameResult",
    "Metadata",
    "RecordError",
    "check_record",
    "decode_record",
    "dump_record",
    "dumps_record",
    "encode_record",
    "final_state",
    "illegal_action_error",
    "load_record",
    "loads_record",
    "replay",
    "replay_steps",
]

RECORD_FORMAT = "cuckoo-rules/record"
"""The ``format`` name of a JSON game record."""

RECORD_VERSION = CURRENT_VERSION
"""The ``version`` of the JSON record format this library writes (it also reads version 1:
see :data:`~cuckoo_rules.codec.READ_VERSIONS`)."""

_RECORD_KEYS = ("format", "version", "options", "seed", "actions", "metadata")
_METADATA_KEYS = ("players", "date", "event", "result")
_RESULT_KEYS = ("winners",)


def _record_fail(path: str, message: str, index: int | None = None) -> RecordError:
    return RecordError(f"{path}: {message}", index)


# --------------------------------------------------------------------------- metadata


@attrs.frozen
class GameResult:
    """How a game ended, as recorded in a record's metadata.

    Attributes:
        winners: The winning seats, distinct, in increasing order, at least one (a
            shared victory has several), like ``GameState.winners`` of a finished game.

    Raises:
        RecordError: If ``winners`` is not a non-empty tuple of distinct, increasing,
            non-negative integers. Seats beyond the player count are rejected by
            :class:`GameRecord`, which knows the options.
    """

    winners: tuple[int, ...]

    def __attrs_post_init__(self) -> None:
        path = "metadata.result.winners"
        if not isinstance(self.winners, tuple):
            raise _record_fail(path, f"expected a tuple of seats, got {short_repr(self.winners)}")
        for i, seat in enumerate(self.winners):
            if type(seat) is not int:
                raise _record_fail(f"{path}[{i}]", f"expected an integer, got {short_repr(seat)}")
            if seat < 0:
                raise _record_fail(f"{path}[{i}]", f"{seat} is out of range (at least 0)")
        if not self.winners:
            raise _record_fail(path, "a finished game has at least one winner")
        if list(self.winners) != sorted(set(self.winners)):
            raise _record_fail(path, "seats must be distinct and in increasing order")

    @classmethod
    def of(cls, state: GameState) -> GameResult:
        """Return the result of a finished game.

        Raises:
            RecordError: If the game is not over.

        Example:
            >>> from cuckoo_rules import GameOptions, new_game
            >>> GameResult.of(new_game(GameOptions(num_players=2), seed=1))
            Traceback (most recent call last):
            ...
            cuckoo_rules.errors.RecordError: metadata.result: the game is not over
        """
        if not state.is_over:
            raise _record_fail("metadata.result", "the game is not over")
        return cls(state.winners)


def _check_text(value: object, path: str) -> None:
    if value is None:
        return
    if not isinstance(value, str):
        raise _record_fail(path, f"expected a string or None, got {short_repr(value)}")
    _check_characters(value, path)


def _check_characters(text: str, path: str) -> None:
    """Refuse a lone surrogate, which JSON text cannot carry (:func:`loads_record` refuses it)."""
    lone = lone_surrogate_in(text)
    if lone is not None:
        message = f"U+{ord(text[lone]):04X} at index {lone} is a lone surrogate, not a character"
        raise _record_fail(path, message)


@attrs.frozen
class Metadata:
    """Facts about a recorded game that the rules do not need; every field is optional.

    Attributes:
        players: One name per seat (seat order), or ``None``.
        date: When the game was played, free text (ISO 8601 ``YYYY-MM-DD``
            recommended), or ``None``.
        event: The event, match or site, free text, or ``None``.
        result: The result of a finished game, or ``None``. Building or decoding a
            record does not check it against the actions; :func:`check_record` does.

    Raises:
        RecordError: If a field has the wrong type (the message names the field, for
            example ``"metadata.players[1]: expected a string, got 7"``), or a text
            holds a lone surrogate (half of a UTF-16 pair, which JSON text cannot
            carry). The number of names and the seats in ``result`` are checked by
            :class:`GameRecord`.
    """

    players: tuple[str, ...] | None = None
    date: str | None = None
    event: str | None = None
    result: GameResult | None = None

    def __attrs_post_init__(self) -> None:
        if self.players is not None:
            if not isinstance(self.players, tuple):
                raise _record_fail(
                    "metadata.players",
                    f"expected a tuple of names or None, got {short_repr(self.players)}",
                )
            for i, name in enumerate(self.players):
                if not isinstance(name, str):
                    raise _record_fail(
                        f"metadata.players[{i}]", f"expected a string, got {short_repr(name)}"
                    )
                _check_characters(name, f"metadata.players[{i}]")
        _check_text(self.date, "metadata.date")
        _check_text(self.event, "metadata.event")
        if self.result is not None and not isinstance(self.result, GameResult):
            raise _record_fail(
                "metadata.result", f"expected a GameResult or None, got {short_repr(self.result)}"
            )


# --------------------------------------------------------------------------- the record


def _check_action(action: object, index: int) -> None:
    """Check that ``action`` is a well-formed action (not that it is legal)."""
    try:
        action_id(action)  # type: ignore[arg-type]
    except ValueError:
        raise _record_fail(
            f"actions[{index}]",
            f"{short_repr(action)} is not a well-formed action (Lay, Draw, FlyHome or Pass)",
            index,
        ) from None


@attrs.frozen
class GameRecord:
    """A game as options, seed and the actions taken, with optional metadata.

    The engine is deterministic, so ``new_game(options, seed)`` followed by the actions
    reproduces every state of the game (:func:`replay`). A record may hold a finished
    game or any prefix of one. Records are immutable: :meth:`append` returns a new one.

    Building a record checks the type and range of every field but does not replay the
    game: whether the actions are legal is checked by :func:`replay`,
    :func:`final_state` and :func:`check_record`.

    Attributes:
        options: The game options.
        seed: The seed, an integer in ``[0, 2**64)``.
        actions: The actions in the order they were taken.
        metadata: Player names, date, event and result, all optional.

    Raises:
        InvalidOptionsError: If ``options`` is not a :class:`GameOptions` or the seed is
            not an integer in range (the same rule as :func:`cuckoo_rules.new_game`).
        RecordError: If ``actions`` is not a tuple of well-formed actions, ``metadata``
            is not a :class:`Metadata`, ``metadata.players`` does not have one name per
            seat, or ``metadata.result`` names a seat the game does not have.

    Example:
        >>> from cuckoo_rules import GameOptions, Pass
        >>> record = GameRecord(GameOptions(num_players=3), seed=42)
        >>> record.append(Pass()).actions, record.actions
        ((Pass(),), ())
        >>> GameRecord(GameOptions(num_players=3), seed=-1)
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.InvalidOptionsError: seed: -1 is not an integer in [0, 2**64)
    """

    options: GameOptions
    seed: int
    actions: tuple[Action, ...] = ()
    metadata: Metadata = attrs.field(factory=Metadata)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.options, GameOptions):
            raise InvalidOptionsError(f"options: expected GameOptions, got {self.options!r}")
        if type(self.seed) is not int or not 0 <= self.seed < SEED_LIMIT:
            raise InvalidOptionsError(f"seed: {self.seed!r} is not an integer in [0, 2**64)")
        if not isinstance(self.actions, tuple):
            raise _record_fail(
                "actions", f"expected a tuple of actions, got {short_repr(self.actions)}"
            )
        for index, action in enumerate(self.actions):
            _check_action(action, index)
        metadata = self.metadata
        if not isinstance(metadata, Metadata):
            raise _record_fail("metadata", f"expected Metadata, got {short_repr(metadata)}")
        n = self.options.num_players
        if metadata.players is not None and len(metadata.players) != n:
            raise _record_fail(
                "metadata.players",
                f"expected {n} names (one per player), got {len(metadata.players)}",
            )
        if metadata.result is not None:
            for i, seat in enumerate(metadata.result.winners):
                if seat >= n:
                    raise _record_fail(
                        f"metadata.result.winners[{i}]",
                        f"seat {seat} is out of range for {n} players (0 to {n - 1})",
                    )

    @classmethod
    def start(cls, options: GameOptions, seed: int, metadata: Metadata | None = None) -> GameRecord:
        """Return the record of a game about to start: no actions yet.

        Args:
            options: The game options.
            seed: The seed the game is dealt with.
            metadata: Optional facts about the game (none by default).

        Raises:
            InvalidOptionsError: If the options or seed are invalid.
            RecordError: If the metadata does not fit the options.
        """
        return cls(options, seed, (), Metadata() if metadata is None else metadata)

    @classmethod
    def from_game(
        cls,
        options: GameOptions,
        seed: int,
        actions: Iterable[Action],
        metadata: Metadata | None = None,
    ) -> GameRecord:
        """Return the record of a game played with ``actions`` (not replayed here).

        Args:
            options: The game options.
            seed: The seed the game was dealt with.
            actions: The actions in the order they were taken (any iterable).
            metadata: Optional facts about the game (none by default).

        Raises:
            InvalidOptionsError: If the options or seed are invalid.
            RecordError: If an action is not a well-formed action, or the metadata does
                not fit the options.
        """
        return cls(options, seed, tuple(actions), Metadata() if metadata is None else metadata)

    def append(self, action: Action) -> GameRecord:
        """Return this record with ``action`` added at the end; this record is unchanged.

        Cheap: only the new action is checked, and the game is not replayed, so its
        legality is not checked (see :func:`replay`).

        Raises:
            RecordError: If ``action`` is not a well-formed action.
        """
        _check_action(action, len(self.actions))
        # Every other field is already checked: skip re-checking all the actions.
        record = object.__new__(GameRecord)
        for field, value in (
            ("options", self.options),
            ("seed", self.seed),
            ("actions", (*self.actions, action)),
            ("metadata", self.metadata),
        ):
            object.__setattr__(record, field, value)
        return record

    def states(self) -> Iterator[GameState]:
        """Replay this record; the same as :func:`replay` (``replay(self)``)."""
        return replay(self)


# --------------------------------------------------------------------------- replay


def illegal_action_error(state: GameState, index: int, error: IllegalActionError) -> RecordError:
    """The error of a record whose action ``index`` is not legal in ``state``.

    The message names the action, its move and turn numbers, and why, for example
    ``"actions[0] (move 1, turn 1): Draw() is not legal ..."``; ``Match.from_record``
    and :func:`replay` give the same one.
    """
    return RecordError(f"actions[{index}] (move {index + 1}, turn {state.turn}): {error}", index)


def _step(state: GameState, index: int, action: Action) -> GameState:
    try:
        return apply(state, action)
    except IllegalActionError as error:
        raise illegal_action_error(state, index, error) from error


def replay(record: GameRecord) -> Iterator[GameState]:
    """Yield the initial state of a record's game, then the state after every action.

    This is what checks that a record's actions are legal. The states are produced
    lazily: the states before an illegal action are yielded before the error is raised.

    Yields:
        ``1 + len(record.actions)`` states: ``new_game(options, seed)``, then one per action.

    Raises:
        RecordError: At the first action that is not legal in the state it is applied
            to (actions after the end of the game included). The message names the
            action's index and move number (``index + 1``) and gives the reason from
            :class:`~cuckoo_rules.IllegalActionError`, which is chained as the cause;
            ``error.index`` is the index.

    Example:
        >>> from cuckoo_rules import GameOptions, Draw
        >>> record = GameRecord(GameOptions(num_players=3), seed=42, actions=(Draw(),))
        >>> [state.turn for state in replay(record)]
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.RecordError: actions[0] (move 1, turn 1): Draw() is not legal ...
    """
    state = new_game(record.options, record.seed)
    yield state
    for index, action in enumerate(record.actions):
        state = _step(state, index, action)
        yield state


def replay_steps(record: GameRecord) -> Iterator[tuple[GameState, tuple[Event, ...]]]:
    """Like :func:`replay`, with the events of the action that led to each state.

    Each action is played once, with :func:`~cuckoo_rules.step`: use this rather than
    pairing :func:`replay` with ``step``, which would play the game twice.

    Yields:
        ``(new_game(options, seed), ())``, then ``(state, events)`` for every action:
        the events hold everything, hidden cards included (give a seat only
        :func:`~cuckoo_rules.visible_events` of them).

    Raises:
        RecordError: As :func:`replay` does, at the first illegal action.

    Example:
        >>> from cuckoo_rules import Draw, GameOptions, Lay, Side, Species
        >>> lay = Lay(Species.OWL, 0, Side.LEFT)
        >>> record = GameRecord(GameOptions(num_players=2), seed=7, actions=(lay, Draw()))
        >>> [type(event).__name__ for _, events in replay_steps(record) for event in events]
        ['Laid', 'Drew', 'TurnEnded', 'TurnStarted']
    """
    state = new_game(record.options, record.seed)
    yield state, ()
    for index, action in enumerate(record.actions):
        try:
            state, events = step(state, action)
        except IllegalActionError as error:
            raise illegal_action_error(state, index, error) from error
        yield state, events


def final_state(record: GameRecord) -> GameState:
    """Return the state after the last action of a record (replaying it).

    Raises:
        RecordError: If an action is not legal (see :func:`replay`).
    """
    return deque(replay(record), maxlen=1)[0]  # the last state, keeping no other


def check_record(record: GameRecord) -> GameState:
    """Replay a record in full and check that its recorded result, if any, is right.

    Returns:
        The final state.

    Raises:
        RecordError: If an action is not legal (see :func:`replay`), or
            ``metadata.result`` is set but the game is not over after the last action or
            its winners are not the recorded ones.
    """
    state = final_state(record)
    result = record.metadata.result
    if result is not None:
        recorded = list(result.winners)
        if not state.is_over:
            raise _record_fail(
                "metadata.result",
                f"the record gives winners {recorded}, but the game is not over after "
                f"its {len(record.actions)} actions",
            )
        if state.winners != result.winners:
            raise _record_fail(
                "metadata.result.winners",
                f"the record gives {recorded}, but replaying the game gives {list(state.winners)}",
            )
    return state


# --------------------------------------------------------------------------- JSON documents


def _encode_metadata(metadata: Metadata) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    if metadata.players is not None:
        doc["players"] = list(metadata.players)
    if metadata.date is not None:
        doc["date"] = metadata.date
    if metadata.event is not None:
        doc["event"] = metadata.event
    if metadata.result is not None:
        doc["result"] = {"winners": list(metadata.result.winners)}
    return doc


def encode_record(record: GameRecord) -> dict[str, Any]:
    """Return the JSON document (format version 2) of a record, keys in format order.

    ``metadata`` is always present (``{}`` when empty); its keys whose value is
    ``None`` are omitted.

    Example:
        >>> from cuckoo_rules import GameOptions, Pass
        >>> doc = encode_record(GameRecord(GameOptions(num_players=2), 5, (Pass(),)))
        >>> list(doc), doc["actions"], doc["metadata"]
        (['format', 'version', 'options', 'seed', 'actions', 'metadata'], [{'type': 'pass'}], {})
    """
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "options": record.options.to_json(),
        "seed": record.seed,
        "actions": [encode_action(action) for action in record.actions],
        "metadata": _encode_metadata(record.metadata),
    }


def _decode_action_at(data: object, index: int) -> Action:
    try:
        return decode_action(data, f"actions[{index}]")  # type: ignore[arg-type]
    except DecodeError as error:
        raise RecordError(str(error), index) from None


def _decode_metadata(data: object) -> Metadata:
    doc = mapping(data, "metadata")
    for key, value in doc.items():
        if key not in _METADATA_KEYS:
            fail("metadata", f"unknown key {short_repr(key)}")
        if value is None:
            fail(f"metadata.{key}", "null is not allowed; omit the key instead")
    players = None
    if "players" in doc:
        players = tuple(array(doc["players"], "metadata.players"))
    result = None
    if "result" in doc:
        result_doc = mapping(doc["result"], "metadata.result")
        keys(result_doc, "metadata.result", _RESULT_KEYS)
        result = GameResult(tuple(array(result_doc["winners"], "metadata.result.winners")))
    # Metadata and GameResult check the types of the values and name the field.
    return Metadata(players, doc.get("date"), doc.get("event"), result)


def decode_record(data: object) -> GameRecord:
    """Read a JSON record document (format version 1 or 2), checking every field.

    A version 1 record gives the same record as the version 2 document of the same game
    (see :data:`~cuckoo_rules.codec.READ_VERSIONS`). The game is not replayed, so
    decoding is cheap and an illegal action is not noticed here: use :func:`replay` or
    :func:`check_record` for that.

    Args:
        data: A decoded JSON object, as :func:`json.loads` returns it.

    Returns:
        The record; ``encode_record(decode_record(d)) == d`` for every valid document.

    Raises:
        DecodeError: If the document is malformed; the message names the field, for
            example ``"actions[3].row: 4 is out of range (at least 0 and at most 3)"``
            or ``"metadata.players[1]: expected a string, got 7"``. Some are raised
            as :class:`RecordError`, a subclass, with ``index`` set for a bad action.
    """
    doc = mapping(data, "record")
    check_header(doc, "record", _RECORD_KEYS, RECORD_FORMAT)
    doc = upgrade(doc, "record")  # an older version is read as the current one
    options = decode_options(doc["options"])
    seed = int_in(doc["seed"], "seed", 0, SEED_LIMIT - 1)
    actions = tuple(
        _decode_action_at(item, i) for i, item in enumerate(array(doc["actions"], "actions"))
    )
    metadata = _decode_metadata(doc["metadata"])
    return GameRecord(options, seed, actions, metadata)


# --------------------------------------------------------------------------- text and files


class _TextReader(Protocol):
    def read(self) -> str | bytes: ...


class _TextWriter(Protocol):
    def write(self, text: str, /) -> object: ...


def dumps_record(record: GameRecord, *, indent: int | str | None = None) -> str:
    """Return the JSON text of a record (ASCII; ``indent`` as for :func:`json.dumps`).

    Example:
        >>> from cuckoo_rules import GameOptions
        >>> dumps_record(GameRecord(GameOptions(num_players=2), 5))[:48]
        '{"format": "cuckoo-rules/record", "version": 2, '
    """
    return json.dumps(encode_record(record), indent=indent)


def dump_record(record: GameRecord, fp: _TextWriter, *, indent: int | str | None = None) -> None:
    """Write the JSON text of a record to a text file (like :func:`json.dump`)."""
    fp.write(dumps_record(record, indent=indent))


def loads_record(text: str | bytes | bytearray) -> GameRecord:
    """Read a record from JSON text (like :func:`json.loads`), checking every field.

    Hostile text is refused like any other bad text, cheaply: the reader never recurses
    deeper than 64 levels and never converts a number of more than 40 digits.

    Args:
        text: The JSON text, or its bytes (UTF-8; UTF-16 and UTF-32 are detected).

    Raises:
        DecodeError: If the text is not valid JSON (the message gives the line, column
            and character position, e.g. ``"invalid JSON at line 1, column 9 (char 8):
            Expecting value"``), has a key twice in an object, holds ``NaN`` or
            ``Infinity``, nests arrays and objects more than 64 levels deep, holds a
            number with more than 40 digits in a row or too large for a float, bytes
            that are not UTF-8 or a lone surrogate, or is not a valid record document
            (see :func:`decode_record`). Never a :class:`RecursionError` or another
            :class:`ValueError`.

    Example:
        >>> loads_record("[" * 100_000)
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.DecodeError: invalid JSON at line 1, column 65 (char 64): arrays ...
    """
    return decode_record(loads(text))


def load_record(fp: _TextReader) -> GameRecord:
    """Read a record from a file opened for reading (like :func:`json.load`).

    Raises:
        DecodeError: As :func:`loads_record`; also if a file opened as text holds bytes
            that are not text in its encoding.
    """
    try:
        text = fp.read()
    except UnicodeDecodeError as error:
        raise undecodable(error) from None
    return loads_record(text)
