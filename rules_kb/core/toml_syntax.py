"""TOML syntax errors in French, for every TOML file a user writes: the
corpus manifest (:mod:`rules_kb.core.corpus`) and the scenarios of the
checker (:mod:`rules_kb.checker.scenario`).

:mod:`tomllib` words its errors in English (``Invalid value (at line 3,
column 7)``); :func:`describe` turns one into a French sentence and the
line at fault.

>>> import tomllib
>>> try:
...     tomllib.loads('x = [1, 2')
... except tomllib.TOMLDecodeError as error:
...     describe(error, 'x = [1, 2')
('TOML invalide (à la fin du fichier) : liste non fermée (« ] » manquant).', 1)
"""

from __future__ import annotations

import re
import tomllib

from rules_kb.core.text import spaced

#: tomllib's messages (without their position) and their French, in the
#: order they are tried; ``\1`` is the part of the message kept.
MESSAGES = (
    (r"Invalid value", "valeur invalide (un texte doit être entre guillemets, une liste entre crochets)"),
    (r"Expected '=' after a key in a key/value pair", "« = » attendu après la clé"),
    (r"Cannot declare (.*) twice", r"la table \1 est déclarée deux fois"),
    (r"Cannot overwrite a value", "cette clé a déjà une valeur (clé écrite deux fois ?)"),
    (r"Cannot (?:mutate|redefine) .*", "cette table ou clé est déjà définie"),
    (r"Expected '\]' at the end of a table declaration", "« ] » attendu à la fin du nom de table"),
    (r"Expected '\]\]' at the end of an array declaration", "« ]] » attendu à la fin du nom de table"),
    (r"Unclosed array", "liste non fermée (« ] » manquant)"),
    (r"Unclosed inline table", "table en ligne non fermée (« } » manquant)"),
    (r"Duplicate inline table key (.*)", r"clé \1 écrite deux fois dans la table en ligne"),
    (r"Unterminated string", "texte non terminé (guillemet fermant manquant)"),
    (r"Illegal character '\\n'", "texte non terminé (guillemet fermant manquant avant la fin de la ligne)"),
    (r"Illegal character (.*)", r"caractère interdit \1"),
    (r"Found invalid character (.*)", r"caractère inattendu \1"),
    (r"Invalid statement", "instruction invalide (attendu : clé = valeur, ou [table], ou [[table]])"),
    (r"Invalid initial character for a key part", "une clé doit commencer par une lettre, un chiffre ou un guillemet"),
    (r"Expected newline or end of document after a statement", "fin de ligne attendue après la valeur"),
    (r"Unescaped '\\' in a string", "barre oblique inverse « \\ » non échappée dans un texte"),
    (r"Invalid (?:hex value|date or datetime)", "valeur invalide"),
    (r"Expected (.*)", r"\1 attendu"),
)  # fmt: skip
_POSITION_RE = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$")


def describe(error: tomllib.TOMLDecodeError, text: str) -> tuple[str, int]:
    """The French sentence for a TOML syntax ``error`` in ``text``, and the
    1-based line at fault (the last line for an error at the end of the
    file; 0 when tomllib gives no position).

    The sentence starts with ``TOML invalide``, says the column when known,
    and ends with a full stop; a message tomllib may word in a new way is
    kept in English inside the French sentence.
    """
    message = str(error)
    line = 0
    column = ""
    position = _POSITION_RE.search(message)
    if position:
        message = message[: position.start()]
        if position.group(1):
            line = int(position.group(1))
            column = f" (colonne {position.group(2)})"
        else:
            column = " (à la fin du fichier)"
            line = len(text.rstrip().splitlines()) or 1
    for pattern, french in MESSAGES:
        if re.fullmatch(pattern, message):
            message = re.sub(pattern, french, message)
            break
    else:
        message = f"erreur de syntaxe TOML ({message})"
    return f"TOML invalide{column} : {message}.", line


#: How deep arrays and inline tables may nest, and how long a line may be,
#: in a TOML file a user writes: beyond, :mod:`tomllib` recurses until
#: ``RecursionError`` or takes minutes (a 100 000-part dotted key), so the
#: text is refused before parsing. Real files nest 3 deep, lines < 500.
MAX_DEPTH = 32
MAX_LINE = 10_000

_TOKENS = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*(?:"{3,5}|\Z)'  # multi-line basic string (up to 2 quotes before its end)
    r"|'''.*?(?:'{3,5}|\Z)"  # multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*"?'  # basic string
    r"|'[^'\n]*'?"  # literal string
    r"|#[^\n]*"  # comment
    r"|[\[\]{}]",
    re.DOTALL,
)


def refused(text: str) -> tuple[str, int] | None:
    """Why ``text`` is refused before :mod:`tomllib` reads it, in French,
    with the line at fault, or None: arrays or inline tables nested more
    than :data:`MAX_DEPTH` deep (strings and comments skipped), or a line
    longer than :data:`MAX_LINE` characters. Linear in the text.

    >>> refused('x = ' + '[' * 40 + ']' * 40)
    ('listes ou tables imbriquées sur plus de 32 niveaux ; simplifiez le fichier.', 1)
    >>> refused('x = "[[[["') is None
    True
    """
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE:
            size, limit = spaced(len(line)), spaced(MAX_LINE)
            return (
                (
                    f"ligne de {size} caractères ; au plus {limit} par ligne "
                    "(une clé ou une valeur trop longue) : raccourcissez-la."
                ),
                number,
            )
    depth = 0
    for token in _TOKENS.finditer(text):
        kind = token.group()
        if kind in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return (
                    f"listes ou tables imbriquées sur plus de {MAX_DEPTH} niveaux ; simplifiez le fichier.",
                    text.count("\n", 0, token.start()) + 1,
                )
        elif kind in ("]", "}"):
            depth = max(depth - 1, 0)
    return None
