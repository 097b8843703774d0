// A player's public profile: ratings on each ladder, their course this season (a plot), results by
// player count and by box, favourite cards, and the last rated games with their replays (and, on
// one's own profile, the review of one's moves).

import { cardName, t } from "./i18n.js";
import { emblem } from "./art.js";
import { frame, h, mount, setRerender, tr } from "./page.js";
import { accountLinks, currentAccount } from "./account.js";
import { linePlot } from "./plot.js";
import { count, day, rating, share } from "./formats.js";
import { LADDERS, notFound } from "./ladders.js";

export async function profilePage(name) {
  mount(frame(name, h("main", { class: "loading" }, h("p", {}, "…"))));
  let r;
  try { r = await fetch(`/api/players/${encodeURIComponent(name)}`); } catch { r = null; }
  if (!r || !r.ok) {
    notFound("web.profile.not_found_title", "web.profile.not_found");
    return;
  }
  const p = await r.json();
  const reviews = await reviewLinks(p);

  function draw() {
    document.title = `${p.name} · Oriflamme`;
    mount(frame(p.name,
      h("main", { class: "profile" },
        h("p", { class: "profile-since muted" }, t("web.profile.since", { date: day(p.since) }), p.season > 1 ? ` · ${t("web.season", { n: p.season })}` : ""),
        ratingsPanel(p),
        resultsPanel(p),
        favouritesPanel(p),
        lastGamesPanel(p, reviews))));
    drawPlots(p);
  }
  setRerender(draw);
  draw();
  let wide = window.innerWidth;
  window.addEventListener("resize", () => {
    if (Math.abs(window.innerWidth - wide) < 8) return;
    wide = window.innerWidth;
    drawPlots(p);
  });
}

/** A ladder's rating with its provisional mark, or that it has none yet. */
function ladderRating(x) {
  if (!x) return h("p", { class: "muted" }, t("web.profile.not_rated"));
  return h("p", { class: "rating-now" },
    h("b", { class: "rating-value" }, rating(x.rating)), " ",
    h("small", { class: "muted" }, t("web.rated_games", {}, x.games), x.provisional ? ` · ${t("web.provisional")}` : ""));
}

function ratingsPanel(p) {
  return h("section", { class: "panel profile-ratings" },
    h("h2", {}, t("web.profile.ratings")),
    LADDERS.map((ladder) => h("div", { class: `profile-ladder ladder-${ladder}`, dataset: { ladder } },
      h("h3", {}, h("a", { href: `/ladders/${ladder}` }, t(`web.ladder.${ladder}`))),
      ladderRating(p.ratings[ladder]),
      (p.history[ladder] || []).length
        ? h("figure", { class: "plot-box", dataset: { ladder } })
        : h("p", { class: "muted no-history" }, t("web.profile.no_history")))));
}

/** The plots, drawn at the width their boxes have now (again when the window's width changes). */
function drawPlots(p) {
  for (const box of document.querySelectorAll(".plot-box")) {
    const ladder = box.dataset.ladder;
    const history = p.history[ladder];
    const values = history.map((x) => x.rating);
    const ladderName = t(`web.ladder.${ladder}`);
    const title = t("web.profile.plot_title", { ladder: ladderName, first: rating(values[0]), last: rating(values[values.length - 1]) }, values.length);
    box.replaceChildren(linePlot(values, box.clientWidth, {
      title, x: t("web.profile.axis_games"), y: t("web.profile.axis_rating"), number: rating,
      point: (i) => t("web.profile.plot_point", { game: String(i + 1), rating: rating(values[i]), date: day(history[i].at) }),
    }));
  }
}

/** Games, wins (a shared first place is half a win) and the share won, by some key. */
function tally(rows, caption, keyName, label) {
  const keys = Object.keys(rows).sort((a, b) => rows[b].games - rows[a].games || a.localeCompare(b, undefined, { numeric: true }));
  return h("table", { class: "tally" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, keyName), h("th", { scope: "col" }, t("web.profile.col_games")),
      h("th", { scope: "col" }, t("web.profile.col_wins")), h("th", { scope: "col" }, t("web.profile.col_rate")))),
    h("tbody", {}, keys.map((key) => h("tr", { dataset: { key } },
      h("th", { scope: "row" }, label(key)),
      h("td", {}, count(rows[key].games)),
      h("td", {}, count(rows[key].wins)),
      h("td", { class: "win-rate" }, share(rows[key].games ? rows[key].wins / rows[key].games : 0))))));
}

