"""The course (corpus/cours-2-les-permanents.txt) and a course page in HTML."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.course import heading_level, parse_course
from indexer.html import html_to_text

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def course(documents):
    text = Path(documents["cours-2"].path).read_text(encoding="utf-8")
    return {section.title: section for section in parse_course(text, "cours-2").sections}


def test_sections_and_levels(course):
    assert list(course)[:4] == [
        "Cours 2 – Les permanents",
        "Les permanents: définition et caractéristiques",
        "Les jetons",
        "LES ZONES",
    ]
    assert len(course) == 16
    assert course["LES ZONES"].level == 1 and course["1 – Bibliothèque"].level == 2
    assert "8 – Zone de mise" in course


def test_pointers_to_the_rules(course):
    assert course["Cours 2 – Les permanents"].points_to == ("110",)
    assert course["Les jetons"].points_to == ("110",)  # inherited from its level-1 section
    assert course["LES ZONES"].points_to == ("4",)
    assert course["6 – Exil"].points_to == ("4",)


def test_bullets_are_list_items(course):
    zones = course["LES ZONES"]
    lists = [p.items for p in zones.paragraphs if p.items]
    assert lists[0] == (
        "Bibliothèque ;", "Pile ;", "Main ;", "Exil ;", "Champ de bataille ;", "Cimetière ;",
        "Zone de commandement ;", "Zone de mise.",
    )  # fmt: skip
    # a sentence ending with a colon introduces its list, it is no heading
    assert any(p.text == "Il y a huit zones:" for p in zones.paragraphs)
    assert len(course["Ajouter des objets à la pile"].paragraphs[0].items) == 4
    assert "• Bibliothèque ;" in zones.text


def test_heading_kinds():
    assert heading_level("LES ZONES") == 1
    assert heading_level("1 – Bibliothèque :") == 2
    assert heading_level("Les jetons :") == 2
    assert heading_level("Il y a huit zones:") == 0
    assert heading_level("  • Pile ;") == 0
    assert heading_level("(Section 4 des règles complètes)") == 0


def test_course_in_html():
    text = html_to_text((FIXTURES / "course.html").read_bytes())
    sections = parse_course(text, "html").sections
    assert [(s.title, s.level, s.points_to) for s in sections] == [
        ("Cours 3 – Le combat", 1, ("506",)),
        ("LES ÉTAPES", 1, ()),
        ("Les bloqueurs", 2, ()),
    ]
    assert sections[1].paragraphs[1].items == ("Début du combat ;", "Déclaration des attaquants ;")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_a_result(text):
    for section in parse_course(text, "x").sections:
        assert section.level in (1, 2)
