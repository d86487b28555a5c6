// Pickpocket's browser renderer: every seat's pocket (hand size) and vault, your hand.
// It follows Thievery's renderer interface (src/thievery/web/js/generic.js): the default
// export's render(root, ctx) draws ctx.view, and every legal action becomes an element
// carrying data-action='<the action as JSON>' -- the page sends it when clicked. No rules
// here: what may be done is exactly ctx.legal.

import { esc } from "/static/js/common.js";

/** A card id ("purse-7", "watch-3") as its kind and value. */
function parseCard(id) {
  const [kind, value] = String(id).split("-");
  return { kind, value: Number(value) };
}

function actionAttr(action) {
  return `data-action='${esc(JSON.stringify(action))}' tabindex="0" role="button"`;
}

/** One card; `down`: banked face down (only its owner sees it); `action`: clicking sends it. */
function card(id, { down = false, action = null } = {}) {
  const c = parseCard(id);
  const title = `a ${c.kind} worth ${c.value}${down ? " (banked face down)" : ""}`;
  return `<div class="pp-card pp-${esc(c.kind)}${down ? " down" : ""}${action ? " legal" : ""}"
    title="${esc(title)}"${action ? " " + actionAttr(action) : ""}>
    <span class="pp-v">${c.value}</span><span class="pp-k">${esc(c.kind)}</span></div>`;
}

function back(title) {
  return `<div class="pp-card pp-back" title="${esc(title)}"></div>`;
}

function seatName(ctx, seat) {
  return esc(ctx.seats?.[seat]?.name ?? `Seat ${seat}`);
}

/** What the viewer can count of a vault: the visible cards, and how many are hidden. */
function worth(vault) {
  const known = vault.filter((s) => s.card).reduce((sum, s) => sum + parseCard(s.card).value, 0);
  const hidden = vault.filter((s) => !s.card).length;
  return hidden ? `${known} + ${hidden}?` : `${known}`;
}

function seatPanel(ctx, seat) {
  const v = ctx.view;
  const vault = v.vaults[seat];
  const pick = ctx.legal.find((a) => a.type === "pick" && a.target === seat);
  const pocket = Array.from({ length: v.hand_sizes[seat] }, () => back("a card in hand")).join("");
  const slots = vault.map((s) => (s.card ? card(s.card, { down: !s.face_up }) : back("banked face down"))).join("");
  const classes = ["pp-seat", seat === ctx.seat ? "me" : "", seat === v.current ? "turn" : ""].join(" ");
  return `<div class="${classes}">
    <div class="pp-head"><b>${seatName(ctx, seat)}</b>${seat === ctx.seat ? ` <span class="pp-chip">you</span>` : ""}
      <span class="pp-grow"></span><span class="pp-worth" title="what you can count of this vault">${esc(worth(vault))}</span></div>
    <div class="pp-row pp-pocket"><span class="pp-label">pocket</span><div class="pp-cards">${pocket || "<em>empty</em>"}</div>
      ${pick ? `<button class="pp-pick" ${actionAttr(pick)}>Pick this pocket</button>` : ""}</div>
    <div class="pp-row pp-vault"><span class="pp-label">vault</span><div class="pp-cards">${slots || "<em>empty</em>"}</div></div>
  </div>`;
}

function prompt(ctx) {
  const v = ctx.view;
  if (v.result) {
    const winners = v.result.winners.map((w) => seatName(ctx, w)).join(" and ");
    return `Game over: ${winners} win${v.result.winners.length > 1 ? "" : "s"}.`;
  }
  if (ctx.legal.length) return "Your turn: bank a card from your hand, or pick a pocket.";
  return `Waiting for ${ctx.toAct.map((s) => seatName(ctx, s)).join(", ")}.`;
}

export default {
  render(root, ctx) {
    const v = ctx.view;
    const bank = (id) => ctx.legal.find((a) => a.type === "bank" && a.card === id) || null;
    const pass = ctx.legal.find((a) => a.type === "pass");
    const hand = ctx.seat === null ? "" : `<div class="pp-hand"><h4>Your hand</h4>
      <div class="pp-cards">${v.hand.map((id) => card(id, { action: bank(id) })).join("") || "<em>empty</em>"}</div>
      ${pass ? `<button ${actionAttr(pass)}>Pass</button>` : ""}</div>`;
    root.innerHTML = `<div class="pp">
      <div class="pp-top"><span class="pp-title">Pickpocket</span>
        <span>Round <b>${v.round}</b> of ${v.rounds}</span><span>Deck: <b>${v.deck_size}</b></span></div>
      <div class="pp-prompt${ctx.legal.length ? " you" : ""}">${prompt(ctx)}</div>
      <div class="pp-seats">${v.vaults.map((_, s) => seatPanel(ctx, s)).join("")}</div>
      ${hand}
    </div>`;
  },
};
