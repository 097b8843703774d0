// DOM helpers, the page frame (title, language menu), and the seat tokens this browser remembers.

import { emblem } from "./art.js";
import { LANGUAGES, currentLanguage, has, languageName, setLanguage, t } from "./i18n.js";

const app = document.getElementById("app");

// ---------------------------------------------------------------- small DOM helpers

// A seat's name as given, or else its kind and number in the page's language ("Bot 2", "Бот 2").
export function seatName(seat, i) {
  if (seat && seat.name) return seat.name;
  return t(seat && seat.kind === "bot" ? "web.default_bot" : "web.name_placeholder", { n: i + 1 });
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "html") el.innerHTML = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function tr(key, params = {}, n = undefined, fallback = null) {
  return has(key) || fallback === null ? t(key, params, n) : fallback;
}

export function toast(text, kind = "info") {
  const box = document.getElementById("toasts") || document.body.appendChild(h("div", { id: "toasts", role: "status", "aria-live": "polite" }));
  const el = h("div", { class: `toast ${kind}` }, text);
  box.append(el);
  setTimeout(() => el.classList.add("gone"), 3200);
  setTimeout(() => el.remove(), 3800);
}

// ---------------------------------------------------------------- tokens remembered by this browser

const TOKENS_KEY = "oriflamme.tokens";

export function rememberedTokens() {
  try {
    const list = JSON.parse(localStorage.getItem(TOKENS_KEY) || "[]");
    return Array.isArray(list) ? list.filter((x) => x && typeof x.token === "string") : [];
  } catch {
    return [];
  }
}

export function rememberToken(token, role) {
  const list = rememberedTokens().filter((x) => x.token !== token);
  list.unshift({ token, role, added: Date.now() });
  localStorage.setItem(TOKENS_KEY, JSON.stringify(list.slice(0, 100)));
  tokenListener(token, role);
}

let tokenListener = () => {};

/** Who else hears of a link this browser learns (the account, when one is logged in: account.js). */
export function setTokenListener(fn) {
  tokenListener = fn;
}

export function forgetTokens(tokens) {
  const drop = new Set(tokens);
  localStorage.setItem(TOKENS_KEY, JSON.stringify(rememberedTokens().filter((x) => !drop.has(x.token))));
}

// ---------------------------------------------------------------- page frame

let rerender = () => {};

/** What redraws the current page (after a language change). */
export function setRerender(fn) {
  rerender = fn;
}

export function frame(title, ...content) {
  const select = h("select", {
    id: "lang", "aria-label": tr("web.language", {}, undefined, "Language"),
    onchange: async (e) => { await setLanguage(e.target.value, true); rerender(); },
  }, LANGUAGES.map((code) => h("option", { value: code, selected: code === currentLanguage() }, languageName(code))));
  return [
    h("header", { class: "top" },
      h("a", { class: "brand", href: "/" }, h("span", { class: "flame", html: emblem("fanatic") }), "Oriflamme"),
      // The page's one h1: what this page is (a table, the lobby), or the game's name.
      h("h1", { class: "top-title" }, title || h("span", { class: "sr-only" }, "Oriflamme")),
      select),
    ...content,
  ];
}

export function mount(...nodes) {
  app.replaceChildren(...nodes.flat().filter((n) => n !== null && n !== undefined && n !== false));
}

/** The field that has the focus now, and its caret; ``restore`` gives them back after a redraw
 * that kept the field itself (moving it into the new page takes its focus away). Call it before
 * building the new page: building already moves kept nodes out of the document. */
export function rememberFocus() {
  const focused = document.activeElement;
  const caret = focused && typeof focused.selectionStart === "number" ? [focused.selectionStart, focused.selectionEnd] : null;
  return {
    restore() {
      if (!focused || focused === document.body || !focused.isConnected || document.activeElement === focused) return;
      focused.focus({ preventScroll: true });
      if (caret) try { focused.setSelectionRange(caret[0], caret[1]); } catch { /* a field without a caret */ }
    },
  };
}

// ---------------------------------------------------------------- names chosen for a seat link

const NAMED_KEY = "oriflamme.named";

/** Whether the person at this seat link already chose their name (or was asked and skipped). */
export function seatNamed(token) {
  try { return (JSON.parse(localStorage.getItem(NAMED_KEY) || "[]") || []).includes(token); } catch { return false; }
}

export function markSeatNamed(token) {
  try {
    const list = (JSON.parse(localStorage.getItem(NAMED_KEY) || "[]") || []).filter((x) => x !== token);
    list.unshift(token);
    localStorage.setItem(NAMED_KEY, JSON.stringify(list.slice(0, 200)));
  } catch { /* not remembered: the question comes again */ }
}

/** A link to hand out: the address, selected on focus, and a copy button. */
export function linkField(url) {
  const input = h("input", { class: "link", readonly: true, value: url, "aria-label": url, onfocus: (e) => e.target.select() });
  const copy = h("button", {
    type: "button", class: "ghost small-btn",
    onclick: async (e) => {
      e.stopPropagation();
      try { await navigator.clipboard.writeText(url); toast(t("web.copied")); } catch { input.select(); }
    },
  }, t("web.copy"));
  return h("div", { class: "link-field" }, input, copy);
}
