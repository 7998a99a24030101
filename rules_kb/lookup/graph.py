"""``graph``: the neighbourhood of a rule or a glossary term, as a picture: JSON, Graphviz DOT, Mermaid.

>>> hood = neighbourhood(kb, "418.5a", depth=1)          # doctest: +SKIP
>>> print(to_mermaid(hood))                               # doctest: +SKIP

:func:`write_picture` writes a DOT text, or renders it with Graphviz's
``dot`` program (SVG, PNG, PDF) where it is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, NamedTuple

from rules_kb.core.errors import RulesKbError
from rules_kb.core.files import check_file_target, write_file
from rules_kb.core.model import RecordKind, glossary_node, node_kind, rule_node
from rules_kb.core.numbers import RuleNumber, RuleNumberError
from rules_kb.core.text import first_sentence
from rules_kb.engines.graph import Edge, Relation
from rules_kb.loader import KnowledgeBase
from rules_kb.lookup.glossary import define
from rules_kb.lookup.rules import show

#: What ``--relation`` accepts: the English ids and the French labels.
RELATION_NAMES = {
    **{relation.value: relation for relation in Relation},
    **{relation.label: relation for relation in Relation},
}

FORMATS = ("json", "dot", "mermaid")
#: Files Graphviz renders, by suffix.
RENDERED = {".svg": "svg", ".png": "png", ".pdf": "pdf"}
#: The format each file suffix implies: the picture's text, or for
#: :data:`RENDERED` Graphviz's drawing of the DOT text.
SUFFIXES = {
    ".dot": "dot", ".gv": "dot", ".mmd": "mermaid", ".mermaid": "mermaid", ".json": "json",
    **{suffix: "dot" for suffix in RENDERED},
}  # fmt: skip
_FORMAT_NAMES = {"json": "JSON", "dot": "DOT (Graphviz)", "mermaid": "Mermaid"}


class DiagramError(RulesKbError):
    """A picture cannot be made or written (unknown relation, no Graphviz, existing file…)."""


class Neighbourhood(NamedTuple):
    """Nodes within ``depth`` edges of ``center``: ``nodes`` as ``(node id,
    record)`` in breadth-first order (the center first), their short
    ``labels`` (:func:`label`), ``edges`` between them, and ``truncated``
    when ``limit`` nodes cut the walk short."""

    center: str
    depth: int
    nodes: tuple[tuple[str, Any], ...]
    edges: tuple[Edge, ...]
    truncated: bool
    labels: tuple[str, ...] = ()


def choose_format(name: str | None, output: str | os.PathLike[str] | None = None) -> str:
    """The picture's format (one of :data:`FORMATS`): ``name`` if given, else
    the one the suffix of ``output`` implies (:data:`SUFFIXES`), else ``"dot"``.

    Raises :class:`DiagramError` for an unknown ``name``, for an ``output``
    whose suffix implies another format than ``name`` (Mermaid in a
    ``.svg``), and for an unknown suffix (``.txt``): a file never gets a
    text its name does not announce (a name without suffix takes any
    format). ``"-"`` is standard output.
    """
    wanted = name.strip().lower() if name else ""
    if wanted and wanted not in FORMATS:
        raise DiagramError(f"Format « {name} » inconnu. Formats possibles : {', '.join(FORMATS)}.")
    suffix = Path(output).suffix.lower() if output and os.fspath(output) != "-" else ""
    implied = SUFFIXES.get(suffix)
    if implied and wanted and wanted != implied:
        what = (
            "une image dessinée par Graphviz d'après le texte DOT"
            if suffix in RENDERED
            else f"du {_FORMAT_NAMES[implied]}"
        )
        right = " ou ".join(key for key, value in SUFFIXES.items() if value == wanted and key not in RENDERED)
        raise DiagramError(
            f"Un fichier {suffix} contient {what}, pas du {_FORMAT_NAMES[wanted]} : "
            f"pour ce format, nommez le fichier en {right}."
        )
    if suffix and not implied:
        raise DiagramError(
            f"Extension « {suffix} » inconnue pour un graphe : .dot ou .gv (DOT), .mmd (Mermaid), .json, "
            "ou .svg, .png, .pdf (image dessinée par Graphviz)."
        )
    return wanted or implied or "dot"


def resolve_relation(name: str) -> Relation:
    """A :class:`Relation` from its id (``cites``) or French label (``cite``);
    raises :class:`DiagramError` listing the accepted names."""
    relation = RELATION_NAMES.get(name.strip().lower())
    if relation is None:
        accepted = ", ".join(f"« {relation.label} »" for relation in Relation)
        raise DiagramError(
            f"Relation « {name} » inconnue. Relations possibles : {accepted} (ou leurs noms anglais du JSON : cites…)."
        )
    return relation


def neighbourhood(
    kb: KnowledgeBase,
    target: str,
    depth: int = 1,
    edition: str | None = None,
    relations: tuple[str, ...] = (),
    limit: int = 60,
) -> Neighbourhood:
    """The neighbourhood of a rule number (``"418.5a"``) or a glossary term
    (``"Couche"``, typos allowed as in ``define``).

    Raises :class:`rules_kb.core.errors.UnknownRuleError`,
    :class:`rules_kb.core.errors.UnknownTermError`,
    :class:`rules_kb.core.errors.UnknownEditionError` and :class:`DiagramError`
    (unknown relation).
    """
    wanted = tuple(dict.fromkeys(resolve_relation(name) for name in relations))
    try:
        RuleNumber.parse(target)
    except RuleNumberError:
        center = glossary_node(define(kb, target).entry)
    else:
        center = rule_node(show(kb, target, edition, links=False).rule)
    nodes, edges, truncated = kb.graph.neighbourhood(center, depth, wanted, limit)
    found = tuple((node, kb.record(node)) for node in nodes)
    labels = tuple(label(node, record) for node, record in found)
    return Neighbourhood(center, depth, found, tuple(edges), truncated, labels)


def label(node: str, record: Any) -> str:
    """A short label of a node: ``"420.5c Une créature avec des blessures…"``,
    ``"Couche"`` (glossary), ``"Guide griffon"`` (card)…"""
    if record is None:
        return node
    kind = node_kind(node)
    if kind is RecordKind.RULE:
        text = record.title or first_sentence(record.text, 40)
        return f"{record.number} ({record.edition}) {text}".strip()
    if kind is RecordKind.GLOSSARY:
        return record.term
    if kind is RecordKind.CARD:
        return record.name
    if kind is RecordKind.RULING:
        return "Décision : " + first_sentence(record.text, 40)
    return record.title


def edge_label(edge: Edge) -> str:
    """The French label of an edge, with its similarity for counterparts and versions."""
    text = edge.relation.label
    if edge.relation in (Relation.COUNTERPART, Relation.VERSION_OF):
        text += f" {edge.score:.0%}"
    return text


_SHAPES = {
    RecordKind.RULE: "box", RecordKind.GLOSSARY: "ellipse", RecordKind.CARD: "note", RecordKind.RULING: "plaintext",
    RecordKind.FAQ_SECTION: "folder", RecordKind.COURSE: "tab",
}  # fmt: skip


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def to_dot(hood: Neighbourhood) -> str:
    """The neighbourhood as a Graphviz DOT digraph (edges labelled in French)."""
    lines = ["digraph voisinage {", "  rankdir=LR;", '  node [fontname="Helvetica", fontsize=10];']
    for (node, _record), text in zip(hood.nodes, hood.labels):
        attributes = f"label={_dot_string(text)}, shape={_SHAPES.get(node_kind(node), 'box')}"
        if node == hood.center:
            attributes += ", style=bold"
        lines.append(f"  {_dot_string(node)} [{attributes}];")
    for edge in hood.edges:
        text = edge_label(edge)
        lines.append(f"  {_dot_string(edge.source)} -> {_dot_string(edge.target)} [label={_dot_string(text)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_text(text: str) -> str:
    return text.replace('"', "#quot;").replace("\n", " ")


def to_mermaid(hood: Neighbourhood) -> str:
    """The neighbourhood as a Mermaid flowchart (nodes ``n0``, ``n1``… in breadth-first order)."""
    ids = {node: f"n{position}" for position, (node, _) in enumerate(hood.nodes)}
    lines = ["flowchart LR"]
    for (node, _record), shown in zip(hood.nodes, hood.labels):
        text = _mermaid_text(shown)
        shape = ('(["', '"])') if node_kind(node) is RecordKind.GLOSSARY else ('["', '"]')
        lines.append(f"  {ids[node]}{shape[0]}{text}{shape[1]}")
    for edge in hood.edges:
        text = edge_label(edge)
        lines.append(f'  {ids[edge.source]} -->|"{_mermaid_text(text)}"| {ids[edge.target]}')
    lines.append(f"  style {ids[hood.center]} stroke-width:3px")
    return "\n".join(lines) + "\n"


def write_picture(text: str, path: str | os.PathLike[str], force: bool = False, dot: bool = False) -> Path:
    """Write ``text`` to ``path``, whole or not at all; a DOT text (``dot``)
    to a ``.svg``, ``.png`` or ``.pdf`` file is rendered with Graphviz.

    Never replaces an existing file unless ``force``. Raises
    :class:`DiagramError` for an existing file, a missing Graphviz, a failed
    rendering or an unwritable folder.
    """
    target = check_file_target(path, force, DiagramError)
    output = RENDERED.get(target.suffix.lower()) if dot else None
    data = text.encode("utf-8")
    if output:
        program = shutil.which("dot")
        if program is None:
            raise DiagramError(
                "Graphviz (le programme « dot ») n'est pas installé : impossible de produire "
                f"« {target.name} ». Écrivez le texte DOT dans un fichier .dot, ou installez Graphviz."
            )
        done = subprocess.run([program, f"-T{output}"], input=data, capture_output=True, check=False)
        if done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip()
            raise DiagramError(f"Graphviz n'a pas pu dessiner le graphe : {message}")
        data = done.stdout
    return write_file(target, data, force, DiagramError)
