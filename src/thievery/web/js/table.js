// The table page: connect as your seat (token from the invite link, kept in this browser) or
// as a spectator, draw the game with its renderer, keep the log and the seats, show the result.

import {
  LOGO, animateCards, announce, api, newKey, retried, botLevel, cardPlaces, botTitle, copy, displayName, displaySeats, esc, eventText, forgetToken, heldInvites, keepFocus, keepInvites, loadRenderer, logLine, rememberToken, resultName, sameForm, seatName, toast, tokens, trapFocus, waitingInvites,
} from "/static/js/common.js";
import { TableConnection } from "/static/js/connection.js";
import { helpButton } from "/static/js/help.js";
import { afterStory, endStory } from "/static/js/motion.js";
import { errorText, setUpPage, t } from "/static/js/i18n.js";

const tableId = (() => {
  try {
    return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  } catch {
    return ""; // (not an address of ours: %ff, say) no table
  }
})();
const $ = (id) => document.getElementById(id);

// An invite link carries the token in the fragment (never sent to the server); keep it here
// and take it out of the address bar so a shared screenshot or copied URL does not leak it.
const fragment = new URLSearchParams(location.hash.slice(1));
const linked = fragment.get("token");
if (linked) history.replaceState(null, "", location.pathname + location.search);
// (a seat's link cut short in copying: it names no seat, and the page says so)
let cutShort = fragment.has("token") && !linked; // (told once, not at each reconnect)
const watch = new URLSearchParams(location.search).has("watch");
// A link other than this browser's own for its seat here (a friend's invite, opened to
// check it): looked into first (see otherLink), not used up by mistake. The invite this
// browser's key came from is its own (a way back to the game): its key is used.
const held = tokens()[tableId] || {};
const otherSeat = linked && held.token && linked !== held.token && linked !== held.invite ? linked : null;
// (with a key made here for the seat: if the link is an invite and the welcome that gives
// the seat's key is lost on the way, joining again with both still gives it: see connection)
if (linked && !held.token) rememberToken(tableId, { token: linked, made: newKey() });
// (a seat's link pasted into this tab's address bar only changes the fragment: read anew)
window.addEventListener("hashchange", () => {
  if (new URLSearchParams(location.hash.slice(1)).get("token")) location.reload();
});
const mine = tokens()[tableId] || {};
// (an invite, until the welcome gives its key; the link's own if this browser could not
// keep it: its storage full or turned off)
let token = watch ? null : mine.token || (linked && !held.token ? linked : null);
const host = mine.host || null;

const page = {
  summary: null,
  seats: [],
  frame: null, // the last welcome/update: view, legal, version, to_act, result
  static: {}, // the view's static keys, from the welcome (updates leave them out)
  log: [],
  // The action on its way, until the table answers it (its ack or error, matched by its
  // frame's id): not at the next update, which may be another seat's move that came first
  // (that made it clickable again while it was on its way, and a second click was refused
  // as stale).
  pending: null,
  pendingId: null,
  // While it was on its way, an update was of this seat's own action (the server's
  // `acted`): made in another tab, or by the table for it (a turn timer's bot)
  movedElsewhere: false,
  renderer: null,
  conn: null,
  next: null,
  closed: false, // its host closed it (finished without a result)
  storyWait: false, // the result waits for the last action's story to end (see drawResult)
  dismissed: false,
  bot: "random",
  heard: [], // new log lines not yet announced
  wasMine: undefined, // whether it was this seat's turn at the last drawing
  audio: null,
  urgent: "", // said first at the next announcement
  prompt: "", // the renderer's prompt as last announced
};

setUpPage();
$("brand").innerHTML = `${LOGO}<span class="word">Thievery</span>`;

function noTable(message) {
  $("game").innerHTML = `<div class="card-panel"><h2>${esc(t("No such table"))}</h2><p>${esc(message)}</p><p><a href="/">${esc(t("Back to the lobby"))}</a></p></div>`;
  $("status").textContent = ""; // (nothing is connecting)
  $("status-dot").className = "dot off";
}

async function start() {
  if (!tableId) {
    noTable(t("This address names no table."));
    return;
  }
  try {
    page.summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    if (error.status === 404 && host) keepInvites(tableId, []); // (gone: its links are worth nothing)
    noTable(errorText(error));
    return;
  }
  page.seats = page.summary.seats;
  page.next = page.summary.next_id;
  document.title = `${page.summary.title} — Thievery`;
  $("title").innerHTML = `${esc(page.summary.title)}<span class="table-id"> · ${esc(t("table {id}", { id: tableId }))}</span>`;
  showDeal(page.summary);
  $("help-slot").replaceWith(helpButton(() => [page.summary.game, page.summary.title]));
  if (otherSeat && !watch) await otherLink(otherSeat);
  if (token) {
    const bell = document.createElement("button");
    bell.type = "button";
    bell.className = "small bell";
    bell.id = "alerts";
    bell.addEventListener("click", toggleAlerts);
    $("top-status").before(bell);
    drawBell();
  }
  page.renderer = await loadRenderer(page.summary.game);
  const games = await api("/api/games").catch(() => []);
  const bots = games.find((g) => g.name === page.summary.game)?.bots || ["random"];
  page.bot = bots.includes("heuristic") ? "heuristic" : bots.find((b) => b !== "random") || bots[0];
  const made = (token && tokens()[tableId]?.made) || null; // (see linked, above)
  page.conn = new TableConnection(tableId, token, onFrame, onStatus, made);
  $("game").addEventListener("click", onClick);
  setUpChat();
}

