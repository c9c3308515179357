"""Strict reading of JSON text from outside the library: the reader of every text format.

:func:`loads` is :func:`json.loads` for text that a user, a file or a network peer hands
over (a game record, a request body of the web server): every problem becomes a
:class:`~cuckoo_rules.DecodeError` that says what is wrong and where, never a
:class:`RecursionError`, another :class:`ValueError` or a :class:`UnicodeError`. It
refuses syntax errors, a key twice in an object, ``NaN`` and ``Infinity``, arrays and
objects nested more than :data:`MAX_DEPTH` levels deep, numbers with more than
:data:`MAX_DIGITS` digits in a row or too large for a float, bytes that are not valid
UTF-8 (or UTF-16/32), and lone surrogates (half of a UTF-16 pair, such as U+D800, escaped
or not), which are not characters.

A quick look at C speed finds none of these in well-formed text, which :func:`json.loads`
then parses at C speed too; only text the quick look cannot vouch for is read token by
token, without recursion, to find where the problem is.

Example:
    >>> loads('{"seed": 42}')
    {'seed': 42}
    >>> loads("[" * 2000)
    Traceback (most recent call last):
    ...
    cuckoo_rules.errors.DecodeError: invalid JSON at line 1, column 65 (char 64): arrays ...
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .errors import DecodeError, short_repr

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "loads", "lone_surrogate_in", "undecodable"]

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects that JSON text may have (documents need 4)."""

MAX_DIGITS = 40
"""The most digits in a row that a number in JSON text may have (a seed has at most 20)."""

# A string literal, escapes included, or an unterminated one up to the end of the text
# (matching it there, rather than failing, keeps _scan linear on many lone quotes).
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)'
_TOKENS = re.compile(_STRING + r"|[\[\]{}]|-?[0-9][0-9.eE+-]*", re.DOTALL)
_ESCAPES = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)
_DIGIT_RUNS = re.compile("[0-9]+")
# The quick look reads bytes, which translate() and replace() go through at C speed.
_ANY_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_DIGITS = b"0123456789"
_NOT_STRUCTURE = bytes(byte for byte in range(256) if byte not in b'[]{}",:' + _DIGITS)
_ZEROS = bytes.maketrans(_DIGITS, b"0" * len(_DIGITS))
_TOO_MANY_DIGITS = b"0" * (MAX_DIGITS + 1)
_QUOTED = re.compile(rb'"[^"]*"')


class _NumberTooLarge(Exception):
    """Raised by the float hook of :func:`json.loads`; the text is scanned to say where."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    doc = dict(pairs)
    if len(doc) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DecodeError(f"invalid JSON: duplicate key {short_repr(key)} in an object")
            seen.add(key)
    return doc


def _no_constant(name: str) -> Any:
    raise DecodeError(f"invalid JSON: {name} is not a JSON number")


def _finite_float(literal: str) -> float:
    value = float(literal)
    if math.isinf(value):
        raise _NumberTooLarge(literal)
    return value


def _invalid_json(text: str, pos: int, message: str) -> DecodeError:
    """The error for JSON text that is wrong at character ``pos``, with its line and column."""
    line = text.count("\n", 0, pos) + 1
    column = pos - text.rfind("\n", 0, pos)
    return DecodeError(f"invalid JSON at line {line}, column {column} (char {pos}): {message}")


def undecodable(error: UnicodeDecodeError) -> DecodeError:
    """Return the library's error for bytes that are not text in the encoding they were read in."""
    return DecodeError(
        f"invalid JSON: bytes {error.start} to {error.end} are not {error.encoding}: {error.reason}"
    )


def _lone_surrogate(text: str, pos: int, unit: int) -> DecodeError:
    return _invalid_json(
        text, pos, f"U+{unit:04X} is a lone surrogate (half of a UTF-16 pair), not a character"
    )


def _text_of(data: bytes | bytearray) -> str:
    """Decode JSON bytes in the encoding :func:`json.loads` detects, strictly.

    Unlike :func:`json.loads`, which lets encoded lone surrogates through, every byte
    sequence that is not a character of UTF-8 (or UTF-16/32) is an error.
    """
    try:
        return data.decode(json.detect_encoding(data))
    except UnicodeDecodeError as error:
        raise undecodable(error) from None


def lone_surrogate_in(text: str) -> int | None:
    """The index of the first lone surrogate in ``text`` (``None`` if it has none).

    A lone surrogate is half of a UTF-16 pair: no UTF encoding can carry it.
    """
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return error.start
    return None


