"""Click's and Typer's own words in French: the gettext catalogue of ``cli/locale``.

Click and Typer translate what they print (« Utilisation : », « Options »,
« Erreur », « Il manque l'argument … », « Option inconnue : … ») through the
standard library's :func:`gettext.gettext` and :func:`gettext.ngettext`, that
is in gettext's default text domain, ``messages``. :func:`install` points that
domain at ``cli/locale/fr/LC_MESSAGES/messages.mo`` (made from ``messages.po``
beside it by ``bench/compile_catalogue.py``) and makes French the language
gettext looks up, whatever the user's locale: the product speaks French only.

It must run before ``click`` or ``typer`` is imported: ``typer.rich_utils``
translates its panel titles and labels (``OPTIONS_PANEL_TITLE = _("Options")``,
``RICH_HELP``, ``DEFAULT_STRING``…) once, when it is imported, and would keep
the English ones for good. So neither this module nor the ``cli`` package's
``__init__`` imports them.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

#: gettext's default text domain, the one Click and Typer translate in.
DOMAIN = "messages"
#: The catalogues' folder, found beside this module so that it works from a
#: checkout and from the installed wheel alike (``<LOCALE>/fr/LC_MESSAGES/messages.mo``).
LOCALE = Path(__file__).parent / "locale"


def install() -> None:
    """Make gettext's default domain French, from :data:`LOCALE`.

    What it changes, for the whole process: the environment variable
    ``LANGUAGE`` becomes ``fr`` (gettext reads the language from ``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``, in that order, and ``LANGUAGE``
    comes first: so the user's own settings are overridden, and processes this
    one starts inherit it), and the domain ``messages`` is bound to
    :data:`LOCALE`. Nothing else: the C locale (number formats, collation…)
    is left alone.

    Call it before ``import click`` or ``import typer`` (see the module's
    docstring). Idempotent and cheap: it imports neither of them and reads no
    file; gettext opens the catalogue on the first translated message.
    """
    os.environ["LANGUAGE"] = "fr"
    gettext.bindtextdomain(DOMAIN, str(LOCALE))
