// Numbers and dates in the page's language (Intl), for the ladders and the profiles.

import { currentLanguage } from "./i18n.js";

const cache = new Map();

function formatter(kind, make) {
  const key = `${kind}:${currentLanguage()}`;
  if (!cache.has(key)) cache.set(key, make(currentLanguage()));
  return cache.get(key);
}

/** A rating: one decimal always ("24.0", "24,0"). */
export function rating(x) {
  return formatter("rating", (lang) => new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })).format(x);
}

/** A count that may hold a half (a shared first place is half a win): "3", "2.5". */
export function count(x) {
  return formatter("count", (lang) => new Intl.NumberFormat(lang, { maximumFractionDigits: 1 })).format(x);
}

/** A share as a percentage without decimals ("67 %" in French). */
export function share(x) {
  return formatter("share", (lang) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 })).format(x);
}

/** A day, from seconds since the epoch (the server's clock). */
export function day(seconds) {
  return formatter("day", (lang) => new Intl.DateTimeFormat(lang, { dateStyle: "medium" })).format(new Date(seconds * 1000));
}
