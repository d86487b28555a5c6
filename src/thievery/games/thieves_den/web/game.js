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

import { esc, listenForPicks } from "/static/js/common.js";

const TREASURES = ["tome", "jewel", "artifact", "fossil", "potion"];
const LOC_TYPES = ["village", "shadow", "ruins", "holy", "city"];
const FENCE_TYPES = ["noble", "agent", "collector", "warlock", "mercenary", "peddler", "tinkerer"];
const PHASES = { scouting: "Scouting", thieving: "Thieving", direction: "Cleanup", over: "Game over" };

// ------------------------------------------------------------------ words

const cap = (s) => String(s).charAt(0).toUpperCase() + String(s).slice(1);
const plural = (n, word) => (n === 1 ? `1 ${word}` : `${n} ${word === "Thief" ? "Thieves" : word === "thief" ? "thieves" : word + "s"}`);
/** "a Jewel", "an Artifact". */
const an = (t, upper = false) => `${/^[aeiou]/i.test(t) ? (upper ? "An" : "an") : upper ? "A" : "a"} ${cap(t)}`;
const baseId = (id) => String(id).replace(/-[a-j]$/, "");
const titled = (s) => s.split("-").map(cap).join(" ");

function catalogue(view) {
  return view.catalogue || { witch: {}, majority: {}, locations: {}, fences: {}, schemes: {}, powers: {} };
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
  return seat === ctx.seat ? "you" : name(ctx, seat);
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
  return TREASURES.filter((t) => counts[t]).map((t) => plural(counts[t], cap(t))).join(" + ");
}

