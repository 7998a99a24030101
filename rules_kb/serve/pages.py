"""The HTML pages of ``rules-kb serve``."""

from __future__ import annotations


def routes() -> list:
    """The pages' Starlette routes (and the mount of ``static/``)."""
    return []
