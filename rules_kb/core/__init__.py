"""The ground floor, imported by every layer above and importing none of them:
the records (:mod:`~rules_kb.core.model`), rule numbers
(:mod:`~rules_kb.core.numbers`), text normalisation
(:mod:`~rules_kb.core.text`), references to rules
(:mod:`~rules_kb.core.references`), the game's closed vocabularies
(:mod:`~rules_kb.core.vocabulary`), errors (:mod:`~rules_kb.core.errors`),
the corpus manifest (:mod:`~rules_kb.core.corpus`) and whole-or-nothing file
writing (:mod:`~rules_kb.core.files`).
"""
