// Thieves!'s renderer: everyone's loot, the police in play, the getaway cars, your hand.
// It follows the renderer interface documented in generic.js: render(root, ctx) draws the
// view it is given, and every legal action becomes an element with data-action.
//
// Two-step choices (a card, then where it goes; a loot card, then where the Thief takes it)
// keep one small piece of page state: what is picked. Elements with data-pick='{…}' pick
// (they send nothing); the pick is forgotten as soon as the legal actions change.

import { esc, eventData, germanSeats, listenForPicks, resultName } from "/static/js/common.js";
import { addGerman, t } from "/static/js/i18n.js";
import { copyView, narrate } from "/static/js/motion.js";

// German (Piatnik published the game as "Fladeranti"; these are our German card names).
addGerman({
  "Diamond Ring": "Diamantring", "Horseshoe": "Hufeisen", "Money {n}": "Geld {n}",
  "Police (1 car)": "Polizei (1 Auto)", "Police ({n} cars)": "Polizei ({n} Autos)",
  "Getaway car": "Fluchtauto", "Roadblock": "Straßensperre", "Alarm": "Alarm", "Thief": "Dieb", "Double Loot": "Doppelte Beute",
  "Money: worth 3 in a police raid, only 1 at the end.": "Geld: bei einer Razzia 3 wert, am Ende nur 1.",
  "Money: worth only 1 in a police raid, 3 at the end.": "Geld: bei einer Razzia nur 1 wert, am Ende 3.",
  "Money worth {n}: keep it face down, or give it face up to another player.": "Geld im Wert {n}: verdeckt behalten oder offen einem anderen Spieler geben.",
  "1 police car. At 4 or more cars in play the police raid: the richest loot is busted.": "1 Polizeiauto. Ab 4 Autos im Spiel gibt es eine Razzia: Die reichste Beute wird geschnappt.",
  "{n} police cars. At 4 or more cars in play the police raid: the richest loot is busted.": "{n} Polizeiautos. Ab 4 Autos im Spiel gibt es eine Razzia: Die reichste Beute wird geschnappt.",
  "The 7th getaway car ends the game.": "Das 7. Fluchtauto beendet das Spiel.",
  "Discard one police card in play.": "Wirf eine Polizeikarte im Spiel ab.",
  "Everyone puts all police cards from their hands into play, starting with you.": "Alle spielen alle Polizeikarten aus ihrer Hand aus, beginnend bei dir.",
  "You may move one loot card from one player to a different player.": "Du darfst eine Beutekarte von einem Spieler zu einem anderen verschieben.",
  "Draw a card and play it at once — then do it again.": "Zieh eine Karte und spiel sie sofort — dann noch einmal.",
  "Roadblock…": "Straßensperre …", "Thief…": "Dieb …", "Double Loot…": "Doppelte Beute …", "to play": "am Zug",
  "winner": "Sieger", "★ wins": "★ gewinnt", "face up": "offen",
  "face down (slot {n}) — only its owner knows it": "verdeckt (Feld {n}) — nur der Besitzer kennt sie",
  "was face down": "lag verdeckt", "face down, but everyone saw it in the raid": "verdeckt, aber alle haben sie bei der Razzia gesehen",
  "face down — only you know it": "verdeckt — nur du kennst sie", "face down": "verdeckt",
  "Keep<br>face down": "Verdeckt<br>behalten", "Give here<br>face up": "Offen<br>hierher geben", "Move<br>here": "Hierher<br>verschieben",
  "your loot": "deine Beute", "{who}’s loot": "Beute von {who}",
  "no loot": "keine Beute", "a card in hand": "eine Karte auf der Hand", "Hand": "Hand", "empty": "leer",
  "face-down cards you cannot see": "verdeckte Karten, die du nicht sehen kannst", "+{n} hidden": "+{n} verdeckt",
  "busted in the last raid": "bei der letzten Razzia geschnappt",
  "seat number": "Platznummer", "played by a bot": "von einem Bot gespielt", "bot": "Bot", "you": "du",
  "loot value at the end of the game (what you can see)": "Wert der Beute am Spielende (was du sehen kannst)",
  "Loot": "Beute", "worth {n} in a raid": "bei einer Razzia {n} wert", "raid {n}": "Razzia {n}", "what the police count in a raid: Diamond Ring 3, Horseshoe 1": "was die Polizei bei einer Razzia zählt: Diamantring 3, Hufeisen 1",
  "raid value": "Razziawert", "what counts at the end: Diamond Ring 1, Horseshoe 3": "was am Ende zählt: Diamantring 1, Hufeisen 3", "end value": "Endwert",
  "click to remove it with your Roadblock": "anklicken, um sie mit deiner Straßensperre zu entfernen", "in play": "im Spiel",
  "no police in play": "keine Polizei im Spiel", "being played": "wird gespielt", "playing": "wird gespielt",
  "getaway car placed": "Fluchtauto liegt", "not yet": "noch nicht", "Police in play": "Polizei im Spiel",
  "at 4 or more cars the police raid": "ab 4 Autos gibt es eine Razzia", "of 4 cars": "von 4 Autos", " — a raid is near!": " — eine Razzia droht!",
  "Getaway cars": "Fluchtautos", "The 7th car ends the game.": "Das 7. Auto beendet das Spiel.",
  "none": "keine", "BUSTED": "GESCHNAPPT", " and ": " und ", "nobody": "niemand",
  " — called by {who}": " — ausgelöst von {who}", " with {n} cars": " mit {n} Autos",
  "Last police raid{by} · busted: {who}": "Letzte Razzia{by} · geschnappt: {who}",
  "The 7th getaway car is placed: the game is over. {names} share the win.": "Das 7. Fluchtauto liegt: Das Spiel ist vorbei. {names} teilen sich den Sieg.",
  "The 7th getaway car is placed: the game is over. {names} wins.": "Das 7. Fluchtauto liegt: Das Spiel ist vorbei. {names} gewinnt.",
  " (1 more Double Loot draw to come)": " (noch 1 Karte durch Doppelte Beute)", " ({n} more Double Loot draws to come)": " (noch {n} Karten durch Doppelte Beute)",
  "Roadblock: click the police card to remove from play.": "Straßensperre: Klick die Polizeikarte, die aus dem Spiel soll.",
  "Thief: now click “Move here” on the player who gets it (or a button below).": "Dieb: Klick jetzt „Hierher verschieben“ beim Spieler, der sie bekommt (oder einen Knopf unten).",
  "Thief: click a loot card on the table to move (face-down ones are taken blind), or don’t move anything.": "Dieb: Klick eine Beutekarte auf dem Tisch zum Verschieben (verdeckte werden blind genommen) oder verschieb nichts.",
  "Double Loot drew {card}: choose where it goes{draws}.": "Doppelte Beute zog {card}: Wähl, wohin sie kommt{draws}.",
  "{card}: keep it face down, or give it face up to someone.": "{card}: verdeckt behalten oder offen jemandem geben.",
  "Play {card}? Click it again or press the button.": "{card} spielen? Klick sie noch einmal oder drück den Knopf.",
  "Your turn: pick a card from your hand to play.": "Du bist dran: Wähl eine Karte aus deiner Hand.",
  "Sending your move…": "Dein Zug wird gesendet …", "You": "Du",
  "played a Roadblock and is choosing a police card to remove": "hat eine Straßensperre gespielt und wählt eine Polizeikarte zum Entfernen",
  "played a Thief and is choosing a loot card to move": "hat einen Dieb gespielt und wählt eine Beutekarte zum Verschieben",
  "is playing a card drawn with Double Loot{draws}": "spielt eine mit Doppelter Beute gezogene Karte{draws}",
  "is choosing a card to play": "wählt eine Karte", "{who} {what}…": "{who} {what} …",
  "Cancel": "Abbrechen", "the Thief's move is optional": "das Verschieben mit dem Dieb ist freiwillig", "Don’t move anything": "Nichts verschieben",
  "Play {card}": "{card} spielen", "Keep it face down": "Verdeckt behalten", "Give to {who}": "An {who} geben",
  "To {who}": "An {who}", "Thief: move {what} from {who}": "Dieb: {what} von {who} verschieben",
  "To yourself": "An dich", "Thief: move {what} from your loot": "Dieb: {what} aus deiner Beute verschieben",
  "a face-down card": "eine verdeckte Karte",
  "It will lie face up in front of the player you choose.": "Sie liegt dann offen vor dem Spieler, den du wählst.",
  "Thief: click a loot card on the table, or move nothing.": "Dieb: Klick eine Beutekarte auf dem Tisch oder verschieb nichts.",
  "Roadblock: click a police card in play (above).": "Straßensperre: Klick eine Polizeikarte im Spiel (oben).",
  "Click a card in your hand.": "Klick eine Karte in deiner Hand.",
  "Your turn": "Du bist dran", "{who}’s turn": "{who} ist dran", "Drawn by Double Loot": "Gezogen durch Doppelte Beute",
  "Your hand": "Deine Hand", "no cards": "keine Karten", "Turn": "Zug", "cards in the deck": "Karten im Stapel", "Deck": "Stapel",
  "the deck": "der Stapel", "cards in the discard pile; the top one is shown": "Karten im Ablagestapel; die oberste ist zu sehen",
  "Discard": "Ablage", "top of the discard pile": "oben auf dem Ablagestapel",
  "{n} police cars: a raid! Everyone's loot is turned over.": "{n} Polizeiautos: eine Razzia! Die Beute aller wird aufgedeckt.",
});


