// The board shared by play, watch and replay: status, players, queue, prompt, hand and piles.

import { cardName, cardText, has, ip, joinList, t } from "./i18n.js";
import { h, tr } from "./page.js";
import { cardEl, familyClass, setSchemerGain, swatch } from "./cards.js";
import { parseLegal } from "./legal.js";
import { moveWords } from "./describe.js";

/**
 * Draw a whole table. ``ctx``: {view, seat, names, legal (parsed), act(text, {own}), selected, select(slug),
 * online, result, interactive, pending (a move waiting for its confirmation), confirm(), cancel(),
 * waiting (person seats nobody joined yet), replay ({step, total}: a replay's position)}.
 * Returns the board element.
 */
export function board(ctx) {
  // Once the game is over, the queue is drawn from the final reveal: every card by name.
  if (ctx.reveal && !ctx.view.revealed) ctx = { ...ctx, view: { ...ctx.view, queue: ctx.reveal.queue, revealed: true } };
  const v = ctx.view;
  setSchemerGain((ctx.rules && ctx.rules.schemer_gain) || 1);
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
    if (stealable && ctx.pending && ctx.pending.text === stealable) classes.push("chosen");
    const body = [
      swatch(s),
      // The name on its own line (cut with an ellipsis, whole in its title); the tags below it across
      // the chip, wrapping between words, so a bot's level is never cut.
      h("span", { class: "who" }, h("span", { class: "who-name", title: ctx.names(s) }, ctx.names(s)), " ",
        h("span", { class: "tags" },
          s === ctx.seat ? h("small", {}, t("ui.you"), " ") : null,
          seatInfo && seatInfo.kind === "bot" ? h("small", { class: "bot-tag" }, botLabel(seatInfo.bot), " ") : null,
          (ctx.conceded || []).includes(s) ? h("small", { class: "away-tag" }, "· ", t("web.conceded"))
            : (ctx.away || []).includes(s) ? h("small", { class: "away-tag" }, t("web.away")) : null)),
      h("span", { class: "score", title: t("ui.col.ip") }, h("b", { dataset: { seat: String(s) } }, String(v.scores[s])), " ", tr("web.ip_short", {}, undefined, "IP")),
      h("span", { class: "meta" },
        h("span", {}, tr("web.hand_count", {}, v.hand_counts[s], `${v.hand_counts[s]}`), " ·"), " ",
        h("span", {}, tr("web.positions_count", {}, positions[s], `${positions[s]}`))),
    ];
    if (s === v.first) body.push(h("span", { class: "first-badge", title: t("ui.first_player") }, "1"));
    if (ctx.online && seatInfo && seatInfo.kind === "person") {
      body.push(h("span", { class: `dot ${ctx.online[s] ? "on" : "off"}`, title: tr(ctx.online[s] ? "web.online" : "web.offline", {}, undefined, "") }));
    }
    // A person seat nobody opened yet: the table waits for them (no turn timer runs meanwhile).
    if ((ctx.waiting || []).includes(s)) body.push(h("small", { class: "away-tag waiting-tag" }, t("web.not_joined")));
    const kept = v.kept[s];
    if (kept.length) body.push(h("span", { class: "kept" }, kept.map((c) => cardEl(c, { small: true, names: ctx.names }))));
    chips.push(stealable
      ? h("button", { type: "button", class: classes.join(" "), onclick: () => ctx.act(stealable) }, body)
      : h("div", { class: classes.join(" ") }, body));
  }
  return h("div", { class: "players" }, chips);
}

