"""The HTTP JSON API of ``rules-kb serve`` (``/api/…``): the shapes of ``--json``."""

from __future__ import annotations


def routes() -> list:
    """The API's Starlette routes."""
    return []
