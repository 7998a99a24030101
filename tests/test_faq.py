"""The Time Spiral FAQ (corpus/faq-spirale-temporelle-2006.txt) and a forum post in HTML."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.faq import parse_faq
from indexer.html import html_to_text

FIXTURES = Path(__file__).parent / "fixtures"
CHROME = ("Hors Ligne", "Grade :", "pas mana, pas chocolat", "Inscrit le")


@pytest.fixture(scope="module")
def faq(documents):
    text = Path(documents["faq-tsp-2006"].path).read_text(encoding="utf-8")
    return text, parse_faq(text, "faq-tsp-2006", "2006-faq")


def _all_texts(parsed):
    yield parsed.info.title
    yield parsed.info.introduction
    for section in parsed.sections:
        yield section.title
        yield section.text
    for card in parsed.cards:
        yield from (card.name, card.type_line, card.rules_text)
    for ruling in parsed.rulings:
        yield ruling.text
    for rule in parsed.rules:
        yield rule.title
        yield rule.text


def test_metadata(faq):
    _, parsed = faq
    info = parsed.info
    assert info.title == "Foire aux questions Spirale temporelle"
    assert info.authors == ("Mark L.Gottlieb", "Laurie Cheers", "Jeff Jordan", "Lee Sharpe")
    assert info.last_changed == "2006-08-18"
    assert [(d.iso, d.text) for d in info.dates] == [
        ("2006-09-23", "23-24 septembre 2006"),
        ("2006-10-06", "6 octobre 2006"),
        ("2006-10-20", "20 octobre 2006"),
    ]
    assert info.dates[1].label == "Date de sortie officielle de Spirale temporelle"


def test_forum_chrome_is_removed(faq):
    _, parsed = faq
    for text in _all_texts(parsed):
        assert not any(chrome in text for chrome in CHROME), text[:80]
        assert "_Spirale" not in text


def test_general_sections(faq):
    _, parsed = faq
    titles = [section.title for section in parsed.sections]
    assert len(titles) == 23
    assert titles[0] == "Cartes « décalées dans le temps »"
    assert "Nouvelle capacité mot-clé : Suspension" in titles
    assert "Distorsion" in titles and "Déluge" in titles  # entries whose *** were lost
    suspension = parsed.sections[titles.index("Nouvelle capacité mot-clé : Suspension")]
    assert len(suspension.rulings) == 10
    assert suspension.text.endswith("Les règles officielles de la capacité de suspension sont les suivantes :")
    assert all(ruling.section == suspension.title and ruling.card == "" for ruling in suspension.rulings)
    assert titles[-1] == ""  # the trademark notice
    codes = [d.code for d in parsed.diagnostics]
    assert codes.count("faq-section-without-stars") == 2


def test_quoted_rules(faq):
    _, parsed = faq
    rules = {rule.number: rule for rule in parsed.rules}
    assert len(parsed.rules) == 47
    assert all(rule.edition == "2006-faq" and rule.quoted_from == "faq-tsp-2006" for rule in parsed.rules)
    assert rules["502.57"].title == "Flash" and rules["502.57"].children == ("502.57a", "502.57b")
    assert rules["420.5n"].text.startswith("Si un permanent a à la fois un marqueur +1/+1")
    assert rules["420.5n"].parent == "420.5"
    assert rules["502.18c"].text.startswith("Le recyclage de terrain")
    # "502.26. Mue 502.26 La mue …": the second 502.26 is 502.26a
    assert rules["502.26a"].printed_number == "502.26" and rules["502.26a"].text.startswith("La mue est")
    # "502,12b" printed with a comma
    assert rules["502.12b"].printed_number == "502,12b"
    # references are not quoted rules
    assert "409.1b" not in rules and "213.1a" not in rules and "401.9h" not in rules and "418.5" not in rules
    codes = {d.code for d in parsed.diagnostics}
    assert {"misnumbered-rule", "misprinted-number"} <= codes


def test_cards(faq):
    _, parsed = faq
    cards = {card.name: card for card in parsed.cards}
    assert len(parsed.cards) == 106
    bear = cards["Mur de flammes æthériques"]
    assert (bear.mana_cost, bear.type_line, bear.power, bear.toughness) == ("{1}{R}", "Créature : mur", "0", "4")
    assert bear.rules_text.startswith("Défenseur")
    assert cards["Usine d'Urza"].mana_cost == "" and cards["Usine d'Urza"].type_line == "Terrain : terrain d'Urza"
    assert cards["Hypergenèse"].mana_cost == "{}"
    assert cards["Ixidron"].power == "*"
    assert cards["Terrain consacré"].type_line == "Enchantement : aura"
    assert cards["Dralnu, seigneur liche"].type_line == "Créature légendaire : zombie et seigneur"
    assert cards["Ouvrier spécialisé"].type_line == "Créature-artefact : ouvrier spécialisé"


def test_card_cut_between_messages_is_kept_once(faq):
    _, parsed = faq
    griffons = [card for card in parsed.cards if card.name == "Guide griffon"]
    assert len(griffons) == 1
    assert griffons[0].source.line_start == 9
    assert griffons[0].rulings[0].text.startswith("Si le Guide griffon et la créature enchantée")
    assert "faq-card-repeated" in {d.code for d in parsed.diagnostics}


def test_timeshifted_cards(faq):
    _, parsed = faq
    names = [card.name for card in parsed.cards]
    first = names.index("Arène")
    assert all(card.timeshifted for card in parsed.cards[first:])
    assert not any(card.timeshifted for card in parsed.cards[:first])
    assert len(parsed.cards) - first == 20


def test_rulings(faq):
    text, parsed = faq
    assert len(parsed.rulings) == 287
    squashed = "".join(text.split())
    for ruling in parsed.rulings:
        assert ruling.faq == "faq-tsp-2006" and not ruling.text.startswith("*")
        assert "".join(ruling.text.split()) in squashed.replace("_", "")
    assert sum(len(card.rulings) for card in parsed.cards) + sum(len(s.rulings) for s in parsed.sections) == 287
    assert [r.source.char_start for r in parsed.rulings] == sorted(r.source.char_start for r in parsed.rulings)


def test_ruling_star_glued_to_its_first_word(faq):
    """ "…de la créature. *La capacité activée…": a star without its space
    after the end of the card's text still starts a ruling."""
    _, parsed = faq
    oyster = next(card for card in parsed.cards if card.name == "Huître géante")
    assert [ruling.text[:30] for ruling in oyster.rulings] == [
        "La capacité activée ne peut ci",
        "Activer la capacité crée une c",
        "La capacité de l'Huître géante",
    ]
    assert oyster.rules_text.endswith("retirez tous les marqueurs -1/-1 de la créature.")
    # emphasis is no ruling
    ixidron = next(card for card in parsed.cards if card.name == "Ixidron")
    assert any("*au moment où*" in ruling.text for ruling in ixidron.rulings)