function bonusWords(bonus) {
  return bonus.map(([what, n]) => (what === "wild" ? plural(n, "treasure") + " of your choice" : plural(n, cap(what)))).join(" + ");
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

/** A token with an optional count; clickable with `action` (or `pick`). */
function token(kind, { n = null, action = null, pick = null, title = "", dim = false, extra = "" } = {}) {
  const label = title || (kind === "thief" ? "Thief" : kind === "prestige" ? "Prestige" : cap(kind));
  const click = action ? ` ${attr(action)} tabindex="0" role="button"` : pick ? ` ${pickAttr(pick)} tabindex="0" role="button"` : "";
  const cls = ["td-tok", `td-t-${kind}`, dim ? "dim" : "", action || pick ? "legal" : "", extra].join(" ");
  return `<span class="${cls}" data-token="${kind}" title="${esc(label)}"${click}>${svg(kind)}${n === null ? "" : `<b>${n}</b>`}</span>`;
}

function typeChip(type, text = null) {
  if (!type) return "";
  return `<span class="td-type td-ty-${type}">${esc(text ?? cap(type))}</span>`;
}

/** A Location card. `action`: clicking it sends this action. */
function locationCard(C, id, { thieves = null, action = null, size = "", note = "", extra = "", tag = "", neutral = false } = {}) {
  const L = loc(C, id);
  const spot = L.instant
    ? `<span class="td-spot instant" title="Instant: its ability happens when it is revealed">${svg("instant")}</span>`
    : `<span class="td-spot ${thieves ? "taken" : ""}" title="${thieves ? `${thieves} Thie${thieves > 1 ? "ves" : "f"} on the Action Spot` : "Action Spot: free"}">${thieves ? `${svg("thief")}${thieves > 1 ? `<b>${thieves}</b>` : ""}` : svg("spot")}</span>`;
  const bonus = !L.instant && L.bonus?.length
    ? `<span class="td-bonus ${neutral ? "off" : ""}" title="Owner Bonus (for the card's owner when an opponent steals here): ${esc(L.bonus_text || bonusWords(L.bonus))}"><i>owner</i>${L.bonus.map(([w, k]) => `${svg(w)}${k > 1 ? `<b>${k}</b>` : ""}`).join("")}</span>`
    : L.instant ? `<span class="td-bonus instant" title="Instant: its ability happens when it is revealed">instant</span>` : "<span></span>";
  const title = `${L.name}${L.type ? ` (${cap(L.type)})` : ""}: ${L.text || "?"}${L.instant ? " — Instant" : L.bonus_text ? ` — Owner Bonus: ${L.bonus_text}` : ""}${note ? ` — ${note}` : ""}`;
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
  const title = `Fence ${F.name}${F.type ? ` (${cap(F.type)})` : ""}: ${desireWords(F.desires) || "?"} → ${F.prestige} Prestige${uses ? ` — sold to ${uses} time${uses > 1 ? "s" : ""}` : ""}`;
  const cls = ["td-card", "td-fence", F.type ? `td-fy-${F.type}` : "", size, action ? "legal" : "", extra].join(" ");
  const used = uses ? `<span class="td-spot taken" title="Thieves on it">${svg("thief")}${uses > 1 ? `<b>${uses}</b>` : ""}</span>` : `<span class="td-spot">${svg("spot")}</span>`;
  return `<div class="${cls}" data-card="${esc(id)}" title="${esc(title)}"${action ? ` ${attr(action)} tabindex="0" role="button"` : ""}>
    <div class="td-fhead"><span class="td-ftype">${esc(cap(F.type || "Fence"))}</span></div>
    <div class="td-fnamerow"><span class="td-fname">${esc(F.name)}</span><span class="td-prest" title="${esc(F.prestige)} Prestige">${svg("prestige")}<b>${F.prestige}</b></span></div>
    <div class="td-fdeal" title="desires: ${esc(desireWords(F.desires))}"><span class="td-desires">${desires}</span></div>
    <div class="td-lfoot"><span class="td-wants">wants ${F.desires.length}</span>${used}</div>
  </div>`;
}

function back(kind = "loc", title = "a face-down card") {
  return `<span class="td-back td-back-${kind}" title="${esc(title)}"></span>`;
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
  const whose = (owner) => (owner === "neutral" || owner === null ? "the neutral" : owner === ctx.seat ? "your" : `${plainName(ctx, owner)}’s`);
  switch (a.type) {
    case "pick": {
      const L = loc(C, a.card);
      return `Keep ${L.name}`;
    }
    case "steal": {
      const L = loc(C, a.card);
      const owner = ownerOf(v, a.card);
      let bonus = "";
      if (op === "action" && top[3] & 2 && owner !== "neutral" && L.bonus_text) bonus = ` (you get the Owner Bonus: ${bonusWords(L.bonus)})`;
      else if (typeof owner === "number" && owner !== ctx.seat && L.bonus?.length) bonus = ` (${plainName(ctx, owner)} gets ${bonusWords(L.bonus)})`;
      return `Steal at ${whose(owner)} ${L.name}: ${L.text}${bonus}`;
    }
    case "fence": {
      const F = fence(C, a.card);
      const above = fenceAbove(v, a.card);
      const where = above === null ? "" : ` (above ${whose(above)} board)`;
      return `Sell ${desireWords(F.desires)} to ${F.name}${where} for ${F.prestige} Prestige`;
    }
    case "power": {
      const P = power(C, a.tile);
      return `${P.name}, paying ${an(a.pay)}: ${P.text}`;
    }
    case "witch": return `Deliver ${an(a.treasure)} to the Witch: +${C.witch[a.treasure] ?? "?"} Prestige`;
    case "burgle": return `Burgle: 2 of your Thieves → 1 ${cap(a.treasure)}`;
    case "recruit": return `Recruit: ${an(a.first)} and ${an(a.second)} → 1 Thief`;
    case "pass": return "Pass (no more actions this round; nobody can target you)";
    case "skip":
      if (op === "wild") return "Stop: take no more";
      if (op === "action") return "Skip the follow-up action";
      return "Skip";
    case "give": return a.seat === ctx.seat ? "Keep the Direction tile" : `Give the Direction tile to ${plainName(ctx, a.seat)}`;
    case "opponent": {
      const x = v.seats[a.seat];
      const held = Object.values(x.treasures).reduce((p, q) => p + q, 0);
      return `${plainName(ctx, a.seat)} (${held} treasure${held === 1 ? "" : "s"}, ${plural(x.thieves, "Thief")})`;
    }
    case "return_fence": return `Return ${fence(C, a.card).name} to the bottom of the Fence deck`;
    case "treasure": {
      const t = cap(a.treasure);
      if (op === "limit") return `Return ${an(a.treasure)} (you hold more than 8)`;
      if (op === "pay") return `Pay ${an(a.treasure)}`;
      if (op === "destroy") return `Destroy ${plainName(ctx, top[2])}’s ${t}`;
      if (op === "take") return `Take ${plainName(ctx, top[2])}’s ${t}`;
      return `Take ${an(a.treasure)} from the supply`;
    }
    case "location": {
      const L = loc(C, a.card);
      const owner = ownerOf(v, a.card);
      if (op === "recall_thief") return `Take a Thief off ${whose(owner)} ${L.name} (the card goes on top of the deck)`;
      if (op === "move_thief") return top[2] < 0 ? `Move the Thief from ${whose(owner)} ${L.name}` : `Move it to ${whose(owner)} ${L.name}: ${L.text}`;
      if (op === "swap_location") return top[2] < 0 ? `Give away your ${L.name}` : `Take ${whose(owner)} ${L.name} in exchange`;
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
    const what = top[3] === 5 ? "a Thief" : "a treasure";
    return `choose the opponent to ${op} ${what} from`;
  }
  if (op === "take" || op === "destroy") return `choose which of ${name(ctx, a)}’s treasures to ${op}`;
  if (op === "move_thief" && a >= 0) return `choose where to move the Thief from ${esc(loc(C, idOf(C, v, a)).name)}`;
  if (op === "swap_location" && a >= 0) return "choose an opponent’s Location to take in exchange";
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
    : `<div class="td-card td-empty">empty slot</div>`)).join("");
  return `<div class="td-box td-fences"><h4>Fences <span class="td-sub">sell their desires for Prestige</span>
      <span class="td-grow"></span><span class="td-deck" title="Fence cards in the deck">${svg("deck")} <b>${v.fence_deck}</b></span></h4>
    <div class="td-row-cards">${cards}</div></div>`;
}

