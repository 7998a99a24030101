"""rules-kb: the French comprehensive rules of Magic: The Gathering as a
cross-linked, searchable knowledge base for judges.

The layers, each importing only those below it (docs/contribuer/architecture.md):
:mod:`rules_kb.core` (records, numbers, text, references, vocabularies,
errors, manifest) → :mod:`indexer` (the parsers) → :mod:`rules_kb.engines`
(graph, concepts, search index, cache database) → :mod:`rules_kb.loader`
(the front door: ``loader.open()``) → the features (:mod:`rules_kb.lookup`,
:mod:`rules_kb.search`, :mod:`rules_kb.ask`, :mod:`rules_kb.checker`,
:mod:`rules_kb.export`, :mod:`rules_kb.inventory`) → :mod:`rules_kb.serialize`
and :mod:`cli`.
"""

__version__ = "0.1.0"
