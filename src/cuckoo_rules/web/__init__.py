"""Play CuBirds in the browser: the server behind ``cuckoo-rules serve``.

Needs the ``web`` extra (``pip install 'cuckoo-rules[web]'``: Starlette and uvicorn).
:func:`create_app` returns the ASGI application; its JSON API is described in
:mod:`cuckoo_rules.web.app`. Tables are kept in one SQLite file
(:mod:`cuckoo_rules.web.store`) and rebuilt from it when the server starts, so stopping
the server, even with ``kill -9``, loses no accepted action.
"""

try:
    from .app import MAX_BODY, create_app
except ModuleNotFoundError as error:
    _missing = (error.name or "").partition(".")[0]
    if _missing not in ("starlette", "uvicorn"):
        raise
    raise ModuleNotFoundError(
        f"cuckoo_rules.web needs {_missing}: pip install 'cuckoo-rules[web]'", name=_missing
    ) from error

__all__ = ["MAX_BODY", "create_app"]
