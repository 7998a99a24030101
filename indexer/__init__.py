"""Parsers of the corpus documents and the builder of the cached index.

:mod:`indexer.rules_inline` reads rules printed inline (the 2004 comprehensive
rules); :mod:`indexer.build` parses a whole corpus and writes its cache.
"""
