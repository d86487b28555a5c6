// Thieves Den's renderer: the board (Fences, Power tiles, the Witch, Burgle, Recruit, the
// supply), every player's board with the Locations and Fences above it, your Scheme and
// your drafted hand. It follows the renderer interface documented in generic.js:
// render(root, ctx) draws the view it is given, and every legal action becomes an element
// with data-action (clicked on the board, or as a button of the decision panel).
//
// Card texts: views name cards by id; the words come with the view, in view.catalogue (the
// table's card set as the engine words it: names, types, ability and owner-bonus texts,
// prices; one entry per design, by its id without the copy letter). It never changes, so
// the server sends it once per connection and the page keeps it (see js/table.js).
//
// Recruit needs two treasures: elements with data-pick='{…}' pick the first one (they send
// nothing); the pick is forgotten as soon as the legal actions change.

import { esc, eventData, germanSeats, listenForPicks, resultName } from "/static/js/common.js";
import { addGerman, lang, t as tr } from "/static/js/i18n.js";
import { narrate } from "/static/js/motion.js";

// German for the board's own words. The card set's names and texts come from the server's
// catalogue: on a German page its German words (catalogue.de, see catalogue() below).
addGerman({
  "Tome": "Foliant", "Jewel": "Juwel", "Artifact": "Artefakt", "Fossil": "Fossil", "Potion": "Trank",
  "Tomes": "Folianten", "Jewels": "Juwelen", "Artifacts": "Artefakte", "Fossils": "Fossilien", "Potions": "Tränke",
  "Thief": "Dieb", "Thieves": "Diebe", "thief": "Dieb", "thieves": "Diebe", "treasure": "Schatz", "treasures": "Schätze",
  "Prestige": "Prestige", "Wild": "Beliebig",
  "Village": "Dorf", "Shadow": "Schatten", "Ruins": "Ruinen", "Holy": "Heilig", "City": "Stadt",
  "Noble": "Adliger", "Agent": "Agent", "Collector": "Sammler", "Warlock": "Hexer", "Mercenary": "Söldner",
  "Peddler": "Hausierer", "Tinkerer": "Tüftler", "Fence": "Hehler",
  "Scouting": "Auskundschaften", "Thieving": "Stehlen", "Cleanup": "Aufräumen", "Game over": "Spiel vorbei",
  "{n} of your choice": "{n} nach Wahl",
  "Instant: its ability happens when it is revealed": "Sofort: Die Fähigkeit wirkt beim Aufdecken",
  "{n} Thieves on the Action Spot": "{n} Diebe auf dem Aktionsfeld", "1 Thief on the Action Spot": "1 Dieb auf dem Aktionsfeld",
  "Action Spot: free": "Aktionsfeld: frei",
  "Owner Bonus (for the card's owner when an opponent steals here): {b}": "Besitzerbonus (für den Besitzer, wenn ein Gegner hier stiehlt): {b}",
  "owner": "Besitzer", "instant": "sofort", " — Instant": " — Sofort", " — Owner Bonus: {b}": " — Besitzerbonus: {b}", "Owner Bonus: {b}": "Besitzerbonus: {b}",
  "Fence {name}": "Hehler {name}", " — sold to {n} times": " — {n}-mal beliefert", " — sold to once": " — einmal beliefert",
  "{n} Thieves on it": "{n} Diebe darauf", "1 Thief on it": "1 Dieb darauf", "desires: {d}": "will: {d}", "wants {n}": "will {n}", "a face-down card": "eine verdeckte Karte",
  "the neutral": "die neutrale", "your": "deine", "{who}’s": "{who}s",
  "Keep {card}": "{card} behalten",
  " (you get the Owner Bonus: {b})": " (du bekommst den Besitzerbonus: {b})", " ({who} gets {b})": " ({who} bekommt {b})",
  "Steal at {whose} {card}: {text}{bonus}": "Stehlen bei {whose} {card}: {text}{bonus}",
  " (above {whose} board)": " (über {whose} Tableau)", "Sell {d} to {card}{where} for {n} Prestige": "{d} an {card}{where} für {n} Prestige verkaufen",
  "{tile}, paying {pay}: {text}": "{tile}, bezahlt mit {pay}: {text}",
  "Deliver {what} to the Witch: +{n} Prestige": "{what} an die Hexe liefern: +{n} Prestige",
  "Burgle: 2 of your Thieves → 1 {what}": "Einbrechen: 2 deiner Diebe → 1 {what}",
  "Recruit: {a} and {b} → 1 Thief": "Anwerben: {a} und {b} → 1 Dieb",
  "Pass (no more actions this round; nobody can target you)": "Passen (keine Aktionen mehr in dieser Runde; niemand kann dich angreifen)",
  "Stop: take no more": "Aufhören: nichts mehr nehmen", "Skip the follow-up action": "Folgeaktion auslassen", "Skip": "Auslassen",
  "Keep the Direction tile": "Richtungsplättchen behalten", "Give the Direction tile to {who}": "Richtungsplättchen an {who} geben",
  "{who} ({n}, {thieves})": "{who} ({n}, {thieves})",
  "Return {card} to the bottom of the Fence deck": "{card} unter den Hehlerstapel legen",
  "Return {what} (you hold more than 8)": "{what} zurückgeben (du hast mehr als 8)", "Pay {what}": "{what} bezahlen",
  "Destroy {who}’s {what}": "{what} von {who} zerstören", "Take {who}’s {what}": "{what} von {who} nehmen",
  "Take {what} from the supply": "{what} aus dem Vorrat nehmen",
  "Take a Thief off {whose} {card} (the card goes on top of the deck)": "Einen Dieb von {whose} {card} nehmen (die Karte kommt oben auf den Stapel)",
  "Move the Thief from {whose} {card}": "Den Dieb von {whose} {card} versetzen", "Move it to {whose} {card}: {text}": "Auf {whose} {card} versetzen: {text}",
  "Give away your {card}": "Deine {card} abgeben", "Take {whose} {card} in exchange": "{whose} {card} im Tausch nehmen",
  "a Thief": "einen Dieb", "a treasure": "einen Schatz",
  "choose the opponent to take {what} from": "wähl den Gegner, von dem du {what} nimmst",
  "choose the opponent to destroy {what} from": "wähl den Gegner, dessen {what} du zerstörst",
  "choose which of {who}’s treasures to take": "wähl, welchen Schatz von {who} du nimmst",
  "choose which of {who}’s treasures to destroy": "wähl, welchen Schatz von {who} du zerstörst",
  "choose where to move the Thief from {card}": "wähl, wohin der Dieb von {card} geht",
  "choose an opponent’s Location to take in exchange": "wähl einen Ort eines Gegners zum Tausch",
  "choose a treasure to take ({n} left)": "wähl einen Schatz zum Nehmen (noch {n})",
  "choose a treasure to pay ({n} left)": "wähl einen Schatz zum Bezahlen (noch {n})",
  "choose a Fence of the row to return ({n} left)": "wähl einen Hehler der Reihe zum Zurücklegen (noch {n})",
  "you have more than 8 treasures: choose one to return": "du hast mehr als 8 Schätze: wähl einen zum Zurückgeben",
  "choose a Location to take a Thief from": "wähl einen Ort, von dem du einen Dieb nimmst",
  "choose a Location to move a Thief from": "wähl einen Ort, von dem du einen Dieb versetzt",
  "choose one of your Locations to swap": "wähl einen deiner Orte zum Tauschen",
  "take a follow-up action (compulsory)": "mach eine Folgeaktion (Pflicht)",
  "you may take a follow-up action": "du darfst eine Folgeaktion machen",
  "empty slot": "leerer Platz", "Fences": "Hehler", "sell their desires for Prestige": "verkauf, was sie wollen, für Prestige",
  "Fence cards in the deck": "Hehlerkarten im Stapel", "Fence cards in the deck: {n}": "Hehlerkarten im Stapel: {n}", "stack {n} is empty": "Stapel {n} ist leer",
  "Use, paying": "Nutzen, bezahlt mit", "Use {tile}, paying {pay}": "{tile} nutzen, bezahlt mit {pay}",
  "used this round (paid with {pay})": "in dieser Runde genutzt (bezahlt mit {pay})", "used": "genutzt",
  "face-down tiles below: one comes up each round": "verdeckte Plättchen darunter: jede Runde kommt eins hoch",
  "{n} below": "{n} darunter", "last tile": "letztes Plättchen", "Gone: {list}": "Weg: {list}",
  "Power tiles": "Machtplättchen", "pay 1 treasure, once a round each": "1 Schatz bezahlen, je einmal pro Runde",
  "taken": "belegt", "taken this round": "in dieser Runde belegt", "deliver {what}: +{n} Prestige": "{what} liefern: +{n} Prestige",
  "The Witch": "Die Hexe", "1 treasure → Prestige": "1 Schatz → Prestige",
  "Thieves spent on Burgle this round: {n}": "in dieser Runde fürs Einbrechen ausgegebene Diebe: {n}", "no Thieves yet": "noch keine Diebe",
  "Take": "Nehmen", "Burgle: 2 Thieves → 1 {what}": "Einbrechen: 2 Diebe → 1 {what}", "Burgle": "Einbrechen", "2": "2",
  "→ 1 treasure": "→ 1 Schatz", "and": "und", "Cancel": "Abbrechen", "Pay": "Bezahlen",
  "Recruit: pay {what} and one more treasure": "Anwerben: {what} und einen weiteren Schatz bezahlen",
  "Recruit": "Anwerben", "2 treasures → 1": "2 Schätze → 1", "no treasures yet": "noch keine Schätze",
  "{what}: {n} in the supply": "{what}: {n} im Vorrat", "Known on top: {list}": "Bekannt oben: {list}",
  "Supply": "Vorrat", "limited": "begrenzt", "Thieves: {n} in the supply": "Diebe: {n} im Vorrat",
  "Location cards in the deck": "Ortskarten im Stapel", "Location cards in the deck: {n}": "Ortskarten im Stapel: {n}", "Locations": "Orte", "click: {what}": "Klick: {what}",
  "neutral: no Owner Bonus": "neutral: kein Besitzerbonus", "Neutral Locations": "Neutrale Orte",
  "anyone may steal here; no Owner Bonus": "alle dürfen hier stehlen; kein Besitzerbonus",
  "★ wins": "★ gewinnt", "✓ picked": "✓ gewählt", "choosing…": "wählt …", "passed": "gepasst", "to act": "am Zug", "deciding…": "entscheidet …",
  "a secret Scheme": "ein geheimer Plan", "Scheme hidden": "Plan verdeckt",
  "scored 1 set: +{n}": "1 Satz gewertet: +{n}", "scored {k} sets: +{n}": "{k} Sätze gewertet: +{n}",
  "1 set so far": "bisher 1 Satz", "{k} sets so far": "bisher {k} Sätze",
  "Scheme: {n} Prestige for each set of {a} and {b} Location collected": "Plan: {n} Prestige für jeden gesammelten Satz aus {a}- und {b}-Ort",
  "Scheme": "Plan", "/set": "/Satz", "Keep the tile": "Plättchen behalten", "Give the tile": "Plättchen abgeben", "Target": "Ziel",
  "has the Direction tile ({dir}): first in turn order": "hat das Richtungsplättchen ({dir}): zuerst an der Reihe",
  "Fence {name} ({type}): {n} Prestige": "Hehler {name} ({type}): {n} Prestige",
  "Collected over the game": "Im Spiel gesammelt", "{n} cards in hand": "{n} Karten auf der Hand", "1 card in hand": "1 Karte auf der Hand",
  "you": "du", "bot": "Bot", "treasures held (at most 8)": "gehaltene Schätze (höchstens 8)",
  "treasures held: {n} (at most 8)": "gehaltene Schätze: {n} (höchstens 8)", "Thieves: {n} (at most 6)": "Diebe: {n} (höchstens 6)",
  "Prestige: {n}": "Prestige: {n}", "Prestige for a sale: {n}": "Prestige pro Verkauf: {n}",
  "Thieves on the board: {n}": "Diebe auf dem Tableau: {n}", "Thieves (at most 6)": "Diebe (höchstens 6)",
  "Collected": "Gesammelt", "no Locations": "keine Orte", "none": "keine",
  "Locations appear here when revealed": "Orte erscheinen hier, wenn sie aufgedeckt werden",
  "no Locations or Fences this round": "keine Orte oder Hehler in dieser Runde",
  "a type of your Scheme": "eine Art deines Plans", "You keep (sealed)": "Du behältst (verdeckt)",
  "clockwise": "im Uhrzeigersinn", "counter-clockwise": "gegen den Uhrzeigersinn",
  "Your hand": "Deine Hand", "keep 1, pass the rest {dir}": "1 behalten, den Rest {dir} weitergeben",
  " and ": " und ", "The game is over: {who} share the win.": "Das Spiel ist vorbei: {who} teilen sich den Sieg.",
  "The game is over: you win.": "Das Spiel ist vorbei: Du gewinnst.", "The game is over: {who} wins.": "Das Spiel ist vorbei: {who} gewinnt.",
  "Scouting: choose a Location card to keep — it stays sealed until everyone has chosen.": "Auskundschaften: Wähl eine Ortskarte zum Behalten — sie bleibt verdeckt, bis alle gewählt haben.",
  "Your turn: steal at a Location, sell to a Fence, use a Power tile, deliver to the Witch, Burgle or Recruit — or pass.": "Du bist dran: an einem Ort stehlen, an einen Hehler verkaufen, ein Machtplättchen nutzen, an die Hexe liefern, einbrechen oder anwerben — oder passen.",
  "the reveal": "das Aufdecken", "You chose. Waiting for {who}…": "Du hast gewählt. Warte auf {who} …",
  "Scouting: {who} is choosing…": "Auskundschaften: {who} wählt …", "Scouting: {who} are choosing…": "Auskundschaften: {who} wählen …",
  "Sending your move…": "Dein Zug wird gesendet …", "give the Direction tile to a tied player": "gibt das Richtungsplättchen einem Gleichstehenden",
  "take an action or pass": "macht eine Aktion oder passt",
  "Click a highlighted Location, Fence, Power tile, Witch spot, Burgle or Recruit treasure.": "Klick einen hervorgehobenen Ort, Hehler, ein Machtplättchen, ein Hexenfeld oder einen Schatz bei Einbrechen oder Anwerben.",
  "Pass": "Passen", "most {type} Fences: +{n} Prestige": "die meisten {type}-Hehler: +{n} Prestige", "tie / none": "Gleichstand / keiner",
  "Final scoring": "Schlusswertung", "Most Fences of a type:": "Die meisten Hehler einer Art:",
  "Player": "Spieler", "In play": "Im Spiel", "Majorities": "Mehr\u00ADheiten", "Sets": "Sätze", "Final": "Ende",
  "Your turn": "Du bist dran", "{who}’s turn": "{who} ist dran", "Round {n} of 3": "Runde {n} von 3",
  "the Direction tile: turn order and passing direction": "das Richtungsplättchen: Zugreihenfolge und Weitergaberichtung",
  "↻ clockwise": "↻ im Uhrzeigersinn", "↺ counter-clockwise": "↺ gegen den Uhrzeigersinn", "from {who}": "ab {who}",
  "{set}: our own card set, not the publisher's": "{set}: unser eigener Kartensatz, nicht der des Verlags", "unofficial cards": "inoffizielle Karten",
  "Round {n} ends: the Thieves on the Locations go to their owners; the Locations and Fences are collected.": "Runde {n} endet: Die Diebe auf den Orten gehen an ihre Besitzer; die Orte und Hehler werden gesammelt.",
  "Final scoring: most Fences of a type — {list}.": "Schlusswertung: die meisten Hehler einer Art — {list}.",
  "Final scoring: nobody has the most Fences of a type.": "Schlusswertung: Niemand hat die meisten Hehler einer Art.",
  "{who} +{n} for the most {type} Fences": "{who} +{n} für die meisten {type}-Hehler",
  "Your Scheme ({a} + {b}): {k} × {p} = +{n} Prestige.": "Dein Plan ({a} + {b}): {k} × {p} = +{n} Prestige.",
  "{who}’s Scheme ({a} + {b}): {k} × {p} = +{n} Prestige.": "Plan von {who} ({a} + {b}): {k} × {p} = +{n} Prestige.",
});