/** A card id as its parts: money-2c, diamond-ring, horseshoe, police-1a, getaway-e, thief-b. */
export function parseCard(id) {
  const s = String(id);
  if (s === "diamond-ring") return { cat: "money", kind: "ring", value: 1, raid: 3, label: t("Diamond Ring") };
  if (s === "horseshoe") return { cat: "money", kind: "horseshoe", value: 3, raid: 1, label: t("Horseshoe") };
  const m = /^(money|police|getaway|roadblock|alarm|thief|double-loot)-(\d?)[a-z]$/.exec(s);
  if (!m) return { cat: "unknown", kind: s, value: 0, raid: 0, label: s };
  const [, kind, digit] = m;
  const n = digit === "" ? 0 : Number(digit);
  if (kind === "money") return { cat: "money", kind: "money", value: n, raid: n, label: t("Money {n}", { n }) };
  if (kind === "police") return { cat: "police", kind, cars: n, value: 0, raid: 0, label: n > 1 ? t("Police ({n} cars)", { n }) : t("Police (1 car)") };
  const label = t({ getaway: "Getaway car", roadblock: "Roadblock", alarm: "Alarm", thief: "Thief", "double-loot": "Double Loot" }[kind] || kind);
  return { cat: kind === "getaway" ? "getaway" : "action", kind, value: 0, raid: 0, label };
}

/** What a card does, in words (its card text). */
function cardText(c) {
  if (c.kind === "ring") return t("Money: worth 3 in a police raid, only 1 at the end.");
  if (c.kind === "horseshoe") return t("Money: worth only 1 in a police raid, 3 at the end.");
  if (c.cat === "money") return t("Money worth {n}: keep it face down, or give it face up to another player.", { n: c.value });
  if (c.cat === "police") return c.cars > 1 ? t("{n} police cars. At 4 or more cars in play the police raid: the richest loot is busted.", { n: c.cars }) : t("1 police car. At 4 or more cars in play the police raid: the richest loot is busted.");
  return {
    getaway: "The 7th getaway car ends the game.",
    roadblock: "Discard one police card in play.",
    alarm: "Everyone puts all police cards from their hands into play, starting with you.",
    thief: "You may move one loot card from one player to a different player.",
    "double-loot": "Draw a card and play it at once — then do it again.",
  }[c.kind] ? t({
    getaway: "The 7th getaway car ends the game.",
    roadblock: "Discard one police card in play.",
    alarm: "Everyone puts all police cards from their hands into play, starting with you.",
    thief: "You may move one loot card from one player to a different player.",
    "double-loot": "Draw a card and play it at once — then do it again.",
  }[c.kind]) : "";
}

// ------------------------------------------------------------------ drawing (our own SVG)

