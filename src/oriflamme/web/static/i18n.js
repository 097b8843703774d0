// The message catalogs in the browser: the same JSON files as the terminal, read the same way.
// A message is a string with {fields}, or an object of CLDR plural forms chosen by Intl.PluralRules.

export const LANGUAGES = ["en", "ru", "uk", "pl", "fr"];
const NAMES = { en: "English", ru: "Русский", uk: "Українська", pl: "Polski", fr: "Français" };

let lang = "en";
let catalog = {};
let reference = {};
let plural = new Intl.PluralRules("en");

export function languageName(code) {
  return NAMES[code] || code;
}

export function currentLanguage() {
  return lang;
}

/** The language to start in: the one chosen before, else the seat's, else the browser's, else English. */
export function preferredLanguage(seatLang) {
  const saved = localStorage.getItem("oriflamme.lang");
  if (saved && LANGUAGES.includes(saved)) return saved;
  if (seatLang && LANGUAGES.includes(seatLang) && seatLang !== "en") return seatLang;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = tag.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

async function fetchCatalog(code) {
  const r = await fetch(`/locales/${code}.json`);
  return r.ok ? r.json() : {};
}

export async function setLanguage(code, remember = false) {
  if (!LANGUAGES.includes(code)) code = "en";
  const [ref, cat] = await Promise.all([
    Object.keys(reference).length ? reference : fetchCatalog("en"),
    code === "en" ? null : fetchCatalog(code),
  ]);
  reference = ref;
  catalog = cat || ref;
  lang = code;
  plural = new Intl.PluralRules(code);
  document.documentElement.lang = code;
  if (remember) localStorage.setItem("oriflamme.lang", code);
}

function fill(template, params) {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

export function has(key) {
  return key in catalog || key in reference;
}

/** t("event.gained", {player: "Ann", ip: ip(2)}); pass n to choose a plural form and fill {n}. */
export function t(key, params = {}, n = undefined) {
  let msg = key in catalog ? catalog[key] : reference[key];
  if (msg === undefined) return key;
  if (typeof msg === "object") {
    const count = n === undefined ? 0 : n;
    msg = msg[plural.select(Math.abs(count))] || msg.other || Object.values(msg)[0];
  }
  if (n !== undefined) params = { n, ...params };
  return fill(msg, params);
}

export function cardName(slug) {
  return t(`card.${slug}.name`);
}

export function cardText(slug, schemerGain = 1) {
  return t(`card.${slug}.text`, { gain: ip(schemerGain) });
}

export function ip(n) {
  return t("unit.ip", {}, n);
}

export function joinList(items) {
  if (!items.length) return "";
  if (items.length === 1) return items[0];
  return t("ui.list_and", { first: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

// ---------------------------------------------------------------- narration (as oriflamme.tui.narrate)

const HIDDEN_VARIANTS = new Set([
  "placed.first", "placed.last", "placed.on", "kept_hidden", "moved", "ip_on_card", "ip_off_card",
  "verdict_placed", "swapped",
]);

export function messageKey(e) {
  let kind = e.type;
  if (kind === "placed" || kind === "twin_placed") {
    const where = e.stacked ? "on" : (e.pos || 0) === 0 ? "first" : "last";
    kind = `${kind}.${where}`;
  } else if (kind === "revealed") {
    kind = e.ip ? "revealed_ip" : "revealed";
  } else if (kind === "ability" || kind === "no_effect") {
    if (e.ability && e.card && e.ability !== e.card) kind += "_copy";
  } else if (kind === "eliminated") {
    kind = e.by_card ? "eliminated" : "eliminated_plain";
  } else if (kind === "card_kept") {
    kind = e.ip ? "card_kept_ip" : "card_kept";
  } else if (kind === "replaced") {
    kind = `replaced.${e.source || "discard"}`;
  } else if (kind === "game_ended") {
    kind = (e.winners || []).length === 1 ? "game_ended" : "game_ended_shared";
  }
  const hidden = kind === "swapped" ? e.hand_card : e.card;
  if (HIDDEN_VARIANTS.has(kind) && hidden == null) kind += ".hidden";
  return `event.${kind}`;
}

/** One redacted event as a sentence; players are named by ``name(seat)``. */
export function narrate(e, name) {
  const amount = typeof e.amount === "number" ? e.amount : typeof e.ip === "number" ? e.ip : 0;
  const params = {
    player: "seat" in e ? name(e.seat) : "",
    owner: "owner" in e ? name(e.owner) : "",
    name: e.card ? cardName(e.card) : t("ui.a_face_down_card"),
    pos: (e.pos || 0) + 1,
    to: (e.to || 0) + 1,
    round: e.round || 0,
    ip: ip(amount),
    victim: "victim" in e ? name(e.victim) : "",
    by: e.by_card ? cardName(e.by_card) : "",
    model: e.ability ? cardName(e.ability) : "",
    hand: e.hand_card ? cardName(e.hand_card) : "",
    winners: joinList((e.winners || []).map(name)),
  };
  if (e.type === "agreement_income") params.name = cardName("agreement");
  return t(messageKey(e), params);
}