const TREASURES = ["tome", "jewel", "artifact", "fossil", "potion"];
const LOC_TYPES = ["village", "shadow", "ruins", "holy", "city"];
const FENCE_TYPES = ["noble", "agent", "collector", "warlock", "mercenary", "peddler", "tinkerer"];
const PHASES = { scouting: "Scouting", thieving: "Thieving", direction: "Cleanup", over: "Game over" };

// ------------------------------------------------------------------ words

const cap = (s) => String(s).charAt(0).toUpperCase() + String(s).slice(1);
const plural = (n, word) => (n === 1 ? `1 ${tr(word)}` : `${n} ${tr(word === "Thief" ? "Thieves" : word === "thief" ? "thieves" : word + "s")}`);
/** "a Jewel", "an Artifact" (German: "1 Juwel"). */
const an = (t, upper = false) => (lang() === "de" ? `1 ${tr(cap(t))}` : `${/^[aeiou]/i.test(t) ? (upper ? "An" : "an") : upper ? "A" : "a"} ${cap(t)}`);
/** A treasure, type or phase word in the page's language ("Jewel", "Juwel"). */
const word = (s) => tr(cap(s));
const baseId = (id) => String(id).replace(/-[a-j]$/, "");
const titled = (s) => s.split("-").map(cap).join(" ");

const EMPTY_CATALOGUE = { witch: {}, majority: {}, locations: {}, fences: {}, schemes: {}, powers: {} };
const germanCatalogues = new WeakMap();

/** The view's card set in words, in the page's language: on a German page every design's
 * name and texts from catalogue.de (the card file's German, else made from the ability by
 * the server); a set without German words stays as it is. */
function catalogue(view) {
  const C = view.catalogue || EMPTY_CATALOGUE;
  if (lang() !== "de" || !C.de) return C;
  if (!germanCatalogues.has(C)) germanCatalogues.set(C, inGerman(C));
  return germanCatalogues.get(C);
}

function inGerman(C) {
  const words = (x) => Object.fromEntries(Object.entries(x || {}).filter(([, v]) => typeof v === "string" && v));
  const merged = (kind) => Object.fromEntries(Object.entries(C[kind] || {}).map(([id, x]) => [id, { ...x, ...words(C.de[kind]?.[id]) }]));
  return { ...C, name: C.de.name || C.name, locations: merged("locations"), fences: merged("fences"), powers: merged("powers") };
}

function loc(C, id) {
  const known = C.locations[id] || C.locations[baseId(id)];
  return known || { name: titled(baseId(id)), type: null, instant: false, text: "", bonus: [], bonus_text: "" };
}

function fence(C, id) {
  const known = C.fences[id] || C.fences[baseId(id)];
  if (known) return known;
  const [type, ...rest] = baseId(id).split("-");
  return { name: titled(rest.join("-") || type), type: FENCE_TYPES.includes(type) ? type : null, desires: [], prestige: "?" };
}

function power(C, id) {
  return C.powers[id] || { name: titled(id), text: "" };
}

function scheme(C, id) {
  const known = C.schemes[id];
  if (known) return known;
  return { types: String(id).split("-").filter((t) => LOC_TYPES.includes(t)), prestige: "?" };
}

function name(ctx, seat) {
  const s = ctx.seats?.[seat];
  return esc(s ? s.name : `Seat ${seat}`);
}

function plainName(ctx, seat) {
  const s = ctx.seats?.[seat];
  return s ? s.name : `Seat ${seat}`;
}

function whom(ctx, seat) {
  return seat === ctx.seat ? tr("you") : name(ctx, seat);
}

function attr(action) {
  return `data-action='${esc(JSON.stringify(action))}'`;
}

function pickAttr(pick) {
  return `data-pick='${esc(JSON.stringify(pick))}'`;
}

/** A list of treasure names as words: "2 Jewels + 1 Tome". */
function desireWords(desires) {
  const counts = {};
  for (const t of desires) counts[t] = (counts[t] || 0) + 1;
  return TREASURES.filter((x) => counts[x]).map((x) => plural(counts[x], cap(x))).join(" + ");
}

function bonusWords(bonus) {
  return bonus.map(([what, n]) => (what === "wild" ? tr("{n} of your choice", { n: plural(n, "treasure") }) : plural(n, cap(what)))).join(" + ");
}

// ------------------------------------------------------------------ drawing (our own SVG)

