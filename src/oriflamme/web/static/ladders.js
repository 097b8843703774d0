// A ladder in full: every account ranked, a page at a time, with the bots' anchors among them, and
// each name linking to its profile. /ladders/duel or /ladders/multi, ?season=N&page=N.

import { t } from "./i18n.js";
import { frame, h, mount, setRerender } from "./page.js";
import { botLabel } from "./board.js";
import { count, rating } from "./formats.js";

export const LADDERS = ["duel", "multi"];
//: Accounts on a page.
const PAGE = 50;

/** A profile's address. */
export function profileHref(name) {
  return `/players/${encodeURIComponent(name)}`;
}

/** A page that found nothing: its heading and a sentence, in our own words, and the way back. */
export function notFound(titleKey, textKey) {
  const draw = () => {
    document.title = `${t(titleKey)} · Oriflamme`;
    mount(frame(t(titleKey), h("main", { class: "notice not-found" }, h("h2", {}, t(titleKey)), h("p", {}, t(textKey)),
      h("p", {}, h("a", { href: "/" }, t("web.to_lobby"))))));
  };
  setRerender(draw);
  draw();
}

export async function ladderPage(ladder) {
  if (!LADDERS.includes(ladder)) {
    notFound("web.ladder_page.not_found_title", "web.ladder_page.not_found");
    return;
  }
  const query = new URLSearchParams(location.search);
  const season = Number(query.get("season")) || null;
  // At most the page the server's furthest offset (10^9) starts: any later one is past the end too.
  const page = Math.min(1e9 / PAGE + 1, Math.max(1, Math.floor(Number(query.get("page")) || 1)));
  mount(frame(t(`web.ladder.${ladder}`), h("main", { class: "loading" }, h("p", {}, "…"))));
  const params = new URLSearchParams({ offset: String((page - 1) * PAGE), limit: String(PAGE) });
  if (season) params.set("season", String(season));
  let r;
  try { r = await fetch(`/api/ratings/${ladder}?${params}`); } catch { r = null; }
  if (!r || !r.ok) {
    notFound("web.ladder_page.not_found_title", "web.ladder_page.no_season");
    return;
  }
  const data = await r.json();
  const pages = Math.max(1, Math.ceil(data.total / PAGE));
  const href = (ladderTo, seasonTo, pageTo) => {
    const q = new URLSearchParams();
    if (seasonTo && seasonTo !== data.seasons) q.set("season", String(seasonTo));
    if (pageTo > 1) q.set("page", String(pageTo));
    const s = q.toString();
    return `/ladders/${ladderTo}${s ? `?${s}` : ""}`;
  };

  /** The page's rows: each account by rank, each anchor before the first account rated below it. */
  function rows() {
    const out = [];
    const anchors = [...data.anchors];
    for (const p of data.players) {
      while (anchors.length && anchors[0].rating > p.rating) out.push(anchorRow(anchors.shift()));
      out.push(h("tr", { class: "player-row", dataset: { rank: String(p.rank) } },
        h("td", { class: "rank" }, count(p.rank)),
        h("th", { scope: "row", class: "who" }, h("a", { href: profileHref(p.name) }, p.name)),
        h("td", { class: "rating" }, rating(p.rating), p.provisional ? h("small", { class: "muted provisional" }, " ", t("web.provisional")) : null),
        h("td", { class: "games" }, count(p.games))));
    }
    return out.concat(anchors.map(anchorRow));
  }

  function anchorRow(a) {
    return h("tr", { class: "anchor-row", dataset: { bot: a.bot } },
      h("td", { class: "rank" }, ""),
      h("th", { scope: "row", class: "who" }, botLabel(a.bot), " ", h("small", { class: "muted" }, t("web.ladder_page.anchor"))),
      h("td", { class: "rating" }, rating(a.rating)),
      h("td", { class: "games" }, ""));
  }

  function pager() {
    if (pages <= 1) return null;
    return h("nav", { class: "pager", "aria-label": t("web.ladder_page.pages") },
      page > 1 ? h("a", { class: "button ghost prev", rel: "prev", href: href(ladder, data.season, page - 1) }, t("web.ladder_page.previous")) : null,
      h("span", { class: "page-of" }, t("web.ladder_page.page", { page: count(page), pages: count(pages) })),
      page < pages ? h("a", { class: "button ghost next", rel: "next", href: href(ladder, data.season, page + 1) }, t("web.ladder_page.next")) : null);
  }

  function draw() {
    const title = t(`web.ladder.${ladder}`);
    document.title = `${t("web.ladders")}: ${title} · Oriflamme`;
    const seasons = [];
    for (let n = data.seasons; n >= 1 && seasons.length < 20; n--) seasons.push(n);
    mount(frame(t("web.ladders"),
      h("main", { class: "ladder-page" },
        h("nav", { class: "ladder-tabs", "aria-label": t("web.ladders") },
          LADDERS.map((l) => h("a", { class: `button ${l === ladder ? "" : "ghost"}`, href: href(l, data.season, 1), "aria-current": l === ladder ? "page" : null }, t(`web.ladder.${l}`)))),
        data.seasons > 1 ? h("nav", { class: "season-links", "aria-label": t("web.ladder_page.seasons") },
          h("span", { class: "muted" }, t("web.ladder_page.seasons"), " "),
          seasons.map((n) => h("a", { href: href(ladder, n, 1), "aria-current": n === data.season ? "page" : null }, t("web.season", { n: count(n) })))) : null,
        h("section", { class: "panel ladder-full" },
          h("h2", {}, title, data.seasons > 1 ? h("small", { class: "muted" }, " · ", t("web.season", { n: count(data.season) })) : null),
          data.total || data.anchors.length
            ? h("table", { class: "ladder-table" },
              h("thead", {}, h("tr", {},
                h("th", { scope: "col", class: "rank" }, t("web.ladder_page.rank")),
                h("th", { scope: "col", class: "who" }, t("web.ladder_page.player")),
                h("th", { scope: "col", class: "rating" }, t("web.ladder_page.rating")),
                h("th", { scope: "col", class: "games" }, t("web.ladder_page.games")))),
              h("tbody", {}, rows()))
            : null,
          data.total ? null : h("p", { class: "muted" }, t("web.ladder_empty")),
          data.total && !data.players.length ? h("p", { class: "past-end" }, t("web.ladder_page.past_end"), " ", h("a", { href: href(ladder, data.season, 1) }, t("web.ladder_page.first"))) : null,
          h("p", { class: "muted" }, t("web.ladder_page.anchors_help")),
          pager()))));
  }
  setRerender(draw);
  draw();
}
