// The lobby: pick a game, seats (human or which bot) and options; create a table and hand out
// invite links; list tables to watch, rejoin, replay. Everything comes from the JSON API.

import { LOGO, api, botLevel, botTitle, byLevel, copy, displayName, esc, keepFocus, keepInvites, newKey, rememberToken, retried, stillWaiting, toast, tokens, waitingInvites } from "/static/js/common.js";
import { errorText, setUpPage, t } from "/static/js/i18n.js";
import { helpButton } from "/static/js/help.js";

const $ = (id) => document.getElementById(id);
let games = [];
let created = null; // the table made here whose links the "ready" panel shows (not listed twice)

setUpPage();
$("brand").innerHTML = `${LOGO}Thievery`;

// The built-in games' options in player words (label, help, choices); another game's
// options show the name and help its plug-in gives (in English).
const OPTION_WORDS = {
  games: ["Games in the match", "Scores add up over the games."],
  all_close_rule: ["When everyone closes", "If everyone still in shows a Close Safe card in the same round, the game ends.", { revealed: "as soon as all show one", would_succeed: "only if every close would succeed" }],
  raid_ties: ["Ties in a raid", "When several players tie for the richest loot in a raid.", { all_busted: "all of them are busted", none_busted: "nobody is busted" }],
  first_player: ["First player", "Empty: drawn at random."],
  hourglass_seconds: ["Hourglass (seconds)", "How long the hourglass runs."],
  hand_ms: ["Hand speed (ms)", "The least time between two drops of one player (0: none)."],
  width: ["Chest width", "In cells."],
  depth: ["Chest depth", "In cells, up to the rim."],
  little_pirates: ["Little Pirates", "The hourglass starts when the first player closes."],
  big_pirates: ["Big Pirates", "The Jack-board is turned before packing."],
  short_game: ["Short game", "One middle part: a ship of 3 cards."],
};

function current() {
  return games.find((g) => g.name === $("game").value) || games[0];
}

function drawGame() {
  const g = current();
  $("game-help").textContent = t("{min} to {max} players.", { min: g.min_players, max: g.max_players });
  const players = $("players");
  const keep = Number(players.value) || Math.min(Math.max(4, g.min_players), g.max_players);
  players.innerHTML = "";
  for (let n = g.min_players; n <= g.max_players; n++) {
    players.add(new Option(String(n), String(n), false, n === keep));
  }
  if (!players.value) players.value = String(g.min_players);
  drawSeats();
  drawOptions();
}

function drawSeats() {
  const g = current();
  const n = Number($("players").value);
  const rows = $("seat-rows");
  const old = [...rows.querySelectorAll(".seat-row")].map((r) => ({
    who: r.querySelector("select").value, name: r.querySelector("input").value,
  }));
  const preferred = g.bots.includes("heuristic") ? "heuristic" : g.bots[0];
  rows.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const prev = old[i] || { who: i === 0 ? "human" : `bot:${preferred}`, name: "" };
    const choices = [`<option value="human">${esc(t("Human (invite)"))}</option>`,
      ...byLevel(g.bots).map((b) => `<option value="bot:${esc(b)}" title="${esc(botTitle(b))}">${esc(t("Bot: {level}", { level: botLevel(b) }))}</option>`)].join("");
    const row = document.createElement("div");
    row.className = "seat-row";
    const n = esc(t("Seat {n}", { n: i + 1 }));
    row.innerHTML = `<span class="n">${n}</span><select aria-label="${n}">${choices}</select>
      <input type="text" maxlength="40" placeholder="${esc(t("name (optional)"))}" aria-label="${esc(t("{seat}: name", { seat: n }))}" value="${esc(prev.name)}">`;
    row.querySelector("select").value = prev.who;
    if (!row.querySelector("select").value) row.querySelector("select").value = `bot:${preferred}`;
    const pick = row.querySelector("select");
    const tip = () => { pick.title = pick.value.startsWith("bot:") ? botTitle(pick.value.slice(4)) : ""; };
    pick.addEventListener("change", tip);
    tip();
    rows.appendChild(row);
  }
}

