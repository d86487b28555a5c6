"""Thieves! auf Deutsch, für das Terminal: die Wörter des Bildschirms (``WORDS``; die
Kartennamen sind unsere, wie im Browser: Geld, Diamantring, Hufeisen, Polizei,
Fluchtauto, Straßensperre, Alarm, Dieb, Doppelte Beute), die Legende und die Ereignisse
(``describe``, wie die Seite sie schreibt). See :mod:`thievery.core.i18n`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from thievery.core.i18n import GermanSeats
from thievery.core.protocol import Event

WORDS: Mapping[str, str] = {
    # cards
    "Diamond Ring": "Diamantring",
    "Horseshoe": "Hufeisen",
    "Money {n}": "Geld {n}",
    "Police (1 car)": "Polizei (1 Auto)",
    "Police ({n} cars)": "Polizei ({n} Autos)",
    "Getaway car": "Fluchtauto",
    "Roadblock": "Straßensperre",
    "Alarm": "Alarm",
    "Thief": "Dieb",
    "Double Loot": "Doppelte Beute",
    "◇Ring": "◇Ring",
    "∩Shoe": "∩Hufeisen",
    # the table
    "{total} (raid {raid})": "{total} (Razzia {raid})",
    "seat": "Platz",
    "hand": "Hand",
    "loot": "Beute",
    "value": "Wert",
    " (you)": " (du)",
    "Police: none": "Polizei: keine",
    "Police: 1 car ": "Polizei: 1 Auto ",
    "Police: {n} cars ": "Polizei: {n} Autos ",
    "   Getaways: {n}/7": "   Fluchtautos: {n}/7",
    "   Deck: {deck}   Discard: {discard}": "   Stapel: {deck}   Ablage: {discard}",
    "{who}: {v}": "{who}: {v}",
    "nobody": "niemand",
    "Last raid — {values}; busted: {who}": "Letzte Razzia — {values}; geschnappt: {who}",
    "Roadblock: pick a police card to remove": (
        "Straßensperre: Wähl eine Polizeikarte zum Entfernen"
    ),
    "Thief: move a loot card (▒ = face down, picked blind), or don't": (
        "Dieb: Verschieb eine Beutekarte (▒ = verdeckt, blind genommen) oder lass es"
    ),
    "Double Loot: play ": "Doppelte Beute: Spiel ",
    "Double Loot: {who} plays a drawn card": "Doppelte Beute: {who} spielt eine gezogene Karte",
    "(empty)": "(leer)",
    "Your hand": "Deine Hand",
    "Game over — loot {scores}; winner: {who}": "Spiel vorbei — Beute {scores}; Sieger: {who}",
    "turn {turn} · {who} to play": "Zug {turn} · {who} ist dran",
    "turn {turn} · game over": "Zug {turn} · Spiel vorbei",
    # menu lines and headings
    "Remove {card} from play": "{card} aus dem Spiel entfernen",
    "Don't move anything (decline the Thief's move)": (
        "Nichts verschieben (auf den Zug des Diebs verzichten)"
    ),
    "you": "dir",
    "Move {what} (slot {slot}) from {src} to {dst}": (
        "{what} (Feld {slot}) von {src} zu {dst} verschieben"
    ),
    "Play {card}": "{card} ausspielen",
    "Keep {card} face down": "{card} verdeckt behalten",
    "Give {card} face up to {who}": "{card} offen an {who} geben",
    "a face-down card": "eine verdeckte Karte",
    "your loot": "deiner Beute",
    "{who}'s loot": "der Beute von {who}",
    "Move a card from {src}": "Eine Karte aus {src} verschieben",
    "Move {what} (slot {slot})": "{what} (Feld {slot}) verschieben",
    "Remove a police card": "Eine Polizeikarte entfernen",
}

LEGEND = """\
$3      eine Geldkarte im Wert 3; in einer Beutereihe ist [$3] verdeckt, aber dir
        bekannt, ▒ verdeckt und unbekannt (in der Wertspalte als „+1?“ gezählt)
◇Ring   Diamantring (am Ende 1 wert, bei einer Razzia 3); ∩Hufeisen Hufeisen (am Ende 3,
        bei einer Razzia 1)
P1 P2   Polizeikarten mit 1 oder 2 Autos; „Polizei: 3 Autos“ zählt die Autos im Spiel
(du)    dein eigener Platz; ◀ der Platz, der dran ist
Feld 2  bei den Zügen des Diebs: die 2. Karte einer Beutereihe, von links gezählt
Wert    was du von einer Beutereihe zählen kannst: „7 (Razzia 5)“ ihr Wert am Ende und
        bei einer Razzia, „+2?“ Karten, die du nicht sehen kannst
