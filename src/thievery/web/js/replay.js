// The replay viewer: step through a finished table (or a record file) as one seat saw it,
// as a spectator, or with everything shown. The server replays; the game's renderer draws.

import { LOGO, animateCards, announce, api, cardPlaces, displaySeats, esc, eventText, loadRenderer, logLine, seatName } from "/static/js/common.js";
import { helpButton } from "/static/js/help.js";
import { errorText, setUpPage, t } from "/static/js/i18n.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const state = { replay: null, step: 0, renderer: null, seats: null, record: null, timer: null, asked: 0 };

setUpPage();
$("brand").innerHTML = `${LOGO}<span class="word">Thievery</span>`;

async function load(perspective) {
  const query = `?perspective=${encodeURIComponent(perspective)}`;
  const asked = ++state.asked;
  const replay = state.record
    ? await api(`/api/replay${query}`, { method: "POST", body: state.record })
    : await api(`/api/tables/${encodeURIComponent(tableId)}/replay${query}`);
  // Chosen again meanwhile (the menu's arrow keys ask for each seat in turn): only the last
  // choice is shown, never an earlier one that came later (everything, under a seat's name).
  if (asked !== state.asked) return;
  // The moment on show (actions so far), once the other is here (the slider may have moved
  // meanwhile): another perspective leaves out the steps its seat saw no change in, so its
  // step numbers differ; it opens at the same moment.
  const moment = state.replay?.steps[state.step]?.n;
  state.replay = replay;
  state.renderer = state.renderer || await loadRenderer(replay.game);
  if (!document.getElementById("how-to-play")) $("help-slot").replaceWith(helpButton(() => [state.replay.game, state.title || state.replay.game]));
  showDeal(replay.deal);
  $("bar").hidden = false;
  $("slider").max = String(replay.steps.length - 1);
  let step = Math.min(state.step, replay.steps.length - 1);
  if (moment !== undefined) step = replay.steps.findLastIndex((s) => s.n <= moment);
  go(Math.max(0, step));
}

/** The fair-deal check: the commitment the record's seed and salt give, to compare with
 * the one the table showed when it was made, and whether the record replays to its result. */
function showDeal(deal) {
  const box = $("deal");
  if (!deal) { box.hidden = true; return; }
  const parts = [];
  if (deal.commitment) parts.push(`${esc(t("Deal commitment"))} <code>${esc(deal.commitment.slice(0, 16))}…</code> ${esc(t("(seed and salt match it; compare with the one shown when the table was made)"))}`);
  else parts.push(esc(t("This record holds no deal commitment.")));
  if (deal.scenario) parts.push(esc(t("A scenario table: its creator chose the deal.")));
  parts.push(esc(deal.result_matches ? t("Replays to the result it states ✓") : t("Does NOT replay to the result it states ✗")));
  box.innerHTML = parts.join(" · ");
  box.title = deal.commitment || "";
  box.hidden = false;
}

function perspectives(players) {
  const seats = Array.from({ length: players }, (_, s) =>
    `<option value="${s}">${esc(seatName(state.seats, s))}</option>`).join("");
  $("perspective").innerHTML = `<option value="all">${esc(t("everything"))}</option><option value="spectator">${esc(t("a spectator"))}</option>${seats}`;
}

// A step's view with the static keys (e.g. the options), which only the first step carries.
function whole(view, first) {
  const kept = Object.fromEntries((state.replay.static || []).map((k) => [k, first[k]]));
  return { ...kept, ...view };
}

