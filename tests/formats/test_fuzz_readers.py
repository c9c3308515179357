"""Every reader of JSON text, fed hostile text: only the library's errors come out.

The readers of text are :func:`cuckoo_rules.loads_record` (and ``load_record``), the
strict JSON reader they and the web server share (``cuckoo_rules.jsontext.loads``),
then the document decoders on what it parses, and the web server's request bodies. Fed
deep nesting, long numbers, bytes that are not UTF-8, lone surrogates, huge strings,
random bytes and damaged valid documents, they raise :class:`cuckoo_rules.DecodeError`
(or a :class:`cuckoo_rules.RecordError`, a subclass) or answer 400, never a
``RecursionError``, another ``ValueError``, a ``MemoryError`` or a 500.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings
from starlette.testclient import TestClient

import cuckoo_rules as cr
from cuckoo_rules.jsontext import _quick_look, _scan
from cuckoo_rules.jsontext import loads as _loads_strict
from cuckoo_rules.web import MAX_BODY, create_app

# --------------------------------------------------------------------------- valid documents


def _valid_texts() -> list[str]:
    """One valid document of each kind, as JSON text: the seeds of the mutations."""
    options = cr.GameOptions(num_players=3, refill_trigger="same_species_lay")
    state = cr.new_game(options, 2**64 - 1)
    record = cr.GameRecord.start(
        options, 2**64 - 1, cr.records.Metadata(players=("Zoë", "李", "b"))
    )
    for _ in range(12):
        action = cr.legal_actions(state)[-1]
        state, events = cr.step(state, action)
        record = record.append(action)
    return [
        cr.dumps_record(record),
        cr.dumps_record(record, indent=1),
        json.dumps(cr.encode_state(state)),
        json.dumps(cr.encode_view(cr.observe(state, 1))),
        json.dumps([cr.encode_event(event) for event in events]),
        json.dumps({"action": cr.encode_action(cr.Lay(cr.Species.OWL, 2, cr.Side.RIGHT))}),
        json.dumps({"seats": ["human", "greedy", "random"], "seed": 2**64 - 1}),
    ]


VALID = _valid_texts()

# --------------------------------------------------------------------------- hostile text

PIECES = [
    *'[]{}",: \n\\0159-.eE+',
    "true",
    "null",
    "NaN",
    "-Infinity",
    '"a"',
    '"]"',
    '"{"',
    '"\\""',
    '"\\\\"',
    "\\u",
    "\\ud800",
    "\\udc00",
    "\\uD83D\\uDE00",
    "\\u00e9",
    "1e999",
    "-1E400",
    "2.5",
    "9" * 41,
    "\ud800",
    "\udfff",
    "é",
    "😀",
    "\x00",
    '"seed": ',
    '{"type": "pass"}',
]
"""Bits of JSON and of what must not be in it, for the fragments."""


def _deep(depth: int, opener: str) -> str:
    return opener * depth


FRAGMENTS = st.lists(st.sampled_from(PIECES), max_size=120).map("".join)
DEEP = st.builds(
    _deep,
    st.integers(60, 5000),
    st.sampled_from(["[", '{"a": ', '["]", ', "[{}, ", '{"\\"": [']),
)
LONG_NUMBERS = st.builds(
    lambda digits, sign, tail: '{"seed": ' + sign + "7" * digits + tail + "}",
    st.integers(35, 6000),
    st.sampled_from(["", "-"]),
    st.sampled_from(["", ".5", "e5", "0" * 10]),
)
HUGE_STRINGS = st.builds(
    lambda size, char: '{"metadata": {"event": "' + char * size + '"}}',
    st.integers(10_000, 300_000),
    st.sampled_from(["x", "é", "\\n", "[", '\\"']),
)
SURROGATES = st.text(st.characters(categories=["Cs"]), min_size=1, max_size=3)


@st.composite
def mutations(draw: st.DrawFn) -> str:
    """A valid document, damaged: pieces inserted, cut, repeated or swapped."""
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        end = draw(st.integers(at, min(len(text), at + 40)))
        kind = draw(st.sampled_from(["insert", "cut", "repeat", "replace", "surrogate"]))
        if kind == "insert":
            text = text[:at] + draw(FRAGMENTS) + text[at:]
        elif kind == "cut":
            text = text[:at] + text[end:]
        elif kind == "repeat":
            text = text[:at] + text[at:end] * draw(st.integers(2, 200)) + text[end:]
        elif kind == "replace":
            text = text[:at] + draw(st.sampled_from(PIECES)) + text[end:]
        else:
            text = text[:at] + draw(SURROGATES) + text[at:]
    return text


HOSTILE_TEXT = st.one_of(FRAGMENTS, DEEP, LONG_NUMBERS, HUGE_STRINGS, mutations())


def _as_bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate: bytes that are not UTF-8


@st.composite
def hostile_bytes(draw: st.DrawFn) -> bytes:
    """Random bytes, or hostile text as bytes with some bytes damaged."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=300))
    data = bytearray(_as_bytes(draw(HOSTILE_TEXT)))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        data[at:at] = draw(st.binary(min_size=1, max_size=4))
    return bytes(data)


# --------------------------------------------------------------------------- the checks


