// Oriflamme in the browser: the lobby, the table (play or watch) and the replay viewer.
// Plain modules, no build step. Every fact shown comes from the server's messages for this seat;
// the page offers only the legal actions the server listed.

import { back, emblem } from "./art.js";
import {
  LANGUAGES, cardName, cardText, currentLanguage, ip, joinList, languageName, narrate, preferredLanguage,
  setLanguage, t, has,
} from "./i18n.js";

const app = document.getElementById("app");
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// ---------------------------------------------------------------- small DOM helpers

function h(tag, attrs = {}, ...children) {
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

function tr(key, params = {}, n = undefined, fallback = null) {
  return has(key) || fallback === null ? t(key, params, n) : fallback;
}

function toast(text, kind = "info") {
  const box = document.getElementById("toasts") || document.body.appendChild(h("div", { id: "toasts", role: "status", "aria-live": "polite" }));
  const el = h("div", { class: `toast ${kind}` }, text);
  box.append(el);
  setTimeout(() => el.classList.add("gone"), 3200);
  setTimeout(() => el.remove(), 3800);
}

// ---------------------------------------------------------------- tokens remembered by this browser

const TOKENS_KEY = "oriflamme.tokens";

function rememberedTokens() {
  try {
    const list = JSON.parse(localStorage.getItem(TOKENS_KEY) || "[]");
    return Array.isArray(list) ? list.filter((x) => x && typeof x.token === "string") : [];
  } catch {
    return [];
  }
}

function rememberToken(token, role) {
  const list = rememberedTokens().filter((x) => x.token !== token);
  list.unshift({ token, role, added: Date.now() });
  localStorage.setItem(TOKENS_KEY, JSON.stringify(list.slice(0, 100)));
}

function forgetTokens(tokens) {
  const drop = new Set(tokens);
  localStorage.setItem(TOKENS_KEY, JSON.stringify(rememberedTokens().filter((x) => !drop.has(x.token))));
}

// ---------------------------------------------------------------- page frame

let rerender = () => {};

function frame(title, ...content) {
  const select = h("select", {
    id: "lang", "aria-label": tr("web.language", {}, undefined, "Language"),
    onchange: async (e) => { await setLanguage(e.target.value, true); rerender(); },
  }, LANGUAGES.map((code) => h("option", { value: code, selected: code === currentLanguage() }, languageName(code))));
  return [
    h("header", { class: "top" },
      h("a", { class: "brand", href: "/" }, h("span", { class: "flame", html: emblem("fanatic") }), "Oriflamme"),
      h("span", { class: "top-title" }, title),
      select),
    ...content,
  ];
}

function mount(...nodes) {
  app.replaceChildren(...nodes.flat().filter((n) => n !== null && n !== undefined && n !== false));
}

// ---------------------------------------------------------------- cards

function familyClass(seat) {
  return `fam${seat}`;
}

function cardLabel(c, names) {
  const who = names ? names(c.owner) : `p${c.owner + 1}`;
  const what = c.kind ? cardName(c.kind) : t("ui.face_down_card");
  const parts = [`${what} (${who})`];
  if (!c.up && c.kind) parts.push(t("ui.face_down"));
  if (c.ip) parts.push(ip(c.ip));
  if (c.verdict) parts.push(t("ui.verdict"));
  if (c.bribe !== null && c.bribe !== undefined && names) parts.push(t("ui.bribed_from", { player: names(c.owner) }));
  return parts.join(", ");
}

/** A card as a DOM element; ``button`` makes it a focusable, clickable control. */
function cardEl(c, { button = false, onclick = null, names = null, extra = "", small = false, inHand = false, fk = null } = {}) {
  // A card in your hand or set aside is shown by its face: you hold it and know it.
  const face = c.up || (inHand && c.kind);
  const classes = ["card", familyClass(c.owner), face ? "up" : "down", extra];
  if (!face && c.kind) classes.push("peek");
  if (small) classes.push("small");
  if (c.ctrl !== c.owner) classes.push("bribed");
  const el = h(button ? "button" : "div", {
    class: classes.join(" "),
    type: button ? "button" : null,
    "aria-label": cardLabel(c, names),
    onclick,
    dataset: fk ? { kind: c.kind || "", owner: String(c.owner), fk } : { kind: c.kind || "", owner: String(c.owner) },
  });
  if (face) {
    el.append(
      h("span", { class: "banner" }),
      h("span", { class: "art", html: emblem(c.kind) }),
      h("span", { class: `name ${cardName(c.kind).length > 10 ? "long" : ""}` }, cardName(c.kind)),
    );
  } else {
    el.append(h("span", { class: "back", html: back() }));
    if (c.kind) el.append(h("span", { class: "peek-name" }, cardName(c.kind)));
  }
  if (c.ip) el.append(h("span", { class: "token ip-token", title: ip(c.ip) }, String(c.ip)));
  if (c.verdict) el.append(h("span", { class: "token verdict-token", title: t("ui.verdict"), html: emblem("judge") }));
  if (c.bribe !== null && c.bribe !== undefined) {
    el.append(h("span", { class: `token bribe-token ${familyClass(c.bribe)}`, html: emblem("bribery") }));
  }
  if (c.asleep) el.append(h("span", { class: "token sleep-token" }, "z"));
  el.addEventListener("mouseenter", () => showHelp(c, false, inHand));
  el.addEventListener("focus", () => showHelp(c, false, inHand));
  el.addEventListener("mouseleave", hideHelpSoon);
  if (!button) el.addEventListener("click", (e) => { e.stopPropagation(); showHelp(c, true, inHand); });
  return el;
}

// ---------------------------------------------------------------- card help (hover, focus or tap)

let helpTimer = 0;
let schemerGain = 1;

function showHelp(c, pinned = false, inHand = false) {
  clearTimeout(helpTimer);
  let box = document.getElementById("help");
  if (!box) box = document.body.appendChild(h("aside", { id: "help", role: "note", "aria-live": "polite" }));
  box.replaceChildren();
  if (c.kind) {
    box.append(
      h("div", { class: `help-head ${familyClass(c.owner)}` },
        h("span", { class: "help-art", html: emblem(c.kind) }),
        h("strong", {}, cardName(c.kind)),
        h("span", { class: "help-type" }, t(isCharacter(c.kind) ? "card.type.character" : "card.type.intrigue"))),
      h("p", {}, cardText(c.kind, schemerGain)),
    );
    if (!c.up && !inHand) box.append(h("p", { class: "muted" }, t("ui.face_down")));
  } else {
    box.append(h("strong", {}, t("ui.face_down_card")), h("p", {}, tr("web.help.hidden", {}, undefined, "")));
  }
  if (c.ip) box.append(h("p", { class: "muted" }, ip(c.ip)));
  box.classList.add("shown");
  box.classList.toggle("pinned", pinned);
}

function hideHelpSoon() {
  clearTimeout(helpTimer);
  helpTimer = setTimeout(() => {
    const box = document.getElementById("help");
    if (box && !box.classList.contains("pinned")) box.classList.remove("shown");
  }, 250);
}

document.addEventListener("click", () => {
  const box = document.getElementById("help");
  if (box) box.classList.remove("shown", "pinned");
});

let CHARACTERS = new Set([
  "archer", "soldier", "spy", "heir", "shapeshifter", "lord", "prince", "twin", "queen", "cutthroat", "apothecary",
  "felon", "schemer", "empress", "fanatic", "informant", "diplomat", "deserter", "judge",
]);

function isCharacter(kind) {
  return CHARACTERS.has(kind);
}

// ---------------------------------------------------------------- legal actions, read from their text form

function parseLegal(texts) {
  const L = {
    place: new Map(), target: new Map(), to: new Map(), steal: new Map(), copy: new Map(), fetch: new Map(),
    use: new Map(), swap: new Map(), modes: [], keep: null, reveal: null, gain: null, any: texts.length > 0,
  };
  for (const text of texts) {
    const w = text.split(" ");
    switch (w[0]) {
      case "place": {
        const list = L.place.get(w[1]) || [];
        list.push({ where: w[2], pos: w[2] === "on" ? Number(w[3]) - 1 : null, text });
        L.place.set(w[1], list);
        break;
      }
      case "keep": L.keep = text; break;
      case "reveal": L.reveal = text; break;
      case "gain": L.gain = text; break;
      case "target": L.target.set(Number(w[1]) - 1, text); break;
      case "to": L.to.set(Number(w[1]) - 1, text); break;
      case "steal": L.steal.set(Number(w[1].slice(1)) - 1, text); break;
      case "copy": L.copy.set(w[1], text); break;
      case "fetch": L.fetch.set(w[1], text); break;
      case "use": L.use.set(Number(w[1]) - 1, text); break;
      case "swap": L.swap.set(w[1], text); break;
      default: L.modes.push(text);
    }
  }
  return L;
}

// ---------------------------------------------------------------- the board (shared by play, watch, replay)

/**
 * Draw a whole table. ``ctx``: {view, seat, names, legal (parsed), act(text), selected, select(slug),
 * online, result, interactive}. Returns the board element.
 */
function board(ctx) {
  const v = ctx.view;
  schemerGain = (ctx.rules && ctx.rules.schemer_gain) || 1;
  const mine = ctx.interactive && v.to_move === ctx.seat && ctx.seat !== null;
  const L = mine ? ctx.legal : parseLegal([]);
  return h("div", { class: "board" },
    statusBar(ctx),
    playersBar(ctx, L),
    h("section", { class: "queue-wrap", "aria-label": t("ui.queue_title", {}, v.queue.length) },
      h("h2", { class: "queue-title" }, t("ui.queue_title", {}, v.queue.length),
        h("span", { class: "direction", "aria-hidden": "true" }, " →")),
      queueRow(ctx, L)),
    v.phase === "over" ? null : promptBar(ctx, L, mine),
    handArea(ctx, L),
    pilesArea(ctx));
}

function statusBar(ctx) {
  const v = ctx.view;
  const order = v.order.map((s) => ctx.names(s)).join(" → ");
  return h("div", { class: "status" },
    h("span", { class: "round" }, t("ui.round", { round: v.round, rounds: v.rounds })),
    h("span", { class: "phase" }, t(`ui.phase.${v.phase}`)),
    h("span", { class: "first" }, tr("web.first_player", { player: ctx.names(v.first) }, undefined, `${t("ui.first_player")}: ${ctx.names(v.first)}`)),
    v.phase !== "over" ? h("span", { class: "order", title: tr("web.order_title", {}, undefined, "") }, order) : null,
    v.verdict_pool < 5 || v.recipe.includes("judge") ? h("span", { class: "pool" }, t("ui.verdict_pool", {}, v.verdict_pool)) : null);
}

function playersBar(ctx, L) {
  const v = ctx.view;
  const positions = Array(v.players).fill(0);
  for (const stack of v.queue) positions[stack[stack.length - 1].ctrl] += 1;
  const chips = [];
  for (let s = 0; s < v.players; s++) {
    const stealable = L.steal.get(s);
    const seatInfo = ctx.seats ? ctx.seats[s] : null;
    const classes = ["chip", familyClass(s)];
    if (v.to_move === s) classes.push("to-move");
    if (s === ctx.seat) classes.push("me");
    if (v.winners.includes(s)) classes.push("winner");
    if (stealable) classes.push("legal");
    const body = [
      h("span", { class: "swatch" }),
      h("span", { class: "who" }, ctx.names(s),
        s === ctx.seat ? h("small", {}, " ", t("ui.you")) : null,
        seatInfo && seatInfo.kind === "bot" ? h("small", { class: "bot-tag" }, " ", botLabel(seatInfo.bot)) : null),
      h("span", { class: "score", title: t("ui.col.ip") }, h("b", { dataset: { seat: String(s) } }, String(v.scores[s])), " ", tr("web.ip_short", {}, undefined, "IP")),
      h("span", { class: "meta" },
        tr("web.hand_count", {}, v.hand_counts[s], `${v.hand_counts[s]}`), " · ",
        tr("web.positions_count", {}, positions[s], `${positions[s]}`)),
    ];
    if (s === v.first) body.push(h("span", { class: "first-badge", title: t("ui.first_player") }, "1"));
    if (ctx.online && seatInfo && seatInfo.kind === "person") {
      body.push(h("span", { class: `dot ${ctx.online[s] ? "on" : "off"}`, title: tr(ctx.online[s] ? "web.online" : "web.offline", {}, undefined, "") }));
    }
    const kept = v.kept[s];
    if (kept.length) body.push(h("span", { class: "kept" }, kept.map((c) => cardEl(c, { small: true, names: ctx.names }))));
    chips.push(stealable
      ? h("button", { type: "button", class: classes.join(" "), onclick: () => ctx.act(stealable) }, body)
      : h("div", { class: classes.join(" ") }, body));
  }
  return h("div", { class: "players" }, chips);
}

function botLabel(spec) {
  if (!spec) return "";
  const [kind, level] = spec.split(":");
  const name = tr(`web.bot.${kind}`, {}, undefined, kind);
  return level ? `${name} · ${tr(`web.level.${level}`, {}, undefined, level)}` : name;
}

function topOf(stack) {
  return stack[stack.length - 1];
}

function queueRow(ctx, L) {
  const v = ctx.view;
  const row = h("div", { class: "queue", role: "list" });
  const placing = ctx.selected ? L.place.get(ctx.selected) || [] : [];
  const placeAt = (where) => placing.find((p) => p.where === where);
  const gaps = new Map();
  if (v.decision === "decree_dest" && L.to.size && v.picked !== null) {
    const stacked = v.queue[v.picked] && v.queue[v.picked].length > 1;
    for (const [t2, text] of L.to) gaps.set(stacked || t2 < v.picked ? t2 : t2 + 1, text);
  }
  const slot = (label, text, cls) =>
    h("button", { type: "button", class: `slot legal ${cls}`, onclick: () => ctx.act(text), dataset: { fk: text } }, label);
  const first = placeAt("first");
  if (first) row.append(slot(t(v.queue.length ? "web.place_first" : "web.place_here"), first.text, "end"));
  v.queue.forEach((stack, i) => {
    if (gaps.has(i)) row.append(slot(tr("web.move_here", {}, undefined, "↓"), gaps.get(i), "gap"));
    row.append(position(ctx, L, stack, i, placing.find((p) => p.where === "on" && p.pos === i)));
  });
  if (gaps.has(v.queue.length)) row.append(slot(tr("web.move_here", {}, undefined, "↓"), gaps.get(v.queue.length), "gap"));
  const last = placeAt("last");
  if (last && v.queue.length) row.append(slot(t("web.place_last"), last.text, "end"));
  if (!v.queue.length && !first) row.append(h("p", { class: "empty" }, t("ui.queue_empty")));
  return row;
}

function position(ctx, L, stack, i, placeOn) {
  const v = ctx.view;
  const resolving = v.phase === "resolve" && i === v.pointer && !v.resolving_left;
  const target = L.target.get(i) || L.use.get(i);
  const classes = ["pos"];
  if (resolving) classes.push("resolving");
  if (v.decision === "decree_dest" && i === v.picked) classes.push("picked");
  const el = h("div", { class: classes.join(" "), role: "listitem", dataset: { pos: String(i) } });
  el.append(h("span", { class: "pos-num", "aria-hidden": "true" }, String(i + 1)));
  const pile = h("div", { class: "stack", style: `--depth:${stack.length - 1}` });
  stack.forEach((c, j) => {
    const top = j === stack.length - 1;
    const action = top ? target || (placeOn && placeOn.text) : null;
    const card = cardEl(c, {
      button: !!action,
      onclick: action ? () => ctx.act(action) : null,
      fk: action,
      names: ctx.names,
      extra: `${top ? "top" : "under"} ${action ? "legal" : ""} ${top && placeOn ? "onto" : ""}`,
    });
    card.style.setProperty("--i", String(j));
    pile.append(card);
  });
  el.append(pile);
  if (placeOn) el.append(h("span", { class: "onto-label" }, tr("web.place_on", {}, undefined, "+")));
  return el;
}

function resolvingName(v) {
  if (v.resolving_left || v.pointer >= v.queue.length) return null;
  const c = topOf(v.queue[v.pointer]);
  return c.kind ? cardName(c.kind) : null;
}

function promptText(ctx, L, mine) {
  const v = ctx.view;
  if (v.phase === "over") return t("ui.phase.over");
  if (!mine) {
    if (ctx.seat === null || ctx.seat === undefined) return tr("web.waiting_for", { player: ctx.names(v.to_move) });
    return tr("web.waiting_for", { player: ctx.names(v.to_move) });
  }
  const name = resolvingName(v);
  const d = v.decision;
  if (d === "place") return ctx.selected ? t("web.place_where", { name: cardName(ctx.selected) }) : t("decision.place", { round: v.round });
  if (d === "twin") return t("decision.twin", { name: cardName("twin") });
  if (d === "keep_or_reveal") {
    const c = topOf(v.queue[v.pointer]);
    return t("decision.keep_or_reveal", { name: c.kind ? cardName(c.kind) : t("ui.face_down_card"), pos: v.pointer + 1 });
  }
  if (d === "decree_dest") {
    const c = v.picked !== null && v.queue[v.picked] ? topOf(v.queue[v.picked]) : null;
    return t("decision.decree_dest", { name: c && c.kind ? cardName(c.kind) : t("ui.face_down_card") });
  }
  if (d === "target" && name) {
    const kind = topOf(v.queue[v.pointer]).kind;
    if (has(`decision.target.${kind}`)) return t(`decision.target.${kind}`);
  }
  if (d === "fetch") return t("decision.fetch", { name: name || "" });
  if (d === "plot_character" || d === "plot_ip") return t(`decision.${d}`, { ip: ip(v.plot_ip || 0) });
  if (["eliminate", "decree_pick", "mode", "swap", "target"].includes(d)) {
    return name ? t(`decision.${d}`, { name }) : t("web.choose");
  }
  if (has(`decision.${d}`)) return t(`decision.${d}`, { name: name || "" });
  return t("web.choose");
}

function promptBar(ctx, L, mine) {
  const v = ctx.view;
  const buttons = [];
  const button = (label, text, cls = "", sub = null, key = null) =>
    h("button", { type: "button", class: `act ${cls}`, onclick: () => ctx.act(text), "aria-keyshortcuts": key, dataset: { fk: text } },
      h("span", {}, label), sub ? h("small", {}, sub) : null);
  if (L.keep) {
    const c = topOf(v.queue[v.pointer]);
    buttons.push(button(t("web.keep"), L.keep, "keep", t("option.keep", { ip: ip(c.ip + 1) }), "K"));
  }
  if (L.reveal) buttons.push(button(t("web.reveal"), L.reveal, "reveal", t("option.reveal"), "R"));
  for (const text of L.modes) buttons.push(button(t(`option.mode.${text}`), text, "mode"));
  for (const [src, text] of L.fetch) buttons.push(button(t(`option.fetch.${src}`), text, "mode"));
  for (const [slug, text] of L.copy) buttons.push(button(t("option.copy", { name: cardName(slug) }), text, "mode"));
  for (const [s, text] of L.steal) buttons.push(button(t("option.steal", { player: ctx.names(s), ip: ip(v.scores[s]) }), text, "mode"));
  if (L.gain) buttons.push(button(t("option.gain"), L.gain, "mode"));
  if (ctx.selected && mine) {
    buttons.push(h("button", { type: "button", class: "act ghost", onclick: () => ctx.select(null) }, t("web.cancel")));
  }
  const hint = mine && (L.target.size || L.use.size) ? t("web.hint_targets")
    : mine && v.decision === "place" && !ctx.selected ? t("web.hint_place")
    : mine && v.decision === "decree_dest" ? t("web.hint_gap")
    : mine && L.swap.size ? t("web.hint_swap") : null;
  return h("section", { class: `prompt ${mine ? "mine" : ""}`, "aria-live": "polite" },
    h("p", { class: "prompt-text" }, promptText(ctx, L, mine)),
    hint ? h("p", { class: "hint" }, hint) : null,
    buttons.length ? h("div", { class: "buttons" }, buttons) : null);
}

function handArea(ctx, L) {
  const v = ctx.view;
  if (ctx.seat === null || ctx.seat === undefined) return null;
  const cards = v.hand.map((c) => {
    const canPlace = L.place.has(c.kind) && v.decision === "place";
    const swap = L.swap.get(c.kind);
    const selected = ctx.selected === c.kind && canPlace;
    return cardEl(c, {
      button: canPlace || !!swap,
      onclick: swap ? () => ctx.act(swap) : canPlace ? () => ctx.select(selected ? null : c.kind) : null,
      fk: swap || (canPlace ? `select ${c.kind}` : null),
      names: ctx.names,
      inHand: true,
      extra: `${canPlace || swap ? "legal" : ""} ${selected ? "selected" : ""}`,
    });
  });
  const twins = v.twins[ctx.seat] || [];
  const twinCards = twins.map((c) => cardEl(c, {
    button: L.place.has("twin"),
    onclick: L.place.has("twin") ? () => ctx.select(ctx.selected === "twin" ? null : "twin") : null,
    names: ctx.names,
    extra: `${L.place.has("twin") ? "legal" : ""} ${ctx.selected === "twin" ? "selected" : ""}`,
  }));
  return h("section", { class: "hand-area" },
    h("div", { class: "hand-block" },
      h("h2", {}, t("ui.hand")),
      h("div", { class: "hand" }, cards.length ? cards : h("p", { class: "empty" }, t("ui.none")))),
    twinCards.length ? h("div", { class: "hand-block twins" }, h("h2", {}, cardName("twin")), h("div", { class: "hand" }, twinCards)) : null,
    h("div", { class: "hand-block aside" },
      h("h2", {}, t("ui.aside")),
      h("div", { class: "hand small-cards" }, v.aside.map((c) => cardEl(c, { small: true, names: ctx.names, inHand: true })))));
}

function pilesArea(ctx) {
  const v = ctx.view;
  const blocks = [];
  for (let s = 0; s < v.players; s++) {
    const known = v.known_hands[s] || [];
    const discards = v.discards[s] || [];
    if (!discards.length && !(known.length && s !== ctx.seat)) continue;
    blocks.push(h("div", { class: `pile ${familyClass(s)}` },
      h("h3", {}, ctx.names(s)),
      discards.length ? h("div", { class: "pile-row" }, h("span", { class: "pile-label" }, t("ui.col.discards")),
        discards.map((c) => cardEl(c, { small: true, names: ctx.names }))) : null,
      known.length && s !== ctx.seat ? h("div", { class: "pile-row" }, h("span", { class: "pile-label" }, t("web.known_hand")),
        known.map((c) => cardEl(c, { small: true, names: ctx.names, inHand: true }))) : null));
  }
  if (!blocks.length) return null;
  return h("details", { class: "piles", open: window.innerWidth > 700 },
    h("summary", {}, t("ui.col.discards")), h("div", { class: "pile-list" }, blocks));
}

// ---------------------------------------------------------------- narrated log

function logLines(steps, names, from = 0) {
  const lines = [];
  steps.forEach((events, i) => {
    for (const e of events) {
      if (e.type === "round_started") lines.push(h("li", { class: "round-line", dataset: { step: String(i + from) } }, narrate(e, names)));
      else if (e.type !== "round_ended") lines.push(h("li", { class: `ev ev-${e.type}`, dataset: { step: String(i + from) } }, narrate(e, names)));
    }
  });
  return lines;
}

function logPanel(steps, names, highlightStep = null, list = null) {
  list = list || h("ol", { class: "log", "aria-live": "polite" }, logLines(steps, names));
  if (highlightStep !== null) {
    for (const li of list.querySelectorAll(`[data-step="${highlightStep}"]`)) li.classList.add("current");
  }
  return h("section", { class: "log-panel" }, h("h2", {}, t("ui.log_title")), list);
}

/** Keep the queue scrolled where the action is (a legal choice, else the resolving position). */
function scrollQueue(previousLeft) {
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

function scrollLog() {
  const log = document.querySelector(".log");
  if (log) log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- end of game

function resultPanel(result, names, extra) {
  const order = [...Array(result.scores.length).keys()].sort(
    (a, b) => result.scores[b] - result.scores[a] || result.positions[b] - result.positions[a] || a - b);
  const best = Math.max(...result.scores);
  const leaders = order.filter((s) => result.scores[s] === best);
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
        if (entries[p]) entries[p].flags.add("reveal");
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
        leaving.push({ old: entry.old, top: entry.height > 1, kind: e.type });
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

function animateChange(before, events) {
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
    const rect = gone.old !== null && gone.old !== undefined ? before.cardRects[gone.old] : null;
    const html = gone.old !== null && gone.old !== undefined ? before.topHtml[gone.old] : null;
    if (!rect || !html) continue;
    const ghost = h("div", { class: "leaving-card", html, style: `left:${rect.left}px;top:${rect.top}px;width:${rect.width}px;height:${rect.height}px` });
    layer.append(ghost);
    const fall = gone.kind === "card_kept"
      ? [{ transform: "none", opacity: 1 }, { transform: "translateY(60px) scale(.7)", opacity: 0 }]
      : [{ transform: "none", opacity: 1, filter: "none" }, { transform: "translateY(30px) rotate(-12deg) scale(.85)", opacity: 0, filter: "sepia(1) saturate(4) hue-rotate(-30deg)" }];
    ghost.animate(fall, { duration: 520, easing: "ease-in" }).onfinish = () => ghost.remove();
  }
}

function snapshotQueue(view) {
  const posEls = [...document.querySelectorAll(".queue .pos")];
  if (!view || posEls.length !== view.queue.length) return null;
  return {
    queue: view.queue,
    rects: posEls.map((el) => el.getBoundingClientRect()),
    cardRects: posEls.map((el) => (el.querySelector(".card.top") || el).getBoundingClientRect()),
    topHtml: posEls.map((el) => (el.querySelector(".card.top") || el).outerHTML),
  };
}

function floatScores(before, after) {
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

// ---------------------------------------------------------------- the table page

function tablePage(token, spectating) {
  const G = {
    token, spectating, ws: null, welcome: null, msg: null, log: [], online: null, selected: null,
    connected: false, retry: 0, busy: false, dead: false, pingTimer: 0, languageSet: false,
    logView: null, pendingDraw: null,
  };
  const names = (s) => (G.welcome && G.welcome.table.seats[s] ? G.welcome.table.seats[s].name : `p${s + 1}`);

  function act(text) {
    // A click on a page whose newest state is not drawn yet would act on what the person did not see.
    if (!G.msg || G.busy || G.pendingDraw || !G.ws || G.ws.readyState !== WebSocket.OPEN) return;
    G.busy = true;
    document.body.classList.add("busy");
    G.ws.send(JSON.stringify({ type: "act", state: G.msg.state, action: text }));
  }

  function select(slug) {
    G.selected = slug;
    // With a card chosen, the next thing to choose is where it goes.
    G.focusHint = slug ? ".queue .slot.legal, .queue .card.legal" : null;
    draw();
  }

  /** The log list, kept between draws: only the lines of new steps are narrated and added. */
  function logList() {
    const lang = currentLanguage();
    if (!G.logView || G.logView.lang !== lang || G.logView.count > G.log.length) {
      G.logView = { el: h("ol", { class: "log", "aria-live": "polite" }), count: 0, lang };
    }
    if (G.logView.count < G.log.length) {
      G.logView.el.append(...logLines(G.log.slice(G.logView.count), names, G.logView.count));
      G.logView.count = G.log.length;
    }
    return G.logView.el;
  }

  /** Draw once per frame however many states arrived (bots may answer within a millisecond). */
  function scheduleDraw(before, events) {
    if (G.pendingDraw) {
      if (!before) G.pendingDraw.before = null; // a full resync: nothing to animate from
      G.pendingDraw.events.push(...events);
      return;
    }
    G.pendingDraw = { before, events: [...events] };
    requestAnimationFrame(() => {
      const pending = G.pendingDraw;
      G.pendingDraw = null;
      draw(pending.before, pending.events);
    });
  }

  function draw(before = null, events = null) {
    if (G.dead) return;
    if (!G.msg || !G.welcome) {
      mount(frame("", h("main", { class: "loading" }, h("p", {}, G.connected ? "…" : t("web.connecting")))));
      return;
    }
    const v = G.msg.view;
    const seat = G.msg.seat;
    const legal = parseLegal(G.msg.legal || []);
    document.body.dataset.state = String(G.msg.state);
    if (G.selected && !legal.place.has(G.selected)) G.selected = null;
    if (!G.selected && v.decision === "twin" && legal.place.has("twin")) G.selected = "twin";
    const ctx = {
      view: v, seat, names, legal, act, select, selected: G.selected, online: G.online,
      seats: G.welcome.table.seats, rules: G.welcome.table.rules, interactive: !spectating && !G.busy,
    };
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.fk : null;
    const oldQueue = document.querySelector(".queue");
    const queueLeft = oldQueue ? oldQueue.scrollLeft : null;
    const title = spectating ? t("web.spectating") : names(seat);
    const banner = G.connected ? null : h("div", { class: "banner-offline", role: "alert" }, t("web.reconnecting"));
    const end = G.msg.result ? resultPanel(G.msg.result, names, h("p", { class: "end-links" },
      h("a", { class: "button", href: `/replay/${token}` }, t("web.replay_game")), " ",
      h("a", { class: "button ghost", href: "/" }, t("web.to_lobby")))) : null;
    mount(frame(title,
      banner,
      h("main", { class: "table-page" },
        h("div", { class: "main-col" }, board(ctx), end),
        h("div", { class: "side-col" },
          spectating ? null : invitePanel(),
          logPanel(null, names, null, logList())))));
    scrollLog();
    scrollQueue(queueLeft);
    if (before) {
      animateChange(before, events || []);
      floatScores(before.viewBefore, v);
    }
    // Redrawing replaces the controls: keep keyboard focus on the same choice, or else on the first one.
    const hinted = G.focusHint ? document.querySelector(G.focusHint) : null;
    G.focusHint = null;
    const again = hinted || (focused ? document.querySelector(`[data-fk="${CSS.escape(focused)}"]`) : null);
    const first = document.querySelector(".prompt.mine .act, .slot.legal, .card.legal");
    if (again) again.focus({ preventScroll: true });
    else if (first && (focused || before)) first.focus({ preventScroll: true });
  }

  function invitePanel() {
    return h("details", { class: "watch-link" },
      h("summary", {}, t("web.spectator_link")),
      linkField(`${location.origin}/watch/${G.welcome.spectator_token}`));
  }

  async function onMessage(msg) {
    if (msg.type === "welcome") {
      G.welcome = msg;
      CHARACTERS = CHARACTERS;
      if (!G.languageSet) {
        G.languageSet = true;
        await setLanguage(preferredLanguage(msg.lang));
      }
      draw();
    } else if (msg.type === "state") {
      if (G.msg && msg.state < G.msg.state) return;
      const prev = G.msg;
      const before = prev ? snapshotQueue(prev.view) : null;
      if (before) before.viewBefore = prev.view;
      if (msg.log) {
        G.log = msg.log;
        G.logView = null;
      } else G.log.push(msg.events);
      G.msg = msg;
      G.busy = false;
      document.body.classList.remove("busy");
      scheduleDraw(msg.log ? null : before, msg.log ? [] : msg.events);
    } else if (msg.type === "presence") {
      G.online = msg.online;
      if (G.msg) draw();
    } else if (msg.type === "error") {
      G.busy = false;
      document.body.classList.remove("busy");
      if (msg.code === "bad_token") {
        G.dead = true;
        mount(frame("", h("main", { class: "notice" }, h("h1", {}, t("web.bad_link")), h("p", {}, h("a", { href: "/" }, t("web.to_lobby"))))));
        if (G.ws) G.ws.close();
        return;
      }
      toast(tr(`web.error.${msg.code}`, {}, undefined, msg.message), "error");
      if (G.msg) draw();
    }
  }

  function connect() {
    if (G.dead) return;
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    G.ws = ws;
    ws.onopen = () => {
      G.connected = true;
      G.retry = 0;
      ws.send(JSON.stringify({ type: "join", token }));
      clearInterval(G.pingTimer);
      G.pingTimer = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(G.pingTimer);
      if (G.ws !== ws) return;
      G.connected = false;
      G.busy = false;
      document.body.classList.remove("busy");
      if (G.dead) return;
      if (G.msg) draw();
      const delay = Math.min(5000, 400 * 2 ** G.retry++);
      setTimeout(connect, delay);
    };
  }

  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.altKey || e.ctrlKey || e.metaKey) return;
    if (!G.msg || spectating) return;
    const L = parseLegal(G.msg.legal || []);
    const key = e.key.toLowerCase();
    if (key === "k" && L.keep) act(L.keep);
    else if (key === "r" && L.reveal) act(L.reveal);
    else if (e.key === "Escape" && G.selected) select(null);
  });

  rerender = () => draw();
  rememberToken(token, spectating ? "spectator" : "person");
  draw();
  connect();
  window.__oriflamme = G; // for people debugging their own page
  window.__rerender = () => draw();
}

function linkField(url) {
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

// ---------------------------------------------------------------- replay viewer

async function replayPage(token) {
  mount(frame(t("web.replay"), h("main", { class: "loading" }, h("p", {}, "…"))));
  const r = await fetch(`/api/replay/${encodeURIComponent(token)}`);
  if (!r.ok) {
    mount(frame(t("web.replay"), h("main", { class: "notice" }, h("h1", {}, t(r.status === 409 ? "web.not_over" : "web.bad_link")), h("p", {}, h("a", { href: "/" }, t("web.to_lobby"))))));
    return;
  }
  const doc = await r.json();
  const names = (s) => (doc.table.seats[s] ? doc.table.seats[s].name : `p${s + 1}`);
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
          step.result ? resultPanel(step.result, names, null) : null),
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
  rerender = () => draw();
  draw();
}

// ---------------------------------------------------------------- lobby

async function lobbyPage() {
  const meta = await (await fetch("/api/meta")).json();
  CHARACTERS = new Set(meta.cards.filter((c) => c.character).map((c) => c.slug).concat(["twin"]));
  let tables = [];
  let created = null;

  const botChoices = [];
  for (const b of meta.bots) {
    if (b.levels.length) for (const level of b.levels) botChoices.push(`${b.kind}:${level}`);
    else botChoices.push(b.kind);
  }
  const defaultBot = botChoices.find((s) => s === "heuristic") || botChoices.find((s) => s.endsWith(":normal")) || botChoices[0];
  const form = { players: 4, deck: "base", seats: [] };
  const seatDefaults = (i) => (i === 0 ? { kind: "person", name: "", bot: defaultBot, lang: currentLanguage() } : { kind: "bot", name: "", bot: defaultBot, lang: currentLanguage() });
  for (let i = 0; i < 5; i++) form.seats.push(seatDefaults(i));

  async function refresh() {
    const tokens = rememberedTokens().map((x) => x.token);
    if (!tokens.length) { tables = []; draw(); return; }
    try {
      const r = await fetch("/api/lobby", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tokens }) });
      tables = r.ok ? (await r.json()).tables : [];
    } catch { tables = []; }
    draw();
  }

  async function create(e) {
    e.preventDefault();
    const seats = form.seats.slice(0, form.players).map((s, i) => ({
      kind: i === 0 ? "person" : s.kind, name: s.name, lang: i === 0 ? currentLanguage() : s.lang,
      bot: s.kind === "bot" && i > 0 ? s.bot : null,
    }));
    const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ players: form.players, deck: form.deck, seats }) });
    if (!r.ok) {
      const detail = (await r.json().catch(() => ({}))).detail;
      toast(typeof detail === "string" ? detail : t("web.create_failed"), "error");
      return;
    }
    const data = await r.json();
    rememberToken(data.host, "host");
    rememberToken(data.seats[0].token, "person");
    if (data.seats.some((s, i) => i > 0 && s.token)) { created = data; draw(); refresh(); }
    else location.href = `/play/${data.seats[0].token}`;
  }

  function tableCard(group) {
    const x = group.seat || group.host || group.spectator;
    const status = x.over
      ? t("web.finished", { winners: joinList(x.winners.map((s) => x.seats[s].name)) })
      : x.to_move >= 0 && group.seat && x.to_move === group.seat.seat ? t("web.your_turn")
      : t("web.round_of", { round: x.round, rounds: 6 });
    const open = group.seat ? `/play/${group.seat.token}` : `/watch/${x.spectator}`;
    const links = [];
    if (group.host) {
      group.host.seats.forEach((s, i) => {
        if (s.kind === "person" && s.token && !(group.seat && group.seat.seat === i)) {
          links.push(h("div", { class: "invite" }, h("span", {}, s.name, " ", h("small", {}, t(s.joined ? "web.joined" : "web.not_joined"))), linkField(`${location.origin}/play/${s.token}`)));
        }
      });
    }
    return h("li", { class: `table-card ${x.over ? "over" : ""} ${status === t("web.your_turn") ? "turn" : ""}` },
      h("div", { class: "tc-head" },
        h("strong", {}, tr(`web.deck.${x.deck}`, {}, undefined, x.deck), " · ", t("web.players_n", {}, x.players)),
        h("span", { class: "tc-status" }, status)),
      h("ul", { class: "tc-seats" }, x.seats.map((s, i) => h("li", { class: familyClass(i) },
        h("span", { class: "swatch" }), " ", s.name,
        s.kind === "bot" ? h("small", {}, " ", botLabel(s.bot)) : h("span", { class: `dot ${s.online ? "on" : "off"}` }),
        " ", h("b", {}, String(x.scores[i]))))),
      links.length ? h("details", { class: "invites" }, h("summary", {}, t("web.invite_links")), links) : null,
      h("div", { class: "tc-actions" },
        h("a", { class: "button", href: open }, t(group.seat ? "web.open" : "web.watch")),
        x.over ? h("a", { class: "button ghost", href: `/replay/${x.spectator}` }, t("web.replay_game")) : null,
        h("button", { type: "button", class: "ghost", onclick: () => { forgetTokens(group.tokens); refresh(); } }, t("web.forget"))));
  }

  function grouped() {
    const byTable = new Map();
    for (const x of tables) {
      const g = byTable.get(x.table) || { tokens: [], created: x.created };
      g.tokens.push(x.token);
      if (x.role === "host") g.host = x; else if (x.role === "person") g.seat = g.seat || x; else g.spectator = x;
      byTable.set(x.table, g);
    }
    return [...byTable.values()].sort((a, b) => b.created - a.created);
  }

  function seatRow(i) {
    const s = form.seats[i];
    const you = i === 0;
    return h("div", { class: `seat-row ${familyClass(i)}` },
      h("span", { class: "swatch" }),
      h("input", { class: "name", maxlength: "24", placeholder: you ? t("web.your_name") : t("web.name_placeholder", { n: i + 1 }), value: s.name, "aria-label": t("web.seat_name", { n: i + 1 }), oninput: (e) => { s.name = e.target.value; } }),
      you ? h("span", { class: "you-tag" }, t("ui.you")) : h("select", { "aria-label": t("web.seat_kind", { n: i + 1 }), onchange: (e) => { s.kind = e.target.value; draw(); } },
        h("option", { value: "bot", selected: s.kind === "bot" }, t("web.seat_bot")),
        h("option", { value: "person", selected: s.kind === "person" }, t("web.seat_friend"))),
      !you && s.kind === "bot" ? h("select", { "aria-label": t("web.bot_level"), onchange: (e) => { s.bot = e.target.value; } },
        botChoices.map((b) => h("option", { value: b, selected: b === s.bot }, botLabel(b)))) : null,
      !you && s.kind === "person" ? h("select", { "aria-label": t("web.language"), onchange: (e) => { s.lang = e.target.value; } },
        LANGUAGES.map((code) => h("option", { value: code, selected: code === s.lang }, languageName(code)))) : null);
  }

  function draw() {
    const groups = grouped();
    const createdPanel = created ? h("section", { class: "panel created" },
      h("h2", {}, t("web.invite_links")),
      h("p", {}, t("web.invite_help")),
      created.seats.map((s, i) => (i > 0 && s.token ? h("div", { class: `invite ${familyClass(i)}` }, h("span", {}, s.name), linkField(`${location.origin}/play/${s.token}`)) : null)),
      h("div", { class: "invite" }, h("span", {}, t("web.spectator_link")), linkField(`${location.origin}/watch/${created.spectator}`)),
      h("p", {}, h("a", { class: "button", href: `/play/${created.seats[0].token}` }, t("web.take_seat")))) : null;
    mount(frame(t("web.lobby"),
      h("main", { class: "lobby" },
        createdPanel,
        h("section", { class: "panel new-table" },
          h("h2", {}, t("web.new_table")),
          h("form", { onsubmit: create },
            h("div", { class: "form-row" },
              h("label", {}, t("web.players"), " ",
                h("select", { name: "players", onchange: (e) => { form.players = Number(e.target.value); draw(); } },
                  [2, 3, 4, 5].map((n) => h("option", { value: String(n), selected: n === form.players }, String(n))))),
              h("label", {}, t("web.deck"), " ",
                h("select", { name: "deck", onchange: (e) => { form.deck = e.target.value; } },
                  meta.decks.map((d) => h("option", { value: d, selected: d === form.deck }, t(`web.deck.${d}`)))))),
            h("div", { class: "seats" }, [...Array(form.players).keys()].map(seatRow)),
            h("button", { type: "submit", class: "primary" }, t("web.create")))),
        h("section", { class: "panel my-tables" },
          h("h2", {}, t("web.your_tables")),
          groups.length ? h("ul", { class: "table-list" }, groups.map(tableCard)) : h("p", { class: "muted" }, t("web.no_tables"))),
        h("section", { class: "panel rules" }, h("h2", {}, t("rules.title")),
          h("div", { class: "rules-text" }, t("rules.summary").split("\n").map((line) => h("p", {}, line)))))));
  }

  rerender = () => draw();
  draw();
  refresh();
  setInterval(() => { if (document.visibilityState === "visible") refresh(); }, 15000);
}

// ---------------------------------------------------------------- start

async function start() {
  const parts = location.pathname.split("/").filter(Boolean);
  await setLanguage(preferredLanguage(null));
  if (parts[0] === "play" && parts[1]) tablePage(parts[1], false);
  else if (parts[0] === "watch" && parts[1]) tablePage(parts[1], true);
  else if (parts[0] === "replay" && parts[1]) await replayPage(parts[1]);
  else await lobbyPage();
}

start();
