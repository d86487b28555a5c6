// Schatz-Rabatz's renderer: the shared pool, your chest seen from the side, the other chests,
// the hourglass on the server's clock, and the scoring in steps. It follows the renderer
// interface in generic.js: render(root, ctx) draws what ctx holds, and every action it sends
// is one of ctx.legal (clicks on data-action elements, or ctx.send from the keyboard).
//
// Keys: ↑/↓ (W/S) pick a treasure · R rotate (Shift+R back) · ←/→ (A/D) column ·
// Enter/Space drop · C close the lid · Y (or Enter) ready after the scoring.
// The pointer works too: click a treasure in the pool, hover a column, click to drop.
// Touch (and any pointer): drag a treasure from the pool (or the picked one, or its preview
// in the chest) over the chest: the preview follows the column under the finger, and
// letting go over the chest drops it there (if that drop is legal and the hand is ready);
// letting go anywhere else drops nothing. A tap on the picked treasure (or a finger's on its
// preview) turns it; a tap on a column drops there.
//
// The page's state here is only the pick (treasure, rotation, column), the drop on its way
// (to tell a lost race), the clock anchor and the reveal's steps; everything else is ctx.

import { announce, esc, eventData, germanSeats, resultName, sameForm } from "/static/js/common.js";
import { addGerman, t } from "/static/js/i18n.js";

// German: the game is German (Noris), so the treasures and ship parts have German names.
addGerman({
  "circle": "Kreis", "hexagon": "Sechseck", "ring": "Ring", "pearls": "Perlen",
  "goblet": "Kelch", "sword": "Schwert", "gold bar": "Goldbarren", "crown": "Krone",
  "red": "rot", "blue": "blau", "green": "grün", "yellow": "gelb", "purple": "lila",
  "{colour} {shape}": "{shape} ({colour})",
  "bow": "Bug", "middle A": "Mittelteil A", "middle B": "Mittelteil B", "stern": "Heck",
  "someone else": "jemand anderen",
  "Too slow! The {what} went to {who} first — pick another.": "Zu langsam! {what} ging zuerst an {who} — nimm einen anderen.",
  "Your hand is not ready yet: {s} s to wait between two drops.": "Deine Hand ist noch nicht bereit: {s} s Pause zwischen zwei Würfen.",
  "That drop would rest wholly on top of the rim: move or turn it.": "So läge er ganz über dem Rand: verschieb oder dreh ihn.",
  "Nothing picked: the pool is empty — close your lid (C).": "Nichts gewählt: Der Haufen ist leer — schließ deinen Deckel (C).",
  "your chest": "deine Schatzkiste", "a chest": "eine Schatzkiste",
  "{chest}, lid open": "{chest}, Deckel offen", "{chest}, lid closed": "{chest}, Deckel zu",
  "1 treasure": "1 Schatz", "{n} treasures": "{n} Schätze",
  "columns filled to {heights} (the rim at {depth})": "Spalten gefüllt bis {heights} (der Rand bei {depth})",
  "Hourglass:": "Sanduhr:", "{s} seconds left on the hourglass": "Noch {s} Sekunden auf der Sanduhr",
  "game over": "Spiel vorbei", "time's up": "Zeit um", "waits for the first lid": "wartet auf den ersten Deckel", "waits for everyone": "wartet auf alle",
  " (you)": " (du)", "none left": "keins mehr übrig",
  "Round {n} — the scoring": "Runde {n} — die Wertung", "Last round ({n})": "Letzte Runde ({n})",
  "Every lid is closed; what stuck out above the rim is taken out.": "Alle Deckel sind zu; was über den Rand ragte, wird herausgenommen.",
  "Jack-board {board} is turned": "Jacks Tafel {board} wird umgedreht", ": it claims": ": sie beansprucht",
  "The most treasures left: {who} with {n}.": "Die meisten Schätze übrig: {who} mit {n}.",
  "taken out": "heraus\u00ADgenommen", "Jack claims": "Jack nimmt", "count": "Zahl", "ship part": "Schiffs\u00ADteil",
  " (needed)": " (fehlt)", "ship parts: {n} of {total}": "Schiffsteile: {n} von {total}",
  "packing": "packt", "lid closed": "Deckel zu", "✓ ready": "✓ bereit", "counting…": "zählt …",
  "you": "du", " and ": " und ",
  "A ship is complete! {who} win.": "Ein Schiff ist fertig! {who} gewinnen.", "A ship is complete! {who} wins.": "Ein Schiff ist fertig! {who} gewinnt.",
  "A ship is complete! You win.": "Ein Schiff ist fertig! Du gewinnst.",
  "Round {n}, {phase}.": "Runde {n}, {phase}.", "You are watching.": "Du schaust zu.",
  "Your lid is closed. Waiting for the others and the hourglass…": "Dein Deckel ist zu. Warte auf die anderen und die Sanduhr …",
  "The pool is empty: close your lid (C).": "Der Haufen ist leer: Schließ deinen Deckel (C).",
  "Pack! ↑↓ pick · R rotate · ←→ or hover a column · Enter/Space/click drop · C close the lid": "Packen! ↑↓ wählen · R drehen · ←→ oder Maus über eine Spalte · Enter/Leertaste/Klick fallen lassen · C Deckel schließen",
  "Round counted. Ready for the next round? Press Y (or Enter).": "Runde gezählt. Bereit für die nächste Runde? Drück Y (oder Enter).",
  "the next round": "die nächste Runde", "You are ready. Waiting for {who}…": "Du bist bereit. Warte auf {who} …",
  " (no room for it)": " (kein Platz dafür)", " — Jack's board claims it": " — Jacks Tafel beansprucht ihn",
  "The pile": "Der Haufen", "{n} left": "noch {n}",
  "Tap again to close the lid": "Nochmal tippen: Deckel schließen",
  "Enter or Space": "Enter oder Leertaste", "Drop ⏎": "Fallen lassen ⏎", "Close the lid (C)": "Deckel schließen (C)",
  "turned {deg}° · column {col}": "gedreht {deg}° · Spalte {col}",
  "sticks out above the rim: it comes out when you close": "ragt über den Rand: kommt beim Schließen heraus",
  "no room there": "dort ist kein Platz", "Nothing to pick.": "Nichts zu wählen.",
  "column left (←)": "Spalte links (←)", "⟳ Rotate (R)": "⟳ Drehen (R)", "rotate (R)": "drehen (R)", "column right (→)": "Spalte rechts (→)",
  "your hand is busy: ready in {s} seconds": "deine Hand ist beschäftigt: bereit in {s} Sekunden",
  "A hand needs {ms} ms between two drops": "Eine Hand braucht {ms} ms zwischen zwei Würfen",
  "bot": "Bot", "treasures in the chest": "Schätze in der Schatzkiste",
  "Ready for round {n} (Y)": "Bereit für Runde {n} (Y)", "Ship": "Schiff", "Round": "Runde",
  "the turned Jack-board": "die umgedrehte Tafel von Jack", "Jack-board": "Jacks Tafel",
  "face-down Jack-boards": "verdeckte Tafeln von Jack", "1 board": "1 Tafel", "{n} boards": "{n} Tafeln",
  "Little Pirates": "Kleine Piraten", "Big Pirates": "Große Piraten",
  "Not dropped: let go over your chest to drop it there.": "Nicht fallen gelassen: Lass ihn über deiner Schatzkiste los, um ihn dort fallen zu lassen.",
  "Pack! Drag a treasure onto a column of your chest · tap it to rotate · close the lid when you are done": "Packen! Zieh einen Schatz auf eine Spalte deiner Schatzkiste · tippe ihn an zum Drehen · schließ den Deckel, wenn du fertig bist",
  "The pool is empty: close your lid.": "Der Haufen ist leer: Schließ deinen Deckel.",
  "Round counted. Ready for the next round?": "Runde gezählt. Bereit für die nächste Runde?",
  "drag onto your chest · tap to rotate": "auf deine Schatzkiste ziehen · antippen zum Drehen",
  "scored": "gewertet", "over": "vorbei", "ship:": "Schiff:",
});


// ------------------------------------------------------------------ components

