"""Thieves Den auf Deutsch: die Fähigkeiten der Karten in Worten (``describe_ability``,
für Karten ohne eigenen deutschen Text, in jedem Kartensatz), und fürs Terminal die
Wörter des Bildschirms (``WORDS``), die Entscheidungen der Engine (``DECISIONS``), die
Legende und die Ereignisse (``describe``, wie die Seite sie schreibt). Die Namen der Orte,
Hehler und Machtplättchen stehen im Kartensatz (``name_de``). See
:mod:`thievery.core.i18n`."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from thievery.core.i18n import GermanSeats
from thievery.core.protocol import Event

# singular, plural, with the indefinite article (accusative)
NOUNS = {
    "tome": ("Foliant", "Folianten", "einen Folianten"),
    "jewel": ("Juwel", "Juwelen", "ein Juwel"),
    "artifact": ("Artefakt", "Artefakte", "ein Artefakt"),
    "fossil": ("Fossil", "Fossilien", "ein Fossil"),
    "potion": ("Trank", "Tränke", "einen Trank"),
    "thief": ("Dieb", "Diebe", "einen Dieb"),
    "treasure": ("Schatz", "Schätze", "einen Schatz"),
    "location": ("Ort", "Orte", "einen Ort"),
    "fence": ("Hehler", "Hehler", "einen Hehler"),
}
# with the indefinite article in the dative: "bezahlt mit einem Folianten"
DATIVE = {
    "tome": "einem Folianten",
    "jewel": "einem Juwel",
    "artifact": "einem Artefakt",
    "fossil": "einem Fossil",
    "potion": "einem Trank",
}
# the plural in the dative: "wirbt mit zwei Folianten einen Dieb an"
DATIVE_PLURAL = {
    "tome": "Folianten",
    "jewel": "Juwelen",
    "artifact": "Artefakten",
    "fossil": "Fossilien",
    "potion": "Tränken",
}
TYPES = {
    "village": "Dorf",
    "shadow": "Schatten",
    "ruins": "Ruinen",
    "holy": "Heilig",
    "city": "Stadt",
    "noble": "Adliger",
    "agent": "Agent",
    "collector": "Sammler",
    "warlock": "Hexer",
    "mercenary": "Söldner",
    "peddler": "Hausierer",
    "tinkerer": "Tüftler",
}
ACTIONS = {"steal": "Stehlen", "fence": "Verkaufen"}


def count(n: int, what: str) -> str:
    """A count of things as an object (accusative): ``2 Juwelen``, ``1 Dieb``, ``1
    Folianten``."""
    one, many, _ = NOUNS.get(what, (what, what, what))
    if n == 1 and what == "tome":
        return "1 Folianten"  # a weak noun: "nimm 1 Folianten"
    return f"{n} {one if n == 1 else many}"


def describe_effect(effect: Any) -> str:
    """One effect of an ability in German: ``nimm 2 Juwelen``, ``bezahle 1 Dieb``."""
    op = effect.op
    if op == "gain":
        if effect.what == "wild":
            up_to = "bis zu " if effect.up_to else ""
            return f"nimm {up_to}{count(effect.count, 'treasure')} nach Wahl"
        return f"nimm {count(effect.count, effect.what)}"
    if op == "prestige":
        return f"erhalte {effect.count} Prestige"
    if op == "take":
        return f"nimm einem Gegner {NOUNS[effect.what][2]} weg"
    if op == "destroy":
        return "zerstöre einen Schatz eines Gegners"
    if op == "pay":
        if effect.what == "any":
            return f"bezahle {count(effect.count, 'treasure')} nach Wahl"
        return f"bezahle {count(effect.count, effect.what)}"
    if op == "draw_location":
        return f"zieh {count(effect.count, 'location')} offen"
    if op == "action":
        kinds = " oder ".join(ACTIONS.get(c, c) for c in effect.choices)
        extra = " auf einem besetzten Aktionsfeld" if effect.occupied else ""
        extra += ", mit dem Besitzerbonus für dich" if effect.owner_bonus_to_self else ""
        if effect.compulsory:
            return f"{kinds}{extra}"
        return f"du darfst {kinds.lower()}{extra}"
    if op == "recall_thief":
        return "nimm einen Dieb von einem Ort, der oben auf den Stapel kommt"
    if op == "move_thief":
        return "versetz einen Dieb auf einen anderen Ort, nutze ihn, behalte den Dieb"
    if op == "refresh_fences":
        return f"ersetze {count(effect.count, 'fence')} der Reihe"
    if op == "swap_location":
        return "tausche einen Ort mit einem Gegner"
    return str(op)


def describe_ability(effects: Sequence[Any]) -> str:
    """An ability in German, e.g. ``Bezahle 1 Dieb: nimm 3 Schätze nach Wahl``."""
    if not effects:
        return "nichts"
    pays = [describe_effect(e) for e in effects if e.op == "pay"]
    rest = ", dann ".join(describe_effect(e) for e in effects if e.op != "pay")
    rest = rest.replace(", dann du darfst ", ", dann darfst du ")  # the verb comes second
    text = ", ".join(pays) + (": " + rest if pays and rest else "") if pays else rest
    return text[:1].upper() + text[1:]


WORDS: Mapping[str, str] = {
    **{k: one for k, (one, _, _) in NOUNS.items()},
    **{f"{'an' if k[0] in 'aeiou' else 'a'} {k}": acc for k, (_, _, acc) in NOUNS.items()},
    **{
        f"paying {'an' if k[0] in 'aeiou' else 'a'} {k}": f"bezahlt mit {d}"
        for k, d in DATIVE.items()
    },
    **{f"{k}s": NOUNS[k][1] for k in DATIVE},
    **TYPES,
    **{k.capitalize(): v for k, v in TYPES.items()},
    # the board
    "instant": "sofort",
    "owner bonus: {b}": "Besitzerbonus: {b}",
    "{name} ({kind}): {desires} → {n} Prestige": "{name} ({kind}): {desires} → {n} Prestige",
    "(empty slot)": "(leerer Platz)",
    "Fences": "Hehler",
    "(no tile)": "(kein Plättchen)",
    " [used: {what}]": " [genutzt: {what}]",
    "used: {tiles}": "genutzt: {tiles}",
    "Power tiles": "Machtplättchen",
    "Witch": "Hexe",
    "Burgle / Recruit": "Einbrechen / Anwerben",
    "{n} thieves / ": "{n} Diebe / ",
    "  thieves {n}": "  Diebe {n}",
    "   decks: Locations {locations}, Fences {fences}": (
        "   Stapel: Orte {locations}, Hehler {fences}"
    ),
    "Supply": "Vorrat",
    "Neutral": "Neutral",
    # the players
    "seat": "Platz",
    "★": "★",
    "treasures": "Schätze",
    "thieves": "Diebe",
    "Locations (this round)": "Orte (diese Runde)",
    "collected": "gesammelt",
    " (you)": " (du)",
    " passed": " gepasst",
    "  fences: ": "  Hehler: ",
    # you
    "you have 1 set so far": "du hast bisher 1 Satz",
    "you have {n} sets so far": "du hast bisher {n} Sätze",
    "Scheme: {a} + {b}, {n} Prestige per set ({so_far})": (
        "Plan: {a} + {b}, {n} Prestige pro Satz ({so_far})"
    ),
    "Scheme: {a} + {b}, {n}★ a set, {sets} so far": "Plan: {a} + {b}, {n}★/Satz, bisher {sets}",
    "Hand:": "Hand:",
    "You keep: ": "Du behältst: ",
    "Now: {what}": "Jetzt: {what}",
    "You": "Du",
    # the head and the end
    " (UNOFFICIAL cards)": " (INOFFIZIELLE Karten)",
    "round {round}/3 · {phase} · {direction}": "Runde {round}/3 · {phase} · {direction}",
    "scouting": "Auskundschaften",
    "thieving": "Stehlen",
    "direction": "Richtungsplättchen",
    "over": "vorbei",
    "clockwise": "im Uhrzeigersinn",
    "counterclockwise": "gegen den Uhrzeigersinn",
    "seat {n}": "Platz {n}",
    "Game over — winner: {who}\nMajorities: {major}\nSchemes: {schemes}": (
        "Spiel vorbei — Sieger: {who}\nMehrheiten: {major}\nPläne: {schemes}"
    ),
    "none": "keine",
    # menu lines and headings
    "Keep {card}": "Behalten: {card}",
    "Sell to {fence}": "Verkaufen an {fence}",
    "Power tile {tile}, {paying}: {text}": "Machtplättchen {tile}, {paying}: {text}",
    "Deliver {what} to the Witch: +{n} Prestige": "{what} an die Hexe liefern: +{n} Prestige",
    "Burgle: 2 of your Thieves → 1 {what}": "Einbrechen: 2 deiner Diebe → 1 {what}",
    "Recruit: {a} and {b} → 1 Thief": "Anwerben: {a} und {b} → 1 Dieb",
    "Pass (no more actions this round; nobody can target you)": (
        "Passen (keine Aktionen mehr in dieser Runde; niemand kann dich angreifen)"
    ),
    "Skip (do nothing more here)": "Auslassen (hier nichts mehr tun)",
    "Give the Direction tile to {who}": "Richtungsplättchen an {who} geben",
    "Target {who}: {prestige} Prestige, {held}, {thieves}": (
        "{who} wählen: {prestige} Prestige, {held}, {thieves}"
    ),
    "{n} treasure": "{n} Schatz",
    "{n} treasures": "{n} Schätze",
    "{n} thief": "{n} Dieb",
    "{n} thieves": "{n} Diebe",
    "Return {fence} to the deck": "{fence} in den Stapel zurücklegen",
    " ({who} gets {b})": " ({who} bekommt {b})",
    " (you get the Owner Bonus: {b})": " (du bekommst den Besitzerbonus: {b})",
    "Steal at {where}: {text}{bonus}": "Stehlen bei {where}: {text}{bonus}",
    "neutral {card}": "{card} (neutral)",
    "your {card}": "deinem Ort {card}",
    "{who}'s {card}": "{card} von {who}",
    "Return {what} to the supply (you are over 8 treasures)": (
        "{what} in den Vorrat zurückgeben (du hast mehr als 8 Schätze)"
    ),
    "Pay {what}": "{what} bezahlen",
    "Destroy {who}'s {what}": "{what} von {who} zerstören",
    "Take {who}'s {what}": "{what} von {who} nehmen",
    "Take {what} from the supply": "{what} aus dem Vorrat nehmen",
    "Take a Thief off {where} (the card goes on top of the deck)": (
        "Einen Dieb von {where} nehmen (die Karte kommt oben auf den Stapel)"
    ),
    "Move the Thief from {where}": "Den Dieb von {where} versetzen",
    "Move it to {where}: {text}": "Ihn zu {where} versetzen: {text}",
    "Give away your {card}": "Deinen Ort {card} abgeben",
    "Take {where} in exchange": "{where} im Tausch nehmen",
    "Use the Power tile {tile}": "Das Machtplättchen {tile} nutzen",
    "Steal at a Location": "Bei einem Ort stehlen",
    "Sell to a Fence": "An einen Hehler verkaufen",
    "Deliver a treasure to the Witch": "Der Hexe einen Schatz liefern",
    "Burgle (2 Thieves for a treasure)": "Einbrechen (2 Diebe für einen Schatz)",
    "Recruit (2 treasures for a Thief)": "Anwerben (2 Schätze für einen Dieb)",
    "Choose a treasure": "Einen Schatz wählen",
    "Choose a Location": "Einen Ort wählen",
}

_EXACT = {
    "the game is over": "das Spiel ist vorbei",
    "pick a Location card to keep": "wähl eine Ortskarte, die du behältst",
    "give the Direction tile to a tied player": (
        "gib das Richtungsplättchen einem gleichauf liegenden Spieler"
    ),
    "take an action or pass": "mach eine Aktion oder passe",
    "you have more than 8 treasures: choose one to return": (
        "du hast mehr als 8 Schätze: Wähl einen zum Zurückgeben"
    ),
    "take a follow-up action (compulsory)": "mach eine Folgeaktion (Pflicht)",
    "you may take a follow-up action": "du darfst eine Folgeaktion machen",
    "choose a Location to take a Thief from": "wähl einen Ort, von dem du einen Dieb nimmst",
    "choose an opponent to take a thief from": "wähl einen Gegner, dem du einen Dieb wegnimmst",
    "choose an opponent to take a treasure from": (
        "wähl einen Gegner, dem du einen Schatz wegnimmst"
    ),
    "choose an opponent to destroy a treasure from": (
        "wähl einen Gegner, dessen Schatz du zerstörst"
    ),
    "choose an opponent to destroy a thief from": "wähl einen Gegner, dessen Dieb du zerstörst",
    "choose a Location to move a Thief from": "wähl einen Ort, von dem du einen Dieb versetzt",
    "choose one of your Locations to swap": "wähl einen deiner Orte zum Tauschen",
}
# The engine's words for the decision asked (``view["decision"]``), as patterns.
DECISIONS: tuple[tuple[str, str], ...] = (
    *((re.escape(k), v) for k, v in _EXACT.items()),
    (r"choose a treasure to take \((\d+) left\)", "wähl einen Schatz zum Nehmen (noch {0})"),
    (r"choose a treasure to pay \((\d+) left\)", "wähl einen Schatz zum Bezahlen (noch {0})"),
    (
        r"choose a Fence of the row to return \((\d+) left\)",
        "wähl einen Hehler der Reihe zum Zurücklegen (noch {0})",
    ),
    (r"choose a treasure of seat (\d+) to take", "wähl einen Schatz von Platz {0} zum Nehmen"),
    (
        r"choose a treasure of seat (\d+) to destroy",
        "wähl einen Schatz von Platz {0} zum Zerstören",
    ),
    (
        r"choose a Location to move the Thief from (\S+) to",
        "wähl einen Ort, auf den der Dieb von {0} geht",
    ),
    (
        r"choose an opponent's Location to swap for (\S+)",
        "wähl einen Ort eines Gegners zum Tausch gegen {0}",
    ),
)

LEGEND = """\
T J A F P   Schätze: Foliant, Juwel, Artefakt, Fossil, Trank (J2: zwei Juwelen)
★           Prestige; ein Hehler „T A F P → 11★“ will diese Schätze und gibt 11 Prestige
☻           ein Dieb auf einer Ortskarte (auf ihrem Aktionsfeld)
◆ …         der Platz mit dem Richtungsplättchen; ein Platz, der noch handeln muss
31★ 2☻      Prestige und Diebe eines Platzes (seine Zeile auf einem engen Bildschirm: dem
            vollsten eines kleinen Terminals, ohne Spaltenköpfe; „2× Herzog“: zwei davon)