function powerTiles(ctx, C, idx) {
  const v = ctx.view;
  const tiles = v.powers.map((p, i) => {
    if (!p.tile) return `<div class="td-tile empty"><span class="td-sub">stack ${i + 1} is empty</span></div>`;
    const P = power(C, p.tile);
    const acts = idx.power.get(p.tile) || [];
    const pay = acts.length
      ? `<div class="td-pay"><span>Use, paying</span>${acts.map((a) => token(a.pay, { action: a, title: `Use ${P.name}, paying ${an(a.pay)}` })).join("")}</div>`
      : "";
    const paid = p.paid ? `<span class="td-paid" title="used this round (paid with ${esc(an(p.paid))})">${token(p.paid)}used</span>` : "";
    return `<div class="td-tile ${acts.length ? "can" : ""} ${p.paid ? "used" : ""}" data-tile="${esc(p.tile)}" title="${esc(`${P.name}: ${P.text}`)}">
      <div class="td-tname">${esc(P.name)}${paid}</div><div class="td-ttext">${esc(P.text)}</div>${pay}
      <div class="td-below" title="face-down tiles below: one comes up each round">${"▰".repeat(p.below)}${p.below ? ` ${p.below} below` : "last tile"}</div></div>`;
  }).join("");
  const gone = v.powers_gone.length ? `<div class="td-sub">Gone: ${v.powers_gone.map((t) => esc(power(C, t).name)).join(", ")}</div>` : "";
  return `<div class="td-box td-powers"><h4>Power tiles <span class="td-sub">pay 1 treasure, once a round each</span></h4><div class="td-tiles">${tiles}</div>${gone}</div>`;
}

function witchBox(ctx, C, idx) {
  const v = ctx.view;
  const spots = TREASURES.map((t) => {
    const a = idx.witch.get(t);
    const taken = v.witch[t];
    return `<div class="td-wspot ${taken ? "taken" : ""} ${a ? "legal" : ""}" data-witch="${t}" title="${esc(taken ? `taken this round` : `deliver ${an(t)}: +${C.witch[t] ?? "?"} Prestige`)}"${a ? ` ${attr(a)} tabindex="0" role="button"` : ""}>
      ${svg(t)}<span class="td-wp">${svg("prestige", "td-ico small")}${C.witch[t] ?? "?"}</span></div>`;
  }).join("");
  return `<div class="td-box td-witch"><h4>The Witch <span class="td-sub">1 treasure → Prestige</span></h4><div class="td-wspots">${spots}</div></div>`;
}

