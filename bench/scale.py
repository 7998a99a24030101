"""How rules-kb scales with the corpus: 1×, 4× and 10× the rules.

    python bench/scale.py                  # the table
    python bench/scale.py --check          # exit code 1 when a limit is not met
    python bench/scale.py --scales 1,4

For each scale N, a corpus is made in a temporary folder: the bundled corpus,
plus the 2004 rules repeated N − 1 times as other editions (``2004.2`` …,
documents ``cr-2004-2`` …, each a ``rules`` document of the manifest). Then,
in new processes with ``--corpus`` and a temporary cache: the first build
(``rules-kb index``), ``show 420.5c`` and ``ask "ma 2/2 a pris 2 dégâts
elle meurt ?"`` (medians). Limits (issue 17): the 10× build takes at most
12 times the 1× build; ``show`` and ``ask`` at 10× at most 1.3 times their
1× time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "ma 2/2 a pris 2 dégâts elle meurt ?"
#: (what, limit as a ratio to the 1× time).
LIMITS = {"construction": 12.0, "show": 1.3, "ask": 1.3}


def make_corpus(folder: Path, scale: int) -> Path:
    """The bundled corpus with the 2004 rules repeated as ``scale - 1`` other editions."""
    shutil.copytree(ROOT / "corpus", folder)
    manifest = folder / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    start = text.index("[[document]]\nid = \"cr-2004\"")
    entry = text[start : text.index("[[document]]", start + 1)]
    extra = []
    for copy in range(2, scale + 1):
        name = f"regles-completes-2004-{copy}.txt"
        shutil.copyfile(folder / "regles-completes-2004.txt", folder / name)
        extra.append(
            entry.replace('id = "cr-2004"', f'id = "cr-2004-{copy}"')
            .replace('file = "regles-completes-2004.txt"', f'file = "{name}"')
            .replace('edition = "2004"', f'edition = "2004.{copy}"')
        )
    manifest.write_text(text + "\n" + "\n".join(extra), encoding="utf-8")
    return folder


def _time(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def measure(script: str, scale: int, runs: int) -> dict[str, float]:
    """Median times (seconds) of the build, ``show`` and ``ask`` at ``scale``."""
    with tempfile.TemporaryDirectory(prefix="rules-kb-scale-") as work:
        corpus = make_corpus(Path(work) / "corpus", scale)
        builds = []
        for _ in range(1 if scale >= 10 else 3):
            home = tempfile.mkdtemp(dir=work)
            env = {**__import__("os").environ, "RULES_KB_HOME": home}
            builds.append(_time([script, "index", "--corpus", str(corpus)], env))
        show = [_time([script, "show", "420.5c", "--corpus", str(corpus)], env) for _ in range(runs)]
        ask = [_time([script, "ask", QUESTION, "--corpus", str(corpus)], env) for _ in range(runs)]
    return {"construction": statistics.median(builds), "show": statistics.median(show), "ask": statistics.median(ask)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", default="1,4,10", help="les échelles, séparées par des virgules (1,4,10)")
    parser.add_argument("--runs", type=int, default=7, help="mesures de show et ask par échelle (7)")
    parser.add_argument("--check", action="store_true", help="code de sortie 1 si une limite n'est pas tenue")
    parser.add_argument("--rules-kb", default=str(Path(sys.executable).with_name("rules-kb")), help="le script rules-kb")
    options = parser.parse_args()
    scales = [int(scale) for scale in options.scales.split(",")]
    results = {scale: measure(options.rules_kb, scale, options.runs) for scale in scales}
    first = results[scales[0]]
    print(f"{'échelle':<8} {'construction':>14} {'show':>10} {'ask':>10}   (rapport à l'échelle {scales[0]})")
    failed = False
    for scale in scales:
        row = results[scale]
        cells = []
        for what in ("construction", "show", "ask"):
            ratio = row[what] / first[what]
            cells.append(f"{row[what] * 1000:>7.0f} ms ×{ratio:<5.2f}")
            if scale == 10 and scales[0] == 1 and ratio > LIMITS[what]:
                failed = True
        print(f"{scale:<8} " + " ".join(cells))
    if 10 in results and scales[0] == 1:
        print("Limites à 10× : construction ≤ 12 ×, show ≤ 1,3 ×, ask ≤ 1,3 × le temps à 1× — "
              + ("DÉPASSÉES" if failed else "tenues"))  # fmt: skip
    return 1 if options.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
