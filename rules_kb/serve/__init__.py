"""``rules-kb serve`` and ``rules-kb mcp``: the web app, its HTTP JSON API and
the MCP server, on the same library functions as the CLI.

Like :mod:`cli`, this package only parses requests and renders: the
answers come from the features (lookup, search, ask, checker, export) and
their JSON shapes from :mod:`rules_kb.serialize`. Layout:

- :mod:`rules_kb.serve.app`: :func:`create_app`, the Starlette application
  (the knowledge base loaded once; security headers; size limits);
- :mod:`rules_kb.serve.api`: the JSON routes (``/api/…``);
- :mod:`rules_kb.serve.pages`: the HTML pages (French, mobile-first, usable
  without JavaScript) and ``static/`` (CSS, a little vanilla JavaScript);
- :mod:`rules_kb.serve.mcp`: the MCP server over stdio.

Starlette, uvicorn and mcp are imported only here.
"""
