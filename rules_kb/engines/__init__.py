"""The read side of the cache: the engines a
:class:`rules_kb.loader.KnowledgeBase` holds and hands to the features.

The cache database (:mod:`~rules_kb.engines.store`), the rule graph
(:mod:`~rules_kb.engines.graph`), the glossary's keys
(:mod:`~rules_kb.engines.glossary`), the concept table of ``ask``
(:mod:`~rules_kb.engines.concepts`, :mod:`~rules_kb.engines.lexicon`), the
search index (:mod:`~rules_kb.engines.index`), the dense vectors and the
embedding model (:mod:`~rules_kb.engines.dense`,
:mod:`~rules_kb.engines.embedding`), the situations' profiles
(:mod:`~rules_kb.engines.situations`), real French words and later keywords.

Pipeline: corpus → parse (:mod:`indexer`) → build the cache
(:mod:`rules_kb.indexing`, which writes what these modules read) → load
(:mod:`rules_kb.loader`) → features → fronts. This package imports only
:mod:`rules_kb.core`; features reach its engines through the
:class:`~rules_kb.loader.KnowledgeBase` and import it only for types.
"""
