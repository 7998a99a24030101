"""Where the CLI writes: Rich in a terminal, plain text elsewhere.

The renderers (:mod:`cli.render`) build :class:`Text`, :class:`Padding` and
:class:`Table` — the few shapes of Rich they use — and print them on a
:class:`Console`. In a terminal (or when ``FORCE_COLOR`` or
``TTY_COMPATIBLE`` asks for one, as Rich reads them) the console hands them
to Rich, which styles and wraps them to the terminal's width: a wrapped line
keeps the indent of its bullet, French punctuation (« », `` :``, `` ;``,
`` ?``, `` !``) is held to its word by a non-breaking space, no line ends in
spaces, and output taller than the screen goes through a pager
(:meth:`Console.paging`). Elsewhere — a pipe, a file — Rich writes their
plain text without styles, each at its own width (Rich's measure of it):
one line per paragraph, never wrapped, no line ending in spaces.

Whatever the console's encoding, nothing crashes: :func:`prepare_streams`
makes standard output and error write what they cannot encode as its
nearest ASCII (« → ", é → e, ≤ → <=; :func:`transliterate`).
"""

from __future__ import annotations

import codecs
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import unicodedata
from contextlib import contextmanager

from rich.console import Console as RichConsole
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text as RichText

#: What the renderers build and print (:mod:`cli.render`): Rich's own shapes, and :class:`Text`.
__all__ = [
    "Console",
    "Padding",
    "Table",
    "Text",
    "french_spaces",
    "page",
    "pager_command",
    "prepare_streams",
    "screen_height",
    "transliterate",
    "visible_controls",
    "wants_terminal",
    "writes_unicode",
]  # fmt: skip

# -- the console's encoding --------------------------------------------------------------

#: The error handler :func:`prepare_streams` gives standard output and error.
ERRORS = "rules-kb-ascii"
#: ASCII for the characters the renderers and the documents use that NFKD does not reduce.
_ASCII = {
    "«": '"', "»": '"', "“": '"', "”": '"', "„": '"', "‹": "<", "›": ">", "‘": "'", "’": "'", "‚": "'",
    "—": "-", "–": "-", "‐": "-", "‑": "-", "−": "-", "…": "...", "•": "*", "·": ".", "→": "->", "←": "<-",
    "≤": "<=", "≥": ">=", "≠": "!=", "×": "x", "÷": "/", "œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE",
    "ß": "ss", "°": "o", "━": "-", "─": "-", "│": "|", "✓": "v", "✗": "x",
}  # fmt: skip


def transliterate(text: str) -> str:
    """``text`` in ASCII: typographic signs by their ASCII look-alike
    (:data:`_ASCII`), letters without their accents (Unicode NFKD), spaces
    of every width as a space, anything else as ``?``."""
    out = []
    for char in text:
        if char < "\x80":
            out.append(char)
        elif char in _ASCII:
            out.append(_ASCII[char])
        elif unicodedata.category(char) == "Zs":
            out.append(" ")
        else:
            plain = "".join(c for c in unicodedata.normalize("NFKD", char) if c < "\x80")
            out.append(plain or "?")
    return "".join(out)


def _ascii_instead(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler :data:`ERRORS`: the unencodable run, transliterated."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return transliterate(error.object[error.start : error.end]), error.end


def register_errors() -> None:
    """Register the codec error handler :data:`ERRORS` (once)."""
    try:
        codecs.lookup_error(ERRORS)
    except LookupError:
        codecs.register_error(ERRORS, _ascii_instead)


def prepare_streams() -> None:
    """Make standard output and error write, instead of raising
    :class:`UnicodeEncodeError`, the ASCII look-alike of what their encoding
    cannot hold (``PYTHONIOENCODING=ascii``, a cp1252 console, a lone
    surrogate from a badly encoded argument). A stream whose error handler
    the user chose (``PYTHONIOENCODING=ascii:replace``) is left alone."""
    register_errors()
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors=ERRORS)
            except (ValueError, OSError):  # a closed or detached stream: nothing will be written to it
                pass


def writes_unicode(stream) -> bool:
    """Whether ``stream``'s encoding holds every character (a UTF)."""
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "ascii").name.startswith("utf")
    except LookupError:
        return False


# -- French typography in wrapped text ------------------------------------------------------

#: The non-breaking space put before ``: ; ? ! »`` and after ``«`` in wrapped text.
NBSP = "\u00a0"
#: (Patterns are compiled when first used, by :mod:`re`'s cache: a plain ``show`` needs none.)
_FRENCH_SPACE = r"(?<=\S) (?=[:;?!»])|(?<=«) "


