"""Write the list of real French words (:mod:`rules_kb.engines.french`), as package data.

    .venv/bin/python bench/french_words.py          # rewrite rules_kb/data/french-words.txt
    .venv/bin/python bench/french_words.py --check  # exit 1 when it is out of date

Needs ``wordfreq`` (the ``test`` and ``train`` extras): every word of its
French list with a Zipf frequency of at least
:data:`rules_kb.engines.french.MIN_ZIPF`, of
:data:`rules_kb.engines.french.MIN_LENGTH` letters or more, letters only,
folded, sorted. ``tests/test_french.py`` fails when the file is not this.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_kb.core.text import fold
from rules_kb.engines import french


def listed() -> str:
    """The file's text: a first line saying how it was made, then the words."""
    from importlib.metadata import version

    from wordfreq import iter_wordlist, zipf_frequency

    words = set()
    for word in iter_wordlist("fr"):
        if zipf_frequency(word, "fr") < french.MIN_ZIPF:
            break  # the list is by decreasing frequency
        if len(word) >= french.MIN_LENGTH and word.isalpha():
            words.add(fold(word))
    head = f"# wordfreq {version('wordfreq')}, fr, zipf >= {french.MIN_ZIPF}, {french.MIN_LENGTH}+ lettres, replié"
    return "\n".join([head, *sorted(words)]) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description="Écrire la liste des mots français réels (fautes de frappe).")
    parser.add_argument("--check", action="store_true", help="vérifier seulement que la liste est à jour")
    args = parser.parse_args()
    text = listed()
    if args.check:
        try:
            fresh = french.WORDS_FILE.read_text(encoding="utf-8") == text
        except (OSError, ValueError):
            fresh = False
        print("à jour" if fresh else "périmée : relancez bench/french_words.py")
        return 0 if fresh else 1
    french.WORDS_FILE.write_bytes(text.encode("utf-8"))
    print(f"écrit : {french.WORDS_FILE} ({text.count(chr(10)) - 1} mots)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