/** A closed table's last frame: nobody is to act, nothing may be done. */
function ended(frame) {
  return { ...frame, to_act: [], legal: [] };
}

/** A seat's link other than this browser's own: if the seat this browser holds here is
 * gone (a key the host's new invite replaced), the link is taken as it is; else the player
 * chooses (askToSwitch). Taking it, an invite is exchanged here first, and one that does
 * not work (used already, not this table's) is told and leaves this browser its seat. */
async function otherLink(link) {
  if (!(await holdsASeat(token)) || (await askToSwitch())) {
    try {
      token = await seatKey(link);
      rememberToken(tableId, { token, invite: link, made: undefined });
    } catch (error) {
      toast(errorText(error));
    }
  }
}

/** Whether ``held`` may still be this browser's seat here: false only for a key or
 * invite the host's new invite made worthless, or one this table does not know. (An invite
 * used on another device, a refused or failed read: the player is asked.) */
async function holdsASeat(held) {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/state`, { token: held });
    return true;
  } catch (error) {
    return error.code !== "auth/revoked" && error.code !== "auth/token";
  }
}

/** The key a seat's link gives: an invite's exchange, or the link's own key. */
async function seatKey(link) {
  const key = newKey(); // (asked again with it, an exchange made meanwhile is answered as made)
  try {
    const made = await retried(() => api(`/api/tables/${encodeURIComponent(tableId)}/exchange`, { method: "POST", token: link, body: { key } }));
    return made.key;
  } catch (error) {
    if (error.code !== "auth/token") throw error; // (not an invite: a seat's key, maybe)
  }
  await api(`/api/tables/${encodeURIComponent(tableId)}/state`, { token: link });
  return link;
}

/** This browser has a seat here and was given another seat's link: keep its own seat
 * (the link stays unused, for whoever it was meant for) or take that one instead. */
function askToSwitch() {
  return new Promise((resolve) => {
    $("game").innerHTML = `<div class="card-panel" id="switch-seat" role="alertdialog" aria-labelledby="switch-title" aria-describedby="switch-text">
      <h2 id="switch-title">${esc(t("You already have a seat at this table"))}</h2>
      <p id="switch-text">${esc(t("This link is another seat's. Opened here, it takes that seat in this browser instead of yours, and it no longer works for whoever it was meant for: send it to them."))}</p>
      <div class="acts"><button class="primary" id="keep-seat">${esc(t("Keep my seat"))}</button>
      <button id="take-seat">${esc(t("Take the other seat"))}</button></div></div>`;
    $("keep-seat").addEventListener("click", () => resolve(false));
    $("take-seat").addEventListener("click", () => resolve(true));
    $("keep-seat").focus();
  });
}

function onStatus(status) {
  if (page.closed) { // (its connection ends with it: nothing to reconnect to)
    $("status").textContent = t("table closed");
    $("status-dot").className = "dot off";
    return;
  }
  $("status").textContent = t({ open: "connected", closed: "reconnecting…", connecting: "connecting…" }[status]);
  $("status-dot").className = `dot ${status === "open" ? "on" : "off"}`;
}

function onFrame(frame) {
  switch (frame.type) {
    case "welcome":
      if (frame.key) {
        // The invite was exchanged for this seat's own key: only this browser has it now
        // (the invite link no longer works), and "Copy my seat link" gives it. The invite
        // is kept too: opened here again, it is this browser's own way back.
        if (!rememberToken(tableId, { token: frame.key, invite: token, made: undefined })) {
          toast(t("This browser cannot keep your seat (its storage is full or turned off): keep this page open, or use \"Copy my seat link\" to come back."));
        }
        token = frame.key;
      }
      page.static = Object.fromEntries((frame.static || []).map((k) => [k, frame.view[k]]));
      page.frame = frame.summary.closed ? ended(frame) : frame;
      page.seats = frame.summary.seats;
      page.next = frame.summary.next_id;
      page.closed = Boolean(frame.summary.closed);
      if (page.closed) { // (nothing more happens here: no connection kept, none made)
        page.conn?.close();
        onStatus("closed");
      }
      page.log = frame.log;
      // A move on its way when the connection was lost, and the table has not seen it (it
      // is still to be made): said, not dropped without a word.
      if (page.pending && frame.seat !== null && frame.to_act.includes(frame.seat) && stillLegal(page.pending)) {
        toast(t("Your move did not reach the table: make it again."));
      }
      page.pending = page.pendingId = null;
      if (token && frame.seat === null) toast(t("This browser's token is not valid here: you are watching."));
      else if (cutShort && frame.seat === null) {
        cutShort = false;
        toast(t("This link holds no seat's key (was it cut short?): you are watching."));
      }
      drawAll();
      drawChat();
      break;
    case "update":
      noticeTimeout(frame);
      if (frame.seat !== null && (!page.frame?.to_act.includes(frame.seat) || page.pending)) page.deadline = null;
      page.frame = { ...frame, view: { ...page.static, ...frame.view } };
      page.log.push(...frame.events);
      page.heard.push(...frame.events.map(line));
      // (a move of this seat while its move here was on its way: made in another tab, or a
      // turn timer's bot. The server says so: an event naming this seat may be another
      // seat's doing, this seat its target or one of every seat in a reveal.)
      if (page.pending && frame.seat !== null && frame.acted === true) page.movedElsewhere = true;
      drawAll();
      break;
    case "seats":
      page.seats = frame.seats;
      drawSeats();
      drawAttention();
      drawChat();
      break;
    case "chat":
    case "chat_log":
      onChat(frame);
      break;
    case "ack":
      if (String(frame.id).startsWith("chat-")) chat.sending.delete(frame.id);
      else if (page.pendingId !== null && frame.id === page.pendingId) { // (made: its update came first)
        page.pending = page.pendingId = null;
        drawGame();
      }
      break;
    case "next":
      page.next = frame.next;
      drawResult();
      break;
    case "closed": // (its host closed it: nothing more happens here)
      page.closed = true;
      if (page.frame) page.frame = ended(page.frame);
      page.conn?.close();
      onStatus("closed");
      drawAll();
      announce(t("This table was closed"), [], "");
      $("after").querySelector("h2")?.focus(); // (the controls it had are gone)
      break;
    case "reinvited":
      if (frame.seat !== page.frame?.seat) toast(t("The host made a new invite link for {name}'s seat.", { name: displayName(page.seats[frame.seat] || {}, frame.seat) }), "info");
      break;
    case "error":
      if (String(frame.id).startsWith("chat-")) onChatError(frame);
      else onError(frame);
      break;
    default:
      break;
  }
}

function onError(frame) {
  if (frame.code === "auth/token" || frame.code === "auth/invite_used" || frame.code === "auth/revoked") {
    forgetToken(tableId); // (the connection joins to watch; its welcome says so)
    if (frame.code === "auth/revoked") {
      token = null;
      toast(t("The host made a new invite link for your seat: this browser's link no longer works. You are watching."));
    }
    if (frame.code === "auth/invite_used") {
      token = null;
      toast(t("This invite link was used already: you are watching. On the browser that joined with it, \"Copy my seat link\" gives a link to the seat."));
    }
    return;
  }
  // (an error without an id may answer the move too: a frame refused before it was read)
  const ours = frame.id === undefined || frame.id === null || frame.id === page.pendingId;
  const sent = ours ? page.pending : null;
  if (ours) page.pending = page.pendingId = null;
  // Stale: someone else moved first. If our choice is still offered unchanged, send it
  // again; but not if this seat moved meanwhile (in another tab): that move counts, and
  // this one is not made twice.
  if (frame.code === "action/stale" && sent && page.movedElsewhere) {
    toast(t("Your move here was not made: your seat moved first (in another tab or window, or the table for you). Look again and choose."));
  } else if (frame.code === "action/stale" && sent && stillLegal(sent)) {
    send(sent);
    return;
  } else {
    toast(errorText(frame));
  }
  drawGame();
}

function stillLegal(action) {
  const want = sameForm(action);
  return (page.frame?.legal || []).some((a) => sameForm(a) === want);
}

let acts = 0; // moves sent from this page (their frames' ids: act-1, act-2, …)

function send(action) {
  if (!page.frame || page.pending) return;
  const id = `act-${++acts}`;
  page.pending = action;
  page.pendingId = id;
  page.movedElsewhere = false;
  if (!page.conn.send({ type: "act", action, version: page.frame.version, id })) {
    page.pending = page.pendingId = null;
    toast(t("Not connected — reconnecting…"));
  }
  drawGame();
}

function onClick(event) {
  const target = event.target.closest("[data-action]");
  if (!target || !$("game").contains(target)) return;
  event.preventDefault();
  try {
    send(JSON.parse(target.dataset.action));
  } catch {
    /* not an action */
  }
}

function drawAll() {
  drawTimer();
  drawGame();
  drawSeats();
  drawLog();
  drawResult();
}

function drawGame() {
  const f = page.frame;
  if (!f || !page.renderer) return;
  const ctx = {
    view: f.view,
    legal: page.pending || page.closed ? [] : f.legal,
    pending: Boolean(page.pending), // (this seat's move is on its way: "Sending your move…")
    seat: f.seat,
    seats: displaySeats(page.seats),
    toAct: f.to_act,
    mode: "play",
    clockMs: f.clock_ms ?? null, // real-time games: the server's game time at this frame
    send,
  };
  const focus = focusKey();
  const places = cardPlaces($("game"));
  try {
    page.renderer.render($("game"), ctx);
    refocus(focus);
    animateCards($("game"), places);
  } catch (error) {
    console.error(error);
    $("game").textContent = `${t("The renderer failed:")} ${error}`;
  }
  const you = f.seat === null ? t("watching") : t("you are {name}", { name: seatName(page.seats, f.seat) });
  $("who").textContent = you;
  drawAttention();
  speak();
}

// A renderer draws anew on every change: keep the keyboard focus on the same card or button.
const FOCUS_KEYS = ["id", "data-action", "data-pick", "data-card", "data-ui"];

function focusKey() {
  const el = document.activeElement;
  if (!el || el === $("game") || !$("game").contains(el)) return null;
  // Every key it has, tried in turn when it is drawn anew (a card loses its data-action
  // while its move is on the way: its data-card still finds it).
  return FOCUS_KEYS.map((name) => [name, el.getAttribute(name)]).filter(([, value]) => value);
}

function refocus(keys) {
  if (!keys || $("game").contains(document.activeElement)) return;
  for (const [name, value] of keys) {
    const el = [...$("game").querySelectorAll(`[${name}]`)].find((e) => e.getAttribute(name) === value);
    if (el) {
      el.focus({ preventScroll: true });
      if (document.activeElement === el) return; // (a card no longer to click takes none)
    }
  }
  // Gone (a card played): the prompt (or, without one, the game), not the page, so a
  // screen reader keeps its place and the next Tab goes on from the game.
  const place = $("game").querySelector("[data-prompt]") || $("game");
  place.setAttribute("tabindex", "-1");
  place.focus({ preventScroll: true });
}

/** The one polite live region says the new log lines and the renderer's prompt (the
 * element it marks data-prompt) when it has changed; nothing else on the page is live. */
function speak() {
  const prompt = $("game").querySelector("[data-prompt]")?.textContent.trim() || "";
  const heard = page.heard.splice(0).slice(-4);
  const lines = [page.urgent, ...heard].filter(Boolean);
  page.urgent = "";
  const changed = prompt && prompt !== page.prompt;
  page.prompt = prompt || page.prompt;
  if (lines.length || changed) announce([...lines, changed ? prompt : ""].filter(Boolean).join(" · "), heard, changed ? prompt : "");
}

// (drawn anew on every change: a player tabbed to "Copy my seat link" keeps the focus)
function drawSeats() {
  keepFocus($("seats").closest(".card-panel"), drawSeatsNow);
}

function drawSeatsNow() {
  const f = page.frame;
  const toAct = new Set(f?.to_act || []);
  $("seats").innerHTML = page.seats.map((s) => `
    <div class="s ${f && s.seat === f.seat ? "me" : ""} ${toAct.has(s.seat) ? "turn" : ""}" data-seat="${s.seat}">
      <span class="dot ${s.kind === "bot" || s.bot || s.connected ? "on" : ""}"></span>
      <span class="name" data-turn="${esc(t("to act"))}">${esc(displayName(s))}</span>
      <span class="k" ${s.bot ? `title="${esc(botTitle(s.bot))}"` : ""}>${s.bot ? esc(t("{level} bot", { level: botLevel(s.bot) })) : s.kind === "human" ? esc(s.connected ? t("here") : t("away")) : ""}${s.reinvited ? ` <span class="reinvited" title="${esc(t("The host made a new invite link for this seat ({n}×).", { n: s.reinvited }))}">· ${esc(t("new link"))}</span>` : ""}</span>
      ${host && s.kind === "human" && (!f || s.seat !== f.seat) && !f?.result && !page.closed
        ? `<button class="small host-bot" data-seat="${s.seat}" title="${esc(t("as the host"))}">${esc(s.bot ? t("give back") : t("to bot"))}</button>` : ""}
      ${host && s.kind === "human" && (!f || s.seat !== f.seat) && !f?.result && !page.closed && !s.connected
        ? `<button class="small host-invite" data-seat="${s.seat}" title="${esc(t("as the host: a new invite link for a player who lost theirs (their old links stop working)"))}">${esc(t("new link"))}</button>` : ""}
    </div>`).join("");
  document.querySelectorAll(".host-bot").forEach((b) => b.addEventListener("click", () => hostBot(Number(b.dataset.seat))));
  document.querySelectorAll(".host-invite").forEach((b) => b.addEventListener("click", () => hostInvite(Number(b.dataset.seat))));
  if (page.newInvite && page.seats[page.newInvite.seat]?.connected) page.newInvite = null; // (used)
  const made = page.newInvite;
  // The invite links this browser made as the host (in the lobby, or "new link" here) whose
  // seats still wait for them; none once the game is over or the table closed.
  const over = Boolean(f?.result || page.closed);
  const held = host ? waitingInvites(tableId, page.seats, over).filter((i) => i.seat !== f?.seat && i.seat !== made?.seat) : [];
  $("new-invite").innerHTML = (made ? `
    <div class="invite"><b>${esc(made.name)}</b><code>${esc(made.invite)}</code>
      <button type="button" class="small" id="copy-invite">${esc(t("Copy link"))}</button></div>
    <p class="help">${esc(t("A new invite link for {name}: send it to them only. Their old links no longer work.", { name: made.name }))}</p>` : "")
    + (held.length ? `<div class="invites held-invites">${held.map((i) => `<div class="invite"><b>${esc(displayName(page.seats[i.seat] || { name: i.name }, i.seat))}</b><code>${esc(i.invite)}</code>
      <button type="button" class="small" data-copy="${esc(i.invite)}">${esc(t("Copy link"))}</button><span></span></div>`).join("")}</div>
    <p class="help">${esc(t("Invite links not used yet (only this browser has them): send each to its player only."))}</p>` : "");
  $("copy-invite")?.addEventListener("click", () => copy(made.invite));
  $("new-invite").querySelectorAll("[data-copy]").forEach((b) => b.addEventListener("click", () => copy(b.dataset.copy)));
  const controls = [];
  if (f && f.seat !== null && !f.result && !page.closed) {
    const me = page.seats[f.seat];
    if (me?.bot) controls.push(`<button class="small" id="take-back">${esc(t("Take my seat back"))}</button>`);
    else controls.push(`<button class="small" id="to-bot">${esc(t("Let a bot play for me"))}</button>`);
    controls.push(`<button class="small" id="my-link">${esc(t("Copy my seat link"))}</button>`);
  }
  if (f && !f.result && !page.closed) controls.push(`<button class="small" id="watch-link">${esc(t("Copy watch link"))}</button>`);
  if (host && f && !f.result && !page.closed) controls.push(`<button class="small" id="close-table">${esc(t("Close the table"))}</button>`);
  $("seat-controls").innerHTML = controls.join("");
  $("close-table")?.addEventListener("click", closeTable);
  $("to-bot")?.addEventListener("click", () => page.conn.send({ type: "bot", bot: page.bot }) || toast(t("Not connected")));
  $("take-back")?.addEventListener("click", () => page.conn.send({ type: "bot", bot: null }));
  $("my-link")?.addEventListener("click", () => copy(`${location.origin}/table/${tableId}#token=${token}`));
  $("watch-link")?.addEventListener("click", () => copy(`${location.origin}/table/${tableId}?watch`));
}