// The treasure shapes in rotation 0, as (x, y) cells seen from the side, y upward. A copy
// of the shapes in thievery/games/schatz_rabatz/data/components.toml; a view that carries
// `shapes` wins.
const SHAPES = {
  circle: [[0, 0]],
  hexagon: [[0, 0], [1, 0]],
  ring: [[0, 0], [1, 0], [0, 1]],
  pearls: [[0, 0], [1, 0], [2, 0]],
  goblet: [[1, 0], [0, 1], [1, 1], [2, 1]],
  sword: [[0, 0], [1, 0], [2, 0], [3, 0]],
  goldbar: [[0, 0], [1, 0], [0, 1], [1, 1]],
  crown: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1]],
};
const SHAPE_WORDS = {
  circle: "circle", hexagon: "hexagon", ring: "ring", pearls: "pearls",
  goblet: "goblet", sword: "sword", goldbar: "gold bar", crown: "crown",
};
const COLOURS = {
  red: { fill: "#e2483d", dark: "#8e1f17", light: "#ff9b8f" },
  blue: { fill: "#3f7fe6", dark: "#173f86", light: "#9cc2ff" },
  green: { fill: "#37b26c", dark: "#14643a", light: "#9ae8b9" },
  yellow: { fill: "#f2c61f", dark: "#8a6a05", light: "#fff0a6" },
  purple: { fill: "#9a5bd6", dark: "#52227f", light: "#d6b4ff" },
};
// (the engine's data.part_words; tests/games/schatz_rabatz/test_web_words.py keeps them alike)
const PART_WORDS = { bow: "bow", "middle-a": "middle A", "middle-b": "middle B", stern: "stern" };
const partWords = (p) => (PART_WORDS[p] ? t(PART_WORDS[p]) : p);
// German, with its article as the log says it (accusative: "nimmt den Bug"; lang_de.THE_PARTS)
const THE_PARTS_DE = { bow: "den Bug", "middle-a": "das Mittelteil A", "middle-b": "das Mittelteil B", stern: "das Heck" };
const ABOVE = 3; // rows drawn above the rim (a treasure resting on the rim sticks out ≤ 3)
const STEP_MS = 750; // the scoring's steps

/** A treasure id as its shape and colour: "crown-red" → {shape: "crown", colour: "red"}. */
function parse(id) {
  const i = String(id).lastIndexOf("-");
  return { shape: id.slice(0, i), colour: id.slice(i + 1) };
}

/** A Jack-board by its number, as players name it: "jack-5" -> "5" (see data.board_number). */
function boardNumber(id) {
  return String(id).replace(/^jack-/, "");
}

function words(id) {
  const { shape, colour } = parse(id);
  return t("{colour} {shape}", { colour: t(colour), shape: SHAPE_WORDS[shape] ? t(SHAPE_WORDS[shape]) : shape });
}

