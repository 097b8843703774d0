// The narrated log, and the end-of-game panel (scores, tie-break, winners).

import { ip, joinList, narrate, t } from "./i18n.js";
import { h } from "./page.js";
import { familyClass } from "./cards.js";

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

export function scrollLog() {
  const log = document.querySelector(".log");
  if (log) log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- end of game

/** The end of the game, from the server's outcome (order, leaders, winners: ranked by the engine). */
export function resultPanel(result, names, extra) {
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
        h("td", {}, h("span", { class: `swatch ${familyClass(s)}` }), " ", names(s)),
        h("td", {}, String(result.scores[s])),
        h("td", {}, String(result.positions[s])),
        h("td", {}, result.winners.includes(s) ? t("end.winner_mark") : ""))))),
    lines.map((line) => h("p", {}, line)),
    extra);
}
