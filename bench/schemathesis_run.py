"""The HTTP API against its own OpenAPI document: schemathesis, every check, thousands of requests.

Usage (from the project root, after ``pip install -e '.[bench]'``)::

    python bench/schemathesis_run.py                  # >= 4,000 requests: the table; exit code 1 on any failure
    python bench/schemathesis_run.py --requests 8000 --seed 1
    python bench/schemathesis_run.py --json           # the figures as JSON

The server runs as a user runs it: ``rules-kb serve`` in a subprocess on a
free loopback port (its cache in a temporary RULES_KB_HOME, built first).
schemathesis then reads ``/api/openapi.json`` and runs its phases (coverage,
fuzzing, stateful) with ``--checks all``: every answer is checked against the
document (status declared, content type, headers such as a 405's ``Allow``,
JSON schema of the body), values the document allows must be accepted and
values it refuses must be refused, an undeclared method must be a 405, and no
answer may be a 5xx.

Two settings say what the document means, both read from it:

- a 422 an operation declares is its refusal of content no schema can
  express (a search without a significant word, a scenario that is not
  one): ``positive_data_acceptance`` accepts it for that operation only;
- a 413 or 414 (the server's size limits, declared on every address) is a
  refusal: ``negative_data_rejection`` accepts them with its own list.

This file is also schemathesis's hooks module (``hooks`` in the generated
configuration): the ``application/toml`` body of ``POST /api/check`` is sent
as UTF-8 text, and the fuzzing sends, besides random texts (one body in
four), real scenarios (the bundled examples read from ``GET /api/examples``,
and variants of them with a number changed or a line left out) so that the
checker itself is reached, not only the TOML reader.

The table (per operation: requests, statuses, 5xx, failures by check) is
made from schemathesis's NDJSON report, every request it sent counted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path

#: Where the hooks read the served API (set by :func:`run` for schemathesis's process).
URL_VARIABLE = "RULES_KB_SCHEMATHESIS_URL"
#: The statuses schemathesis's ``negative_data_rejection`` takes as a refusal by default (its own list).
NEGATIVE_DEFAULT = ["400", "401", "403", "404", "405", "406", "409", "415", "422", "428", "429", "5xx"]
#: Those of ``positive_data_acceptance``.
POSITIVE_DEFAULT = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
#: The server's size limits, declared on every address: refusals too.
SIZE_LIMITS = ["413", "414"]


# -- the hooks (loaded by schemathesis from this file) ---------------------------------------


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read().decode("utf-8"))


def bundled_scenarios(base: str) -> list[str]:
    """The TOML texts of the bundled examples, as the API serves them (``GET /api/examples`` then each one)."""
    names = [example["name"] for example in _get(f"{base}/api/examples")["examples"]]
    return [_get(f"{base}/api/examples/{name}")["text"] for name in names]


def _variant(text: str, number: int, line: int) -> str:
    """``text`` with its ``line``-th integer replaced by ``number``, or (negative ``number``) its ``line``-th
    line left out: a scenario still in TOML, often still valid, sometimes refused for its content."""
    if number < 0:
        lines = text.splitlines(keepends=True)
        return "".join(lines[: line % len(lines)] + lines[line % len(lines) + 1 :]) or text
    found = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", text))
    if not found:
        return text
    match = found[line % len(found)]
    return text[: match.start()] + str(number) + text[match.end() :]


def _install_hooks() -> None:
    import schemathesis
    from hypothesis import strategies as st

    schemathesis.serializer.alias("application/toml", "text/plain")
    base = os.environ.get(URL_VARIABLE)
    if not base:
        return
    texts = bundled_scenarios(base)
    scenarios = st.one_of(
        st.sampled_from(texts),
        st.builds(_variant, st.sampled_from(texts), st.integers(-1, 30), st.integers(0, 200)),
    )

    @schemathesis.hook("flatmap_case")
    def real_scenarios(context, case):
        """``POST /api/check``: its generated body kept once in four, else a real scenario in its place."""
        if case.method.upper() != "POST" or case.path != "/api/check" or not isinstance(case.body, str):
            return st.just(case)

        def with_body(text: str):
            derived = case.derive()
            derived.body = text
            return derived

        return st.integers(0, 3).flatmap(lambda draw: st.just(case) if draw == 0 else scenarios.map(with_body))


if __name__ == "_schemathesis_hooks":  # the name schemathesis loads a hooks file under
    _install_hooks()


# -- the run ---------------------------------------------------------------------------------


def configuration(document: dict, hooks: Path) -> str:
    """schemathesis's configuration (TOML) for ``document``: the hooks, the size limits as refusals, and
    for each operation that declares a 422 that status as a refusal of content a schema cannot express."""
    lines = [
        f"hooks = {json.dumps(str(hooks))}",
        "",
        "[checks.negative_data_rejection]",
        f"expected-statuses = {json.dumps(NEGATIVE_DEFAULT + SIZE_LIMITS)}",
    ]
    for item in document["paths"].values():
        for described in item.values():
            if "422" in described["responses"]:
                lines += [
                    "",
                    "[[operations]]",
                    f"include-operation-id = {json.dumps(described['operationId'])}",
                    f"checks.positive_data_acceptance.expected-statuses = {json.dumps(POSITIVE_DEFAULT + ['422'])}",
                ]
    return "\n".join(lines) + "\n"


def _templates(document: dict) -> list[tuple[re.Pattern, str, tuple[str, ...]]]:
    """Each path of the document as a regular expression over a request's path and query, with its methods."""
    found = []
    for path, item in document["paths"].items():
        pattern = re.sub(r"\\\{\w+\\\}", "[^?]*", re.escape(path))
        found.append((re.compile(rf"^{pattern}(?:\?.*)?$"), path, tuple(method.upper() for method in item)))
    return found


