// The guided first game in the browser: the lesson for the moment above the board, the
// lesson's move the only one offered during the guided rounds, and a way to play on freely.
// The server decides the lesson (the "lesson" of the learner's state messages); this module
// only shows it and narrows the moves offered.

import { t } from "./i18n.js";
import { h, toast } from "./page.js";
import { moveWords } from "./describe.js";

const FREE_KEY = "oriflamme.tutorial.free";

function freeTables() {
  try { return JSON.parse(localStorage.getItem(FREE_KEY) || "[]") || []; } catch { return []; }
}

/** Whether the person chose to play this tutorial table freely (remembered in this browser). */
export function playsFreely(token) {
  return freeTables().includes(token);
}

function playFreely(token) {
  try { localStorage.setItem(FREE_KEY, JSON.stringify([token, ...freeTables()].slice(0, 50))); } catch { /* private mode */ }
}

/** The legal moves to offer: only the lesson's move while a lesson asks for one, else all of them. */
export function offeredMoves(msg, token) {
  const legal = msg.legal || [];
  const move = msg.lesson && msg.lesson.move;
  if (!move || playsFreely(token) || !legal.includes(move)) return legal;
  return [move];
}

/** The lesson panel, or null when there is no lesson now. */
export function lessonPanel(msg, token, ctx, redraw) {
  const lesson = msg.lesson;
  if (!lesson || (lesson.move && playsFreely(token))) return null;
  const asked = lesson.move ? h("p", { class: "lesson-move" }, t("web.tutorial_do", { move: moveWords(lesson.move, ctx.view, ctx.names) })) : null;
  const free = lesson.move
    ? h("button", { type: "button", class: "ghost lesson-free", onclick: () => { playFreely(token); toast(t("tutorial.skipped")); redraw(); } }, t("web.tutorial_free"))
    : null;
  return h("section", { class: "panel lesson", role: "status", "aria-live": "polite" },
    h("h2", {}, t("tutorial.title")),
    h("p", { class: "lesson-text" }, t(lesson.key)),
    asked,
    free ? h("p", {}, free) : null);
}
