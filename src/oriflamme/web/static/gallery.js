// The rules and cards of this table, in the page's language: the short rules and each of the
// table's kinds (the Twin too when the Prince is in) with its text, in a modal dialog.

import { cardName, cardText, t } from "./i18n.js";
import { h } from "./page.js";
import { cardEl, isCharacter } from "./cards.js";
import { icon } from "./art.js";

/** The kinds a table's deck plays with, in recipe order (the Twin follows its Prince). */
export function tableKinds(recipe) {
  return recipe.flatMap((k) => (k === "prince" ? ["prince", "twin"] : [k]));
}

/** A button opening the gallery of ``recipe`` (slugs); ``seat`` colours the cards (null: neutral). */
export function galleryButton(recipe, rules, seat) {
  return h("button", { type: "button", class: "ghost gallery-open", onclick: () => openGallery(recipe, rules, seat) },
    t("web.rules_and_cards"));
}

export function openGallery(recipe, rules, seat) {
  const gain = (rules && rules.schemer_gain) || 1;
  const owner = seat === null || seat === undefined ? 0 : seat;
  const rounds = (rules && rules.rounds) || 6;
  const entries = tableKinds(recipe).map((kind) => h("li", { class: "gallery-card", dataset: { kind } },
    cardEl({ kind, owner, ctrl: owner, up: true }),
    h("div", { class: "gallery-text" },
      h("h3", {}, cardName(kind), " ", h("small", {}, t(isCharacter(kind) ? "card.type.character" : "card.type.intrigue"))),
      h("p", {}, cardText(kind, gain)))));
  const close = h("button", { type: "button", class: "ghost close", "aria-label": t("web.close"), html: icon("close") });
  const dialog = h("dialog", { class: "gallery", "aria-labelledby": "gallery-title" },
    h("div", { class: "gallery-head" }, h("h2", { id: "gallery-title" }, t("web.rules_and_cards")), close),
    // The cards first: they are what a player looks up during a game.
    h("section", {}, h("h3", {}, t("web.cards_this_table")), h("ul", { class: "gallery-list" }, entries)),
    h("section", { class: "gallery-rules" },
      h("h3", {}, t("rules.title")),
      h("p", { class: "muted" }, t("web.rounds_this_table", {}, rounds)),
      t("rules.summary").split("\n").filter((line) => line).map((line) => h("p", {}, line))));
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  // A click on the backdrop (outside the dialog's box) closes it too.
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}