#: Control characters in text (a document's, the user's) made visible, one
#: character for one, so that no escape sequence reaches the terminal: C0
#: controls as their control pictures (ESC → ␛), DEL as ␡, C1 controls as �;
#: line feeds and tabs stay.
_VISIBLE_CONTROLS = {
    **{code: 0x2400 + code for code in range(0x20) if code not in (0x09, 0x0A)},
    0x7F: 0x2421,
    **dict.fromkeys(range(0x80, 0xA0), 0xFFFD),
}


def visible_controls(text: str) -> str:
    """``text`` with its control characters made visible (:data:`_VISIBLE_CONTROLS`):
    a terminal escape sequence in a document or an argument is printed, never run.
    One character for one: positions are kept."""
    return text.translate(_VISIBLE_CONTROLS)


def french_spaces(text: str, space: str = NBSP) -> str:
    """``text`` with the space before ``: ; ? ! »`` and after ``«`` made
    ``space`` (a non-breaking space), so that no wrapping separates French
    punctuation from its word. One character for one: positions are kept."""
    return re.sub(_FRENCH_SPACE, space, text)


#: Stands for a non-breaking space while Rich wraps: Rich breaks lines at any
#: Unicode space, U+00A0 included, and not at this private-use character.
_HELD = "\ue000"
#: The lead of a line that its wrapped lines keep as indent: spaces, then a bullet or a rank.
_LEAD = r" *(?:[•→*-] |\d{1,3}\. )?"
#: The end of a rendered line: its spaces and its style codes (a table pads each cell).
_TRAILING = r"(?m)(?:[ \u00a0]|\x1b\[[0-9;]*m)+$"


def _finished(rendered: str, held: str = NBSP) -> str:
    """Rich's rendering as written: held spaces made ``held``, no spaces at line ends."""
    return re.sub(_TRAILING, lambda end: re.sub("[ \u00a0]", "", end.group(0)), rendered.replace(_HELD, held))


class _Hanging:
    """A Rich text wrapped line by line, each line's wrapped part indented
    like the line's lead (:data:`_LEAD`: "  • ", "3. "), the whole
    indented by ``indent`` (Rich's own wrapping starts again at the margin)."""

    def __init__(self, text, indent: int = 0) -> None:
        self.text = text
        self.indent = indent

    def __rich_console__(self, console, options):
        width = max(1, options.max_width - self.indent)
        margin = " " * self.indent
        wrapping = {"overflow": options.overflow, "no_wrap": options.no_wrap}
        for line in self.text.split("\n", allow_blank=True):
            lead = len(re.match(_LEAD, line.plain).group(0))
            if lead >= width // 2 or lead == len(line.plain):
                lead = 0
            pieces = (
                line[lead:].wrap(console, width - lead, **wrapping) if lead else line.wrap(console, width, **wrapping)
            )
            for number, piece in enumerate(pieces or [RichText()]):
                start = line[:lead] if number == 0 else RichText(" " * lead)
                yield RichText.assemble(margin, start, piece, no_wrap=True, end="\n")

    def __rich_measure__(self, console, options):
        return Measurement.get(console, options, self.text).with_maximum(options.max_width)


class Text(RichText):
    """Rich's ``Text``, whose characters are made safe and French as they are
    added: control characters visible (:func:`visible_controls`), the space
    before French punctuation held to its word (:func:`french_spaces`, with a
    stand-in Rich does not break at; written back as a non-breaking space in
    a terminal, a plain space elsewhere). One character for one: the styled
    ranges stay where they are."""

    def __init__(self, text: str = "", style: str = "", **options) -> None:
        super().__init__(_held(text), style=style, **options)

    def append(self, text, style=None) -> Text:
        """Rich's ``append``, a string made safe and French first."""
        return super().append(_held(text) if isinstance(text, str) else text, style)


def _held(text: str) -> str:
    return french_spaces(visible_controls(text), _HELD)


def _rich(item):
    """``item`` as printed in a terminal: a text (alone, or indented on the left
    only) wrapped with hanging indents (:class:`_Hanging`), anything else as Rich has it."""
    if isinstance(item, str):
        item = Text(item)
    if isinstance(item, RichText):
        return _Hanging(item)
    if isinstance(item, Padding):
        top, right, bottom, left = item.top, item.right, item.bottom, item.left
        if isinstance(item.renderable, RichText) and not (top or right or bottom):
            return _Hanging(item.renderable, left)
    return item


