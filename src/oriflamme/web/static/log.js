// The narrated log, and the end-of-game panel (scores, tie-break, winners).

import { cardName, has, ip, joinList, narrate, t } from "./i18n.js";
import { h } from "./page.js";
import { cardEl, swatch } from "./cards.js";

export function logLines(steps, names, from = 0) {
  const lines = [];
  steps.forEach((events, i) => {
    for (const e of events) {
      if (e.type === "round_started") lines.push(h("li", { class: "round-line", dataset: { step: String(i + from) } }, narrate(e, names)));
      else if (e.type !== "round_ended") lines.push(h("li", { class: `ev ev-${e.type}`, dataset: { step: String(i + from) } }, narrate(e, names)));
    }
  });
  return lines;
}

export function logPanel(steps, names, highlightStep = null, list = null) {
  list = list || h("ol", { class: "log", "aria-live": "off" }, logLines(steps, names));
  if (highlightStep !== null) {
    for (const li of list.querySelectorAll(`[data-step="${highlightStep}"]`)) li.classList.add("current");
  }
  return h("section", { class: "log-panel" }, h("h2", {}, t("ui.log_title")), list);
}

/** Keep the queue scrolled where the action is (a legal choice, else the resolving position). */
export function scrollQueue(previousLeft) {
  const q = document.querySelector(".queue");
  if (!q || q.scrollWidth <= q.clientWidth) return;
  const spot = q.querySelector(".legal") || q.querySelector(".pos.resolving");
  if (spot) {
    const box = spot.closest(".pos") || spot;
    q.scrollLeft = box.offsetLeft - q.clientWidth / 2 + box.offsetWidth / 2;
  } else if (previousLeft !== null) {
    q.scrollLeft = previousLeft;
  }
}

/**
 * Bring this person's decision into view, smoothly and only if it is not in view already: the hand
 * when its cards are the choices, else the prompt.
 */
export function showDecision() {
  const hand = document.querySelector(".hand-area");
  const spot = hand && hand.querySelector(".card.legal") ? hand : document.querySelector(".prompt.mine");
  if (!spot) return;
  const r = spot.getBoundingClientRect();
  const header = document.querySelector("header.top");
  const top = header ? header.getBoundingClientRect().bottom : 0;
  if (r.top >= top && r.bottom <= window.innerHeight) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  spot.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
}

export function scrollLog() {
  const log = document.querySelector(".log");
  if (log) log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- end of game

/** The end of the game, from the server's outcome (order, leaders, winners: ranked by the engine). */
export function resultPanel(result, names, extra, reveal = null, conceded = []) {
  const { order, leaders } = result;
  const best = result.scores[order[0]];
  const winners = result.winners.map(names);
  const lines = [];
  if (result.decided_by === "score") {
    lines.push(t("end.winner", { player: winners[0], ip: ip(best) }));
  } else {
    lines.push(t("end.tie", { players: joinList(leaders.map(names)), ip: ip(best) }));
    const counts = joinList(leaders.map((s) => t("end.positions_of", { player: names(s) }, result.positions[s])));
    lines.push(t("end.tiebreak", { counts }));
    lines.push(result.decided_by === "positions"
      ? t("end.winner", { player: winners[0], ip: ip(best) })
      : t("end.shared", { players: joinList(winners), ip: ip(best) }));
  }
  return h("section", { class: "result", "aria-live": "polite" },
    h("h2", {}, t("end.title")),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, t("ui.col.player")), h("th", {}, t("ui.col.ip")), h("th", {}, t("ui.col.positions")), h("th", {}))),
      h("tbody", {}, order.map((s) => h("tr", { class: result.winners.includes(s) ? "win" : "" },
        h("td", {}, swatch(s), " ", names(s)),
        h("td", {}, String(result.scores[s])),
        h("td", {}, String(result.positions[s])),
        h("td", {}, result.winners.includes(s) ? t("end.winner_mark") : conceded.includes(s) ? t("web.conceded") : ""))))),
    lines.map((line) => h("p", {}, line)),
    ledgerList(result, names),
    reveal ? lastCards(reveal, order, names) : null,
    extra);
}

function causeName(cause) {
  return has(`card.${cause}.name`) ? cardName(cause) : t(`cause.${cause}`);
}

/** Where each player's IP came from (the engine's ledger: net IP by card or rule, largest first). */
function ledgerList(result, names) {
  return h("section", { class: "ledger" },
    h("h3", {}, t("web.ip_sources")),
    h("ul", {}, result.order.map((s) => h("li", { dataset: { seat: String(s) } },
      swatch(s), " ", h("b", {}, names(s)), " ",
      result.ledger[s].map(([cause, n]) => h("span", { class: `cause ${n < 0 ? "minus" : ""}` },
        `${causeName(cause)} ${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n)}`))))));
}

/** The cards each player still held and had set aside: the final reveal's hands. */
function lastCards(reveal, order, names) {
  const rows = order.filter((s) => reveal.hands[s].length || reveal.aside[s].length).map((s) =>
    h("div", { class: "last-cards", dataset: { seat: String(s) } },
      h("span", { class: "who" }, swatch(s), " ", names(s)),
      reveal.hands[s].length ? h("span", { class: "pile-row" }, h("span", { class: "pile-label" }, t("web.in_hand")),
        reveal.hands[s].map((c) => cardEl(c, { small: true, names, opened: true }))) : null,
      reveal.aside[s].length ? h("span", { class: "pile-row" }, h("span", { class: "pile-label" }, t("web.set_aside")),
        reveal.aside[s].map((c) => cardEl(c, { small: true, names, opened: true }))) : null));
  if (!rows.length) return null;
  return h("section", { class: "reveal" }, h("h3", {}, t("web.last_cards")), rows);
}
