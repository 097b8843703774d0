// An action's text form ("place spy last", "target 3") put into the reader's words, for hints
// and reviews (the play itself never shows action texts: it offers cards and buttons).

import { cardName, currentLanguage, has, t } from "./i18n.js";

/** The verbs whose review words name a card and a position (others keep describeAction's words). */
const MOVE_VERBS = new Set(["place", "keep", "reveal", "target", "to", "use"]);

/** ``text`` in words; ``names(seat)`` names players. */
export function describeAction(text, names) {
  const w = text.split(" ");
  const pos = (n) => t("web.at_position", { pos: n });
  switch (w[0]) {
    case "keep": return t("web.keep");
    case "reveal": return t("web.reveal");
    case "gain": return t("option.gain");
    case "place": {
      const where = w[2] === "first" ? t("web.place_first") : w[2] === "last" ? t("web.place_last") : `${t("web.place_on")} ${pos(w[3])}`;
      return `${cardName(w[1])}: ${where}`;
    }
    case "target":
    case "use":
      return pos(w[1]);
    case "to": return `${t("web.move_here")} ${pos(w[1])}`;
    case "steal": return names(Number(w[1].slice(1)) - 1);
    case "copy": return t("option.copy", { name: cardName(w[1]) });
    case "fetch": return t(`option.fetch.${w[1]}`);
    case "swap": return cardName(w[1]);
    default: return t(`option.mode.${w[0]}`) === `option.mode.${w[0]}` ? text : t(`option.mode.${w[0]}`);
  }
}

/**
 * The move ``text`` as a sentence to confirm ("Place Archer at the start of the queue"), naming the
 * card it concerns as ``view`` shows it; ``names(seat)`` names players.
 */
export function moveWords(text, view, names) {
  const w = text.split(" ");
  const at = (n) => {
    const stack = view.queue[Number(n) - 1];
    const c = stack ? stack[stack.length - 1] : null;
    return { pos: n, card: c && c.kind ? cardName(c.kind) : t("ui.face_down_card") };
  };
  const sentence = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  switch (w[0]) {
    case "place":
      if (w[2] === "first" || w[2] === "last") return t(`web.move.place_${w[2]}`, { name: cardName(w[1]) });
      return t("web.move.place_on", { name: cardName(w[1]), pos: w[3] });
    case "keep": return t("web.move.keep");
    case "reveal": return t("web.move.reveal");
    case "target": return t(view.decision === "eliminate" ? "web.move.eliminate" : "web.move.choose", at(w[1]));
    case "use": return t("web.move.use", at(w[1]));
    case "to": return t("web.move.to", { pos: w[1] });
    case "steal": return t("web.move.steal", { player: names(Number(w[1].slice(1)) - 1) });
    case "swap": return t("web.move.swap", { name: cardName(w[1]) });
    default: return sentence(describeAction(text, names));
  }
}

/** A win chance as a percentage ("54%"), or a dash when the search did not try the option. */
export function percent(p) {
  return p === null || p === undefined ? "–" : `${Math.round(p * 100)}%`;
}

/** ``n`` as an ordinal in the page's language ("4th", "4e", "4-я"), by its CLDR ordinal category. */
export function ordinal(n) {
  const key = `unit.ordinal.${new Intl.PluralRules(currentLanguage(), { type: "ordinal" }).select(n)}`;
  return t(has(key) ? key : "unit.ordinal.other", {}, n);
}

/**
 * A move of a hint or a review with its card and place ("Archer placed at the right end of the
 * queue (4th)"), from the facts the server sends with it; ``text`` (the action's text form) words
 * the moves that name no card in the queue. The terminal words the same facts the same way.
 */
export function moveInWords(facts, text, names) {
  if (!facts || !MOVE_VERBS.has(facts.verb) || facts.position < 1) return describeAction(text, names);
  const n = facts.position;
  const where = facts.verb === "place" && facts.text.includes(" on ") ? t("review.where.on", {}, n)
    : n === 1 ? t("review.where.left", { nth: ordinal(n) })
      : n === facts.queue_length ? t("review.where.right", { nth: ordinal(n) })
        : t("review.where.middle", {}, n);
  const card = facts.card ? t("review.card", { name: cardName(facts.card) }) : t("review.card.hidden");
  return t(`review.move.${facts.verb}`, { card, where });
}
