// See what happened: a frame whose action set off a chain of effects (Thieves!'s Alarm:
// each police car, then the raid; Der Schattendieb's round: reveal, ties, thieves, adds,
// safes, closes) is played back one step at a time. Each step is drawn by the game's own
// renderer from a view of the board at that step, its words in the prompt bar, for about
// 0.7 s; cards glide between steps (common.js animateCards); then the frame's real view.
//
// A game opts in by drawing through narrate():
//
//   render(root, ctx) { narrate(root, ctx, draw, story); }
//
//   story(items, before, after, ctx) -> [{ text, view, mark? }]
//     items: the frame's new events with their log lines ([{ event, line }], common.js
//     takeFresh); before: the view drawn last; after: the frame's view. Each step's view is
//     `before` with the events so far applied, as far as the board shows them: built only
//     from this seat's two views and its own events, so it shows nothing the seat may not
//     know. `mark` names the step for the stylesheet (root gets data-step="<mark>").
//
// Under prefers-reduced-motion (and in a hidden tab) nothing waits and nothing moves: the
// frame's view at once. A click on the board, Escape, Enter or Space skips to it. When the
// table moves on while a story plays, the rest goes quicker and the newest chain is told
// next. The page's one polite live region says each step as it is shown; the page's log
// lines wait until the end (less what the steps said), its notices are said at once.

import { animateCards, cardPlaces, esc, holdAnnouncements, say, takeFresh } from "/static/js/common.js";
import { addGerman, t } from "/static/js/i18n.js";

addGerman({
  "Skip": "Überspringen",
  "What happened, step by step (click or press Escape to skip)": "Was passiert ist, Schritt für Schritt (Klick oder Escape überspringt)",
});

/** How long a step stays (ms): 0.7 s; 0.5 s once the table has moved on (a newer frame
 * came while the steps play: the chains of the frames in between are not told). */
export const STEP_MS = 700;
const QUICK_MS = 500;

/** Whether the player asked for less motion (then nothing is narrated). */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const narrators = new WeakMap();

/**
 * Draw `ctx` into `root` with `draw(root, ctx)`, playing the frame's chained events step by
 * step first when there are at least two (see the top of this file). Replays, the first
 * frame and reduced motion draw at once.
 */
export function narrate(root, ctx, draw, story) {
  let narrator = narrators.get(root);
  if (!narrator) {
    narrator = new Narrator(root);
    narrators.set(root, narrator);
  }
  narrator.show(ctx, draw, story);
}

/**
 * End the story on show in `root`, if one is: the table as it is now, at once. The player
 * closed the game's result to look at the table, and nothing is left to tell.
 */
export function endStory(root) {
  narrators.get(root)?.finish(false);
}

/** Call `then` once the story on show in `root` is over (the newest board drawn), at once
 * if none is: what comes after the board (the game's result) waits for what led to it.
 * Whether it waited. */
export function afterStory(root, then) {
  const narrator = narrators.get(root);
  if (!narrator?.playing) return false;
  narrator.waiting.push(then);
  return true;
}

class Narrator {
  constructor(root) {
    this.root = root;
    this.waiting = []; // called once the story on show is over (see afterStory)
    this.latest = null; // the newest ctx the page asked for
    this.draw = null;
    this.queue = []; // steps still to show
    this.shown = 0; // steps shown in this run
    this.said = new Set(); // the lines the steps said (held announcements leave them out)
    this.lines = new Set(); // every log line of the frames told
    this.held = []; // log lines announced by the page while the steps play
    this.prompt = ""; // the page's newest prompt while the steps play
    this.current = ""; // the step on show
    this.frames = 0; // frames told so far (each step knows its frame)
    this.onShow = 0; // the frame of the step on show
    this.behind = false; // a newer frame came while the steps play
    this.playing = false;
    this.timer = null;
    root.addEventListener("click", (event) => {
      if (!this.playing) return;
      event.preventDefault();
      event.stopPropagation();
      this.finish(false);
    }, true);
    // A hidden tab runs timers late: nothing is told there, and a story under way ends.
    document.addEventListener("visibilitychange", () => {
      if (document.hidden && this.playing) this.finish(false);
    });
    document.addEventListener("keydown", (event) => {
      if (!this.playing || !["Escape", "Enter", " "].includes(event.key)) return;
      const inside = document.activeElement === document.body || root.contains(document.activeElement);
      if (event.key !== "Escape" && !inside) return;
      event.preventDefault();
      this.finish(false);
    });
  }

