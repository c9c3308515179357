"""The JSON ``options`` object of every document, in format version 1 or 2.

Format version 2 added to the options object a key (:data:`OPTIONS_ADDED_IN_2`: a
version 1 document has none, and means the option's default) and values of keys that
version 1 already had (:data:`VALUES_ADDED_IN_2`). :meth:`GameOptions.to_json
<cuckoo_rules.GameOptions.to_json>` writes the object; :func:`decode_options` reads it.
"""

from __future__ import annotations

from ..errors import DecodeError, InvalidOptionsError
from ..options import OPTION_NAMES, GameOptions
from ._fields import fail, keys, mapping
from .versions import check_version

__all__ = ["OPTIONS_ADDED_IN_2", "VALUES_ADDED_IN_2", "decode_options"]

OPTIONS_ADDED_IN_2: tuple[str, ...] = ("refill_trigger",)
"""The options that format version 2 added: a version 1 document has no such key."""

VALUES_ADDED_IN_2: dict[str, tuple[str, ...]] = {"next_round_first_player": ("same_dealer",)}
"""The values that format version 2 added to options that version 1 already had."""

_OPTION_KEYS: dict[int, tuple[str, ...]] = {
    1: tuple(name for name in OPTION_NAMES if name not in OPTIONS_ADDED_IN_2),
    2: OPTION_NAMES,
}

# Options objects decoded so far, by version and (key, type, value) triples (the type
# tells True from 1): a game has one options object, decoded again with every state.
# GameOptions is immutable, so one value serves every document; there are fewer valid
# combinations than the bound.
_DECODED_OPTIONS: dict[tuple[int, tuple[tuple[str, type, object], ...]], GameOptions] = {}


def decode_options(data: object, path: str = "options", version: int = 2) -> GameOptions:
    """Decode a JSON ``options`` object; every key of its format version must be present.

    Args:
        data: The options object.
        path: Where it is, for error messages.
        version: The format version of the document it comes from, one of
            :data:`~cuckoo_rules.codec.READ_VERSIONS` (default 2, the version written).
            Version 1 options have no ``refill_trigger`` key (they mean ``"capture"``)
            and may not use ``"same_dealer"`` for ``next_round_first_player``.

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
    if type(data) is dict:  # the usual case: options met before
        try:
            key = (version, tuple((name, type(value), value) for name, value in data.items()))
            known = _DECODED_OPTIONS.get(key)
        except TypeError:  # a value that cannot be hashed: not a valid option anyway
            key, known = None, None
        if known is not None:
            return known
    expected = _OPTION_KEYS[check_version(version)]
    doc = mapping(data, path)
    if version == 1:
        for name in OPTIONS_ADDED_IN_2:
            if name in doc:
                fail(
                    path,
                    f"unknown key {name!r} (format version 1 has no such option; "
                    "version 2 added it)",
                )
        for name, values in VALUES_ADDED_IN_2.items():
            value = doc.get(name)
            if isinstance(value, str) and value in values:
                fail(
                    f"{path}.{name}",
                    f"format version 1 does not have {value!r} (version 2 added it)",
                )
    keys(doc, path, expected)
    try:
        options = GameOptions(**doc)
    except InvalidOptionsError as error:
        raise DecodeError(f"{path}.{error}") from None
    if key is not None and len(_DECODED_OPTIONS) < 4096:
        _DECODED_OPTIONS[key] = options
    return options
