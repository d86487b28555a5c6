// The generic renderer, used for a game that has no renderer of its own yet.
//
// THE RENDERER INTERFACE — a game plugs into the browser client with one file in its own
// package, web/game.js (served as /static/games/<game>/game.js, beside web/game.css), an
// ES module whose default export is an object with one method:
//
//   render(root, ctx)
//     Draw the whole game into `root` (a <div> the renderer owns), replacing what was there.
//     Called again after every change. It must show only what ctx holds: no rules, no state.
//
//   ctx = {
//     view,      the viewer's view from the server (state.view(seat)); JSON
//     legal,     the viewer's legal actions as JSON (e.g. {"type": "play", "card": "ring-6b"});
//                [] for spectators, in replays and while an action is on its way
//     seat,      the viewer's seat number, or null for a spectator
//     seats,     [{seat, name, kind: "human"|"bot", bot, connected}]
//     toAct,     the seats that must act now
//     clockMs,   real-time games: the server's game time at this frame (null otherwise)
//     mode,      "play" or "replay"
//     views,     in a replay of "everything": one view per seat (else undefined)
//     send(action)  send one of `legal` (absent in replays)
//   }
//
// Clicking any element inside root that carries data-action='{"type": …}' (the JSON of one
// legal action) sends that action: renderers mark elements and need no click handlers.
// A game's stylesheet is game.css beside its game.js (the page links it with the renderer);
// the page's CSS variables (--gold, --panel, …) are there to use. The log, the seats, the result and "play again" are drawn by the page.
//
// Cards that carry data-card="<id>" glide when they move between drawings (common.js
// animateCards), and not at all under prefers-reduced-motion. A game whose one action can
// set off a chain (an Alarm's police cars and raid, a round's reveal, steals and safes) can
// have the chain told step by step: render through motion.js narrate(root, ctx, draw,
// story), where story(items, before, after, ctx) turns the frame's new events (with their
// log lines) into views of the board step by step — see motion.js and the Thieves! and
// Der Schattendieb renderers. While a step is on show ctx.narrating is true and ctx.legal
// is empty.

import { esc } from "/static/js/common.js";

export default {
  render(root, ctx) {
    const acts = ctx.legal.map((a) =>
      `<button data-action='${esc(JSON.stringify(a))}'>${esc(describe(a))}</button>`).join("");
    root.innerHTML = `<div class="generic card-panel">
      <h2>${ctx.seat === null ? "Spectating" : `You are ${esc(ctx.seats?.[ctx.seat]?.name ?? "seat " + (ctx.seat + 1))}`}</h2>
      ${acts ? `<div class="acts">${acts}</div>` : `<p class="help">Waiting for ${ctx.toAct.map((s) => esc(ctx.seats?.[s]?.name ?? s)).join(", ") || "nobody"}.</p>`}
      <pre>${esc(JSON.stringify(ctx.view, null, 1))}</pre>
    </div>`;
  },
};

function describe(action) {
  return Object.entries(action).map(([k, v]) => (k === "type" ? v : `${k}: ${JSON.stringify(v)}`)).join(" · ");
}
