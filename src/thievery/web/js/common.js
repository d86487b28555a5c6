// Thievery pages: small shared helpers — the JSON API, tokens kept in this browser, HTML
// escaping, and the words players read for seats and bots.

import { addGerman, lang, missingWords, t } from "/static/js/i18n.js";
import { GERMAN as LEVELS_DE, LEVELS } from "/static/js/levels.js";

/** Escape text for HTML. Every string from the server or a user goes through this. */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

/**
 * Add a stylesheet to the page once (by its address), whatever the number of renders;
 * resolves when it has loaded (or failed), so the first render is already styled.
 */
export function linkStylesheetOnce(href) {
  const present = [...document.querySelectorAll("link[rel=stylesheet]")].find((l) => l.getAttribute("href") === href);
  if (present) return present.loaded || Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  link.loaded = new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
  document.head.appendChild(link);
  return link.loaded;
}

/**
 * Pick-then-target interactions for a renderer: clicking an element with
 * data-pick='<json>' stores it in ui.pick (clicking it again, or a pick with "clear",
 * forgets it) and draws again with rerender(root, ui.ctx); Enter or Space on a focused
 * card clicks it. `ui` is the renderer's { pick, ctx, roots: WeakSet } state.
 */
export function listenForPicks(root, ui, rerender) {
  if (ui.roots.has(root)) return;
  ui.roots.add(root);
  root.addEventListener("click", (event) => {
    if (event.target.closest("[data-action]")) return; // the page sends it
    const el = event.target.closest("[data-pick]");
    if (!el || !root.contains(el) || !ui.ctx) return;
    let pick = null;
    try { pick = JSON.parse(el.dataset.pick); } catch { return; }
    const before = ui.pick;
    const focused = root.contains(document.activeElement);
    ui.pick = pick.clear || JSON.stringify(pick) === JSON.stringify(ui.pick) ? null : pick;
    rerender(root, ui.ctx);
    // Drawn anew, the focus stays in the game (it fell to the page, and Tab began again
    // at its top): on the card picked (a pick or, its one move now, an action), else the
    // one a Cancel gave back, else the prompt.
    if (!focused || root.contains(document.activeElement)) return;
    const controls = [...root.querySelectorAll("[data-pick], [data-action]")];
    const card = el.dataset.card;
    const again = (card ? controls.find((e) => e.dataset.card === card) : controls.find((e) => e.dataset.pick === el.dataset.pick))
      || (before && controls.find((e) => e.dataset.pick === JSON.stringify(before)));
    const place = again || root.querySelector("[data-prompt]") || root;
    if (!again) place.setAttribute("tabindex", "-1");
    place.focus({ preventScroll: true });
  });
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const el = event.target.closest("[data-action], [data-pick]");
    if (!el || el.tagName === "BUTTON") return;
    event.preventDefault();
    el.click();
  });
}

/** Where each card (an element with data-card; the first of each id) is drawn now. */
export function cardPlaces(root) {
  const places = new Map();
  for (const el of root.querySelectorAll("[data-card]")) {
    if (!places.has(el.dataset.card)) places.set(el.dataset.card, el.getBoundingClientRect());
  }
  return places;
}

/**
 * See what happened: after a renderer drew anew, a card that moved (dealt, played, stolen,
 * raided: the same data-card somewhere else) glides from where it was, and a card that
 * came glides in. Nothing at all under prefers-reduced-motion. Returns how many moved.
 */
export function animateCards(root, before) {
  if (!before?.size || !root.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  let moved = 0;
  const seen = new Set();
  for (const el of root.querySelectorAll("[data-card]")) {
    const id = el.dataset.card;
    if (seen.has(id)) continue;
    seen.add(id);
    const now = el.getBoundingClientRect();
    if (!now.width) continue;
    const was = before.get(id);
    if (was) {
      const dx = was.left - now.left;
      const dy = was.top - now.top;
      if (Math.abs(dx) + Math.abs(dy) < 2) continue;
      el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 380, easing: "ease-out" });
    } else {
      el.animate([{ opacity: 0, transform: "translateY(-10px) scale(.9)" }, { opacity: 1, transform: "none" }], { duration: 260, easing: "ease-out" });
    }
    moved += 1;
  }
  return moved;
}

