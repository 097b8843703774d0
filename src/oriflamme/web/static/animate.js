// Animations of what changed between two states (cards that move, leave or arrive; scores).

import { h } from "./page.js";
import { cardEl } from "./cards.js";

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// ---------------------------------------------------------------- animations

/**
 * Follow the queue positions through an action's events, so that each new position knows which old
 * position it was (for a smooth move), and which old ones left (to fade them out).
 */
function trackPositions(oldQueue, events) {
  let entries = oldQueue.map((stack, i) => ({ old: i, height: stack.length, flags: new Set() }));
  const leaving = [];
  for (const e of events) {
    if (typeof e.pos !== "number") continue;
    const p = e.pos;
    switch (e.type) {
      case "placed":
      case "twin_placed":
        if (e.stacked && entries[p]) { entries[p].height += 1; entries[p].flags.add("stacked"); }
        else entries.splice(p, 0, { old: null, height: 1, flags: new Set(["new"]) });
        break;
      case "replaced":
        entries.splice(p, 0, { old: null, height: 1, flags: new Set(["new"]) });
        break;
      case "revealed":
        if (entries[p]) {
          entries[p].flags.add("reveal");
          entries[p].revealed = e.card; // an intrigue may leave in the same step: shown face up first
        }
        break;
      case "turned_down":
        if (entries[p]) entries[p].flags.add("turn");
        break;
      case "swapped":
        if (entries[p]) { leaving.push({ old: entries[p].old, top: true }); entries[p].flags.add("new"); }
        break;
      case "eliminated":
      case "discarded":
      case "card_kept": {
        const entry = entries[p];
        if (!entry) return null;
        leaving.push({ old: entry.old, top: entry.height > 1, kind: e.type, revealed: entry.revealed || null });
        if (entry.height > 1) { entry.height -= 1; entry.flags.add("uncovered"); }
        else entries.splice(p, 1);
        break;
      }
      case "moved": {
        const entry = entries[p];
        if (!entry || typeof e.to !== "number") return null;
        if (entry.height > 1) {
          entry.height -= 1;
          entries.splice(e.to, 0, { old: null, from: entry.old, height: 1, flags: new Set(["moved"]) });
        } else {
          entries.splice(p, 1);
          entry.flags.add("moved");
          entries.splice(e.to, 0, entry);
        }
        break;
      }
      default:
    }
  }
  return { entries, leaving };
}

export function animateChange(before, events) {
  if (reducedMotion || !before) return;
  const track = trackPositions(before.queue, events);
  const posEls = [...document.querySelectorAll(".queue .pos")];
  if (!track || track.entries.length !== posEls.length) {
    for (const el of posEls) el.classList.add("fade-in");
    return;
  }
  track.entries.forEach((entry, j) => {
    const el = posEls[j];
    const from = entry.old !== null ? before.rects[entry.old] : entry.from !== undefined && entry.from !== null ? before.rects[entry.from] : null;
    const now = el.getBoundingClientRect();
    if (from && (Math.abs(from.left - now.left) > 1 || Math.abs(from.top - now.top) > 1)) {
      el.animate([{ transform: `translate(${from.left - now.left}px, ${from.top - now.top}px)` }, { transform: "none" }],
        { duration: 380, easing: "cubic-bezier(.2,.7,.2,1)" });
    }
    const top = el.querySelector(".card.top");
    if (entry.flags.has("new")) el.animate([{ transform: "translateY(-40px) scale(.9)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 360, easing: "ease-out" });
    if (top && entry.flags.has("stacked")) top.animate([{ transform: "translateY(-36px)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 360, easing: "ease-out" });
    if (top && (entry.flags.has("reveal") || entry.flags.has("turn"))) {
      top.animate([{ transform: "rotateY(90deg)" }, { transform: "rotateY(0deg)" }], { duration: 420, easing: "ease-out" });
      top.classList.add("flash");
    }
    if (top && entry.flags.has("moved")) top.classList.add("flash");
  });
  // Leaving cards fly in a fixed layer that clips them: they never widen or scroll the page.
  const layer = document.getElementById("fx") || document.body.appendChild(h("div", { id: "fx", "aria-hidden": "true" }));
  for (const gone of track.leaving) {
    const known = gone.old !== null && gone.old !== undefined;
    const rect = known ? before.cardRects[gone.old] : null;
    const html = known ? before.topHtml[gone.old] : null;
    if (!rect || !html) continue;
    const ghost = h("div", { class: "leaving-card", html, style: `left:${rect.left}px;top:${rect.top}px;width:${rect.width}px;height:${rect.height}px` });
    let hold = 0;
    if (gone.revealed) {
      // Revealed and gone in one step (an intrigue): it was never drawn face up, so the ghost is its
      // face, held long enough to be read before it leaves.
      const stack = before.queue[gone.old];
      const owner = stack[stack.length - 1].owner;
      ghost.replaceChildren(cardEl({ kind: gone.revealed, owner, ctrl: owner, up: true }));
      ghost.classList.add("shown-face");
      hold = 0.65;
    }
    layer.append(ghost);
    const still = { transform: "none", opacity: 1, filter: "none" };
    const fall = gone.kind === "card_kept"
      ? [still, { transform: "translateY(60px) scale(.7)", opacity: 0, filter: "none" }]
      : [still, { transform: "translateY(30px) rotate(-12deg) scale(.85)", opacity: 0, filter: "sepia(1) saturate(4) hue-rotate(-30deg)" }];
    const frames = hold ? [{ ...still, offset: 0 }, { ...still, offset: hold }, { ...fall[1], offset: 1 }] : fall;
    ghost.animate(frames, { duration: hold ? 1500 : 520, easing: "ease-in" }).onfinish = () => ghost.remove();
  }
}

export function snapshotQueue(view) {
  const posEls = [...document.querySelectorAll(".queue .pos")];
  if (!view || posEls.length !== view.queue.length) return null;
  return {
    queue: view.queue,
    rects: posEls.map((el) => el.getBoundingClientRect()),
    cardRects: posEls.map((el) => (el.querySelector(".card.top") || el).getBoundingClientRect()),
    topHtml: posEls.map((el) => (el.querySelector(".card.top") || el).outerHTML),
  };
}

export function floatScores(before, after) {
  if (reducedMotion || !before) return;
  for (let s = 0; s < after.scores.length; s++) {
    const d = after.scores[s] - before.scores[s];
    const chip = document.querySelector(`.score b[data-seat="${s}"]`);
    if (!d || !chip) continue;
    const tag = h("span", { class: `delta ${d > 0 ? "up" : "down"}` }, d > 0 ? `+${d}` : String(d));
    chip.parentElement.append(tag);
    tag.animate([{ transform: "translateY(0)", opacity: 1 }, { transform: "translateY(-22px)", opacity: 0 }], { duration: 1100, easing: "ease-out" }).onfinish = () => tag.remove();
  }
}