function burgleBox(ctx, idx) {
  const v = ctx.view;
  const opts = TREASURES.filter((t) => idx.burgle.has(t));
  const on = v.burgle ? `${token("thief", { n: v.burgle, title: "Thieves spent on Burgle this round" })}` : `<span class="td-none">no Thieves yet</span>`;
  const buttons = opts.length ? `<div class="td-pay"><span>Take</span>${opts.map((t) => token(t, { action: idx.burgle.get(t), title: `Burgle: 2 Thieves → 1 ${cap(t)}` })).join("")}</div>` : "";
  return `<div class="td-box td-burgle ${opts.length ? "can" : ""}"><h4>Burgle <span class="td-sub">2 ${svg("thief", "td-ico small")} → 1 treasure</span></h4><div class="td-on">${on}</div>${buttons}</div>`;
}

function recruitBox(ctx, idx) {
  const v = ctx.view;
  const held = TREASURES.filter((t) => v.recruit[t]).map((t) => token(t, { n: v.recruit[t] })).join("");
  let body = "";
  if (idx.recruit.length) {
    const first = ui.pick?.recruit;
    if (first && idx.recruit.some((a) => a.first === first || a.second === first)) {
      const pairs = idx.recruit.filter((a) => a.first === first || a.second === first);
      body = `<div class="td-pay"><span>${token(first, { extra: "chosen" })} and</span>${pairs.map((a) => {
        const other = a.first === first ? a.second : a.first;
        return token(other, { action: a, title: `Recruit: ${an(a.first)} and ${an(a.second)} → 1 Thief` });
      }).join("")}<button class="small" ${pickAttr({ clear: 1 })}>Cancel</button></div>`;
    } else {
      const firsts = TREASURES.filter((t) => idx.recruit.some((a) => a.first === t || a.second === t));
      body = `<div class="td-pay"><span>Pay</span>${firsts.map((t) => token(t, { pick: { recruit: t }, title: `Recruit: pay ${an(t)} and one more treasure` })).join("")}</div>`;
    }
  }
  return `<div class="td-box td-recruit ${idx.recruit.length ? "can" : ""}"><h4>Recruit <span class="td-sub">2 treasures → 1 ${svg("thief", "td-ico small")}</span></h4>
    <div class="td-on">${held || `<span class="td-none">no treasures yet</span>`}</div>${body}</div>`;
}

function supplyBox(ctx, C, idx) {
  const v = ctx.view;
  const fromSupply = treasureSource(v) === "supply";
  const tokens = TREASURES.map((t) => token(t, {
    n: v.supply.treasures[t], dim: !v.supply.treasures[t],
    action: fromSupply ? idx.treasure.get(t) || null : null,
    title: `${cap(t)}: ${v.supply.treasures[t]} in the supply`,
  })).join("");
  const top = v.location_deck_top.length
    ? `<div class="td-sub">Known on top: ${v.location_deck_top.map((id) => esc(loc(C, id).name)).join(", ")}</div>` : "";
  return `<div class="td-box td-supply ${fromSupply && idx.treasure.size ? "can" : ""}"><h4>Supply <span class="td-sub">limited</span></h4>
    <div class="td-on">${tokens}<span class="td-sep"></span>${token("thief", { n: v.supply.thieves, title: `Thieves: ${v.supply.thieves} in the supply` })}</div>
    <div class="td-on"><span class="td-deck" title="Location cards in the deck">${svg("deck")} Locations <b>${v.location_deck}</b></span></div>${top}</div>`;
}

function neutralBox(ctx, C, idx) {
  const v = ctx.view;
  if (!v.neutral.length) return "";
  const cards = v.neutral.map((x) => {
    const action = idx.byCard.get(x.card) || null;
    return locationCard(C, x.card, { thieves: x.thieves, action, neutral: true, note: action ? `click: ${label(ctx, C, action)}` : "neutral: no Owner Bonus" });
  }).join("");
  return `<div class="td-box td-neutral"><h4>Neutral Locations <span class="td-sub">anyone may steal here; no Owner Bonus</span></h4><div class="td-row-cards">${cards}</div></div>`;
}