const ICONS = {
  tome: `<path d="M5 3.5h12.5a1.5 1.5 0 0 1 1.5 1.5v14.5H6.5A1.5 1.5 0 0 1 5 18z" fill="#3a6fd8" stroke="#16306b" stroke-width="1.1"/>
    <path d="M6.5 19.5h12.5v1.5H6.5a.75.75 0 0 1 0-1.5z" fill="#e9eefb" stroke="#16306b" stroke-width=".8"/>
    <rect x="7.2" y="3.5" width="1.6" height="16" fill="#244a9e"/><path d="M10.5 8h6M10.5 10.5h6" stroke="#d9e4ff" stroke-width="1.1" stroke-linecap="round"/>
    <circle cx="13.5" cy="14.5" r="1.6" fill="#f3d27f"/>`,
  jewel: `<path d="M5 9.5 8.5 4.5h7L19 9.5 12 20z" fill="#d8358e" stroke="#6d0f44" stroke-width="1.1" stroke-linejoin="round"/>
    <path d="M5 9.5h14M8.5 4.5 10.5 9.5 12 20M15.5 4.5l-2 5L12 20M10.5 9.5 12 4.5l1.5 5" fill="none" stroke="#7d1550" stroke-width=".7"/>
    <path d="M8.7 5.6 7.3 8.6" stroke="#ffd1ea" stroke-width="1.1" stroke-linecap="round"/>`,
  artifact: `<path d="M9 3.5h6v1.8l-1.2 1.3c3.4 1 5.4 3.8 5.4 7.2 0 4-3.2 6.7-7.2 6.7s-7.2-2.7-7.2-6.7c0-3.4 2-6.2 5.4-7.2L9 5.3z" fill="#d9a12b" stroke="#6b4a08" stroke-width="1.1"/>
    <path d="M6.2 12.5h11.6M6.6 15h10.8" stroke="#7a5208" stroke-width=".9"/><path d="M7 10.5c1-1.5 2.2-2.3 3.2-2.6" stroke="#fde7a6" stroke-width="1.1" fill="none" stroke-linecap="round"/>`,
  fossil: `<circle cx="12" cy="12" r="8.3" fill="#e6dcc0" stroke="#6f6041" stroke-width="1.1"/>
    <path d="M12 12.6a.9.9 0 1 1 .9-1.3 2 2 0 0 1-1.2 3 3 3 0 0 1-3.3-2.7 4.2 4.2 0 0 1 4-4.4 5.4 5.4 0 0 1 5.4 5.3 6.6 6.6 0 0 1-6.3 6.3" fill="none" stroke="#6f6041" stroke-width="1.2" stroke-linecap="round"/>`,
  potion: `<path d="M10 3h4v1.4h-.6v4.1l5 8.3c.9 1.7-.2 3.7-2.1 3.7H7.7c-1.9 0-3-2-2.1-3.7l5-8.3V4.4H10z" fill="#dff3e5" stroke="#1f5e31" stroke-width="1.1" stroke-linejoin="round"/>
    <path d="M7.4 14h9.2l1.5 2.6c.6 1.1-.1 2.4-1.4 2.4H7.3c-1.3 0-2-1.3-1.4-2.4z" fill="#3fb15c"/><circle cx="10.5" cy="16.3" r=".9" fill="#b5f0c5"/><circle cx="13.3" cy="17.4" r=".6" fill="#b5f0c5"/>`,
  thief: `<path d="M4.5 21c0-4.6 3.3-7.5 7.5-7.5s7.5 2.9 7.5 7.5z" fill="#7d769c" stroke="#1a1726" stroke-width="1"/>
    <path d="M6.4 11.2C6.4 6.8 8.7 3 12 3s5.6 3.8 5.6 8.2c0 2.4-2.4 3.6-5.6 3.6s-5.6-1.2-5.6-3.6z" fill="#a39dc4" stroke="#1a1726" stroke-width="1"/>
    <path d="M7.6 9.4c1.4-.9 3-.9 4.4 0 1.4-.9 3-.9 4.4 0-.2 1.8-1.6 2.4-2.6 2.1L12 10.7l-1.8.8c-1 .3-2.4-.3-2.6-2.1z" fill="#111"/>
    <circle cx="9.9" cy="9.9" r=".8" fill="#f1e9d0"/><circle cx="14.1" cy="9.9" r=".8" fill="#f1e9d0"/>`,
  prestige: `<path d="m12 2.8 2.7 5.6 6.1.8-4.5 4.2 1.1 6.1L12 16.6l-5.4 2.9 1.1-6.1-4.5-4.2 6.1-.8z" fill="#f0c648" stroke="#7a5a06" stroke-width="1.1" stroke-linejoin="round"/>`,
  wild: `${TREASURES.map((t, i) => {
    const a0 = (i / 5) * 2 * Math.PI - Math.PI / 2, a1 = ((i + 1) / 5) * 2 * Math.PI - Math.PI / 2;
    const p = (a) => `${(12 + 8.5 * Math.cos(a)).toFixed(2)} ${(12 + 8.5 * Math.sin(a)).toFixed(2)}`;
    const fill = { tome: "#3a6fd8", jewel: "#d8358e", artifact: "#d9a12b", fossil: "#e6dcc0", potion: "#3fb15c" }[t];
    return `<path d="M12 12L${p(a0)}A8.5 8.5 0 0 1 ${p(a1)}z" fill="${fill}"/>`;
  }).join("")}<circle cx="12" cy="12" r="8.5" fill="none" stroke="#222" stroke-width="1"/><circle cx="12" cy="12" r="3" fill="#fff" stroke="#222" stroke-width=".8"/>`,
  spot: `<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-dasharray="3 2"/>`,
  instant: `<path d="M13.5 2.5 5 13.5h6l-1.5 8 8.5-11h-6z" fill="#ffd44d" stroke="#7a5a06" stroke-width="1" stroke-linejoin="round"/>`,
  deck: `<rect x="5" y="4" width="12" height="16" rx="2" fill="#5b4a8a" stroke="#221a3a"/><rect x="7" y="3" width="12" height="16" rx="2" fill="#6f5aa8" stroke="#221a3a"/><path d="M10 8h6M10 11h6M10 14h4" stroke="#cbbcf5" stroke-width="1"/>`,
};

function svg(key, cls = "td-ico") {
  return `<svg class="${cls}" viewBox="0 0 24 24" aria-hidden="true">${ICONS[key] || ""}</svg>`;
}

/** A token with an optional count; clickable with `action` (or `pick`). Screen readers
 * hear what it is and counts (`title` says both, else the kind and `n`), not a bare number.
 * A pick is a toggle, as Thieves' cards are: the one picked (`pressed`) says so
 * (aria-pressed), and pressed again it is put back. */
function token(kind, { n = null, action = null, pick = null, pressed = false, title = "", dim = false, extra = "" } = {}) {
  const label = title || word(kind);
  const click = action ? ` ${attr(action)} tabindex="0" role="button"` : pick ? ` ${pickAttr(pick)} tabindex="0" role="button" aria-pressed="${pressed}"` : "";
  const cls = ["td-tok", `td-t-${kind}`, dim ? "dim" : "", action || pick ? "legal" : "", extra].join(" ");
  const count = n === null ? "" : `<b aria-hidden="true">${n}</b>`;
  return `<span class="${cls}" data-token="${kind}" title="${esc(label)}"${click}>${svg(kind)}${count}${spoken(title || n === null ? label : `${label}: ${n}`)}</span>`;
}

/** Words for screen readers only: what a count beside them (hidden from them) counts. */
function spoken(words) {
  return `<span class="sr-only">${esc(words)}</span>`;
}

function typeChip(type, text = null) {
  if (!type) return "";
  return `<span class="td-type td-ty-${type}">${esc(text ?? word(type))}</span>`;
}

/** A Location card. `action`: clicking it sends this action. */
/** A Location's Action Spot in words: how many Thieves are on it. */
function spotWords(thieves) {
  if (!thieves) return tr("Action Spot: free");
  return thieves > 1 ? tr("{n} Thieves on the Action Spot", { n: thieves }) : tr("1 Thief on the Action Spot");
}

function locationCard(C, id, { thieves = null, action = null, size = "", note = "", extra = "", tag = "", neutral = false } = {}) {
  const L = loc(C, id);
  const spot = L.instant
    ? `<span class="td-spot instant" title="${tr("Instant: its ability happens when it is revealed")}">${svg("instant")}</span>`
    : `<span class="td-spot ${thieves ? "taken" : ""}" title="${spotWords(thieves)}">${thieves ? `${svg("thief")}${thieves > 1 ? `<b aria-hidden="true">${thieves}</b>` : ""}` : svg("spot")}${spoken(spotWords(thieves))}</span>`;
  const bonus = !L.instant && L.bonus?.length
    ? `<span class="td-bonus ${neutral ? "off" : ""}" title="${esc(tr("Owner Bonus (for the card's owner when an opponent steals here): {b}", { b: L.bonus_text || bonusWords(L.bonus) }))}"><i aria-hidden="true">${tr("owner")}</i>${L.bonus.map(([w, k]) => `${svg(w)}${k > 1 ? `<b aria-hidden="true">${k}</b>` : ""}`).join("")}${spoken(tr("Owner Bonus: {b}", { b: L.bonus_text || bonusWords(L.bonus) }))}</span>`
    : L.instant ? `<span class="td-bonus instant" title="${tr("Instant: its ability happens when it is revealed")}">${tr("instant")}</span>` : "<span></span>";
  const title = `${L.name}${L.type ? ` (${word(L.type)})` : ""}: ${L.text || "?"}${L.instant ? tr(" — Instant") : L.bonus_text ? tr(" — Owner Bonus: {b}", { b: L.bonus_text }) : ""}${note ? ` — ${note}` : ""}`;
  const cls = ["td-card", "td-loc", L.type ? `td-ty-${L.type}` : "", size, action ? "legal" : "", extra].join(" ");
  return `<div class="${cls}" data-card="${esc(id)}" title="${esc(title)}"${action ? ` ${attr(action)} tabindex="0" role="button"` : ""}>
    <div class="td-lhead">${typeChip(L.type)}${tag}</div>
    <div class="td-lname">${esc(L.name)}</div>
    <div class="td-ltext">${esc(L.text)}</div>
    <div class="td-lfoot">${bonus}${spot}</div>
  </div>`;
}

function fenceCard(C, id, { uses = null, action = null, size = "", extra = "" } = {}) {
  const F = fence(C, id);
  const desires = F.desires.map((t) => svg(t)).join("");
  const title = `${tr("Fence {name}", { name: F.name })}${F.type ? ` (${word(F.type)})` : ""}: ${desireWords(F.desires) || "?"} → ${F.prestige} ${tr("Prestige")}${uses ? (uses > 1 ? tr(" — sold to {n} times", { n: uses }) : tr(" — sold to once")) : ""}`;
  const cls = ["td-card", "td-fence", F.type ? `td-fy-${F.type}` : "", size, action ? "legal" : "", extra].join(" ");
  const sold = uses > 1 ? tr("{n} Thieves on it", { n: uses }) : tr("1 Thief on it");
  const used = uses ? `<span class="td-spot taken" title="${esc(sold)}">${svg("thief")}${uses > 1 ? `<b aria-hidden="true">${uses}</b>` : ""}${spoken(sold)}</span>` : `<span class="td-spot">${svg("spot")}</span>`;
  return `<div class="${cls}" data-card="${esc(id)}" title="${esc(title)}"${action ? ` ${attr(action)} tabindex="0" role="button"` : ""}>
    <div class="td-fhead"><span class="td-ftype">${esc(word(F.type || "Fence"))}</span></div>
    <div class="td-fnamerow"><span class="td-fname">${esc(F.name)}</span><span class="td-prest" title="${esc(F.prestige)} ${tr("Prestige")}">${svg("prestige")}<b aria-hidden="true">${F.prestige}</b>${spoken(tr("Prestige for a sale: {n}", { n: F.prestige }))}</span></div>
    <div class="td-fdeal" title="${esc(tr("desires: {d}", { d: desireWords(F.desires) }))}"><span class="td-desires">${desires}</span></div>
    <div class="td-lfoot"><span class="td-wants">${tr("wants {n}", { n: F.desires.length })}</span>${used}</div>
  </div>`;
}

function back(kind = "loc", title = "") {
  return `<span class="td-back td-back-${kind}" title="${esc(title || tr("a face-down card"))}"></span>`;
}

// ------------------------------------------------------------------ picking (page state)

const ui = { key: null, pick: null, ctx: null, roots: new WeakSet() };

function listen(root) {
  listenForPicks(root, ui, render);
}

// ------------------------------------------------------------------ reading the view