Fluchtautos 3/7   gelegte Fluchtautos; das 7. beendet das Spiel"""


def _autos(n: int) -> str:
    return f"{n} {'Auto' if n == 1 else 'Autos'}"


def describe(event: Event, seat: int | None = None, names: Sequence[str] | None = None) -> str:
    """Ein Ereignis auf Deutsch, wie ``seat`` (``None``: ein Zuschauer) es liest."""
    from thievery.games.thieves.cards import CARD_INDEX
    from thievery.games.thieves.render import card_name

    d = event.data
    w = GermanSeats(seat, names)

    def card(c: str) -> str:
        return card_name(CARD_INDEX[c])

    t = event.type
    if t == "turn":
        who = "Du bist" if w.me(d["seat"]) else f"{w.nom(d['seat'])} ist"
        if not d["drew"]:  # (keine Karte kam auf die Hand: ein Fluchtauto sagt es selbst)
            return f"Zug {d['turn']}: {who} dran"
        drew = f"{d['drew']} {'Karte' if d['drew'] == 1 else 'Karten'}"
        return f"Zug {d['turn']}: {who} dran ({drew} gezogen)"
    if t == "drew":
        listed = ", ".join(card(c) for c in d["cards"])
        reader = seat if event.audience is None else event.audience
        if reader is None:
            return f"Gezogen: {listed}"
        return w.does(reader, "hast", "hat", "gezogen") + f": {listed}"
    if t == "double_draw":
        return "Doppelte Beute: " + w.does(d["seat"], "hast", "hat", "eine Karte gezogen")
    if t == "getaway":
        got = w.does(d["seat"], "hast", "hat", "ein Fluchtauto gezogen")
        return f"{got}: {d['placed']} von 7 liegen"
    if t == "loot":
        if d["card"] is None:
            return w.does(d["seat"], "hast", "hat", "eine Geldkarte verdeckt abgelegt")
        return w.does(d["seat"], "hast", "hat", f"{card(d['card'])} an {w.acc(d['to'])} gegeben")
    if t == "police":
        placed = w.does(d["seat"], "hast", "hat", f"{card(d['card'])} ausgelegt")
        return f"{placed}: {_autos(d['cars'])} im Spiel"
    if t == "action":
        return w.does(d["seat"], "hast", "hat", f"„{card(d['card'])}“ gespielt")
    if t == "remove":
        rest = f"{card(d['card'])} mit der Straßensperre entfernt"
        return f"{w.does(d['seat'], 'hast', 'hat', rest)}: {_autos(d['cars'])} im Spiel"
    if t == "move":
        rest = f"{card(d['card'])} von {w.dat(d['from'])} zu {w.dat(d['to'])} verschoben"
        return w.does(d["seat"], "hast", "hat", rest)
    if t == "pass":
        passed = w.does(d["seat"], "hast", "hat", "auf den Zug des Diebs verzichtet")
        return f"{passed}: Nichts wurde verschoben"
    if t == "raid":
        return raid_words(d, w)
    if t == "game_over":
        scores = ", ".join(f"{w.res(s)} {v}" for s, v in enumerate(d["scores"]))
        winners = w.join([w.res(s) for s in d["winners"]])
        return f"Das 7. Fluchtauto! Spiel vorbei. Beute: {scores}. Sieger: {winners}"
    return f"{t}: {d}"


def raid_words(d: Mapping[str, Any], w: GermanSeats) -> str:
    """Eine Razzia in Worten, mit ihrem Grund und warum die Geschnappten geschnappt sind."""
    values: list[int] = list(d["values"])
    worth = ", ".join(f"{w.nom(s)} {v}" for s, v in enumerate(values))
    head = f"Razzia: {_autos(d['cars'])} im Spiel (4 oder mehr). Beute bei der Razzia: {worth}. "
    top = max(values) if values else 0
    busted = [w.nom(s) for s in d["busted"]]
    if len(busted) > 1:
        return (
            f"{head}Geschnappt: {w.join(busted)}, alle mit der reichsten Beute ({top}); "
            "ihre Beute kommt in den Stapel"
        )
    if busted:
        caught = f"Geschnappt: {busted[0]} mit der reichsten Beute ({top})"
        return f"{head}{caught}; sie kommt in den Stapel"
    if top <= 0:
        return f"{head}Niemand wird geschnappt: Keine Beute ist etwas wert"
    richest = w.join([w.nom(s) for s, v in enumerate(values) if v == top])
    return (
        f"{head}Niemand wird geschnappt: {richest} liegen mit der reichsten Beute gleichauf ({top})"
    )
