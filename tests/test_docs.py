"""The documentation: the README is a short front page whose every relative link
resolves, its test command is the CI's, and every page of ``docs/`` is in the
site's plan (``mkdocs.yml``) and links only to pages and headings that exist.

``mkdocs build --strict``, at the end of the test command, checks the site's
links too; these tests check the same files as GitHub shows them, without mkdocs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MKDOCS = ROOT / "mkdocs.yml"
CI = ROOT / ".ci" / "run"

#: The most lines the README may hold: one or two screens for a newcomer, the rest in docs/.
README_LINES = 300


def doc_pages() -> list[Path]:
    """The pages of ``docs/``, in the order of the site's plan (``nav`` in mkdocs.yml)."""
    names = re.findall(r"^\s+- (?:[^:\n]+: )?([\w/.-]+\.md)\s*$", MKDOCS.read_text(encoding="utf-8"), re.MULTILINE)
    return [DOCS / name for name in dict.fromkeys(names)]


def documented_pages() -> list[Path]:
    """Every page a reader may run an example from: the README, then the docs in plan order."""
    return [README, *doc_pages()]


def without_code(text: str) -> str:
    """``text`` with its fenced code blocks and code spans blanked (a link or a heading there is none)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    return re.sub(r"`[^`\n]*`", "``", text)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it, and mkdocs.yml's ``pymdownx.slugs.slugify``:
    lower case, accents kept, punctuation dropped, each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", re.sub(r"<[^>]*>", "", heading))
    return re.sub(r"[^\w\- ]", "", text.replace("`", "").strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE)
    return {slug(title) for title in re.findall(r"^#{1,6} (.+?)\s*$", text, re.MULTILINE)}


def relative_links(page: Path) -> list[tuple[str, str]]:
    """The relative links of a Markdown page, each ``(target, text)``; web addresses left out."""
    found = re.findall(r"\[([^\]]+)\]\(([^)\s]+)\)", without_code(page.read_text(encoding="utf-8")))
    return [(target, " ".join(text.split())) for text, target in found if not re.match(r"[a-z]+:", target)]


def broken_links(page: Path) -> list[str]:
    """What is wrong with each relative link of ``page``: a file that does not exist, or an anchor
    no heading of its target has."""
    problems = []
    for target, text in relative_links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_file():
            problems.append(f"{page.name}: [{text}]({target}): no file {file}")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            problems.append(f"{page.name}: [{text}]({target}): no heading « {anchor} » in {file.name}")
    return problems


def test_the_readme_is_a_short_front_page():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_LINES, f"README.md has {lines} lines: move the details to docs/"


def test_every_relative_link_of_the_readme_resolves():
    links = relative_links(README)
    assert len(links) >= 20 and any("#" in target for target, _ in links)  # it does link, anchors included
    assert not broken_links(README), "\n".join(broken_links(README))


@pytest.mark.parametrize("page", doc_pages(), ids=lambda page: str(page.relative_to(DOCS)))
def test_every_relative_link_of_a_doc_page_resolves(page):
    assert not broken_links(page), "\n".join(broken_links(page))


def test_every_doc_page_is_in_the_plan_and_every_entry_exists():
    planned = set(doc_pages())
    present = set(DOCS.rglob("*.md"))
    assert present - planned == set(), "pages missing from the nav of mkdocs.yml"
    assert planned - present == set(), "nav entries of mkdocs.yml with no page"


def test_the_readme_links_every_command_page():
    """The README's one line per command links to the command's page of docs/commandes/."""
    linked = {(README.parent / target.partition("#")[0]).resolve() for target, _ in relative_links(README)}
    commands = set((DOCS / "commandes").glob("*.md"))
    missing = sorted(str(page.relative_to(ROOT)) for page in commands if page.resolve() not in linked)
    assert not missing, missing


def _test_commands(text: str) -> list[str]:
    """The lines of ``text`` that run the tests (``python -m pytest``), stripped."""
    return [line.strip() for line in text.splitlines() if "python -m pytest" in line and "&&" in line]


def test_the_readme_test_command_is_what_ci_runs():
    """.ci/run runs exactly the test command of the README's « Démarrage rapide », and so does the
    copy in docs/installation.md; it ends by building the docs, strict."""
    ci = _test_commands(CI.read_text(encoding="utf-8"))
    assert len(ci) == 1 and ci[0].endswith("&& .venv/bin/mkdocs build --strict"), ci
    for page in (README, DOCS / "installation.md"):
        assert _test_commands(page.read_text(encoding="utf-8")) == ci, page.name


def test_the_built_site_stays_out_of_git():
    site = re.search(r"^site_dir: (\S+)", MKDOCS.read_text(encoding="utf-8"), re.MULTILINE).group(1)
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert f"/{site}/" in ignored or f"{site}/" in ignored