export function botLabel(spec) {
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
    h("button", { type: "button", class: `slot legal ${cls} ${ctx.pending && ctx.pending.text === text ? "chosen" : ""}`, onclick: () => ctx.act(text), dataset: { fk: text } }, label);
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

export function position(ctx, L, stack, i, placeOn) {
  const v = ctx.view;
  const resolving = v.phase === "resolve" && i === v.pointer && !v.resolving_left;
  const target = L.target.get(i) || L.use.get(i);
  const classes = ["pos"];
  if (resolving) classes.push("resolving");
  if (v.decision === "decree_dest" && i === v.picked) classes.push("picked");
  const el = h("div", { class: classes.join(" "), role: "listitem", dataset: { pos: String(i) } });
  // A stack says how high it is; the cards beneath show their name in the strip left visible.
  el.append(h("span", { class: "pos-num" }, h("span", { "aria-hidden": "true" }, String(i + 1)),
    stack.length > 1 ? h("span", { class: "stack-height", title: tr("web.stack_height", {}, stack.length, "") }, `×${stack.length}`) : null));
  const pile = h("div", { class: "stack", style: `--depth:${stack.length - 1}` });
  stack.forEach((c, j) => {
    const top = j === stack.length - 1;
    const action = top ? target || (placeOn && placeOn.text) : null;
    // A target among the person's own cards is told apart, and asks before it is sent (an Archer
    // of theirs eliminating their own card is legal, and rarely meant).
    const own = !!target && top && ctx.seat !== null && ctx.seat !== undefined && (c.owner === ctx.seat || c.ctrl === ctx.seat);
    const chosen = !!action && ctx.pending && ctx.pending.text === action;
    const card = cardEl(c, {
      button: !!action,
      onclick: action ? () => ctx.act(action, { own }) : null,
      fk: action,
      names: ctx.names,
      opened: !!v.revealed,
      extra: `${top ? "top" : "under"} ${action ? "legal" : ""} ${top && placeOn ? "onto" : ""} ${own ? "own-target" : ""} ${chosen ? "chosen" : ""}`,
    });
    card.style.setProperty("--i", String(j));
    pile.append(card);
  });
  el.append(pile);
  if (placeOn) el.append(h("span", { class: "onto-label" }, tr("web.place_on", {}, undefined, "+")));
  return el;
}

function resolvingName(v) {
  if (v.resolving_left || v.pointer >= v.queue.length) return actingName(v);
  const c = topOf(v.queue[v.pointer]);
  return c.kind ? cardName(c.kind) : null;
}

/**
 * A card made to act by another card's effect (a Plot applying the ability of a revealed character,
 * one bribed included): "Plot — Cutthroat (position 2)"; null for the card at the pointer.
 */
function actingName(v) {
  const stack = v.acting !== null && v.acting !== undefined ? v.queue[v.acting] : null;
  const c = stack ? topOf(stack) : null;
  if (!c || !c.kind) return null;
  const named = { name: cardName(c.kind), pos: v.acting + 1 };
  return v.acting_for ? t("web.acting_for", { ...named, by: cardName(v.acting_for) }) : t("web.acting_card", named);
}

/** Whose decision it is, for a person who is not deciding (or a replay's reader). */
function othersText(ctx) {
  const v = ctx.view;
  const player = ctx.names(v.to_move);
  if (ctx.replay) {
    return t("web.replay_position", { round: v.round, rounds: v.rounds, step: ctx.replay.step, total: ctx.replay.total, player });
  }
  // A seat nobody opened yet: the table waits for that person to join, not to decide.
  if ((ctx.waiting || []).includes(v.to_move)) return t("web.waiting_to_join", { player });
  return tr("web.waiting_for", { player });
}

function promptText(ctx, L, mine) {
  const v = ctx.view;
  if (v.phase === "over") return t("ui.phase.over");
  if (!mine) return othersText(ctx);
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
  if (d === "target" && name && !v.resolving_left) {
    const kind = topOf(v.queue[v.pointer]).kind;
    if (has(`decision.target.${kind}`)) return t(`decision.target.${kind}`);
  }
  if (d === "fetch") return t("decision.fetch", { name: name || "" });
  if (d === "plot_character" || d === "plot_ip") return t(`decision.${d}`, { ip: ip(v.plot_ip || 0) });
  if (["eliminate", "decree_pick", "mode", "swap", "target"].includes(d)) {
    // A copied ability is named as the copy: "Shapeshifter (as Archer)".
    const acting = v.acting !== null && v.acting !== undefined && v.queue[v.acting] ? topOf(v.queue[v.acting]).kind : null;
    const copies = v.ability && (v.resolving_left ? acting && acting !== v.ability : cardName(v.ability) !== name);
    const shown = name && copies ? t("web.as_copy", { name, copied: cardName(v.ability) }) : name;
    return shown ? t(`decision.${d}`, { name: shown }) : t("web.choose");
  }
  if (has(`decision.${d}`)) return t(`decision.${d}`, { name: name || "" });
  return t("web.choose");
}

//: Cards that strike back when an opponent's card eliminates them face down.
const SPRUNG = ["ambush", "trap", "extortion"];

/**
 * Why these options, and what each leads to: the text of the ability that asks (as copied or
 * plotted: a Shapeshifter copying an Archer has the Archer's reach), the IP an elimination brings,
 * and the risk of a face-down card that strikes back.
 */
function whyLines(ctx, L) {
  const v = ctx.view;
  const d = v.decision;
  const gain = (ctx.rules && ctx.rules.schemer_gain) || 1;
  const lines = [];
  if (d === "place") {
    lines.push(t("web.why.place"));
  } else if (d === "twin") {
    lines.push(t("web.why.ability", { name: cardName("prince"), text: cardText("prince", gain) }));
  } else if (d === "keep_or_reveal") {
    const c = topOf(v.queue[v.pointer]);
    lines.push(t("web.why.keep_or_reveal", { ip: ip(c.ip) }));
    if (c.kind) lines.push(t("web.why.ability", { name: cardName(c.kind), text: cardText(c.kind, gain) }));
  } else if (v.ability) {
    const acting = v.resolving_left || v.pointer >= v.queue.length ? null : topOf(v.queue[v.pointer]).kind;
    lines.push(acting && acting !== v.ability
      ? t("web.why.copied", { name: cardName(acting), copied: cardName(v.ability), text: cardText(v.ability, gain) })
      : t("web.why.ability", { name: cardName(v.ability), text: cardText(v.ability, gain) }));
  }
  if (d === "eliminate") {
    if (v.ability !== "cutthroat") lines.push(t("web.why.eliminate_gain"));
    const hidden = [...L.target.keys()].some((i) => {
      const top = topOf(v.queue[i]);
      return !top.up && top.owner !== ctx.seat;
    });
    const sprung = SPRUNG.filter((k) => v.recipe.includes(k));
    if (hidden && sprung.length) lines.push(t("web.why.hidden_risk", { cards: joinList(sprung.map(cardName)) }));
  }
  return lines;
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
  // The Twin has to be placed (its Prince was revealed): there is nothing to cancel.
  // The ends of the queue as buttons too: on a phone the far end of a long queue is off screen.
  if (ctx.selected && mine) {
    const ends = (L.place.get(ctx.selected) || []).filter((p) => p.where === "first" || p.where === "last");
    for (const p of ends) {
      buttons.push(h("button", { type: "button", class: "act end-choice", onclick: () => ctx.act(p.text) },
        t(p.where === "first" ? (v.queue.length ? "web.place_first" : "web.place_here") : "web.place_last")));
    }
  }
  if (ctx.selected && mine && v.decision !== "twin") {
    buttons.push(h("button", { type: "button", class: "act ghost", onclick: () => ctx.select(null) }, t("web.cancel")));
  }
  if (mine && ctx.pending) {
    // The move waits for a second click: say so, and offer only that and going back.
    return h("section", { class: "prompt mine confirming", "aria-live": "polite" },
      h("p", { class: "prompt-text" }, t("web.confirm_move", { move: moveWords(ctx.pending.text, v, ctx.names) })),
      ctx.pending.own ? h("p", { class: "warn" }, t("web.own_card_warning")) : null,
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "act confirm", onclick: () => ctx.act(ctx.pending.text), dataset: { fk: "confirm" } }, t("web.confirm")),
        h("button", { type: "button", class: "act ghost", onclick: () => ctx.cancel() }, t("web.cancel"))));
  }
  const hint = mine && (L.target.size || L.use.size) ? t("web.hint_targets")
    : mine && v.decision === "place" && !ctx.selected ? t("web.hint_place")
    : mine && v.decision === "decree_dest" ? t("web.hint_gap")
    : mine && L.swap.size ? t("web.hint_swap") : null;
  // Read out when it is this person's decision; the bots' steps stay in the log, unannounced.
  const why = mine ? whyLines(ctx, L) : [];
  return h("section", { class: `prompt ${mine ? "mine" : ""}`, "aria-live": mine ? "polite" : "off" },
    h("p", { class: "prompt-text" }, promptText(ctx, L, mine), ctx.clock ? " " : null, ctx.clock || null),
    hint ? h("p", { class: "hint" }, hint) : null,
    why.length ? h("div", { class: "why" }, why.map((line) => h("p", {}, line))) : null,
    mine && ctx.hint ? ctx.hint : null,
    buttons.length ? h("div", { class: "buttons" }, buttons) : null);
}

