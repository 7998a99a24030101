"""The glossary (Glossaire) of the 2004 document, and glossary fixtures with each quirk."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.glossary import find_glossary, parse_glossary
from indexer.rules_inline import find_body
from rules_kb.core.text import term_key as normalise_term

FIXTURE = Path(__file__).parent / "fixtures" / "glossary.txt"


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def glossary_2004(text_2004):
    return parse_glossary(text_2004, "cr-2004", "2004", after=find_body(text_2004)[1])


@pytest.fixture(scope="module")
def entries(glossary_2004):
    return {entry.term: entry for entry in glossary_2004.entries}


@pytest.fixture(scope="module")
def fixture_entries():
    text = FIXTURE.read_text(encoding="utf-8")
    parsed = parse_glossary(text, "fixture", "2004", after=find_body(text)[1])
    return {entry.term: entry for entry in parsed.entries}, parsed


def test_every_entry_once(glossary_2004):
    terms = [entry.term for entry in glossary_2004.entries]
    assert len(terms) == 299
    assert len(set(terms)) == len(terms)
    assert terms[0] == "A la place / au lieu" and terms[-1] == "Zone"


def test_no_definition_text_lost(text_2004, glossary_2004):
    """The entries' spans tile the glossary, and each entry's headword, marker,
    definition and examples hold every character of its span."""
    start, end = glossary_2004.region
    spans = "".join(text_2004[e.source.char_start : e.source.char_end] for e in glossary_2004.entries)
    assert _squash(spans) == _squash(text_2004[start:end])
    for entry in glossary_2004.entries:
        source = _squash(text_2004[entry.source.char_start : entry.source.char_end])
        marker = "(obsolète)" if entry.obsolete else "(informel)" if entry.informal else ""
        assert source.startswith(_squash(entry.term) + marker), entry.term
        body = source[len(_squash(entry.term) + marker) :]
        parts = [_squash(p) for p in entry.definition] + ["Exemple:" + _squash(x) for x in entry.examples]
        assert sorted(body) == sorted("".join(parts)), entry.term
        for part in parts:
            assert part in body, entry.term


def _headword_lines(lines: list[str], entry) -> list[int]:
    """1-based lines of an entry's printed headword (one or two, marker included)."""
    printed = _squash(entry.term) + ("(obsolète)" if entry.obsolete else "(informel)" if entry.informal else "")
    first = entry.source.line_start
    if _squash(lines[first - 1]) == printed:
        return [first]
    assert _squash(lines[first - 1] + lines[first]) == printed, entry.term
    return [first, first + 1]


def _headword_candidates(lines: list[str], start: int, end: int) -> list[int]:
    """1-based lines between ``start`` and ``end`` that look like a headword,
    read independently of the parser: a short line (at most 60 characters)
    starting with a capital, that ends no sentence nor clause, after which the
    sentence does not go on (the next line starts with no lower-case letter,
    or a short line that ends no sentence, then such a line, as in a headword
    cut in two). Loose on purpose: it also finds the short first lines of
    some definitions."""
    text = [(number, lines[number - 1].strip()) for number in range(start, end + 1) if lines[number - 1].strip()]
    candidates = []
    for position, (number, line) in enumerate(text):
        following = [other for _, other in text[position + 1 : position + 3]] + ["", ""]
        if not (line[0].isupper() and len(line) <= 60 and line[-1] not in ".!?;"):
            continue
        opens = following[0] and not following[0][0].islower()
        cut = (
            following[0]
            and len(f"{line} {following[0]}") <= 60
            and following[0][-1] not in ".!?;"
            and following[1]
            and not following[1][0].islower()
        )
        if opens or cut:
            candidates.append(number)
    return candidates


