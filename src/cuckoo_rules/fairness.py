"""Deal commitments: proof, after a game, that it was dealt from a seed fixed before it began.

Whoever chooses a game's seed knows every hidden card, so a server that deals a game
between people draws the seed itself and keeps it secret until the game is over. To show
it did not change the seed meanwhile, it gives every seat a *commitment* when the table is
created: the SHA-256 of the seed and a secret random salt (:func:`deal_commitment`).
Once the game is over it reveals the seed and the salt, and anyone can check, with this
library alone, that they give the commitment and that the game replays from that seed
(:func:`check_deal`). The salt keeps the seed from being found from the commitment by
trying seeds.

The commitment is the lowercase hex SHA-256 of the UTF-8 text
``"cuckoo-rules deal v1:<seed in decimal>:<salt>"``, so it can be checked in any
language.

Example:
    >>> from cuckoo_rules import GameOptions, new_game
    >>> commitment = deal_commitment(42, "5f1c0a")
    >>> commitment[:16]
    '2c99f16f3914217c'
    >>> check_deal(commitment, 42, "5f1c0a")
    True
    >>> check_deal(commitment, 43, "5f1c0a")
    False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from .actions import Action
from .errors import CuckooError
from .options import GameOptions
from .rng import SEED_LIMIT

__all__ = ["SALT_BYTES", "check_deal", "deal_commitment", "new_salt", "replays"]

SALT_BYTES = 16
"""The random bytes of a salt made by :func:`new_salt` (128 bits)."""


def deal_commitment(seed: int, salt: str) -> str:
    """Return the commitment to a deal: the SHA-256 of the seed and the salt, in hex.

    Args:
        seed: The game seed, in ``[0, 2**64)``.
        salt: The secret salt (any text; :func:`new_salt` makes one).

    Raises:
        ValueError: If ``seed`` is not such an integer or ``salt`` not a string.
    """
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed: expected an integer in [0, 2**64), got {seed!r}")
    if not isinstance(salt, str):
        raise ValueError(f"salt: expected a string, got {type(salt).__name__}")
    text = f"cuckoo-rules deal v1:{seed}:{salt}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_salt() -> str:
    """Return a new secret salt: :data:`SALT_BYTES` random bytes in hex."""
    return secrets.token_hex(SALT_BYTES)


def check_deal(commitment: str, seed: int, salt: str) -> bool:
    """Whether a revealed seed and salt give the commitment received before the game.

    Args:
        commitment: The commitment received when the table was created.
        seed: The seed revealed after the game.
        salt: The salt revealed after the game.

    Returns:
        ``True`` if they match (compared in constant time).
    """
    try:
        expected = deal_commitment(seed, salt)
    except ValueError:
        return False
    return isinstance(commitment, str) and hmac.compare_digest(expected, commitment.lower())


def replays(options: GameOptions, seed: int, actions: Sequence[Action]) -> bool:
    """Whether ``actions`` are a legal game from the deal of ``seed``.

    With :func:`check_deal`, this is the whole check a seat can make after a game: the
    revealed seed was committed to before the game, and the moves everyone saw are the
    moves of a game dealt from it.

    Example:
        >>> from cuckoo_rules import GameOptions, Match
        >>> from cuckoo_rules.bots import RandomBot
        >>> options = GameOptions(num_players=2)
        >>> match = Match(options, 7, (RandomBot(seed=1), RandomBot(seed=2)))
        >>> _ = match.play_bots()
        >>> replays(options, 7, match.actions), replays(options, 8, match.actions)
        (True, False)
    """
    from .engine import apply, new_game

    try:
        state = new_game(options, seed)
        for action in actions:
            state = apply(state, action)
    except CuckooError:
        return False
    return True
