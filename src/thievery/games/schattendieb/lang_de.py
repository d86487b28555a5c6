"""Der Schattendieb auf Deutsch, für das Terminal: die Wörter des Bildschirms (``WORDS``,
mit den Namen der Amigo-Ausgabe: Schmuck, Brosche, Ring, Uhr, Manschettenknopf, „Tresor
zu“, Schattendieb), die Legende und die Ereignisse (``describe``, wie die Seite sie
schreibt). See :mod:`thievery.core.i18n`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from thievery.core.i18n import GermanSeats
from thievery.core.protocol import Event

WORDS: Mapping[str, str] = {
    # cards
    "Brooch": "Brosche",
    "Ring": "Ring",
    "Watch": "Uhr",
    "Cufflink": "Manschettenknopf",
    "Shadow Thief": "Schattendieb",
    "Brooch Thief": "Broschendieb",
    "Ring Thief": "Ringdieb",
    "Watch Thief": "Uhrendieb",
    "Cufflink Thief": "Manschettenknöpfedieb",
    "Close Safe {n}": "Tresor zu {n}",
    # a thief card's symbol: ☠shadow, ☠ring
    "shadow": "Schatten",
    "brooch": "Brosche",
    "ring": "Ring",
    "watch": "Uhr",
    "cufflink": "Manschettenknopf",
    # the table
    "seat": "Platz",
    "status": "Tresor",
    "hand": "Hand",
    "this round": "diese Runde",
    "safe": "im Tresor",
    "n/sum": "n/Summe",
    "match": "Partie",
    "closed": "zu",
    "open": "offen",
    "chose ✓": "gewählt ✓",
    "you: ": "du: ",
    " adding…": " legt an …",
    " (you)": " (du)",
    " D": " G",
    "play": "Ausspielen",
    "steal": "Diebe",
    "add": "Anlegen",
    "over": "vorbei",
    "Game {game} of {games} · round {round} · step: {phase} · draw pile {pile} · "
    "discard {discard}": (
        "Spiel {game} von {games} · Runde {round} · Schritt: {phase} · Zugstapel {pile} · "
        "Ablage {discard}"
    ),
    "Game {game}/{games} · round {round} · {phase} · pile {pile} · discard {discard}": (
        "Spiel {game}/{games} · Runde {round} · {phase} · Stapel {pile} · Ablage {discard}"
    ),
    "(empty)": "(leer)",
    "   adding: ": "   legst an: ",
    "Your hand": "Deine Hand",
    "seat {n}": "Platz {n}",
    "Match over — winner: {who}": "Partie vorbei — Sieger: {who}",
    # menu lines
    "Done adding": "Fertig mit Anlegen",
    "Steal {card}": "{card} stehlen",
    "Steal {card} from {who}": "{card} von {who} stehlen",
    "Add {card}": "{card} anlegen",
    "Play {card} (closes: {n} cards in your safe)": (
        "{card} ausspielen (schließt: {n} Karten in deinem Tresor)"
    ),
    "Play {card} (closes: 1 card in your safe)": (
        "{card} ausspielen (schließt: 1 Karte in deinem Tresor)"
    ),
    "Play {card} (cannot close: {n} cards in your safe)": (
        "{card} ausspielen (schließt nicht: {n} Karten in deinem Tresor)"
    ),
    "Play {card}": "{card} ausspielen",
    "Nothing to add (you hold no {kind})": (
        "Nichts anzulegen (du hast keine Karte der Sorte {kind})"
    ),
}

LEGEND = """\
✿6 ○6 ◷6 ◆6   Schmuck: Brosche, Ring, Uhr, Manschettenknopf, mit seinem Wert
⊠12            eine „Tresor zu“-Karte: Sie schließt deinen Tresor, wenn er 1 bis 12 Karten hält
☠Schatten      eine Diebeskarte (der Schattendieb oder ein Dieb einer Sorte)
(du) G         dein eigener Platz; der Geber
Tresor         offen, oder zu mit der „Tresor zu“-Karte, die ihn geschlossen hat
diese Runde    gewählt ✓: der Platz hat seine Karte dieser Runde gewählt, … wählt noch;
               danach die aufgedeckte Karte → der Schmuck, der vor dem Platz liegt
