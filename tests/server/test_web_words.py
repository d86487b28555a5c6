"""Words the pages show come through their translations. Every refusal the server can send
has German words for the pages (ERRORS_DE in the web's i18n-de.js): a German page tells a
refusal by its code, the server's English only in brackets where it names what was wrong.
No stylesheet writes words of its own."""

from __future__ import annotations

import re
from pathlib import Path

import thievery.server

SERVER = Path(thievery.server.__file__).parent
GERMAN = SERVER.parent / "web" / "js" / "i18n-de.js"
# A refusal's code as the server writes it: a string such as "table/unknown" or the start
# of one ("limit/" + what), where an error is made or answered.
CODE = re.compile(r'"((?:[a-z]+)/[a-z_]*)"')


def _german_codes() -> set[str]:
    text = GERMAN.read_text()
    block = text[text.index("export const ERRORS_DE") :]
    return set(re.findall(r'^  "([a-z_/]+)": \[', block, re.M))


def _server_codes() -> set[str]:
    """Every such string in the server's source, less media types and one comment's key."""
    codes: set[str] = set()
    for path in SERVER.rglob("*.py"):
        codes.update(CODE.findall(path.read_text()))
    return {c for c in codes if not c.startswith(("application/", "text/")) and c != "bot/game"}


def test_every_refusal_the_server_makes_has_german_words() -> None:
    german = _german_codes()
    server = _server_codes()
    assert len(server) > 30  # (the scan found the codes: it is not reading nothing)
    assert {"table/unknown", "rate/limited", "auth/revoked", "chat/too_long"} <= server
    untold = {c for c in server if c not in german and c[: c.index("/") + 1] not in german}
    assert not untold, f"refusals without German words in i18n-de.js ERRORS_DE: {untold}"
    # And the engine's own codes, which the server passes on.
    from thievery.core import errors

    engine = {
        e.code
        for e in vars(errors).values()
        if isinstance(e, type) and issubclass(e, errors.ThieveryError)
    }
    assert engine - german == set()


def test_no_stylesheet_writes_words_a_translation_cannot_reach() -> None:
    """CSS ``content: "busted in the last raid"`` showed English on German pages: words a
    stylesheet shows come from an attribute the page fills through t()."""
    sheets = [*SERVER.parent.joinpath("web").rglob("*.css")]
    sheets += [*SERVER.parent.joinpath("games").rglob("*.css")]
    assert len(sheets) >= 5
    worded = re.compile(r"""content:\s*(["'])[^"']*[A-Za-zÄÖÜäöüß]{2}[^"']*\1""")
    found = [f"{p.name}: {m.group(0)}" for p in sheets for m in worded.finditer(p.read_text())]
    assert not found, found