function coins(n) {
  if (n === 0) {
    return `<g><path d="M9 17c0-4 5-6 11-6s11 2 11 6l-2 15c-1 3-5 4-9 4s-8-1-9-4z" fill="#a98b62" stroke="#5a4326" stroke-width="1.5"/>
      <path d="M11 16c3 2 15 2 18 0" stroke="#5a4326" stroke-width="1.3" fill="none"/>
      <path d="M15 24l10 6M25 24l-10 6" stroke="#5a4326" stroke-width="1.2" opacity=".6"/></g>`;
  }
  const out = [];
  for (let i = 0; i < n; i++) {
    const y = 30 - i * 7;
    out.push(`<ellipse cx="20" cy="${y + 3}" rx="12" ry="4.5" fill="#a8761c"/>
      <rect x="8" y="${y}" width="24" height="3" fill="#a8761c"/>
      <ellipse cx="20" cy="${y}" rx="12" ry="4.5" fill="#f1c44e" stroke="#a8761c" stroke-width="1"/>
      <ellipse cx="20" cy="${y}" rx="7" ry="2.4" fill="none" stroke="#c8922a" stroke-width=".9"/>`);
  }
  return `<g>${out.join("")}</g>`;
}

function car(color, light) {
  return `<g><path d="M4 24l4-8c1-2 3-3 5-3h14c2 0 4 1 5 3l4 8v6H4z" fill="${color}" stroke="#0c0f18" stroke-width="1.2"/>
    <path d="M11 16h18l3 7H8z" fill="#bfe3ff" stroke="#0c0f18" stroke-width=".8"/>
    <path d="M20 16v7" stroke="#0c0f18" stroke-width=".8"/>
    ${light}
    <circle cx="11" cy="30" r="4" fill="#1a1a1a" stroke="#777" stroke-width="1.2"/><circle cx="29" cy="30" r="4" fill="#1a1a1a" stroke="#777" stroke-width="1.2"/></g>`;
}

const SIREN = `<rect x="15" y="9" width="5" height="4" rx="1" fill="#e33"/><rect x="20" y="9" width="5" height="4" rx="1" fill="#39f"/>`;