// ------------------------------------------------------------------ players

function seatStatus(ctx, s) {
  const v = ctx.view;
  const x = v.seats[s];
  if (v.result) return v.result.winners.includes(s) ? `<span class="td-badge win">★ wins</span>` : "";
  if (v.phase === "scouting") {
    if (x.picked) return `<span class="td-badge done">✓ picked</span>`;
    if (v.to_act.includes(s)) return `<span class="td-badge wait">choosing…</span>`;
    return "";
  }
  if (x.passed) return `<span class="td-badge passed">passed</span>`;
  if (v.to_act.includes(s)) return `<span class="td-badge wait">${v.current === s && !v.stack.length ? "to act" : "deciding…"}</span>`;
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
    `<span class="td-chip ${kind === "loc" ? `td-ty-${t}` : `td-fy-${t}`}" title="${esc(names[t].join(", "))}">${esc(cap(t))} <b>${counts[t]}</b></span>`).join("");
}

function schemeLine(ctx, C, s, id) {
  const v = ctx.view;
  const x = v.seats[s];
  if (!id) return `<span class="td-scheme hidden" title="a secret Scheme">${back("scheme", "a secret Scheme")} Scheme hidden</span>`;
  const S = scheme(C, id);
  const counts = {};
  for (const c of [...x.collected, ...x.locations.map((y) => y.card)]) {
    const t = loc(C, c).type;
    counts[t] = (counts[t] || 0) + 1;
  }
  const [a, b] = S.types;
  const sets = Math.min(counts[a] || 0, counts[b] || 0);
  const final = v.final?.schemes?.[s];
  const got = final ? `scored ${final.sets} set${final.sets === 1 ? "" : "s"}: +${final.prestige}` : `${sets} set${sets === 1 ? "" : "s"} so far`;
  return `<span class="td-scheme" data-scheme="${esc(id)}" title="Scheme: ${esc(S.prestige)} Prestige for each set of ${esc(an(a))} and ${esc(an(b))} Location collected">
    Scheme ${typeChip(a)} + ${typeChip(b)} ${svg("prestige", "td-ico small")}<b>${esc(S.prestige)}</b>/set</span><span class="td-sub td-got">${got}</span>`;
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
    title: `${cap(t)}: ${x.treasures[t]}`,
  })).join("");
  const turn = v.to_act.includes(s) && !v.result;
  const target = idx.opponent.get(s) || idx.give.get(s);
  const targetBtn = target ? `<button class="small td-target" ${attr(target)}>${target.type === "give" ? (s === ctx.seat ? "Keep the tile" : "Give the tile") : "Target"}</button>` : "";
  const holder = v.holder === s
    ? `<span class="td-dir" title="has the Direction tile (${esc(v.direction)}): first in turn order">${v.direction === "clockwise" ? "↻" : "↺"}</span>` : "";
  const here = [
    ...x.locations.map((y) => {
      const action = idx.byCard.get(y.card) || null;
      return locationCard(C, y.card, { thieves: y.thieves, action, size: "mid", note: action ? `click: ${label(ctx, C, action)}` : "" });
    }),
    ...x.fences.map((y) => fenceCard(C, y.card, { uses: y.uses, action: idx.byCard.get(y.card) || null, size: "mid" })),
  ];
  if (v.result && !here.length) {
    const minis = [
      ...x.collected.map((id) => { const L = loc(C, id); return `<span class="td-mini td-ty-${L.type}" title="${esc(`${L.name}: ${L.text}`)}">${esc(L.name)}</span>`; }),
      ...x.fences_collected.map((id) => { const F = fence(C, id); return `<span class="td-mini td-fy-${F.type} fence" title="${esc(`Fence ${F.name} (${cap(F.type || "")}): ${F.prestige} Prestige`)}">${esc(F.name)}</span>`; }),
    ];
    if (minis.length) here.push(`<div class="td-minis"><span class="td-sub">Collected over the game</span>${minis.join("")}</div>`);
  }
  let scouting = "";
  const seen = ctx.views?.[s]; // a replay of everything: every seat's own view
  if (v.phase === "scouting" && !me && seen?.hand) {
    const mini = (id, cls = "") => { const L = loc(C, id); return `<span class="td-mini td-ty-${L.type} ${cls}" title="${esc(`${L.name}: ${L.text}`)}">${esc(L.name)}</span>`; };
    scouting = `<span class="td-minis">${seen.hand.map((id) => mini(id)).join("")}${seen.my_pick ? mini(seen.my_pick, "sealed") : ""}</span>`;
  } else if (v.phase === "scouting" && !me) {
    scouting = `<span class="td-hand-backs" title="${x.hand_size} cards in hand">${Array.from({ length: x.hand_size }, () => back()).join("")}</span>`;
  }
  const own = me ? x.scheme : x.scheme ?? ctx.views?.[s]?.seats?.[s]?.scheme ?? null;
  const collectedLoc = collectedChips(C, x.collected, "loc");
  const collectedFence = collectedChips(C, x.fences_collected, "fence");
  return `<div class="td-seat ${turn ? "turn" : ""} ${me ? "me" : ""} ${x.passed && !v.result ? "passed" : ""} ${target ? "target" : ""}" data-seat="${s}">
    <div class="td-seatinfo">
      <div class="td-head"><span class="td-who">${name(ctx, s)}</span>${holder}
        ${me ? `<span class="td-chip you">you</span>` : ""}${who && (who.kind === "bot" || who.bot) ? `<span class="td-chip">bot</span>` : ""}
        <span class="td-grow"></span><span class="td-score" title="Prestige">${svg("prestige", "td-ico small")}${x.prestige}</span></div>
      <div class="td-status">${seatStatus(ctx, s)}${targetBtn}${scouting}</div>
      <div class="td-tr ${treasureActs && idx.treasure.size ? "can" : ""}">${treasures}<span class="td-lim ${held > 8 ? "over" : ""}" title="treasures held (at most 8)">${held}/8</span></div>
      <div class="td-tr">${token("thief", { n: x.thieves, title: `Thieves on the board: ${x.thieves}` })}<span class="td-lim" title="Thieves (at most 6)">${x.thieves}/6</span></div>
      <div class="td-coll"><label>Collected</label>${collectedLoc || `<span class="td-none">no Locations</span>`}</div>
      <div class="td-coll"><label>Fences</label>${collectedFence || `<span class="td-none">none</span>`}</div>
      <div class="td-coll">${schemeLine(ctx, C, s, own)}</div>
    </div>
    <div class="td-above"><div class="td-row-cards">${here.join("") || `<span class="td-none">${v.phase === "scouting" ? "Locations appear here when revealed" : "no Locations or Fences this round"}</span>`}</div></div>
  </div>`;
}

