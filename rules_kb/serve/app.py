"""The Starlette application of ``rules-kb serve``."""

from __future__ import annotations


def create_app(kb):
    """The ASGI application serving ``kb`` (a :class:`rules_kb.loader.KnowledgeBase`,
    loaded once): the pages of :mod:`rules_kb.serve.pages` and the routes of
    :mod:`rules_kb.serve.api`."""
    from starlette.applications import Starlette

    from rules_kb.serve import api, pages

    app = Starlette(routes=[*api.routes(), *pages.routes()])
    app.state.kb = kb
    return app