function handArea(ctx, L) {
  const v = ctx.view;
  if (ctx.seat === null || ctx.seat === undefined) return null;
  const cards = v.hand.map((c, i) => {
    const canPlace = L.place.has(c.kind) && v.decision === "place";
    const swap = L.swap.get(c.kind);
    // Two copies of a kind (two families in a 2-player game) are one choice, but only the copy
    // clicked is lifted.
    const which = ctx.selectedIndex === null || ctx.selectedIndex === undefined ? i : ctx.selectedIndex;
    const selected = ctx.selected === c.kind && canPlace && which === i;
    return cardEl(c, {
      button: canPlace || !!swap,
      onclick: swap ? () => ctx.act(swap) : canPlace ? () => ctx.select(selected ? null : c.kind, i) : null,
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
      // A long hand (14 cards in a 2-player game) overlaps its cards rather than wrapping.
      h("div", { class: `hand ${cards.length > 8 ? "many" : ""}`, style: `--n:${cards.length}` }, cards.length ? cards : h("p", { class: "empty" }, t("ui.none")))),
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
      h("h3", {}, swatch(s), " ", ctx.names(s)),
      discards.length ? h("div", { class: "pile-row" }, h("span", { class: "pile-label" }, t("ui.col.discards")),
        discards.map((c) => cardEl(c, { small: true, names: ctx.names }))) : null,
      known.length && s !== ctx.seat ? h("div", { class: "pile-row" }, h("span", { class: "pile-label" }, t("web.known_hand")),
        known.map((c) => cardEl(c, { small: true, names: ctx.names, inHand: true }))) : null));
  }
  if (!blocks.length) return null;
  return h("details", { class: "piles", open: window.innerWidth > 700 },
    h("summary", {}, t("ui.col.discards")), h("div", { class: "pile-list" }, blocks));
}