function drawOptions() {
  const box = $("options");
  box.innerHTML = "";
  for (const o of current().options) {
    const row = document.createElement("div");
    row.className = "row";
    const id = `opt-${o.name}`;
    const words = OPTION_WORDS[o.name];
    let input;
    if (o.choices) {
      input = `<select id="${id}" data-opt="${esc(o.name)}" data-kind="choice">${o.choices.map((c) =>
        `<option value='${esc(JSON.stringify(c))}' ${c === o.default ? "selected" : ""}>${esc(words?.[2]?.[c] ? t(words[2][c]) : c)}</option>`).join("")}</select>`;
    } else if (typeof o.default === "boolean") {
      input = `<input type="checkbox" id="${id}" data-opt="${esc(o.name)}" data-kind="bool" ${o.default ? "checked" : ""}>`;
    } else if (typeof o.default === "number") {
      input = `<input type="number" id="${id}" data-opt="${esc(o.name)}" data-kind="int" value="${esc(o.default)}"${o.minimum != null ? ` min="${esc(o.minimum)}"` : ""}${o.maximum != null ? ` max="${esc(o.maximum)}"` : ""} style="max-width:110px">`;
    } else {
      continue; // options without a simple form (stacked decks) are for the API
    }
    const label = words ? t(words[0]) : o.name.replaceAll("_", " ");
    row.innerHTML = `<label for="${id}">${esc(label)}</label>${input}<span class="help">${esc(words ? t(words[1]) : o.help)}</span>`;
    box.appendChild(row);
  }
  if (!box.children.length) box.innerHTML = `<p class="help">${esc(t("This game has no options."))}</p>`;
}

function readForm() {
  const seats = [...$("seat-rows").querySelectorAll(".seat-row")].map((r) => {
    const who = r.querySelector("select").value;
    const name = r.querySelector("input").value.trim() || null;
    return who === "human" ? { kind: "human", name } : { kind: "bot", bot: who.slice(4), name };
  });
  const options = {};
  for (const el of $("options").querySelectorAll("[data-opt]")) {
    const kind = el.dataset.kind;
    options[el.dataset.opt] = kind === "bool" ? el.checked : kind === "int" ? Number(el.value) : JSON.parse(el.value);
  }
  const turn = $("turn").value;
  return { game: current().name, seats, options, turn_seconds: turn ? Number(turn) : null, listed: $("listed").checked };
}

async function create(event) {
  event.preventDefault();
  const body = readForm();
  $("create").disabled = true;
  try {
    const made = await api("/api/tables", { method: "POST", body });
    const id = made.table.id;
    rememberToken(id, { host: made.host_token });
    // The other seats' invite links, kept with the host token: after a reload they are
    // shown again with this table in "Playing now" (and on the table page, to its host),
    // each until its seat is taken. (Storage refusing them: as shown here, no more.)
    keepInvites(id, made.seats.slice(1).map((s) => ({ seat: s.seat, name: s.name, invite: s.invite })));
    showCreated(made);
    refresh();
  } catch (error) {
    toast(errorText(error));
  } finally {
    $("create").disabled = false;
  }
}

