// A small line chart drawn as inline SVG: a player's rating after each rated game. No library: the
// page has no build step and loads nothing from elsewhere. The chart is an image to assistive
// technology (role="img", its <title> and aria-label say what it shows); each point has its own
// <title> (the game's number, its rating and its day), which a pointer shows too.

const NS = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** Round numbers for an axis from ``lo`` to ``hi``, about ``want`` of them (1, 2 or 5 times a power of ten apart). */
export function ticks(lo, hi, want) {
  const span = Math.max(hi - lo, 1e-9);
  const raw = span / Math.max(1, want);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((x) => x >= raw) || 10 * power;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
  return out;
}

/**
 * The chart. ``values``: the ratings, oldest first; ``width``: the pixels it has (it is drawn at
 * that size, so its words keep their size on a phone); ``words``: {title, x, y, point(i), number(v)}.
 */
export function linePlot(values, width, words) {
  const w = Math.max(240, Math.round(width));
  const narrow = w < 420;
  const hgt = narrow ? 190 : 230;
  const m = { left: 46, right: 14, top: 12, bottom: 42 };
  const iw = w - m.left - m.right;
  const ih = hgt - m.top - m.bottom;
  const n = values.length;
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  const pad = Math.max((hi - lo) * 0.1, 0.5);
  lo -= pad; hi += pad;
  const yTicks = ticks(lo, hi, narrow ? 3 : 4);
  lo = Math.min(lo, yTicks[0]); hi = Math.max(hi, yTicks[yTicks.length - 1]);
  const x = (i) => m.left + (n === 1 ? iw / 2 : (i / (n - 1)) * iw);
  const y = (v) => m.top + ih - ((v - lo) / (hi - lo)) * ih;
  const xTicks = n === 1 ? [1] : ticks(1, n, Math.min(n - 1, narrow ? 4 : 8)).filter((g) => Number.isInteger(g) && g >= 1 && g <= n);
  const path = values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return s("svg", {
    class: "plot", role: "img", "aria-label": words.title, width: w, height: hgt, viewBox: `0 0 ${w} ${hgt}`,
  },
  s("title", {}, words.title),
  s("g", { class: "plot-grid" }, yTicks.map((v) => s("line", { x1: m.left, x2: w - m.right, y1: y(v), y2: y(v) }))),
  s("g", { class: "plot-axis" },
    s("line", { x1: m.left, x2: m.left, y1: m.top, y2: m.top + ih }),
    s("line", { x1: m.left, x2: w - m.right, y1: m.top + ih, y2: m.top + ih })),
  s("g", { class: "plot-ticks y", "aria-hidden": "true" }, yTicks.map((v) => s("text", { x: m.left - 6, y: y(v), "text-anchor": "end", "dominant-baseline": "middle" }, words.number(v)))),
  s("g", { class: "plot-ticks x", "aria-hidden": "true" }, xTicks.map((g) => s("text", { x: x(g - 1), y: m.top + ih + 16, "text-anchor": "middle" }, String(g)))),
  s("text", { class: "plot-label", x: m.left + iw / 2, y: hgt - 6, "text-anchor": "middle", "aria-hidden": "true" }, words.x),
  s("text", { class: "plot-label", x: 0, y: 0, "text-anchor": "middle", transform: `translate(12 ${m.top + ih / 2}) rotate(-90)`, "aria-hidden": "true" }, words.y),
  s("path", { class: "plot-line", d: path }),
  s("g", { class: "plot-points" }, values.map((v, i) => s("circle", { cx: x(i), cy: y(v), r: n > 60 ? 2.5 : 4, "data-index": i + 1 }, s("title", {}, words.point(i))))));
}
