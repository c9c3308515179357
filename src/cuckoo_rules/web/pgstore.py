"""The names that ``cuckoo_rules.web.pgstore`` held, kept here for a release.

The PostgreSQL store is now :mod:`cuckoo_rules.web.stores.postgres`, with its schema in
:mod:`cuckoo_rules.web.stores.postgres_schema` and its listener in
:mod:`cuckoo_rules.web.stores.postgres_listen`. Import them from there.
"""

from __future__ import annotations

from .stores.base import SEATS_CHANGED
from .stores.postgres import PostgresStore
from .stores.postgres_listen import CHANNEL
from .stores.postgres_schema import SCHEMA_VERSION

__all__ = ["CHANNEL", "SCHEMA_VERSION", "SEATS_CHANGED", "PostgresStore"]