function legalIndex(ctx) {
  const idx = { byCard: new Map(), power: new Map(), witch: new Map(), burgle: new Map(), recruit: [], treasure: new Map(), opponent: new Map(), give: new Map(), pass: null, skip: null, main: false };
  for (const a of ctx.legal) {
    switch (a.type) {
      case "pick": case "steal": case "fence": case "location": case "return_fence":
        idx.byCard.set(a.card, a);
        break;
      case "power":
        if (!idx.power.has(a.tile)) idx.power.set(a.tile, []);
        idx.power.get(a.tile).push(a);
        break;
      case "witch": idx.witch.set(a.treasure, a); break;
      case "burgle": idx.burgle.set(a.treasure, a); break;
      case "recruit": idx.recruit.push(a); break;
      case "treasure": idx.treasure.set(a.treasure, a); break;
      case "opponent": idx.opponent.set(a.seat, a); break;
      case "give": idx.give.set(a.seat, a); break;
      case "pass": idx.pass = a; idx.main = true; break;
      case "skip": idx.skip = a; break;
      default: break;
    }
  }
  return idx;
}

function stackTop(view) {
  return view.stack?.length ? view.stack[view.stack.length - 1] : null;
}

/** Who owns a face-up Location: a seat, "neutral", or null. */
function ownerOf(view, card) {
  for (let s = 0; s < view.seats.length; s++) {
    if (view.seats[s].locations.some((x) => x.card === card)) return s;
  }
  return view.neutral.some((x) => x.card === card) ? "neutral" : null;
}

function fenceAbove(view, card) {
  for (let s = 0; s < view.seats.length; s++) {
    if (view.seats[s].fences.some((x) => x.card === card)) return s;
  }
  return null;
}

/** Whose treasures a "treasure" choice takes from: the seat, or "supply". */
function treasureSource(view) {
  const top = stackTop(view);
  if (!top) return null;
  const [op, seat, a] = top;
  if (op === "take" || op === "destroy") return a >= 0 ? a : null;
  if (op === "pay" || op === "limit") return seat;
  if (op === "wild") return "supply";
  return null;
}

/** One legal action in words (what choosing it will do), as plain text. */
function label(ctx, C, a) {
  const v = ctx.view;
  const top = stackTop(v);
  const op = top ? top[0] : "";
  const whose = (owner) => (owner === "neutral" || owner === null ? tr("the neutral") : owner === ctx.seat ? tr("your") : tr("{who}’s", { who: plainName(ctx, owner) }));
  switch (a.type) {
    case "pick": {
      const L = loc(C, a.card);
      return tr("Keep {card}", { card: L.name });
    }
    case "steal": {
      const L = loc(C, a.card);
      const owner = ownerOf(v, a.card);
      let bonus = "";
      if (op === "action" && top[3] & 2 && owner !== "neutral" && L.bonus_text) bonus = tr(" (you get the Owner Bonus: {b})", { b: bonusWords(L.bonus) });
      else if (typeof owner === "number" && owner !== ctx.seat && L.bonus?.length) bonus = tr(" ({who} gets {b})", { who: plainName(ctx, owner), b: bonusWords(L.bonus) });
      return tr("Steal at {whose} {card}: {text}{bonus}", { whose: whose(owner), card: L.name, text: L.text, bonus });
    }
    case "fence": {
      const F = fence(C, a.card);
      const above = fenceAbove(v, a.card);
      const where = above === null ? "" : tr(" (above {whose} board)", { whose: whose(above) });
      return tr("Sell {d} to {card}{where} for {n} Prestige", { d: desireWords(F.desires), card: F.name, where, n: F.prestige });
    }
    case "power": {
      const P = power(C, a.tile);
      return tr("{tile}, paying {pay}: {text}", { tile: P.name, pay: an(a.pay), text: P.text });
    }
    case "witch": return tr("Deliver {what} to the Witch: +{n} Prestige", { what: an(a.treasure), n: C.witch[a.treasure] ?? "?" });
    case "burgle": return tr("Burgle: 2 of your Thieves → 1 {what}", { what: word(a.treasure) });
    case "recruit": return tr("Recruit: {a} and {b} → 1 Thief", { a: an(a.first), b: an(a.second) });
    case "pass": return tr("Pass (no more actions this round; nobody can target you)");
    case "skip":
      if (op === "wild") return tr("Stop: take no more");
      if (op === "action") return tr("Skip the follow-up action");
      return tr("Skip");
    case "give": return a.seat === ctx.seat ? tr("Keep the Direction tile") : tr("Give the Direction tile to {who}", { who: plainName(ctx, a.seat) });
    case "opponent": {
      const x = v.seats[a.seat];
      const held = Object.values(x.treasures).reduce((p, q) => p + q, 0);
      return tr("{who} ({n}, {thieves})", { who: plainName(ctx, a.seat), n: plural(held, "treasure"), thieves: plural(x.thieves, "Thief") });
    }
    case "return_fence": return tr("Return {card} to the bottom of the Fence deck", { card: fence(C, a.card).name });
    case "treasure": {
      const what = word(a.treasure);
      if (op === "limit") return tr("Return {what} (you hold more than 8)", { what: an(a.treasure) });
      if (op === "pay") return tr("Pay {what}", { what: an(a.treasure) });
      if (op === "destroy") return tr("Destroy {who}’s {what}", { who: plainName(ctx, top[2]), what });
      if (op === "take") return tr("Take {who}’s {what}", { who: plainName(ctx, top[2]), what });
      return tr("Take {what} from the supply", { what: an(a.treasure) });
    }
    case "location": {
      const L = loc(C, a.card);
      const owner = ownerOf(v, a.card);
      if (op === "recall_thief") return tr("Take a Thief off {whose} {card} (the card goes on top of the deck)", { whose: whose(owner), card: L.name });
      if (op === "move_thief") return top[2] < 0 ? tr("Move the Thief from {whose} {card}", { whose: whose(owner), card: L.name }) : tr("Move it to {whose} {card}: {text}", { whose: whose(owner), card: L.name, text: L.text });
      if (op === "swap_location") return top[2] < 0 ? tr("Give away your {card}", { card: L.name }) : tr("Take {whose} {card} in exchange", { whose: whose(owner), card: L.name });
      return L.name;
    }
    default:
      return Object.entries(a).map(([k, x]) => (k === "type" ? x : `${k}: ${x}`)).join(" · ");
  }
}

/** What the seat being asked is deciding, in words (the view's own text, with names). */
function decisionWords(ctx) {
  const v = ctx.view;
  const top = stackTop(v);
  const C = catalogue(v);
  if (!top) return esc(v.decision);
  const [op, , a] = top;
  if ((op === "take" || op === "destroy") && a < 0) {
    const what = tr(top[3] === 5 ? "a Thief" : "a treasure");
    return tr(op === "take" ? "choose the opponent to take {what} from" : "choose the opponent to destroy {what} from", { what });
  }
  if (op === "take" || op === "destroy") return tr(op === "take" ? "choose which of {who}’s treasures to take" : "choose which of {who}’s treasures to destroy", { who: name(ctx, a) });
  if (op === "move_thief" && a >= 0) return tr("choose where to move the Thief from {card}", { card: esc(loc(C, idOf(C, v, a)).name) });
  if (op === "swap_location" && a >= 0) return tr("choose an opponent’s Location to take in exchange");
  // The other steps in the page's language (the view's text is the engine's English).
  const left = { n: top[3] };
  const words = {
    wild: () => tr("choose a treasure to take ({n} left)", left),
    pay: () => tr("choose a treasure to pay ({n} left)", left),
    refresh_fences: () => tr("choose a Fence of the row to return ({n} left)", left),
    limit: () => tr("you have more than 8 treasures: choose one to return"),
    recall_thief: () => tr("choose a Location to take a Thief from"),
    move_thief: () => tr("choose a Location to move a Thief from"),
    swap_location: () => tr("choose one of your Locations to swap"),
    action: () => tr(/compulsory/.test(v.decision) ? "take a follow-up action (compulsory)" : "you may take a follow-up action"),
  }[op];
  if (words) return words();
  return esc(v.decision).replace(/seat (\d)/g, (_, s) => name(ctx, Number(s)));
}

/** Engine card numbers are not in views; the step's card is named in the decision text. */
function idOf(C, v, _n) {
  const m = /from (\S+) to$/.exec(v.decision) || /for (\S+)$/.exec(v.decision);
  return m ? m[1] : "";
}

// ------------------------------------------------------------------ the board

function fenceRow(ctx, C, idx) {
  const v = ctx.view;
  const cards = v.fence_row.map((id) => (id
    ? fenceCard(C, id, { action: idx.byCard.get(id) || null })
    : `<div class="td-card td-empty">${tr("empty slot")}</div>`)).join("");
  return `<div class="td-box td-fences"><h3>${tr("Fences")} <span class="td-sub">${tr("sell their desires for Prestige")}</span>
      <span class="td-grow"></span><span class="td-deck" title="${tr("Fence cards in the deck")}">${svg("deck")} <b aria-hidden="true">${v.fence_deck}</b>${spoken(tr("Fence cards in the deck: {n}", { n: v.fence_deck }))}</span></h3>
    <div class="td-row-cards">${cards}</div></div>`;
}

function powerTiles(ctx, C, idx) {
  const v = ctx.view;
  const tiles = v.powers.map((p, i) => {
    if (!p.tile) return `<div class="td-tile empty"><span class="td-sub">${tr("stack {n} is empty", { n: i + 1 })}</span></div>`;
    const P = power(C, p.tile);
    const acts = idx.power.get(p.tile) || [];
    const pay = acts.length
      ? `<div class="td-pay"><span>${tr("Use, paying")}</span>${acts.map((a) => token(a.pay, { action: a, title: tr("Use {tile}, paying {pay}", { tile: P.name, pay: an(a.pay) }) })).join("")}</div>`
      : "";
    const paid = p.paid ? `<span class="td-paid" title="${esc(tr("used this round (paid with {pay})", { pay: an(p.paid) }))}">${token(p.paid)}${tr("used")}</span>` : "";
    return `<div class="td-tile ${acts.length ? "can" : ""} ${p.paid ? "used" : ""}" data-tile="${esc(p.tile)}" title="${esc(`${P.name}: ${P.text}`)}">
      <div class="td-tname">${esc(P.name)}${paid}</div><div class="td-ttext">${esc(P.text)}</div>${pay}
      <div class="td-below" title="${tr("face-down tiles below: one comes up each round")}">${"▰".repeat(p.below)}${p.below ? ` ${tr("{n} below", { n: p.below })}` : tr("last tile")}</div></div>`;
  }).join("");
  const gone = v.powers_gone.length ? `<div class="td-sub">${tr("Gone: {list}", { list: v.powers_gone.map((x) => esc(power(C, x).name)).join(", ") })}</div>` : "";
  return `<div class="td-box td-powers"><h3>${tr("Power tiles")} <span class="td-sub">${tr("pay 1 treasure, once a round each")}</span></h3><div class="td-tiles">${tiles}</div>${gone}</div>`;
}

