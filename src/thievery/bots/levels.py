"""The bots as players know them: by level ("Casual"), not by engine ("heuristic").

The one place these words live: the terminal names bot seats by them (``Seat 3
(Casual)``), and the web pages get them from the server (``/static/js/levels.js``, made
from :data:`LEVELS` and their German by :mod:`thievery.server.app`), so a seat reads the
same in both. Their German is in ``thievery/bots/lang_de.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

from thievery.core.i18n import Translator

# Engine name -> its level in English words. A bot without one goes by its engine name.
# Words without brackets (in German too): a seat shows its level in brackets, "Seat 3
# (Adult-pace packer)". The packers differ only in the speed of their hands (a child's, an
# adult's, a practised player's, none), so their names say pace: "Expert packer" stood in
# the menu beside "Expert", the search bot, and beat it (docs/ladder-schatz-rabatz.md).
LEVELS: Mapping[str, str] = {
    "random": "Beginner",
    "heuristic": "Casual",
    "ismcts": "Strong",
    "ismcts-strong": "Expert",
    "packer-child": "Child-pace packer",
    "packer-adult": "Adult-pace packer",
    "packer-expert": "Pro-pace packer",
    "packer-instant": "Instant packer",
}

_ = Translator(__package__)


def level_words(bot: str) -> str:
    """A bot's level in the current language, or its engine name if it has no level.

    >>> from thievery.core.i18n import use_language
    >>> level_words("heuristic"), level_words("my-bot")
    ('Casual', 'my-bot')
    >>> with use_language("de"):
    ...     level_words("heuristic"), level_words("packer-adult")
    ('Amateur', 'Packer im Erwachsenentempo')
    """
    return _(LEVELS[bot]) if bot in LEVELS else bot
