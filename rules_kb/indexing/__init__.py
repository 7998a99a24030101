"""The write side of the cache: what ``rules-kb index`` (and the first
command on a new corpus) runs once, never a feature.

:mod:`~rules_kb.indexing.cache` runs the build steps in order and publishes
the cache folder; :mod:`~rules_kb.indexing.linking` builds the rule graph,
its counterparts paired by :mod:`~rules_kb.indexing.similarity`. Each step
writes what an engine of :mod:`rules_kb.engines` reads back.

Pipeline: corpus → parse (:mod:`indexer`) → **build the cache** (here) →
load (:mod:`rules_kb.loader`) → features → fronts. Only the loader imports
this package.
"""
