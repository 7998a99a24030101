"""Looking things up: a rule by its number (:func:`~rules_kb.lookup.rules.show`),
a glossary term (:func:`~rules_kb.lookup.glossary.define`), a neighbourhood
of the rule graph (:func:`~rules_kb.lookup.graph.neighbourhood`)."""