function witchBox(ctx, C, idx) {
  const v = ctx.view;
  const spots = TREASURES.map((t) => {
    const a = idx.witch.get(t);
    const taken = v.witch[t];
    return `<div class="td-wspot ${taken ? "taken" : ""} ${a ? "legal" : ""}" data-witch="${t}"${taken ? ` data-note="${esc(tr("taken"))}"` : ""} title="${esc(taken ? tr("taken this round") : tr("deliver {what}: +{n} Prestige", { what: an(t), n: C.witch[t] ?? "?" }))}"${a ? ` ${attr(a)} tabindex="0" role="button"` : ""}>
      ${svg(t)}<span class="td-wp">${svg("prestige", "td-ico small")}${C.witch[t] ?? "?"}</span></div>`;
  }).join("");
  return `<div class="td-box td-witch"><h3>${tr("The Witch")} <span class="td-sub">${tr("1 treasure → Prestige")}</span></h3><div class="td-wspots">${spots}</div></div>`;
}

function burgleBox(ctx, idx) {
  const v = ctx.view;
  const opts = TREASURES.filter((t) => idx.burgle.has(t));
  const on = v.burgle ? `${token("thief", { n: v.burgle, title: tr("Thieves spent on Burgle this round: {n}", { n: v.burgle }) })}` : `<span class="td-none">${tr("no Thieves yet")}</span>`;
  const buttons = opts.length ? `<div class="td-pay"><span>${tr("Take")}</span>${opts.map((x) => token(x, { action: idx.burgle.get(x), title: tr("Burgle: 2 Thieves → 1 {what}", { what: word(x) }) })).join("")}</div>` : "";
  return `<div class="td-box td-burgle ${opts.length ? "can" : ""}"><h3>${tr("Burgle")} <span class="td-sub">2 ${svg("thief", "td-ico small")} ${tr("→ 1 treasure")}</span></h3><div class="td-on">${on}</div>${buttons}</div>`;
}

function recruitBox(ctx, idx) {
  const v = ctx.view;
  const held = TREASURES.filter((t) => v.recruit[t]).map((t) => token(t, { n: v.recruit[t] })).join("");
  let body = "";
  if (idx.recruit.length) {
    const first = ui.pick?.recruit;
    if (first && idx.recruit.some((a) => a.first === first || a.second === first)) {
      const pairs = idx.recruit.filter((a) => a.first === first || a.second === first);
      const chosen = token(first, { pick: { recruit: first }, pressed: true, extra: "chosen", title: tr("Recruit: pay {what} and one more treasure", { what: an(first) }) });
      body = `<div class="td-pay"><span>${chosen} ${tr("and")}</span>${pairs.map((a) => {
        const other = a.first === first ? a.second : a.first;
        return token(other, { action: a, title: tr("Recruit: {a} and {b} → 1 Thief", { a: an(a.first), b: an(a.second) }) });
      }).join("")}<button class="small" ${pickAttr({ clear: 1 })}>${tr("Cancel")}</button></div>`;
    } else {
      const firsts = TREASURES.filter((t) => idx.recruit.some((a) => a.first === t || a.second === t));
      body = `<div class="td-pay"><span>${tr("Pay")}</span>${firsts.map((x) => token(x, { pick: { recruit: x }, title: tr("Recruit: pay {what} and one more treasure", { what: an(x) }) })).join("")}</div>`;
    }
  }
  return `<div class="td-box td-recruit ${idx.recruit.length ? "can" : ""}"><h3>${tr("Recruit")} <span class="td-sub">${tr("2 treasures → 1")} ${svg("thief", "td-ico small")}</span></h3>
    <div class="td-on">${held || `<span class="td-none">${tr("no treasures yet")}</span>`}</div>${body}</div>`;
}

function supplyBox(ctx, C, idx) {
  const v = ctx.view;
  const fromSupply = treasureSource(v) === "supply";
  const tokens = TREASURES.map((t) => token(t, {
    n: v.supply.treasures[t], dim: !v.supply.treasures[t],
    action: fromSupply ? idx.treasure.get(t) || null : null,
    title: tr("{what}: {n} in the supply", { what: word(t), n: v.supply.treasures[t] }),
  })).join("");
  const top = v.location_deck_top.length
    ? `<div class="td-sub">${tr("Known on top: {list}", { list: v.location_deck_top.map((id) => esc(loc(C, id).name)).join(", ") })}</div>` : "";
  return `<div class="td-box td-supply ${fromSupply && idx.treasure.size ? "can" : ""}"><h3>${tr("Supply")} <span class="td-sub">${tr("limited")}</span></h3>
    <div class="td-on">${tokens}<span class="td-sep"></span>${token("thief", { n: v.supply.thieves, title: tr("Thieves: {n} in the supply", { n: v.supply.thieves }) })}</div>
    <div class="td-on"><span class="td-deck" title="${tr("Location cards in the deck")}">${svg("deck")} <span aria-hidden="true">${tr("Locations")} <b>${v.location_deck}</b></span>${spoken(tr("Location cards in the deck: {n}", { n: v.location_deck }))}</span></div>${top}</div>`;
}

function neutralBox(ctx, C, idx) {
  const v = ctx.view;
  if (!v.neutral.length) return "";
  const cards = v.neutral.map((x) => {
    const action = idx.byCard.get(x.card) || null;
    return locationCard(C, x.card, { thieves: x.thieves, action, neutral: true, note: action ? tr("click: {what}", { what: label(ctx, C, action) }) : tr("neutral: no Owner Bonus") });
  }).join("");
  return `<div class="td-box td-neutral"><h3>${tr("Neutral Locations")} <span class="td-sub">${tr("anyone may steal here; no Owner Bonus")}</span></h3><div class="td-row-cards">${cards}</div></div>`;
}

// ------------------------------------------------------------------ players

function seatStatus(ctx, s) {
  const v = ctx.view;
  const x = v.seats[s];
  if (v.result) return v.result.winners.includes(s) ? `<span class="td-badge win">${tr("★ wins")}</span>` : "";
  if (v.phase === "scouting") {
    if (x.picked) return `<span class="td-badge done">${tr("✓ picked")}</span>`;
    if (v.to_act.includes(s)) return `<span class="td-badge wait">${tr("choosing…")}</span>`;
    return "";
  }
  if (x.passed) return `<span class="td-badge passed">${tr("passed")}</span>`;
  if (v.to_act.includes(s)) return `<span class="td-badge wait">${tr(v.current === s && !v.stack.length ? "to act" : "deciding…")}</span>`;
  return "";
}

function collectedChips(C, ids, kind) {
  const counts = {};
  const names = {};
  for (const id of ids) {
    const info = kind === "loc" ? loc(C, id) : fence(C, id);
    const t = info.type || "?";
    counts[t] = (counts[t] || 0) + 1;
    (names[t] = names[t] || []).push(info.name);
  }
  const order = kind === "loc" ? [...LOC_TYPES, "?"] : [...FENCE_TYPES, "?"];
  return order.filter((t) => counts[t]).map((t) =>
    `<span class="td-chip ${kind === "loc" ? `td-ty-${t}` : `td-fy-${t}`}" title="${esc(names[t].join(", "))}">${esc(word(t))} <b>${counts[t]}</b></span>`).join("");
}

function schemeLine(ctx, C, s, id) {
  const v = ctx.view;
  const x = v.seats[s];
  if (!id) return `<span class="td-scheme hidden" title="${tr("a secret Scheme")}">${back("scheme", tr("a secret Scheme"))} ${tr("Scheme hidden")}</span>`;
  const S = scheme(C, id);
  const counts = {};
  for (const c of [...x.collected, ...x.locations.map((y) => y.card)]) {
    const t = loc(C, c).type;
    counts[t] = (counts[t] || 0) + 1;
  }
  const [a, b] = S.types;
  const sets = Math.min(counts[a] || 0, counts[b] || 0);
  const final = v.final?.schemes?.[s];
  const got = final ? (final.sets === 1 ? tr("scored 1 set: +{n}", { n: final.prestige }) : tr("scored {k} sets: +{n}", { k: final.sets, n: final.prestige })) : sets === 1 ? tr("1 set so far") : tr("{k} sets so far", { k: sets });
  return `<span class="td-scheme" data-scheme="${esc(id)}" title="${esc(tr("Scheme: {n} Prestige for each set of {a} and {b} Location collected", { n: S.prestige, a: an(a), b: an(b) }))}">
    ${tr("Scheme")} ${typeChip(a)} + ${typeChip(b)} ${svg("prestige", "td-ico small")}<b>${esc(S.prestige)}</b>${tr("/set")}</span><span class="td-sub td-got">${got}</span>`;
}

function seatPanel(ctx, C, idx, s) {
  const v = ctx.view;
  const x = v.seats[s];
  const me = s === ctx.seat;
  const who = ctx.seats?.[s];
  const src = treasureSource(v);
  const treasureActs = src === s;
  const held = Object.values(x.treasures).reduce((p, q) => p + q, 0);
  const treasures = TREASURES.map((t) => token(t, {
    n: x.treasures[t], dim: !x.treasures[t],
    action: treasureActs ? idx.treasure.get(t) || null : null,
    title: `${word(t)}: ${x.treasures[t]}`,
  })).join("");
  const turn = v.to_act.includes(s) && !v.result;
  const target = idx.opponent.get(s) || idx.give.get(s);
  const targetBtn = target ? `<button class="small td-target" ${attr(target)}>${tr(target.type === "give" ? (s === ctx.seat ? "Keep the tile" : "Give the tile") : "Target")}</button>` : "";
  const holder = v.holder === s
    ? `<span class="td-dir" title="${esc(tr("has the Direction tile ({dir}): first in turn order", { dir: tr(v.direction === "clockwise" ? "clockwise" : "counter-clockwise") }))}">${v.direction === "clockwise" ? "↻" : "↺"}</span>` : "";
  const here = [
    ...x.locations.map((y) => {
      const action = idx.byCard.get(y.card) || null;
      return locationCard(C, y.card, { thieves: y.thieves, action, size: "mid", note: action ? tr("click: {what}", { what: label(ctx, C, action) }) : "" });
    }),
    ...x.fences.map((y) => fenceCard(C, y.card, { uses: y.uses, action: idx.byCard.get(y.card) || null, size: "mid" })),
  ];
  if (v.result && !here.length) {
    const minis = [
      ...x.collected.map((id) => { const L = loc(C, id); return `<span class="td-mini td-ty-${L.type}" title="${esc(`${L.name}: ${L.text}`)}">${esc(L.name)}</span>`; }),
      ...x.fences_collected.map((id) => { const F = fence(C, id); return `<span class="td-mini td-fy-${F.type} fence" title="${esc(tr("Fence {name} ({type}): {n} Prestige", { name: F.name, type: word(F.type || ""), n: F.prestige }))}">${esc(F.name)}</span>`; }),
    ];
    if (minis.length) here.push(`<div class="td-minis"><span class="td-sub">${tr("Collected over the game")}</span>${minis.join("")}</div>`);
  }
  let scouting = "";
  const seen = ctx.views?.[s]; // a replay of everything: every seat's own view
  if (v.phase === "scouting" && !me && seen?.hand) {
    const mini = (id, cls = "") => { const L = loc(C, id); return `<span class="td-mini td-ty-${L.type} ${cls}" title="${esc(`${L.name}: ${L.text}`)}">${esc(L.name)}</span>`; };
    scouting = `<span class="td-minis">${seen.hand.map((id) => mini(id)).join("")}${seen.my_pick ? mini(seen.my_pick, "sealed") : ""}</span>`;
  } else if (v.phase === "scouting" && !me) {
    scouting = `<span class="td-hand-backs" title="${tr(x.hand_size === 1 ? "1 card in hand" : "{n} cards in hand", { n: x.hand_size })}">${Array.from({ length: x.hand_size }, () => back()).join("")}</span>`;
  }
  const own = me ? x.scheme : x.scheme ?? ctx.views?.[s]?.seats?.[s]?.scheme ?? null;
  const collectedLoc = collectedChips(C, x.collected, "loc");
  const collectedFence = collectedChips(C, x.fences_collected, "fence");
  return `<div class="td-seat ${turn ? "turn" : ""} ${me ? "me" : ""} ${x.passed && !v.result ? "passed" : ""} ${target ? "target" : ""}" data-seat="${s}">
    <div class="td-seatinfo">
      <div class="td-head"><span class="td-who">${name(ctx, s)}</span>${holder}
        ${me ? `<span class="td-chip you">${tr("you")}</span>` : ""}${who && (who.kind === "bot" || who.bot) ? `<span class="td-chip">${tr("bot")}</span>` : ""}
        <span class="td-grow"></span><span class="td-score" title="${tr("Prestige")}">${svg("prestige", "td-ico small")}<b aria-hidden="true">${x.prestige}</b>${spoken(tr("Prestige: {n}", { n: x.prestige }))}</span></div>
      <div class="td-status">${seatStatus(ctx, s)}${targetBtn}${scouting}</div>
      <div class="td-tr ${treasureActs && idx.treasure.size ? "can" : ""}">${treasures}<span class="td-lim ${held > 8 ? "over" : ""}" title="${tr("treasures held (at most 8)")}"><span aria-hidden="true">${held}/8</span>${spoken(tr("treasures held: {n} (at most 8)", { n: held }))}</span></div>
      <div class="td-tr">${token("thief", { n: x.thieves, title: tr("Thieves on the board: {n}", { n: x.thieves }) })}<span class="td-lim" title="${tr("Thieves (at most 6)")}"><span aria-hidden="true">${x.thieves}/6</span>${spoken(tr("Thieves: {n} (at most 6)", { n: x.thieves }))}</span></div>
      <div class="td-coll"><label>${tr("Collected")}</label>${collectedLoc || `<span class="td-none">${tr("no Locations")}</span>`}</div>
      <div class="td-coll"><label>${tr("Fences")}</label>${collectedFence || `<span class="td-none">${tr("none")}</span>`}</div>
      <div class="td-coll">${schemeLine(ctx, C, s, own)}</div>
    </div>
    <div class="td-above"><div class="td-row-cards">${here.join("") || `<span class="td-none">${tr(v.phase === "scouting" ? "Locations appear here when revealed" : "no Locations or Fences this round")}</span>`}</div></div>
  </div>`;
}