// ------------------------------------------------------------------ your hand, the prompt, the decision

function handPanel(ctx, C, idx) {
  const v = ctx.view;
  if (ctx.seat === null || (!v.hand.length && !v.my_pick)) return "";
  const mine = v.seats[ctx.seat].scheme;
  const wanted = mine ? scheme(C, mine).types : [];
  const fits = (id) => (wanted.includes(loc(C, id).type) ? `<span class="td-fits" title="a type of your Scheme">${svg("prestige", "td-ico small")}Scheme</span>` : "");
  const cards = v.hand.map((id) => locationCard(C, id, { action: idx.byCard.get(id) || null, size: "big", tag: fits(id) })).join("");
  const kept = v.my_pick ? `<div class="td-kept"><span>You keep (sealed)</span>${locationCard(C, v.my_pick, { size: "big", extra: "sealed" })}</div>` : "";
  const next = v.direction === "clockwise" ? "clockwise" : "counter-clockwise";
  return `<div class="td-handbox ${idx.byCard.size ? "active" : ""}"><h4>Your hand <span class="td-sub">keep 1, pass the rest ${next}</span></h4>
    <div class="td-hand">${cards}${kept}</div></div>`;
}

function prompt(ctx, idx) {
  const v = ctx.view;
  if (v.result) {
    const names = v.result.winners.map((s) => whom(ctx, s));
    return { text: `The game is over: ${names.join(" and ")} ${names.length > 1 ? "share the win" : names[0] === "you" ? "win" : "wins"}.`, you: false };
  }
  if (ctx.legal.length) {
    if (v.phase === "scouting") return { text: "Scouting: choose a Location card to keep — it stays sealed until everyone has chosen.", you: true };
    if (idx.main) return { text: "Your turn: steal at a Location, sell to a Fence, use a Power tile, deliver to the Witch, Burgle or Recruit — or pass.", you: true };
    return { text: cap(decisionWords(ctx)) + ".", you: true };
  }
  const waiting = v.to_act.map((s) => whom(ctx, s));
  if (v.phase === "scouting") {
    if (ctx.seat !== null && v.my_pick) return { text: `You chose. Waiting for ${waiting.join(", ") || "the reveal"}…`, you: false };
    return { text: `Scouting: ${waiting.join(", ")} ${waiting.length === 1 ? "is" : "are"} choosing…`, you: false };
  }
  if (!waiting.length) return { text: "…", you: false };
  if (v.to_act[0] === ctx.seat && ctx.mode === "play") return { text: "Sending your move…", you: false };
  const what = v.stack.length ? decisionWords(ctx) : v.phase === "direction" ? "give the Direction tile to a tied player" : "take an action or pass";
  return { text: `${cap(waiting[0])}: ${what}…`, you: false };
}

