"""Where the CLI writes: Rich in a terminal, plain text elsewhere.

The renderers (:mod:`cli.render`) build :class:`Text`, :class:`Padding` and
:class:`Table` — the few shapes of Rich they use — and print them on a
:class:`Console`. In a terminal (or when ``FORCE_COLOR`` or
``TTY_COMPATIBLE`` asks for one, as Rich reads them) the console hands them
to Rich, which styles and wraps them to the terminal's width: a wrapped line
keeps the indent of its bullet, French punctuation (« », `` :``, `` ;``,
`` ?``, `` !``) is held to its word by a non-breaking space, no line ends in
spaces, and output taller than the screen goes through a pager
(:meth:`Console.paging`). Elsewhere — a pipe, a file — it writes their
plain text, one line per paragraph, never wrapped, without importing Rich:
its ``rich.text`` alone costs 2.4× ``python -c pass`` (33 ms here), which
the budgets of ``bench/run.py`` cannot hold on every lookup, and Rich lays
out 80 creatures' layers in 1.8 s where their plain text takes 0.1 s.

Whatever the console's encoding, nothing crashes: :func:`prepare_streams`
makes standard output and error write what they cannot encode as its
nearest ASCII (« → ", é → e, ≤ → <=; :func:`transliterate`).
"""

from __future__ import annotations

import codecs
import os
import re
import shutil
import signal
import subprocess
import sys
import unicodedata
from contextlib import contextmanager

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


def _finished(rendered: str) -> str:
    """Rich's rendering as written: held spaces made non-breaking spaces, no spaces at line ends."""
    return re.sub(_TRAILING, lambda end: re.sub("[ \u00a0]", "", end.group(0)), rendered.replace(_HELD, NBSP))


class _Hanging:
    """A Rich text wrapped line by line, each line's wrapped part indented
    like the line's lead (:data:`_LEAD`: "  • ", "3. "), the whole
    indented by ``indent`` (Rich's own wrapping starts again at the margin)."""

    def __init__(self, text, indent: int = 0) -> None:
        self.text = text
        self.indent = indent

    def __rich_console__(self, console, options):
        from rich.text import Text as RichText  # deferred: Rich in a terminal only (module docstring)

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
        from rich.measure import Measurement  # deferred: Rich in a terminal only (module docstring)

        return Measurement.get(console, options, self.text).with_maximum(options.max_width)


class Text:
    """A line (or paragraph) of text with styled ranges: Rich's ``Text``, reduced
    to what the renderers use. ``spans`` are ``(start, end, style)``."""

    __slots__ = ("plain", "spans", "style")

    def __init__(self, text: str = "", style: str = "") -> None:
        self.plain = text
        self.style = style
        self.spans: list[tuple[int, int, str]] = []

    def __str__(self) -> str:
        return self.plain

    def __len__(self) -> int:
        return len(self.plain)

    @classmethod
    def assemble(cls, *parts) -> Text:
        """A text made of ``parts``: strings, ``(string, style)`` pairs or :class:`Text`."""
        text = cls()
        for part in parts:
            if isinstance(part, Text):
                text.append_text(part)
            elif isinstance(part, tuple):
                text.append(*part)
            else:
                text.append(part)
        return text

    def append(self, text: str, style: str | None = None) -> Text:
        """Add ``text`` at the end, in ``style``."""
        start = len(self.plain)
        self.plain += text
        if style:
            self.spans.append((start, len(self.plain), style))
        return self

    def append_text(self, other: Text) -> Text:
        """Add another :class:`Text` at the end, with its styles."""
        start = len(self.plain)
        if other.style:
            self.spans.append((start, start + len(other.plain), other.style))
        self.spans.extend((start + a, start + b, style) for a, b, style in other.spans)
        self.plain += other.plain
        return self

    def stylize(self, style: str, start: int = 0, end: int | None = None) -> None:
        """Style the characters ``[start, end)``."""
        self.spans.append((start, len(self.plain) if end is None else end, style))

    def rich(self):
        """This text as a ``rich.text.Text``, its French punctuation held to
        its word (:func:`french_spaces`, with a stand-in Rich does not break at)."""
        from rich.text import Span  # deferred: Rich in a terminal only (module docstring)
        from rich.text import Text as RichText  # deferred: Rich in a terminal only (module docstring)

        return RichText(
            french_spaces(visible_controls(self.plain), _HELD),
            style=self.style,
            spans=[Span(a, b, style) for a, b, style in self.spans],
        )