def test_every_headword_candidate_is_a_headword_or_a_definition_start(text_2004, glossary_2004):
    """Completeness by the source's lines: every line that looks like a
    headword is one, or is the first line of the definition that follows a
    headword ("Voir Règle du joueur" after "APNAP"). "Points de vie" /
    "/ total de points de vie" once hid in the definition of "Plaine"."""
    lines = text_2004.split("\n")
    start, end = glossary_2004.region
    first, last = text_2004.count("\n", 0, start) + 1, text_2004.count("\n", 0, end)
    headwords, definition_starts = set(), set()
    for entry in glossary_2004.entries:
        printed = _headword_lines(lines, entry)
        headwords.update(printed)
        after = printed[-1] + 1
        while not lines[after - 1].strip():
            after += 1
        definition_starts.add(after)
    candidates = _headword_candidates(lines, first, last)
    assert {entry.source.line_start for entry in glossary_2004.entries} <= set(candidates)
    unexplained = [(n, lines[n - 1]) for n in candidates if n not in headwords and n not in definition_starts]
    assert unexplained == []
    assert len(candidates) - len(glossary_2004.entries) < 15  # the check stays a sharp one


def test_headword_continued_after_a_separator(entries):
    """A headword cut before the "/" of its second form: the second line
    starts with the separator."""
    life = entries["Points de vie / total de points de vie"]
    assert life.forms == ("Points de vie", "total de points de vie")
    assert (life.source.line_start, life.source.line_end) == (5755, 5762)
    assert life.definition[0].startswith("Le total de points de vie est une sorte de score.")
    assert life.cites == ("420.5",)
    assert entries["Plaine"].definition == (
        (
            '"Plaine" est un des cinq types de terrain de base. Un terrain avec le type plaine as la capacité '
            '"{T} : ajoutez {W} à votre réserve." Voir règle 212.6d.'
        ),
    )


def test_none_invented(text_2004, glossary_2004):
    lines = text_2004.split("\n")
    for entry in glossary_2004.entries:
        first = lines[entry.source.line_start - 1].strip()
        assert _squash(entry.term).startswith(_squash(first)) or _squash(first).startswith(_squash(entry.term))


def test_glossary_ends_before_the_credits(text_2004, glossary_2004, entries):
    _start, end = glossary_2004.region
    assert text_2004[end:].startswith("Crédits")
    assert not any("Garfield" in " ".join(entry.definition) for entry in entries.values())
    assert find_glossary("pas de glossaire ici") == (0, 0)


def test_headword_split_over_two_lines(entries):
    assert entries["Blessures fatales"].source.line_start == 4157
    assert entries["Arriver en jeu"].definition[0].startswith("Un permanent arrive en jeu")
    assert "Enchanter : créature-artefact" in entries
    assert "Règles générales de la DCI (Universal Tournament Rules)" in entries


def test_forms_and_markers(entries):
    assert entries["Contrer, contrecarrer"].forms == ("Contrer", "contrecarrer")
    assert entries["Vous / votre"].forms == ("Vous", "votre")
    assert entries["Y, Z"].forms == ("Y", "Z")
    assert entries["Artefact continu"].obsolete and not entries["Artefact continu"].informal
    assert entries["Coût de lancement"].obsolete  # marker on its own line
    assert entries["Cantrip"].informal and not entries["Cantrip"].obsolete
    assert sum(entry.obsolete for entry in entries.values()) == 18
    assert sum(entry.informal for entry in entries.values()) == 5


def test_pointers_and_see_also(entries):
    assert entries["APNAP"].see == ("Règle du joueur actif, joueur inactif",)
    assert entries["APNAP"].is_pointer
    assert entries["Y, Z"].see == ("X",)
    assert entries["Vous / votre"].see == ("Contrôleur", "Propriétaire")
    assert not entries["Vous / votre"].is_pointer
    # "Voir règle 419, "Effets de …"" cites a rule and is no pointer
    assert entries["A la place / au lieu"].see == () and entries["A la place / au lieu"].cites == ("419",)


def test_paragraphs_examples_and_numbered_meanings(entries):
    assert len(entries["Blessures"].definition) == 4
    assert entries["Arriver en jeu"].examples[0].startswith("si une instruction")
    meanings = [p for p in entries["Type"].definition if re.match(r"\d\)", p)]
    assert [p[:2] for p in meanings] == ["1)", "2)"]
    assert entries["Tampon horaire"].definition[0].count("(1)") == 1


def test_cites(entries):
    assert entries["Blessures fatales"].cites == ("420.5",)
    assert entries["Distribuer"].cites == ("409.1e", "310.2")