/** A box's name: the boxes and the random mix by name, a deck of chosen kinds as such. */
export function deckName(deck) {
  if (deck.startsWith("random")) return t("web.deck.random");
  return tr(`web.deck.${deck}`, {}, undefined, t("web.profile.own_deck"));
}

function resultsPanel(p) {
  const any = Object.keys(p.by_players).length;
  return h("section", { class: "panel profile-results" },
    h("h2", {}, t("web.profile.results")),
    any ? [
      h("div", { class: "tallies" },
        h("div", { class: "tally-box by-players" }, tally(p.by_players, t("web.profile.by_players"), t("web.profile.col_players"), (k) => t("web.players_n", {}, Number(k)))),
        h("div", { class: "tally-box by-deck" }, tally(p.by_deck, t("web.profile.by_deck"), t("web.profile.col_deck"), deckName))),
      h("p", { class: "muted" }, t("web.profile.wins_note")),
    ] : h("p", { class: "muted" }, t("web.profile.no_results")));
}

function favouritesPanel(p) {
  const cards = p.favourite_cards || [];
  return h("section", { class: "panel profile-favourites" },
    h("h2", {}, t("web.profile.favourites")),
    cards.length ? [
      h("ol", { class: "favourites" }, cards.map((c) => h("li", { dataset: { kind: c.card } },
        h("span", { class: "fav-art", "aria-hidden": "true", html: emblem(c.card) }),
        h("span", { class: "fav-name" }, cardName(c.card)), " ",
        h("small", { class: "muted" }, t("web.profile.placed_times", {}, c.placed), " · ", t("web.profile.in_games", {}, c.games))))),
      h("p", { class: "muted" }, t("web.profile.favourites_help", {}, p.favourite_games)),
    ] : h("p", { class: "muted" }, t("web.profile.no_favourites")));
}

/** How a game ended for this player: won, a shared first place, or their place (an average when tied). */
function resultWords(g) {
  if (g.rank === 1) return t("web.profile.result_win");
  if (g.rank === 1.5) return t("web.profile.result_shared");
  return t("web.profile.result_place", { place: count(g.rank), players: count(g.players) });
}

function lastGamesPanel(p, reviews) {
  return h("section", { class: "panel profile-games" },
    h("h2", {}, t("web.profile.last_games")),
    p.last_games.length
      ? h("ul", { class: "last-games" }, p.last_games.map((g) => h("li", { dataset: { table: g.table } },
        h("span", { class: "game-what" }, h("b", {}, resultWords(g)), " · ", deckName(g.deck), " · ", t("web.players_n", {}, g.players)),
        " ", h("small", { class: "muted" }, day(g.at)), " ",
        h("span", { class: "game-links" },
          h("a", { class: "replay-link", href: g.replay }, t("web.replay_game")),
          reviews.has(g.table) ? [" · ", h("a", { class: "review-link", href: `/play/${reviews.get(g.table)}` }, t("web.profile.review"))] : null))))
      : h("p", { class: "muted" }, t("web.profile.no_results")));
}

/** On one's own profile, each game's seat link (its table page offers the review of one's moves):
 * table id -> token. Only one's own links are known to this page, so nobody else's is ever shown. */
async function reviewLinks(p) {
  const me = currentAccount();
  const found = new Map();
  if (!me || me.name !== p.name || !p.last_games.length) return found;
  try {
    const tokens = (await accountLinks()).filter((x) => x.role === "person").map((x) => x.token).slice(0, 200);
    if (!tokens.length) return found;
    const r = await fetch("/api/lobby", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tokens }) });
    for (const x of r.ok ? (await r.json()).tables : []) if (x.role === "person") found.set(x.table, x.token);
  } catch { /* no review links: the replays are still there */ }
  return found;
}
