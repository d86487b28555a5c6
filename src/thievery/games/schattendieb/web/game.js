// Der Schattendieb's renderer: the seats around the table, every safe, the reveal, your hand.
// It follows the renderer interface documented in generic.js: render(root, ctx) draws the
// view it is given, and every legal action becomes an element with data-action.

import { esc, eventData, germanSeats } from "/static/js/common.js";
import { addGerman, t } from "/static/js/i18n.js";
import { copyView, narrate } from "/static/js/motion.js";

// German: the game is German, so are its card names (Amigo's).
addGerman({
  "Brooch": "Brosche", "Ring": "Ring", "Watch": "Uhr", "Cufflink": "Manschettenknopf",
  "Play": "Ausspielen", "Thieves": "Diebe", "Add": "Anlegen", "Over": "Vorbei",
  "Shadow Thief": "Schattendieb", "{kind} Thief": "{kind}-Dieb", "Brooch Thief": "Broschendieb",
  "Ring Thief": "Ringdieb", "Watch Thief": "Uhrendieb", "Cufflink Thief": "Manschettenknöpfedieb", "Close Safe": "Tresor zu", "Close Safe {n}": "Tresor zu {n}",
  "closed": "geschlossen", "a hidden card": "eine verdeckte Karte",
  "safe closed": "Tresor zu", "✓ chosen": "✓ gewählt", "choosing…": "wählt …", "stealing…": "stiehlt …",
  "adding…": "legt an …", "✓ done": "✓ fertig",
  "sealed until everyone has chosen": "verdeckt, bis alle gewählt haben",
  "chosen — sealed until the reveal": "gewählt — verdeckt bis zum Aufdecken",
  "added — sealed until the reveal": "angelegt — verdeckt bis zum Aufdecken",
  "revealed {card}": "aufgedeckt: {card}", "{card} — gone": "{card} — weg",
  "no cards": "keine Karten", "seat number": "Platznummer", "played by a bot": "von einem Bot gespielt",
  "bot": "Bot", "dealer": "Geber", "match total": "Gesamtpunkte", "Hand": "Hand", "In front": "Vor sich",
  "Safe": "Tresor", "empty": "leer", "closed the safe": "hat den Tresor geschlossen",
  "closed: this safe scores its jewels": "geschlossen: Dieser Tresor zählt seinen Schmuck",
  "open: scores 0 unless it is closed": "offen: zählt 0, wenn er nicht geschlossen wird", "open": "offen",
  "The match is over.": "Die Partie ist vorbei.",
  "Choose a card to play — it stays hidden until everyone has chosen.": "Wähle eine Karte zum Ausspielen — sie bleibt verdeckt, bis alle gewählt haben.",
  "thief": "Dieb", "Your {thief} strikes: click the card to steal.": "Dein {thief} schlägt zu: Klick die Karte, die er stehlen soll.",
  "matching": "passende",
  "Your {kind} is still in front, but you hold no {kind} to add: click Nothing to add.": "Dein Schmuck ({kind}) liegt noch vor dir, aber du hast keine Karte dieser Sorte zum Anlegen: Klick „Nichts anzulegen“.",
  "Add more {kind} cards to your jewel (click them), then Done.": "Leg weitere Karten der Sorte {kind} an deinen Schmuck (anklicken), dann „Fertig“.",
  "Your safe is closed. Waiting for {who}…": "Dein Tresor ist zu. Warte auf {who} …",
  "You chose. Waiting for {who}…": "Du hast gewählt. Warte auf {who} …",
  "Waiting for {who}…": "Warte auf {who} …",
  "Sending your move…": "Dein Zug wird gesendet …",
  "Round {n} — revealed": "Runde {n} — aufgedeckt",
  "the pile ran out": "der Stapel war leer", "everyone wanted to close": "alle wollten schließen",
  "one safe was left open": "nur ein Tresor war noch offen",
  "closed: {who}": "geschlossen: {who}", "game ended: {why}": "Spiel beendet: {why}", "Last round ({n})": "Letzte Runde ({n})",
  "G{n}": "S{n}", "Standings": "Stand", "Total": "Summe",
  "Done adding": "Fertig mit Anlegen", "Nothing to add": "Nichts anzulegen", "Your hand": "Deine Hand",
  "Game {n}": "Spiel {n}", "of {n}": "von {n}", "Round {n}": "Runde {n}", "Step:": "Schritt:",
  "cards in the draw pile": "Karten im Nachziehstapel", "Pile": "Stapel",
  "cards in the discard pile (face down ones included)": "Karten im Ablagestapel (verdeckte mitgezählt)", "Discard": "Ablage",
  "The jewellery in front goes into the safes.": "Der Schmuck vor den Spielern kommt in die Tresore.",
  "Into the safes": "In die Tresore",
});

