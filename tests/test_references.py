"""The reference parser (rules_kb.core.references): real phrasings of the corpus."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.core.references import ReferenceKind, find_references, rule_numbers_in

#: (phrase as printed in the corpus, expected (first, last) of each rule reference)
PHRASINGS = [
    ("Voir règle 420.)", [("420", "420")]),  # 102.1
    ("Voir règle 212.3d.", [("212.3d", "212.3d")]),  # 104.4
    ("après que les actions décrites dans les règles 409.1a à 409.1h ont été effectuées", [("409.1a", "409.1h")]),
    ("sur les coûts additionnels, paragraphes 409.1b et 409.1f-h.", [("409.1b", "409.1b"), ("409.1f", "409.1h")]),
    ("le timestamp et les dépendances (règles 418.5b-418.5g).", [("418.5b", "418.5g")]),
    ("Voir règle 419.6e et 419.6f.", [("419.6e", "419.6e"), ("419.6f", "419.6f")]),
    ('(1) les effet de copie (voir règle 503, "Copier des objets"), (2)', [("503", "503")]),
    ('(Voir règle 402, "Capacités" et la section 4, "Sorts, capacités et effets".)', [("402", "402"), ("4", "4")]),
    ("Cours 2 – Les permanents (Section 110 dans les règles complètes)", [("110", "110")]),
    ('(Voir règles 306-311 et la section 500, "Attaques et blocages légaux".)', [("306", "311"), ("500", "500")]),
    (
        'Voir règles 405, "Capacités statiques", 418, "Effets continus" et 419, "Effets de remplacement".',
        [("405", "405"), ("418", "418"), ("419", "419")],
    ),
    ('(Voir règle 217.8, "Hors phase" et règle 302.1.)', [("217.8", "217.8"), ("302.1", "302.1")]),
    ('les étapes 409.1a à 409.1h de la règle 409, "Jouer les sorts"', [("409.1a", "409.1h"), ("409", "409")]),
    ("Cf. règle 608.2g.", [("608.2g", "608.2g")]),
    ("tinus (vori règle 408.2j).", [("408.2j", "408.2j")]),
    ("suivant les étapes décrites par les règles 409.1b-i. Elle se résout", [("409.1b", "409.1i")]),
    ("Ces règles (213.1a et 401.1b, qui sont identiques)", [("213.1a", "213.1a"), ("401.1b", "401.1b")]),
    (
        "(Voir règle 418.5, « Interaction des effets continus » et la règle 503,« Copier des objets »)",
        [("418.5", "418.5"), ("503", "503")],
    ),
    # not references
    ("Spirale temporelle contient une sous-extension de 121 cartes", []),
    ("Le 27/11/2002, une créature 2/2 avec un marqueur +1/+1 et 20 points de vie", []),
    ("Payez {2} et 100 points", []),
    ("Règles complètes datées de 2004", []),
]


@pytest.mark.parametrize(("text", "expected"), PHRASINGS)
def test_real_phrasings(text, expected):
    found = [(ref.first, ref.last) for ref in find_references(text) if ref.kind is not ReferenceKind.TERM]
    assert found == expected


def test_range_kinds_and_printed_text():
    ranges = [ref for ref in find_references("paragraphes 409.1b et 409.1f-h.") if ref.kind is ReferenceKind.RANGE]
    assert [ref.text for ref in ranges] == ["409.1f-h"]


def test_title_after_number():
    (ref,) = find_references('(voir règle 503, "Copier des objets")')
    assert ref.title == "Copier des objets"
    assert ref.text == "règle 503"


def test_malformed_number_is_read_and_flagged():
    (ref,) = find_references("Voir règle 410.10.c.")
    assert (ref.first, ref.malformed) == ("410.10c", True)


def test_term_pointers():
    refs = find_references('Voir aussi "Contrôleur" et" Propriétaire".')
    assert [(ref.kind, ref.title) for ref in refs] == [
        (ReferenceKind.TERM, "Contrôleur"),
        (ReferenceKind.TERM, "Propriétaire"),
    ]
    refs = find_references('Voir aussi "Engager", "Engagé", et "Dégagé".')
    assert [ref.title for ref in refs] == ["Engager", "Engagé", "Dégagé"]
    refs = find_references("Voir la partie « Cartes sans coût de mana » ci-dessus")
    assert [ref.title for ref in refs] == ["Cartes sans coût de mana"]


def test_offsets_point_at_the_printed_text():
    text = 'Voir règles 409.1e et 310.2. Voir aussi "X".'
    for ref in find_references(text):
        assert text[ref.start : ref.end] == ref.text


def test_expand_ranges_to_existing_rules():
    existing = ["409.1", "409.1e", "409.1f", "409.1g", "409.1h", "409.1i", "306", "306.1", "307", "311", "312"]
    (ref,) = [r for r in find_references("409.1b et 409.1f-h") if r.kind is ReferenceKind.RANGE]
    assert ref.expand(existing) == ("409.1f", "409.1g", "409.1h")
    (ref,) = find_references("règles 306-311")
    assert ref.expand(existing) == ("306", "307", "311")
    (ref,) = find_references("règle 999")
    assert ref.expand(existing) == ()


def test_rule_numbers_in_keeps_range_ends():
    assert rule_numbers_in("Voir règles 409.1e et 310.2, et 409.1f-h.") == ("409.1e", "310.2", "409.1f", "409.1h")


def test_glossary_pointers_agree_with_the_glossary_parser(kb):
    """Every "Voir aussi "X"" the glossary parser read is a term reference here too."""
    for entry in kb.corpus.glossary:
        quoted = [s for s in entry.see if f'"{s}"' in entry.text or f"« {s} »" in entry.text]
        terms = {ref.title for paragraph in entry.definition for ref in find_references(paragraph)}
        assert set(quoted) <= terms, entry.term


@given(st.text(alphabet=st.sampled_from(list('0123456789.-àa bcfhé,et"«»règlesction()')), max_size=80))
def test_never_crashes_on_reference_like_text(text):
    for ref in find_references(text):
        assert 0 <= ref.start <= ref.end <= len(text)
        assert ref.kind in ReferenceKind


@given(st.text(max_size=200))
def test_never_crashes(text):
    find_references(text)
    rule_numbers_in(text)