/** The host ends the table for good (it counts no more against their unfinished tables). */
async function closeTable() {
  if (!confirm(t("Close this table for good? The game ends without a result, for everyone."))) return;
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/close`, { method: "POST", token: host });
  } catch (error) {
    toast(errorText(error));
  }
}

/** The host's new invite link for a seat whose player lost theirs (nobody connected there). */
async function hostInvite(seat) {
  const name = displayName(page.seats[seat]);
  if (!confirm(t("Make a new invite link for {name}? Their old invite link and seat link stop working.", { name }))) return;
  try {
    const made = await api(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/invite`, { method: "POST", token: host });
    page.newInvite = { seat, name: displayName(made), invite: made.invite };
    // The seats list as it is now (its news may come before or after this answer): the
    // seat waits for this invite, and its count of new links (the server's) says which
    // one a list has seen.
    const reinvited = made.reinvited ?? (page.seats[seat]?.reinvited || 0) + 1;
    if (!((page.seats[seat]?.reinvited || 0) > reinvited)) page.seats[seat] = { ...page.seats[seat], invited: true, reinvited };
    // (kept in place of the seat's old link, which no longer works)
    keepInvites(tableId, [...heldInvites(tableId).filter((i) => i.seat !== seat), { seat, name: made.name, invite: made.invite, reinvited }]);
    drawSeats();
    $("copy-invite")?.focus(); // (the one live region stays the game's: focus tells of it)
  } catch (error) {
    toast(errorText(error));
  }
}

