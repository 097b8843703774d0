// The replay viewer of a finished game (← and → keys).

import { narrate, t } from "./i18n.js";
import { frame, h, mount, seatName, setRerender } from "./page.js";
import { parseLegal } from "./legal.js";
import { board } from "./board.js";
import { logPanel, resultPanel, scrollLog, scrollQueue } from "./log.js";
import { animateChange, floatScores, snapshotQueue } from "./animate.js";

export async function replayPage(token) {
  mount(frame(t("web.replay"), h("main", { class: "loading" }, h("p", {}, "…"))));
  const r = await fetch(`/api/replay/${encodeURIComponent(token)}`);
  if (!r.ok) {
    mount(frame(t("web.replay"), h("main", { class: "notice" }, h("h2", {}, t(r.status === 409 ? "web.not_over" : "web.bad_link")), h("p", {}, h("a", { href: "/" }, t("web.to_lobby"))))));
    return;
  }
  const doc = await r.json();
  const names = (s) => (doc.table.seats[s] ? seatName(doc.table.seats[s], s) : `p${s + 1}`);
  const steps = doc.steps;
  let k = Number(new URLSearchParams(location.search).get("step")) || 0;
  k = Math.max(0, Math.min(steps.length - 1, k));

  function go(next) {
    next = Math.max(0, Math.min(steps.length - 1, next));
    if (next === k) return;
    const before = Math.abs(next - k) === 1 && next > k ? snapshotQueue(steps[k].view) : null;
    if (before) before.viewBefore = steps[k].view;
    k = next;
    draw(before);
  }

  function draw(before = null) {
    const step = steps[k];
    const ctx = {
      view: step.view, seat: doc.seat, names, legal: parseLegal([]), act: () => {}, select: () => {},
      selected: null, online: null, seats: doc.table.seats, rules: doc.table.rules, interactive: false,
      reveal: step.reveal || null,
      // The prompt says where in the replay this is, not what a live table waits for.
      replay: { step: k, total: steps.length - 1 },
    };
    const controls = h("nav", { class: "replay-controls", "aria-label": t("web.replay") },
      h("button", { type: "button", class: "act ghost", onclick: () => go(0), disabled: k === 0, "aria-label": t("web.replay_first") }, "◀◀"),
      h("button", { type: "button", class: "act", onclick: () => go(k - 1), disabled: k === 0, "aria-keyshortcuts": "ArrowLeft" }, "◀ ", t("web.replay_back")),
      h("span", { class: "step" }, t("replay.step", { step: k, total: steps.length - 1 })),
      h("button", { type: "button", class: "act", onclick: () => go(k + 1), disabled: k === steps.length - 1, "aria-keyshortcuts": "ArrowRight" }, t("web.replay_forward"), " ▶"),
      h("button", { type: "button", class: "act ghost", onclick: () => go(steps.length - 1), disabled: k === steps.length - 1, "aria-label": t("web.replay_last") }, "▶▶"),
      h("input", { type: "range", min: "0", max: String(steps.length - 1), value: String(k), "aria-label": t("replay.step", { step: k, total: steps.length - 1 }), oninput: (e) => go(Number(e.target.value)) }));
    const actor = step.actor !== null && step.actor !== undefined ? names(step.actor) : null;
    const what = step.events.length ? step.events.map((e) => narrate(e, names)).join(" ") : "";
    mount(frame(t("web.replay"),
      h("main", { class: "table-page replay" },
        h("div", { class: "main-col" }, controls,
          h("p", { class: "replay-now" }, actor ? h("b", {}, actor, ": ") : null, what),
          board(ctx),
          step.result ? resultPanel(step.result, names, h("p", { class: "end-links" },
            h("a", { class: "button ghost", href: `/api/save/${encodeURIComponent(token)}`, download: "" }, t("web.download_save"))), step.reveal) : null),
        h("div", { class: "side-col" }, logPanel(steps.slice(0, k + 1).map((s) => s.events), names, k)))));
    scrollQueue(null);
    const cur = document.querySelector(".log .current");
    if (cur) cur.scrollIntoView({ block: "nearest" }); else scrollLog();
    history.replaceState(null, "", `?step=${k}`);
    if (before) { animateChange(before, step.events); floatScores(before.viewBefore, step.view); }
  }

  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === "ArrowRight") go(k + 1);
    else if (e.key === "ArrowLeft") go(k - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(steps.length - 1);
  });
  setRerender(() => draw());
  draw();
}
