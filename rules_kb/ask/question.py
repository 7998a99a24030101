"""The question of ``ask``: how long it may be, and reading it from a file
or standard input (a story pasted from a message, a ruling request)."""

from __future__ import annotations

import sys

from rules_kb.core.errors import QueryError, describe_os_error
from rules_kb.core.files import STDIN
from rules_kb.core.text import spaced

#: The longest question read, in characters (as the command line allows
#: for one argument): a situation is told in a few sentences, and a longer
#: text would take seconds to read.
MAX_QUESTION = 2_000


def check_length(question: str) -> None:
    """Raise :class:`QueryError` (in French) when ``question`` is longer than
    :data:`MAX_QUESTION` characters."""
    if len(question) > MAX_QUESTION:
        raise QueryError(
            f"La question fait {spaced(len(question))} caractères ; {spaced(MAX_QUESTION)} au plus. "
            "Décrivez la situation en quelques phrases."
        )


def read_question(path: str) -> str:
    """The question written in the UTF-8 text file at ``path`` (``"-"``:
    standard input), without its surrounding blanks.

    At most 4 × :data:`MAX_QUESTION` + 1 bytes are read (a character is at
    most 4 bytes in UTF-8), so a 1 MB file or ``/dev/zero`` is refused at
    once. Raises :class:`QueryError` when the file cannot be read, is not
    UTF-8 or holds a question over :data:`MAX_QUESTION` characters.
    """
    most = 4 * MAX_QUESTION + 1
    shown = "l'entrée standard" if path == STDIN else f"« {path} »"
    try:
        if path == STDIN:
            data = sys.stdin.buffer.read(most)
        else:
            with open(path, "rb") as stream:
                data = stream.read(most)
    except IsADirectoryError:
        raise QueryError(
            f"Lecture de la question impossible : {shown} est un dossier ; donnez un fichier texte."
        ) from None
    except OSError as error:
        raise QueryError(f"Lecture de la question impossible dans {shown} : {describe_os_error(error)}.") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if len(data) < most or error.start < len(data) - 3:  # else a character cut by the limit
            raise QueryError(
                f"La question lue dans {shown} n'est pas en UTF-8 (octet {error.start + 1}) ; "
                "enregistrez-la en UTF-8 et réessayez."
            ) from None
        text = data[: error.start].decode("utf-8-sig")
    if len(data) == most:
        raise QueryError(
            f"La question lue dans {shown} dépasse {spaced(MAX_QUESTION)} caractères (lecture arrêtée à "
            f"{spaced(most)} octets). Décrivez la situation en quelques phrases."
        )
    question = text.strip()
    check_length(question)
    return question