const KIND_NAMES = { brooch: "Brooch", ring: "Ring", watch: "Watch", cufflink: "Cufflink" };
// "fill" is no phase of the game's: the narration's step 5, the jewellery going into the safes.
const PHASES = { play: "Play", steal: "Thieves", add: "Add", fill: "Into the safes", over: "Over" };
const kindName = (kind) => (KIND_NAMES[kind] ? t(KIND_NAMES[kind]) : kind);
// The thieves by their names (the German edition's: Broschendieb, …, Manschettenknöpfedieb).
const THIEVES = { brooch: "Brooch Thief", ring: "Ring Thief", watch: "Watch Thief", cufflink: "Cufflink Thief" };

// A long German name breaks on a card (78 px wide) with a hyphen between syllables
// ("Manschet-tenknopf"), not anywhere ("Manschette-nknopf" without one): soft hyphens, shown
// only at a line's end (display only: labels, titles and the log keep the plain word).
// ("Manschetten-" is wider than a card: the break falls a syllable earlier.)
const BREAKS = {
  Manschettenknopf: "Man\u00ADschet\u00ADten\u00ADknopf",
  Manschettenknöpfedieb: "Man\u00ADschet\u00ADten\u00ADknöp\u00ADfe\u00ADdieb",
  Broschendieb: "Broschen\u00ADdieb",
  Schattendieb: "Schatten\u00ADdieb",
};
const onCard = (name) => BREAKS[name] ?? name;

/** A card id as its parts: ring-6b, close-12a, thief-shadow. */
export function parseCard(id) {
  const [kind, rest] = String(id).split("-");
  if (kind === "thief") {
    const label = rest === "shadow" ? t("Shadow Thief") : THIEVES[rest] ? t(THIEVES[rest]) : t("{kind} Thief", { kind: kindName(rest) });
    return { cat: "thief", kind: rest, value: 0, label };
  }
  const value = parseInt(rest, 10);
  if (kind === "close") return { cat: "close", kind, value, label: t("Close Safe {n}", { n: value }) };
  return { cat: "jewel", kind, value, label: `${kindName(kind)} ${value}` };
}

// ------------------------------------------------------------------ drawing (our own SVG)

