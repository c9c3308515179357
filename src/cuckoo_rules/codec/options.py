"""The JSON ``options`` object of every document.

:meth:`GameOptions.to_json <cuckoo_rules.GameOptions.to_json>` writes the object (of
format version 2, :data:`~cuckoo_rules.codec.versions.CURRENT_VERSION`);
:func:`decode_options` reads one of any version of
:data:`~cuckoo_rules.codec.READ_VERSIONS`: an older one is first upgraded
(:func:`~cuckoo_rules.codec.versions.upgrade_options`), then every object is decoded as
the current version. Format version 2 added to the options object a key
(:data:`OPTIONS_ADDED_IN_2`: a version 1 document has none, and means ``"capture"``)
and values of keys that version 1 already had (:data:`VALUES_ADDED_IN_2`); both are
defined with the upgrade step, in :mod:`cuckoo_rules.codec.versions`.
"""

from __future__ import annotations

from ..errors import DecodeError, InvalidOptionsError
from ..options import OPTION_NAMES, GameOptions
from .fields import keys
from .versions import CURRENT_VERSION, OPTIONS_ADDED_IN_2, VALUES_ADDED_IN_2, upgrade_options

__all__ = ["OPTIONS_ADDED_IN_2", "VALUES_ADDED_IN_2", "decode_options"]

# Options objects decoded so far, by version, (key, value) pairs and the values' types
# (the types tell True from 1): a game has one options object, decoded again with every
# state. GameOptions is immutable, so one value serves every document; there are fewer
# valid combinations than the bound.
_OptionsKey = tuple[int, tuple[tuple[str, object], ...], tuple[type, ...]]
_DECODED_OPTIONS: dict[_OptionsKey, GameOptions] = {}


def decode_options(
    data: object, path: str = "options", version: int = CURRENT_VERSION
) -> GameOptions:
    """Decode a JSON ``options`` object; every key of its format version must be present.

    Args:
        data: The options object.
        path: Where it is, for error messages.
        version: The format version of the document it comes from, one of
            :data:`~cuckoo_rules.codec.READ_VERSIONS` (default 2,
            :data:`~cuckoo_rules.codec.versions.CURRENT_VERSION`, the version written).
            An older object is upgraded first, step by step
            (:func:`~cuckoo_rules.codec.versions.upgrade_options`): version 1 options
            have no ``refill_trigger`` key (they mean ``"capture"``) and may not use
            ``"same_dealer"`` for ``next_round_first_player``.

    Raises:
        DecodeError: If a key is missing or unknown (``refill_trigger`` is unknown in
            version 1), a value is invalid or not in that version, or ``version`` is
            not one of :data:`~cuckoo_rules.codec.READ_VERSIONS`.

    Example:
        >>> v2 = GameOptions(num_players=2).to_json()
        >>> v1 = {name: value for name, value in v2.items() if name != "refill_trigger"}
        >>> decode_options(v1, version=1) == decode_options(v2) == GameOptions(num_players=2)
        True
        >>> decode_options(v2, version=1)
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.DecodeError: options: unknown key 'refill_trigger' (format version 1 ...
    """
    key = None
    if type(data) is dict and type(version) is int:  # the usual case: options met before
        try:
            key = (version, tuple(data.items()), tuple(map(type, data.values())))  # C speed
            known = _DECODED_OPTIONS.get(key)
        except TypeError:  # a value that cannot be hashed: not a valid option anyway
            key, known = None, None
        if known is not None:
            return known
    doc = upgrade_options(data, path, version)  # now of the current version
    keys(doc, path, OPTION_NAMES)
    try:
        options = GameOptions(**doc)
    except InvalidOptionsError as error:
        raise DecodeError(f"{path}.{error}") from None
    if key is not None and len(_DECODED_OPTIONS) < 4096:
        _DECODED_OPTIONS[key] = options
    return options