function decisionPanel(ctx, C, idx) {
  const v = ctx.view;
  if (!ctx.legal.length || v.phase === "scouting") return "";
  if (idx.main) {
    return `<div class="td-act"><span class="help">Click a highlighted Location, Fence, Power tile, Witch spot, Burgle or Recruit treasure.</span>
      <span class="td-grow"></span><button class="td-pass" ${attr(idx.pass)} title="${esc(label(ctx, C, idx.pass))}">Pass</button></div>`;
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
    return `<span class="td-chip td-fy-${t}" title="most ${esc(cap(t))} Fences: +${C.majority[t] ?? "?"} Prestige">${esc(cap(t))}: ${w === null || w === undefined ? "tie / none" : `${whom(ctx, w)} +${C.majority[t] ?? "?"}`}</span>`;
  }).join("");
  const rows = v.final.schemes.map((x, s) => {
    const S = scheme(C, x.scheme);
    const major = FENCE_TYPES.filter((t) => v.final.majorities[t] === s).reduce((sum, t) => sum + (C.majority[t] || 0), 0);
    const before = v.result.scores[s] - x.prestige - major;
    const win = v.result.winners.includes(s);
    return `<tr class="${win ? "win" : ""}"><td>${win ? "★ " : ""}${name(ctx, s)}</td><td>${before}</td><td>+${major}</td>
      <td>${typeChip(S.types[0])} + ${typeChip(S.types[1])}</td><td>${x.sets} × ${esc(S.prestige)} = +${x.prestige}</td><td class="tot">${v.result.scores[s]}</td></tr>`;
  }).join("");
  return `<div class="td-box td-final"><h4>Final scoring</h4><div class="td-on"><span class="td-sub">Most Fences of a type:</span>${maj}</div>
    <table class="td-ftable"><thead><tr><th>Player</th><th>In play</th><th>Majorities</th><th>Scheme</th><th>Sets</th><th>Final</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function render(root, ctx) {
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
    ? `<span>${v.current === ctx.seat ? "<b>Your turn</b>" : `<b>${name(ctx, v.current)}</b>’s turn`}</span>` : "";
  const order = [...Array(n).keys()];
  root.innerHTML = `<div class="td">
    <div class="td-top">
      <span class="td-title">Thieves Den</span>
      <span>Round <b class="td-round">${v.round}</b> of 3</span>
      <span class="td-phase">${esc(PHASES[v.phase] || v.phase)}</span>
      <span title="the Direction tile: turn order and passing direction">${v.direction === "clockwise" ? "↻ clockwise" : "↺ counter-clockwise"} from <b>${name(ctx, v.holder)}</b></span>
      ${turn}
      <span class="td-grow"></span>
      ${v.unofficial ? `<span class="td-chip td-unofficial" title="${esc(v.card_set)}: our own card set, not the publisher's">unofficial cards</span>` : `<span class="td-chip">${esc(v.card_set)}</span>`}
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
}

// ------------------------------------------------------------------ style (kept with the renderer)

function injectStyle() {
}


export default { render };