class Padding:
    """A renderable indented by ``pad`` = ``(top, right, bottom, left)`` (Rich's ``Padding``)."""

    __slots__ = ("pad", "renderable")

    def __init__(self, renderable, pad: tuple[int, int, int, int]) -> None:
        self.renderable = renderable
        self.pad = pad


class Table:
    """Columns and rows, without borders (Rich's ``Table`` as the check renders it)."""

    def __init__(self, show_header: bool = True, **options) -> None:
        self.show_header = show_header
        self.options = options
        self.columns: list[tuple[str, dict]] = []
        self.rows: list[tuple] = []

    def add_column(self, header: str = "", **options) -> None:
        """A column, with Rich's column options (used in a terminal)."""
        self.columns.append((header, options))

    def add_row(self, *cells) -> None:
        """A row: strings or :class:`Text`."""
        self.rows.append(cells)


def _plain(item) -> str:
    if isinstance(item, Text):
        return item.plain
    if isinstance(item, Padding):
        top, _right, bottom, left = item.pad
        body = "\n".join(" " * left + line if line else line for line in _plain(item.renderable).split("\n"))
        return "\n" * top + body + "\n" * bottom
    if isinstance(item, Table):
        return _plain_table(item)
    return str(item)


def _plain_table(table: Table) -> str:
    rows = [[_plain(cell) for cell in row] for row in table.rows]
    if table.show_header:
        rows.insert(0, [header for header, _options in table.columns])
    widths = [
        max((len(line) for row in rows for line in row[i].split("\n")), default=0) for i in range(len(table.columns))
    ]
    lines = []
    for row in rows:
        cells = [cell.split("\n") for cell in row]
        for depth in range(max((len(cell) for cell in cells), default=0)):
            parts = [(cell[depth] if depth < len(cell) else "").ljust(width) for cell, width in zip(cells, widths)]
            lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def _rich(item, wrap: bool = True):
    """``item`` as Rich renders it; a text wrapped with hanging indents unless not ``wrap`` (a table's cell)."""
    if isinstance(item, str):
        item = Text(item)
    if isinstance(item, Text):
        return _Hanging(item.rich()) if wrap else item.rich()
    if isinstance(item, Padding):
        top, right, bottom, left = item.pad
        if isinstance(item.renderable, (Text, str)) and wrap and not (top or right or bottom):
            return _Hanging(_rich(item.renderable, wrap=False), left)
        from rich.padding import Padding as RichPadding  # deferred: Rich in a terminal only (module docstring)

        return RichPadding(_rich(item.renderable, wrap), item.pad)
    if isinstance(item, Table):
        from rich.table import Table as RichTable  # deferred: Rich in a terminal only (module docstring)

        table = RichTable(show_header=item.show_header, **item.options)
        for header, options in item.columns:
            table.add_column(header, **options)
        for row in item.rows:
            table.add_row(*(_rich(cell, wrap=False) for cell in row))
        return table
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
        """The Rich console behind this one (imports Rich)."""
        if self._rich is None:
            from rich.console import Console as RichConsole  # deferred: Rich in a terminal only (module docstring)

            self._rich = RichConsole(stderr=self.stderr, highlight=False)
        return self._rich

    def print(self, *items, style: str | None = None, overflow: str | None = None, no_wrap: bool | None = None) -> None:
        """Print ``items`` (strings, :class:`Text`, :class:`Padding`, :class:`Table`) on one line each call."""
        if self.is_terminal:
            rich = self.rich_console()
            with rich.capture() as captured:
                rich.print(*(_rich(item) for item in items), style=style, overflow=overflow, no_wrap=no_wrap)
            self._write(_finished(captured.get()))
            return
        self._write(visible_controls(" ".join(_plain(item) for item in items)) + "\n")

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