async function hostBot(seat) {
  const current = page.seats[seat];
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/bot`, {
      method: "POST", token: host, body: { bot: current.bot ? null : page.bot },
    });
  } catch (error) {
    toast(errorText(error));
  }
}

// Never miss your turn: the tab's title and icon say so while this seat must act.
const FAVICON = "/static/favicon.svg";
const TURN_ICON = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="#12151f"/><path d="M2 10c3-3 7-3 10-1 3-2 7-2 10 1-1 4-4 6-7 5l-3-2-3 2c-3 1-6-1-7-5z" fill="#e2b650"/><ellipse cx="7.5" cy="11" rx="2" ry="1.3" fill="#12151f"/><ellipse cx="16.5" cy="11" rx="2" ry="1.3" fill="#12151f"/><circle cx="19" cy="5" r="5" fill="#e46a5e" stroke="#12151f" stroke-width="1.5"/></svg>`)}`;

function myTurn() {
  const f = page.frame;
  return !!(f && f.seat !== null && !f.result && f.to_act.includes(f.seat) && !page.pending && !page.seats[f.seat]?.bot);
}

function drawAttention() {
  if (!page.summary) return;
  const base = `${page.summary.title} — Thievery`;
  const mine = myTurn();
  document.title = mine ? `● ${t("Your turn")} — ${base}` : base;
  const icon = document.querySelector("link[rel=icon]");
  const href = mine ? TURN_ICON : FAVICON;
  if (icon && icon.getAttribute("href") !== href) {
    icon.setAttribute("href", href);
    icon.setAttribute("type", "image/svg+xml");
  }
  if (mine && page.wasMine === false) alertTurn();
  page.wasMine = mine;
}

// Optional: a sound, and a browser notification while the tab is hidden, when a turn
// comes. Off until the player switches it on (the bell in the header); the browser asks
// for the notification permission only then, and a refusal leaves the sound.
const ALERTS = "thievery.alerts";

function alertsOn() {
  try { return localStorage.getItem(ALERTS) === "on"; } catch { return false; }
}

function drawBell() {
  const bell = $("alerts");
  if (!bell) return;
  const on = alertsOn();
  bell.textContent = on ? "🔔" : "🔕";
  bell.setAttribute("aria-pressed", String(on));
  bell.title = on ? t("Sound and notification on your turn: on") : t("Sound and notification on your turn: off");
  bell.setAttribute("aria-label", bell.title);
}

async function toggleAlerts() {
  const on = !alertsOn();
  try { localStorage.setItem(ALERTS, on ? "on" : "off"); } catch { /* no storage */ }
  drawBell();
  if (on && "Notification" in window && Notification.permission === "default") {
    try { await Notification.requestPermission(); } catch { /* refused or unsupported */ }
  }
}

function alertTurn() {
  if (!alertsOn()) return;
  try {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (Audio) {
      page.audio = page.audio || new Audio();
      const tone = page.audio.createOscillator();
      const gain = page.audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.12, page.audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, page.audio.currentTime + 0.35);
      tone.connect(gain).connect(page.audio.destination);
      tone.start();
      tone.stop(page.audio.currentTime + 0.35);
    }
  } catch { /* no sound here */ }
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    const prompt = $("game").querySelector("[data-prompt]")?.textContent.trim() || "";
    try {
      new Notification(`${page.summary.title}: ${t("Your turn")}`, { body: prompt, tag: `thievery-${tableId}` });
    } catch { /* notifications unavailable */ }
  }
}

/** A visible notice when the turn timer let a bot play for this seat. The server does not
 * say why a seat moved (an update's `acted` says only that it did), so the page works it
 * out: this seat was asked to act, sent nothing, its timer had run out (give or take 2 s
 * for when this page first saw the question), and the update brings events of this seat's
 * own doing. */
function noticeTimeout(frame) {
  const before = page.frame;
  const seat = frame.seat;
  const limit = page.summary?.turn_seconds;
  if (!limit || seat === null || !before || !before.to_act.includes(seat) || page.pending || page.seats[seat]?.bot) return;
  if (!page.deadline || Date.now() < page.deadline - 2000) return;
  const mine = (frame.events || []).filter((e) => e.seat === seat);
  if (!mine.length) return;
  page.deadline = null; // asked again: the timer starts afresh
  const box = $("turn-notice");
  box.hidden = false;
  box.innerHTML = `<span>${esc(t("Time ran out: a bot played for you."))} <span class="help">${esc(mine.map(line).join(" · "))}</span></span>
    <button type="button" class="small" id="turn-notice-ok">${esc(t("OK"))}</button>`;
  $("turn-notice-ok").addEventListener("click", () => { box.hidden = true; });
  page.urgent = t("Time ran out: a bot played for you.");
}

// The turn timer (if the table has one): counted from when this seat was asked to act.
function drawTimer() {
  const f = page.frame;
  const limit = page.summary?.turn_seconds;
  const el = $("timer");
  if (!limit || !f || f.seat === null || f.result || !f.to_act.includes(f.seat) || page.seats[f.seat]?.bot) {
    el.textContent = "";
    page.deadline = null;
    return;
  }
  if (!page.deadline) page.deadline = Date.now() + limit * 1000;
  const left = Math.max(0, Math.ceil((page.deadline - Date.now()) / 1000));
  el.textContent = t("your turn: {left}s left", { left });
  el.className = `meta ${left <= 10 ? "hurry" : ""}`;
}
setInterval(() => { drawTimer(); speak(); }, 500);

/** An event's log line in the page's language (German from the game's words()). */
function line(e) {
  return eventText(page.renderer, e, { seat: page.frame?.seat ?? null, seats: page.seats, view: page.frame?.view ?? null });
}

function drawLog() {
  const box = $("log");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  box.innerHTML = page.log.slice(-300).map((e) => logLine(e, line(e))).join("");
  if (atBottom || page.log.length < 30) box.scrollTop = box.scrollHeight;
}

function drawResult() {
  const f = page.frame;
  const after = $("after");
  if (f && !f.result && page.closed) {
    $("overlay").innerHTML = "";
    after.hidden = false;
    after.innerHTML = `<h2 tabindex="-1">${esc(t("This table was closed"))}</h2><p class="help">${esc(t("The game ended without a result."))}</p><div class="controls"><a class="button" href="/">${esc(t("Back to the lobby"))}</a></div>`;
    return;
  }
  // (the last action's chain is told first: the result after it, not over it)
  if (f?.result && !page.resultShown && !page.storyWait
    && afterStory($("game"), () => { page.storyWait = false; drawResult(); })) page.storyWait = true;
  if (!f || !f.result || page.storyWait) {
    $("overlay").innerHTML = "";
    after.hidden = true;
    return;
  }
  // (links that look like buttons: a button inside a link is reached, and read, twice)
  const links = `
    <a class="button" href="/replay/${encodeURIComponent(tableId)}">${esc(t("Watch the replay"))}</a>
    <a class="button" href="/api/tables/${encodeURIComponent(tableId)}/record?download=true" download>${esc(t("Download the record"))}</a>`;
  const again = page.next
    ? `<button class="primary go-next">${esc(t("Go to the next game"))}</button>`
    : token && f.seat !== null ? `<button class="primary again">${esc(t("Play again"))}</button>` : "";
  after.hidden = false;
  after.innerHTML = `<h2>${esc(t("Game over"))}</h2><div class="controls">${again}${links}</div>`;
  const scores = f.result.scores || [];
  const winners = new Set(f.result.winners || []);
  const rows = scores.map((score, seat) =>
    `<tr class="${winners.has(seat) ? "win" : ""}"><td>${winners.has(seat) ? "★ " : ""}${esc(resultName(seatName(page.seats, seat)))}</td><td>${esc(score)}</td></tr>`).join("");
  const names = [...winners].map((s) => resultName(seatName(page.seats, s)));
  const youWon = f.seat !== null && winners.has(f.seat);
  $("overlay").innerHTML = page.dismissed ? "" : `<div class="overlay" id="result" role="dialog" aria-modal="true" aria-labelledby="result-title"><div class="box">
      <h2 id="result-title" tabindex="-1">${esc(youWon ? t("You win!") : t(names.length > 1 ? "{names} win" : "{names} wins", { names: names.join(t(" and ")) }))}</h2>
      <div class="help">${esc(t("Final scores"))}</div>
      <table>${rows}</table>${endWords()}
      <div class="acts">${again}${links}<button id="close-result">${esc(t("Look at the table"))}</button></div>
    </div></div>`;
  document.querySelectorAll(".again").forEach((b) => b.addEventListener("click", playAgain));
  document.querySelectorAll(".go-next").forEach((b) => b.addEventListener("click", goNext));
  const dismiss = () => {
    page.dismissed = true;
    endStory($("game"));
    drawResult();
    const heading = $("after")?.querySelector("h2");
    heading?.setAttribute("tabindex", "-1");
    heading?.focus(); // (not lost to the page: the end's own heading)
  };
  $("close-result")?.addEventListener("click", dismiss);
  const dialog = $("result");
  if (dialog) {
    trapFocus(dialog);
    dialog.addEventListener("keydown", (event) => { if (event.key === "Escape") dismiss(); });
  }
  // The end, once: focus goes to it (a screen reader reads who won; Play again is a Tab away).
  if (!page.dismissed && !page.resultShown) {
    page.resultShown = true;
    $("result-title")?.focus();
  }
}

/** How the game ended, in the game's own words: the last lines of its ending events. */
function endWords() {
  const lines = page.log.filter((e) => ["game_over", "match_over", "final"].includes(e.type)).slice(-4);
  if (!lines.length) return "";
  return `<div class="ended"><div class="help">${esc(t("How it ended"))}</div>
    ${lines.map((e) => `<p>${esc(line(e))}</p>`).join("")}</div>`;
}

async function playAgain() {
  try {
    const next = await api(`/api/tables/${encodeURIComponent(tableId)}/again`, { method: "POST", token });
    page.next = next.id;
    goNext();
  } catch (error) {
    toast(errorText(error));
  }
}

function goNext() {
  // The next table has the same seats, keys and host: this browser keeps its seat there,
  // and its host's token (a player away at the next game can be handed to a bot, or the
  // table closed, as at this one).
  const entry = { ...(token ? { token } : {}), ...(host ? { host } : {}) };
  const kept = !(token || host) || rememberToken(page.next, entry);
  // (a browser that cannot keep it: the seat's key goes in the link, as "Copy my seat
  // link" gives it; else never in the address bar, where it could be shared by mistake)
  const link = token && !kept ? `#token=${encodeURIComponent(token)}` : "";
  location.href = `/table/${encodeURIComponent(page.next)}${token ? link : "?watch"}`;
}

