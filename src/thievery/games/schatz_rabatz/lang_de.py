"""Schatz-Rabatz auf Deutsch, für das Terminal: die Wörter des Bildschirms (``WORDS``; die
Schätze mit den Namen des Noris-Spiels: Kelch, Schwert, Krone, Goldbarren …, die
Schatzkiste, Jacks Tafel, die Sanduhr), die Legende und die Ereignisse (``describe``,
wie die Seite sie schreibt). See :mod:`thievery.core.i18n`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from thievery.core.i18n import GermanSeats
from thievery.core.protocol import Event
from thievery.games.schatz_rabatz.data import board_number, column_number, part_words, row_number

SHAPES = {
    "circle": "Kreis",
    "hexagon": "Sechseck",
    "ring": "Ring",
    "pearls": "Perlen",
    "goblet": "Kelch",
    "sword": "Schwert",
    "gold bar": "Goldbarren",
    "goldbar": "Goldbarren",
    "crown": "Krone",
}
COLOURS = {"red": "rot", "blue": "blau", "green": "grün", "yellow": "gelb", "purple": "lila"}
PARTS = {"bow": "Bug", "middle A": "Mittelteil A", "middle B": "Mittelteil B", "stern": "Heck"}
# with the definite article (accusative): der Bug, das Mittelteil, das Heck
THE_PARTS = {
    "bow": "den Bug",
    "middle A": "das Mittelteil A",
    "middle B": "das Mittelteil B",
    "stern": "das Heck",
}

WORDS: Mapping[str, str] = {
    **SHAPES,
    **COLOURS,
    **PARTS,
    **{f"the {part}": words for part, words in THE_PARTS.items()},
    "{colour} {shape}": "{shape} ({colour})",
    # the table
    "the match is over": "die Partie ist vorbei",
    "round counted — waiting for ready: ": "Runde gezählt — warte auf „bereit“: ",
    "Seat {n}": "Platz {n}",
    "⌛ the hourglass waits for the first lid": "⌛ die Sanduhr wartet auf den ersten Deckel",
    "⌛ {time} left ": "⌛ noch {time} ",
    "(empty)": "(leer)",
    "rim": "Rand",
    "ship {held}/{needed} ": "Schiff {held}/{needed} ",
    "open": "offen",
    "closed at {time}": "zu bei {time}",
    "ready": "bereit",
    "counting…": "zählt …",
    "1 treasure": "1 Schatz",
    "{n} treasures": "{n} Schätze",
    "above the rim": "über dem Rand",
    "Jack took": "Jack nahm",
    " (you)": " (du)",
    "Jack-board {board} claims: ": "Jacks Tafel {board} beansprucht: ",
    "{who}: {c}": "{who}: {c}",
    "{who} took {the_part}": "{who} nahm {the_part}",
    "Round {round} (Jack-board {board}) — {counts}. {parts}": (
        "Runde {round} (Jacks Tafel {board}) — {counts}. {parts}"
    ),
    "No parts.": "Keine Teile.",
    "round {round} · {phase} · {time}": "Runde {round} · {phase} · {time}",
    "packing": "packen",
    "scored": "gezählt",
    "over": "vorbei",
    "pool ({n})": "Haufen ({n})",
    "A ship is complete — winner: {who}": "Ein Schiff ist fertig — Sieger: {who}",
    # menu lines
    "Close the lid": "Deckel schließen",
    "Ready for the next round": "Bereit für die nächste Runde",
    "The clock moves to {time}": "Die Uhr geht auf {time}",
    ", turned {n}": ", {n}-mal gedreht",
    "Pack the {what}{turned} at column {column}": "{what}{turned} in Spalte {column} packen",
    # the live screen
    "the pool is empty: close your lid (c)": "der Haufen ist leer: Schließ deinen Deckel (c)",
    "Too slow! ": "Zu langsam! ",
    "Your pick: ": "Deine Wahl: ",
    ", turned {n}, column {column}   ": ", {n}-mal gedreht, Spalte {column}   ",
    "nothing left in the pool": "nichts mehr im Haufen",
    "   hand busy: ready in {time}": "   Hand beschäftigt: bereit in {time}",
    "Your hand is not ready yet: wait {time}": "Deine Hand ist noch nicht bereit: Warte {time}",
    "↑↓ treasure  r rotate  ←→ column  ⏎/space drop  c close lid  y ready  ? legend  q quit": (
        "↑↓ Schatz  r drehen  ←→ Spalte  ⏎/Leertaste packen  c Deckel zu  y bereit  "
        "? Legende  q beenden"
    ),
    "↑↓ treasure r rotate ←→ column ⏎ drop c close y ready ? legend q quit": (
        "↑↓ Schatz r drehen ←→ Spalte ⏎ packen c Deckel zu y bereit ? Legende q beenden"
    ),
    "Legend (? to close)": "Legende (? zum Schließen)",
    "What happened": "Was geschah",
}

# The letters that mark a treasure's colour where no colour is shown (render.COLOUR_MARKS).
COLOUR_MARKS = {"red": "r", "blue": "b", "green": "g", "yellow": "e", "purple": "l"}

LEGEND = """\
Schätze sind Buchstaben in ihrer Farbe (rot, blau, grün, gelb, lila):
C Kreis  H Sechseck  R Ring  P Perlen  G Kelch  S Schwert  B Goldbarren  K Krone
Ohne Farbe (NO_COLOR) nennt sie ein zweiter Buchstabe: r rot, b blau, g grün, e gelb,
l lila (Kr: eine rote Krone)
In der Schatzkiste: ░ wo dein gewählter Schatz landen würde; ╾──╼ Rand markiert den Rand
(was darüber herausragt, wird beim Schließen des Deckels herausgenommen). „Hand
beschäftigt“: dein nächster Wurf wartet auf deine Hand (die Option hand_ms)."""


def treasure(treasure_id: str) -> str:
    """Ein Schatz auf Deutsch: ``crown-red`` -> ``Krone (rot)``."""
    shape, colour = treasure_id.split("-")
    return f"{SHAPES.get(shape, shape)} ({COLOURS.get(colour, colour)})"


def _when(ms: int) -> str:
    return f"{ms / 1000:.1f} s".replace(".", ",")


def describe(event: Event, seat: int | None = None, names: Sequence[str] | None = None) -> str:
    """Ein Ereignis auf Deutsch, wie ``seat`` (``None``: ein Zuschauer) es liest."""
    d = event.data
    w = GermanSeats(seat, names)

    def listed(ids: list[str]) -> str:
        return ", ".join(treasure(t) for t in ids)

    t = event.type
    if t == "round":
        glass = (
            "Die Sanduhr wartet auf den ersten Deckel"
            if d["ends_ms"] is None
            else f"Die Sanduhr läuft bis {_when(d['ends_ms'])}"
        )
        return f"Runde {d['round']} beginnt bei {_when(d['at_ms'])}: {glass}"
    if t == "board":
        board = board_number(d["board"])
        return f"Jacks Tafel {board} wird umgedreht: Sie beansprucht {listed(d['claims'])}"
    if t == "drop":
        rest = (
            f"{treasure(d['treasure'])} gepackt (Drehung {d['rotation']}, "
            f"Spalte {column_number(d['column'])}, Reihe {row_number(d['row'])} von unten)"
        )
        return w.does(d["seat"], "hast", "hat", rest)
    if t == "close":
        removed = d["removed"]
        extra = f"; über den Rand herausgenommen: {listed(removed)}" if removed else ""
        closed = f"den Deckel bei {_when(d['at_ms'])} geschlossen{extra}"
        return w.does(d["seat"], "hast", "hat", closed)
    if t == "hourglass":
        return f"Die Sanduhr wird umgedreht: Sie läuft bei {_when(d['ends_ms'])} ab"
    if t == "time_up":
        return f"Die Sanduhr ist bei {_when(d['at_ms'])} abgelaufen: Alle Deckel sind zu"
    if t == "scored":
        counts = ", ".join(f"{w.nom(s)} {c}" for s, c in enumerate(d["counts"]))
        takers = [(s, str(p)) for s, p in enumerate(d["parts"]) if p]
        parts = ", ".join(
            f"{w.nom(s, i == 0)} {w.v(s, 'nimmst', 'nimmt')} {_the_part(p)}"
            for i, (s, p) in enumerate(takers)
        )
        return f"Runde {d['round']} gezählt — {counts}. " + (
            parts or "Keine Schiffsteile mehr übrig"
        )
    if t == "ready":
        return w.does(d["seat"], "bist", "ist", "bereit")
    if t == "game_over":
        return "Ein Schiff ist fertig! Sieger: " + w.join([w.res(s) for s in d["winners"]])
    return f"{t}: {d}"


def _the_part(card: str) -> str:
    """A ship part card with its article (accusative): ``bow-2`` -> ``den Bug``,
    ``middle-a-1`` -> ``das Mittelteil A``, ``stern-1`` -> ``das Heck``."""
    part = part_words(card)
    return THE_PARTS.get(part, part)


# The rules' refusals, as the live screen shows them (English regex -> German; a group
# that is a treasure id or a seat is put in words).
REFUSALS: tuple[tuple[str, str], ...] = (
    (
        r"seat (\d+)'s hand is not ready: a hand needs (\d+) ms between two drops, so its "
        r"next drop may come at (\d+) ms \(now (\d+) ms, (\d+) ms to wait\)",
        "die Hand von Platz {0} ist noch nicht bereit: Eine Hand braucht {1} ms zwischen "
        "zwei Würfen, der nächste darf bei {2} ms kommen (jetzt {3} ms, noch {4} ms warten)",
    ),
    (r"([a-z]+-[a-z]+) is gone: seat (\d+) took it", "{0} ist weg: Platz {1} war schneller"),
    (r"([a-z]+-[a-z]+) is gone: someone took it", "{0} ist weg: jemand war schneller"),
    (r"round (\d+) is still being packed", "Runde {0} wird noch gepackt"),
    (
        r"round (\d+) is over: waiting for everyone to be ready",
        "Runde {0} ist vorbei: Warte auf alle",
    ),
    (r"seat (\d+)'s chest is closed", "die Schatzkiste von Platz {0} ist zu"),
    (r"seat (\d+) is ready already", "Platz {0} ist schon bereit"),
    (
        r"([a-z]+-[a-z]+) would rest wholly above the rim of seat (\d+)'s chest",
        "{0} läge ganz über dem Rand der Schatzkiste von Platz {1}",
    ),
    (r"the game is over", "das Spiel ist vorbei"),
)


def refusal(text: str) -> str:
    """The rules' reason for refusing an action, in German (as it is, if unknown)."""
    for pattern, german in REFUSALS:
        found = re.fullmatch(pattern, text)
        if found is not None:
            return german.format(*(_group(g) for g in found.groups()))
    return text


def _group(value: str) -> str:
    if value == "someone":
        return "jemand"
    if value.startswith("seat "):
        return "Platz " + value.removeprefix("seat ")
    return treasure(value) if "-" in value else value
