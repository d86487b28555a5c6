"""German for the terminal's own words (menus, prompts, the log's frame, errors); each
game's words are in its own package's ``lang_de``. See :mod:`thievery.core.i18n`."""

from __future__ import annotations

from collections.abc import Mapping

WORDS: Mapping[str, str] = {
    # play
    "--humans must be between 0 and {n}": "--humans muss zwischen 0 und {n} liegen",
    "--bots needs {n} names, one per non-human seat": (
        "--bots braucht {n} Namen, einen für jeden Platz ohne Menschen"
    ),
    "{title} is played in real time and has no live terminal screen: "
    "play it in the browser (thievery serve)": (
        "{title} wird in Echtzeit gespielt und hat keinen Live-Bildschirm im Terminal: "
        "Spiel es im Browser (thievery serve)"
    ),
    "{title} is played live and needs a terminal to read your keys from: "
    "the input is not a terminal (bots alone play without one: --humans 0)": (
        "{title} wird live gespielt und braucht ein Terminal, aus dem es deine Tasten "
        "liest: Die Eingabe ist kein Terminal (Bots allein spielen ohne: --humans 0)"
    ),
    "{title} is played live: at most one human per terminal": (
        "{title} wird live gespielt: höchstens ein Mensch pro Terminal"
    ),
    "{title} has no first player: --first is not for it": (
        "{title} hat keinen Startspieler: --first gibt es dafür nicht"
    ),
    "--first and --option first_player both name the first player: give one": (
        "--first und --option first_player nennen beide den Startspieler: Gib nur eins an"
    ),
    "--first is a seat from 1 to {n} (Seat 1 to {last}), not {value}": (
        "--first ist ein Platz von 1 bis {n} (Platz 1 bis {last}), nicht {value}"
    ),
    "--option first_player counts seats from 0, as game records do: 0 (Seat 1 on the "
    "screen) to {high} ({last}), not {value}; or use --first, which counts from 1 as the "
    "screens do (--first 1 to --first {n})": (
        "--option first_player zählt die Plätze ab 0, wie Spielprotokolle: 0 (Platz 1 auf "
        "dem Bildschirm) bis {high} ({last}), nicht {value}; oder nimm --first, das wie "
        "der Bildschirm ab 1 zählt (--first 1 bis --first {n})"
    ),
    "Left the game.": "Spiel verlassen.",
    "{kind} ({words})": "{kind} ({words})",
    "no such game": "Dieses Spiel gibt es nicht",
    "not allowed": "Nicht erlaubt",
    "not a game record that replays": "Keine Spielaufzeichnung, die sich nachspielen lässt",
    "not an action": "Kein Zug",
    "not a legal action now": "Jetzt kein erlaubter Zug",
    "refused": "Abgelehnt",
    "Game record saved to {file}": "Spielprotokoll gespeichert in {file}",
    "{option}: {file} is a folder, not a file": "{option}: {file} ist ein Ordner, keine Datei",
    "{option}: {file} is a file, not a folder": "{option}: {file} ist eine Datei, kein Ordner",
    "{title} needs {low} to {high} players, not {n}": (
        "{title} braucht {low} bis {high} Spieler, nicht {n}"
    ),
    "{option}: there is no folder {folder}": "{option}: Es gibt keinen Ordner {folder}",
    "{option}: {file} cannot be written": "{option}: {file} kann nicht geschrieben werden",
    "Could not write {file} ({error}).": "{file} konnte nicht geschrieben werden ({error}).",
    "Game record saved to {file} (replay: thievery replay {file})": (
        "Spielprotokoll gespeichert in {file} (nachspielen: thievery replay {file})"
    ),
    "Seat {n}": "Platz {n}",
    "What happened": "Was geschah",
    " (? for a legend)": " (? für die Legende)",
    "Scores: {scores}\nWinner: {winners}": "Punkte: {scores}\nSieger: {winners}",
    "Final standings": "Endstand",
    "[bold]Pass the terminal to {who}[/] and press Enter (q quits) ": (
        "[bold]Gib das Terminal an {who} weiter[/] und drück Enter (q beendet) "
    ),
    "Press Enter to go on, or q to quit.": "Drück Enter, um weiterzumachen, oder q zum Beenden.",
    "{seat} — your turn": "{seat} — du bist dran",
    "more choices ({n} on the next page)": "weitere Möglichkeiten ({n} auf der nächsten Seite)",
    "back": "zurück",
    "{seat}, choose {low}-{count} (? legend, q quit): ": (
        "{seat}, wähl {low}-{count} (? Legende, q beenden): "
    ),
    "{seat} · {opened} · choose {low}-{count} (? legend, q quit): ": (
        "{seat} · {opened} · wähl {low}-{count} (? Legende, q beenden): "
    ),
    "{seat} — your turn · choose {low}-{count} (? legend, q quit): ": (
        "{seat} — du bist dran · wähl {low}-{count} (? Legende, q beenden): "
    ),
    "This game's screen has no symbols to explain.": (
        "Der Bildschirm dieses Spiels hat keine Symbole, die zu erklären wären."
    ),
    "Legend": "Legende",
    "Please type a number from {low} to {count}.": "Bitte gib eine Zahl von {low} bis {count} ein.",
    # menus (and the default headings: an action's type)
    "{title} … ({n} choices)": "{title} … ({n} Möglichkeiten)",
    "Play": "Ausspielen",
    "Steal": "Stehlen",
    "Add": "Anlegen",
    "Done": "Fertig",
    "Move": "Verschieben",
    "Remove": "Entfernen",
    "Pass": "Passen",
    "Drop": "Packen",
    "Close": "Schließen",
    "Ready": "Bereit",
    "Tick": "Uhr",
    # replay
    "--seat must be between 1 and {n}": "--seat muss zwischen 1 und {n} liegen",
    "the clock": "die Uhr",
    "The clock": "Die Uhr",
    "Enter: next, q: quit ": "Enter: weiter, q: beenden ",
    "Result: {scores}; won by {winners}": "Ergebnis: {scores}; gewonnen: {winners}",
    "The game is not over: the record ends before its end.": (
        "Das Spiel ist nicht zu Ende: Das Spielprotokoll endet vorher."
    ),
    "The record says the result was {said}, but its actions give {result}: it was changed "
    "after the game (thievery verify checks a record)": (
        "Das Spielprotokoll nennt das Ergebnis {said}, seine Züge ergeben aber {result}: Es "
        "wurde nach dem Spiel verändert (thievery verify prüft ein Spielprotokoll)"
    ),
    "{name}: the record's {recorded}, this install's {current}": (
        "{name}: im Spielprotokoll {recorded}, hier {current}"
    ),
    "none": "keins",
    "The record was played with other {title} components than this install has "
    "({changes}): replayed here it would not be the game played; replay it with the "
    "Thievery version that made it": (
        "Das Spielprotokoll wurde mit anderem Spielmaterial von {title} gespielt, als diese "
        "Installation hat ({changes}): Hier nachgespielt wäre es nicht das gespielte Spiel; "
        "spiel es mit der Thievery-Version nach, die es gemacht hat"
    ),
    # games, rules, errors
    "Thievery games": "Thievery-Spiele",
    "name": "Name",
    "title": "Titel",
    "players": "Spieler",
    "options": "Optionen",
    "bots": "Bots",
    "not loaded:": "nicht geladen:",
    "{game} has no rules page": "{game} hat keine Regelseite",
    "an option is NAME=VALUE, not {pair}": "eine Option ist NAME=WERT, nicht {pair}",
    "error: {message}": "Fehler: {message}",
    # the command line's own words (Typer's: thievery.cli.usage)
    "Arguments": "Argumente",
    "Options": "Optionen",
    "Commands": "Befehle",
    "Error": "Fehler",
    "[default: {}]": "[Standard: {}]",
    "[required]": "[Pflicht]",
    "[env var: {}]": "[Umgebungsvariable: {}]",
    "(deprecated) ": "(veraltet) ",
    "Aborted.": "Abgebrochen.",
    "Try [blue]'{command_path} {help_option}'[/] for help.": (
        "Hilfe zeigt [blue]'{command_path} {help_option}'[/]."
    ),
    "Usage: ": "Aufruf: ",
    "[OPTIONS]": "[OPTIONEN]",
    "COMMAND [ARGS]...": "BEFEHL [ARGUMENTE]...",
    "Show this message and exit.": "Diese Hilfe zeigen und beenden.",
    "Invalid value for {hint}: {message}": "Ungültiger Wert für {hint}: {message}",
    "Invalid value: {message}": "Ungültiger Wert: {message}",
    "Missing argument {hint}.": "Das Argument {hint} fehlt.",
    "Missing option {hint}.": "Die Option {hint} fehlt.",
    "Missing parameter {hint}.": "Der Parameter {hint} fehlt.",
    "No such option: {option} (Possible options: {options})": (
        "Unbekannte Option: {option} (Meintest du: {options}?)"
    ),
    "No such option: {option}": "Unbekannte Option: {option}",
    "Option {option} requires an argument.": "Die Option {option} braucht einen Wert.",
    "Option {option} requires {n} arguments.": "Die Option {option} braucht {n} Werte.",
    "Option {option} does not take a value.": "Die Option {option} nimmt keinen Wert.",
    "Argument {name} takes {n} values.": "Das Argument {name} nimmt {n} Werte.",
    "Got unexpected extra argument(s) ({args})": "Zu viele Argumente ({args})",
    "No such command {name}. Did you mean {names}?": (
        "Unbekannter Befehl {name}. Meintest du {names}?"
    ),
    "No such command {name}.": "Unbekannter Befehl {name}.",
    "Missing command.": "Der Befehl fehlt.",
    "Value error, {value} is not one of {choices}.": "{value} ist keins von {choices}.",
    "{label} {path} does not exist.": "{path} gibt es nicht.",
    "{label} {path} is a file.": "{path} ist eine Datei.",
    "{label} {path} is a directory.": "{path} ist ein Ordner.",
    "{label} {path} is not readable.": "{path} ist nicht lesbar.",
    "{label} {path} is not writable.": "{path} ist nicht beschreibbar.",
    "unknown language {lang} (languages: {languages})": (
        "unbekannte Sprache {lang} (Sprachen: {languages})"
    ),
    "seconds above 0 and at most {most}, not {value}": (
        "Sekunden über 0 und höchstens {most}, nicht {value}"
    ),
    "{value} is not a whole number": "{value} ist keine ganze Zahl",
    "{value} is not a number": "{value} ist keine Zahl",
    "{value} is too small (at least {limit})": "{value} ist zu klein (mindestens {limit})",
    "{value} is too small (more than {limit})": "{value} ist zu klein (mehr als {limit})",
    "{value} is too large (at most {limit})": "{value} ist zu groß (höchstens {limit})",
    "{value} is too large (less than {limit})": "{value} ist zu groß (weniger als {limit})",
}