def test_every_ruling_star_of_the_source_starts_a_ruling(faq):
    """Completeness by the source's characters: every ``*`` is part of a
    ``***title***``, a ``*/*`` power/toughness, an emphasis closed in its
    sentence ("*au moment où*", "*votre*"), or the mark of a ruling (one
    with no text, "* * Si…", gives none)."""
    text, parsed = faq
    masked = re.sub(r"\*{3,}", lambda run: "#" * len(run.group()), text)
    masked = re.sub(r"(?<=\s)\*/\*(?=\s)", "#/#", masked)
    masked = re.sub(r"\*(?=\S)[^*.!?\n]*?(?<=\S)\*(?!\w)", lambda pair: "#" + pair.group()[1:-1] + "#", masked)
    marks = [star.start() for star in re.finditer(r"\*", masked)]
    starts = {ruling.source.char_start for ruling in parsed.rulings}
    lost = []
    for position, mark in enumerate(marks):
        following = marks[position + 1] if position + 1 < len(marks) else len(text)
        if mark + 1 not in starts and text[mark + 1 : following].strip(" -\n"):
            lost.append(text[mark : mark + 60])
    assert lost == []
    assert len(marks) == 288 and len(parsed.rulings) == 287


def test_forum_post_in_html():
    text = html_to_text((FIXTURES / "forum_post.html").read_bytes())
    parsed = parse_faq(text, "html", "2007-faq")
    assert parsed.info.title == "Foire aux questions Dominaria"
    assert parsed.info.authors == ("Jeanne Dupont", "Paul Martin", "Léa Roux")
    assert parsed.info.last_changed == "2007-03-02"
    assert [s.title for s in parsed.sections] == ["Nouvelle capacité mot-clé : Écho"]
    assert [r.number for r in parsed.rules] == ["502.19", "502.19a"]
    assert [(c.name, c.power, c.toughness) for c in parsed.cards] == [
        ("Ours runegriffe", "2", "2"),
        ("Plaine enneigée", "", ""),
    ]
    assert parsed.cards[1].type_line == "Terrain de base enneigé : plaine"
    for chunk in _all_texts(parsed):
        assert not any(chrome in chunk for chrome in (*CHROME, "signature"))


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_a_result(text):
    parsed = parse_faq(text, "x", "2006-faq")
    for card in parsed.cards:
        assert card.name


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["* ", "*", "  *  "]),
            st.from_regex(r"[A-ZÉ][a-zé]{2,8}( [a-zé]{2,8}){1,6}", fullmatch=True),
            st.sampled_from(
                ["", " *votre* tour", " *Tous* les joueurs", " *au moment où* il meurt", ". *Tous* les joueurs"]
            ),
            st.sampled_from([".", " !", " ?"]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_generated_rulings_are_split_at_their_stars(rulings):
    """Any mix of "* Texte", "*Texte" and emphasis gives one ruling per mark."""
    card = "NOTES SUR DES CARTES SPÉCIFIQUES Ours runegriffe {1}{G} Créature : ours 2/2 Piétinement. "
    text = (
        "Titre\n----- Introduction. ----- "
        + card
        + " ".join(f"{mark}{words}{emphasis}{end}" for mark, words, emphasis, end in rulings)
    )
    parsed = parse_faq(text, "x", "2006-faq")
    [bear] = parsed.cards
    assert bear.rules_text == "Piétinement."
    assert [r.text for r in bear.rulings] == [f"{words}{emphasis}{end}" for _, words, emphasis, end in rulings]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "-----",
                " * ",
                "***Titre***",
                " 502.1a ",
                "Nom {1}{G} Créature : ours 2/2",
                "NOTES SUR DES CARTES",
                " : ",
                "Hors Ligne\n",
                "Texte. ",
            ]
        ),
        max_size=30,
    )
)
def test_any_mix_of_faq_pieces_gives_a_result(pieces):
    parse_faq("".join(pieces), "x", "2006-faq")