const ICONS = {
  ring: `<g><circle cx="20" cy="26" r="10" fill="none" stroke="#d9a42b" stroke-width="4"/>
    <circle cx="20" cy="26" r="10" fill="none" stroke="#fbe29a" stroke-width="1.1"/>
    <path d="M12 12l4-6h8l4 6-8 8z" fill="#c9f1ff" stroke="#2b6d96" stroke-width="1.1"/>
    <path d="M12 12h16M16 6l4 14 4-14M18 12l2-6 2 6" fill="none" stroke="#2b6d96" stroke-width=".7"/></g>`,
  horseshoe: `<g><path d="M10 8c-4 8-4 18 2 24 5 5 11 5 16 0 6-6 6-16 2-24" fill="none" stroke="#6d7480" stroke-width="7" stroke-linecap="round"/>
    <path d="M10 8c-4 8-4 18 2 24 5 5 11 5 16 0 6-6 6-16 2-24" fill="none" stroke="#c3c9d3" stroke-width="3" stroke-linecap="round"/>
    ${[[9.5, 16], [10.5, 24], [30.5, 16], [29.5, 24], [15, 31], [25, 31]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="1.1" fill="#2a2f3a"/>`).join("")}</g>`,
  police1: `<g transform="translate(0 2)">${car("#2c4fa8", SIREN)}<text x="20" y="27" font-size="6" text-anchor="middle" fill="#fff" font-weight="700" font-family="sans-serif">POLICE</text></g>`,
  police2: `<g><g transform="translate(-2 -6) scale(.72)">${car("#2c4fa8", SIREN)}</g><g transform="translate(13 12) scale(.72)">${car("#2c4fa8", SIREN)}</g></g>`,
  getaway: `<g transform="translate(2 2)"><path d="M0 17h6M-1 22h5M1 27h5" stroke="#f3d27f" stroke-width="1.6" stroke-linecap="round"/>
    <g transform="translate(3 0) scale(.9)">${car("#c23b2e", "")}</g></g>`,
  roadblock: `<g><rect x="8" y="22" width="3" height="14" fill="#555"/><rect x="29" y="22" width="3" height="14" fill="#555"/>
    <rect x="3" y="12" width="34" height="10" rx="1.5" fill="#fff" stroke="#222" stroke-width="1"/>
    ${[0, 1, 2, 3].map((i) => `<path d="M${5 + i * 9} 22l7-10h4l-7 10z" fill="#d63b2f"/>`).join("")}
    <circle cx="6" cy="9" r="2.5" fill="#ffb300"/><circle cx="34" cy="9" r="2.5" fill="#ffb300"/></g>`,
  alarm: `<g><path d="M12 28V19a8 8 0 0 1 16 0v9z" fill="#e0402f" stroke="#6e1a12" stroke-width="1.2"/>
    <rect x="9" y="28" width="22" height="5" rx="1.5" fill="#444"/>
    <path d="M16 19a4 4 0 0 1 4-4" stroke="#ffd0c8" stroke-width="1.6" fill="none"/>
    <path d="M5 12l4 3M35 12l-4 3M20 3v4M8 4l3 4M32 4l-3 4" stroke="#ffb300" stroke-width="1.8" stroke-linecap="round"/></g>`,
  thief: `<g><path d="M4 17c5-5 11-5 16-2 5-3 11-3 16 2-1 7-7 10-12 8l-4-3-4 3c-5 2-11-1-12-8z" fill="#15161c" stroke="#b9a8ff" stroke-width="1.2"/>
    <ellipse cx="12.5" cy="18.5" rx="3.4" ry="2.1" fill="#f3efe4"/><ellipse cx="27.5" cy="18.5" rx="3.4" ry="2.1" fill="#f3efe4"/>
    <path d="M13 30h14l-2 6H15z" fill="#5d4b2b"/><path d="M15 30c0-3 10-3 10 0" fill="none" stroke="#5d4b2b" stroke-width="1.5"/></g>`,
  "double-loot": `<g>${[0, 1].map((i) => `<g transform="translate(${i * 13 - 2} ${i * 6 - 2})">
    <path d="M6 18c-3 3-4 9-1 13 3 3 13 3 16 0 3-4 2-10-1-13z" fill="#b08a4f" stroke="#5a4326" stroke-width="1.2"/>
    <path d="M8 15l3 3h4l3-3-2-3h-6z" fill="#b08a4f" stroke="#5a4326" stroke-width="1.2"/>
    <text x="13" y="29" font-size="8" text-anchor="middle" fill="#3d2c14" font-weight="800" font-family="sans-serif">$</text></g>`).join("")}</g>`,
};

function icon(c) {
  let inner;
  if (c.cat === "money") inner = c.kind === "money" ? coins(c.value) : ICONS[c.kind];
  else if (c.cat === "police") inner = c.cars > 1 ? ICONS.police2 : ICONS.police1;
  else inner = ICONS[c.kind] || "";
  return `<svg viewBox="0 0 40 40" aria-hidden="true">${inner}</svg>`;
}

/** One card. `down`: it lies face down (shown to those who know it, marked as hidden). */
function card(id, { size = "", pick = null, action = null, note = "", down = false, selected = false, extra = "" } = {}) {
  const c = parseCard(id);
  const cls = ["tv-card", `tv-${c.cat}`, `tv-k-${c.kind}`, size, pick || action ? "legal" : "", selected ? "selected" : "", down ? "known-down" : "", extra].join(" ");
  let corner = "";
  if (c.cat === "money") corner = `${c.value}`;
  else if (c.cat === "police") corner = `${c.cars}`;
  const raid = c.cat === "money" && c.kind !== "money" ? `<span class="tv-raid" title="${esc(t("worth {n} in a raid", { n: c.raid }))}">${esc(t("raid {n}", { n: c.raid }))}</span>` : "";
  // (a pick is a toggle: the picked card is "pressed", and pressed again it is put back)
  const attrs = action
    ? ` data-action='${esc(JSON.stringify(action))}' tabindex="0" role="button"`
    : pick ? ` data-pick='${esc(JSON.stringify(pick))}' tabindex="0" role="button" aria-pressed="${selected}"` : "";
  const title = `${c.label}${note ? " — " + note : ""}. ${cardText(c)}`;
  return `<div class="${cls}" data-card="${esc(id)}" title="${esc(title)}"${attrs}>
    ${corner ? `<span class="tv-v">${corner}</span>` : ""}<span class="tv-icon">${icon(c)}</span>
    <span class="tv-name">${esc(c.label)}</span>${raid}${down ? `<span class="tv-eye" aria-label="${esc(t("face down"))}">${EYE}</span>` : ""}</div>`;
}

const EYE = `<svg viewBox="0 0 16 16" width="100%" height="100%"><path d="M1 8s3-5 7-5 7 5 7 5-3 5-7 5-7-5-7-5z" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="8" cy="8" r="2" fill="currentColor"/><path d="M2 14L14 2" stroke="currentColor" stroke-width="1.8"/></svg>`;

function back(size = "small", { note = "", pick = null, selected = false } = {}) {
  const attrs = pick ? ` data-pick='${esc(JSON.stringify(pick))}' tabindex="0" role="button" aria-pressed="${selected}"` : "";
  const words = note || t("a face-down card");
  const role = pick ? "" : ` role="img"`; // (a pick is a button: its attributes say so)
  return `<div class="tv-card tv-back ${size} ${pick ? "legal" : ""} ${selected ? "selected" : ""}" title="${esc(words)}" aria-label="${esc(words)}"${role}${attrs}></div>`;
}

function name(ctx, seat) {
  const s = ctx.seats?.[seat];
  return esc(s ? s.name : `Seat ${seat}`);
}

function actionAttr(action) {
  return `data-action='${esc(JSON.stringify(action))}'`;
}

// ------------------------------------------------------------------ picking (page state)

const ui = { key: null, pick: null, ctx: null, roots: new WeakSet() };

function listen(root) {
  listenForPicks(root, ui, draw);
}

// ------------------------------------------------------------------ reading the view

/** Known worth of a seat's loot: final value, raid value, and how many cards are unknown. */
function worth(slots) {
  let value = 0, raid = 0, hidden = 0;
  for (const slot of slots) {
    if (slot.card === null) { hidden += 1; continue; }
    const c = parseCard(slot.card);
    value += c.value;
    raid += c.raid;
  }
  return { value, raid, hidden };
}

function legalIndex(ctx) {
  const plays = new Map(); // card -> [play actions]
  const removes = new Map(); // police card -> action
  const moves = new Map(); // "from:slot" -> [move actions]
  let pass = null; // the Thief's move declined
  for (const a of ctx.legal) {
    if (a.type === "play") {
      if (!plays.has(a.card)) plays.set(a.card, []);
      plays.get(a.card).push(a);
    } else if (a.type === "remove") {
      removes.set(a.card, a);
    } else if (a.type === "move") {
      const k = `${a.from}:${a.slot}`;
      if (!moves.has(k)) moves.set(k, []);
      moves.get(k).push(a);
    } else if (a.type === "pass") {
      pass = a;
    }
  }
  return { plays, removes, moves, pass };
}

/** Where the picked thing may go: [{seat, action}] (empty when nothing valid is picked). */
function targets(ctx, idx) {
  const p = ui.pick;
  if (!p) return [];
  if (p.card !== undefined) return (idx.plays.get(p.card) || []).map((a) => ({ seat: a.to ?? null, action: a }));
  if (p.from !== undefined) return (idx.moves.get(`${p.from}:${p.slot}`) || []).map((a) => ({ seat: a.to, action: a }));
  return [];
}

// ------------------------------------------------------------------ the table

function seatStatus(ctx, seat) {
  const v = ctx.view;
  if (v.result) {
    return v.result.winners.includes(seat) ? `<span class="tv-badge win" title="${t("winner")}">${t("★ wins")}</span>` : "";
  }
  if (!v.to_act.includes(seat)) return "";
  const text = t({ remove: "Roadblock…", move: "Thief…", double_loot: "Double Loot…" }[v.pending] || "to play");
  return `<span class="tv-badge wait">${text}</span>`;
}

function lootRow(ctx, seat, idx, tgt) {
  const v = ctx.view;
  const slots = v.loot[seat];
  const own = ctx.views?.[seat];
  const exposed = new Set(v.exposed?.[seat] || []);
  const picked = ui.pick && ui.pick.from !== undefined ? ui.pick : null;
  const items = slots.map((slot, i) => {
    const canMove = idx.moves.has(`${seat}:${i}`);
    const pick = canMove ? { from: seat, slot: i } : null;
    const selected = picked && picked.from === seat && picked.slot === i;
    const id = slot.card ?? (own ? own.loot[seat][i].card : null);
    if (slot.face_up) return card(id, { size: "small", pick, selected, note: t("face up") });
    if (id === null) return back("small", { note: t("face down (slot {n}) — only its owner knows it", { n: i + 1 }), pick, selected });
    const note = t(v.result ? "was face down" : exposed.has(i) ? "face down, but everyone saw it in the raid" : seat === ctx.seat ? "face down — only you know it" : "face down");
    return card(id, { size: "small", pick, selected, down: !v.result, note, extra: exposed.has(i) ? "seen" : "" });
  });
  const drop = tgt.find((x) => x.seat === seat);
  if (drop) {
    const what = ui.pick.card !== undefined
      ? seat === ctx.seat ? t("Keep<br>face down") : t("Give here<br>face up")
      : t("Move<br>here");
    // Named with whose panel it is in (the button's words alone were the same on each).
    const whose = seat === ctx.seat ? t("your loot") : t("{who}’s loot", { who: name(ctx, seat) });
    const label = `${what.replace("<br>", " ")} — ${whose}`;
    items.push(`<button class="tv-drop" ${actionAttr(drop.action)} aria-label="${label}">${what}</button>`);
  }
  return items.join("") || `<span class="tv-none">${t("no loot")}</span>`;
}

function seatPanel(ctx, seat, idx, tgt) {
  const v = ctx.view;
  const me = seat === ctx.seat;
  const turn = v.to_act.includes(seat) || (!v.result && v.current === seat);
  const who = ctx.seats?.[seat];
  const own = ctx.views?.[seat];
  let hand = "";
  if (!me) {
    hand = own
      ? own.hand.map((id) => card(id, { size: "tiny" })).join("")
      : Array.from({ length: v.hand_sizes[seat] }, () => back("tiny", { note: t("a card in hand") })).join("");
    hand = `<div class="tv-row"><label>${t("Hand")}</label><div class="tv-cards">${hand || `<span class="tv-none">${t("empty")}</span>`}</div></div>`;
  }
  const w = worth(own ? own.loot[seat] : v.loot[seat]);
  const busted = v.last_raid && !v.result && v.last_raid.busted.includes(seat) ? " busted" : "";
  const hiddenNote = w.hidden ? ` <span class="tv-q" title="${t("face-down cards you cannot see")}">${t("+{n} hidden", { n: w.hidden })}</span>` : "";
  const isTarget = tgt.some((x) => x.seat === seat);
  return `<div class="tv-seat ${turn ? "turn" : ""} ${me ? "me" : ""} ${isTarget ? "target" : ""}${busted}" data-seat="${seat}">
    <div class="tv-head"${busted ? ` data-note="${esc(t("busted in the last raid"))}"` : ""}><span class="tv-who">${name(ctx, seat)}</span>
      <span class="tv-chip" title="${t("seat number")}">#${seat + 1}</span>
      ${who && (who.kind === "bot" || who.bot) ? `<span class="tv-chip" title="${t("played by a bot")}">${t("bot")}</span>` : ""}
      ${me ? `<span class="tv-chip you">${t("you")}</span>` : ""}
      <span class="tv-grow"></span>${seatStatus(ctx, seat)}
      <span class="tv-worth" title="${t("loot value at the end of the game (what you can see)")}">${v.result ? v.result.scores[seat] : w.value}${!v.result && w.hidden ? "+" : ""}</span></div>
    ${hand}
    <div class="tv-row tv-lootrow"><label>${t("Loot")}</label><div class="tv-cards">${lootRow(ctx, seat, idx, tgt)}</div></div>
    <div class="tv-foot"><span title="${t("what the police count in a raid: Diamond Ring 3, Horseshoe 1")}">${t("raid value")} <b>${w.raid}</b>${hiddenNote}</span>
      <span title="${t("what counts at the end: Diamond Ring 1, Horseshoe 3")}">${t("end value")} <b>${w.value}</b>${w.hidden ? "+?" : ""}</span></div>
  </div>`;
}

function pips(n, max, cls) {
  return Array.from({ length: max }, (_, i) => `<span class="tv-pip ${cls} ${i < n ? "on" : ""}"></span>`).join("");
}

function street(ctx, idx) {
  const v = ctx.view;
  const police = v.police.map((id) => card(id, {
    size: "small", action: idx.removes.get(id) || null,
    note: t(idx.removes.has(id) ? "click to remove it with your Roadblock" : "in play"),
  })).join("") || `<span class="tv-none">${t("no police in play")}</span>`;
  const resolving = v.resolving ? `<div class="tv-resolving">${card(v.resolving, { size: "small", note: t("being played") })}<span>${t("playing")}</span></div>` : "";
  const cars = Math.min(v.cars, 4);
  const getaways = Array.from({ length: 7 }, (_, i) =>
    `<span class="tv-slot ${i < v.getaways.length ? "on" : ""}" title="${t(i < v.getaways.length ? "getaway car placed" : "not yet")}">${i < v.getaways.length ? `<svg viewBox="0 0 40 40">${car("#c23b2e", "")}</svg>` : i + 1}</span>`).join("");
  return `<div class="tv-street">
    <div class="tv-box tv-policebox ${idx.removes.size ? "choosing" : ""}"><h3>${t("Police in play")}</h3>
      <div class="tv-cards">${police}${resolving}</div>
      <div class="tv-meter" title="${t("at 4 or more cars the police raid")}">${pips(cars, 4, "car")}<span><b class="tv-cars">${v.cars}</b> ${t("of 4 cars")}${v.cars >= 3 ? t(" — a raid is near!") : ""}</span></div>
    </div>
    <div class="tv-box tv-getaways"><h3>${t("Getaway cars")} <b class="tv-gcount">${v.getaways.length}/7</b></h3>
      <div class="tv-slots">${getaways}</div>
      <div class="help">${t("The 7th car ends the game.")}</div>
    </div>
  </div>`;
}

function raidStrip(ctx) {
  const r = ctx.view.last_raid;
  if (!r) return "";
  const cols = r.values.map((value, seat) => {
    const busted = r.busted.includes(seat);
    const loot = (r.loot?.[seat] || []).map((id) => card(id, { size: "tiny" })).join("") || `<span class="tv-none">${t("none")}</span>`;
    return `<div class="tv-rseat ${busted ? "busted" : ""}"><div class="tv-rname">${name(ctx, seat)} <b>${value}</b></div>
      <div class="tv-cards">${loot}</div>${busted ? `<span class="tv-stamp">${t("BUSTED")}</span>` : ""}</div>`;
  }).join("");
  const who = r.busted.length ? r.busted.map((s) => name(ctx, s)).join(t(" and ")) : t("nobody");
  const by = r.seat !== undefined ? `${t(" — called by {who}", { who: name(ctx, r.seat) })}${r.cars ? t(" with {n} cars", { n: r.cars }) : ""}` : "";
  return `<div class="tv-raidbox"><h3>${t("Last police raid{by} · busted: {who}", { by, who })}</h3><div class="tv-rseats">${cols}</div></div>`;
}

function prompt(ctx, idx) {
  const v = ctx.view;
  if (v.result) {
    const names = v.result.winners.map((s) => resultName(name(ctx, s))).join(t(" and "));
    return { text: v.result.winners.length > 1 ? t("The 7th getaway car is placed: the game is over. {names} share the win.", { names }) : t("The 7th getaway car is placed: the game is over. {names} wins.", { names }), you: false };
  }
  const mine = ctx.legal.length > 0;
  const actor = v.to_act[0];
  const draws = !v.double_loot_draws ? "" : v.double_loot_draws > 1 ? t(" ({n} more Double Loot draws to come)", { n: v.double_loot_draws }) : t(" (1 more Double Loot draw to come)");
  if (mine) {
    if (v.pending === "remove") return { text: t("Roadblock: click the police card to remove from play."), you: true };
    if (v.pending === "move") {
      return ui.pick && ui.pick.from !== undefined
        ? { text: t("Thief: now click “Move here” on the player who gets it (or a button below)."), you: true }
        : { text: t("Thief: click a loot card on the table to move (face-down ones are taken blind), or don’t move anything."), you: true };
    }
    if (v.pending === "double_loot") return { text: t("Double Loot drew {card}: choose where it goes{draws}.", { card: esc(parseCard(v.drawn || ctx.legal[0].card).label), draws }), you: true };
    if (ui.pick && ui.pick.card !== undefined) {
      const c = parseCard(ui.pick.card);
      return { text: c.cat === "money" ? t("{card}: keep it face down, or give it face up to someone.", { card: esc(c.label) }) : t("Play {card}? Click it again or press the button.", { card: esc(c.label) }), you: true };
    }
    return { text: t("Your turn: pick a card from your hand to play."), you: true };
  }
  if (actor === undefined) return { text: "…", you: false };
  if (actor === ctx.seat && ctx.pending) return { text: t("Sending your move…"), you: false };
  const who = name(ctx, actor); // (by name, also the replay's own seat: not "You is choosing")
  const what = {
    remove: t("played a Roadblock and is choosing a police card to remove"),
    move: t("played a Thief and is choosing a loot card to move"),
    double_loot: t("is playing a card drawn with Double Loot{draws}", { draws }),
  }[v.pending] || t("is choosing a card to play");
  return { text: t("{who} {what}…", { who, what }), you: false };
}

/** The box beside your hand: what the picked card does and where it can go. */
function actionPanel(ctx, idx, tgt) {
  const v = ctx.view;
  if (!ctx.legal.length) return "";
  const p = ui.pick;
  const cancel = `<button class="small" data-pick='{"clear":1}'>${t("Cancel")}</button>`;
  // The Thief's move is optional: declining is always one click away while it waits.
  const decline = idx.pass
    ? `<button class="tv-pass" ${actionAttr(idx.pass)} title="${t("the Thief's move is optional")}">${t("Don’t move anything")}</button>`
    : "";
  if (p && p.card !== undefined && idx.plays.has(p.card)) {
    const c = parseCard(p.card);
    const opts = idx.plays.get(p.card);
    let buttons;
    if (opts.length === 1 && opts[0].to === undefined) {
      buttons = `<button class="primary" ${actionAttr(opts[0])}>${t("Play {card}", { card: esc(c.label) })}</button>`;
    } else {
      const sorted = [...opts].sort((a, b) => (a.to === ctx.seat ? -1 : b.to === ctx.seat ? 1 : a.to - b.to));
      buttons = sorted.map((a) => a.to === ctx.seat
        ? `<button class="primary" ${actionAttr(a)}>${t("Keep it face down")}</button>`
        : `<button ${actionAttr(a)}>${t("Give to {who}", { who: name(ctx, a.to) })}</button>`).join("");
    }
    const canCancel = v.pending !== "double_loot";
    return `<div class="tv-act"><div class="tv-act-card">${card(p.card, { size: "mid" })}</div>
      <div><b>${esc(c.label)}</b><p class="help">${esc(cardText(c))}</p><div class="tv-buttons">${buttons}${canCancel ? cancel : ""}</div></div></div>`;
  }
  if (p && p.from !== undefined && tgt.length) {
    const slot = v.loot[p.from][p.slot];
    const what = slot.card ? parseCard(slot.card).label : t("a face-down card");
    const buttons = tgt.map((x) => `<button ${actionAttr(x.action)}>${x.seat === ctx.seat ? t("To yourself") : t("To {who}", { who: name(ctx, x.seat) })}</button>`).join("");
    const from = p.from === ctx.seat
      ? t("Thief: move {what} from your loot", { what: esc(what) })
      : t("Thief: move {what} from {who}", { what: esc(what), who: name(ctx, p.from) });
    return `<div class="tv-act"><div><b>${from}</b>
      <p class="help">${t("It will lie face up in front of the player you choose.")}</p><div class="tv-buttons">${buttons}${cancel}${decline}</div></div></div>`;
  }
  if (v.pending === "move") {
    return `<div class="tv-act"><div><p class="help">${t("Thief: click a loot card on the table, or move nothing.")}</p>
      <div class="tv-buttons">${decline}</div></div></div>`;
  }
  if (v.pending === "remove") return `<div class="tv-act"><p class="help">${t("Roadblock: click a police card in play (above).")}</p></div>`;
  return `<div class="tv-act"><p class="help">${t("Click a card in your hand.")}</p></div>`;
}