start();

/** The fair-deal line: a scenario table says so (its deal chosen by its creator, in the
 * open); every table shows the commitment to its deal, which the finished record's seed
 * and salt must match (`thievery verify`, the replay page). */
function showDeal(summary) {
  const box = $("deal");
  const parts = [];
  if (summary.scenario) parts.push(`<b>${esc(t("Scenario table"))}</b>: ${esc(t("its creator chose the deal (seed {seed})", { seed: summary.scenario_seed }))}`);
  if (summary.commitment) parts.push(`${esc(t("deal"))} <code>${esc(summary.commitment.slice(0, 12))}…</code>`);
  box.innerHTML = parts.join(" · ");
  box.title = summary.commitment ? t("Commitment to this table's deal: {c}", { c: summary.commitment }) : "";
  box.hidden = parts.length === 0;
}


// ------------------------------------------------------------------ the table chat
// Seated players write short lines (the server checks and rate-limits them), everyone at the
// table reads; every line is escaped. A seat can be muted here (kept in this browser, per
// table): its lines are hidden, now and later, until it is shown again.

const MUTED = "thievery.muted"; // {tableId: [seats]}, the newest 100 tables
const CHAT_OPEN = "thievery.chat"; // "open" or "closed": the panel as last left
const chat = { lines: [], sent: 0, sending: new Map(), unseen: 0 };

