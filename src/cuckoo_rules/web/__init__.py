"""Play CuBirds in the browser: the server behind ``cuckoo-rules serve``.

Needs the ``web`` extra (``pip install 'cuckoo-rules[web]'``: Starlette and uvicorn).
:func:`create_app` returns the ASGI application; its JSON API is described in
:mod:`cuckoo_rules.web.app`. Tables are kept in one SQLite file
(:mod:`cuckoo_rules.web.store`) and rebuilt from it when the server starts, so stopping
the server, even with ``kill -9``, loses no accepted action.
"""

from ..errors import needs_extra as _needs_extra

try:
    from .app import MAX_BODY, create_app
except ModuleNotFoundError as error:
    raise _needs_extra(__name__, "web", error) from error

__all__ = ["MAX_BODY", "create_app"]