/** Draw the view; a frame's chained effects first, one step at a time (motion.js). */
function render(root, ctx) {
  narrate(root, ctx, draw, story);
}

function draw(root, ctx) {
  injectStyle();
  listen(root);
  const v = ctx.view;
  const key = `${v.turn}|${v.pending}|${JSON.stringify(ctx.legal)}`;
  if (key !== ui.key) {
    ui.key = key;
    ui.pick = null;
  }
  ui.ctx = ctx;
  const idx = legalIndex(ctx);
  // Double Loot's drawn card is the only card to play: pick it at once.
  if (v.pending === "double_loot" && idx.plays.size === 1) ui.pick = { card: [...idx.plays.keys()][0] };
  if (ui.pick && ui.pick.card !== undefined && !idx.plays.has(ui.pick.card)) ui.pick = null;
  if (ui.pick && ui.pick.from !== undefined && !idx.moves.has(`${ui.pick.from}:${ui.pick.slot}`)) ui.pick = null;
  const tgt = targets(ctx, idx).filter((x) => x.seat !== null);
  const p = prompt(ctx, idx);
  const n = v.players;
  const me = ctx.seat;
  const order = me === null ? [...Array(n).keys()] : Array.from({ length: n - 1 }, (_, i) => (me + 1 + i) % n);
  const top = v.discard.slice(-1)[0];
  const current = v.result ? "" : `<span>${v.current === me ? `<b>${t("Your turn")}</b>` : t("{who}’s turn", { who: `<b>${name(ctx, v.current)}</b>` })}</span>`;

  let mine = "";
  if (me !== null) {
    const handCards = v.hand.map((id) => {
      const opts = idx.plays.get(id);
      const selected = ui.pick?.card === id;
      const single = opts && opts.length === 1 && opts[0].to === undefined;
      return card(id, {
        size: "big", selected, extra: ctx.legal.length && !opts ? "idle" : "",
        action: selected && single ? opts[0] : null,
        pick: opts && !(selected && single) ? { card: id } : null,
      });
    }).join("");
    const drawn = v.pending === "double_loot" && v.drawn
      ? `<div class="tv-drawn"><span>${t("Drawn by Double Loot")}</span>${card(v.drawn, { size: "big", selected: true })}</div>` : "";
    mine = `<div class="tv-mine">
      ${seatPanel(ctx, me, idx, tgt)}
      <div class="tv-handbox ${ctx.legal.length ? "active" : ""}">
        <h3>${t("Your hand")}</h3>
        <div class="tv-hand">${handCards || `<span class="tv-none">${t("no cards")}</span>`}${drawn}</div>
        ${actionPanel(ctx, idx, tgt)}
      </div>
    </div>`;
  }
  root.innerHTML = `<div class="tv">
    <div class="tv-top">
      <span class="tv-title">Thieves!</span><span>${t("Turn")} <b>${v.turn}</b></span>${current}
      <span class="tv-grow"></span>
      <span class="tv-pile" title="${t("cards in the deck")}">${t("Deck")} ${back("tiny", { note: t("the deck") })} <b class="tv-deck">${v.deck_size}</b></span>
      <span class="tv-pile" title="${t("cards in the discard pile; the top one is shown")}">${t("Discard")} ${top ? card(top, { size: "tiny", note: t("top of the discard pile") }) : ""} <b class="tv-discard">${v.discard.length}</b></span>
    </div>
    <div class="tv-prompt ${p.you ? "you" : ""}" data-prompt>${p.text}</div>
    <div class="tv-felt">
      ${street(ctx, idx)}
      <div class="tv-seats">${order.map((s) => seatPanel(ctx, s, idx, tgt)).join("")}</div>
      ${raidStrip(ctx)}
    </div>
    ${mine}
  </div>`;
}