function go(step) {
  if (!state.replay) return; // still loading
  const steps = state.replay.steps;
  state.step = Math.max(0, Math.min(step, steps.length - 1));
  const s = steps[state.step];
  const p = state.replay.perspective;
  const seat = typeof p === "number" ? p : null;
  const view = whole(s.view, steps[0].view);
  const seats = displaySeats(state.seats || Array.from({ length: state.replay.players }, (_, i) => ({ seat: i, name: `Seat ${i}` })));
  const places = cardPlaces($("game"));
  state.renderer.render($("game"), {
    view, legal: [], seat, seats, toAct: view.to_act || [], mode: "replay",
    views: s.views?.map((v, i) => whole(v, steps[0].views[i])),
  });
  animateCards($("game"), places);
  $("slider").value = String(state.step);
  $("step").textContent = t("step {n} of {total}", { n: state.step, total: steps.length - 1 });
  // The step as the table's log words it: the events this perspective saw (the server's
  // words for it; German from the game's own), never the actions' raw fields. With every
  // seat's view shown, a seat's private line is worded as it was told to that seat and
  // marked so: "(to Ada) You drew …" (the server's English), "(an Ada) Du hast … gezogen".
  const to = (e) => (p === "all" ? e.audience ?? null : null);
  const line = (e) => eventText(state.renderer, e, { seat, seats: state.seats || seats, view, to: to(e) });
  const lines = s.events.map(line);
  $("actions").innerHTML = s.events.map((e, i) => logLine(e, lines[i], "step-event")).join("")
    || esc(state.step === 0 ? t("The start.") : "—");
  announce([$("step").textContent, ...lines].join(" · "));
  const log = steps.slice(1, state.step + 1).flatMap((x) => x.events);
  $("log").innerHTML = log.slice(-300).map((e) => logLine(e, line(e))).join("");
  $("log").scrollTop = $("log").scrollHeight;
}

function toggle() {
  if (state.timer) {
    clearInterval(state.timer);
    state.timer = null;
    $("play").textContent = `▶ ${t("Play")}`;
    return;
  }
  $("play").textContent = `❚❚ ${t("Pause")}`;
  state.timer = setInterval(() => {
    if (state.step >= state.replay.steps.length - 1) toggle();
    else go(state.step + 1);
  }, 700);
}

async function start() {
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(state.step - 1);
  $("next").onclick = () => go(state.step + 1);
  $("last").onclick = () => go(Infinity);
  $("play").onclick = toggle;
  $("slider").oninput = () => go(Number($("slider").value));
  $("perspective").onchange = () => load($("perspective").value).catch(fail);
  document.addEventListener("keydown", (e) => {
    if (!state.replay) return;
    const tag = e.target.tagName;
    // A focused field handles its own keys (the slider moves itself: handled here too, one
    // arrow moved it two steps); Space presses a focused button, as everywhere.
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.key === " " && (tag === "BUTTON" || tag === "A")) return;
    if (e.key === "ArrowRight") go(state.step + 1);
    if (e.key === "ArrowLeft") go(state.step - 1);
    // (as a media player's: the start and the end of the game)
    if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      go(e.key === "Home" ? 0 : Infinity);
    }
    if (e.key === " ") { e.preventDefault(); toggle(); }
  });
  $("file").onchange = async () => {
    const file = $("file").files[0];
    if (!file) return;
    // (a failed file leaves nothing of the record before it on show)
    if (state.timer) toggle();
    state.record = null;
    state.replay = null;
    state.asked += 1; // (a seat's replay still on its way is not shown over it)
    $("bar").hidden = true;
    $("deal").hidden = true;
    for (const id of ["step", "actions", "log"]) $(id).textContent = "";
    $("title").textContent = t("Replay");
    try {
      try {
        state.record = JSON.parse(await file.text());
      } catch {
        throw new Error(t("This file is not a game record: it is not JSON."));
      }
      // A record may name its seats (the server checks them; the page escapes them).
      const names = state.record.names;
      // Without names, the seats go by the server's words for them ("Seat 0", shown "Seat 1").
      state.seats = Array.isArray(names) ? names.map((name, seat) => ({ seat, name: String(name) }))
        : Array.from({ length: state.record.players }, (_, seat) => ({ seat, name: `Seat ${seat}` }));
      state.renderer = null;
      state.step = 0;
      $("title").textContent = t("Replay of {file}", { file: file.name });
      perspectives(state.record.players);
      await load("all");
    } catch (error) {
      fail(error);
    }
  };
  if (!tableId) {
    $("intro").textContent = t("Choose a game record file (top right) to replay it.");
    return;
  }
  try {
    const summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    state.seats = summary.seats;
    state.title = summary.title;
    $("title").innerHTML = `${esc(t("Replay"))} · ${esc(summary.title)}<span class="table-id"> · ${esc(t("table {id}", { id: tableId }))}</span>`;
    perspectives(summary.players);
    await load("all");
  } catch (error) {
    fail(error);
  }
}

function fail(error) {
  $("game").innerHTML = `<div class="card-panel"><h2>${esc(t("Cannot replay"))}</h2><p>${esc(errorText(error))}</p><p><a href="/">${esc(t("Back to the lobby"))}</a></p></div>`;
}

start();
