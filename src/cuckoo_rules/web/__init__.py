"""Play CuBirds in the browser: the server behind ``cuckoo-rules serve``.

Needs the ``web`` extra (``pip install 'cuckoo-rules[web]'``: Starlette and uvicorn).
:func:`create_app` (:mod:`cuckoo_rules.web.app`) returns the ASGI application; its JSON
API is described in :mod:`cuckoo_rules.web.routes`. Tables are kept in one SQLite file or
a PostgreSQL database (:mod:`cuckoo_rules.web.stores`) and rebuilt from it when the
server starts, so stopping the server, even with ``kill -9``, loses no accepted action.

The modules, each one job: :mod:`~cuckoo_rules.web.app` (the application),
:mod:`~cuckoo_rules.web.routes` (the endpoints), :mod:`~cuckoo_rules.web.service` (what
they share, and the background tasks), :mod:`~cuckoo_rules.web.streams` (push streams),
:mod:`~cuckoo_rules.web.parsing` (reading requests), :mod:`~cuckoo_rules.web.documents`
(the JSON documents), :mod:`~cuckoo_rules.web.lobby` (every table and their limits),
:mod:`~cuckoo_rules.web.table` (one game), :mod:`~cuckoo_rules.web.seats` (who sits
where), :mod:`~cuckoo_rules.web.seatbot` (a bot seat), :mod:`~cuckoo_rules.web.bots`
(where bots decide), :mod:`~cuckoo_rules.web.watchers` (a table's lock and watchers),
:mod:`~cuckoo_rules.web.stores` (storage), :mod:`~cuckoo_rules.web.guard` (the HTTP
guard) and :mod:`~cuckoo_rules.web.errors` (every exception of the web server).
"""

from ..errors import needs_extra as _needs_extra

try:
    from .app import MAX_BODY, create_app
except ModuleNotFoundError as error:
    raise _needs_extra(__name__, "web", error) from error

__all__ = ["MAX_BODY", "create_app"]