const ICONS = {
  brooch: `<g>${[0, 60, 120, 180, 240, 300].map((a) =>
    `<ellipse cx="20" cy="10.5" rx="5" ry="7.5" transform="rotate(${a} 20 20)" fill="#f2a1b5" stroke="#7d2440" stroke-width="1"/>`).join("")}
    <circle cx="20" cy="20" r="6" fill="#c2224f" stroke="#5b0f24" stroke-width="1.2"/><circle cx="18" cy="18" r="1.6" fill="#fff" opacity=".8"/></g>`,
  ring: `<g><circle cx="20" cy="25" r="10" fill="none" stroke="#d9a42b" stroke-width="4"/>
    <circle cx="20" cy="25" r="10" fill="none" stroke="#fbe29a" stroke-width="1.2"/>
    <path d="M13 12 L20 4 L27 12 L20 17 Z" fill="#8fd3ff" stroke="#2b6d96" stroke-width="1.2"/>
    <path d="M13 12 H27 M20 4 L17 12 L20 17 L23 12 Z" fill="none" stroke="#2b6d96" stroke-width=".8"/></g>`,
  watch: `<g><rect x="14.5" y="1" width="11" height="38" rx="3" fill="#5c6a80"/>
    <circle cx="20" cy="20" r="12" fill="#e9eef5" stroke="#3d4a60" stroke-width="2.5"/>
    <path d="M20 20 V12 M20 20 L26 23" stroke="#1d2533" stroke-width="2" stroke-linecap="round"/>
    <circle cx="20" cy="20" r="1.5" fill="#1d2533"/>${[0, 90, 180, 270].map((a) =>
      `<rect x="19.3" y="9.5" width="1.4" height="2.5" fill="#3d4a60" transform="rotate(${a} 20 20)"/>`).join("")}</g>`,
  cufflink: `<g><rect x="5" y="9" width="13" height="13" rx="3" fill="#2f9e6b" stroke="#0f4f33" stroke-width="1.5"/>
    <rect x="22" y="18" width="13" height="13" rx="3" fill="#2f9e6b" stroke="#0f4f33" stroke-width="1.5"/>
    <path d="M15 19 L25 22" stroke="#c7c9cc" stroke-width="3" stroke-linecap="round"/>
    <circle cx="11.5" cy="15.5" r="2.2" fill="#b9f0d3"/><circle cx="28.5" cy="24.5" r="2.2" fill="#b9f0d3"/></g>`,
  close: `<g><rect x="5" y="5" width="30" height="30" rx="3" fill="#5a6272" stroke="#2a2f3a" stroke-width="2"/>
    <rect x="9" y="9" width="22" height="22" rx="2" fill="#6f7889" stroke="#3b414e"/>
    <circle cx="20" cy="20" r="6.5" fill="#cfd5df" stroke="#2a2f3a" stroke-width="1.5"/>
    <path d="M20 14 V17 M20 23 V26 M14 20 H17 M23 20 H26" stroke="#2a2f3a" stroke-width="1.4"/>
    <rect x="31" y="15" width="3" height="10" rx="1" fill="#2a2f3a"/></g>`,
  mask: `<g><path d="M3 17c5-5 11-5 17-2 6-3 12-3 17 2-1 7-7 10-12 8l-5-3-5 3c-5 2-11-1-12-8z" fill="#15161c" stroke="#8d7bd1" stroke-width="1.2"/>
    <ellipse cx="12.5" cy="18.5" rx="3.6" ry="2.2" fill="#e8e6df"/><ellipse cx="27.5" cy="18.5" rx="3.6" ry="2.2" fill="#e8e6df"/>
    <path d="M6 30c4 4 24 4 28 0" stroke="#8d7bd1" stroke-width="1.5" fill="none"/></g>`,
};

function icon(card) {
  const key = card.cat === "jewel" ? card.kind : card.cat === "close" ? "close" : "mask";
  const sub = card.cat === "thief" && card.kind !== "shadow"
    ? `<g transform="translate(24 24) scale(.42)">${ICONS[card.kind] || ""}</g>` : "";
  return `<svg viewBox="0 0 40 40" aria-hidden="true">${ICONS[key]}${sub}</svg>`;
}

/** Enter or Space on a focused card plays it, as a click does (once per root). */
const keyed = new WeakSet();
function listenForKeys(root) {
  if (keyed.has(root)) return;
  keyed.add(root);
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const el = event.target.closest("[data-action]");
    if (!el || el.tagName === "BUTTON" || !root.contains(el)) return;
    event.preventDefault();
    el.click();
  });
}

/** One face-up card; `action` makes it clickable (a legal action). */
function card(id, { size = "", action = null, note = "" } = {}) {
  const c = parseCard(id);
  const cls = ["sd-card", `sd-${c.cat}`, c.cat === "jewel" ? `sd-k-${c.kind}` : "", c.cat === "thief" ? `sd-t-${c.kind}` : "", size, action ? "legal" : ""].join(" ");
  // 6 and 9 are underlined, as on printed cards: the corner upside down reads the same.
  const u = c.value === 6 || c.value === 9 ? " u" : "";
  const corner = c.cat === "thief" ? "" : `<span class="sd-v${u}">${c.value}</span>`;
  const name = c.cat === "jewel" ? kindName(c.kind) : c.cat === "close" ? t("Close Safe") : c.label;
  const act = action ? ` data-action='${esc(JSON.stringify(action))}' tabindex="0" role="button"` : ` role="img"`;
  // (its name for a screen reader too: the corner's number alone said "10" for a Ring 10
  // and a Brooch 10 alike)
  const words = `${c.label}${note ? " — " + note : ""}`;
  return `<div class="${cls}" data-card="${esc(id)}" title="${esc(words)}" aria-label="${esc(words)}"${act}>
    ${corner}<span class="sd-icon">${icon(c)}</span><span class="sd-name">${esc(onCard(name))}</span>${corner ? `<span class="sd-v2${u}">${c.value}</span>` : ""}</div>`;
}

