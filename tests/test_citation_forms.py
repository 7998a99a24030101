"""Citations: every printed form of a reference to rules is read, and every
rule a glossary entry cites is linked to it (issue 36, point 5).

The kinds of forms (rules_kb.core.references), each as French rules
documents print it; the corpus prints the hyphen forms, the others are the
same references in French typography:

- a range with any dash (hyphen, en dash, em dash, non-breaking hyphen,
  minus): ``409.1f–h``, ``418.5b—418.5g``;
- a letter range after *à*: ``409.1a à h``;
- further letters of the same rule: ``420.5a, b et c``, ``419.6e et f``;
- a bare section right after *voir*: ``Voir 420.``;
- one-digit sections in a list a reference word began: ``sections 3 et 4.``
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.core.model import RecordKind, glossary_node
from rules_kb.core.numbers import SUBRULE_LETTERS
from rules_kb.core.references import DASHES, ReferenceKind, find_references
from rules_kb.engines.graph import Relation

FORMS = [
    ("Voir règle 409.1f–h.", [("409.1f", "409.1h")]),
    ("Voir règle 409.1f‑h.", [("409.1f", "409.1h")]),  # non-breaking hyphen
    ("(règles 418.5b—418.5g)", [("418.5b", "418.5g")]),
    ("Voir règles 306–311.", [("306", "311")]),
    ("Voir règle 502.9 – 502.11.", [("502.9", "502.11")]),
    ("les étapes 409.1a à h de la règle 409", [("409.1a", "409.1h"), ("409", "409")]),
    ("Voir règle 420.5a, b et c.", [("420.5a", "420.5a"), ("420.5b", "420.5b"), ("420.5c", "420.5c")]),
    ("Voir règle 419.6e et f.", [("419.6e", "419.6e"), ("419.6f", "419.6f")]),
    ("Voir règle 104.3b, c, d ou e.", [(f"104.3{letter}",) * 2 for letter in "bcde"]),
    ("Voir 420.", [("420", "420")]),
    ("Cf. 503, « Copier des objets ».", [("503", "503")]),
    ("Voir les sections 3 et 4.", [("3", "3"), ("4", "4")]),
    ('Voir les chapitres 4, "Sorts", et 5.', [("4", "4"), ("5", "5")]),
    # not references, or not more than the first one
    ("appliquez la règle 420.5c à d'autres permanents", [("420.5c", "420.5c")]),
    ("la règle 420.5c et a été modifiée", [("420.5c", "420.5c")]),
    ("la règle 420.5c, b", [("420.5c", "420.5c")]),  # a letter before c is no further letter of 420.5
    ("Voir règle 420.5c-a.", [("420.5c", "420.5c")]),
    ("pour voir 20 points de vie et 2 cartes", []),
    ("Cours 2 – Les permanents", []),
    ("1 – Bibliothèque :", []),
]


@pytest.mark.parametrize(("text", "expected"), FORMS)
def test_printed_forms(text, expected):
    found = [(ref.first, ref.last) for ref in find_references(text) if ref.kind is not ReferenceKind.TERM]
    assert found == expected


@pytest.mark.parametrize(("text", "_"), FORMS)
def test_offsets_point_at_the_printed_text(text, _):
    for ref in find_references(text):
        assert text[ref.start : ref.end] == ref.text


_LETTERS = st.sampled_from(SUBRULE_LETTERS[:-1])


@given(_LETTERS, st.data(), st.sampled_from([*DASHES, " à "]))
def test_every_dash_reads_the_same_range(first, data, dash):
    last = data.draw(st.sampled_from(SUBRULE_LETTERS[SUBRULE_LETTERS.index(first) + 1 :]))
    (hyphen,) = find_references(f"Voir règle 409.1{first}-{last}.")
    (other,) = find_references(f"Voir règle 409.1{first}{dash}{last}.")
    assert (
        (other.kind, other.first, other.last)
        == (hyphen.kind, hyphen.first, hyphen.last)
        == (
            ReferenceKind.RANGE,
            f"409.1{first}",
            f"409.1{last}",
        )
    )


def test_every_rule_a_glossary_entry_cites_is_linked(kb):
    """The measure of point 5: each (entry, rule) its printed references
    designate (a range: every existing rule in it) is a CITES edge of the
    entry. On the corpus: 301 such pairs, 181 distinct rules, all linked."""
    rules = {edition: {str(number) for number in kb.numbers(edition)} for edition in kb.editions}
    cited = linked = 0
    for entry in kb.records(RecordKind.GLOSSARY):
        text = "\n\n".join((*entry.definition, *entry.examples))
        wanted = {
            number
            for ref in find_references(text)
            if ref.kind is not ReferenceKind.TERM
            for number in ref.expand(rules[entry.edition])
        }
        targets = {edge.target.rpartition(":")[2] for edge in kb.graph.outgoing(glossary_node(entry), Relation.CITES)}
        cited += len(wanted)
        linked += len(wanted & targets)
        assert wanted <= targets, entry.term
    assert cited == linked == 301