// ------------------------------------------------------------------ your hand, the prompt, the decision

function handPanel(ctx, C, idx) {
  const v = ctx.view;
  if (ctx.seat === null || (!v.hand.length && !v.my_pick)) return "";
  const mine = v.seats[ctx.seat].scheme;
  const wanted = mine ? scheme(C, mine).types : [];
  const fits = (id) => (wanted.includes(loc(C, id).type) ? `<span class="td-fits" title="${tr("a type of your Scheme")}">${svg("prestige", "td-ico small")}${tr("Scheme")}</span>` : "");
  const cards = v.hand.map((id) => locationCard(C, id, { action: idx.byCard.get(id) || null, size: "big", tag: fits(id) })).join("");
  const kept = v.my_pick ? `<div class="td-kept"><span>${tr("You keep (sealed)")}</span>${locationCard(C, v.my_pick, { size: "big", extra: "sealed" })}</div>` : "";
  const next = tr(v.direction === "clockwise" ? "clockwise" : "counter-clockwise");
  return `<div class="td-handbox ${idx.byCard.size ? "active" : ""}"><h3>${tr("Your hand")} <span class="td-sub">${tr("keep 1, pass the rest {dir}", { dir: next })}</span></h3>
    <div class="td-hand">${cards}${kept}</div></div>`;
}

function prompt(ctx, idx) {
  const v = ctx.view;
  if (v.result) {
    const ws = v.result.winners;
    const who = ws.map((s) => resultName(whom(ctx, s))).join(tr(" and "));
    const text = ws.length > 1 ? tr("The game is over: {who} share the win.", { who })
      : ws[0] === ctx.seat ? tr("The game is over: you win.") : tr("The game is over: {who} wins.", { who });
    return { text, you: false };
  }
  if (ctx.legal.length) {
    if (v.phase === "scouting") return { text: tr("Scouting: choose a Location card to keep — it stays sealed until everyone has chosen."), you: true };
    if (idx.main) return { text: tr("Your turn: steal at a Location, sell to a Fence, use a Power tile, deliver to the Witch, Burgle or Recruit — or pass."), you: true };
    return { text: cap(decisionWords(ctx)) + ".", you: true };
  }
  // (this seat is asked and has nothing to click: its move is on its way)
  if (ctx.pending && ctx.seat !== null && v.to_act.includes(ctx.seat)) return { text: tr("Sending your move…"), you: false };
  const waiting = v.to_act.map((s) => whom(ctx, s));
  if (v.phase === "scouting") {
    if (ctx.seat !== null && v.my_pick) return { text: tr("You chose. Waiting for {who}…", { who: waiting.join(", ") || tr("the reveal") }), you: false };
    return { text: tr(waiting.length === 1 ? "Scouting: {who} is choosing…" : "Scouting: {who} are choosing…", { who: waiting.join(", ") }), you: false };
  }
  if (!waiting.length) return { text: "…", you: false };
  const what = v.stack.length ? decisionWords(ctx) : tr(v.phase === "direction" ? "give the Direction tile to a tied player" : "take an action or pass");
  return { text: `${cap(waiting[0])}: ${what}…`, you: false };
}

function decisionPanel(ctx, C, idx) {
  const v = ctx.view;
  if (!ctx.legal.length || v.phase === "scouting") return "";
  if (idx.main) {
    return `<div class="td-act"><span class="help">${tr("Click a highlighted Location, Fence, Power tile, Witch spot, Burgle or Recruit treasure.")}</span>
      <span class="td-grow"></span><button class="td-pass" ${attr(idx.pass)} title="${esc(label(ctx, C, idx.pass))}">${tr("Pass")}</button></div>`;
  }
  const buttons = ctx.legal.map((a) => {
    const icon = a.type === "treasure" ? svg(a.treasure) : "";
    const cls = a.type === "skip" ? "td-skip" : "";
    return `<button class="${cls}" ${attr(a)}>${icon}${esc(label(ctx, C, a))}</button>`;
  }).join("");
  return `<div class="td-act decision"><div class="td-buttons">${buttons}</div></div>`;
}