/** Call the JSON API; throws an Error with `.code` on a refused request. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.message || `${response.status} ${response.statusText}`);
    error.code = data.code || "http/" + response.status;
    error.status = response.status;
    throw error;
  }
  return data;
}

/** A seat's key made here (24 random bytes, base64url), for a lobby claim or an invite's
 * exchange: asked again with it after an answer that was lost, the server answers the
 * request as made, so the key is never one nobody holds. */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

/** ``request()`` (an api call), asked again up to ``tries`` times in all while its failure
 * leaves it unsure whether it was done: no answer came (the network failed) or the server
 * could not say (502 to 504: its storage did not confirm). Any other failure is thrown. */
export async function retried(request, tries = 3) {
  for (let n = 1; ; n++) {
    try {
      return await request();
    } catch (error) {
      const unsure = error.status === undefined || (error.status >= 502 && error.status <= 504);
      if (n >= tries || !unsure) throw error;
      await new Promise((done) => setTimeout(done, 700 * n));
    }
  }
}

const KEY = "thievery.tokens";

/** Tokens this browser holds: {tableId: {token, seat, host}}. */
export function tokens() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

/** Keep the tokens; false if the browser's storage refuses (full, or turned off). */
function keep(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
    return true;
  } catch {
    return false;
  }
}

/** Remember a seat token (or the host token) for a table; false if the browser could
 * not keep it (its storage full or off: the page goes on, and says so where it matters). */
export function rememberToken(tableId, entry) {
  const all = tokens();
  all[tableId] = { ...(all[tableId] || {}), ...entry };
  return keep(all);
}

/** The invite links this browser made for a table's other seats as its host, not known
 * to be used yet: [{seat, name, invite}] (secrets: shown to this browser only). */
export function heldInvites(tableId) {
  const held = tokens()[tableId]?.invites;
  return Array.isArray(held) ? held.filter((i) => i && typeof i.invite === "string") : [];
}

/** Keep a table's invite links (these and no others; none: forgotten); false if the
 * browser's storage refuses (the page goes on without them, as before they were kept). */
export function keepInvites(tableId, invites) {
  const all = tokens();
  if (!all[tableId]) {
    if (!invites.length) return true;
    all[tableId] = {};
  }
  if (invites.length) all[tableId].invites = invites;
  else delete all[tableId].invites;
  return keep(all);
}

/** Whether a kept invite may still be waiting, by its seat in a seats list: not if the
 * seat was taken, unless the list is older than the invite (a "new link" made after it,
 * by the seat's count of them: that list's news may come after the answer to it). */
export function stillWaiting(invite, seat) {
  const older = typeof invite.reinvited === "number" && typeof seat?.reinvited === "number" && seat.reinvited < invite.reinvited;
  return seat?.invited !== false || older;
}

/** A table's invite links still to be sent: those whose seats wait for their invites (a
 * seats list's `invited`; a seat someone took, by the link or from the lobby list, is
 * dropped), none once the table is ``over`` (finished or closed). Storage is kept in step. */
export function waitingInvites(tableId, seats, over = false) {
  const held = heldInvites(tableId);
  const waiting = over ? [] : held.filter((i) => stillWaiting(i, seats?.[i.seat]));
  if (waiting.length !== held.length) keepInvites(tableId, waiting);
  return waiting;
}

/** An action's JSON with its keys in one order: an update's legal actions come with their
 * keys sorted, a welcome's in the game's own order (a move chosen from a welcome's was
 * never found among an update's, nor sent again). */
