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

// ---------------------------------------------------------------- narration

// Which sentence tells an event, and with what, is decided on the server (oriflamme.narration):
// each event arrives with `say` = {key, args}. Here the arguments are only put into words:
// {seat} a player's name, {seats} a list of them, {card} a card's name (null: a face-down card),
// {ip} an amount of IP, {cause} why IP moved (a card's name, or the rule's), a number as it is.

function word(value, name) {
  if (value === null || typeof value !== "object") return value;
  if ("seat" in value) return name(value.seat);
  if ("seats" in value) return joinList(value.seats.map(name));
  if ("card" in value) return value.card ? cardName(value.card) : t("ui.a_face_down_card");
  if ("cause" in value) return has(`card.${value.cause}.name`) ? cardName(value.cause) : t(`cause.${value.cause}`);
  return ip(value.ip);
}

/** One event as a sentence, from its server-side narration; players are named by ``name(seat)``. */
export function narrate(e, name) {
  const params = {};
  for (const [key, value] of Object.entries(e.say.args)) params[key] = word(value, name);
  return t(e.say.key, params);
}