def test_unknown_pointers_are_diagnostics(glossary_2004):
    messages = [d.message for d in glossary_2004.diagnostics]
    assert all(d.code == "glossary-unknown-pointer" for d in glossary_2004.diagnostics)
    assert any("assigner" not in m for m in messages) or not messages
    known = {normalise_term(f) for e in glossary_2004.entries for f in (e.term, *e.forms)}
    for entry in glossary_2004.entries:
        for target in entry.see:
            if normalise_term(target) not in known:
                assert any(target in message for message in messages)


def test_fixture_quirks(fixture_entries):
    entries, parsed = fixture_entries
    assert list(entries) == [
        "Aura", "Points de vie / total de points de vie", "Blessures fatales", "Brûlure de mana", "Fizzle",
        "Vous / votre", "Type",
        "Règles générales (Universal Tournament Rules)", "APNAP", "Règle du joueur actif, joueur inactif", "Y, Z",
    ]  # fmt: skip
    assert entries["Brûlure de mana"].obsolete and entries["Brûlure de mana"].examples
    assert entries["Fizzle"].informal
    assert entries["Vous / votre"].see == ("Contrôleur", "Propriétaire")
    assert entries["APNAP"].see == ("Règle du joueur actif, joueur inactif",)
    assert entries["Aura"].definition == (
        "Une aura est un enchantement qui s’attache à un objet ou à un joueur. Voir règle 212.4.",
    )
    assert entries["Points de vie / total de points de vie"].forms == ("Points de vie", "total de points de vie")
    # Contrôleur, Propriétaire, Mana and X are not headwords of the fixture
    assert [d.code for d in parsed.diagnostics] == ["glossary-unknown-pointer"] * 4
    assert any("« X »" in d.message for d in parsed.diagnostics)
    assert "Garfield" not in " ".join(p for e in entries.values() for p in e.definition)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_any_text_gives_a_result(text):
    parsed = parse_glossary("Glossaire\n" + text, "x", "2004")
    for entry in parsed.entries:
        assert entry.term and entry.forms


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.from_regex(r"[A-Z][a-zé]{2,8}( [a-z]{2,6})?", fullmatch=True),
            st.from_regex(r"[A-Z][a-z]{3,9}( [a-z]{2,9}){2,8}\.", fullmatch=True),
        ),
        min_size=1,
        max_size=8,
        unique_by=lambda pair: pair[0],
    )
)
def test_generated_glossaries_round_trip(pairs):
    text = "Glossaire\n" + "".join(f"{term}\n{definition}\n" for term, definition in pairs) + "Crédits\n"
    parsed = parse_glossary(text, "x", "2004")
    assert [(e.term, e.definition) for e in parsed.entries] == [(t, (d,)) for t, d in pairs]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.from_regex(r"[A-Z][a-zé]{2,8}( [a-z]{2,6})?", fullmatch=True),
            st.sampled_from(["/", ","]),
            st.from_regex(r"[a-z]{2,8}( [a-z]{2,6})?", fullmatch=True),
            st.from_regex(r"[A-Z][a-z]{3,9}( [a-z]{2,9}){2,8}\.", fullmatch=True),
        ),
        min_size=1,
        max_size=6,
        unique_by=lambda entry: entry[0],
    )
)
def test_headwords_cut_before_a_separator_round_trip(entries):
    """A headword whose second form is on the next line, after its separator."""
    body = "".join(f"{a}\n{sep} {b}\n{definition}\n" for a, sep, b, definition in entries)
    text = f"Glossaire\n{body}Crédits\n"
    parsed = parse_glossary(text, "x", "2004")
    assert [(e.forms, e.definition) for e in parsed.entries] == [((a, b), (d,)) for a, _, b, d in entries]


def test_headwords_out_of_alphabetical_order_are_kept(glossary_2004):
    """Headwords are mostly, not strictly, alphabetical: order is not used to find them."""
    terms = [entry.term for entry in glossary_2004.entries]
    assert terms.index("Avant combat (phase principale)") == terms.index("Avoir l'empreinte de") + 1
    assert terms.index("Caractéristiques") == terms.index("Carte") + 1
