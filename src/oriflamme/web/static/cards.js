// Cards as elements, and their help text on hover, focus or tap.

import { back, emblem, seatMark } from "./art.js";
import { cardName, cardText, ip, t } from "./i18n.js";
import { h, tr } from "./page.js";

export function familyClass(seat) {
  return `fam${seat}`;
}

/** A seat's mark in its colour: what tells players apart, wherever a name or a card appears. */
export function swatch(seat) {
  return h("span", { class: `swatch ${familyClass(seat)}`, dataset: { mark: String(seat) }, html: seatMark(seat) });
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
export function cardEl(c, { button = false, onclick = null, names = null, extra = "", small = false, inHand = false, fk = null, opened = false } = {}) {
  // A card in your hand or set aside is shown by its face: you hold it and know it. So is every
  // card once the game is over (``opened``: the final reveal), marked if it was never turned up.
  const face = c.up || ((inHand || opened) && c.kind);
  const classes = ["card", familyClass(c.owner), face ? "up" : "down", extra];
  if (opened && !c.up && c.kind) classes.push("turned");
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
      h("span", { class: `name ${longestWord(cardName(c.kind)) > 9 ? "long" : ""} ${cardName(c.kind).length > 16 ? "longer" : ""}`, style: fitStyle(cardName(c.kind)) }, cardName(c.kind)),
    );
  } else {
    el.append(h("span", { class: "back", html: back() }));
    if (c.kind) el.append(h("span", { class: "peek-name", style: fitStyle(cardName(c.kind)) }, cardName(c.kind)));
  }
  el.append(h("span", { class: "mark", dataset: { mark: String(c.owner) }, html: seatMark(c.owner) }));
  if (c.ip) el.append(h("span", { class: "token ip-token", title: ip(c.ip) }, String(c.ip)));
  if (c.verdict) el.append(h("span", { class: "token verdict-token", title: t("ui.verdict"), html: emblem("judge") }));
  if (c.bribe !== null && c.bribe !== undefined) {
    el.append(h("span", { class: `token bribe-token ${familyClass(c.bribe)}`, html: emblem("bribery") }));
  }
  if (c.asleep) el.append(h("span", { class: "token sleep-token" }, "z"));
  if (opened && !c.up && c.kind) el.title = t("web.never_revealed");
  el.addEventListener("mouseenter", () => showHelp(c, false, inHand));
  // Help follows the person's own focus (Tab, arrows), not the focus the page moves to the next
  // choice after each redraw: that one opened the box on every decision, over the newest log lines.
  el.addEventListener("focus", () => { if (!quietFocus) showHelp(c, false, inHand); });
  el.addEventListener("mouseleave", hideHelpSoon);
  if (!button) el.addEventListener("click", (e) => { e.stopPropagation(); showHelp(c, true, inHand); });
  return el;
}

function longestWord(text) {
  return Math.max(...text.split(/\s+/).map((w) => w.length));
}

//: The font of card names (style.css ``.card .name``), to measure them with.
const NAME_FONT = '700 100px Georgia, "Palatino Linotype", serif';
const fits = new Map();
let measure = null;

/**
 * A card name never breaks inside a word: it wraps between words only, and its font shrinks until its
 * longest word fits across the card (``--fit-word``) or, on one line in a stack's strip, the whole
 * name (``--fit-line``). Each is the card width's share a 1 px font takes; style.css multiplies by
 * the width left for the name, whatever size the card is drawn at.
 */
function fitStyle(text) {
  let fit = fits.get(text);
  if (!fit) {
    measure = measure || document.createElement("canvas").getContext("2d");
    measure.font = NAME_FONT;
    const word = Math.max(...text.split(/\s+/).map((w) => measure.measureText(w).width));
    const line = measure.measureText(text).width;
    fit = `--fit-word:${(100 / word).toFixed(4)};--fit-line:${(100 / line).toFixed(4)}`;
    fits.set(text, fit);
  }
  return fit;
}

// ---------------------------------------------------------------- card help (hover, focus or tap)

let helpTimer = 0;
let quietFocus = false;

/** Move keyboard focus to ``el`` for the person, without opening the card help it would open. */
export function focusQuietly(el) {
  quietFocus = true;
  try {
    el.focus({ preventScroll: true });
  } finally {
    quietFocus = false;
  }
}
let schemerGain = 1;

/** The Schemer's income in the table's rules, for its help text. */
export function setSchemerGain(n) {
  schemerGain = n;
}

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

/** The character kinds of the game (from the server's card list). */
export function setCharacters(kinds) {
  CHARACTERS = kinds;
}

export function isCharacter(kind) {
  return CHARACTERS.has(kind);
}