export function sameForm(action) {
  return JSON.stringify(action, (_, v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/** Forget a table's seat token (one the table refused), keeping its host token if any. */
export function forgetToken(tableId) {
  const all = tokens();
  if (!all[tableId]) return;
  delete all[tableId].token;
  keep(all);
}

/** A short-lived message at the bottom of the page. */
export function toast(message, kind = "error", ms = 3500) {
  const el = document.createElement("div");
  el.className = `toast ${kind === "error" ? "" : "info"}`;
  el.textContent = message;
  // (in the page's main landmark, where a screen reader's landmark list finds it; its
  // place on screen is fixed)
  (document.querySelector("main") || document.body).appendChild(el);
  announce(message);
  setTimeout(() => el.remove(), ms);
}

// While a narration plays (motion.js), it says its steps itself and the page's other
// announcements wait: `held` takes them (and returns true) until the narration ends.
let held = null;

/** Let `take(text)` take the page's announcements (true: taken), or null to stop. */
export function holdAnnouncements(take) {
  held = take;
}

/** Say something to screen readers through the page's one polite live region (#announce);
 * `log`: which of its parts (joined by " · ") are log lines, `prompt`: which one is the
 * prompt (a story on show holds both for its end). */
export function announce(text, log = [], prompt = "") {
  if (text && held?.(text, log, prompt)) return;
  say(text);
}

/** Say something now, whatever waits (the narration's own steps). */
export function say(text) {
  const region = document.getElementById("announce");
  if (!region || !text) return;
  // Said together with whatever else comes within SAY_GATHER_MS: set one after another,
  // the last replaced the others before a screen reader had read them ("your turn" lost
  // under "Seat 4 chose a card"). The same words twice are still read: the region is
  // emptied first.
  saying.push(text);
  if (saying.length > 1) return;
  region.textContent = "";
  setTimeout(() => {
    region.textContent = saying.join(" · ");
    saying = [];
  }, SAY_GATHER_MS);
}

const SAY_GATHER_MS = 150;
let saying = [];

/** Keep Tab and Shift+Tab inside ``box`` (an open dialog: the page behind it is out of
 * reach until it closes). */
export function trapFocus(box) {
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const focusable = [...box.querySelectorAll("a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex='-1'])")]
      .filter((el) => el.offsetParent !== null || el === document.activeElement);
    if (!focusable.length) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
}

// What finds a control again once it is drawn anew: its id, address or data keys.
const CONTROL_KEYS = ["id", "href", "data-seat", "data-table", "data-copy", "data-action"];

/**
 * Run ``draw`` (which sets ``box``'s innerHTML anew: a list redrawn every few seconds, the
 * seats on every change) without losing the keyboard focus to the page: a control focused
 * in ``box`` is focused again in its new drawing (the same kind of element with the same
 * keys and class), else the control now at its place in ``box``'s Tab order (a button
 * its own click replaced: "Let a bot play for me" becomes "Take my seat back").
 */
export function keepFocus(box, draw) {
  const el = document.activeElement;
  if (!box || !el || el === box || !box.contains(el)) {
    draw();
    return;
  }
  const controls = () => [...box.querySelectorAll("a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])")];
  const place = controls().indexOf(el);
  const keys = CONTROL_KEYS.map((name) => [name, el.getAttribute(name)]).filter(([, value]) => value !== null);
  const same = (c) => c.tagName === el.tagName && c.className === el.className
    && keys.every(([name, value]) => c.getAttribute(name) === value);
  draw();
  if (box.contains(document.activeElement)) return;
  const now = controls().filter((c) => !c.disabled);
  const again = (keys.length && now.find(same)) || now[Math.min(place, now.length - 1)];
  again?.focus({ preventScroll: true });
}

/** Copy text to the clipboard (with a fallback for plain-http pages). */
export async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  toast(t("Copied"), "info", 1200);
}

/** The thief's-mask logo as SVG. */
export const LOGO = `<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">
  <path d="M2 10c3-3 7-3 10-1 3-2 7-2 10 1-1 4-4 6-7 5l-3-2-3 2c-3 1-6-1-7-5z" fill="#e2b650"/>
  <ellipse cx="7.5" cy="11" rx="2" ry="1.3" fill="#12151f"/>
  <ellipse cx="16.5" cy="11" rx="2" ry="1.3" fill="#12151f"/></svg>`;

/**
 * The renderer of a game, served from the game's own package: /static/games/<game>/game.js
 * with its stylesheet game.css, or the generic one if the game has none.
 */
export async function loadRenderer(game) {
  const base = `/static/games/${encodeURIComponent(game)}`;
  try {
    const [module] = await Promise.all([import(`${base}/game.js`), linkStylesheetOnce(`${base}/game.css`)]);
    return module.default;
  } catch (error) {
    console.warn(`no renderer for ${game}; using the generic one`, error);
    return (await import("/static/js/generic.js")).default;
  }
}

// ------------------------------------------------------------------ player words

// Bot levels a player understands (LEVELS: engine name -> words, and their German), made
// by the server from thievery.bots.levels, the terminal's words too; the engine's own name
// goes in a tooltip (botTitle).
addGerman(LEVELS_DE);

/** Bots in the order of their levels (Beginner, Casual, Strong, Expert, then the games'
 * own), not by engine name ("random" came last). */
export function byLevel(bots) {
  const order = Object.keys(LEVELS);
  const rank = (b) => (order.includes(b) ? order.indexOf(b) : order.length);
  return [...bots].sort((a, b) => rank(a) - rank(b) || String(a).localeCompare(String(b)));
}

/** A bot's level in words ("Casual"), or its engine name for a bot we have no word for. */
export function botLevel(bot) {
  return LEVELS[bot] ? t(LEVELS[bot]) : String(bot);
}

/** The tooltip naming a bot's engine. */
export function botTitle(bot) {
  return t("engine: {name}", { name: bot });
}

// The names the server gives seats nobody named count from 0: "Seat 0", "Seat 2 (heuristic)".
const DEFAULT_NAME = /^Seat (\d+)(?: \((.+)\))?$/;

/** A seat's name as players read it: a default name counted from 1 with the bot's level
 * ("Seat 3 (Casual)"); a name someone gave is shown as given. */
export function displayName(s, index) {
  const seat = s?.seat ?? index;
  const m = DEFAULT_NAME.exec(s?.name ?? "");
  if (!s) return t("Seat {n}", { n: seat + 1 });
  if (!m || Number(m[1]) !== seat) return s.name;
  const base = t("Seat {n}", { n: seat + 1 });
  return m[2] ? `${base} (${botLevel(m[2])})` : base;
}

/** Seats with their display names (for renderers, lists and the log). */
export function displaySeats(seats) {
  return (seats || []).map((s, i) => ({ ...s, seat: s.seat ?? i, name: displayName(s, i) }));
}

/** Text from the server (a log line) with the seats' default names as players read them. */
export function renameInText(text, seats) {
  const swaps = new Map();
  (seats || []).forEach((s, i) => {
    const shown = displayName(s, i);
    if (shown === s.name) return;
    swaps.set(s.name, shown);
    // Without names the server's words say "Seat 2" or, mid-sentence, "seat 2".
    if (/^Seat \d+$/.test(s.name)) swaps.set(s.name.toLowerCase(), shown);
  });
  if (!swaps.size) return String(text ?? "");
  const names = [...swaps.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return String(text ?? "").replace(new RegExp(`\\b(?:${names.join("|")})(?!\\d)`, "g"), (n) => swaps.get(n));
}

/** A seat's display name. */
export function seatName(seats, seat) {
  return displayName(seats?.[seat], seat);
}

/** A seat's display name in words about scores or who won. In German a default name
 * ("Platz 4") there reads like a ranking ("4th place wins"): it is "Sitzplatz 4" (the seat,
 * not a rank). English and names someone gave are as displayName shows them. */
export function resultName(name) {
  return lang() === "de" ? String(name).replace(/^Platz (\d+)(?= \(|$)/, "Sitzplatz $1") : name;
}

// ------------------------------------------------------------------ event lines

/**
 * An event's log line in the page's language. English: the server's text (made for this
 * seat) with the seats renamed. German: the game renderer's words(event, ctx) builds it from
 * the event's type and data (only what this seat's frame carries); when it has none (null)
 * the English text is shown and the event type is noted in `missingWords` (i18n.js).
 * `ctx`: { seat (the viewer's, or null), seats (as the page has them), view (if handy),
 * to (the replay with every seat's view shown: the seat another seat's private line was told
 * to; the line is worded as that seat was told it and marked "(to NAME)", as the server's
 * English text for it is) }.
 */
export function eventText(renderer, e, { seat = null, seats = [], view = null, to = null } = {}) {
  const line = eventLine(renderer, e, seat, seats, view, to);
  noteFresh(view, e, line);
  return line;
}

function eventLine(renderer, e, seat, seats, view, to) {
  if (lang() === "de" && typeof renderer?.words === "function") {
    let line = null;
    const reader = to ?? seat;
    try {
      line = renderer.words(e, { seat: reader, seats: displaySeats(seats), view, audience: e.audience ?? null });
    } catch (error) {
      console.warn(`no German words for ${e.type}`, error);
    }
    if (line !== null && line !== undefined) {
      return to === null ? String(line) : t("(to {name}) {line}", { name: seatName(seats, to), line: String(line) });
    }
    missingWords.add(String(e.type));
  }
  return renameInText(e.text, seats);
}

const BIG_EVENTS = ["game_over", "match_over", "new_game", "reveal"];

/** An event's line as the table page's log shows it (HTML): `text` (its eventText), marked
 * private when one seat alone sees it and big when a game or round ends or cards show. */
export function logLine(e, text, cls = "") {
  const marks = [e.audience !== null && e.audience !== undefined ? "private" : "", BIG_EVENTS.includes(e.type) ? "big" : "", cls];
  return `<div class="${["e", ...marks.filter(Boolean)].join(" ")}">${esc(text)}</div>`;
}

// ------------------------------------------------------------------ a frame's new events

// The narration (motion.js) needs the events that led to the view a renderer is asked to
// draw, in their log words. The table page words a frame's new events (eventText with the
// frame's view) before it draws that view, and words the log only after: so the lines worded
// for a view not drawn yet are exactly its frame's new events. Once the view is drawn
// (takeFresh), later wordings of the log are not noted. The replay page words its steps
// after drawing them: nothing is noted there.
const fresh = new WeakMap(); // view -> [{ event, line }]
const drawn = new WeakSet(); // views a renderer has drawn

function noteFresh(view, event, line) {
  if (!view || typeof view !== "object" || drawn.has(view)) return;
  if (!fresh.has(view)) fresh.set(view, []);
  fresh.get(view).push({ event, line });
}

/**
 * The new events of the frame whose view is about to be drawn, each with its log line
 * ([{ event, line }], oldest first; [] for a frame without any), and marks the view drawn;
 * null if this view was drawn before (the same frame drawn again).
 */
export function takeFresh(view) {
  if (!view || typeof view !== "object") return [];
  if (drawn.has(view)) return null;
  drawn.add(view);
  const items = fresh.get(view) || [];
  fresh.delete(view);
  return items;
}

/** An event's data: the frames carry its fields beside type, audience and text. */
export function eventData(e) {
  return e && e.data && typeof e.data === "object" ? e.data : e || {};
}

/**
 * German seat words for a renderer's words(): "du"/"dir"/"dich"/"dein…" for the viewer's own
 * seat, else its display name ("Platz 2", "Ada"); `v(seat, du, er)` picks the verb form.
 */
export function germanSeats(ctx) {
  const me = (s) => ctx.seat !== null && ctx.seat !== undefined && Number(s) === ctx.seat;
  const name = (s) => ctx.seats?.[Number(s)]?.name ?? t("Seat {n}", { n: Number(s) + 1 });
  const up = (w, cap) => (cap ? w.charAt(0).toUpperCase() + w.slice(1) : w);
  return {
    me,
    name,
    /** Nominative: "du" / "Du" / "Platz 2". */
    nom: (s, cap = false) => (me(s) ? up("du", cap) : name(s)),
    /** Dative: "dir" / "Platz 2". */
    dat: (s) => (me(s) ? "dir" : name(s)),
    /** Accusative: "dich" / "Platz 2". */
    acc: (s) => (me(s) ? "dich" : name(s)),
    /** Nominative in a line about scores or who won: "du" / "Sitzplatz 2" (resultName). */
    res: (s, cap = false) => (me(s) ? up("du", cap) : resultName(name(s))),
    /** "von dir" / "von Platz 2" (whose, before a noun). */
    von: (s) => (me(s) ? "von dir" : `von ${name(s)}`),
    /** The verb for the seat: v(s, "hast", "hat"). */
    v: (s, du, er) => (me(s) ? du : er),
    /** "A, B und C". */
    list: (items) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} und ${items[items.length - 1]}` : items.join("")),
  };
}