const LOCK = () => ` <svg width="10" height="12" viewBox="0 0 10 12" aria-label="${t("closed")}"><rect x="1" y="5" width="8" height="7" rx="1" fill="#e2b650"/><path d="M3 5V3.5a2 2 0 0 1 4 0V5" stroke="#e2b650" stroke-width="1.5" fill="none"/></svg>`;

function back(size = "small", note = "") {
  const words = note || t("a hidden card");
  return `<div class="sd-card sd-back ${size}" role="img" title="${esc(words)}" aria-label="${esc(words)}"></div>`;
}

function cards(ids, opts = {}) {
  return ids.map((id) => card(id, opts)).join("");
}

function worth(ids) {
  return ids.reduce((sum, id) => sum + (parseCard(id).cat === "jewel" ? parseCard(id).value : 0), 0);
}

function name(ctx, seat) {
  const s = ctx.seats?.[seat];
  return esc(s ? s.name : `Seat ${seat}`);
}

// ------------------------------------------------------------------ the table

function status(view, seat) {
  const v = view;
  const chosen = v.chosen[seat];
  if (v.closed[seat]) return `<span class="sd-badge closed">${t("safe closed")}</span>`;
  if (v.phase === "play") {
    if (chosen) return `<span class="sd-badge done">${t("✓ chosen")}</span>`;
    if (v.to_act.includes(seat)) return `<span class="sd-badge wait">${t("choosing…")}</span>`;
    return "";
  }
  if (v.phase === "steal" && v.to_act.includes(seat)) return `<span class="sd-badge wait">${t("stealing…")}</span>`;
  if (v.phase === "add") {
    // Every seat whose jewel is still in front is asked, whether or not it holds one of
    // its kind: the badges look alike for all of them, so they tell nothing.
    if (v.to_act.includes(seat)) return `<span class="sd-badge wait">${t("adding…")}</span>`;
    if (v.add_done[seat]) return `<span class="sd-badge done">${t("✓ done")}</span>`;
  }
  return "";
}

function frontRow(ctx, seat, view, own, steals) {
  const v = ctx.view;
  const parts = [];
  if (v.phase === "play") {
    const choice = own?.my_choice;
    if (choice) parts.push(card(choice, { size: "small sealed", note: t("sealed until everyone has chosen") }));
    else if (v.chosen[seat]) parts.push(back("small", t("chosen — sealed until the reveal")));
  } else {
    for (const id of v.front[seat]) parts.push(card(id, { size: "small", action: steals.get(id) || null }));
    if (v.table[seat]) parts.push(card(v.table[seat], { size: "small" }));
    for (const id of own?.my_adds || []) parts.push(card(id, { size: "small sealed", note: t("added — sealed until the reveal") }));
    if (v.phase !== "over" && v.phase !== "fill" && v.revealed[seat] && !v.front[seat].length && !v.table[seat]) {
      parts.push(`<span class="sd-gone" title="${esc(t("revealed {card}", { card: parseCard(v.revealed[seat]).label }))}">${esc(t("{card} — gone", { card: parseCard(v.revealed[seat]).label }))}</span>`);
    }
  }
  return parts.join("") || `<span class="sd-none">—</span>`;
}