// Rotations as the engine turns them: (x, y) → (y, −x), moved to start at (0, 0), sorted.
function rotate(cells, quarter) {
  let out = cells.map(([x, y]) => [x, y]);
  for (let i = 0; i < quarter % 4; i++) out = out.map(([x, y]) => [y, -x]);
  const mx = Math.min(...out.map((c) => c[0]));
  const my = Math.min(...out.map((c) => c[1]));
  return out.map(([x, y]) => [x - mx, y - my]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

const orientCache = new Map();
/** Per shape: four orientations {cells, width, height, bottoms} and the canonical rotations. */
function orientations(shapes, shape) {
  const key = shape + JSON.stringify(shapes[shape]);
  if (orientCache.has(key)) return orientCache.get(key);
  const os = [0, 1, 2, 3].map((r) => {
    const cells = rotate(shapes[shape], r);
    const width = Math.max(...cells.map((c) => c[0])) + 1;
    const height = Math.max(...cells.map((c) => c[1])) + 1;
    const bottoms = Array.from({ length: width }, (_, x) => Math.min(...cells.filter((c) => c[0] === x).map((c) => c[1])));
    return { cells, width, height, bottoms };
  });
  const same = (a, b) => JSON.stringify(a.cells) === JSON.stringify(b.cells);
  const canonical = os.map((o) => os.findIndex((p) => same(o, p)));
  const found = { os, canonical };
  orientCache.set(key, found);
  return found;
}

// ------------------------------------------------------------------ page state

const ui = {
  ctx: null,
  root: null,
  roots: new WeakSet(),
  sel: null, // the picked treasure id
  rotation: 0,
  column: 0,
  sent: null, // {action, sig, tries}: a drop on its way
  msg: null, // {text, kind, until}
  anchor: null, // {now_ms, at}: the server's game time at a moment of performance.now()
  reveal: null, // {key, start}
  timer: null,
  lastStep: -1,
  handBusy: false, // the seat's hand was busy at the last drawing
  warned: "", // the hourglass said to be running out (screen readers): round and end
  lidArmed: -Infinity, // when a finger first tapped Close the lid (a second tap soon after closes it)
  pointer: "", // the last press's pointer ("touch", "mouse", "pen"): some browsers' clicks lack it
};

// On a touch screen Close the lid sits under Drop and cannot be undone: while treasures are
// left to pick, a tap arms it and a second tap within this long closes (a key, a mouse or
// an empty pool close at once).
const LID_TAP_MS = 3000;

const WARN_MS = 10_000; // screen readers are told when this much sand is left

function shapesOf(view) {
  return view.shapes || SHAPES;
}

/** The server's game time now, from the last time the view moved (ms). */
function serverNow() {
  if (!ui.anchor) return 0;
  if (ui.frozen || ui.absent) return ui.anchor.now_ms; // a replay; a clock not started yet
  return ui.anchor.now_ms + (performance.now() - ui.anchor.at);
}

function legalIndex(ctx) {
  const drops = new Map();
  const fits = new Set();
  let close = null;
  let ready = null;
  for (const a of ctx.legal) {
    if (a.type === "drop") {
      drops.set(`${a.treasure}|${a.rotation}|${a.column}`, a);
      fits.add(a.treasure);
    } else if (a.type === "close") close = a;
    else if (a.type === "ready") ready = a;
  }
  return { drops, fits, close, ready };
}

/** Hands have a speed: how long (ms) until this seat's hand may drop again (0: now). */
function handWait(view) {
  return view.hand_ready_ms == null ? 0 : Math.max(0, view.hand_ready_ms - serverNow());
}

/**
 * The drop of `id` (orientation index `r`) at `column`: the legal one from the server, or,
 * when the frame came while the seat's hand was busy (its legal list then holds no drop),
 * the same drop worked out here once the hand is ready (the server checks it on arrival).
 * Returns {action (sendable now, or null), fits (legal with a ready hand)}.
 */
function dropAt(ctx, idx, id, r, column) {
  const v = ctx.view;
  const { os, canonical } = orientations(shapesOf(v), parse(id).shape);
  const rotation = canonical[r];
  const listed = idx.drops.get(`${id}|${rotation}|${column}`) || null;
  if (listed || v.hand_ready_ms == null || ctx.seat === null) return { action: listed, fits: !!listed };
  const o = os[r];
  const heights = v.chests[ctx.seat].heights;
  const row = Math.max(...o.bottoms.map((b, i) => heights[column + i] - b));
  const fits = v.pool.includes(id) && column + o.width <= v.width && row < v.depth;
  const action = fits && handWait(v) === 0 ? { type: "drop", treasure: id, rotation, column } : null;
  return { action, fits };
}

/** The picked treasure's orientation, its clamped column, the drop (or null), the ghost. */
function current(ctx, idx) {
  const v = ctx.view;
  if (!ui.sel || !v.pool.includes(ui.sel)) return null;
  const { shape } = parse(ui.sel);
  const { os } = orientations(shapesOf(v), shape);
  const o = os[ui.rotation];
  ui.column = Math.max(0, Math.min(ui.column, v.width - o.width));
  const { action, fits } = dropAt(ctx, idx, ui.sel, ui.rotation, ui.column);
  let ghost = null;
  if (ctx.seat !== null && v.chests[ctx.seat]?.open) {
    const heights = v.chests[ctx.seat].heights;
    const row = Math.max(...o.bottoms.map((b, i) => heights[ui.column + i] - b));
    const cells = o.cells.map(([x, y]) => [ui.column + x, row + y]);
    ghost = { row, cells, sticksOut: row + o.height > v.depth, onTop: row >= v.depth };
  }
  return { o, action, fits, ghost };
}

/** Keep the pick on a treasure still in the pool: the next one in pool order if it went. */
function keepPick(view) {
  const pool = view.pool;
  if (!pool.length) { ui.sel = null; return; }
  if (ui.sel && pool.includes(ui.sel)) return;
  const all = allTreasures(view);
  const after = ui.sel ? all.indexOf(ui.sel) : -1;
  ui.sel = pool.find((t) => all.indexOf(t) > after) || pool[0];
}

function allTreasures(view) {
  return Object.keys(shapesOf(view)).flatMap((s) => Object.keys(COLOURS).map((c) => `${s}-${c}`));
}

function stepPick(view, step) {
  const pool = view.pool;
  if (!pool.length) return;
  const i = Math.max(0, pool.indexOf(ui.sel));
  ui.sel = pool[(i + step + pool.length) % pool.length];
}

function say(text, kind = "info", ms = 4000) {
  ui.msg = { text, kind, until: performance.now() + ms };
}

function holderOf(view, id) {
  for (let s = 0; s < view.players; s++) {
    if (view.chests[s].treasures.some((t) => t.id === id) || view.out[s].includes(id) || view.jack[s].includes(id)) return s;
  }
  return null;
}

function name(ctx, seat) {
  const s = ctx.seats?.[seat];
  return esc(s ? s.name : `Seat ${seat}`);
}

/** Did the drop on its way land, lose the race, or need sending again? */
function followSent(ctx) {
  const sent = ui.sent;
  if (!sent || ctx.seat === null) return;
  const v = ctx.view;
  const id = sent.action.treasure;
  if (v.chests[ctx.seat].treasures.some((t) => t.id === id) || v.out[ctx.seat].includes(id)) {
    ui.sent = null; // it landed
    if (ui.msg?.kind !== "lost") ui.msg = null;
    return;
  }
  if (!ctx.legal.length) return; // still on its way
  if (!v.pool.includes(id)) {
    const holder = holderOf(v, id);
    say(t("Too slow! The {what} went to {who} first — pick another.", { what: words(id), who: holder === null ? t("someone else") : name(ctx, holder) }), "lost", 5000);
    ui.sent = null;
    return;
  }
  const want = sameForm(sent.action); // (a welcome's keys in the game's order, an update's sorted)
  const again = ctx.legal.find((a) => sameForm(a) === want);
  if (!again) { ui.sent = null; return; }
  // Another seat moved before the drop arrived: it was refused as made against an older
  // version, so send it again (once per such move). A frame where only the clock moved
  // comes just before the drop itself is applied: keep waiting then.
  const now = signature(v);
  if (now !== sent.sig && sent.tries < 4 && ctx.send) {
    ui.sent = { action: again, sig: now, tries: sent.tries + 1 };
    queueMicrotask(() => ctx.send(again));
  }
}

/** What other seats can change while a drop is on its way: the pool and the chests. */
function signature(view) {
  return `${view.phase}|${view.pool.join(",")}|${view.chests.map((c) => `${c.open ? "o" : "c"}${c.treasures.length}`).join(",")}`;
}

function sendDrop(ctx, action) {
  ui.sent = { action, sig: signature(ctx.view), tries: 0 };
  ctx.send(action);
}

// ------------------------------------------------------------------ input

function listen(root) {
  if (ui.roots.has(root)) return;
  ui.roots.add(root);
  root.addEventListener("pointerdown", (event) => {
    ui.pointer = event.pointerType;
    pressed(root, event);
  });
  root.addEventListener("click", (event) => {
    if (performance.now() < drag.eatUntil) { // the click a drag or a tap leaves: handled
      drag.eatUntil = 0;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    const act = event.target.closest("[data-action]");
    if (act && root.contains(act)) {
      // (a key's click has no detail: keys close at once)
      const finger = event.detail > 0 && (event.pointerType || ui.pointer) === "touch";
      if (act.classList.contains("sr-close") && finger && ui.ctx?.view.pool?.length && !lidArmed()) {
        event.preventDefault();
        event.stopPropagation(); // (not sent: armed)
        ui.lidArmed = performance.now();
        redraw();
        setTimeout(redraw, LID_TAP_MS); // (unarmed again)
        return;
      }
      try {
        const a = JSON.parse(act.dataset.action);
        if (a.type === "drop" && ui.ctx) ui.sent = { action: a, sig: signature(ui.ctx.view), tries: 0 };
      } catch { /* not ours */ }
      return; // the page sends it
    }
    const pick = event.target.closest("[data-pick]");
    if (pick && root.contains(pick)) {
      ui.sel = pick.dataset.pick;
      redraw();
      return;
    }
    const cmd = event.target.closest("[data-ui]");
    if (cmd && root.contains(cmd)) command(cmd.dataset.ui);
  }, true);
  root.addEventListener("mouseover", (event) => {
    const col = event.target.closest("[data-col]");
    if (!col || !ui.ctx) return;
    const c = Number(col.dataset.col);
    if (c !== ui.hoverCol) {
      ui.hoverCol = c;
      ui.column = c;
      redraw();
    }
  });
  root.addEventListener("mouseleave", () => { ui.hoverCol = null; });
}

// ------------------------------------------------------------------ dragging (touch and mouse)

const DRAG_PX = 8; // how far a press moves before it is a drag, not a tap
const drag = {
  on: null, // {id, pointerId, x, y, from: "pool"|"pick"|"ghost", column, moved, touch, ghost}
  eatUntil: 0, // until when the click a drag or a tap leaves behind is not a click
  image: null, // the treasure under the finger (in document.body: redraws leave it)
};

/** Whether the seat may pick and drop now (packing, lid open, playing). */
function canPack(ctx) {
  const v = ctx?.view;
  return !!v && ctx.mode === "play" && ctx.seat !== null && v.phase === "packing" && !!v.chests[ctx.seat]?.open && !ctx.narrating;
}

/** The cell of my chest under a point (x from the left wall, y up from the floor), or null. */
function chestCell(x, y) {
  const svg = ui.root?.querySelector(".sr-chest.me .sr-chest-svg");
  const v = ui.ctx?.view;
  if (!svg || !v) return null;
  const box = svg.getBoundingClientRect();
  const cs = box.height / (v.depth + ABOVE + 0.3); // the chest's drawing: rows of cs and a wall of 0.3 cs
  const wall = Math.max(4, cs * 0.3);
  const cx = Math.floor((x - box.left - wall) / cs);
  const cy = v.depth + ABOVE - 1 - Math.floor((y - box.top) / cs);
  if (x < box.left || x > box.right || y < box.top || y > box.bottom) return null;
  return { x: Math.max(0, Math.min(v.width - 1, cx)), y: cy };
}

/** The column under a point over my chest (the columns the chest offers), or null. */
function columnAt(x, y) {
  const col = document.elementFromPoint(x, y)?.closest?.(".sr-chest.me [data-col]");
  return col ? Number(col.dataset.col) : null;
}

/** Whether a point is on the preview's cells. */
function onGhost(x, y) {
  const ghost = ui.root?.querySelector(".sr-chest.me .sr-ghost");
  const cell = chestCell(x, y);
  if (!ghost || !cell) return false;
  return JSON.parse(ghost.dataset.cells || "[]").some(([cx, cy]) => cx === cell.x && cy === cell.y);
}

function pressed(root, event) {
  if (!event.isPrimary || event.button > 0 || !canPack(ui.ctx)) return;
  const mine = event.target.closest(".sr-chest.me");
  const slot = event.target.closest("[data-pick]");
  const art = event.target.closest(".sr-pick-art");
  let from = null;
  if (slot && root.contains(slot)) from = "pool";
  else if (art && ui.sel) from = "pick";
  else if (mine && ui.sel) from = onGhost(event.clientX, event.clientY) ? "ghost" : "chest";
  if (!from) return;
  const touch = event.pointerType !== "mouse";
  // No text selection while dragging from the pile or the pick (a tap there is handled on
  // the way up). In the chest the click still counts: a tap on a column drops there.
  if (from === "pool" || from === "pick") event.preventDefault();
  drag.on = {
    id: from === "pool" ? slot.dataset.pick : ui.sel, pointerId: event.pointerId, x: event.clientX, y: event.clientY,
    from, column: ui.column, moved: false, touch,
  };
  document.addEventListener("pointermove", moved);
  document.addEventListener("pointerup", released);
  document.addEventListener("pointercancel", cancelled);
}

function moved(event) {
  const d = drag.on;
  if (!d || event.pointerId !== d.pointerId) return;
  if (!d.moved) {
    if (Math.hypot(event.clientX - d.x, event.clientY - d.y) < DRAG_PX || (d.from === "chest" && !d.touch)) return;
    d.moved = true;
    // The root keeps the pointer while the drag lasts (the pressed element is redrawn away;
    // a mouse let go outside the window still ends the drag).
    try { ui.root?.setPointerCapture(event.pointerId); } catch { /* the pointer is gone */ }
    if (d.id !== ui.sel) ui.sel = d.id;
    document.body.classList.add("sr-dragging");
    drag.image = document.createElement("div");
    drag.image.className = "sr-drag-image";
    drag.image.setAttribute("aria-hidden", "true");
    drag.image.innerHTML = loose(ui.ctx.view, d.id, ui.rotation, 22);
    document.body.append(drag.image);
    redraw();
  }
  event.preventDefault();
  drag.image.style.transform = `translate(${event.clientX}px, ${event.clientY}px) translate(-50%, -50%)`;
  const column = columnAt(event.clientX, event.clientY);
  const over = column !== null;
  drag.image.classList.toggle("over", over);
  if (over && column !== ui.column) {
    ui.column = column;
    redraw();
  }
}

function released(event) {
  const d = drag.on;
  if (!d || event.pointerId !== d.pointerId) return;
  endDrag();
  if (!canPack(ui.ctx)) return;
  if (!d.moved) {
    // A tap: on the picked treasure or its preview it turns it; on another treasure in the
    // pool it picks that one; on a column of the chest it drops there (the click does that).
    if (d.from === "pick" || (d.from === "ghost" && d.touch) || (d.from === "pool" && d.id === ui.sel)) {
      drag.eatUntil = performance.now() + 400;
      command("rotate");
    } else if (d.from === "pool") {
      drag.eatUntil = performance.now() + 400;
      ui.sel = d.id;
      redraw();
    }
    return;
  }
  drag.eatUntil = performance.now() + 400; // a mouse's drag ends in a click where it was let go
  const column = columnAt(event.clientX, event.clientY);
  if (column === null) {
    ui.column = d.column;
    say(t("Not dropped: let go over your chest to drop it there."), "info", 1800);
    redraw();
    return;
  }
  ui.column = column;
  command("go"); // legal, the hand ready: sent; else the reason, and nothing sent
}

function cancelled(event) {
  if (!drag.on || event.pointerId !== drag.on.pointerId) return;
  const d = drag.on;
  endDrag();
  if (d.moved) {
    ui.column = d.column;
    redraw();
  }
}

function endDrag() {
  drag.on = null;
  drag.image?.remove();
  drag.image = null;
  document.body.classList.remove("sr-dragging");
  document.removeEventListener("pointermove", moved);
  document.removeEventListener("pointerup", released);
  document.removeEventListener("pointercancel", cancelled);
}

const KEYS = {
  ArrowUp: "prev", w: "prev", ArrowDown: "next", s: "next",
  ArrowLeft: "left", a: "left", ArrowRight: "right", d: "right",
  r: "rotate", R: "back", Enter: "go", " ": "go", c: "close", y: "ready",
};

document.addEventListener("keydown", (event) => {
  if (!ui.ctx || !ui.root?.isConnected || ui.ctx.mode !== "play" || ui.ctx.seat === null) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
  // A dialog open (How to play, the end of the game): the game behind it takes no keys.
  if (document.querySelector('[aria-modal="true"]')) return;
  // Enter and Space press a focused button or link, the board's own too (Rotate, Close
  // the lid): they dropped a treasure instead. On anything else they drop.
  const pressed = event.key === "Enter" || event.key === " ";
  if (pressed && event.target.closest?.("button, a, summary, [data-action], [data-ui]")) return;
  const key = event.key.length === 1 && event.key !== "R" ? event.key.toLowerCase() : event.key;
  const what = KEYS[key] || (event.shiftKey && key === "r" ? "back" : null);
  if (!what) return;
  event.preventDefault();
  command(what);
});

function command(what) {
  const ctx = ui.ctx;
  if (!ctx) return;
  const v = ctx.view;
  const idx = legalIndex(ctx);
  if (what === "prev" || what === "next") stepPick(v, what === "prev" ? -1 : 1);
  else if (what === "rotate") ui.rotation = (ui.rotation + 1) % 4;
  else if (what === "back") ui.rotation = (ui.rotation + 3) % 4;
  else if (what === "left") ui.column = Math.max(0, ui.column - 1);
  else if (what === "right") ui.column += 1;
  else if (what === "close") {
    if (idx.close && ctx.send) ctx.send(idx.close);
    return;
  } else if (what === "ready" || (what === "go" && v.phase !== "packing")) {
    if (idx.ready && ctx.send) ctx.send(idx.ready);
    return;
  } else if (what === "go") {
    if (!ctx.send || ctx.seat === null || !v.chests[ctx.seat].open) return;
    if (!ctx.legal.length) { say("Sending…", "info", 800); redraw(); return; }
    const wait = handWait(v);
    if (wait > 0) {
      say(t("Your hand is not ready yet: {s} s to wait between two drops.", { s: (wait / 1000).toFixed(1) }), "warn", 1500);
      redraw();
      return;
    }
    const cur = current(ctx, idx);
    if (cur?.action) sendDrop(ctx, cur.action);
    else {
      say(t(cur ? "That drop would rest wholly on top of the rim: move or turn it." : "Nothing picked: the pool is empty — close your lid (C)."), "warn", 2500);
      redraw();
    }
    return;
  }
  ui.hoverCol = null;
  redraw();
}

function redraw() {
  if (ui.root && ui.ctx && ui.root.isConnected) render(ui.root, ui.ctx);
}

// ------------------------------------------------------------------ drawing (our own SVG)

const ICONS = {
  circle: `<circle cx=".5" cy=".5" r=".2"/>`,
  hexagon: `<path d="M.3 .5 L.4 .33 H.6 L.7 .5 L.6 .67 H.4 Z"/>`,
  ring: `<circle cx=".5" cy=".56" r=".17" fill="none" stroke-width=".07"/><path d="M.42 .36 L.5 .26 L.58 .36 Z"/>`,
  pearls: `<circle cx=".3" cy=".5" r=".09"/><circle cx=".5" cy=".5" r=".09"/><circle cx=".7" cy=".5" r=".09"/>`,
  goblet: `<path d="M.3 .28 H.7 Q.68 .5 .53 .55 V.68 H.64 V.74 H.36 V.68 H.47 V.55 Q.32 .5 .3 .28 Z"/>`,
  sword: `<path d="M.5 .2 L.55 .3 V.6 H.64 V.65 H.55 V.8 H.45 V.65 H.36 V.6 H.45 V.3 Z"/>`,
  goldbar: `<path d="M.28 .66 L.36 .36 H.64 L.72 .66 Z"/>`,
  crown: `<path d="M.26 .7 V.34 L.38 .5 L.5 .28 L.62 .5 L.74 .34 V.7 Z"/>`,
};

/**
 * One treasure as SVG: its cells (grid coords, y up), drawn in a box `rows` high.
 * opts: {cell, cls, attrs, ghost, bad}
 */
function piece(id, cells, rows, opts = {}) {
  const cs = opts.cell || 24;
  const { shape, colour } = parse(id);
  const col = COLOURS[colour] || { fill: "#888", dark: "#333", light: "#ccc" };
  const has = new Set(cells.map(([x, y]) => `${x},${y}`));
  const X = (x) => x * cs;
  const Y = (y) => (rows - 1 - y) * cs;
  const pad = Math.max(1, cs * 0.07);
  const parts = [];
  for (const [x, y] of cells) {
    parts.push(`<rect x="${X(x) + pad}" y="${Y(y) + pad}" width="${cs - 2 * pad}" height="${cs - 2 * pad}" rx="${cs * 0.18}"/>`);
    if (!opts.ghost && has.has(`${x + 1},${y}`)) parts.push(`<rect x="${X(x) + cs / 2}" y="${Y(y) + pad}" width="${cs}" height="${cs - 2 * pad}"/>`);
    if (!opts.ghost && has.has(`${x},${y + 1}`)) parts.push(`<rect x="${X(x) + pad}" y="${Y(y + 1) + cs / 2}" width="${cs - 2 * pad}" height="${cs}"/>`);
  }
  const [ax, ay] = cells.reduce((best, c) => (c[1] < best[1] || (c[1] === best[1] && c[0] < best[0]) ? c : best), cells[0]);
  const icon = opts.ghost || cs < 12 ? "" : `<g transform="translate(${X(ax)} ${Y(ay)}) scale(${cs})" fill="${col.light}" stroke="${col.light}" stroke-width=".03" opacity=".9">${ICONS[shape] || ""}</g>`;
  const body = parts.join("");
  // Outlined once around the whole treasure: a stroked copy under a plain one hides the
  // seams between its cells.
  const drawn = opts.ghost
    ? `<g fill="${opts.bad ? "rgba(255,90,80,.25)" : "rgba(255,255,255,.18)"}" stroke="${opts.bad ? "#ff6a5e" : "#fff"}" stroke-width="2" stroke-dasharray="4 3">${body}</g>`
    : `<g fill="${col.dark}" stroke="${col.dark}" stroke-width="${Math.max(1, cs * 0.1)}" stroke-linejoin="round">${body}</g><g fill="${col.fill}">${body}</g>`;
  return `<g class="${opts.cls || "sr-piece"}" ${opts.attrs || ""}>${drawn}${icon}</g>`;
}

/** A treasure on its own (for the pool and the pick), in an orientation. */
function loose(view, id, rotation = 0, cell = 16, extra = "") {
  const { os } = orientations(shapesOf(view), parse(id).shape);
  const o = os[rotation];
  return `<svg class="sr-loose" width="${o.width * cell}" height="${o.height * cell}" viewBox="0 0 ${o.width * cell} ${o.height * cell}" ${extra}>${piece(id, o.cells, o.height, { cell })}</svg>`;
}

/** A chest seen from the side: walls, the rim, treasures, the lid; the ghost and columns if mine. */
/** A chest in words, for screen readers (the picture is one image): its lid, how many
 * treasures it holds, and how high each column is filled, left to right. */
function chestWords(view, seat, mine) {
  const chest = view.chests[seat];
  const heights = Array.from({ length: view.width }, () => 0);
  for (const tr of chest.treasures) for (const [x, y] of tr.cells) heights[x] = Math.max(heights[x], y + 1);
  const n = chest.treasures.length;
  return [
    t(chest.open ? "{chest}, lid open" : "{chest}, lid closed", { chest: t(mine ? "your chest" : "a chest") }),
    n === 1 ? t("1 treasure") : t("{n} treasures", { n }),
    t("columns filled to {heights} (the rim at {depth})", { heights: heights.join(", "), depth: view.depth }),
  ].join("; ");
}

function chestSVG(ctx, seat, cs, mine, cur, idx) {
  const v = ctx.view;
  const chest = v.chests[seat];
  const W = v.width;
  const D = v.depth;
  const rows = D + ABOVE;
  const wall = Math.max(4, cs * 0.3);
  const w = W * cs + 2 * wall;
  const h = rows * cs + wall;
  const inner = `translate(${wall} 0)`;
  const rimY = ABOVE * cs;
  const treasures = chest.treasures.map((t) => piece(t.id, t.cells, rows, { cell: cs, attrs: `data-treasure="${esc(t.id)}" data-cells='${esc(JSON.stringify(t.cells))}'` })).join("");
  let ghost = "";
  let cols = "";
  if (mine && cur?.ghost && chest.open) {
    const g = cur.ghost;
    const bad = !cur.fits;
    ghost = piece(ui.sel, g.cells, rows, { cell: cs, ghost: true, bad, cls: `sr-ghost ${bad ? "bad" : g.sticksOut ? "warn" : "ok"}`, attrs: `data-cells='${esc(JSON.stringify(g.cells))}' data-row="${g.row}"` });
    const sx = ui.column * cs;
    ghost = `<rect class="sr-lane" x="${sx}" y="0" width="${cur.o.width * cs}" height="${rows * cs}"/>` + ghost;
  }
  if (mine && chest.open && ui.sel && v.phase === "packing") {
    const { os } = orientations(shapesOf(v), parse(ui.sel).shape);
    const o = os[ui.rotation];
    for (let c = 0; c < W; c++) {
      const left = Math.min(c, W - o.width);
      const a = dropAt(ctx, idx, ui.sel, ui.rotation, left).action;
      const act = a ? ` data-action='${esc(JSON.stringify(a))}'` : "";
      cols += `<rect class="sr-col" data-col="${left}" x="${c * cs}" y="0" width="${cs}" height="${rows * cs}"${act}/>`;
    }
  }
  const grid = [];
  for (let c = 1; c < W; c++) grid.push(`<line x1="${c * cs}" y1="${rimY}" x2="${c * cs}" y2="${rows * cs}"/>`);
  for (let r = 1; r < D; r++) grid.push(`<line x1="0" y1="${rimY + r * cs}" x2="${W * cs}" y2="${rimY + r * cs}"/>`);
  const lid = chest.open
    ? `<g class="sr-lid open"><rect x="${-wall}" y="${rimY - wall * 1.2}" width="${wall * 1.6}" height="${wall * 1.2}" rx="2"/></g>`
    : `<g class="sr-lid shut"><rect x="${-wall}" y="${rimY - wall * 1.6}" width="${W * cs + 2 * wall}" height="${wall * 1.6}" rx="${wall / 2}"/><circle cx="${W * cs / 2}" cy="${rimY - wall * 0.8}" r="${wall * 0.45}" /></g>`;
  return `<svg class="sr-chest-svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(chestWords(v, seat, mine))}">
    <g transform="${inner}">
      <rect class="sr-above" x="0" y="0" width="${W * cs}" height="${rimY}"/>
      <rect class="sr-wood" x="${-wall}" y="${rimY}" width="${W * cs + 2 * wall}" height="${D * cs + wall}" rx="${wall / 2}"/>
      <rect class="sr-inside" x="0" y="${rimY}" width="${W * cs}" height="${D * cs}"/>
      <g class="sr-grid">${grid.join("")}</g>
      ${treasures}${ghost}
      <line class="sr-rim" x1="${-wall}" y1="${rimY}" x2="${W * cs + wall}" y2="${rimY}"/>
      ${lid}${cols}
    </g></svg>`;
}

const BOARD_ICON = `<svg width="14" height="18" viewBox="0 0 14 18" aria-hidden="true" style="vertical-align:-3px"><rect x="1" y="1" width="12" height="16" rx="2" fill="#2b3b6b" stroke="#9bb0e8"/><path d="M4 6 L7 3 L10 6 L7 9 Z M4 12 L7 9 L10 12 L7 15 Z" fill="#9bb0e8"/></svg>`;

function hourglassSVG() {
  return `<svg class="sr-glass" width="30" height="44" viewBox="0 0 30 44" aria-hidden="true">
    <defs><clipPath id="sr-top"><path d="M5 4 H25 L15 21 Z"/></clipPath><clipPath id="sr-bot"><path d="M15 23 L25 40 H5 Z"/></clipPath></defs>
    <path d="M5 4 H25 L15 21 Z M15 23 L25 40 H5 Z" fill="rgba(255,255,255,.08)"/>
    <rect class="sr-sand-top" clip-path="url(#sr-top)" x="0" y="4" width="30" height="17" fill="#f3d27f"/>
    <rect class="sr-sand-bot" clip-path="url(#sr-bot)" x="0" y="40" width="30" height="0" fill="#f3d27f"/>
    <path d="M4 2 H26 M4 42 H26" stroke="#b98a3c" stroke-width="3" stroke-linecap="round"/>
    <path d="M5 4 Q5 14 14 21.5 Q5 29 5 40 M25 4 Q25 14 16 21.5 Q25 29 25 40" fill="none" stroke="#d9c9a3" stroke-width="1.5"/>
  </svg>`;
}

/** The hourglass's reading now: {text, frac (sand left), hurry, running}. */
function glassNow(view) {
  const g = view.hourglass;
  if (view.phase !== "packing") return { text: t(view.phase === "over" ? "game over" : "time's up"), frac: 0, running: false };
  if (g.ends_ms === null) return { text: t("waits for the first lid"), frac: 1, running: false };
  if (ui.absent) return { text: t("waits for everyone"), frac: 1, running: false };
  const left = Math.max(0, g.ends_ms - serverNow());
  const frac = Math.min(1, left / Math.max(1, g.length_ms));
  return { text: `${(left / 1000).toFixed(1)} s`, frac, hurry: left < 5000, running: left > 0 };
}

function tickGlass() {
  const root = ui.root;
  if (!root || !root.isConnected || !ui.ctx) { stopLoop(); return; }
  const g = glassNow(ui.ctx.view);
  warnGlass(ui.ctx, g);
  const secs = root.querySelector(".sr-secs");
  if (secs) {
    secs.textContent = g.text;
    secs.classList.toggle("hurry", !!g.hurry);
    secs.classList.toggle("word", !g.running && !/^[\d.]+ s$/.test(g.text));
  }
  const top = root.querySelector(".sr-sand-top");
  const bot = root.querySelector(".sr-sand-bot");
  if (top && bot) {
    top.setAttribute("y", String(4 + 17 * (1 - g.frac)));
    top.setAttribute("height", String(17 * g.frac));
    bot.setAttribute("y", String(40 - 17 * (1 - g.frac)));
    bot.setAttribute("height", String(17 * (1 - g.frac)));
  }
  const wait = handWait(ui.ctx.view);
  const ring = root.querySelector(".sr-hand");
  if (ring && wait > 0) {
    const total = Math.max(1, ui.ctx.view.options?.hand_ms || wait);
    ring.querySelector(".sr-hand-arc")?.setAttribute("stroke-dasharray", `${Math.min(100, (100 * wait) / total).toFixed(1)} 100`);
    const secs = ring.querySelector(".sr-hand-secs");
    if (secs) secs.textContent = `${(wait / 1000).toFixed(1)} s`;
  }
  const step = revealStep();
  if (step !== ui.lastStep || (ui.msg && ui.msg.until < performance.now()) || (wait > 0) !== ui.handBusy) {
    if (ui.msg && ui.msg.until < performance.now()) ui.msg = null;
    redraw();
  }
}

/** Tell a screen reader once a round, as the sand runs low (the countdown itself is a
 * timer, read when asked: said every tenth of a second it would drown everything). */
function warnGlass(ctx, g) {
  const v = ctx.view;
  const key = `${v.round}:${v.hourglass.ends_ms}`;
  if (!g.running || ctx.mode !== "play" || ctx.seat === null || !v.chests[ctx.seat].open || ui.warned === key) return;
  const left = v.hourglass.ends_ms - serverNow();
  if (left > WARN_MS) return;
  ui.warned = key;
  announce(t("{s} seconds left on the hourglass", { s: Math.max(1, Math.round(left / 1000)) }));
}

function stopLoop() {
  if (ui.timer !== null) clearInterval(ui.timer);
  ui.timer = null;
}

// ------------------------------------------------------------------ the scoring, in steps

function revealKey(view) {
  const last = view.last_round;
  return last && (view.phase === "scored" || view.phase === "over") && last.round === view.round ? `${last.round}:${last.board}` : null;
}

function revealStep() {
  if (!ui.reveal) return -1;
  return Math.min(5, Math.floor((performance.now() - ui.reveal.start) / STEP_MS));
}

function scoring(ctx) {
  const v = ctx.view;
  const last = v.last_round;
  if (!last) return "";
  const live = revealKey(v) !== null;
  const step = live ? revealStep() : 5;
  const fresh = live && performance.now() - ui.reveal.start - step * STEP_MS < 600;
  const show = (k) => (step >= k ? "" : " hidden");
  const anim = (k) => (fresh && step === k ? " sr-in" : "");
  const n = v.players;
  const top = Math.max(...last.counts);
  const chips = (ids, cls) => ids.map((id) => `<span class="sr-chip ${cls}" title="${esc(words(id))}">${loose(v, id, 0, 9)}</span>`).join("");
  const rows = Array.from({ length: n }, (_, s) => {
    const best = last.best.includes(s);
    return `<tr class="${best && step >= 4 ? "best" : ""}" data-seat="${s}">
      <td class="who">${name(ctx, s)}${s === ctx.seat ? t(" (you)") : ""}</td>
      <td class="sr-c${show(1)}${anim(1)}">${chips(last.out[s], "out") || `<span class="sr-none">—</span>`}</td>
      <td class="sr-c${show(3)}${anim(3)}">${chips(last.jack[s], "jack") || `<span class="sr-none">—</span>`}</td>
      <td class="sr-c num${show(4)}${anim(4)}"><span class="sr-bar" style="--share:${(last.counts[s] / Math.max(1, top)).toFixed(3)}"></span><b>${last.counts[s]}</b></td>
      <td class="sr-c${show(5)}${anim(5)}">${last.parts[s] ? `<span class="sr-part-won">⚓ ${esc(partWords(last.parts[s].replace(/-\d+$/, "")))}</span>` : best ? `<span class="sr-none">${t("none left")}</span>` : ""}</td>
    </tr>`;
  }).join("");
  const boardClaims = v.board && v.board.id === last.board ? v.board.claims : null;
  return `<div class="sr-score scroll-x ${live ? "live" : "past"}" data-step="${step}" data-round="${last.round}">
    <h3>${live ? t("Round {n} — the scoring", { n: last.round }) : t("Last round ({n})", { n: last.round })}</h3>
    <div class="sr-steps">
      <div class="sr-step${show(0)}${anim(0)}">${t("Every lid is closed; what stuck out above the rim is taken out.")}</div>
      <div class="sr-step sr-board${show(2)}${anim(2)}">${BOARD_ICON} ${t("Jack-board {board} is turned", { board: `<b>${esc(boardNumber(last.board))}</b>` })}${boardClaims ? `${t(": it claims")} ${chips(boardClaims, "claim")}` : ""}</div>
      <div class="sr-step${show(4)}${anim(4)}">${t("The most treasures left: {who} with {n}.", { who: `<b>${last.best.map((s) => name(ctx, s)).join(", ")}</b>`, n: top })}</div>
    </div>
    <table class="sr-table"><thead><tr><th></th><th>${t("taken out")}</th><th>${t("Jack claims")}</th><th>${t("count")}</th><th>${t("ship part")}</th></tr></thead><tbody>${rows}</tbody></table>
  </div>`;
}

// ------------------------------------------------------------------ ships

function ship(view, seat, size = 1) {
  const have = new Set(view.ships[seat].map((c) => c.replace(/-\d+$/, "")));
  const parts = view.ship_parts;
  const w = 22 * size;
  const h = 18 * size;
  const shapes = parts.map((p, i) => {
    const x = i * w;
    const got = have.has(p);
    const path = p === "bow"
      ? `M${x + w} ${h * 0.35} H${x + w * 0.35} L${x} ${h * 0.2} L${x + w * 0.3} ${h} H${x + w} Z`
      : p === "stern"
        ? `M${x} ${h * 0.35} H${x + w * 0.75} L${x + w} ${h * 0.05} V${h} H${x} Z`
        : `M${x} ${h * 0.35} H${x + w} V${h} H${x} Z`;
    return `<path d="${path}" class="${got ? "got" : "need"}"><title>${esc(partWords(p))}${got ? "" : t(" (needed)")}</title></path>`;
  }).join("");
  return `<svg class="sr-ship" width="${parts.length * w}" height="${h}" viewBox="0 0 ${parts.length * w} ${h}" data-parts="${view.ships[seat].length}" aria-label="${t("ship parts: {n} of {total}", { n: view.ships[seat].length, total: parts.length })}">${shapes}</svg>`;
}

// ------------------------------------------------------------------ the whole table

function status(ctx, seat) {
  const v = ctx.view;
  const c = v.chests[seat];
  if (v.phase === "packing") return c.open ? `<span class="sr-badge packing">${t("packing")}</span>` : `<span class="sr-badge closed">${t("lid closed")}</span>`;
  if (v.phase === "scored") return v.ready[seat] ? `<span class="sr-badge ok">${t("✓ ready")}</span>` : `<span class="sr-badge wait">${t("counting…")}</span>`;
  return "";
}

/** A finger is the main pointer (a phone, a tablet): no keyboard to speak of, so the
 * prompts name no keys (and game.css hides the buttons' key hints, .sr-key, alike). */
function coarse() {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
}

/** A button's label (escaped) with its key hint (" (C)", " ⏎") marked .sr-key: a phone,
 * which has no keys, does not show it. */
function keyed(label) {
  return esc(label).replace(/ (\([^()]+\)|⏎)$/, ' <span class="sr-key">$1</span>');
}

function prompt(ctx, idx) {
  const v = ctx.view;
  if (v.result) {
    const ws = v.result.winners;
    const who = ws.map((s) => (s === ctx.seat ? t("you") : resultName(name(ctx, s)))).join(t(" and "));
    const text = ws.length === 1 && ws[0] === ctx.seat ? t("A ship is complete! You win.")
      : t(ws.length > 1 ? "A ship is complete! {who} win." : "A ship is complete! {who} wins.", { who });
    return { text, you: ws.includes(ctx.seat) };
  }
  if (ctx.mode !== "play") return { text: t("Round {n}, {phase}.", { n: v.round, phase: t(v.phase) }), you: false };
  if (ctx.seat === null) return { text: t("You are watching."), you: false };
  const mine = v.chests[ctx.seat];
  if (v.phase === "packing") {
    if (!mine.open) return { text: t("Your lid is closed. Waiting for the others and the hourglass…"), you: false };
    if (!v.pool.length) return { text: t(coarse() ? "The pool is empty: close your lid." : "The pool is empty: close your lid (C)."), you: true };
    if (coarse()) return { text: t("Pack! Drag a treasure onto a column of your chest · tap it to rotate · close the lid when you are done"), you: true };
    return { text: t("Pack! ↑↓ pick · R rotate · ←→ or hover a column · Enter/Space/click drop · C close the lid"), you: true };
  }
  if (idx.ready) return { text: t(coarse() ? "Round counted. Ready for the next round?" : "Round counted. Ready for the next round? Press Y (or Enter)."), you: true };
  const waiting = v.to_act.map((s) => name(ctx, s));
  return { text: t("You are ready. Waiting for {who}…", { who: waiting.join(", ") || t("the next round") }), you: false };
}

function pool(ctx, idx) {
  const v = ctx.view;
  const inPool = new Set(v.pool);
  // Big Pirates: the board is turned before packing, so what it claims is known.
  const claimed = new Set(v.phase === "packing" && v.board ? v.board.claims : []);
  const canPick = ctx.mode === "play" && ctx.seat !== null && v.phase === "packing" && v.chests[ctx.seat]?.open;
  const rows = Object.keys(shapesOf(v)).map((shape) => {
    const slots = Object.keys(COLOURS).map((colour) => {
      const id = `${shape}-${colour}`;
      if (!inPool.has(id)) return `<div class="sr-slot gone"></div>`;
      const sel = id === ui.sel && canPick;
      const fits = idx.fits.has(id) || !ctx.legal.length || v.hand_ready_ms != null;
      const attrs = canPick ? ` data-pick="${esc(id)}" role="button" tabindex="-1"` : "";
      const jack = claimed.has(id);
      return `<div class="sr-slot ${sel ? "sel" : ""} ${fits ? "" : "nofit"} ${jack ? "claimed" : ""}" data-treasure="${esc(id)}" title="${esc(words(id))}${fits ? "" : t(" (no room for it)")}${jack ? t(" — Jack's board claims it") : ""}"${attrs}>${loose(v, id, 0, 13)}</div>`;
    }).join("");
    return `<div class="sr-prow"><span class="sr-plabel">${esc(SHAPE_WORDS[shape] ? t(SHAPE_WORDS[shape]) : shape)}</span>${slots}</div>`;
  }).join("");
  return `<div class="sr-pool"><h3>${t("The pile")} <span class="sr-muted">${t("{n} left", { n: v.pool.length })}</span></h3>${rows}</div>`;
}

/** Whether a finger's first tap on Close the lid was a moment ago (a second one closes). */
function lidArmed() {
  return performance.now() - ui.lidArmed < LID_TAP_MS;
}

function pickPanel(ctx, idx, cur) {
  const v = ctx.view;
  // (a button of a symbol only is named by its title: ◀ and ▶ were read as symbols)
  const b = (cmd, label, title) => `<button class="small" data-ui="${cmd}" title="${title}"${label.length <= 2 ? ` aria-label="${title}"` : ""}>${label}</button>`;
  const drop = cur?.action ? `<button class="primary sr-drop" data-action='${esc(JSON.stringify(cur.action))}' title="${t("Enter or Space")}">${keyed(t("Drop ⏎"))}</button>` : `<button class="primary sr-drop" disabled>${keyed(t("Drop ⏎"))}</button>`;
  const armed = lidArmed();
  const close = idx.close ? `<button class="sr-close${armed ? " armed" : ""}" data-action='${esc(JSON.stringify(idx.close))}' title="C">${keyed(t(armed ? "Tap again to close the lid" : "Close the lid (C)"))}</button>` : "";
  const what = ui.sel
    ? `<div class="sr-pick" data-treasure="${esc(ui.sel)}" data-rotation="${ui.rotation}" data-column="${ui.column}">
        <div class="sr-pick-art">${loose(v, ui.sel, ui.rotation, 20)}</div>
        <div><b>${esc(words(ui.sel))}</b><br><span class="sr-muted">${t("turned {deg}° · column {col}", { deg: ui.rotation * 90, col: ui.column + 1 })}</span>
        ${cur?.ghost?.sticksOut && cur.action ? `<br><span class="sr-warn">${t("sticks out above the rim: it comes out when you close")}</span>` : ""}
        ${cur && !cur.fits ? `<br><span class="sr-bad">${t("no room there")}</span>` : ""}
        <br><span class="sr-muted sr-drag-hint">${t("drag onto your chest · tap to rotate")}</span></div>
      </div>`
    : `<div class="sr-pick empty">${t("Nothing to pick.")}</div>`;
  return `<div class="sr-controls">${what}
    <div class="sr-btns">${b("left", "◀", t("column left (←)"))}${b("rotate", keyed(t("⟳ Rotate (R)")), t("rotate (R)"))}${b("right", "▶", t("column right (→)"))}${handRing(v)}${drop}${close}</div></div>`;
}

/** While the seat's hand is busy (a hand needs `hand_ms` between two drops): a small
 * ring that empties until the hand is ready, with the seconds left. Nothing when ready. */
function handRing(view) {
  const wait = handWait(view);
  if (wait <= 0) return "";
  const total = Math.max(1, view.options?.hand_ms || wait);
  const left = Math.min(100, (100 * wait) / total);
  return `<span class="sr-hand" role="timer" aria-label="${t("your hand is busy: ready in {s} seconds", { s: (wait / 1000).toFixed(1) })}" title="${t("A hand needs {ms} ms between two drops", { ms: total })}">
    <svg width="26" height="26" viewBox="0 0 26 26" aria-hidden="true"><circle class="sr-hand-track" cx="13" cy="13" r="10"/><circle class="sr-hand-arc" cx="13" cy="13" r="10" pathLength="100" stroke-dasharray="${left.toFixed(1)} 100" transform="rotate(-90 13 13)"/></svg>
    <span class="sr-hand-secs">${(wait / 1000).toFixed(1)} s</span></span>`;
}

function seatHead(ctx, seat) {
  const v = ctx.view;
  const who = ctx.seats?.[seat];
  const count = v.chests[seat].treasures.length;
  return `<div class="sr-head"><span class="sr-name">${name(ctx, seat)}${seat === ctx.seat ? t(" (you)") : ""}</span>
    ${who && (who.kind === "bot" || who.bot) ? `<span class="sr-tag">${t("bot")}</span>` : ""}
    <span class="sr-grow"></span>${status(ctx, seat)}<span class="sr-count" title="${t("treasures in the chest")}">${count}</span></div>`;
}

function render(root, ctx) {
  injectStyle();
  listen(root);
  const v = ctx.view;
  const firstForRoot = ui.root !== root;
  ui.root = root;
  ui.ctx = ctx;
  // The clock: re-anchored whenever the server's time in the view moves (or a new round).
  // In a replay the clock stands at the step's time.
  ui.frozen = ctx.mode !== "play";
  // The server's clock at this frame when it sends one (right after a reload too), else
  // the time of the last change in the view.
  const serverNow = ctx.clockMs ?? v.now_ms;
  if (!ui.anchor || ui.anchor.key !== serverNow || firstForRoot) ui.anchor = { key: serverNow, now_ms: Math.max(serverNow, v.now_ms), at: performance.now() };
  // The server starts the clock once every human seat has come: until then it stands still.
  ui.absent = ctx.mode === "play" && v.now_ms === 0 && (ctx.seats || []).some((s) => s.kind === "human" && !s.bot && !s.connected && s.seat !== ctx.seat);
  const key = revealKey(v);
  if (!key) ui.reveal = null;
  else if (ui.reveal?.key !== key) ui.reveal = { key, start: performance.now() };
  if (ctx.mode !== "play") ui.reveal = key ? { key, start: -1e9 } : null;
  ui.lastStep = revealStep();
  followSent(ctx);
  keepPick(v);
  const idx = legalIndex(ctx);
  const cur = current(ctx, idx);
  ui.handBusy = handWait(v) > 0;
  const me = ctx.seat;
  const n = v.players;
  const others = me === null ? [...Array(n).keys()] : Array.from({ length: n - 1 }, (_, i) => (me + 1 + i) % n);
  const p = prompt(ctx, idx);
  const g = glassNow(v);
  // A message takes the prompt's place for a moment (nothing below it moves).
  const msg = ui.msg && ui.msg.until > performance.now() ? ui.msg : null;
  const line = msg
    ? `<div class="sr-prompt sr-msg ${msg.kind}" data-prompt>${esc(msg.text)}</div>`
    : `<div class="sr-prompt ${p.you ? "you" : ""}" data-prompt>${p.text}</div>`;
  const ready = idx.ready ? `<button class="primary sr-ready" data-action='${esc(JSON.stringify(idx.ready))}'>${keyed(t("Ready for round {n} (Y)", { n: v.round + 1 }))}</button>` : "";
  const mine = me === null ? "" : `
    <div class="sr-mine ${v.chests[me].open ? "open" : "closed"}">
      ${seatHead(ctx, me)}
      <div class="sr-chest me" data-seat="${me}" data-count="${v.chests[me].treasures.length}">${chestSVG(ctx, me, 40, true, cur, idx)}</div>
      <div class="sr-shiprow"><span class="sr-muted">${t("Ship")}</span>${ship(v, me, 1.3)}</div>
      ${v.phase === "packing" && v.chests[me].open && ctx.mode === "play" ? pickPanel(ctx, idx, cur) : ready ? `<div class="sr-controls">${ready}</div>` : ""}
    </div>`;
  root.innerHTML = `<div class="sr" data-phase="${esc(v.phase)}" data-round="${v.round}">
    <div class="sr-top">
      <span class="sr-round">${t("Round")} <b>${v.round}</b></span>
      <span class="sr-hg ${g.running ? "running" : ""}" role="timer" aria-labelledby="sr-hg-name"><span class="sr-only" id="sr-hg-name">${t("Hourglass:")}</span>${hourglassSVG()}<span class="sr-secs ${g.hurry ? "hurry" : ""} ${g.running || /^[\d.]+ s$/.test(g.text) ? "" : "word"}">${esc(g.text)}</span></span>
      <span class="sr-grow"></span>
      ${v.board ? `<span title="${t("the turned Jack-board")}">${t("Jack-board")} <b>${esc(boardNumber(v.board.id))}</b></span>` : `<span class="sr-muted" title="${t("face-down Jack-boards")}">${BOARD_ICON} ${v.stack_size === 1 ? t("1 board") : t("{n} boards", { n: v.stack_size })}</span>`}
      <span class="sr-muted">${t("ship:")} ${v.ship_parts.map((x) => esc(partWords(x))).join(" + ")}</span>
      ${v.options?.little_pirates ? `<span class="sr-tag">${t("Little Pirates")}</span>` : ""}${v.options?.big_pirates ? `<span class="sr-tag">${t("Big Pirates")}</span>` : ""}
    </div>
    ${line}
    <div class="sr-felt">
      ${pool(ctx, idx)}
      ${mine}
    </div>
    ${scoring(ctx)}
    <div class="sr-others">${others.map((s) => `<div class="sr-other ${v.chests[s].open ? "" : "closed"}" data-seat="${s}">
      ${seatHead(ctx, s)}<div class="sr-chest" data-seat="${s}" data-count="${v.chests[s].treasures.length}">${chestSVG(ctx, s, 20, false, null, idx)}</div>
      <div class="sr-shiprow">${ship(v, s)}</div></div>`).join("")}</div>
  </div>`;
  stopLoop();
  const needs = (v.phase === "packing" && !ui.frozen) || (ui.reveal && revealStep() < 5) || ui.msg;
  if (needs) ui.timer = setInterval(tickGlass, 100);
  tickGlass.call(null);
}

// ------------------------------------------------------------------ style (kept with the renderer)

function injectStyle() {
}

// ------------------------------------------------------------------ the log in German

/** An event's log line in German, from its type and data (what this seat's frame holds);
 * null for an event it has no words for (the page shows the English). */
function logWords(e, ctx) {
  const d = eventData(e);
  const w = germanSeats(ctx);
  const when = (ms) => `${(Number(ms) / 1000).toFixed(1).replace(".", ",")} s`;
  const list = (ids) => (ids || []).map(words).join(", ");
  switch (e.type) {
    case "round":
      return `Runde ${d.round} beginnt bei ${when(d.at_ms)}: ${d.ends_ms === null || d.ends_ms === undefined ? "Die Sanduhr wartet auf den ersten Deckel" : `Die Sanduhr läuft bis ${when(d.ends_ms)}`}`;
    case "board":
      return `Jacks Tafel ${boardNumber(d.board)} wird umgedreht: Sie beansprucht ${list(d.claims)}`;
    case "drop":
      return `${w.nom(d.seat, true)} ${w.v(d.seat, "hast", "hat")} ${words(d.treasure)} gepackt (Drehung ${d.rotation}, Spalte ${d.column + 1}, Reihe ${d.row + 1} von unten)`;
    case "close": {
      const removed = d.removed || [];
      const extra = removed.length ? `; über den Rand herausgenommen: ${list(removed)}` : "";
      return `${w.nom(d.seat, true)} ${w.v(d.seat, "hast", "hat")} den Deckel bei ${when(d.at_ms)} geschlossen${extra}`;
    }
    case "hourglass":
      return `Die Sanduhr wird umgedreht: Sie läuft bei ${when(d.ends_ms)} ab`;
    case "time_up":
      return `Die Sanduhr ist bei ${when(d.at_ms)} abgelaufen: Alle Deckel sind zu`;
    case "scored": {
      const counts = (d.counts || []).map((c, s) => `${w.nom(s)} ${c}`).join(", ");
      const parts = (d.parts || []).map((p, s) => [p, s]).filter(([p]) => p)
        .map(([p, s], i) => `${w.nom(s, i === 0)} ${w.v(s, "nimmst", "nimmt")} ${THE_PARTS_DE[String(p).replace(/-\d+$/, "")] || p}`);
      return `Runde ${d.round} gezählt — ${counts}. ${parts.join(", ") || "Keine Schiffsteile mehr übrig"}`;
    }
    case "ready":
      return `${w.nom(d.seat, true)} ${w.v(d.seat, "bist", "ist")} bereit`;
    case "game_over":
      return `Ein Schiff ist fertig! Sieger: ${w.list((d.winners || []).map((s) => w.res(s)))}`;
    default:
      return null;
  }
}

export { logWords as words };
export default { render, words: logWords };
