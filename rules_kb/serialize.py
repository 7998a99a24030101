"""The JSON shapes of every command's ``--json`` output (documented in docs/reference/json.md).

Each function turns a feature's result into plain dicts and lists, ready for
``json.dumps``; it computes nothing (results carry what their shapes
need). Keys are stable: later versions add keys, never rename or remove
them. What a front end words its own way (a note pointing to another rule,
the comment heading a scenario file) is given as a function by the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules_kb.core.model import (
    Card,
    Corpus,
    CourseSection,
    Diagnostic,
    GlossaryEntry,
    Rule,
    Ruling,
)
from rules_kb.core.shapes import (
    card_dict,
    course_section_dict,
    diagnostic_dict,
    diff_list,
    document_dict,
    faq_info_dict,
    faq_section_dict,
    glossary_entry_dict,
    rule_dict,
    ruling_dict,
    source_dict,
)
from rules_kb.core.text import first_sentence

if TYPE_CHECKING:  # annotations only: importing every feature would slow every command down
    from rules_kb.ask import Answer
    from rules_kb.checker.layers import Layering
    from rules_kb.checker.report import CheckReport
    from rules_kb.core.model import Corpus
    from rules_kb.engines.graph import Edge
    from rules_kb.export import Exported
    from rules_kb.inventory import Listed, Summary
    from rules_kb.lookup.glossary import Definition
    from rules_kb.lookup.graph import Neighbourhood
    from rules_kb.lookup.rules import Link, Lookup, Note, RuleLinks
    from rules_kb.search import Hit, SearchResult


def note_text(note: Note) -> str:
    """A note as the library words it (a front end may add how to show the rule it points to)."""
    return note.text


def lookup_dict(lookup: Lookup, only: bool = False, note: Callable[[Note], str] = note_text) -> dict[str, Any]:
    """``show``: ``{"rule", "context", "subrules", "notes", "also_printed_on",
    "versions"}``, and with the graph (``lookup.links``) ``cites``,
    ``cited_by``, ``terms``, ``rulings``, ``cards``, ``counterparts``
    (:func:`links_dict`).

    ``context`` is the parent chain from the chapter down, ``subrules`` the
    direct subrules (empty with ``only``), ``versions`` the other texts of
    the rule (a FAQ's revision), each a :func:`rule_dict` with
    ``"subrules"``; with the graph, a version also has ``score`` and
    ``diff`` (:func:`diff_list`, older text to newer), and each of its
    subrules a ``diff``; ``score`` is the similarity of the words given:
    with ``only`` (no subrules), the rule's own. ``note`` words each note.
    """
    data = {
        "rule": rule_dict(lookup.rule),
        "context": [rule_dict(rule) for rule in lookup.ancestors],
        "subrules": [] if only else [rule_dict(rule) for rule in lookup.children],
        "notes": [note(item) for item in lookup.notes],
        "also_printed_on": [rule.number for rule in lookup.also_printed_on],
        "versions": [
            {**rule_dict(rule), "subrules": [] if only else [rule_dict(child) for child in children]}
            for rule, children in zip(lookup.versions, lookup.version_subrules)
        ],
    }
    links = lookup.links
    if links is not None:
        data.update(links_dict(links))
        diffs = {version.rule.key: version for version in links.versions}
        for version in data["versions"]:
            found = diffs.get(f"{version['edition']}:{version['number']}")
            if found is not None:
                version["score"] = found.own_score if only else found.score
                version["diff"] = diff_list(found.diff)
                by_number = {child.number: diff for child, diff in found.subrules}
                for child in version["subrules"]:
                    child["diff"] = diff_list(by_number.get(child["number"], ()))
    return data


def link_dict(link: Link) -> dict[str, Any]:
    """A record at the other end of a graph edge (:class:`rules_kb.lookup.rules.Link`):
    ``{"kind", "id", "via", "document", "line"}`` plus, by kind: rule
    ``number, edition, title, excerpt``; glossary ``term, edition,
    definition`` (first sentence); ruling ``card, section, faq, text``;
    card ``name, faq``; faq-section ``title, faq``; course ``title, course``."""
    record = link.record
    data: dict[str, Any] = {"kind": link.kind.value, "id": link.node, "via": link.text}
    if isinstance(record, Rule):
        data.update(
            number=record.number, edition=record.edition, title=record.title, excerpt=first_sentence(record.text)
        )
    elif isinstance(record, GlossaryEntry):
        data.update(term=record.term, edition=record.edition, definition=first_sentence(record.text))
    elif isinstance(record, Ruling):
        data.update(card=record.card, section=record.section, faq=record.faq, text=record.text)
    elif isinstance(record, Card):
        data.update(name=record.name, faq=record.faq)
    elif isinstance(record, CourseSection):
        data.update(title=record.title, course=record.course)
    else:
        data.update(title=record.title, faq=record.faq)
    data.update(document=record.source.document, line=record.source.line_start)
    return data


def links_dict(links: RuleLinks) -> dict[str, Any]:
    """The graph part of ``show --json``: ``cites``, ``cited_by``, ``terms``,
    ``rulings`` (each :func:`link_dict`; a ruling's ``via`` is ``"cite"`` or
    ``"section"``), ``cards``, ``counterparts`` (:func:`link_dict` with
    ``score`` and ``text``)."""
    return {
        "cites": [link_dict(link) for link in links.cites],
        "cited_by": [link_dict(link) for link in links.cited_by],
        "terms": [link_dict(link) | {"written": link.text} for link in links.terms],
        "rulings": [link_dict(link) for link in links.rulings],
        "cards": [link_dict(link) for link in links.cards],
        "counterparts": [
            link_dict(link) | {"score": link.score, "text": link.record.text} for link in links.counterparts
        ],
    }


def definition_dict(definition: Definition) -> dict[str, Any]:
    """``define``: ``{"query", "entry", "alternatives", "match", "score", "understood", "followed", "cited_rules", "used_by"}``.

    ``entry`` and each of ``followed`` (entries reached by "Voir") are a
    :func:`glossary_entry_dict`; ``alternatives`` are the terms of other
    entries that fit; ``match`` is ``"exact"``, ``"lexicon"``, ``"words"``
    or ``"approx"`` and ``understood`` how the query was read (``""`` for an
    exact match; :class:`rules_kb.lookup.glossary.Definition`);
    ``cited_rules`` are ``{"number", "edition", "title", "text"}``;
    ``used_by`` the rules whose text uses the term, each :func:`link_dict`
    with ``written`` (the words as the rule writes them).
    """
    return {
        "query": definition.query,
        "entry": glossary_entry_dict(definition.entry),
        "alternatives": [entry.term for entry in definition.alternatives],
        "match": definition.match,
        "score": definition.score,
        "understood": definition.understood,
        "followed": [glossary_entry_dict(entry) for entry in definition.followed],
        "cited_rules": [
            {"number": rule.number, "edition": rule.edition, "title": rule.title, "text": rule.text}
            for rule in definition.cited_rules
        ],
        "used_by": [link_dict(link) | {"written": link.text} for link in definition.used_by],
    }


def hit_dict(hit: Hit) -> dict[str, Any]:
    """``{"kind", "id", "edition", "score", "title", "snippet", "matches", "document", "line"}``.

    ``kind`` is ``rule``, ``glossary``, ``card``, ``ruling``, ``faq-section``
    or ``course``; ``edition`` is null for FAQ and course records.
    """
    return {
        "kind": hit.kind,
        "id": hit.id,
        "edition": hit.edition or None,
        "score": hit.score,
        "title": hit.title,
        "snippet": hit.snippet,
        "matches": [list(span) for span in hit.matches],
        "document": hit.document,
        "line": hit.line,
    }


def search_dict(result: SearchResult) -> dict[str, Any]:
    """``search``: ``{"query", "understood": [texte…], "hits": [hit_dict…]}``
    (``understood``: the words read in the documents' words, ``"trample → Piétinement"``)."""
    return {
        "query": result.query,
        "understood": list(result.understood),
        "hits": [hit_dict(hit) for hit in result.hits],
    }


def scenario_text(answer: Answer) -> str:
    """The scenario built from a question, as the checker writes it
    (:func:`rules_kb.checker.scenario_writer.scenario_to_toml`)."""
    # deferred: the checker, loaded only once a question told a board (an answer with a scenario)
    from rules_kb.checker.scenario_writer import scenario_to_toml

    return scenario_to_toml(answer.scenario())


def answer_dict(answer: Answer, scenario: Callable[[Answer], str] = scenario_text) -> dict[str, Any]:
    """``ask`` (see docs/reference/json.md for the shape): the question, what was
    recognised, the rules with their score parts, the glossary terms, the
    FAQ rulings, and the checker's ``check --json`` document (or null);
    ``scenario`` writes the scenario file of the question."""
    verification = answer.verification
    return {
        "question": answer.question,
        "unknown": answer.unknown,
        "nearest": list(answer.nearest),
        "concepts": [
            {
                "text": concept.text,
                "kind": concept.target.kind.value,
                "target": concept.target.name,
                "start": concept.start,
                "end": concept.end,
                "via": concept.via,
                "corrected": concept.corrected,
            }
            for concept in answer.concepts
        ],
        "facts": [{"text": fact.text, "meaning": fact.meaning} for fact in answer.facts.read],
        "corrections": [{"word": c.word, "fixed": c.fixed} for c in answer.corrections],
        "rules": [
            {
                "number": rule.number,
                "edition": rule.edition,
                "score": rule.score,
                "why": rule.why,
                "title": rule.title,
                "snippet": rule.snippet,
                "text": rule.text,
                "parts": dict(rule.parts),
            }
            for rule in answer.rules
        ],
        "glossary": [entry.term for entry in answer.glossary],
        "rulings": [ruling_dict(ruling) for ruling in answer.rulings],
        "checker": check_dict(verification.report) if verification.report is not None else None,
        "verification": {
            "outcome": list(verification.outcome),
            "applied": list(verification.applied),
            "examined": list(verification.examined),
            "note": verification.note or None,
            "missing": list(verification.missing),
            "undecided": list(verification.undecided),
            "scenario": scenario(answer) if verification.scenario is not None else None,
        },
        "terms": list(answer.terms),
        "query": answer.parsed,
        "notes": list(answer.notes),
        "remarks": [{"kind": r.kind.value, "text": r.text, "meaning": r.meaning} for r in answer.remarks],
    }


def index_dict(summary: Summary) -> dict[str, Any]:
    """``index``: ``{"folder", "cache", "fingerprint", "rules", "glossary", "cards",
    "rulings", "faq_sections", "course", "diagnostics"}`` (counts)."""
    data: dict[str, Any] = {"folder": summary.folder, "cache": summary.cache, "fingerprint": summary.fingerprint}
    data.update(summary.counts)
    data["diagnostics"] = summary.diagnostics
    return data


def corpus_list_dict(folder: str, listed: tuple[Listed, ...]) -> dict[str, Any]:
    """``corpus list``: ``{"folder", "documents": [document_dict + counts + parsed]}``."""
    documents = []
    for item in listed:
        data = document_dict(item.document, {item.document.id: item.counts})
        data["parsed"] = item.parsed
        documents.append(data)
    return {"folder": folder, "documents": documents}


def corpus_check_dict(diagnostics: tuple[Diagnostic, ...]) -> dict[str, Any]:
    """``corpus check``: ``{"diagnostics": [diagnostic_dict…]}``."""
    return {"diagnostics": [diagnostic_dict(d) for d in diagnostics]}


def corpus_dump_dict(corpus: Corpus, listed: tuple[Listed, ...]) -> dict[str, Any]:
    """``corpus dump``: ``{"documents", "rules", "glossary", "cards", "rulings",
    "faq_sections", "faqs", "course", "diagnostics"}``, every parsed record
    (``corpus.diagnostics``: the parsers' and the graph's)."""
    counts = {item.document.id: item.counts for item in listed}
    return {
        "documents": [document_dict(d, counts) for d in corpus.documents],
        "rules": [rule_dict(rule) for rule in corpus.rules],
        "glossary": [glossary_entry_dict(entry) for entry in corpus.glossary],
        "cards": [card_dict(card) for card in corpus.cards],
        "rulings": [ruling_dict(ruling) for ruling in corpus.rulings],
        "faq_sections": [faq_section_dict(section) for section in corpus.faq_sections],
        "faqs": [faq_info_dict(info) for info in corpus.faqs],
        "course": [course_section_dict(section) for section in corpus.course],
        "diagnostics": [diagnostic_dict(d) for d in corpus.diagnostics],
    }


def characteristics_dict(seen) -> dict[str, Any]:
    """What an object is (:class:`rules_kb.checker.characteristics.Characteristics`):
    ``{"name", "controller", "card_types", "subtypes", "supertypes", "colors",
    "abilities", "static_abilities": [{"id", "text"}], "mana_value", "power",
    "toughness"}``; types, supertypes and colours by their French terms (``"créature"``,
    ``"légendaire"``, ``"vert"``: :attr:`rules_kb.core.vocabulary.Term.label`, words a scenario reads back)."""
    return {
        "name": seen.name,
        "controller": seen.controller,
        "card_types": sorted(card_type.label for card_type in seen.card_types),
        "subtypes": list(seen.subtypes),
        "supertypes": sorted(supertype.label for supertype in seen.supertypes),
        "colors": sorted(color.label for color in seen.colors),
        "abilities": list(seen.abilities),
        "static_abilities": [{"id": effect.id, "text": effect.text} for effect in seen.statics],
        "mana_value": seen.mana_value,
        "power": seen.power,
        "toughness": seen.toughness,
    }


def _object_dict(obj, seen) -> dict[str, Any]:
    """One object of a checked state; ``seen`` its characteristics after the
    continuous effects (None once it ceased to exist). Its zone, types and
    colours by their French terms (``"cimetière"``, ``"créature"``, ``"vert"``)."""
    shown = seen or obj
    return {
        "id": obj.id,
        "name": shown.name,
        "controller": shown.controller,
        "owner": obj.owner,
        "card_types": sorted(card_type.label for card_type in shown.card_types),
        "subtypes": list(shown.subtypes),
        "supertypes": sorted(supertype.label for supertype in shown.supertypes),
        "colors": sorted(color.label for color in shown.colors),
        "abilities": list(shown.abilities),
        "zone": obj.zone.label if obj.zone else None,
        "power": seen.power if seen else None,
        "toughness": seen.toughness if seen else None,
        "damage": obj.damage,
        "counters": dict(obj.counters),
        "attached_to": obj.attached_to or None,
        "token": obj.token,
        "timestamp": obj.timestamp,
        "since": seen.since if seen else obj.since_or_timestamp,
    }


def game_state_dict(state, layering: Layering) -> dict[str, Any]:
    """``{"permanents", "spells", "players"}``: a checker state
    (:class:`rules_kb.checker.state.GameState`), each object as the
    continuous effects make it (``layering``: those computed for ``state``)."""
    seen = layering.final
    return {
        "permanents": [_object_dict(obj, seen.get(obj.id)) for obj in state.objects if obj.source == "permanent"],
        "spells": [_object_dict(obj, seen.get(obj.id)) for obj in state.objects if obj.source == "spell"],
        "players": [
            {
                "name": player.name,
                "life": player.life,
                "poison": player.poison,
                "lost": player.lost,
                "lost_by": list(player.lost_by),
            }
            for player in state.players
        ],
    }


def step_dict(step, names: dict[str, str] | None = None) -> dict[str, Any]:
    """One effect applied in a layer (:class:`rules_kb.checker.layers.Step`):
    ``{"id", "kind", "reason", "rules", "timestamp", "objects", "names",
    "depends_on", "overrides", "text", "source"}``; ``names`` the names of its
    ``objects`` (ids), from ``names`` (id → name; the id itself when missing)."""
    names = names or {}
    return {
        "id": step.effect,
        "kind": step.kind.value,
        "reason": step.reason,
        "rules": list(step.rules),
        "timestamp": step.timestamp,
        "objects": list(step.objects),
        "names": [names.get(object_id, object_id) for object_id in step.objects],
        "depends_on": list(step.depends_on),
        "overrides": list(step.overrides),
        "text": step.text,
        "source": step.source or None,
    }


#: A summarised trace (``check``'s default) shows at most this many effects of a layer in a
#: permanent's history (``characteristics[id].layers[].effects``), the others counted in ``omitted``.
EFFECTS_SHOWN = 8
#: A summarised trace names at most this many objects of a step (``layers[].steps[].objects``),
#: the others counted in ``omitted_objects``.
OBJECTS_SHOWN = 40


def _history_step(step, names: dict[str, str], full: bool) -> dict[str, Any]:
    """An effect in a permanent's history: :func:`step_dict`, without the other objects it
    modified unless ``full`` (they are in the layer's step)."""
    found = step_dict(step, names)
    if not full:
        del found["objects"], found["names"]
    return found


def _layer_step(step, names: dict[str, str], full: bool) -> dict[str, Any]:
    """A step of a layer: :func:`step_dict`, its objects cut to :data:`OBJECTS_SHOWN` unless ``full``."""
    found = step_dict(step, names)
    if not full and len(found["objects"]) > OBJECTS_SHOWN:
        found["omitted_objects"] = len(found["objects"]) - OBJECTS_SHOWN
        found["objects"] = found["objects"][:OBJECTS_SHOWN]
        found["names"] = found["names"][:OBJECTS_SHOWN]
    return found


def layering_dict(layering, full: bool = False) -> dict[str, Any]:
    """``{"characteristics": {id: …}, "layers": [{"layer", "name", "steps"}]}``:
    the continuous effects applied to a state
    (:class:`rules_kb.checker.layers.Layering`). Each permanent's entry is
    its final :func:`characteristics_dict` plus ``"printed"`` (its values
    before any effect) and ``"layers"``: the layers that modified it, each
    ``{"layer", "name", "effects": [step_dict…], "omitted", "after": characteristics_dict}``.

    Summarised unless ``full`` (the answer's size stays bounded whatever the
    scenario: 100 Crusades on 400 creatures would otherwise repeat each of
    their 100 steps, each naming 400 creatures, in each creature's history):
    a history's effect leaves out the objects it modified, a layer of a
    history shows its first :data:`EFFECTS_SHOWN` effects (``omitted``: how
    many more), a step names its first :data:`OBJECTS_SHOWN` objects
    (``omitted_objects``: how many more). The caller checks a full trace's
    size first (:func:`rules_kb.checker.report.check_trace_size`)."""
    characteristics = {}
    names = {object_id: printed.name for object_id, printed in layering.printed.items()}
    for object_id, printed in layering.printed.items():
        entry = characteristics_dict(layering.final[object_id])
        entry["printed"] = characteristics_dict(printed)
        entry["layers"] = []
        for result, steps in layering.history(object_id):
            shown = steps if full else steps[:EFFECTS_SHOWN]
            entry["layers"].append(
                {
                    "layer": int(result.layer),
                    "name": result.layer.label,
                    "effects": [_history_step(step, names, full) for step in shown],
                    "omitted": len(steps) - len(shown),
                    "after": characteristics_dict(result.after[object_id]),
                }
            )
        characteristics[object_id] = entry
    return {
        "characteristics": characteristics,
        "layers": [
            {
                "layer": int(result.layer),
                "name": result.layer.label,
                "steps": [_layer_step(step, names, full) for step in result.steps],
            }
            for result in layering.layers
        ],
    }


def event_dict(event, texts: dict[str, Rule], names: dict[str, str] | None = None) -> dict[str, Any]:
    """One state-based event: ``{"rule", "action", "label", "objects", "names",
    "players", "text", "reason", "regeneration", "see_also", "counters"}``:
    ``action`` its id (``"destroy"``), ``label`` what it does in French
    (« détruit »), ``names`` the names of its ``objects`` (ids), from
    ``names`` (id → name; the id itself when missing)."""
    rule = texts.get(event.rule)
    names = names or {}
    return {
        "rule": event.rule,
        "action": event.action.value,
        "label": event.action.label,
        "objects": list(event.objects),
        "names": [names.get(object_id, object_id) for object_id in event.objects],
        "players": list(event.players),
        "text": rule.text if rule else "",
        "reason": event.reason,
        "regeneration": event.action.regeneration,
        "see_also": list(event.see_also),
        "counters": dict(event.counters),
    }


def stopped_dict(number: int, stopped, texts: dict[str, Rule], names: dict[str, str] | None = None) -> dict[str, Any]:
    """A state-based event an effect that changes the rules stopped
    (:class:`rules_kb.checker.state_based.Stopped`): ``{"check", "label",
    "ability", "by", "by_names", "rules", "event"}``, ``label`` what does not
    happen, in French, ``by`` the ids of the permanents that stopped it and
    ``by_names`` their names, ``event`` shaped as :func:`event_dict`."""
    names = names or {}
    return {
        "check": number,
        "label": stopped.event.action.stopped_label,
        "ability": stopped.ability,
        "by": list(stopped.sources),
        "by_names": [names.get(object_id, object_id) for object_id in stopped.sources],
        "rules": list(stopped.rules),
        "event": event_dict(stopped.event, texts, names),
    }


def check_dict(report: CheckReport, full_trace: bool | None = None) -> dict[str, Any]:
    """``check``: the scenario's state-based effects (see docs/reference/json.md for the shape);
    the layers' trace summarised unless ``full_trace`` (None: the report's own
    ``full_trace``; :func:`layering_dict`; ``trace`` says which). Raises
    :class:`rules_kb.checker.report.TraceTooLargeError` for a full trace beyond
    :data:`rules_kb.checker.report.FULL_TRACE_LIMIT`."""
    if full_trace is None:
        full_trace = report.full_trace
    if full_trace:
        from rules_kb.checker.report import check_trace_size  # deferred: the checker, for check alone

        check_trace_size(report.layering)
    resolution = report.resolution
    outcome = resolution.outcome
    names = {obj.id: obj.name for obj in resolution.initial.objects}
    return {
        "edition": resolution.edition.id,
        "edition_name": resolution.edition.name,
        "scenario": report.scenario.path or None,
        "title": report.scenario.title,
        "initial": game_state_dict(resolution.initial, resolution.initial_layering),
        "rounds": [
            {"events": [event_dict(event, report.texts, names) for event in round_.events]}
            for round_ in resolution.rounds
        ],
        "stopped": [stopped_dict(number, stopped, report.texts, names) for number, stopped in resolution.stopped],
        "final": game_state_dict(resolution.final, resolution.final_layering),
        "outcome": {
            "losers": list(outcome.losers),
            "draw": outcome.draw,
            "winners": list(outcome.winners),
            "rule": resolution.edition.draw_rule if outcome.draw else None,
        },
        "rules": [
            {"number": number, "edition": rule.edition, "text": rule.text, "source": source_dict(rule.source)}
            for number, rule in report.texts.items()
        ],
        **layering_dict(report.layering, full_trace),
        "trace": "complète" if full_trace else "résumée",
        "switch_ruling": ruling_dict(report.switch_ruling) if report.switch_ruling else None,
    }


def examples_dict(examples) -> dict[str, Any]:
    """``check --example``: ``{"examples": [{"name", "title"}]}``."""
    return {"examples": [{"name": example.name, "title": example.title} for example in examples]}


def example_dict(example) -> dict[str, Any]:
    """``check --example NOM``: ``{"name", "title", "text"}`` (the TOML text)."""
    return {"name": example.name, "title": example.title, "text": example.text}


def export_dict(exported: Exported) -> dict[str, Any]:
    """``export --json``: ``{"format", "output", "files", "rules",
    "glossary", "cards", "notes", "warnings", "content"}``: where it was
    written (``output`` null: standard output, the exported text then in
    ``content``), a rulebook's page names (``files``), the keys of the
    exported rules (``"2004:420.5c"``), the glossary terms and card names,
    the number of notes, and the selection's warnings."""
    excerpt = exported.excerpt
    return {
        "format": exported.format,
        "output": str(exported.output) if exported.output else None,
        "files": list(exported.files),
        "rules": [entry.rule.key for entry in excerpt.rules] if excerpt else [],
        "glossary": [item.entry.term for item in excerpt.glossary] if excerpt else [],
        "cards": [item.card.name for item in excerpt.cards] if excerpt else [],
        "notes": len(excerpt.notes) if excerpt else 0,
        "warnings": list(excerpt.header.warnings) if excerpt else [],
        "content": exported.data.decode("utf-8") if exported.output is None and excerpt else None,
    }


def error_dict(error: Exception, message: str | None = None) -> dict[str, Any]:
    """``{"error": {"type", "message"}}``: what ``--json`` prints on a user
    error (``message``: as the front end words it, else ``str(error)``); a
    scenario error adds ``"file"``, ``"line"`` (null if unknown), ``"key"``
    (those of its first mistake) and ``"problems"``: every mistake of the
    file as ``{"message", "line", "key"}``."""
    data = {"type": type(error).__name__, "message": str(error) if message is None else message}
    if type(error).__name__ == "ScenarioError":
        data.update(file=error.path or None, line=error.line or None, key=error.key or None)
        data["problems"] = [
            {"message": problem.detail, "line": problem.line or None, "key": problem.key or None}
            for problem in error.problems
        ]
    return {"error": data}


def neighbourhood_dict(hood: Neighbourhood) -> dict[str, Any]:
    """``graph --json``: ``{"center", "depth", "truncated", "nodes": [{"id",
    "kind", "label"}], "edges": [{"source", "target", "relation", "score",
    "text"}]}``."""
    return {
        "center": hood.center,
        "depth": hood.depth,
        "truncated": hood.truncated,
        "nodes": [
            {"id": node, "kind": node.partition(":")[0], "label": text}
            for (node, _record), text in zip(hood.nodes, hood.labels)
        ],
        "edges": [edge_dict(edge) for edge in hood.edges],
    }


def edge_dict(edge: Edge) -> dict[str, Any]:
    """``{"source", "target", "relation", "score", "text"}``."""
    return {"source": edge.source, "target": edge.target, "relation": edge.relation.value, "score": edge.score,
            "text": edge.text}  # fmt: skip
