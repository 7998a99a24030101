"""rules-kb: the French comprehensive rules of Magic: The Gathering as a
cross-linked, searchable knowledge base for judges.

Front door: :class:`rules_kb.kb.KnowledgeBase` (``KnowledgeBase.open()``).
Records: :mod:`rules_kb.model`; rule numbers: :mod:`rules_kb.numbers`;
search and questions: :mod:`rules_kb.query`; JSON shapes:
:mod:`rules_kb.serialize`.
"""

__version__ = "0.1.0"