// ------------------------------------------------------------------ step by step (motion.js)

/**
 * A frame's events as steps of the board (see motion.js): each card played, each police car
 * (an Alarm brings them one by one), a raid as the loot turned over and then the busted loot
 * gone, each getaway car. Built from the view drawn before, this seat's events and the
 * frame's view only; the frame's view then shows the rest (whose turn, the cards drawn).
 */
function story(items, before, after, ctx) {
  const me = ctx.seat;
  const v = copyView(before);
  Object.assign(v, { to_act: [], pending: null, drawn: null, result: null });
  const steps = [];
  const show = (text, mark) => steps.push({ text, view: copyView(v), mark });
  let fromDeck = false; // a Double Loot draw is played from the deck, not from a hand
  const fromHand = (seat, id) => {
    if (fromDeck) {
      fromDeck = false;
      return;
    }
    v.hand_sizes[seat] = Math.max(0, v.hand_sizes[seat] - 1);
    if (seat === me) v.hand = v.hand.filter((c) => c !== id);
  };
  for (const { event, line } of items) {
    const d = eventData(event);
    switch (event.type) {
      case "turn":
        Object.assign(v, { turn: d.turn, current: d.seat });
        v.hand_sizes[d.seat] += d.drew;
        v.deck_size = Math.max(0, v.deck_size - d.drew);
        break;
      case "drew":
        if (!fromDeck && event.audience === me && me !== null) v.hand.push(...(d.cards || []));
        break;
      case "double_draw":
        fromDeck = true;
        v.deck_size = Math.max(0, v.deck_size - 1);
        show(line);
        break;
      case "getaway":
        v.getaways.push(d.card);
        v.deck_size = Math.max(0, v.deck_size - 1);
        show(line);
        break;
      case "loot": {
        // Kept face down: its owner knows it (their frame's loot has it), nobody else.
        const slot = v.loot[d.to].length;
        const id = d.card ?? (d.to === me ? after.loot[d.to]?.[slot]?.card ?? null : null);
        fromHand(d.seat, id);
        v.loot[d.to].push({ card: id, face_up: d.card !== null && d.card !== undefined });
        show(line);
        break;
      }
      case "police":
        fromHand(d.seat, d.card);
        v.police.push(d.card);
        v.cars = d.cars;
        show(line);
        break;
      case "action":
        fromHand(d.seat, d.card);
        if (d.card.startsWith("roadblock") && v.police.length) v.resolving = d.card;
        else v.discard.push(d.card);
        show(line);
        break;
      case "remove":
        v.police = v.police.filter((c) => c !== d.card);
        v.cars = d.cars;
        v.discard.push(d.card, d.roadblock);
        v.resolving = null;
        show(line);
        break;
      case "move": {
        v.loot[d.from].splice(d.slot, 1);
        v.loot[d.to].push({ card: d.card, face_up: true });
        v.exposed[d.from] = (v.exposed[d.from] || []).filter((i) => i !== d.slot).map((i) => (i > d.slot ? i - 1 : i));
        show(line);
        break;
      }
      case "pass":
        show(line);
        break;
      case "raid":
        raidSteps(v, d, line, show);
        break;
      default:
        break;
    }
  }
  return steps;
}

