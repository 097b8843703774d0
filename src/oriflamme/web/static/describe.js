// An action's text form ("place spy last", "target 3") put into the reader's words, for hints
// and reviews (the play itself never shows action texts: it offers cards and buttons).

import { cardName, t } from "./i18n.js";

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

/** A win chance as a percentage ("54%"), or a dash when the search did not try the option. */
export function percent(p) {
  return p === null || p === undefined ? "–" : `${Math.round(p * 100)}%`;
}
