"""Whole-process timings of rules-kb commands, as ratios to ``python -c pass``.

Usage (from the project root, after ``pip install -e .``)::

    python bench/run.py                 # 9 runs each, the table
    python bench/run.py --runs 15 --json
    python bench/run.py --check         # exit code 1 when a ratio is over its budget

Each command runs as a user runs it: a new ``rules-kb`` process, the cache
already built (a first untimed run builds it), output discarded, the
project's modules compiled to bytecode first (as an installed package has
them). Every round times ``python -c pass`` (the same interpreter) and then
each command once, so that both are measured side by side on the same
machine at the same moment; the ratio is median(command) / median(python
-c pass). The build is timed as ``rules-kb index`` (a full rebuild), in
absolute time. The cache lives in a temporary RULES_KB_HOME so the user's
cache is left alone.
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

#: (name, arguments, budget: a ratio to python -c pass, or None) — the budgets of issue 17.
CASES = (
    ("show", ["show", "420.5c"], 5.0),
    ("define", ["define", "contrecarer"], 6.0),
    ("search", ["search", "blessures fatales"], 8.0),
    ("ask", ["ask", "ma 2/2 a pris 2 dégâts elle meurt ?"], 12.0),
    ("ask (sans vérification)", ["ask", "il a trample et je bloque avec une 1/1"], 12.0),
    ("check", ["check", "{home}/blessures-fatales.toml"], 8.0),  # a bundled example, copied
    ("check (couches)", ["check", "{home}/couches-dependance.toml"], 8.0),  # layers with a dependency
    ("export (HTML)", ["export", "420.5", "--format", "html"], None),
    ("export (question, md)", ["export", "--ask", "ma 2/2 a pris 2 dégâts", "--format", "md"], None),
)
#: The rebuild, timed apart (seconds): the first build of today's corpus.
BUILD_BUDGET = 2.0


def _script(path: str | None) -> str:
    if path:
        return path
    beside = Path(sys.executable).with_name("rules-kb")
    found = str(beside) if beside.exists() else shutil.which("rules-kb")
    if not found:
        sys.exit("rules-kb introuvable : installez le projet (pip install -e .) puis relancez.")
    return found


def _time(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def measure(script: str, runs: int) -> dict:
    """The timings (seconds) of :data:`CASES`, of ``python -c pass`` and of the build."""
    root = Path(__file__).resolve().parent.parent
    for package in ("rules_kb", "cli", "indexer"):
        compileall.compile_dir(str(root / package), quiet=1)
    python = str(Path(script).with_name("python")) if Path(script).with_name("python").exists() else sys.executable
    with tempfile.TemporaryDirectory(prefix="rules-kb-bench-") as home:
        env = dict(os.environ, RULES_KB_HOME=home)
        env.pop("RULES_KB_CORPUS", None)
        subprocess.run([script, "index"], env=env, stdout=subprocess.DEVNULL, check=True)
        for example in ("blessures-fatales", "couches-dependance"):
            with open(Path(home) / f"{example}.toml", "wb") as scenario:
                subprocess.run([script, "check", "--example", example], env=env, stdout=scenario, check=True)
        baseline: list[float] = []
        times: dict[str, list[float]] = {name: [] for name, _args, _budget in CASES}
        for _ in range(runs):
            baseline.append(_time([python, "-c", "pass"], env))
            for name, args, _budget in CASES:
                times[name].append(_time([script, *(arg.format(home=home) for arg in args)], env))
        builds = [_time([script, "index"], env) for _ in range(max(3, runs // 3))]
    return {"python": python, "baseline": baseline, "times": times, "builds": builds}


def table(measured: dict) -> list[dict]:
    """One row per case: medians, ratio, budget, whether it is met."""
    base = statistics.median(measured["baseline"])
    rows = []
    for name, _args, budget in CASES:
        median = statistics.median(measured["times"][name])
        ratio = median / base
        rows.append({"name": name, "median_ms": round(median * 1000, 1), "pass_ms": round(base * 1000, 1),
                     "ratio": round(ratio, 2), "budget": budget, "ok": budget is None or ratio <= budget})  # fmt: skip
    build = statistics.median(measured["builds"])
    rows.append({"name": "construction (index)", "median_ms": round(build * 1000, 1), "pass_ms": round(base * 1000, 1),
                 "ratio": round(build / base, 1), "budget": f"{BUILD_BUDGET:g} s", "ok": build <= BUILD_BUDGET})  # fmt: skip
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="mesures par commande (9 par défaut)")
    parser.add_argument("--json", action="store_true", help="résultats en JSON")
    parser.add_argument("--check", action="store_true", help="code de sortie 1 si un budget est dépassé")
    parser.add_argument("--rules-kb", help="le script rules-kb à mesurer (par défaut celui de cet environnement)")
    options = parser.parse_args()
    rows = table(measure(_script(options.rules_kb), max(3, options.runs)))
    if options.json:
        print(json.dumps({"python": sys.version.split()[0], "results": rows}, ensure_ascii=False, indent=2))
    else:
        print(f"{'commande':<26} {'médiane':>10} {'python -c pass':>15} {'ratio':>7} {'budget':>8}")
        for row in rows:
            budget = "" if row["budget"] is None else (f"≤ {row['budget']:g}×" if isinstance(row["budget"], float) else f"≤ {row['budget']}")
            flag = "" if row["budget"] is None else ("ok" if row["ok"] else "DÉPASSÉ")
            print(f"{row['name']:<26} {row['median_ms']:>7} ms {row['pass_ms']:>12} ms {row['ratio']:>6}× {budget:>8}  {flag}")
    return 1 if options.check and not all(row["ok"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
