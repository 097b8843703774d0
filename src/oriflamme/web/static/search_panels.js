// The search's answers on the table page: a hint ranking this decision's options (against bots only)
// and, after the game, the review of this person's moves. Both are asked for with a button and
// kept in the page's state (G) until the position changes.

import { t } from "./i18n.js";
import { h, toast } from "./page.js";
import { moveInWords, percent } from "./describe.js";

/** The hint and review panels of one table page: ``G`` its state, ``names(seat)`` names players. */
export function searchPanels(G, token, spectating, names, draw) {
  /** A hint or a review from the server's search: G[busy] while it thinks, the answer in G[into], a toast if it fails. */
  async function askSearch(busy, into, failKey, request) {
    G[busy] = true;
    draw();
    try {
      const r = await request();
      const answer = await r.json();
      if (!r.ok) throw new Error(answer.detail || String(r.status));
      G[into] = answer;
    } catch (err) {
      toast(`${t(failKey)} ${err.message}`, "error");
    } finally {
      G[busy] = false;
      draw();
    }
  }

  /** Against bots only: the search's ranking of this decision's options, on request. */
  function hintPanel() {
    const others = G.welcome.table.seats.some((s, i) => i !== G.msg.seat && s.kind === "person");
    if (spectating || others || !(G.msg.legal || []).length || G.msg.result) return null;
    const shown = G.hint && G.hint.state === G.msg.state ? G.hint : null;
    if (!shown) {
      return h("button", {
        type: "button", class: "ghost small-btn hint-ask", disabled: !!G.hintBusy,
        onclick: () => askSearch("hintBusy", "hint", "web.hint_failed", () => fetch("/api/hint", {
          method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token, state: G.msg.state }),
        })),
      }, G.hintBusy ? t("web.thinking") : t("web.hint"));
    }
    return h("div", { class: "hint-list" },
      h("p", { class: "muted" }, t("web.hint_title")),
      h("ol", {}, shown.options.slice(0, 4).map((o, i) => h("li", { class: i === 0 ? "best" : "", dataset: { action: o.action } },
        moveInWords(o.move, o.action, names), " — ", h("b", {}, percent(o.win))))));
  }

  /** After the game: this person's moves, judged by the search, on request. */
  function reviewPanel() {
    if (spectating || !G.msg.result) return null;
    if (!G.review) {
      return h("button", {
        type: "button", class: "ghost review-ask", disabled: !!G.reviewBusy,
        onclick: () => askSearch("reviewBusy", "review", "web.review_failed", () => fetch(`/api/review/${token}`)),
      }, G.reviewBusy ? t("web.thinking") : t("web.review_moves"));
    }
    const moves = G.review.moves;
    const lost = moves.reduce((sum, m) => sum + m.cost, 0);
    return h("section", { class: "review" },
      h("h3", {}, t("web.review_title")),
      h("p", { class: "muted" }, t("web.review_summary", { decisions: t("review.decisions", {}, moves.length), lost })),
      h("ol", {}, moves.map((m) => h("li", { class: `review-move ${m.grade || "good"}`, dataset: { index: String(m.index) } },
        h("span", { class: "round" }, t("ui.round", { round: m.round, rounds: G.msg.view.rounds })), ": ",
        m.played === m.best
          ? h("span", {}, moveInWords(m.played_move, m.played, names), " — ", t("web.review_best"))
          : h("span", {}, moveInWords(m.played_move, m.played, names), " (", percent(m.played_win), ") — ",
            t("web.review_preferred", { move: moveInWords(m.best_move, m.best, names) }), " (", percent(m.best_win), ")",
            m.grade ? h("b", { class: "grade" }, " ", t(`web.grade.${m.grade}`)) : null)))));
  }

  return { hintPanel, reviewPanel };
}
