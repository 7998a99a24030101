"""The JSON shapes of every command's ``--json`` output (documented in the README).

Each function returns plain dicts and lists, ready for ``json.dumps``; keys
are stable: later versions add keys, never rename or remove them.
"""

from __future__ import annotations

from typing import Any

from rules_kb.kb import KnowledgeBase, Lookup
from rules_kb.model import Corpus, Diagnostic, Document, Rule
from rules_kb.query import Answer, Hit, SearchResult


def rule_dict(rule: Rule) -> dict[str, Any]:
    """``{"number", "edition", "title", "text", "examples", "parent", "children",
    "printed_number", "source": {"document", "line_start", "line_end"}}``."""
    return {
        "number": rule.number,
        "edition": rule.edition,
        "title": rule.title,
        "text": rule.text,
        "examples": list(rule.examples),
        "parent": rule.parent or None,
        "children": list(rule.children),
        "printed_number": rule.printed_number,
        "source": {
            "document": rule.source.document,
            "line_start": rule.source.line_start,
            "line_end": rule.source.line_end,
        },
    }


def document_dict(document: Document, counts: dict[str, int] | None = None) -> dict[str, Any]:
    """A manifest entry; with ``counts``, ``{"counts": {"rules": n}, "parsed": bool}`` too."""
    data: dict[str, Any] = {
        "id": document.id,
        "file": document.file,
        "kind": document.kind.value,
        "language": document.language,
        "edition": document.edition,
        "date": document.date,
        "title": document.title,
        "origin": document.origin,
    }
    if counts is not None:
        data["counts"] = {"rules": counts.get(document.id, 0)}
    return data


def diagnostic_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    """``{"document", "line", "code", "severity", "message"}``."""
    return {
        "document": diagnostic.document,
        "line": diagnostic.line,
        "code": diagnostic.code,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
    }


def lookup_dict(lookup: Lookup, only: bool = False) -> dict[str, Any]:
    """``show``: ``{"rule", "context", "subrules", "notes", "also_printed_on"}``.

    ``context`` is the parent chain from the chapter down, ``subrules`` the
    direct subrules (empty with ``only``), each a :func:`rule_dict`.
    """
    return {
        "rule": rule_dict(lookup.rule),
        "context": [rule_dict(rule) for rule in lookup.ancestors],
        "subrules": [] if only else [rule_dict(rule) for rule in lookup.children],
        "notes": list(lookup.notes),
        "also_printed_on": [rule.number for rule in lookup.also_printed_on],
    }


def hit_dict(hit: Hit) -> dict[str, Any]:
    """``{"kind", "id", "edition", "score", "title", "snippet", "matches"}``."""
    return {
        "kind": hit.kind,
        "id": hit.id,
        "edition": hit.edition,
        "score": hit.score,
        "title": hit.title,
        "snippet": hit.snippet,
        "matches": [list(span) for span in hit.matches],
    }


def search_dict(result: SearchResult) -> dict[str, Any]:
    """``search``: ``{"query", "hits": [hit_dict…]}``."""
    return {"query": result.query, "hits": [hit_dict(hit) for hit in result.hits]}


def answer_dict(answer: Answer) -> dict[str, Any]:
    """``ask``: ``{"question", "terms", "rules": [{"number", "edition", "score", "why", "title", "snippet"}]}``."""
    return {
        "question": answer.question,
        "terms": list(answer.terms),
        "rules": [
            {
                "number": rule.number,
                "edition": rule.edition,
                "score": rule.score,
                "why": rule.why,
                "title": rule.title,
                "snippet": rule.snippet,
            }
            for rule in answer.rules
        ],
    }


def rule_counts(corpus: Corpus) -> dict[str, int]:
    """Number of rules parsed from each document id."""
    counts: dict[str, int] = {}
    for rule in corpus.rules:
        counts[rule.source.document] = counts.get(rule.source.document, 0) + 1
    return counts


def index_dict(kb: KnowledgeBase) -> dict[str, Any]:
    """``index``: ``{"folder", "cache", "fingerprint", "rules", "diagnostics"}`` (counts)."""
    return {
        "folder": kb.corpus.folder,
        "cache": str(kb.cache_dir),
        "fingerprint": kb.corpus.fingerprint,
        "rules": len(kb.corpus.rules),
        "diagnostics": len(kb.corpus.diagnostics),
    }


def corpus_list_dict(kb: KnowledgeBase) -> dict[str, Any]:
    """``corpus list``: ``{"folder", "documents": [document_dict + counts + parsed]}``."""
    counts = rule_counts(kb.corpus)
    documents = []
    for document in kb.corpus.documents:
        data = document_dict(document, counts)
        data["parsed"] = document.id in kb.corpus.parsed_documents
        documents.append(data)
    return {"folder": kb.corpus.folder, "documents": documents}


def corpus_check_dict(kb: KnowledgeBase) -> dict[str, Any]:
    """``corpus check``: ``{"diagnostics": [diagnostic_dict…]}``."""
    return {"diagnostics": [diagnostic_dict(d) for d in kb.corpus.diagnostics]}


def corpus_dump_dict(kb: KnowledgeBase) -> dict[str, Any]:
    """``corpus dump``: ``{"documents", "rules", "diagnostics"}``, every parsed record."""
    counts = rule_counts(kb.corpus)
    return {
        "documents": [document_dict(d, counts) for d in kb.corpus.documents],
        "rules": [rule_dict(rule) for rule in kb.corpus.rules],
        "diagnostics": [diagnostic_dict(d) for d in kb.corpus.diagnostics],
    }


def error_dict(error: Exception) -> dict[str, Any]:
    """``{"error": {"type", "message"}}``: what ``--json`` prints on a user error."""
    return {"error": {"type": type(error).__name__, "message": str(error)}}