function seatPanel(ctx, seat, steals) {
  const v = ctx.view;
  const me = seat === ctx.seat;
  const own = me ? v : ctx.views?.[seat];
  const safe = v.safes[seat];
  const closed = v.closed[seat];
  const turn = v.to_act.includes(seat);
  const hand = own && !me
    ? cards(own.hand, { size: "small" })
    : me ? "" : Array.from({ length: v.hand_sizes[seat] }, () => back("tiny")).join("") || `<span class="sd-none">${t("no cards")}</span>`;
  const who = ctx.seats?.[seat];
  return `<div class="sd-seat ${turn ? "turn" : ""} ${closed ? "closed" : ""} ${me ? "me" : ""}" data-seat="${seat}">
    <div class="sd-head"><span class="sd-name-l">${name(ctx, seat)}</span>
      <span class="sd-chip" title="${t("seat number")}">#${seat + 1}</span>
      ${who && (who.kind === "bot" || who.bot) ? `<span class="sd-chip" title="${t("played by a bot")}">${t("bot")}</span>` : ""}
      ${v.dealer === seat ? `<span class="sd-chip" title="${t("dealer")}">${t("dealer")}</span>` : ""}
      <span class="sd-grow"></span>${status(v, seat)}<span class="sd-score" title="${t("match total")}">${v.scores[seat]}</span></div>
    ${me ? "" : `<div class="sd-row"><label>${t("Hand")}</label><div class="sd-cards">${hand}</div></div>`}
    <div class="sd-row"><label>${t("In front")}</label><div class="sd-cards">${frontRow(ctx, seat, v, own, steals)}</div></div>
    <div class="sd-row"><label>${t("Safe")}${closed ? LOCK() : ""}</label><div class="sd-cards sd-safe">${cards(safe, { size: "tiny" }) || `<span class="sd-none">${t("empty")}</span>`}
      ${closed ? card(closed, { size: "tiny", note: t("closed the safe") }) : ""}</div>
      <span class="sd-worth ${closed ? "banked" : ""}" title="${closed ? t("closed: this safe scores its jewels") : t("open: scores 0 unless it is closed")}">${closed ? "" : `${t("open")} `}${worth(safe)}</span></div>
  </div>`;
}

function prompt(ctx, kinds) {
  const v = ctx.view;
  const legal = ctx.legal;
  if (v.result) return { text: t("The match is over."), you: false };
  if (legal.some((a) => a.type === "play")) return { text: t("Choose a card to play — it stays hidden until everyone has chosen."), you: true };
  if (legal.some((a) => a.type === "steal")) {
    const thief = v.thieves[0] ? parseCard(v.thieves[0][1]).label : t("thief");
    return { text: t("Your {thief} strikes: click the card to steal.", { thief }), you: true };
  }
  if (legal.some((a) => a.type === "done")) {
    const kind = KIND_NAMES[v.add_kinds[ctx.seat]] ? kindName(v.add_kinds[ctx.seat]) : t("matching");
    if (!legal.some((a) => a.type === "add")) {
      return { text: t("Your {kind} is still in front, but you hold no {kind} to add: click Nothing to add.", { kind }), you: true };
    }
    return { text: t("Add more {kind} cards to your jewel (click them), then Done.", { kind }), you: true };
  }
  // (this seat is asked and has nothing to click: its move is on its way)
  if (ctx.pending && ctx.seat !== null && v.to_act.includes(ctx.seat)) return { text: t("Sending your move…"), you: false };
  const waiting = v.to_act.map((s) => name(ctx, s));
  if (ctx.seat !== null && v.closed[ctx.seat]) return { text: t("Your safe is closed. Waiting for {who}…", { who: waiting.join(", ") }), you: false };
  if (v.phase === "play" && ctx.seat !== null && v.chosen[ctx.seat]) return { text: t("You chose. Waiting for {who}…", { who: waiting.join(", ") }), you: false };
  return { text: waiting.length ? t("Waiting for {who}…", { who: waiting.join(", ") }) : "…", you: false };
}

function revealStrip(ctx) {
  const v = ctx.view;
  if (v.phase !== "play" && v.phase !== "over") {
    const items = v.revealed.map((id, seat) => (id ? `<div class="sd-rv"><div>${card(id, { size: "small" })}</div><span>${name(ctx, seat)}</span></div>` : "")).join("");
    return `<div class="sd-strip"><h3>${t("Round {n} — revealed", { n: v.round })}</h3><div class="sd-rvs">${items}</div></div>`;
  }
  const last = v.last_round;
  if (!last) return "";
  const items = last.revealed.map((id, seat) => {
    if (!id) return "";
    const added = last.added[seat] || [];
    return `<div class="sd-rv"><div>${card(id, { size: "tiny" })}${cards(added, { size: "tiny" })}</div><span>${name(ctx, seat)}</span></div>`;
  }).join("");
  const ended = { no_cards: t("the pile ran out"), all_close: t("everyone wanted to close"), one_open: t("one safe was left open") }[last.ended];
  const closed = last.closed.length ? ` · ${t("closed: {who}", { who: last.closed.map((s) => name(ctx, s)).join(", ") })}` : "";
  return `<div class="sd-strip past"><h3>${t("Last round ({n})", { n: last.round })}${closed}${ended ? ` · ${t("game ended: {why}", { why: ended })}` : ""}</h3><div class="sd-rvs">${items}</div></div>`;
}