def wants_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal, or the environment asks to write as
    to one (``FORCE_COLOR``, ``TTY_COMPATIBLE=1``, as Rich reads them)."""
    if os.environ.get("TTY_COMPATIBLE") == "1" or os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Console:
    """Prints renderables on standard output (or error, ``stderr``): through
    Rich in a terminal, as plain text otherwise (see the module docstring)."""

    def __init__(self, stderr: bool = False) -> None:
        self.stderr = stderr
        self._rich = None
        self._plain = None
        self._pages: list[str] | None = None

    @property
    def file(self):
        """The stream printed to (read at each print: tests redirect it)."""
        return sys.stderr if self.stderr else sys.stdout

    @property
    def is_terminal(self) -> bool:
        """Whether this console writes through Rich."""
        return wants_terminal(self.file)

    def rich_console(self):
        """The Rich console of a terminal behind this one."""
        if self._rich is None:
            self._rich = RichConsole(stderr=self.stderr, highlight=False)
        return self._rich

    def plain_console(self):
        """The Rich console of plain text behind this one: no styles, sized to what it prints."""
        if self._plain is None:
            self._plain = RichConsole(file=io.StringIO(), color_system=None, force_terminal=False, highlight=False)
        return self._plain

    def print(self, *items, style: str | None = None, overflow: str | None = None, no_wrap: bool | None = None) -> None:
        """Print ``items`` (strings, :class:`Text`, Rich's ``Padding`` and ``Table``) on one line each call:
        styled and wrapped to a terminal's width, or as plain text at their own width, never wrapped."""
        items = [Text(item) if isinstance(item, str) else item for item in items]
        if self.is_terminal:
            rich = self.rich_console()
            with rich.capture() as captured:
                rich.print(*(_rich(item) for item in items), style=style, overflow=overflow, no_wrap=no_wrap)
            self._write(_finished(captured.get()))
            return
        plain = self.plain_console()
        texts = all(isinstance(item, RichText) for item in items)
        if not texts:  # a table or a padding is laid out at a width: theirs, so that nothing wraps
            plain.width = 1 << 16
            plain.width = max(1, sum(plain.measure(item).maximum for item in items) + len(items))
        with plain.capture() as captured:
            plain.print(*items, soft_wrap=texts, no_wrap=True, overflow="ignore")
        self._write(_finished(captured.get(), " "))

    def _write(self, text: str) -> None:
        if self._pages is not None:
            self._pages.append(text)
        else:
            self.file.write(text)

    @contextmanager
    def paging(self, allowed: bool = True):
        """Within: what this console prints is held, then written at the end —
        through a pager (:func:`pager_command`) when it is taller than the
        screen and ``allowed``, else straight to the stream."""
        command = pager_command(self.file) if allowed else None
        if command is None or self._pages is not None:
            yield
            return
        self._pages = []
        try:
            yield
        finally:
            text, self._pages = "".join(self._pages), None
            if text.count("\n") < screen_height() or not page(text, command, self.file):
                self.file.write(text)


# -- the pager -----------------------------------------------------------------------------

#: Set (to anything but an empty string), output is never paged.
NO_PAGER_VARIABLE = "RULES_KB_NO_PAGER"


def pager_command(stream) -> str | None:
    """The pager for ``stream``, or None: only for a real terminal (not a
    pipe, nor ``FORCE_COLOR``), unless :data:`NO_PAGER_VARIABLE` is set or
    ``PAGER`` is empty or ``cat``; ``$PAGER``, else ``less -R`` (else
    ``more``) when installed."""
    if os.environ.get(NO_PAGER_VARIABLE):
        return None
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    chosen = os.environ.get("PAGER")
    if chosen is not None:
        return None if chosen.strip() in ("", "cat") else chosen
    for command, name in (("less -R", "less"), ("more", "more")):
        if shutil.which(name):
            return command
    return None


def screen_height() -> int:
    """The terminal's height in lines (``LINES``, else the terminal's own, else 24)."""
    return shutil.get_terminal_size().lines


def page(text: str, command: str, stream) -> bool:
    """Show ``text`` through the pager ``command`` (a shell command line, as
    ``PAGER`` holds it), written in ``stream``'s encoding; whether the pager
    ran (False: it could not be started, and nothing was shown). Quitting the
    pager early is not an error; Ctrl-C belongs to the pager meanwhile."""
    register_errors()
    environment = dict(os.environ)
    environment.setdefault("LESS", "FRX")  # as git: colours, and the text stays on screen after quitting
    try:
        pager = subprocess.Popen(
            command, shell=True, stdin=subprocess.PIPE, env=environment,
            encoding=getattr(stream, "encoding", None) or "utf-8", errors=ERRORS,
        )  # fmt: skip
    except OSError:
        return False
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        previous = None
    try:
        stream.flush()
        pager.stdin.write(text)
        pager.stdin.close()
    except (BrokenPipeError, OSError):
        pass
    finally:
        code = pager.wait()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return code != 127  # 127: the shell found no such command (and said so)