function readMuted() {
  try { return JSON.parse(localStorage.getItem(MUTED) || "{}") || {}; } catch { return {}; }
}

function mutedSeats() {
  const seats = readMuted()[tableId];
  return new Set(Array.isArray(seats) ? seats : []);
}

function setMuted(seat, on) {
  const all = readMuted();
  const seats = mutedSeats();
  if (on) seats.add(seat);
  else seats.delete(seat);
  delete all[tableId];
  if (seats.size) all[tableId] = [...seats];
  const keys = Object.keys(all);
  for (const key of keys.slice(0, Math.max(0, keys.length - 100))) delete all[key];
  try { localStorage.setItem(MUTED, JSON.stringify(all)); } catch { /* no storage */ }
  drawChat();
}

function setUpChat() {
  const panel = $("chat");
  let stored = null;
  try { stored = localStorage.getItem(CHAT_OPEN); } catch { /* no storage */ }
  // Open on wide screens; on a phone folded until asked for (or as last left).
  panel.open = stored ? stored === "open" : !matchMedia("(max-width: 600px)").matches;
  panel.addEventListener("toggle", () => {
    try { localStorage.setItem(CHAT_OPEN, panel.open ? "open" : "closed"); } catch { /* no storage */ }
    if (panel.open) chat.unseen = 0;
    drawChat();
  });
  $("chat-form").addEventListener("submit", sendChat);
  $("chat-mutes").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-seat]");
    if (button) setMuted(Number(button.dataset.seat), button.getAttribute("aria-pressed") !== "true");
  });
  drawChat();
}

