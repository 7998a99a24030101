"""Rule numbers mentioned in a text ("Voir règle 420.5", "règles 409.1b et 409.1f-h").

This first version lists the numbers as printed; ranges are kept as their
first number. It is used for the ``cites`` of glossary entries, rulings and
course sections.
"""

from __future__ import annotations

import re

#: A rule number as printed in a reference: ``420``, ``420.5``, ``420.5c``,
#: not part of a longer number, a date (``27/11/2002``) or a P/T (``2/2``).
_NUMBER_RE = re.compile(r"(?<![\d.,/{+\-])(\d{3}(?:\.\d+[a-z]?)?)(?![\d/}])")


def rule_numbers_in(text: str) -> tuple[str, ...]:
    """Rule numbers mentioned in ``text``, in order of first mention, without
    duplicates (``"Voir règles 409.1e et 310.2."`` → ``("409.1e", "310.2")``)."""
    seen: dict[str, None] = {}
    for match in _NUMBER_RE.finditer(text):
        seen.setdefault(match.group(1), None)
    return tuple(seen)
