// The pages' words in English and German. A string is its own key: t("Create table") gives
// the English as written, or its German from DE. The language is the one picked with the
// switcher (kept in this browser), else the browser's (navigator.language), else English.
//
// What is translated: the shared pages (lobby, table, replay: every label, button, prompt
// and message they draw themselves), the "How to play" introductions, and the renderers
// that add their German with addGerman(): all four games' (their own words), and the event
// lines (log, replay, the timer's notice, the end screen: each game's words(event, ctx)
// builds them from the event's type and data, see common.js eventText), and the server's
// refusals (by their code: errorText). What is not: the words the server sends otherwise
// (other plug-ins' option help, the engine's decision texts, the details of a refusal,
// which follow its German in brackets), and Thieves Den's card names and ability texts
// from a card set without German. The games' rules pages come in both languages.

import { DE, ERRORS_DE } from "/static/js/i18n-de.js";

const KEY = "thievery.lang";
export const LANGUAGES = { en: "English", de: "Deutsch" };

/** Strings asked for in German that have no German yet (the tests look here). */
export const missing = new Set();

/** Event types shown in German without German words from their game (the English text
 * was shown instead; the tests look here). */
export const missingWords = new Set();

/** A game renderer's own German (English string -> German), added to the pages'. */
export function addGerman(strings) {
  Object.assign(DE, strings);
}

/** The page's language: "en" or "de". */
export function lang() {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch { /* no storage */ }
  if (stored && stored in LANGUAGES) return stored;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("de") ? "de" : "en";
}

/** Pick a language (kept in this browser) and reload the page in it. */
export function setLang(code) {
  try { localStorage.setItem(KEY, code); } catch { /* no storage */ }
  location.reload();
}

/** A string in the page's language; {name} placeholders filled from `params`. */
export function t(en, params = {}) {
  let text = en;
  if (lang() === "de") {
    if (Object.prototype.hasOwnProperty.call(DE, en)) text = DE[en];
    else missing.add(en);
  }
  return text.replace(/\{(\w+)\}/g, (whole, k) => (k in params ? String(params[k]) : whole));
}

/** Refusal codes shown in German without German words (the server's English was shown
 * instead; the tests look here). */
export const missingErrors = new Set();

/** A refusal in the page's language: `error` is an error frame, or an Error thrown by
 * api() (both have `code` and `message`). The server words its refusals in English; in
 * German they are told by their code, with the server's words in brackets where those
 * name what was wrong. Anything else (no code, a code without German) is shown as it is. */
export function errorText(error) {
  const message = String(error.message || error.code || "");
  const code = String(error.code || "");
  if (lang() !== "de" || !code) return message;
  const known = ERRORS_DE[code] || ERRORS_DE[code.slice(0, code.indexOf("/") + 1)];
  if (!known) {
    missingErrors.add(code);
    return message;
  }
  const [german, detail] = known;
  return detail && message ? `${german} (${message})` : german;
}

/** Translate the page's own static words: elements marked data-i18n (their text), and
 * data-i18n-title / -placeholder / -aria (those attributes). The English is kept in the
 * attribute, so translating twice is harmless. */
export function translatePage(root = document) {
  document.documentElement.lang = lang();
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (!el.dataset.i18n) el.dataset.i18n = el.textContent.trim();
    el.textContent = t(el.dataset.i18n);
  }
  for (const [data, attr] of [["i18nTitle", "title"], ["i18nPlaceholder", "placeholder"], ["i18nAria", "aria-label"]]) {
    const name = data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    for (const el of root.querySelectorAll(`[data-${name}]`)) {
      if (!el.dataset[data]) el.dataset[data] = el.getAttribute(attr) || "";
      el.setAttribute(attr, t(el.dataset[data]));
    }
  }
}

/** A page's start: its static words translated, the switcher in its place (#lang-slot). */
export function setUpPage() {
  translatePage();
  document.getElementById("lang-slot")?.replaceWith(languageSwitcher());
}

/** The language switcher for a page's header: a small select that reloads the page. */
export function languageSwitcher() {
  const select = document.createElement("select");
  select.id = "lang";
  select.className = "lang";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, label] of Object.entries(LANGUAGES)) select.add(new Option(label, code, false, code === lang()));
  select.addEventListener("change", () => setLang(select.value));
  return select;
}