/** A raid in two steps: everyone's loot turned over (the raid shows it to all), then the
 * busted loot and the police gone into the deck, the raid strip saying who. */
function raidSteps(v, d, line, show) {
  v.loot = v.loot.map((row, s) => row.map((slot, i) => ({ ...slot, card: d.loot?.[s]?.[i] ?? slot.card })));
  show(t("{n} police cars: a raid! Everyone's loot is turned over.", { n: d.cars }), "raid");
  const busted = new Set(d.busted || []);
  v.loot.forEach((row, s) => {
    if (busted.has(s)) {
      v.deck_size += row.length;
      v.loot[s] = [];
      v.exposed[s] = [];
    } else {
      v.exposed[s] = row.map((slot, i) => (slot.face_up ? -1 : i)).filter((i) => i >= 0);
    }
  });
  v.deck_size += v.police.length;
  Object.assign(v, { police: [], cars: 0, last_raid: d });
  show(line, "busted");
}

// ------------------------------------------------------------------ style (kept with the renderer)

function injectStyle() {
}

// ------------------------------------------------------------------ the log in German

const cars = (n) => `${n} ${n === 1 ? "Auto" : "Autos"}`;

/** A raid in words, with why it came and why the busted are busted (as the server's). */
function raidWords(d, w) {
  const values = d.values || [];
  const worth = values.map((v, s) => `${w.nom(s)} ${v}`).join(", ");
  const head = `Razzia: ${cars(d.cars)} im Spiel (4 oder mehr). Beute bei der Razzia: ${worth}. `;
  const top = values.length ? Math.max(...values) : 0;
  const busted = (d.busted || []).map((s) => w.nom(s));
  if (busted.length > 1) return `${head}Geschnappt: ${w.list(busted)}, alle mit der reichsten Beute (${top}); ihre Beute kommt in den Stapel`;
  if (busted.length) return `${head}Geschnappt: ${busted[0]} mit der reichsten Beute (${top}); sie kommt in den Stapel`;
  if (top <= 0) return `${head}Niemand wird geschnappt: Keine Beute ist etwas wert`;
  const richest = values.map((v, s) => [v, s]).filter(([v]) => v === top).map(([, s]) => w.nom(s));
  return `${head}Niemand wird geschnappt: ${w.list(richest)} liegen mit der reichsten Beute gleichauf (${top})`;
}