def _quick_look(text: str) -> bool:
    """Whether ``text`` surely holds nothing that :func:`_scan` refuses; at C speed.

    Escapes are cut out, then every byte but brackets, quotes, digits, commas and colons:
    a run of more than :data:`MAX_DIGITS` digits is suspect. Then the digits, commas,
    colons and string literals go (a bracket in a string is text), and the brackets left
    must pair up, removing the innermost pairs a level or two at a time, within
    :data:`MAX_DEPTH` levels. What this cannot vouch for, :func:`_scan` reads closely.
    """
    data = text.encode()  # a character beyond ASCII becomes bytes that are not ASCII
    if b"\\" in data:
        if _SURROGATE_ESCAPE.search(data):
            return False
        data = _ANY_ESCAPE.sub(b"", data)  # no quote is escaped any more
    data = data.translate(None, _NOT_STRUCTURE)
    if _TOO_MANY_DIGITS in data.translate(_ZEROS):
        return False
    data = _cut_strings(data.translate(None, b",:" + _DIGITS))
    for _ in range(MAX_DEPTH // 2):  # each pass removes at most two levels
        if not data:
            return True
        shorter = data.replace(b"[]", b"").replace(b"{}", b"")
        if len(shorter) == len(data):
            return False
        data = shorter
    return not data


def _cut_strings(data: bytes) -> bytes:
    """Cut the string literals out of brackets and quotes (without escapes)."""
    if data.count(b'"') == 2 * data.count(b'""'):  # no string literal holds a bracket
        return data.translate(None, b'"')
    return _QUOTED.sub(b"", data)


def _scan(text: str) -> None:
    """Read ``text`` token by token; raise at the first thing :func:`loads` refuses.

    Counts the nesting without recursion, so that :func:`json.loads`, which recurses,
    never sees text nested deeper than :data:`MAX_DEPTH`. What is not one of these
    problems (a syntax error, say) is left for :func:`json.loads` to report.
    """
    depth = 0
    for token in _TOKENS.finditer(text):
        first = text[token.start()]
        if first == '"':
            _check_escapes(text, token)
        elif first in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                message = f"arrays and objects nested more than {MAX_DEPTH} levels deep"
                raise _invalid_json(text, token.start(), message)
        elif first in "]}":
            depth -= 1
        else:
            _check_number(text, token)


def _check_number(text: str, token: re.Match[str]) -> None:
    literal = token.group()
    digits = max(map(len, _DIGIT_RUNS.findall(literal)))
    if digits > MAX_DIGITS:
        message = f"a number with {digits} digits in a row (at most {MAX_DIGITS})"
        raise _invalid_json(text, token.start(), message)
    try:
        value = float(literal)
    except ValueError:
        return  # not a number: json.loads says what is wrong
    if math.isinf(value):
        raise _invalid_json(text, token.start(), f"{literal} is too large for a number")


def _check_escapes(text: str, token: re.Match[str]) -> None:
    r"""Refuse a ``\u`` escape of half a UTF-16 surrogate pair without its other half."""
    literal = token.group()
    if "\\u" not in literal:
        return
    high: re.Match[str] | None = None  # a first half waiting for its second
    for escape in _ESCAPES.finditer(literal):
        code = escape.group(1)
        unit = -1 if code is None else int(code, 16)
        if high is not None:
            if 0xDC00 <= unit <= 0xDFFF and escape.start() == high.end():
                high = None
                continue
            break
        if 0xD800 <= unit <= 0xDBFF:
            high = escape
        elif 0xDC00 <= unit <= 0xDFFF:
            raise _lone_surrogate(text, token.start() + escape.start(), unit)
    if high is not None:
        raise _lone_surrogate(text, token.start() + high.start(), int(high.group(1), 16))


def loads(text: str | bytes | bytearray) -> Any:
    r"""Parse JSON text from outside the library, strictly; the reader of every text format.

    Well-formed text is parsed by :func:`json.loads` at C speed, after a quick look (also
    at C speed) for what it must not hold; only text the quick look cannot vouch for is
    read token by token, to find where the problem is.

    Args:
        text: JSON text, or its bytes in UTF-8 (or UTF-16/32, detected as
            :func:`json.loads` does).

    Returns:
        The parsed value; numbers with a fraction or an exponent are finite floats.

    Raises:
        DecodeError: On a syntax error; a key twice in an object; ``NaN``, ``Infinity``
            or ``-Infinity``; arrays and objects nested more than 64 levels deep; a
            number with more than 40 digits in a row, or too large for a float; bytes
            that are not text in their encoding; a lone surrogate (half of a UTF-16
            pair), as a character or as a ``\u`` escape. The message gives the line,
            column and character position (or the positions of the bad bytes), for
            example ``"invalid JSON at line 1, column 9 (char 8): a number with 4301
            digits in a row (at most 40)"``. Never a :class:`RecursionError`, another
            :class:`ValueError` or a :class:`UnicodeError`.
    """
    if isinstance(text, str):
        lone = lone_surrogate_in(text)
        if lone is not None:
            raise _lone_surrogate(text, lone, ord(text[lone]))
    else:
        text = _text_of(text)
    if not _quick_look(text):
        _scan(text)  # raises where the problem is, if there is one
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_no_constant,
            parse_float=_finite_float,
        )
    except json.JSONDecodeError as error:
        raise _invalid_json(text, error.pos, error.msg) from None
    except _NumberTooLarge as error:
        _scan(text)  # says where
        raise DecodeError(f"invalid JSON: {error} is too large for a number") from None