function standings(ctx) {
  const v = ctx.view;
  const n = v.players;
  const games = v.game_scores;
  const head = games.map((_, i) => `<th>${t("G{n}", { n: i + 1 })}</th>`).join("");
  const best = Math.max(...v.scores);
  const rows = Array.from({ length: n }, (_, s) =>
    `<tr class="${v.scores[s] === best && games.length ? "lead" : ""}"><td>${name(ctx, s)}</td>${games.map((g) => `<td>${g[s]}</td>`).join("")}<td class="tot">${v.scores[s]}</td></tr>`).join("");
  return `<div class="sd-scores scroll-x"><table class="sd-standings"><thead><tr><th>${t("Standings")}</th>${head}<th>${t("Total")}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** Draw the view; a round's chain first, one step at a time (motion.js). */
function render(root, ctx) {
  narrate(root, ctx, draw, story);
}

function draw(root, ctx) {
  injectStyle();
  listenForKeys(root);
  const v = ctx.view;
  const n = v.players;
  const steals = new Map(ctx.legal.filter((a) => a.type === "steal").map((a) => [a.card, a]));
  const byCard = new Map(ctx.legal.filter((a) => a.card && a.type !== "steal").map((a) => [a.card, a]));
  const done = ctx.legal.find((a) => a.type === "done");
  // Step 4 asks every seat with its jewel in front; with nothing to add, one click.
  const doneLabel = ctx.legal.some((a) => a.type === "add") ? t("Done adding") : t("Nothing to add");
  const p = prompt(ctx);
  const me = ctx.seat;
  const order = me === null ? [...Array(n).keys()] : Array.from({ length: n - 1 }, (_, i) => (me + 1 + i) % n);
  const lastDiscard = v.discard.slice(-6);
  const hand = me === null ? "" : `
    <div class="sd-mine">
      ${seatPanel(ctx, me, steals)}
      <div class="sd-handbox">
        <h3>${t("Your hand")}</h3>
        <div class="sd-hand">${v.hand.map((id) => card(id, { size: "big", action: byCard.get(id) || null })).join("") || `<span class="sd-none">${t("no cards")}</span>`}</div>
        ${done ? `<div class="sd-done"><button class="primary" data-action='${esc(JSON.stringify(done))}'>${doneLabel}</button></div>` : ""}
      </div>
    </div>`;
  root.innerHTML = `<div class="sd">
    <div class="sd-top">
      <span><b>${t("Game {n}", { n: v.game_no })}</b> ${t("of {n}", { n: v.games })}</span><span>${t("Round {n}", { n: v.round })}</span>
      <span>${t("Step:")} <b>${PHASES[v.phase] ? t(PHASES[v.phase]) : esc(v.phase)}</b></span>
      <span class="sd-grow"></span>
      <span title="${t("cards in the draw pile")}">${t("Pile")} ${back("tiny")} <b>${v.pile_size}</b></span>
      <span title="${t("cards in the discard pile (face down ones included)")}">${t("Discard")} <b>${v.discard_size}</b> ${cards(lastDiscard, { size: "tiny" })}</span>
    </div>
    <div class="sd-prompt ${p.you ? "you" : ""}" data-prompt>${p.text}</div>
    <div class="sd-felt">
      <div class="sd-seats">${order.map((s) => seatPanel(ctx, s, steals)).join("")}</div>
      ${revealStrip(ctx)}
    </div>
    ${hand}
    ${standings(ctx)}
  </div>`;
}

// ------------------------------------------------------------------ step by step (motion.js)

/**
 * A frame's events as steps of the board (see motion.js): the reveal, the ties discarded,
 * each thief's steal, the additions, the jewellery going into the safes, each safe closed,
 * a game's end. Built from the view drawn before, this seat's events and the frame's view
 * only; the frame's view then shows the rest (the cards drawn, the next round or game).
 */
function story(items, before, _after, ctx) {
  const v = copyView(before);
  Object.assign(v, { to_act: [], result: null });
  const steps = [];
  const show = (text, mark) => steps.push({ text, view: copyView(v), mark });
  const discard = (ids) => {
    v.discard.push(...ids);
    v.discard_size += ids.length;
  };
  for (const { event, line } of items) {
    const d = eventData(event);
    if (["close", "close_failed", "draw", "game_over"].includes(event.type) && intoSafes(v, discard)) {
      show(t("The jewellery in front goes into the safes."), "fill");
    }
    switch (event.type) {
      case "reveal":
        revealed(v, d.cards || {}, discard);
        show(line, "reveal");
        break;
      case "tie":
        v.front = v.front.map((f) => f.filter((id) => !d.cards.includes(id)));
        discard(d.cards);
        show(line, "tie");
        break;
      case "steal":
        if (d.card) {
          v.front[d.from] = v.front[d.from].filter((id) => id !== d.card);
          v.safes[d.seat].push(d.card);
        }
        show(line, "steal");
        break;
      case "add":
        for (const [seat, ids] of Object.entries(d.cards || {})) {
          v.front[seat].push(...ids);
          v.hand_sizes[seat] = Math.max(0, v.hand_sizes[seat] - ids.length);
          if (Number(seat) === ctx.seat) v.my_adds = [];
        }
        show(line, "add");
        break;
      case "close":
        v.closed[d.seat] = d.card;
        v.table[d.seat] = null;
        v.hand_sizes[d.seat] = 0;
        if (d.seat === ctx.seat) v.hand = [];
        show(line, "close");
        break;
      case "close_failed":
        v.table[d.seat] = null;
        discard([d.card]);
        show(line, "close");
        break;
      case "game_over":
        show(line, "over");
        return steps; // what follows is the next game's deal: the frame's view shows it
      default:
        break;
    }
  }
  return steps;
}

/** The revealed cards laid out: jewellery in front, thieves and Close Safe cards beside. */
function revealed(v, cards, discard) {
  discard(v.table.filter(Boolean)); // an earlier round's leftovers, if any
  Object.assign(v, { phase: "steal", my_choice: null, chosen: v.chosen.map(() => false) });
  v.table = v.table.map(() => null);
  v.revealed = v.revealed.map((_, s) => cards[s] ?? null);
  for (const [seat, id] of Object.entries(cards)) {
    if (parseCard(id).cat === "jewel") v.front[seat].push(id);
    else v.table[seat] = id;
  }
}

/** Step 5: the thieves are discarded and the jewellery in front goes into its owners'
 * safes (Close Safe cards stay beside until their step). False if nothing lies in front. */
function intoSafes(v, discard) {
  if (!v.front.some((f) => f.length)) return false;
  v.table.forEach((id, s) => {
    if (id && parseCard(id).cat === "thief") {
      discard([id]);
      v.table[s] = null;
    }
  });
  v.front.forEach((f, s) => v.safes[s].push(...f));
  v.front = v.front.map(() => []);
  v.phase = "fill";
  return true;
}

// ------------------------------------------------------------------ style (kept with the renderer)

function injectStyle() {
}

// ------------------------------------------------------------------ the log in German

const END_REASONS = {
  no_cards: "der Stapel ist leer und jemand hat keine Karten",
  all_close: "alle, die noch dabei sind, wollten schließen",
  one_open: "nur noch ein Tresor ist offen",
};

/** An event's log line in German, from its type and data (what this seat's frame holds);
 * null for an event it has no words for (the page shows the English). */
export function words(e, ctx) {
  const d = eventData(e);
  const w = germanSeats(ctx);
  const card = (id) => parseCard(id).label;
  const cards = (ids) => ids.map(card).join(", ");
  // A private event (dealt, drew, added) names its one reader, "du" for this seat.
  const reader = e.audience ?? ctx.seat;
  switch (e.type) {
    case "chose":
      return `${w.nom(d.seat, true)} ${w.v(d.seat, "hast", "hat")} eine Karte gewählt`;
    case "reveal": {
      const parts = Object.entries(d.cards || {}).map(([s, c]) => `${w.nom(s)}: ${card(c)}`);
      return parts.length ? `Aufgedeckt — ${parts.join("; ")}` : "Niemand konnte eine Karte spielen";
    }
    case "tie":
      return `Gleichstand! ${cards(d.cards)} ${d.cards.length === 1 ? "kommt" : "kommen"} auf den Ablagestapel`;
    case "steal": {
      const thief = card(d.thief);
      const head = `${w.nom(d.seat, true)} ${w.v(d.seat, "hast", "hat")} den ${thief} gespielt`;
      if (d.card === null || d.card === undefined) return `${head}, der nichts findet`;
      return `${head} und ${card(d.card)} ${w.von(d.from)} genommen`;
    }
    case "adding":
      return `Dürfen Schmuck ihrer Sorte anlegen: ${(d.seats || []).map((s) => w.nom(s)).join(", ")}`;
    case "added":
      return reader === null ? `Angelegt: ${card(d.card)}` : `${w.nom(reader, true)} ${w.v(reader, "legst", "legt")} ${card(d.card)} an`;
    case "done":
      return `${w.nom(d.seat, true)} ${w.v(d.seat, "bist", "ist")} fertig mit Anlegen`;
    case "add":
      return Object.entries(d.cards || {}).map(([s, cs], i) => `${w.nom(s, i === 0)} ${w.v(s, "hast", "hat")} ${cards(cs)} angelegt`).join("; ");
    case "close":
      return `${w.nom(d.seat, true)} ${w.v(d.seat, "hast", "hat")} den Tresor mit ${card(d.card)} geschlossen und ${d.under_pile} ${d.under_pile === 1 ? "Karte" : "Karten"} unter den Stapel gelegt`;
    case "close_failed":
      return `${w.nom(d.seat, true)} ${w.v(d.seat, "konntest", "konnte")} mit ${card(d.card)} nicht schließen: die Karte wird abgeworfen`;
    case "drew":
      return reader === null ? `Gezogen: ${card(d.card)}` : `${w.nom(reader, true)} ${w.v(reader, "hast", "hat")} ${card(d.card)} gezogen`;
    case "draw": {
      const parts = Object.entries(d.counts || {}).map(([s, k]) => `${w.nom(s)} ${k}`);
      return parts.length ? `Karten gezogen — ${parts.join(", ")}` : "Niemand hat gezogen";
    }
    case "pile_discarded":
      return `Der Stapel reichte nicht für alle Hände: ${d.count} ${d.count === 1 ? "Karte" : "Karten"} abgeworfen`;
    case "game_over": {
      const scores = (d.scores || []).map((v, s) => `${w.res(s)} ${v}`).join(", ");
      // A closed safe holds at least one jewel, so a 0 is an open safe's score.
      const zero = (d.scores || []).map((v, s) => [v, s]).filter(([v]) => v === 0).map(([, s]) => s);
      let why = "";
      if (zero.length === 1 && w.me(zero[0])) why = " — du bekommst 0: Dein Tresor war noch offen";
      else if (zero.length === 1) why = ` — ${w.res(zero[0])} bekommt 0: Der Tresor war noch offen`;
      else if (zero.length) why = ` — ${w.list(zero.map((s) => w.res(s)))} bekommen 0: Die Tresore waren noch offen`;
      return `Spiel ${d.game} vorbei (${END_REASONS[d.reason] ?? d.reason}). Punkte: ${scores}${why}`;
    }
    case "dealt":
      return reader === null || w.me(reader) ? `Dir wurden ausgeteilt: ${cards(d.cards)}` : `${w.name(reader)} wurden ausgeteilt: ${cards(d.cards)}`;
    case "new_game":
      return `Spiel ${d.game} beginnt; ${w.me(d.dealer) ? "du gibst" : `${w.nom(d.dealer)} gibt`}`;
    case "match_over":
      return `Die Partie ist vorbei. Sieger: ${w.list((d.winners || []).map((s) => w.res(s)))}`;
    default:
      return null;
  }
}

export default { render, words };
