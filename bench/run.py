"""Whole-process timings of rules-kb commands: median of several runs.

Usage (from the project root, after ``pip install -e .``)::

    python bench/run.py            # 7 runs each
    python bench/run.py --runs 15 --json

Each command runs as a user runs it: a new ``rules-kb`` process, the index
already built (a first untimed run builds it), output discarded, the
project's modules compiled to bytecode first (as an installed package has
them). The index
build is timed as ``rules-kb index`` (a full rebuild). The cache lives in a
temporary RULES_KB_HOME so the user's cache is left alone.

Budgets on a 2-core machine: show ≤ 150 ms, define ≤ 200 ms, search, ask (with and without
the checker), check and an HTML export ≤ 300 ms, the Markdown export of a question
(ask + export) ≤ 400 ms, the whole offline rulebook ≤ 3 s, build ≤ 10 s. Exit code 1 if a median is over its budget.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: (name, arguments, budget in seconds)
CASES = (
    ("show", ["show", "420.5c"], 0.150),
    ("search", ["search", "blessures fatales"], 0.300),
    ("define", ["define", "contrecarer"], 0.200),  # + rapidfuzz import (~20 ms) for typo tolerance
    ("ask", ["ask", "ma 2/2 a pris 2 dégâts elle meurt ?"], 0.300),
    ("ask (sans vérification)", ["ask", "il a trample et je bloque avec une 1/1"], 0.300),
    ("check", ["check", "{home}/blessures-fatales.toml"], 0.300),  # a bundled example, copied
    ("layers", ["check", "{home}/couches-dependance.toml"], 0.300),  # layers with a dependency
    ("export (HTML)", ["export", "420.5", "--format", "html"], 0.300),
    ("export (question, md)", ["export", "--ask", "ma 2/2 a pris 2 dégâts", "--format", "md"], 0.400),
    ("export --all (livre)", ["export", "--all", "-o", "{home}/livre", "--force"], 3.0),
    ("build", ["index"], 10.0),
)


def _script() -> str:
    beside = Path(sys.executable).with_name("rules-kb")
    found = str(beside) if beside.exists() else shutil.which("rules-kb")
    if not found:
        sys.exit("rules-kb introuvable : installez le projet (pip install -e .) puis relancez.")
    return found


def _time(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (default 7)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    options = parser.parse_args()

    script = _script()
    # Bytecode as an installed package has it: an editable install (or
    # PYTHONDONTWRITEBYTECODE) would otherwise compile every module in every run.
    root = Path(__file__).resolve().parent.parent
    for package in ("rules_kb", "cli", "indexer"):
        compileall.compile_dir(str(root / package), quiet=1)
    with tempfile.TemporaryDirectory(prefix="rules-kb-bench-") as home:
        env = dict(os.environ, RULES_KB_HOME=home)
        subprocess.run([script, "index"], env=env, stdout=subprocess.DEVNULL, check=True)
        for example in ("blessures-fatales", "couches-dependance"):
            with open(Path(home) / f"{example}.toml", "wb") as scenario:
                subprocess.run([script, "check", "--example", example], env=env, stdout=scenario, check=True)
        results = []
        for name, args, budget in CASES:
            args = [arg.format(home=home) for arg in args]
            runs = max(3, options.runs // 2) if name == "build" else options.runs
            times = [_time([script, *args], env) for _ in range(runs)]
            median = statistics.median(times)
            results.append(
                {
                    "name": name,
                    "runs": runs,
                    "median_ms": round(median * 1000, 1),
                    "min_ms": round(min(times) * 1000, 1),
                    "max_ms": round(max(times) * 1000, 1),
                    "budget_ms": round(budget * 1000),
                    "ok": median <= budget,
                }
            )
    if options.json:
        print(json.dumps({"python": sys.version.split()[0], "results": results}, indent=2))
    else:
        print(f"{'commande':<24} {'médiane':>10} {'min':>10} {'max':>10} {'budget':>10}")
        for row in results:
            flag = "ok" if row["ok"] else "DÉPASSÉ"
            print(
                f"{row['name']:<24} {row['median_ms']:>8} ms {row['min_ms']:>7} ms "
                f"{row['max_ms']:>7} ms {row['budget_ms']:>7} ms  {flag}"
            )
    return 0 if all(row["ok"] for row in results) else 1


if __name__ == "__main__":
    sys.exit(main())