def _label(templates, method: str, uri: str) -> str:
    """The operation a request was sent to (``"GET /api/search"``): its path's, the method sent if the
    document declares it there, else the path's own (a probe with an undeclared method counts for it)."""
    path = re.sub(r"^https?://[^/]+", "", uri)
    for pattern, template, methods in templates:
        if pattern.match(path):
            return f"{method if method in methods else '/'.join(methods)} {template}"
    return f"{method} {path[:60]}"


def tally(report: Path, document: dict) -> dict:
    """Per operation (``"GET /api/search"``): requests, statuses, 5xx, failures by check; from the NDJSON
    report (each case counted once, its last recorded interaction); ``errors``: schemathesis's own."""
    templates = _templates(document)
    interactions: dict[str, tuple[str, str, int]] = {}
    failures: dict[str, Counter] = defaultdict(Counter)
    checks_run: set[str] = set()
    errors: list[str] = []
    for line in report.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if "NonFatalError" in event:
            error = event["NonFatalError"]
            errors.append(f"{error.get('label', '?')}: {str(error.get('info', error))[:200]}")
        finished = event.get("ScenarioFinished")
        if not finished:
            continue
        recorder = finished.get("recorder") or {}
        for case_id, interaction in (recorder.get("interactions") or {}).items():
            request, response = interaction.get("request") or {}, interaction.get("response")
            label = _label(templates, request.get("method", "").upper(), request.get("uri", ""))
            interactions[case_id] = (label, request.get("method", ""), response["status_code"] if response else 0)
        for case_id, results in (recorder.get("checks") or {}).items():
            label = interactions.get(case_id, ("?",))[0]
            for result in results:
                checks_run.add(result["name"])
                if result["status"] == "failure":
                    failures[label][result["name"]] += 1
    operations: dict[str, dict] = {}
    for label, _method, code in interactions.values():
        row = operations.setdefault(label, {"requests": 0, "statuses": Counter(), "5xx": 0, "failures": Counter()})
        row["requests"] += 1
        row["statuses"][str(code)] += 1
        row["5xx"] += 500 <= code < 600 or code == 0
    for label, counted in failures.items():
        operations.setdefault(label, {"requests": 0, "statuses": Counter(), "5xx": 0, "failures": Counter()})
        operations[label]["failures"].update(counted)
    return {
        "requests": sum(row["requests"] for row in operations.values()),
        "failures": sum(sum(row["failures"].values()) for row in operations.values()),
        "5xx": sum(row["5xx"] for row in operations.values()),
        "checks": sorted(checks_run),
        "errors": errors,
        "operations": {
            label: {**row, "statuses": dict(sorted(row["statuses"].items())), "failures": dict(row["failures"])}
            for label, row in sorted(operations.items(), key=lambda item: item[0].split(" ", 1)[::-1])
        },
    }