def _depth(value: object) -> int:
    """The nesting depth of a parsed JSON value, counted without recursion."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth + 1)
            todo.extend((child, depth + 1) for child in _children(item))
    return deepest


def _children(item: dict[str, Any] | list[Any]) -> list[Any]:
    return list(item.values()) if isinstance(item, dict) else item


def _leaves(value: object) -> list[object]:
    leaves: list[object] = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            leaves.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        else:
            leaves.append(item)
    return leaves


def _check_parsed(text: str | bytes, value: object) -> None:
    """What the strict reader returns is what json.loads returns, and within its limits."""
    assert value == json.loads(text)
    assert _depth(value) <= 64
    for leaf in _leaves(value):
        if type(leaf) is int:
            assert abs(leaf) < 10**40
        elif isinstance(leaf, float):
            assert math.isfinite(leaf)
        elif isinstance(leaf, str):
            leaf.encode("utf-8")  # no lone surrogate


DECODERS: list[Callable[[Any], object]] = [
    cr.decode_state,
    cr.decode_view,
    cr.records.decode_record,
    cr.decode_action,
    cr.decode_event,
    cr.codec.decode_options,
    lambda doc: cr.codec.decode_options(
        doc.get("options") if isinstance(doc, dict) else doc, version=1
    ),
]


def _refusal(read: Callable[[Any], object], value: object) -> str:
    """The message of the DecodeError that ``read(value)`` raises ("" if it raises none)."""
    try:
        read(value)
    except cr.DecodeError as error:
        return str(error)
    return ""


def _read(text: str | bytes) -> None:
    """Every reader of text on ``text``: only DecodeError may come out, in a few words."""
    refusal = _refusal(_loads_strict, text)
    if refusal:
        assert refusal.startswith("invalid JSON")
        assert len(refusal) < 300
        assert _refusal(cr.loads_record, text) == refusal
        return
    value = _loads_strict(text)
    _check_parsed(text, value)
    for read in (*DECODERS, cr.loads_record):
        assert len(_refusal(read, text if read is cr.loads_record else value)) < 400


@given(HOSTILE_TEXT)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_hostile_text_gives_decode_errors_only(text: str) -> None:
    _read(text)
    _read(_as_bytes(text))


@given(hostile_bytes())
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_hostile_bytes_give_decode_errors_only(data: bytes) -> None:
    _read(data)


@given(st.one_of(FRAGMENTS, mutations(), DEEP))
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_the_quick_look_never_vouches_for_what_the_scan_refuses(text: str) -> None:
    """The fast path skips the token-by-token scan only where the scan finds nothing."""
    if any("\ud800" <= c <= "\udfff" for c in text):
        return  # raw surrogates are refused before the quick look
    if _quick_look(text):  # json.loads refuses numbers too large, then the scan says where
        refusal = _refusal(_scan, text)
        assert not refusal or refusal.endswith("is too large for a number")


def test_valid_documents_take_the_fast_path() -> None:
    for text in VALID:
        assert _quick_look(text), text[:60]
        _check_parsed(text, _loads_strict(text))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[" * 100_000, "(char 64): arrays and objects nested more than 64 levels deep"),
        ("[" * 64 + "]" * 64 + "]", "(char 128): Extra data"),
        ("[" * 65 + "]" * 65, "(char 64): arrays and objects nested more than 64 levels"),
        ('["]", ' * 65 + "0" + "]" * 65, "(char 384): arrays and objects nested more than"),
        ('{"a": ' * 70, "(char 384): arrays and objects nested more than 64 levels deep"),
        ("9" * 4301, "(char 0): a number with 4301 digits in a row (at most 40)"),
        ("[1, " + "2" * 41 + "]", "(char 4): a number with 41 digits in a row"),
        ('"\\ud800"', "(char 1): U+D800 is a lone surrogate"),
        ('"\\ud800\\ud800"', "(char 1): U+D800 is a lone surrogate"),
        ('"\\\\\\udc00"', "(char 3): U+DC00 is a lone surrogate"),
        ('"x\\u0041\\ud83d"', "(char 8): U+D83D is a lone surrogate"),
        ("[1e400]", "(char 1): 1e400 is too large for a number"),
    ],
)
def test_the_strict_reader_says_what_and_where(text: str, fragment: str) -> None:
    with pytest.raises(cr.DecodeError) as info:
        _loads_strict(text)
    assert str(info.value).startswith("invalid JSON at line 1, column ")
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 64 + "]" * 64,
        '{"a": ' * 64 + "1" + "}" * 64,
        '["[[[[", "{{{{", "]]]]", "\\"[["]',
        "[" + "9" * 40 + ", -" + "9" * 40 + ", 1.5e300, 0." + "1" * 40 + "]",
        '"\\\\ud800 is an escaped backslash, \\ud83d\\ude00 a pair"',
        '"\\"[" ',
        '["a\\\\", "]"]',
    ],
)
def test_the_strict_reader_accepts_what_is_within_its_limits(text: str) -> None:
    _check_parsed(text, _loads_strict(text))


# --------------------------------------------------------------------------- the web server


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    """A request body: hostile text or bytes, sometimes over the size limit."""
    body = draw(st.one_of(HOSTILE_TEXT.map(_as_bytes), hostile_bytes()))
    return body[: MAX_BODY + 10]


def test_the_server_answers_hostile_bodies_with_400(tmp_path: Path) -> None:
    app = create_app(tmp_path / "tables.sqlite3")
    json_body = {"Content-Type": "application/json"}  # the server refuses others: 415
    with TestClient(app, base_url="http://127.0.0.1", headers=json_body) as client:
        created = client.post("/api/tables", json={"seats": ["human", "human"]})
        assert created.status_code == 201
        table, tokens = created.json()["table"], created.json()["tokens"]
        actions = f"/api/tables/{table}/actions"

        @given(bodies())
        @settings(
            max_examples=100,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        def check(body: bytes) -> None:
            response = client.post("/api/tables", content=body)
            assert response.status_code in (201, 400, 413), response.text
            assert ("error" in response.json()) == (response.status_code != 201)
            for token in tokens.values():
                response = client.post(actions, content=body, headers=_bearer(token))
                assert response.status_code in (200, 400, 409, 413), response.text
                assert ("error" in response.json()) == (response.status_code != 200)

        check()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
