"""What is derived from the parsed records when the cache is built, and read
back from it: text analysis (:mod:`~rules_kb.build.analysis`), the rule graph
(:mod:`~rules_kb.build.graph`, built by :mod:`~rules_kb.build.linking`, its
counterparts found by :mod:`~rules_kb.build.similarity`), the glossary's
keys (:mod:`~rules_kb.build.glossary`), the concept table of ``ask``
(:mod:`~rules_kb.build.concepts`, :mod:`~rules_kb.build.lexicon`), the
search index (:mod:`~rules_kb.build.index`), the cache database
(:mod:`~rules_kb.build.store`) and the build steps
(:mod:`~rules_kb.build.cache`).

This layer imports only :mod:`rules_kb.core`; the parsers
(:mod:`indexer`) hand it a :class:`rules_kb.core.model.Corpus`.
"""