n/Summe        wie viele Karten im Tresor liegen, und ihr Gesamtwert
Partie         die Punkte der bisher gespielten Spiele"""

END_REASONS = {
    "no_cards": "der Stapel ist leer und jemand hat keine Karten",
    "all_close": "alle, die noch dabei sind, wollten schließen",
    "one_open": "nur noch ein Tresor ist offen",
}


def _karten(n: int) -> str:
    return f"{n} {'Karte' if n == 1 else 'Karten'}"


def describe(event: Event, seat: int | None = None, names: Sequence[str] | None = None) -> str:
    """Ein Ereignis auf Deutsch, wie ``seat`` (``None``: ein Zuschauer) es liest."""
    from thievery.games.schattendieb.render import card_name

    d = event.data
    w = GermanSeats(seat, names)

    def cards(cs: list[str]) -> str:
        return ", ".join(card_name(c) for c in cs)

    t = event.type
    reader = seat if event.audience is None else event.audience
    if t == "chose":
        return w.does(d["seat"], "hast", "hat", "eine Karte gewählt")
    if t == "reveal":
        parts = [f"{w.nom(int(s))}: {card_name(c)}" for s, c in d["cards"].items()]
        return "Aufgedeckt — " + "; ".join(parts) if parts else "Niemand konnte eine Karte spielen"
    if t == "tie":
        verb = "kommt" if len(d["cards"]) == 1 else "kommen"
        return f"Gleichstand! {cards(d['cards'])} {verb} auf den Ablagestapel"
    if t == "steal":
        head = w.does(d["seat"], "hast", "hat", f"den {card_name(d['thief'])} gespielt")
        if d["card"] is None:
            return f"{head}, der nichts findet"
        return f"{head} und {card_name(d['card'])} {w.von(d['from'])} genommen"
    if t == "adding":
        return "Dürfen Schmuck ihrer Sorte anlegen: " + ", ".join(w.nom(s) for s in d["seats"])
    if t == "added":
        return _private(w, reader, "legst", "legt", f"{card_name(d['card'])} an")
    if t == "done":
        return w.does(d["seat"], "bist", "ist", "fertig mit Anlegen")
    if t == "add":
        return "; ".join(
            f"{w.nom(int(s), i == 0)} {w.v(int(s), 'hast', 'hat')} {cards(cs)} angelegt"
            for i, (s, cs) in enumerate(d["cards"].items())
        )
    if t == "close":
        return w.does(
            d["seat"],
            "hast",
            "hat",
            f"den Tresor mit {card_name(d['card'])} geschlossen und "
            f"{_karten(d['under_pile'])} unter den Stapel gelegt",
        )
    if t == "close_failed":
        rest = f"mit {card_name(d['card'])} nicht schließen: die Karte wird abgeworfen"
        return w.does(d["seat"], "konntest", "konnte", rest)
    if t == "drew":
        return _private(w, reader, "hast", "hat", f"{card_name(d['card'])} gezogen")
    if t == "draw":
        parts = [f"{w.nom(int(s))} {k}" for s, k in d["counts"].items()]
        return "Karten gezogen — " + ", ".join(parts) if parts else "Niemand hat gezogen"
    if t == "pile_discarded":
        return f"Der Stapel reichte nicht für alle Hände: {_karten(d['count'])} abgeworfen"
    if t == "game_over":
        return _game_over(w, d)
    if t == "dealt":
        if reader is None or w.me(reader):
            return f"Dir wurden ausgeteilt: {cards(d['cards'])}"
        return f"{w.name(reader)} wurden ausgeteilt: {cards(d['cards'])}"
    if t == "new_game":
        deals = "du gibst" if w.me(d["dealer"]) else f"{w.nom(d['dealer'])} gibt"
        return f"Spiel {d['game']} beginnt; {deals}"
    if t == "match_over":
        return "Die Partie ist vorbei. Sieger: " + w.join([w.res(s) for s in d["winners"]])
    return f"{t}: {d}"


def _private(w: GermanSeats, reader: int | None, du: str, er: str, rest: str) -> str:
    """A private event for its one reader ("Du hast Ring 6 gezogen")."""
    if reader is None:
        return rest
    return w.does(reader, du, er, rest)


def _game_over(w: GermanSeats, d: Mapping[str, object]) -> str:
    scores_of: list[int] = list(d["scores"])  # type: ignore[call-overload]
    scores = ", ".join(f"{w.res(s)} {v}" for s, v in enumerate(scores_of))
    # A closed safe holds at least one jewel, so a 0 is an open safe's score.
    zero = [s for s, v in enumerate(scores_of) if v == 0]
    why = ""
    if len(zero) == 1 and w.me(zero[0]):
        why = " — du bekommst 0: Dein Tresor war noch offen"
    elif len(zero) == 1:
        why = f" — {w.res(zero[0])} bekommt 0: Der Tresor war noch offen"
    elif zero:
        why = f" — {w.join([w.res(s) for s in zero])} bekommen 0: Die Tresore waren noch offen"
    reason = END_REASONS.get(str(d["reason"]), str(d["reason"]))
    return f"Spiel {d['game']} vorbei ({reason}). Punkte: {scores}{why}"
