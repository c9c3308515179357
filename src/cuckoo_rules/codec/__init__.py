"""JSON documents of format version 2 (``interchange.md`` §4-5), one module per kind.

:func:`encode_state` and :func:`encode_action` return plain ``dict`` objects ready for
:func:`json.dumps`; :func:`decode_state` and :func:`decode_action` accept such objects
(for example from :func:`json.loads`), check every field and raise
:class:`~cuckoo_rules.DecodeError` naming the first field that is wrong.

- :mod:`cuckoo_rules.codec.versions`: the format versions (:data:`READ_VERSIONS`), the
  header of every document, and the upgrade steps from each older version to the next;
- :mod:`cuckoo_rules.codec.fields`: the checks of one field that every reader shares;
- :mod:`cuckoo_rules.codec.options`: the ``options`` object every document embeds;
- :mod:`cuckoo_rules.codec.counts`: the JSON of a multiset of cards;
- :mod:`cuckoo_rules.codec.state` and :mod:`cuckoo_rules.codec.view`: the state and
  view documents, their keys in the order of the fields of
  :class:`~cuckoo_rules.GameState` and :class:`~cuckoo_rules.PlayerView`;
- :mod:`cuckoo_rules.codec.action` and :mod:`cuckoo_rules.codec.event`: actions and events;
- :mod:`cuckoo_rules.codec.schema`: the JSON Schemas shipped in the package.

Every name is also importable from here (``from cuckoo_rules.codec import decode_state``).

Versions: the writers write format version 2 only (:data:`CURRENT_VERSION`, also
:data:`STATE_VERSION` and :data:`VIEW_VERSION`); the readers accept every version of
:data:`READ_VERSIONS`. A reader checks a document's header, turns an older document into
the current version one step per version (:func:`upgrade`, the steps of
:data:`~cuckoo_rules.codec.versions.UPGRADES`), then decodes the current version. A
version 1 document (written by cuckoo-rules 0.1) has no ``refill_trigger`` key in its
``options`` (it means ``"capture"``, the only refill rule of version 1; the key is
rejected as unknown there) and may not use ``"same_dealer"`` for
``next_round_first_player``; otherwise it is read exactly as version 2, and gives the
same state as the version 2 document of the same game.
"""

from .action import decode_action, encode_action
from .counts import encode_counts
from .event import EVENT_TYPES, decode_event, encode_event
from .options import OPTIONS_ADDED_IN_2, VALUES_ADDED_IN_2, decode_options
from .schema import SchemaKind, json_schema
from .state import STATE_FORMAT, STATE_KEYS, STATE_VERSION, decode_state, encode_state
from .versions import (
    CURRENT_VERSION,
    READ_VERSIONS,
    check_header,
    check_version,
    upgrade,
    upgrade_options,
)
from .view import VIEW_FORMAT, VIEW_KEYS, VIEW_VERSION, decode_view, encode_view

__all__ = [
    "CURRENT_VERSION",
    "EVENT_TYPES",
    "OPTIONS_ADDED_IN_2",
    "READ_VERSIONS",
    "STATE_FORMAT",
    "STATE_KEYS",
    "STATE_VERSION",
    "VALUES_ADDED_IN_2",
    "VIEW_FORMAT",
    "VIEW_KEYS",
    "VIEW_VERSION",
    "SchemaKind",
    "check_header",
    "check_version",
    "decode_action",
    "decode_event",
    "decode_options",
    "decode_state",
    "decode_view",
    "encode_action",
    "encode_counts",
    "encode_event",
    "encode_state",
    "encode_view",
    "json_schema",
    "upgrade",
    "upgrade_options",
]
