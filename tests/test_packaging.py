"""The corpus ships inside the installed package (a non-editable install works)."""

import subprocess
import sys
import zipfile
from pathlib import Path

from rules_kb.core.corpus import load_manifest

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_contains_the_corpus(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    [wheel] = tmp_path.glob("rules_kb-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {"rules_kb/corpus/manifest.toml"} | {
        f"rules_kb/corpus/{document.file}" for document in load_manifest(ROOT / "corpus")
    }
    assert expected <= names
    assert {"rules_kb/loader.py", "rules_kb/export/book.py", "indexer/rules_inline.py", "cli/app.py"} <= names
    assert "rules_kb/export/static/livre.js" in names  # the offline rulebook's search
    assert {"rules_kb/serve/static/style.css", "rules_kb/serve/static/suggest.js"} <= set(names)  # the web app
    assert not any(name.startswith(("tests/", "bench/")) for name in names)