function showCreated(made) {
  const id = made.table.id;
  created = id;
  const box = $("created");
  const mine = made.seats[0];
  if (mine) rememberToken(id, { token: mine.token, seat: mine.seat });
  const invites = made.seats.map((s, i) => `
    <div class="invite"><b>${esc(displayName(s, s.seat))}</b><code>${esc(s.invite)}</code>
      <button type="button" class="small" data-copy="${esc(s.invite)}">${esc(t("Copy link"))}</button>
      ${i === 0 ? `<a class="button small primary" id="sit" href="/table/${encodeURIComponent(id)}">${esc(t("Sit here"))}</a>` : `<span></span>`}
    </div>`).join("");
  box.hidden = false;
  // (the id as it is: ids are case-sensitive, and the panel's headings are in capitals)
  const ready = esc(t("Table {id} is ready", { id: "\u0000" })).replace("\u0000", `<span class="table-id-text">${esc(id)}</span>`);
  box.innerHTML = `<h3>${ready}</h3>
    ${made.seats.length ? `<p class="help">${esc(t("Each link is the only key to its seat: send it to that player only. You sit at the first human seat from this browser."))}</p><div class="invites">${invites}</div>`
      : `<p class="help">${esc(t("Only bots play here."))}</p>`}
    ${made.listed ? `<p class="help" id="listed-note">${esc(t("Listed in the lobby: until a seat's link is used, anyone may take it there (its link then stops working)."))}</p>` : ""}
    <div class="row"><a class="button" href="/table/${encodeURIComponent(id)}?watch">${esc(t("Watch"))}</a>
      <button type="button" class="small" data-copy="${esc(location.origin)}/table/${encodeURIComponent(id)}?watch">${esc(t("Copy watch link"))}</button></div>`;
  box.querySelectorAll("[data-copy]").forEach((b) => b.addEventListener("click", () => copy(b.dataset.copy)));
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function seatText(tb) {
  return tb.seats.map((s) => esc(displayName(s)) + (s.kind === "human" && s.bot
    ? ` <span class="help" title="${esc(botTitle(s.bot))}">(${esc(t("{level} bot plays", { level: botLevel(s.bot) }))})</span>` : "")).join(", ");
}

/** How long ago, in words: "just now", "5 min ago", "2 h ago". */
function age(seconds) {
  if (seconds < 60) return t("just now");
  if (seconds < 3600) return t("{n} min ago", { n: Math.floor(seconds / 60) });
  return t("{n} h ago", { n: Math.floor(seconds / 3600) });
}

/** Tables waiting for players (listed by their hosts): take a free seat with Join. */
function drawOpen(open, mine) {
  $("open").innerHTML = open.map((tb) => {
    const held = mine[tb.id]?.token;
    const seats = tb.seats.map((s) => (s.free ? `<i>${esc(t("free"))}</i>` : esc(displayName(s)))).join(", ");
    const act = held
      ? `<a class="button small primary" href="/table/${encodeURIComponent(tb.id)}">${esc(t("Rejoin"))}</a>`
      : `<button class="small primary join" data-table="${esc(tb.id)}" data-seat="${esc(tb.free[0])}">${esc(t("Join"))}</button>`;
    return `<div class="table-item open-table" data-table="${esc(tb.id)}"><div><b>${esc(tb.title)}</b> · ${esc(tb.id)}
        <div class="who">${seats}</div>
        <div class="who">${esc(t("{free} of {total} seats free", { free: tb.free.length, total: tb.players }))} · ${esc(age(tb.age_seconds))}${tb.scenario ? ` · ${esc(t("Scenario table"))}` : ""}</div></div>
      <div class="acts">${act}</div></div>`;
  }).join("") || `<p class="empty">${esc(t("No table is waiting for players."))}</p>`;
  $("open").querySelectorAll("button.join").forEach((b) => b.addEventListener("click", () => join(b)));
}

const NAME = "thievery.name"; // the name this browser joins listed tables with

async function join(button) {
  const id = button.dataset.table;
  const name = $("join-name").value.trim();
  try { localStorage.setItem(NAME, name); } catch { /* no storage */ }
  button.disabled = true;
  const key = newKey(); // (asked again with it, a claim made meanwhile is answered as made)
  const url = `/api/tables/${encodeURIComponent(id)}/seats/${Number(button.dataset.seat)}/claim`;
  try {
    const seat = await retried(() => api(url, { method: "POST", body: name ? { name, key } : { key } }));
    rememberToken(id, { token: seat.token, seat: seat.seat });
    location.href = `/table/${encodeURIComponent(id)}`;
  } catch (error) {
    toast(errorText(error));
    button.disabled = false;
    refresh();
  }
}

async function refresh(again = true) {
  let data;
  let open;
  try {
    // (unlisted tables are listed only for whoever names them: this browser's own)
    const own = Object.keys(tokens()).slice(-100).map(encodeURIComponent).join(",");
    [data, open] = await Promise.all([api(`/api/tables?finished=15&mine=${own}`), api("/api/tables/open")]);
  } catch {
    return;
  }
  keepOnlyWaiting(data);
  const mine = tokens();
  // A table this browser holds a seat (or the host's token) at, played again since: the
  // next table has the same seats, keys and host, so this browser holds it too (listed
  // under "Playing now" with its Rejoin), as "Go to the next game" would have kept it. (A
  // player who had gone when the others played again found it nowhere here.) The server
  // names them however many tables have finished since (`next`); fetched again once,
  // naming the new ones, and drawn all the same should the browser's storage refuse them.
  const next = Object.entries(data.next || {}).filter(([id, nextId]) => (mine[id]?.token || mine[id]?.host) && !mine[nextId]);
  for (const [id, nextId] of next) { // (storage full or off: not kept, the lists drawn as they are)
    const { token, host } = mine[id];
    rememberToken(nextId, { ...(token ? { token } : {}), ...(host ? { host } : {}) });
  }
  if (next.length && again && next.some(([, nextId]) => tokens()[nextId])) return refresh(false);
  // (drawn anew every 5 s: a player tabbed to a Join, Watch or Replay keeps the focus)
  keepFocus($("open"), () => drawOpen(open, mine));
  keepFocus($("live"), () => drawLive(data, mine));
  keepFocus($("finished"), () => drawFinished(data));
  $("finished-count").textContent = data.finished.length ? `(${data.finished.length})` : "";
}

/** This browser's invite links as a host: those whose seats someone took since (the
 * listing's `invited`) are forgotten, and every one of a table that is over or closed. */
function keepOnlyWaiting(data) {
  const over = new Set(data.finished.map((tb) => tb.id));
  const live = new Map(data.live.map((tb) => [tb.id, tb]));
  for (const [id, entry] of Object.entries(tokens())) {
    if (!Array.isArray(entry?.invites) || !entry.invites.length) continue;
    const tb = live.get(id);
    if (over.has(id) || tb?.over || tb?.closed) waitingInvites(id, [], true);
    else if (tb) waitingInvites(id, tb.seats);
  }
}

/** A table's invite links this browser made as its host, for seats still waiting for them
 * (never anyone else's: they are kept in this browser only). */
function drawInvites(tb, mine) {
  const held = tb.id === created ? [] : (mine[tb.id]?.invites || []).filter((i) => stillWaiting(i, tb.seats[i.seat]));
  if (!held.length) return "";
  return `<div class="invites held-invites"><p class="help">${esc(t("Invite links not used yet (only this browser has them): send each to its player only."))}</p>
    ${held.map((i) => `<div class="invite"><b>${esc(displayName({ seat: i.seat, name: i.name }, i.seat))}</b><code>${esc(i.invite)}</code>
      <button type="button" class="small" data-copy="${esc(i.invite)}">${esc(t("Copy link"))}</button><span></span></div>`).join("")}</div>`;
}

function drawLive(data, mine) {
  $("live").innerHTML = data.live.map((tb) => {
    const held = mine[tb.id]?.token || mine[tb.id]?.host; // (a host without a seat: to close it, say)
    // (a table stored but not loaded since the server started, or unloaded when idle, is
    // listed from storage, which does not say who is to act)
    const waiting = (tb.to_act || []).map((s) => displayName(tb.seats[s], s)).join(", ");
    return `<div class="table-item"><div><b>${esc(tb.title)}</b> · ${esc(tb.id)}
        <div class="who">${seatText(tb)}</div><div class="who">${esc(tb.loaded === false ? t("resting: it wakes when someone comes") : t(tb.actions === 1 ? "1 move · waiting for {who}" : "{n} moves · waiting for {who}", { n: tb.actions, who: waiting || "—" }))}</div></div>
      <div class="acts">${held ? `<a class="button small primary" href="/table/${encodeURIComponent(tb.id)}">${esc(t("Rejoin"))}</a>` : ""}
        <a class="button small" href="/table/${encodeURIComponent(tb.id)}?watch">${esc(t("Watch"))}</a></div>${drawInvites(tb, mine)}</div>`;
  }).join("") || `<p class="empty">${esc(t("No tables yet — create one."))}</p>`;
  $("live").querySelectorAll("[data-copy]").forEach((b) => b.addEventListener("click", () => copy(b.dataset.copy)));
}

function drawFinished(data) {
  $("finished").innerHTML = data.finished.map((tb) => {
    const winners = (tb.result?.winners || []).map((s) => displayName(tb.seats[s], s)).join(t(" and "));
    return `<div class="table-item"><div><b>${esc(tb.title)}</b> · ${esc(tb.id)}
        <div class="who">${seatText(tb)}</div><div class="who">${esc(t("won by {who}", { who: winners || "—" }))} · ${(tb.result?.scores || []).join(" / ")}</div></div>
      <div class="acts"><a class="button small" href="/replay/${encodeURIComponent(tb.id)}">${esc(t("Replay"))}</a>
        <a class="button small" href="/api/tables/${encodeURIComponent(tb.id)}/record?download=true" download>${esc(t("Record"))}</a></div></div>`;
  }).join("") || `<p class="empty">${esc(t("None yet."))}</p>`;
}

async function start() {
  games = await api("/api/games");
  $("game").innerHTML = games.map((g) => `<option value="${esc(g.name)}">${esc(g.title)}</option>`).join("");
  $("help-slot").replaceWith(helpButton(() => [current()?.name, current()?.title]));
  $("game").addEventListener("change", drawGame);
  $("players").addEventListener("change", drawSeats);
  $("create-form").addEventListener("submit", create);
  // (not over a name typed while the games were read)
  try { $("join-name").value ||= localStorage.getItem(NAME) || ""; } catch { /* no storage */ }
  drawGame();
  refresh();
  setInterval(refresh, 5000);
}

start();
