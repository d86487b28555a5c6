// The lobby: pick a game, seats (human or which bot) and options; create a table and hand out
// invite links; list tables to watch, rejoin, replay. Everything comes from the JSON API.

import { LOGO, api, botLevel, botTitle, copy, displayName, esc, rememberToken, toast, tokens } from "/static/js/common.js";
import { t } from "/static/js/i18n.js";
import { helpButton } from "/static/js/help.js";

const $ = (id) => document.getElementById(id);
let games = [];

$("brand").innerHTML = `${LOGO}Thievery`;

function current() {
  return games.find((g) => g.name === $("game").value) || games[0];
}

function drawGame() {
  const g = current();
  $("game-help").textContent = `${g.min_players} to ${g.max_players} players.`;
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
      ...g.bots.map((b) => `<option value="bot:${esc(b)}" title="${esc(botTitle(b))}">${esc(t("Bot: {level}", { level: botLevel(b) }))}</option>`)].join("");
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
    let input;
    if (o.choices) {
      input = `<select id="${id}" data-opt="${esc(o.name)}" data-kind="choice">${o.choices.map((c) =>
        `<option value='${esc(JSON.stringify(c))}' ${c === o.default ? "selected" : ""}>${esc(c)}</option>`).join("")}</select>`;
    } else if (typeof o.default === "boolean") {
      input = `<input type="checkbox" id="${id}" data-opt="${esc(o.name)}" data-kind="bool" ${o.default ? "checked" : ""}>`;
    } else if (typeof o.default === "number") {
      input = `<input type="number" id="${id}" data-opt="${esc(o.name)}" data-kind="int" value="${esc(o.default)}"${o.minimum != null ? ` min="${esc(o.minimum)}"` : ""}${o.maximum != null ? ` max="${esc(o.maximum)}"` : ""} style="max-width:110px">`;
    } else {
      continue; // options without a simple form (stacked decks) are for the API
    }
    row.innerHTML = `<label for="${id}">${esc(o.name.replaceAll("_", " "))}</label>${input}<span class="help">${esc(o.help)}</span>`;
    box.appendChild(row);
  }
  if (!box.children.length) box.innerHTML = `<p class="help">This game has no options.</p>`;
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
  return { game: current().name, seats, options, turn_seconds: turn ? Number(turn) : null };
}

async function create(event) {
  event.preventDefault();
  const body = readForm();
  $("create").disabled = true;
  try {
    const made = await api("/api/tables", { method: "POST", body });
    const id = made.table.id;
    rememberToken(id, { host: made.host_token });
    showCreated(made);
    refresh();
  } catch (error) {
    toast(error.message);
  } finally {
    $("create").disabled = false;
  }
}

function showCreated(made) {
  const id = made.table.id;
  const box = $("created");
  const mine = made.seats[0];
  if (mine) rememberToken(id, { token: mine.token, seat: mine.seat });
  const invites = made.seats.map((s, i) => `
    <div class="invite"><b>${esc(s.name)}</b><code>${esc(s.invite)}</code>
      <button type="button" class="small" data-copy="${esc(s.invite)}">Copy link</button>
      ${i === 0 ? `<a href="/table/${encodeURIComponent(id)}"><button type="button" class="small primary" id="sit">Sit here</button></a>` : `<span></span>`}
    </div>`).join("");
  box.hidden = false;
  box.innerHTML = `<h3>Table ${esc(id)} is ready</h3>
    ${made.seats.length ? `<p class="help">Each link is the only key to its seat: send it to that player only. You sit at the first human seat from this browser.</p><div class="invites">${invites}</div>`
      : `<p class="help">Only bots play here.</p>`}
    <div class="row"><a href="/table/${encodeURIComponent(id)}?watch"><button type="button">Watch</button></a>
      <button type="button" class="small" data-copy="${esc(location.origin)}/table/${encodeURIComponent(id)}?watch">Copy watch link</button></div>`;
  box.querySelectorAll("[data-copy]").forEach((b) => b.addEventListener("click", () => copy(b.dataset.copy)));
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function seatText(tb) {
  return tb.seats.map((s) => esc(displayName(s)) + (s.kind === "human" && s.bot
    ? ` <span class="help" title="${esc(botTitle(s.bot))}">(${esc(t("{level} bot plays", { level: botLevel(s.bot) }))})</span>` : "")).join(", ");
}

async function refresh() {
  let data;
  try {
    data = await api("/api/tables?finished=15");
  } catch {
    return;
  }
  const mine = tokens();
  $("live").innerHTML = data.live.map((tb) => {
    const held = mine[tb.id]?.token;
    const waiting = tb.to_act.map((s) => esc(displayName(tb.seats[s], s))).join(", ");
    return `<div class="table-item"><div><b>${esc(tb.title)}</b> · ${esc(tb.id)}
        <div class="who">${seatText(tb)}</div><div class="who">${tb.actions} moves · waiting for ${waiting || "—"}</div></div>
      <div class="acts">${held ? `<a href="/table/${encodeURIComponent(tb.id)}"><button class="small primary">Rejoin</button></a>` : ""}
        <a href="/table/${encodeURIComponent(tb.id)}?watch"><button class="small">Watch</button></a></div></div>`;
  }).join("") || `<p class="empty">No tables yet — create one.</p>`;
  $("finished").innerHTML = data.finished.map((tb) => {
    const winners = (tb.result?.winners || []).map((s) => esc(displayName(tb.seats[s], s))).join(" and ");
    return `<div class="table-item"><div><b>${esc(tb.title)}</b> · ${esc(tb.id)}
        <div class="who">${seatText(tb)}</div><div class="who">won by ${winners || "—"} · ${(tb.result?.scores || []).join(" / ")}</div></div>
      <div class="acts"><a href="/replay/${encodeURIComponent(tb.id)}"><button class="small">Replay</button></a>
        <a href="/api/tables/${encodeURIComponent(tb.id)}/record?download=true" download><button class="small">Record</button></a></div></div>`;
  }).join("") || `<p class="empty">None yet.</p>`;
}

async function start() {
  games = await api("/api/games");
  $("game").innerHTML = games.map((g) => `<option value="${esc(g.name)}">${esc(g.title)}</option>`).join("");
  $("help-slot").replaceWith(helpButton(() => [current()?.name, current()?.title]));
  $("game").addEventListener("change", drawGame);
  $("players").addEventListener("change", drawSeats);
  $("create-form").addEventListener("submit", create);
  drawGame();
  refresh();
  setInterval(refresh, 5000);
}

start();