  show(ctx, draw, story) {
    const before = this.latest?.view;
    const items = ctx.mode === "play" ? takeFresh(ctx.view) : [];
    this.latest = ctx;
    this.draw = draw;
    if (items === null) { // the same frame drawn again (an action on its way, a refusal)
      if (!this.playing) draw(this.root, ctx);
      return;
    }
    let steps = [];
    if (before && items.length && ctx.mode === "play" && !reducedMotion() && !document.hidden) {
      try {
        steps = story(items, before, ctx.view, ctx) || [];
      } catch (error) {
        console.warn("no narration for this frame", error);
      }
    }
    if (this.playing) {
      // A fresh start (a welcome after a reconnect) ends the story. Else the table moved
      // on: the rest of the story on show goes quicker, a newer chain is told after it (in
      // place of any told waiting before it), a frame of one step is shown by the newest
      // view when the steps are done.
      if (!items.length) {
        this.finish(false);
      } else {
        this.behind = true;
        if (steps.length >= 2) {
          this.queue = this.queue.filter((step) => step.frame === this.onShow);
          this.tell(steps, items);
        }
      }
      return;
    }
    if (steps.length < 2) {
      draw(this.root, ctx);
      return;
    }
    this.shown = 0;
    this.said.clear();
    this.lines.clear();
    this.held = [];
    this.prompt = "";
    this.behind = false;
    holdAnnouncements((text, log, prompt) => this.hold(text, log, prompt));
    this.playing = true;
    this.tell(steps, items);
    this.next(true);
  }

  tell(steps, items) {
    this.frames += 1;
    this.queue.push(...steps.map((step) => ({ ...step, frame: this.frames })));
    for (const { line } of items) this.lines.add(line);
  }

  /** The page's announcement while the steps play: its log lines wait for the end (those
   * the steps say are left out), a newer frame's too (said at once, with the step on show,
   * they were read again with each step and ahead of the story); anything else (a notice,
   * a toast) is said at once, with the step on show. */
  hold(text, log = [], prompt = "") {
    const logged = (p) => this.lines.has(p) || log.includes(p);
    const parts = String(text).split(" · ").filter(Boolean);
    this.held.push(...parts.filter(logged));
    if (prompt) this.prompt = prompt; // (the newest, said at the end)
    const now = parts.filter((p) => !logged(p) && p !== prompt);
    if (now.length) say([...now, this.current].filter(Boolean).join(" · "));
    return true;
  }

  next(first = false) {
    const step = this.queue.shift();
    if (!step) {
      this.finish(true);
      return;
    }
    this.shown += 1;
    this.onShow = step.frame;
    const total = this.shown + this.queue.length;
    const places = first ? null : cardPlaces(this.root);
    try {
      this.draw(this.root, { ...this.latest, view: step.view, legal: [], toAct: step.view.to_act || [], narrating: true });
    } catch (error) { // a step the renderer cannot draw: the frame's own view, at once
      console.warn("a step could not be drawn", error);
      this.finish(false);
      return;
    }
    if (places) animateCards(this.root, places);
    this.caption(step, total);
    this.said.add(step.text);
    // A step may join several log lines with " · ": each counts as said.
    for (const part of step.text.split(" · ")) this.said.add(part);
    this.current = step.text;
    say(step.text);
    this.timer = setTimeout(() => this.next(), this.behind ? QUICK_MS : STEP_MS);
  }

  /** The step's words where the renderer's prompt is (else above the board), with Skip. */
  caption(step, total) {
    const root = this.root;
    root.dataset.narrating = "true";
    if (step.mark) root.dataset.step = step.mark;
    else delete root.dataset.step;
    let bar = root.querySelector("[data-prompt]");
    if (!bar) {
      bar = document.createElement("div");
      root.prepend(bar);
    }
    // Not the page's prompt while it tells a step: the page reads the prompt out, and the
    // narration says its steps itself.
    bar.removeAttribute("data-prompt");
    bar.classList.add("narration");
    bar.title = t("What happened, step by step (click or press Escape to skip)");
    bar.innerHTML = `<span class="narr-count" title="${esc(t("step {n} of {total}", { n: this.shown, total }))}">${this.shown}/${total}</span>
      <span class="narr-text">${esc(step.text)}</span>
      <button type="button" class="small narr-skip">${esc(t("Skip"))} »</button>`;
  }

  /** Draw the newest frame's view: at once, or gliding there after the last step. */
  finish(glide) {
    clearTimeout(this.timer);
    const was = this.playing;
    this.playing = false;
    this.timer = null;
    this.queue = [];
    delete this.root.dataset.narrating;
    delete this.root.dataset.step;
    if (!was) return;
    holdAnnouncements(null);
    try {
      if (this.latest) {
        const places = glide ? cardPlaces(this.root) : null;
        this.draw(this.root, this.latest);
        if (places) animateCards(this.root, places);
      }
    } catch (error) { // (what waits for the story is not held back for ever by it)
      console.error("the newest board could not be drawn", error);
    }
    // What the steps did not say, the newest few (older ones are stale by now: a long
    // story read a batch from many turns back), then the prompt.
    const rest = this.held.filter((line) => !this.said.has(line)).slice(-4);
    const prompt = this.prompt;
    this.held = [];
    this.prompt = "";
    this.current = "";
    if (rest.length || prompt) say([...rest, prompt].filter(Boolean).join(" · "));
    const waiting = this.waiting; // (afterStory's: the story is over)
    this.waiting = [];
    for (const then of waiting) then();
  }
}

/** A deep copy of a view (JSON only), for a story to change step by step. */
export function copyView(view) {
  return JSON.parse(JSON.stringify(view));
}