Hexe T→4    einen Folianten an die Hexe liefern gibt 4 Prestige (durchgestrichen: belegt)
gesammelt   behaltene Orte nach Typ (Dor Dorf, Sch Schatten, Rui Ruinen, Hei Heilig, Sta
            Stadt) | belieferte Hehler nach Typ (Adl Adliger, Age Agent, Sam Sammler,
            Hex Hexer, Söl Söldner, Hau Hausierer, Tüf Tüftler); +Herzog: in dieser
            Runde an den Herzog verkauft (auf dem kompakten Brett eines kleinen
            Terminals, dessen Hehler ihren Typ nennen: Herzog (Adl))
Machtplättchen mit Namen; was ein Plättchen tut, steht in den Menüzeilen „Machtplättchen …“
(die Karten deiner Hand: in den Zeilen „Behalten: …“)"""

EFFECTS = {
    "gain": "Nehmen",
    "wild": "Beliebiger Schatz",
    "prestige": "Prestige",
    "take": "Wegnehmen",
    "destroy": "Zerstören",
    "pay": "Bezahlen",
    "draw_location": "Ort ziehen",
    "action": "Aktion",
    "recall_thief": "Dieb zurückholen",
    "move_thief": "Dieb versetzen",
    "refresh_fences": "Hehler erneuern",
    "swap_location": "Ort tauschen",
    "limit": "Limit",
    "unplace": "Dieb zurücknehmen",
}


def _acc(what: str) -> str:
    return NOUNS[what][2] if what in NOUNS else what


def describe(event: Event, seat: int | None = None, names: Sequence[str] | None = None) -> str:
    """Ein Ereignis auf Deutsch, wie ``seat`` (``None``: ein Zuschauer) es liest."""
    d: Mapping[str, Any] = event.data
    w = GermanSeats(seat, names)
    t = event.type
    s = d.get("seat", -1)
    card_name = _card_words(event)
    template = SENTENCES.get(t)
    if template is not None:
        du, er, rest = template
        return w.does(s, du, er, rest.format_map(_fields(d, w, card_name)))
    if t == "round":
        holder = d["holder"]
        direction = WORDS.get(str(d["direction"]), str(d["direction"]))
        return (
            f"Runde {d['round']} beginnt; {w.nom(holder)} {w.v(holder, 'hast', 'hat')} "
            f"das Richtungsplättchen ({direction})"
        )
    if t == "dealt":
        cards = ", ".join(card_name(c) for c in d["cards"]) or "keine"
        reader = d.get("seat", event.audience if event.audience is not None else seat)
        if reader is None or w.me(reader):
            return f"Dir wurden ausgeteilt: {cards}"
        return f"{w.name(reader)} wurden ausgeteilt: {cards}"
    if t == "reveal":
        shown = [f"{w.nom(int(k))}: {card_name(c)}" for k, c in d["cards"].items()]
        return "Aufgedeckt — " + "; ".join(shown)
    if t == "neutral":
        cards = ", ".join(card_name(c) for c in d["cards"]) or "keine"
        return f"Neutrale Orte in dieser Runde: {cards}"
    if t == "steal":
        where = f"bei {card_name(d['card'])}"
        if d["owner"] not in (-1, s, None):
            where += f" {w.von(d['owner'])}"
        return w.does(s, "stiehlst", "stiehlt", where)
    if t == "gain" and d["count"] == 0:
        none = NOUNS.get(d["what"], (d["what"], d["what"], ""))[1]
        return w.does(s, "bekommst", "bekommt", f"keine {none}") + ": Der Vorrat ist leer"
    if t == "fence_drawn":
        return f"Neuer Hehler: {card_name(d['card'])}"
    if t == "fences_drawn":
        return "Neue Hehler: " + (", ".join(card_name(c) for c in d["cards"]) or "keine")
    if t == "no_effect":
        effect = EFFECTS.get(d["effect"], str(d["effect"]).replace("_", " "))
        return f"{w.nom(s, True)}: {effect} hat keine Wirkung"
    if t == "cleanup":
        return f"Runde {d['round']} aufgeräumt"
    if t == "final":
        return _final(d, w)
    if t == "game_over":
        scores = ", ".join(f"{w.res(k)} {v}" for k, v in enumerate(d["scores"]))
        winners = w.join([w.res(k) for k in d["winners"]])
        return f"Das Spiel ist vorbei. Sieger: {winners}. Punkte: {scores}"
    return f"{t}: {dict(d)}"


def _card_words(event: Event) -> Callable[[str], str]:
    """How the event's words name its cards: its card set's German names (see
    :func:`~thievery.games.thieves_den.cards.card_words`)."""
    from thievery.games.thieves_den.cards import card_words

    return card_words(event, german=True)


def _fields(
    d: Mapping[str, Any], w: GermanSeats, card_name: Callable[[str], str]
) -> dict[str, str]:
    """The words a sentence of ``SENTENCES`` may use."""
    out: dict[str, str] = {}
    for key, value in d.items():
        if key in ("from", "with", "owner") and isinstance(value, int):
            out[f"von_{key}"] = w.von(value)
        elif key in ("card", "mine", "theirs", "tile", "to", "from"):
            out[key] = card_name(str(value))
        elif key in ("what", "treasure", "pay") and isinstance(value, str):
            out[key] = _acc(value)
        else:
            out[key] = str(value)
    if "count" in d and "what" in d:
        out["things"] = count(int(d["count"]), str(d["what"]))
    pay = d.get("pay")
    if pay is not None:
        paid = pay if isinstance(pay, list) else [pay]
        if len(paid) == 2 and paid[0] == paid[1] and str(paid[0]) in DATIVE_PLURAL:
            out["pay_dat"] = f"zwei {DATIVE_PLURAL[str(paid[0])]}"  # (not "einem Folianten
        else:  # und einem Folianten")
            out["pay_dat"] = " und ".join(DATIVE.get(str(x), str(x)) for x in paid)
    return out


# Sentences "<seat> <verb> <rest>": (du-form, er-form, the rest with fields).
SENTENCES: Mapping[str, tuple[str, str, str]] = {
    "picked": ("hast", "hat", "eine Karte gewählt"),
    "you_picked": ("behältst", "behält", "{card}"),
    "instant": ("nutzt", "nutzt", "sofort {card}"),
    "bonus": ("bekommst", "bekommt", "den Besitzerbonus von {card}"),
    "gain": ("nimmst", "nimmt", "{things}"),
    "prestige": ("bekommst", "bekommt", "{count} Prestige"),
    "pay": ("bezahlst", "bezahlt", "{things}"),
    "return": ("gibst", "gibt", "{things} zurück (über dem Limit)"),
    "take": ("nimmst", "nimmt", "{what} {von_from}"),
    "destroy": ("zerstörst", "zerstört", "{what} {von_from}"),
    "fence": ("verkaufst", "verkauft", "an den Hehler {card} für {prestige} Prestige"),
    "power": ("nutzt", "nutzt", "das Machtplättchen {tile} (bezahlt mit {pay_dat})"),
    "witch": ("lieferst", "liefert", "der Hexe {treasure} für {prestige} Prestige"),
    "burgle": ("brichst", "bricht", "mit 2 Dieben ein: {treasure}"),
    "recruit": ("wirbst", "wirbt", "mit {pay_dat} einen Dieb an"),
    "pass": ("passt", "passt", ""),
    "skip": ("lässt", "lässt", "die Folgeaktion aus"),
    "draw_location": ("ziehst", "zieht", "{card} vom Ortsstapel"),
    "recall": ("nimmst", "nimmt", "einen Dieb von {card}; die Karte kommt oben auf den Stapel"),
    "move": ("versetzt", "versetzt", "einen Dieb von {from} nach {to}"),
    "unplace": ("nimmst", "nimmt", "den Dieb von {card} zurück"),
    "return_fence": ("gibst", "gibt", "den Hehler {card} zurück"),
    "swap": ("tauschst", "tauscht", "{mine} gegen {theirs} {von_with}"),
    "direction": ("nimmst", "nimmt", "das Richtungsplättchen"),
}


def _final(d: Mapping[str, Any], w: GermanSeats) -> str:
    major = [f"{TYPES.get(m, m)} → {w.res(s)}" for m, s in d["majorities"].items() if s is not None]
    schemes = []
    for k, x in enumerate(d["schemes"]):
        types = str(x["scheme"]).split("-")
        named = " + ".join(TYPES.get(t, t) for t in types)
        schemes.append(f"{w.res(k)}: Plan {named} ×{x['sets']} (+{x['prestige']})")
    return f"Schlusswertung — Mehrheiten: {', '.join(major) or 'keine'}; " + "; ".join(schemes)