/** An event's log line in German, from its type and data (what this seat's frame holds);
 * null for an event it has no words for (the page shows the English). */
export function words(e, ctx) {
  const d = eventData(e);
  const w = germanSeats(ctx);
  const card = (id) => parseCard(id).label;
  const did = (s, rest) => `${w.nom(s, true)} ${w.v(s, "hast", "hat")} ${rest}`;
  switch (e.type) {
    case "turn":
      // (no card came to the hand: a getaway car drawn says so itself)
      return `Zug ${d.turn}: ${w.me(d.seat) ? "Du bist" : `${w.nom(d.seat)} ist`} dran${d.drew ? ` (${d.drew} ${d.drew === 1 ? "Karte" : "Karten"} gezogen)` : ""}`;
    case "drew": {
      const reader = e.audience ?? ctx.seat;
      const list = (d.cards || []).map(card).join(", ");
      return reader === null ? `Gezogen: ${list}` : `${did(reader, "gezogen")}: ${list}`;
    }
    case "double_draw":
      return `Doppelte Beute: ${did(d.seat, "eine Karte gezogen")}`;
    case "getaway":
      return `${did(d.seat, "ein Fluchtauto gezogen")}: ${d.placed} von 7 liegen`;
    case "loot":
      if (d.card === null || d.card === undefined) return did(d.seat, "eine Geldkarte verdeckt abgelegt");
      return did(d.seat, `${card(d.card)} an ${w.acc(d.to)} gegeben`);
    case "police":
      return `${did(d.seat, `${card(d.card)} ausgelegt`)}: ${cars(d.cars)} im Spiel`;
    case "action":
      return did(d.seat, `„${card(d.card)}“ gespielt`);
    case "remove":
      return `${did(d.seat, `${card(d.card)} mit der Straßensperre entfernt`)}: ${cars(d.cars)} im Spiel`;
    case "move":
      return did(d.seat, `${card(d.card)} von ${w.dat(d.from)} zu ${w.dat(d.to)} verschoben`);
    case "pass":
      return `${did(d.seat, "auf den Zug des Diebs verzichtet")}: Nichts wurde verschoben`;
    case "raid":
      return raidWords(d, w);
    case "game_over": {
      const scores = (d.scores || []).map((v, s) => `${w.res(s)} ${v}`).join(", ");
      return `Das 7. Fluchtauto! Spiel vorbei. Beute: ${scores}. Sieger: ${w.list((d.winners || []).map((s) => w.res(s)))}`;
    }
    default:
      return null;
  }
}

export default { render, words };
