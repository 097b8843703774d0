// The lobby: create a table, see the tables this browser knows.

import { LANGUAGES, cardName, cardText, currentLanguage, joinList, languageName, t } from "./i18n.js";
import { emblem } from "./art.js";
import { forgetTokens, frame, h, linkField, markSeatNamed, mount, rememberFocus, rememberToken, rememberedTokens, seatName, toast, tr, setRerender } from "./page.js";
import { familyClass, swatch } from "./cards.js";
import { botLabel } from "./board.js";
import { accountLinks, accountPanel, currentAccount, forgetLinks, post } from "./account.js";
import { refreshSocial, socialPanels } from "./friends.js";
import { profileHref } from "./ladders.js";
import { rating } from "./formats.js";

export async function lobbyPage() {
  const meta = await (await fetch("/api/meta")).json();
  let tables = [];
  let openTables = [];
  //: Games anyone may watch, with their players' ratings.
  let liveGames = [];
  let created = null;
  //: Each ladder's standing ({duel, multi}), read when the page opens and after logging in or out.
  let ladders = {};

  const botChoices = [];
  for (const b of meta.bots) {
    if (b.levels.length) for (const level of b.levels) botChoices.push(`${b.kind}:${level}`);
    else botChoices.push(b.kind);
  }
  const defaultBot = botChoices.find((s) => s === "heuristic") || botChoices.find((s) => s.endsWith(":normal")) || botChoices[0];
  const form = {
    players: 4, deck: "base", seats: [], turnSeconds: 0,
    // A deck chosen card by card ("any 10 kinds"), and the rule options the server accepts.
    custom: new Set(meta.presets.base), rules: { ...meta.rules }, open: false, watchable: false,
  };
  const seatDefaults = (i) => ({ kind: i === 0 ? "person" : "bot", name: "", bot: defaultBot, lang: currentLanguage(), invite: "" });
  for (let i = 0; i < 5; i++) form.seats.push(seatDefaults(i));

  async function refresh() {
    await refreshSocial();
    try {
      const r = await fetch("/api/open");
      openTables = r.ok ? (await r.json()).tables : [];
    } catch { openTables = []; }
    try {
      const r = await fetch("/api/live");
      liveGames = r.ok ? (await r.json()).tables : [];
    } catch { liveGames = []; }
    // This browser's links, and those the account keeps from every device where its owner logged in.
    const tokens = [...new Set(rememberedTokens().map((x) => x.token).concat((await accountLinks()).map((x) => x.token)))].slice(0, 200);
    if (!tokens.length) { tables = []; draw(); return; }
    try {
      const r = await fetch("/api/lobby", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tokens }) });
      tables = r.ok ? (await r.json()).tables : [];
    } catch { tables = []; }
    draw();
  }

  async function readLadders() {
    const read = async (ladder) => {
      try {
        const r = await fetch(`/api/ratings/${ladder}?limit=10`);
        return r.ok ? await r.json() : null;
      } catch { return null; }
    };
    const [duel, multi] = await Promise.all([read("duel"), read("multi")]);
    ladders = { duel: duel ? duel.players : [], multi: multi ? multi.players : [], season: (duel || multi || {}).season };
    draw();
  }

  /** The ladders: the best ten of each, with a mark on ratings of few games. */
  function laddersPanel() {
    const board = (ladder) => {
      const rows = ladders[ladder] || [];
      return h("div", { class: `ladder ladder-${ladder}` },
        h("h3", {}, t(`web.ladder.${ladder}`)),
        rows.length
          ? h("ol", {}, rows.slice(0, 10).map((row) => h("li", {},
            h("a", { class: "ladder-name", href: profileHref(row.name) }, row.name), " ",
            h("b", {}, rating(row.rating)), " ",
            h("small", { class: "muted" }, t("web.rated_games", {}, row.games), row.provisional ? ` · ${t("web.provisional")}` : ""))))
          : h("p", { class: "muted" }, t("web.ladder_empty")),
        h("p", { class: "full-ladder" }, h("a", { href: `/ladders/${ladder}` }, t("web.ladder_page.full"))));
    };
    return h("section", { class: "panel ladders" },
      h("h2", {}, t("web.ladders"), ladders.season > 1 ? h("small", { class: "muted" }, " · ", t("web.season", { n: ladders.season })) : null),
      board("duel"), board("multi"));
  }

  /** Games anyone may watch: their seats with ratings, the score, and the spectator link. */
  function livePanel() {
    const game = (x) => h("li", { class: "table-card live-game" },
      h("div", { class: "tc-head" },
        h("strong", {}, tr(`web.deck.${x.deck}`, {}, undefined, x.deck), " · ", t("web.players_n", {}, x.players)),
        h("span", { class: "tc-status" }, t("web.round_of", { round: x.round, rounds: x.rounds }))),
      h("ul", { class: "tc-seats" }, x.seats.map((s, i) => h("li", { class: familyClass(i) },
        swatch(i), " ", seatName(s, i),
        s.kind === "bot" ? h("small", {}, " ", botLabel(s.bot)) : null,
        s.rating ? h("small", { class: "muted" }, ` (${s.rating.rating.toFixed(1)}${s.rating.provisional ? "?" : ""})`) : null,
        " ", h("b", {}, String(x.scores[i]))))),
      h("div", { class: "tc-actions" }, h("a", { class: "button", href: `/watch/${x.spectator}` }, t("web.watch"))));
    return h("section", { class: "panel live-games" }, h("h2", {}, t("web.live_games")),
      liveGames.length ? h("ul", { class: "table-list" }, liveGames.map(game)) : h("p", { class: "muted" }, t("web.live_empty")));
  }

  /** How many tables wait for this person's move: in the page's title and on "Your tables". */
  function myTurns() {
    return grouped().filter((g) => g.seat && !g.seat.over && g.seat.to_move === g.seat.seat).length;
  }

  async function create(e) {
    e.preventDefault();
    const seats = form.seats.slice(0, form.players).map((s, i) => ({
      kind: i === 0 ? "person" : s.kind, name: s.name, lang: i === 0 ? currentLanguage() : s.lang,
      bot: s.kind === "bot" && i > 0 ? s.bot : null,
      invite: invitable(i) ? s.invite.trim() : "",
    }));
    if (form.deck === "custom" && form.custom.size !== RECIPE_SIZE) {
      toast(t("web.choose_ten", {}, form.custom.size), "error");
      return;
    }
    const deck = form.deck === "custom" ? [...form.custom].join(",") : form.deck;
    const rules = { ...form.rules };
    const body = { players: form.players, deck, seats, turn_seconds: form.turnSeconds, rules, open: form.open, watchable: form.watchable };
    const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!r.ok) {
      const detail = (await r.json().catch(() => ({}))).detail;
      toast(typeof detail === "string" ? detail : t("web.create_failed"), "error");
      return;
    }
    const data = await r.json();
    data.invited = seats.map((s) => s.invite);
    // Offered once: the next table starts with no names to invite.
    form.seats.forEach((s) => { s.invite = ""; });
    inviteFields.forEach((field) => { field.value = ""; });
    rememberToken(data.host, "host");
    rememberToken(data.seats[0].token, "person");
    markSeatNamed(data.seats[0].token); // the creator typed their name here already
    if (data.seats.some((s, i) => i > 0 && s.token)) { created = data; draw(); refresh(); }
    else location.href = `/play/${data.seats[0].token}`;
  }

  /** The guided first game: a table on the tutorial's deal, the person against two tutor bots. */
  async function startTutorial() {
    const x = meta.tutorial;
    const seats = [{ kind: "person", name: form.seats[0].name, lang: currentLanguage() }]
      .concat(x.bots.map((bot) => ({ kind: "bot", bot, lang: currentLanguage() })));
    const body = { players: x.players, deck: x.deck, seed: x.seed, first_player: x.first_player, seats };
    const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!r.ok) { toast(t("web.create_failed"), "error"); return; }
    const data = await r.json();
    rememberToken(data.host, "host");
    rememberToken(data.seats[0].token, "person");
    markSeatNamed(data.seats[0].token);
    location.href = `/play/${data.seats[0].token}`;
  }

  function learnPanel() {
    return h("section", { class: "panel learn" },
      h("h2", {}, t("tutorial.title")),
      h("p", {}, t("web.tutorial_help")),
      h("p", {}, h("button", { type: "button", class: "primary learn-to-play", onclick: startTutorial }, t("web.tutorial_start"))));
  }

  function tableCard(group) {
    const x = group.seat || group.host || group.spectator;
    const status = x.over
      ? t("web.finished", { winners: joinList(x.winners.map((s) => seatName(x.seats[s], s))) })
      : x.to_move >= 0 && group.seat && x.to_move === group.seat.seat ? t("web.your_turn")
      : t("web.round_of", { round: x.round, rounds: x.rounds });
    const open = group.seat ? `/play/${group.seat.token}` : `/watch/${x.spectator}`;
    const links = [];
    if (group.host) {
      group.host.seats.forEach((s, i) => {
        if (s.kind === "person" && s.token && !(group.seat && group.seat.seat === i)) {
          links.push(h("div", { class: "invite" }, h("span", {}, seatName(s, i), " ", h("small", {}, t(s.joined ? "web.joined" : "web.not_joined"))), linkField(`${location.origin}/play/${s.token}`),
            !s.joined && !group.host.over && currentAccount() ? hostInvite(group.host, i) : null));
        }
      });
    }
    return h("li", { class: `table-card ${x.over ? "over" : ""} ${status === t("web.your_turn") ? "turn" : ""}` },
      h("div", { class: "tc-head" },
        h("strong", {}, tr(`web.deck.${x.deck}`, {}, undefined, x.deck), " · ", t("web.players_n", {}, x.players)),
        h("span", { class: "tc-status" }, status)),
      h("ul", { class: "tc-seats" }, x.seats.map((s, i) => h("li", { class: familyClass(i) },
        swatch(i), " ", seatName(s, i),
        s.kind === "bot" ? h("small", {}, " ", botLabel(s.bot)) : h("span", { class: `dot ${s.online ? "on" : "off"}` }),
        " ", h("b", {}, String(x.scores[i]))))),
      links.length ? h("details", { class: "invites" }, h("summary", {}, t("web.invite_links")), links) : null,
      h("div", { class: "tc-actions" },
        h("a", { class: "button", href: open }, t(group.seat ? "web.open" : "web.watch")),
        x.over ? h("a", { class: "button ghost", href: `/replay/${x.spectator}` }, t("web.replay_game")) : null,
        h("button", { type: "button", class: "ghost", onclick: async () => { forgetTokens(group.tokens); await forgetLinks(group.tokens); refresh(); } }, t("web.forget"))));
  }

  //: The host's invite-by-name fields, by table, seat and language, kept across redraws.
  const hostInviteFields = new Map();

  /** Offer a seat nobody took to an account by name, from the table's host link. */
  function hostInvite(host, i) {
    const key = `${host.table}:${i}:${currentLanguage()}`;
    if (!hostInviteFields.has(key)) {
      hostInviteFields.set(key, h("input", {
        class: "invite-name", name: `host-invite-${i}`, maxlength: "24", autocomplete: "off",
        placeholder: t("web.invite_placeholder"), "aria-label": t("web.invite_by_name", { n: i + 1 }),
      }));
    }
    const field = hostInviteFields.get(key);
    const send = async (e) => {
      e.preventDefault();
      const name = field.value.trim();
      if (!name) return;
      try {
        await post("/api/account/invites/send", { host: host.token, seat: i, name });
        field.value = "";
        toast(t("web.invite_sent", { name }));
      } catch (err) { toast(err.message, "error"); }
    };
    return h("form", { class: "form-row host-invite", onsubmit: send }, field,
      h("button", { type: "submit", class: "small-btn" }, t("web.invite")));
  }

  function grouped() {
    const byTable = new Map();
    for (const x of tables) {
      const g = byTable.get(x.table) || { tokens: [], created: x.created };
      g.tokens.push(x.token);
      if (x.role === "host") g.host = x; else if (x.role === "person") g.seat = g.seat || x; else g.spectator = x;
      byTable.set(x.table, g);
    }
    return [...byTable.values()].sort((a, b) => b.created - a.created);
  }

  /** Tables anyone may join, and a quick match that seats you at once. */
  function openPanel() {
    const go = async (url, body) => {
      const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const answer = await r.json().catch(() => ({}));
      if (!r.ok) { toast(typeof answer.detail === "string" ? answer.detail : t("web.no_seat"), "error"); refresh(); return; }
      rememberToken(answer.token, "person");
      location.href = `/play/${answer.token}`;
    };
    return h("section", { class: "panel open-tables" },
      h("h2", {}, t("web.open_tables")),
      h("p", {}, h("button", { type: "button", class: "primary quick-match", onclick: () => go("/api/quick-match", { lang: currentLanguage() }) }, t("web.quick_match")),
        " ", h("small", { class: "muted" }, t("web.quick_match_help"))),
      openTables.length
        ? h("ul", { class: "table-list" }, openTables.map((x) => h("li", { class: "table-card open", dataset: { table: x.table } },
          h("div", { class: "tc-head" },
            h("strong", {}, tr(`web.deck.${x.deck}`, {}, undefined, x.deck), " · ", t("web.players_n", {}, x.players)),
            h("span", { class: "tc-status" }, t("web.free_seats", {}, x.free))),
          h("ul", { class: "tc-seats" }, x.seats.map((s, i) => h("li", { class: familyClass(i) }, swatch(i), " ", seatName(s, i)))),
          h("div", { class: "tc-actions" },
            h("button", { type: "button", class: "button join-open", onclick: () => go("/api/open/join", { table: x.table }) }, t("web.join"))))))
        : h("p", { class: "muted" }, t("web.no_open_tables")));
  }

  /** Any 10 kinds, picked from every box's cards (a preset fills the choice to start from). */
  function deckGallery() {
    const boxes = [...new Set(meta.cards.map((c) => c.box))];
    const count = form.custom.size;
    const toggle = (slug) => {
      if (form.custom.has(slug)) form.custom.delete(slug);
      else if (form.custom.size < RECIPE_SIZE) form.custom.add(slug);
      draw();
    };
    return h("fieldset", { class: "deck-gallery" },
      h("legend", {}, t("web.deck_gallery")),
      h("p", { class: `chosen-count ${count === RECIPE_SIZE ? "full" : ""}`, role: "status" }, t("web.chosen_count", {}, count)),
      h("p", { class: "start-from" }, t("web.start_from"), " ",
        Object.keys(meta.presets).map((name) => h("button", {
          type: "button", class: "ghost small-btn", dataset: { preset: name },
          onclick: () => { form.custom = new Set(meta.presets[name]); draw(); },
        }, t(`web.deck.${name}`)))),
      boxes.map((box) => h("div", { class: "box" },
        h("h3", {}, t(`web.deck.${box}`)),
        h("div", { class: "box-cards" }, meta.cards.filter((c) => c.box === box).map((c) => {
          const on = form.custom.has(c.slug);
          return h("button", {
            type: "button", class: `pick ${on ? "on" : ""}`, "aria-pressed": on ? "true" : "false",
            disabled: !on && count >= RECIPE_SIZE, dataset: { kind: c.slug }, onclick: () => toggle(c.slug),
            title: cardText(c.slug),
          }, h("span", { class: "pick-art", html: emblem(c.slug) }), h("span", { class: "pick-name" }, cardName(c.slug)));
        })))));
  }

  /** The rule options a table may change (the rest is fixed by the rules). */
  function ruleOptions() {
    const option = (key, values, label) => h("label", {}, label, " ",
      h("select", { name: key, onchange: (e) => { form.rules[key] = Number(e.target.value); } },
        values.map((n) => h("option", { value: String(n), selected: n === form.rules[key] }, String(n)))));
    return h("details", { class: "rule-options", open: !!form.rulesOpen, ontoggle: (e) => { form.rulesOpen = e.target.open; } },
      h("summary", {}, t("web.rule_options")),
      h("div", { class: "form-row" },
        option("rounds", [1, 2, 3, 4, 5, 6, 7], t("web.rule.rounds")),
        option("schemer_gain", [1, 2], t("web.rule.schemer_gain")),
        form.players === 2 ? option("two_player_cards_per_round", [1, 2, 3], t("web.rule.two_player_cards")) : null));
  }

  /** Whether seat ``i`` may be offered to an account by name: a friend's seat, made by an account,
   * at a table among friends (an open table's seats are for anyone). */
  function invitable(i) {
    return i > 0 && form.seats[i].kind === "person" && !form.open && !!currentAccount();
  }

  //: The invite-by-name fields, one per seat, kept across redraws (text, focus and caret survive).
  const inviteFields = [];
  function inviteField(i) {
    const label = t("web.invite_by_name", { n: i + 1 });
    if (!inviteFields[i] || inviteFields[i].getAttribute("aria-label") !== label) {
      inviteFields[i] = h("input", {
        class: "invite-name", name: `invite-${i}`, maxlength: "24", autocomplete: "off",
        placeholder: t("web.invite_placeholder"), "aria-label": label, value: form.seats[i].invite,
        oninput: (e) => { form.seats[i].invite = e.target.value; },
      });
    }
    return inviteFields[i];
  }

  function seatRow(i) {
    const s = form.seats[i];
    const you = i === 0;
    return h("div", { class: `seat-row ${familyClass(i)}` },
      swatch(i),
      h("input", { class: "name", maxlength: "24", placeholder: you ? t("web.your_name") : t("web.name_placeholder", { n: i + 1 }), value: s.name, "aria-label": t("web.seat_name", { n: i + 1 }), oninput: (e) => { s.name = e.target.value; } }),
      you ? h("span", { class: "you-tag" }, t("ui.you")) : h("select", { "aria-label": t("web.seat_kind", { n: i + 1 }), onchange: (e) => { s.kind = e.target.value; draw(); } },
        h("option", { value: "bot", selected: s.kind === "bot" }, t("web.seat_bot")),
        h("option", { value: "person", selected: s.kind === "person" }, t("web.seat_friend"))),
      !you && s.kind === "bot" ? h("select", { "aria-label": t("web.bot_level"), onchange: (e) => { s.bot = e.target.value; } },
        botChoices.map((b) => h("option", { value: b, selected: b === s.bot }, botLabel(b)))) : null,
      !you && s.kind === "person" ? h("select", { "aria-label": t("web.language"), onchange: (e) => { s.lang = e.target.value; } },
        LANGUAGES.map((code) => h("option", { value: code, selected: code === s.lang }, languageName(code)))) : null,
      invitable(i) ? inviteField(i) : null);
  }

  function draw() {
    const focus = rememberFocus();
    const groups = grouped();
    const turns = myTurns();
    document.title = turns ? `(${turns}) ${t("web.lobby")} · Oriflamme` : `${t("web.lobby")} · Oriflamme`;
    const createdPanel = created ? h("section", { class: "panel created" },
      h("h2", {}, t("web.invite_links")),
      h("p", {}, t("web.invite_help")),
      created.seats.map((s, i) => (i > 0 && s.token ? h("div", { class: `invite ${familyClass(i)}` },
        h("span", {}, seatName(s, i), created.invited[i] ? h("small", {}, " ", t("web.invited_name", { name: created.invited[i] })) : null),
        linkField(`${location.origin}/play/${s.token}`)) : null)),
      h("div", { class: "invite" }, h("span", {}, t("web.spectator_link")), linkField(`${location.origin}/watch/${created.spectator}`)),
      h("p", {}, h("a", { class: "button", href: `/play/${created.seats[0].token}` }, t("web.take_seat")))) : null;
    const [invitesPanel, friendsPanel] = socialPanels();
    mount(frame(t("web.lobby"),
      h("main", { class: "lobby" },
        createdPanel,
        invitesPanel,
        learnPanel(),
        h("section", { class: "panel new-table" },
          h("h2", {}, t("web.new_table")),
          h("form", { onsubmit: create },
            h("div", { class: "form-row" },
              h("label", {}, t("web.players"), " ",
                h("select", { name: "players", onchange: (e) => { form.players = Number(e.target.value); draw(); } },
                  [2, 3, 4, 5].map((n) => h("option", { value: String(n), selected: n === form.players }, String(n))))),
              h("label", {}, t("web.deck"), " ",
                h("select", { name: "deck", onchange: (e) => { form.deck = e.target.value; draw(); } },
                  [...meta.decks, "custom"].map((d) => h("option", { value: d, selected: d === form.deck }, t(`web.deck.${d}`))))),
              // Off by default: a table of friends may want one, a table against bots does not.
              h("label", { title: t("web.turn_timer_help") }, t("web.turn_timer"), " ",
                h("select", { name: "turn_seconds", onchange: (e) => { form.turnSeconds = Number(e.target.value); } },
                  TURN_TIMERS.map((n) => h("option", { value: String(n), selected: n === form.turnSeconds, disabled: form.open && !n },
                    timerLabel(n)))))),
            form.deck === "custom" ? deckGallery() : null,
            ruleOptions(),
            h("div", { class: "seats" }, [...Array(form.players).keys()].map(seatRow)),
            h("label", { class: "setting open-table" },
              // Strangers need a turn timer: nobody may keep them waiting for good.
              h("input", { type: "checkbox", name: "open", checked: form.open, onchange: (e) => {
                form.open = e.target.checked;
                if (form.open && !form.turnSeconds) form.turnSeconds = 60;
                draw();
              } }),
              " ", t("web.open_table")),
            h("label", { class: "setting watchable-table" },
              h("input", { type: "checkbox", name: "watchable", checked: form.watchable, onchange: (e) => { form.watchable = e.target.checked; } }),
              " ", t("web.watchable_table")),
            h("button", { type: "submit", class: "primary" }, t("web.create")))),
        openPanel(),
        h("section", { class: "panel my-tables" },
          h("h2", {}, t("web.your_tables"), turns ? h("span", { class: "badge", title: t("web.your_turn") }, String(turns)) : null),
          groups.length ? h("ul", { class: "table-list" }, groups.map(tableCard)) : h("p", { class: "muted" }, t("web.no_tables"))),
        accountPanel(() => { draw(); refresh(); readLadders(); }),
        friendsPanel,
        livePanel(),
        laddersPanel(),
        h("section", { class: "panel rules" }, h("h2", {}, t("rules.title")),
          h("div", { class: "rules-text" }, t("rules.summary").split("\n").map((line) => h("p", {}, line)))))));
    focus.restore();
  }

  setRerender(() => draw());
  draw();
  refresh();
  readLadders();
  setInterval(() => { if (document.visibilityState === "visible") refresh(); }, 15000);
}

//: The turn timers offered at creation, in seconds (0: none).
//: From an hour on, the table is turn-based: a game over days, a move at a time.
const TURN_TIMERS = [0, 30, 60, 120, 300, 3600, 43200, 86400, 172800, 259200];

/** A turn timer's length in the page's language: seconds, hours or days. */
function timerLabel(n) {
  if (!n) return t("web.turn_timer_off");
  if (n % 86400 === 0) return t("web.turn_timer_days", {}, n / 86400);
  if (n % 3600 === 0) return t("web.turn_timer_hours", {}, n / 3600);
  return t("web.turn_timer_seconds", {}, n);
}

//: Kinds in a deck.
const RECIPE_SIZE = 10;