function sendChat(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) return;
  const id = `chat-${++chat.sent}`;
  if (!page.conn?.send({ type: "chat", text, id })) {
    toast(t("Not connected — reconnecting…"));
    return;
  }
  chat.sending.set(id, text);
  input.value = "";
}

function onChatError(frame) {
  const text = chat.sending.get(frame.id);
  chat.sending.delete(frame.id);
  if (text && !$("chat-text").value) $("chat-text").value = text; // to try again
  toast(errorText(frame));
}

function onChat(frame) {
  if (frame.type === "chat_log") {
    chat.lines = Array.isArray(frame.lines) ? frame.lines : [];
  } else {
    chat.lines.push(frame);
    if (chat.lines.length > 200) chat.lines.splice(0, chat.lines.length - 200);
    const mine = frame.seat === (page.frame?.seat ?? null);
    if (!$("chat").open && !mine && !mutedSeats().has(frame.seat)) chat.unseen += 1;
  }
  drawChat();
}

function clockTime(at) {
  const d = new Date(Number(at) * 1000);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

function drawChat() {
  keepFocus($("chat"), drawChatNow); // (the mute buttons are drawn anew)
}

function drawChatNow() {
  const me = page.frame?.seat ?? null;
  const muted = mutedSeats();
  const box = $("chat-lines");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  const shown = chat.lines.filter((l) => l.seat === me || !muted.has(l.seat));
  box.innerHTML = shown.map((l) => `<div class="chat-line ${l.seat === me ? "me" : ""}" data-seat="${esc(l.seat)}">
      <span class="who">${esc(seatName(page.seats, Number(l.seat)))}</span><span class="text">${esc(l.text)}</span><time>${esc(clockTime(l.at))}</time></div>`).join("")
    || `<p class="empty">${esc(t("No messages yet."))}</p>`;
  if (atBottom) box.scrollTop = box.scrollHeight;
  const others = page.seats.filter((s) => s.kind === "human" && s.seat !== me);
  $("chat-mutes").innerHTML = others.length ? `<span>${esc(t("Mute:"))}</span>${others.map((s) => {
    const name = displayName(s);
    const on = muted.has(s.seat);
    const title = t(on ? "Show the messages of {name} again" : "Hide the messages of {name}", { name });
    return `<button type="button" class="small" data-seat="${esc(s.seat)}" aria-pressed="${on}" title="${esc(title)}">${esc(name)}</button>`;
  }).join("")}` : "";
  $("chat-form").hidden = !page.frame || me === null;
  $("chat-readonly").hidden = !page.frame || me !== null;
  const badge = $("chat-new");
  badge.hidden = !chat.unseen;
  badge.textContent = t("{n} new", { n: chat.unseen });
}