function finalPanel(ctx, C) {
  const v = ctx.view;
  if (!v.final) return "";
  const maj = FENCE_TYPES.map((t) => {
    const w = v.final.majorities[t];
    return `<span class="td-chip td-fy-${t}" title="${esc(tr("most {type} Fences: +{n} Prestige", { type: word(t), n: C.majority[t] ?? "?" }))}">${esc(word(t))}: ${w === null || w === undefined ? tr("tie / none") : `${resultName(whom(ctx, w))} +${C.majority[t] ?? "?"}`}</span>`;
  }).join("");
  const rows = v.final.schemes.map((x, s) => {
    const S = scheme(C, x.scheme);
    const major = FENCE_TYPES.filter((t) => v.final.majorities[t] === s).reduce((sum, t) => sum + (C.majority[t] || 0), 0);
    const before = v.result.scores[s] - x.prestige - major;
    const win = v.result.winners.includes(s);
    return `<tr class="${win ? "win" : ""}"><td>${win ? "★ " : ""}${resultName(name(ctx, s))}</td><td>${before}</td><td>+${major}</td>
      <td>${typeChip(S.types[0])} + ${typeChip(S.types[1])}</td><td>${x.sets} × ${esc(S.prestige)} = +${x.prestige}</td><td class="tot">${v.result.scores[s]}</td></tr>`;
  }).join("");
  return `<div class="td-box td-final scroll-x"><h3>${tr("Final scoring")}</h3><div class="td-on"><span class="td-sub">${tr("Most Fences of a type:")}</span>${maj}</div>
    <table class="td-ftable"><thead><tr><th>${tr("Player")}</th><th>${tr("In play")}</th><th>${tr("Majorities")}</th><th>${tr("Scheme")}</th><th>${tr("Sets")}</th><th>${tr("Final")}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function render(root, ctx) {
  narrate(root, ctx, draw, story);
}

function draw(root, ctx) {
  injectStyle();
  listen(root);
  const v = ctx.view;
  const key = JSON.stringify(ctx.legal);
  if (key !== ui.key) {
    ui.key = key;
    ui.pick = null;
  }
  ui.ctx = ctx;
  const C = catalogue(v);
  const idx = legalIndex(ctx);
  const p = prompt(ctx, idx);
  const n = v.players;
  const turn = v.current !== null && v.current !== undefined && !v.result
    ? `<span>${v.current === ctx.seat ? `<b>${tr("Your turn")}</b>` : tr("{who}’s turn", { who: `<b>${name(ctx, v.current)}</b>` })}</span>` : "";
  const order = [...Array(n).keys()];
  root.innerHTML = `<div class="td">
    <div class="td-top">
      <span class="td-title">Thieves Den</span>
      <span>${tr("Round {n} of 3", { n: `<b class="td-round">${v.round}</b>` })}</span>
      <span class="td-phase">${esc(PHASES[v.phase] ? tr(PHASES[v.phase]) : v.phase)}</span>
      <span title="${tr("the Direction tile: turn order and passing direction")}">${tr(v.direction === "clockwise" ? "↻ clockwise" : "↺ counter-clockwise")} ${tr("from {who}", { who: `<b>${name(ctx, v.holder)}</b>` })}</span>
      ${turn}
      <span class="td-grow"></span>
      ${v.unofficial ? `<span class="td-chip td-unofficial" title="${esc(tr("{set}: our own card set, not the publisher's", { set: C.name || v.card_set }))}">${tr("unofficial cards")}</span>` : `<span class="td-chip">${esc(C.name || v.card_set)}</span>`}
    </div>
    <div class="td-prompt ${p.you ? "you" : ""}" data-prompt>${p.text}</div>
    ${decisionPanel(ctx, C, idx)}
    ${handPanel(ctx, C, idx)}
    ${finalPanel(ctx, C)}
    <div class="td-felt">
      ${fenceRow(ctx, C, idx)}
      <div class="td-mid">${powerTiles(ctx, C, idx)}${witchBox(ctx, C, idx)}</div>
      <div class="td-mid td-spaces">${burgleBox(ctx, idx)}${recruitBox(ctx, idx)}${supplyBox(ctx, C, idx)}</div>
      ${neutralBox(ctx, C, idx)}
    </div>
    <div class="td-seats">${order.map((s) => seatPanel(ctx, C, idx, s)).join("")}</div>
  </div>`;
  markTold(root, v.told);
}

/** While a step is told: its seat, and the card or tile it is about, stand out. */
function markTold(root, told) {
  if (!told) return;
  const mark = (el) => el?.classList.add("td-told");
  if (told.seat !== null && told.seat !== undefined) mark(root.querySelector(`.td-seat[data-seat="${Number(told.seat)}"]`));
  if (told.card) {
    const id = CSS.escape(told.card);
    root.querySelectorAll(`[data-card="${id}"], [data-tile="${id}"]`).forEach(mark);
  }
}

// ------------------------------------------------------------------ step by step (motion.js)

/** A view to change step by step: a deep copy, less the card set's words (never changed:
 * every step shares the frame's, so the page's German copy of them is made once). */
function copyBoard(view) {
  const { catalogue: words, ...rest } = view;
  const copy = JSON.parse(JSON.stringify(rest));
  copy.catalogue = words;
  return copy;
}

// The events of a frame, as the story tells them. An action (or a Location's bonus, a card
// drawn, a reveal, the clean-up …) begins a step; the effects that follow are told with the
// step of the same seat in that action (a steal and the Potions it takes; the Owner Bonus
// and what it gives its owner); what the board does not show is done on the way.
const QUIET = new Set(["picked", "you_picked", "round", "dealt", "game_over"]);
const EFFECT_EVENTS = new Set(["gain", "prestige", "pay", "return", "take", "destroy", "no_effect", "unplace"]);

/**
 * A frame's chain of effects as steps of the board (see motion.js): each action (a steal, a
 * Fence sale, a Power tile, the Witch, Burgle, Recruit, a pass) with its own effects, an
 * Owner Bonus paid to the Location's owner, a compulsory follow-up (Double Up, Busy Night,
 * Inside Job) and what it set off, a new Fence drawn; a reveal in Scouting and its Instant
 * cards; the end of a round (the clean-up, the Direction tile) and the final scoring (the
 * Fence majorities, then each seat's Scheme). A frame of one step (a steal and its gain) is
 * no chain: it is drawn at once. Each step is the view drawn before with the events so far
 * applied: built only from that view, this seat's events and the frame's own view, so it
 * shows nothing the seat may not know; the frame's view then shows the rest (whose turn, a
 * new hand).
 */
function story(items, before, after, ctx) {
  const C = catalogue(before);
  const v = copyBoard(before);
  Object.assign(v, { to_act: [], stack: [], decider: null, decision: null, result: null, final: null });
  const steps = [];
  const show = (text, mark, told = null) => {
    v.told = told;
    steps.push({ text, view: copyBoard(v), mark });
  };
  const board = new Board(v, after, C, ctx.seat);
  for (const beat of beats(items, ctx.seat)) {
    for (const { event } of beat.events) board.apply(event);
    const first = beat.main;
    if (!beat.shown || !first) continue;
    const d = eventData(first);
    if (first.type === "final") finalSteps(v, d, ctx, C, show);
    else if (first.type === "cleanup") show(tr("Round {n} ends: the Thieves on the Locations go to their owners; the Locations and Fences are collected.", { n: d.round ?? v.round }), "cleanup");
    else show(beat.events.filter((x) => !QUIET.has(x.event.type)).map((x) => x.line).join(" · "), first.type.replace("_", "-"), told(first));
  }
  return steps.length >= 2 ? steps : [];
}

/** The seat and the card (or Power tile) an event is about, for the step to mark. */
function told(event) {
  const d = eventData(event);
  const card = d.card ?? d.tile ?? (event.type === "move" ? d.to : null);
  return { seat: event.type === "destroy" ? d.from : d.seat ?? null, card: card ?? null };
}

/** The frame's events grouped in steps: [{events, shown}] (see QUIET and EFFECT_EVENTS).
 * What the viewer's own steal or sale sets off as they knew it would (the Location's Owner
 * Bonus, the Fence replaced in the row) is told with it: their own plain steal or sale is
 * one step, drawn at once. Another's are told step by step. */
function beats(items, me) {
  const out = [];
  let group = []; // the steps of the action under way
  let quiet = []; // quiet events waiting for the next step
  const cleanup = items.findIndex(({ event }) => event.type === "cleanup");
  items.forEach((item, k) => {
    const { type } = item.event;
    const seat = eventData(item.event).seat;
    if (QUIET.has(type)) {
      quiet.push(item);
      return;
    }
    // A Thief over the limit at the clean-up: the clean-up step shows where they went.
    if (type === "return" && cleanup > k && items.slice(k, cleanup).every(({ event }) => event.type === "return")) return;
    const own = group[0]?.main;
    const foreseen = (type === "bonus" && own?.type === "steal") || (type === "fence_drawn" && own?.type === "fence");
    if (foreseen && me !== null && me !== undefined && eventData(own).seat === me) {
      group[0].events.push(...quiet, item);
      group[0].seats.add(seat);
      quiet = [];
      return;
    }
    if (EFFECT_EVENTS.has(type)) {
      const home = [...group].reverse().find((b) => b.seats.has(seat));
      if (home) {
        home.events.push(...quiet, item);
        quiet = [];
        return;
      }
    }
    const beat = { events: [...quiet, item], shown: true, main: item.event, seats: new Set([seat]) };
    quiet = [];
    if (type !== "bonus" && !EFFECT_EVENTS.has(type)) group = [];
    group.push(beat);
    out.push(beat);
  });
  if (quiet.length) out.push({ events: quiet, shown: false });
  return out;
}

/** A view changed event by event, as far as the board shows each (see story). */
class Board {
  constructor(v, after, C, me) {
    Object.assign(this, { v, after, C, me, emptied: -1 });
  }

  seat(s) {
    return this.v.seats[Number(s)];
  }

  /** Tokens between a seat and the supply (what: "thief" or a treasure; n may be < 0). */
  give(s, what, n) {
    const x = this.seat(s);
    if (!x) return;
    if (what === "thief") x.thieves = Math.max(0, x.thieves + n);
    else if (what in x.treasures) x.treasures[what] = Math.max(0, x.treasures[what] + n);
  }

  supply(what, n) {
    const sup = this.v.supply;
    if (what === "thief") sup.thieves = Math.max(0, sup.thieves + n);
    else if (what in sup.treasures) sup.treasures[what] = Math.max(0, sup.treasures[what] + n);
  }

  /** Tokens from a seat to the supply (n < 0: from the supply to the seat). */
  back(s, what, n) {
    this.give(s, what, -n);
    this.supply(what, n);
  }

  /** The Location card on the table with this id: {list, i, at} (a board or the neutral row). */
  spot(card) {
    for (const list of [...this.v.seats.map((x) => x.locations), this.v.neutral]) {
      const i = list.findIndex((y) => y.card === card);
      if (i >= 0) return { list, i, at: list[i] };
    }
    return null;
  }

  place(s, card) {
    const x = this.seat(s);
    if (!x) return;
    if (loc(this.C, card).instant) x.collected.push(card);
    else x.locations.push({ card, thieves: 0 });
  }

  prestige(s, n) {
    const x = this.seat(s);
    if (x) x.prestige += Number(n) || 0;
  }

  apply(event) {
    const v = this.v;
    const d = eventData(event);
    const s = d.seat;
    const n = Math.max(0, Number(d.count) || 0);
    switch (event.type) {
      case "picked":
        if (this.seat(s)) this.seat(s).picked = true;
        break;
      case "you_picked":
        if (s === this.me && event.audience === this.me) {
          v.my_pick = d.card;
          v.hand = v.hand.filter((c) => c !== d.card);
        }
        break;
      case "reveal":
        for (const [who, card] of Object.entries(d.cards || {})) {
          if (this.seat(who)) this.seat(who).picked = false;
          this.place(who, card);
        }
        v.my_pick = null;
        break;
      case "neutral": // the end of Scouting: what was left in the hands is on the table now
        v.neutral = (d.cards || []).map((card) => ({ card, thieves: 0 }));
        v.hand = [];
        for (const x of v.seats) x.hand_size = 0;
        break;
      case "steal": {
        this.give(s, "thief", -1);
        const at = this.spot(d.card);
        if (at) at.at.thieves += 1;
        break;
      }
      case "gain":
        this.back(s, d.what, -n);
        break;
      case "return":
      case "pay":
        this.back(s, d.what, n);
        break;
      case "prestige":
        this.prestige(s, d.count);
        break;
      case "take":
        this.give(d.from, d.what, -1);
        this.give(s, d.what, 1);
        break;
      case "destroy":
        this.give(d.from, d.what, -1);
        this.supply(d.what, 1);
        break;
      case "fence": {
        for (const t of fence(this.C, d.card).desires || []) this.give(s, t, -1);
        this.give(s, "thief", -1);
        this.prestige(s, d.prestige);
        const slot = v.fence_row.indexOf(d.card);
        if (slot >= 0) {
          v.fence_row[slot] = null;
          this.emptied = slot;
          this.seat(s)?.fences.push({ card: d.card, uses: 1 });
        } else {
          for (const x of v.seats) for (const y of x.fences) if (y.card === d.card) y.uses += 1;
        }
        break;
      }
      case "fence_drawn":
      case "fences_drawn":
        for (const card of d.cards || [d.card]) {
          const slot = this.emptied >= 0 && v.fence_row[this.emptied] === null ? this.emptied : v.fence_row.indexOf(null);
          this.emptied = -1;
          if (slot >= 0) v.fence_row[slot] = card;
          v.fence_deck = Math.max(0, v.fence_deck - 1);
        }
        break;
      case "return_fence": {
        const slot = v.fence_row.indexOf(d.card);
        if (slot >= 0) v.fence_row[slot] = null;
        v.fence_deck += 1;
        break;
      }
      case "power": {
        this.give(s, d.pay, -1);
        const tile = v.powers.find((p) => p.tile === d.tile);
        if (tile) tile.paid = d.pay;
        break;
      }
      case "witch":
        this.give(s, d.treasure, -1);
        v.witch[d.treasure] = true;
        this.prestige(s, d.prestige);
        break;
      case "burgle":
        this.give(s, "thief", -2);
        v.burgle += 2;
        break;
      case "recruit":
        for (const t of d.pay || []) {
          this.give(s, t, -1);
          if (t in v.recruit) v.recruit[t] += 1;
        }
        break;
      case "pass":
        if (this.seat(s)) this.seat(s).passed = true;
        break;
      case "draw_location":
        v.location_deck = Math.max(0, v.location_deck - 1);
        if (v.location_deck_top[0] === d.card) v.location_deck_top.shift();
        this.place(s, d.card);
        break;
      case "recall": {
        const at = this.spot(d.card);
        if (at) {
          this.give(s, "thief", 1);
          this.supply("thief", Math.max(0, at.at.thieves - 1));
          at.list.splice(at.i, 1);
        }
        v.location_deck += 1;
        v.location_deck_top.unshift(d.card);
        break;
      }
      case "move": {
        const from = this.spot(d.from);
        const to = this.spot(d.to);
        if (from) from.at.thieves = Math.max(0, from.at.thieves - 1);
        if (to) to.at.thieves += 1;
        break;
      }
      case "unplace": {
        const at = this.spot(d.card);
        if (at) at.at.thieves = Math.max(0, at.at.thieves - 1);
        this.give(s, "thief", 1);
        break;
      }
      case "swap": {
        const mine = this.spot(d.mine);
        const theirs = this.spot(d.theirs);
        if (mine && theirs) [mine.list[mine.i], theirs.list[theirs.i]] = [theirs.at, mine.at];
        break;
      }
      case "cleanup":
        cleanUp(v, this.after);
        break;
      case "direction":
        v.holder = s;
        v.direction = v.direction === "clockwise" ? "counterclockwise" : "clockwise";
        break;
      default: // the rest changes nothing the board shows (the final scoring: finalSteps)
        break;
    }
  }
}

/** The clean-up as the board shows it: what went back, what was collected. Everything it
 * changes is public and no later event of the frame changes it again (the next events are
 * the Direction tile, a new round's deal, or the final scoring, which adds Prestige only),
 * so it is read from the frame's view; Prestige and the hand stay as they were. */
function cleanUp(v, after) {
  v.seats.forEach((x, s) => {
    const y = after.seats[s];
    Object.assign(x, { thieves: y.thieves, locations: [], fences: [], collected: [...y.collected], fences_collected: [...y.fences_collected], passed: false });
  });
  for (const key of ["supply", "powers", "powers_gone", "witch", "burgle", "recruit"]) v[key] = JSON.parse(JSON.stringify(after[key]));
  v.location_deck += v.neutral.length;
  v.neutral = [];
  v.current = null;
}

/** The final scoring in steps: the Fence majorities, then each seat's Scheme (every Scheme
 * is shown once the game is over: the final event names them all). */
function finalSteps(v, d, ctx, C, show) {
  const won = Object.entries(d.majorities || {}).filter(([, s]) => s !== null && s !== undefined);
  for (const [type, s] of won) v.seats[s].prestige += Number(C.majority[type]) || 0;
  v.phase = "over";
  const who = (s) => (s === ctx.seat ? tr("you") : plainName(ctx, s));
  const list = won.map(([type, s]) => tr("{who} +{n} for the most {type} Fences", { who: who(Number(s)), n: C.majority[type] ?? "?", type: word(type) }));
  show(list.length ? tr("Final scoring: most Fences of a type — {list}.", { list: list.join(", ") }) : tr("Final scoring: nobody has the most Fences of a type."), "majorities");
  (d.schemes || []).forEach((x, s) => {
    const S = scheme(C, x.scheme);
    v.seats[s].scheme = x.scheme;
    v.seats[s].prestige += Number(x.prestige) || 0;
    const words = { who: who(s), a: word(S.types[0] || "?"), b: word(S.types[1] || "?"), k: x.sets, p: S.prestige, n: x.prestige };
    show(tr(s === ctx.seat ? "Your Scheme ({a} + {b}): {k} × {p} = +{n} Prestige." : "{who}’s Scheme ({a} + {b}): {k} × {p} = +{n} Prestige.", words), "scheme", { seat: s });
  });
}

// ------------------------------------------------------------------ style (kept with the renderer)

function injectStyle() {
}

// ------------------------------------------------------------------ the log in German

// "einen Dieb", "ein Juwel": a treasure or Thief with its article (accusative).
const ACCUSATIVE = {
  thief: "einen Dieb", tome: "einen Folianten", jewel: "ein Juwel", artifact: "ein Artefakt", fossil: "ein Fossil", potion: "einen Trank",
};
// A treasure paid with: "mit einem Folianten", and two of a kind "mit zwei Folianten".
const DATIVE = { tome: "einem Folianten", jewel: "einem Juwel", artifact: "einem Artefakt", fossil: "einem Fossil", potion: "einem Trank" };
const DATIVE_PLURAL = { tome: "Folianten", jewel: "Juwelen", artifact: "Artefakten", fossil: "Fossilien", potion: "Tränken" };
const paidWith = (pay) => {
  const paid = Array.isArray(pay) ? pay : [pay];
  if (paid.length === 2 && paid[0] === paid[1] && DATIVE_PLURAL[paid[0]]) return `zwei ${DATIVE_PLURAL[paid[0]]}`;
  return paid.map((x) => DATIVE[x] || an(x)).join(" und ");
};
// The names of an ability step that came to nothing (no_effect).
const EFFECTS = {
  gain: "Nehmen", wild: "Beliebiger Schatz", prestige: "Prestige", take: "Wegnehmen", destroy: "Zerstören", pay: "Bezahlen",
  draw_location: "Ort ziehen", action: "Aktion", recall_thief: "Dieb zurückholen", move_thief: "Dieb versetzen",
  refresh_fences: "Hehler erneuern", swap_location: "Ort tauschen", limit: "Limit", unplace: "Dieb zurücknehmen",
};

/** An event's log line in German, from its type and data (what this seat's frame holds);
 * null for an event it has no words for (the page shows the English). Card names stay as
 * the card set gives them (the catalogue's, else the id in words). */
export function words(e, ctx) {
  const d = eventData(e);
  const w = germanSeats(ctx);
  const C = catalogue(ctx.view || {});
  const place = (id) => loc(C, id).name;
  const fenceName = (id) => C.fences[id]?.name || C.fences[baseId(id)]?.name || titled(baseId(id));
  const acc = (what) => ACCUSATIVE[what] || an(what);
  const things = (n, what) => (what === "thief" ? plural(Number(n), "Thief") : plural(Number(n), cap(what)));
  // "Du nimmst" / "Platz 2 nimmt": the seat, then its verb.
  const does = (s, du, er, rest) => `${w.nom(s, true)} ${w.v(s, du, er)}${rest ? ` ${rest}` : ""}`;
  const seat = d.seat;
  switch (e.type) {
    case "round":
      return `Runde ${d.round} beginnt; ${w.nom(d.holder)} ${w.v(d.holder, "hast", "hat")} das Richtungsplättchen (${d.direction === "clockwise" ? "im Uhrzeigersinn" : "gegen den Uhrzeigersinn"})`;
    case "dealt": {
      const cards = (d.cards || []).map(place).join(", ") || "keine";
      const reader = seat ?? e.audience ?? ctx.seat;
      return reader === null || reader === undefined || w.me(reader) ? `Dir wurden ausgeteilt: ${cards}` : `${w.name(reader)} wurden ausgeteilt: ${cards}`;
    }
    case "picked":
      return does(seat, "hast", "hat", "eine Karte gewählt");
    case "you_picked":
      return does(seat, "behältst", "behält", place(d.card));
    case "reveal":
      return `Aufgedeckt — ${Object.entries(d.cards || {}).map(([s, c]) => `${w.nom(s)}: ${place(c)}`).join("; ")}`;
    case "instant":
      return does(seat, "nutzt", "nutzt", `sofort ${place(d.card)}`);
    case "neutral":
      return `Neutrale Orte in dieser Runde: ${(d.cards || []).map(place).join(", ") || "keine"}`;
    case "steal":
      if (d.owner === -1 || d.owner === seat || d.owner === undefined || d.owner === null) return does(seat, "stiehlst", "stiehlt", `bei ${place(d.card)}`);
      return does(seat, "stiehlst", "stiehlt", `bei ${place(d.card)} ${w.von(d.owner)}`);
    case "bonus":
      return does(seat, "bekommst", "bekommt", `den Besitzerbonus von ${place(d.card)}`);
    case "gain":
      if (Number(d.count) === 0) return `${does(seat, "bekommst", "bekommt", `keine ${d.what === "thief" ? "Diebe" : tr(cap(d.what) + "s")}`)}: Der Vorrat ist leer`;
      return does(seat, "nimmst", "nimmt", things(d.count, d.what));
    case "prestige":
      return does(seat, "bekommst", "bekommt", `${d.count} Prestige`);
    case "pay":
      return does(seat, "bezahlst", "bezahlt", things(d.count, d.what));
    case "return":
      return does(seat, "gibst", "gibt", `${things(d.count, d.what)} zurück (über dem Limit)`);
    case "take":
      return does(seat, "nimmst", "nimmt", `${acc(d.what)} ${w.von(d.from)}`);
    case "destroy":
      return does(seat, "zerstörst", "zerstört", `${acc(d.what)} ${w.von(d.from)}`);
    case "fence":
      return does(seat, "verkaufst", "verkauft", `an den Hehler ${fenceName(d.card)} für ${d.prestige} Prestige`);
    case "fence_drawn":
      return `Neuer Hehler: ${fenceName(d.card)}`;
    case "fences_drawn":
      return `Neue Hehler: ${(d.cards || []).map(fenceName).join(", ") || "keine"}`;
    case "power":
      return does(seat, "nutzt", "nutzt", `das Machtplättchen ${power(C, d.tile).name} (bezahlt mit ${paidWith(d.pay)})`);
    case "witch":
      return does(seat, "lieferst", "liefert", `der Hexe ${an(d.treasure)} für ${d.prestige} Prestige`);
    case "burgle":
      return does(seat, "brichst", "bricht", `mit 2 Dieben ein: ${an(d.treasure)}`);
    case "recruit":
      return does(seat, "wirbst", "wirbt", `mit ${paidWith(d.pay || [])} einen Dieb an`);
    case "pass":
      return does(seat, "passt", "passt");
    case "skip":
      return does(seat, "lässt", "lässt", "die Folgeaktion aus");
    case "draw_location":
      return does(seat, "ziehst", "zieht", `${place(d.card)} vom Ortsstapel`);
    case "recall":
      return `${does(seat, "nimmst", "nimmt", `einen Dieb von ${place(d.card)}`)}; die Karte kommt oben auf den Stapel`;
    case "move":
      return does(seat, "versetzt", "versetzt", `einen Dieb von ${place(d.from)} nach ${place(d.to)}`);
    case "unplace":
      return does(seat, "nimmst", "nimmt", `den Dieb von ${place(d.card)} zurück`);
    case "return_fence":
      return does(seat, "gibst", "gibt", `den Hehler ${fenceName(d.card)} zurück`);
    case "swap":
      return does(seat, "tauschst", "tauscht", `${place(d.mine)} gegen ${place(d.theirs)} ${w.von(d.with)}`);
    case "no_effect":
      return `${w.nom(seat, true)}: ${EFFECTS[d.effect] || String(d.effect).replaceAll("_", " ")} hat keine Wirkung`;
    case "cleanup":
      return `Runde ${d.round} aufgeräumt`;
    case "direction":
      return does(seat, "nimmst", "nimmt", "das Richtungsplättchen");
    case "final": {
      const major = Object.entries(d.majorities || {}).filter(([, s]) => s !== null && s !== undefined)
        .map(([type, s]) => `${word(type)} → ${w.res(s)}`);
      const schemes = (d.schemes || []).map((x, k) => {
        const types = scheme(C, x.scheme).types || [];
        const named = types.length ? types.map(word).join("+") : String(x.scheme);
        return `${w.res(k)}: Plan ${named} ×${x.sets} (+${x.prestige})`;
      });
      return `Schlusswertung — Mehrheiten: ${major.join(", ") || "keine"}; ${schemes.join("; ")}`;
    }
    case "game_over": {
      const scores = (d.scores || []).map((v, s) => `${w.res(s)} ${v}`).join(", ");
      return `Das Spiel ist vorbei. Sieger: ${w.list((d.winners || []).map((s) => w.res(s)))}. Punkte: ${scores}`;
    }
    default:
      return null;
  }
}

export default { render, words };