def table(figures: dict) -> str:
    """The figures as a Markdown table, one row per operation, and a total."""
    rows = [
        "| Opération | Requêtes | Réponses par code | 5xx | Échecs par vérification |",
        "|---|---:|---|---:|---|",
    ]
    for label, row in figures["operations"].items():
        statuses = ", ".join(f"{code} : {count}" for code, count in row["statuses"].items())
        failed = ", ".join(f"{name} : {count}" for name, count in sorted(row["failures"].items())) or "aucun"
        rows.append(f"| `{label}` | {row['requests']} | {statuses} | {row['5xx']} | {failed} |")
    rows.append(f"| **total** | **{figures['requests']}** | | **{figures['5xx']}** | **{figures['failures']}** |")
    return "\n".join(rows)


def _start(home: str):
    """``rules-kb serve`` on a free loopback port (the index built first); returns ``(process, base URL)``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.serve_load import _free_port, _start

    port = _free_port()
    return _start(port, home), f"http://127.0.0.1:{port}"


def run(requests: int, seed: int | None, workers: int, report_dir: Path) -> tuple[dict, int, str]:
    """Start a server, run schemathesis against it until at least ``requests`` requests were sent (its
    ``--max-examples`` raised until then), stop the server; returns the figures, schemathesis's exit code
    and the end of its output."""
    with tempfile.TemporaryDirectory(prefix="rules-kb-schemathesis-") as home:
        server, base = _start(home)
        try:
            document = _get(f"{base}/api/openapi.json")
            config = Path(home) / "schemathesis.toml"
            config.write_text(configuration(document, Path(__file__).resolve()), encoding="utf-8")
            # read from a file: from its URL, schemathesis leaves out the address that serves it
            schema = Path(home) / "openapi.json"
            schema.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
            per_operation = max(50, requests // len([m for item in document["paths"].values() for m in item]))
            while True:
                ndjson = report_dir / "schemathesis.ndjson"
                ndjson.unlink(missing_ok=True)
                command = [
                    sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run",
                    str(schema), "--url", base, "--checks", "all", "--max-examples", str(per_operation),
                    "--workers", str(workers), "--no-color", "--generation-database", "none",
                    "--report", "ndjson", "--report-ndjson-path", str(ndjson), "--request-timeout", "30",
                    *(("--seed", str(seed)) if seed is not None else ()),
                ]  # fmt: skip
                env = {**os.environ, URL_VARIABLE: base, "RULES_KB_HOME": home}
                done = subprocess.run(command, check=False, env=env, capture_output=True, text=True, cwd=home)
                figures = tally(ndjson, document)
                if figures["requests"] >= requests or per_operation >= 20 * requests:
                    break
                per_operation *= 2
        finally:
            server.terminate()
            server.wait(10)
    figures["max_examples"] = per_operation
    output = done.stdout + done.stderr
    figures["seed"] = int(found[1]) if (found := re.search(r"^Seed: (\d+)", output, re.MULTILINE)) else seed
    return figures, done.returncode, output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=4000, help="the fewest requests to send (4,000)")
    parser.add_argument("--seed", type=int, help="schemathesis's seed (a run repeats with the same one)")
    # One worker: with several, hypothesis describes its filters by parsing source in threads, which
    # CPython 3.11's parser does not bear (« AST constructor recursion depth mismatch », a run error).
    parser.add_argument("--workers", type=int, default=1, help="schemathesis's concurrent workers (1)")
    parser.add_argument("--report-dir", help="keep the NDJSON report and schemathesis's output there")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rules-kb-schemathesis-report-") as scratch:
        report_dir = Path(options.report_dir or scratch)
        report_dir.mkdir(parents=True, exist_ok=True)
        figures, code, output = run(options.requests, options.seed, options.workers, report_dir)
        (report_dir / "schemathesis.txt").write_text(output, encoding="utf-8")
    figures["schemathesis_exit_code"] = code
    if options.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
    else:
        print(table(figures))
        print(f"\nVérifications : {', '.join(figures['checks'])}.")
        print(f"--max-examples {figures['max_examples']}, --seed {figures['seed']} (pour rejouer ce tirage).")
        for error in figures["errors"]:
            print(f"Erreur de schemathesis : {error}")
    failed = figures["failures"] or figures["5xx"] or figures["errors"] or code != 0
    failed = failed or figures["requests"] < options.requests
    if failed:
        summary = output[output.find("=== FAILURES") :] if "=== FAILURES" in output else output[-3000:]
        print("\n" + "\n".join(line[:300] for line in summary.splitlines()[:200]), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
