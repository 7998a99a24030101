"""Concurrent first use: several processes start at once on an empty cache.

    python bench/concurrency.py                     # 8 processes at once, 20 rounds
    python bench/concurrency.py --processes 4 --rounds 2

Each round empties a fresh ``RULES_KB_HOME``, starts ``--processes``
``rules-kb show 420.5c`` at the same time, then checks that every process
answered (exit code 0, the rule on stdout, no traceback), that the home
holds one valid cache folder (its database matches its seal,
:func:`rules_kb.build.store.verify`) and that no temporary file or folder
is left. Prints one line per round and a summary; exit code 1 when a round
failed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rules_kb.build.store import DATABASE, verify  # noqa: E402

#: The command every process runs, and what its answer must hold.
COMMAND = ("show", "420.5c")
EXPECTED = "420.5c"


def one_round(processes: int) -> list[str]:
    """Run ``processes`` first uses at once on an empty home; return the problems found (empty: all well)."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="rules-kb-concurrency-") as home:
        environment = {**os.environ, "RULES_KB_HOME": home, "PYTHONPATH": str(ROOT)}
        environment.pop("RULES_KB_CORPUS", None)
        command = [sys.executable, "-c", "import sys; from cli.app import main; sys.exit(main())", *COMMAND]
        started = [
            subprocess.Popen(command, env=environment, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(processes)
        ]
        for process in started:
            out, err = process.communicate(timeout=600)
            if process.returncode != 0 or EXPECTED not in out or "Traceback" in err:
                problems.append(f"process exit {process.returncode}: {err.strip().splitlines()[-1:] or out[:80]}")
        caches = [path for path in Path(home).iterdir() if len(path.name) == 64]
        if len(caches) != 1:
            problems.append(f"{len(caches)} cache folders")
        for cache in caches:
            try:
                verify(cache / DATABASE)
            except Exception as error:  # noqa: BLE001 - reported, not raised
                problems.append(f"invalid cache {cache.name[:12]}: {error}")
        left = [str(path.relative_to(home)) for path in Path(home).rglob("*") if path.name.startswith(".")
                and path.name != ".sha256"]  # fmt: skip
        if left:
            problems.append(f"temporary files left: {left}")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Run the rounds; return 0 when every one went well, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=20)
    arguments = parser.parse_args(argv)
    failed = 0
    for number in range(1, arguments.rounds + 1):
        problems = one_round(arguments.processes)
        failed += bool(problems)
        print(f"round {number:>2}: {'ok' if not problems else '; '.join(problems)}", flush=True)
    print(f"{arguments.rounds} rounds of {arguments.processes} processes: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
