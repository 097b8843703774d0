// The table page: play a seat or watch, over the table's WebSocket.

import { currentLanguage, preferredLanguage, setLanguage, t } from "./i18n.js";
import { frame, h, linkField, markSeatNamed, mount, rememberToken, seatName, seatNamed, setRerender, toast, tr } from "./page.js";
import { parseLegal } from "./legal.js";
import { board } from "./board.js";
import { logLines, logPanel, resultPanel, scrollLog, scrollQueue, showDecision } from "./log.js";
import { animateChange, floatScores, snapshotQueue } from "./animate.js";
import { focusQuietly } from "./cards.js";
import { icon } from "./art.js";
import { chooser, confirmEveryMove, setConfirmEveryMove } from "./confirm.js";
import { galleryButton } from "./gallery.js";
import { searchPanels } from "./search_panels.js";
import { chatPanel } from "./chat.js";
import { lessonPanel, offeredMoves } from "./tutorial.js";
import { announceTurn, notifyOn, setNotifyOn, setSoundOn, soundOn } from "./notify.js";

export function tablePage(token, spectating) {
  const G = {
    token, spectating, ws: null, welcome: null, msg: null, log: [], online: null, selected: null,
    connected: false, retry: 0, busy: false, dead: false, pingTimer: 0, languageSet: false,
    logView: null, pendingDraw: null,
    // States waiting to be shown (others' moves, paced), those shown so far, and the one looked at.
    inbox: [], pacer: 0, paused: false, shownAt: 0, past: [], viewing: null, since: [],
    handling: Promise.resolve(),
  };
  const names = (s) => (G.welcome && G.welcome.table.seats[s] ? seatName(G.welcome.table.seats[s], s) : `p${s + 1}`);

  function send(text) {
    // A click on a page whose newest state is not drawn yet would act on what the person did not see.
    if (!G.msg || G.busy || G.pendingDraw || G.inbox.length || G.viewing !== null) return;
    if (!G.ws || G.ws.readyState !== WebSocket.OPEN) return;
    G.busy = true;
    document.body.classList.add("busy");
    G.ws.send(JSON.stringify({ type: "act", state: G.msg.state, action: text }));
  }

  const { hintPanel, reviewPanel } = searchPanels(G, token, spectating, names, draw);

  const moves = chooser(send, () => {
    G.focusHint = moves.pending ? ".prompt .act.confirm" : null;
    draw();
  });
  const act = (text, opts) => moves.act(text, opts);

  function select(slug, index = null) {
    G.selected = slug;
    G.selectedIndex = slug ? index : null;
    // With a card chosen, the next thing to choose is where it goes.
    G.focusHint = slug ? ".queue .slot.legal, .queue .card.legal" : null;
    draw();
  }

  /** The log list, kept between draws: only the lines of new steps are narrated and added. */
  function logList() {
    const lang = currentLanguage();
    if (!G.logView || G.logView.lang !== lang || G.logView.count > G.log.length) {
      G.logView = { el: h("ol", { class: "log", "aria-live": "off" }), count: 0, lang };
    }
    if (G.logView.count < G.log.length) {
      G.logView.el.append(...logLines(G.log.slice(G.logView.count), names, G.logView.count));
      G.logView.count = G.log.length;
    }
    return G.logView.el;
  }

  /** Draw once per frame however many states arrived (bots may answer within a millisecond). */
  function scheduleDraw(before, events) {
    if (G.pendingDraw) {
      if (!before) G.pendingDraw.before = null; // a full resync: nothing to animate from
      G.pendingDraw.events.push(...events);
      return;
    }
    G.pendingDraw = { before, events: [...events] };
    requestAnimationFrame(() => {
      const pending = G.pendingDraw;
      G.pendingDraw = null;
      draw(pending.before, pending.events);
    });
  }

  function draw(before = null, events = null) {
    if (G.dead) return;
    if (!G.msg || !G.welcome) {
      mount(frame("", h("main", { class: "loading" }, h("p", {}, G.connected ? "…" : t("web.connecting")))));
      return;
    }
    const looking = G.viewing !== null ? G.past[G.viewing] : null;
    const shown = looking || G.msg;
    const v = shown.view;
    const seat = shown.seat;
    const legal = parseLegal(looking ? [] : offeredMoves(G.msg, token));
    document.body.dataset.state = String(G.msg.state);
    document.body.dataset.shown = String(shown.state);
    // A question answered by a button below the queue (keep or reveal, a target, a mode): the hand
    // does not stick to the bottom of the screen over those buttons.
    document.body.classList.toggle("answering", legal.any && !looking && v.decision !== "place" && v.decision !== "twin");
    if (G.selected && !legal.place.has(G.selected)) G.selected = null;
    if (!G.selected && v.decision === "twin" && legal.place.has("twin")) G.selected = "twin";
    const ctx = {
      view: v, seat, names, legal, act, select, selected: G.selected, selectedIndex: G.selectedIndex, online: G.online,
      seats: G.welcome.table.seats, rules: G.welcome.table.rules, interactive: !spectating && !G.busy && !looking,
      reveal: shown.reveal || null, pending: moves.pending, cancel: () => moves.cancel(),
      away: G.away || [], conceded: G.conceded || [], waiting: G.waiting || [], clock: looking ? null : clockEl(),
      hint: looking ? null : hintPanel(),
    };
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.fk : null;
    const oldQueue = document.querySelector(".queue");
    const queueLeft = oldQueue ? oldQueue.scrollLeft : null;
    const title = spectating ? t("web.spectating") : names(seat);
    // The tab says when the game waits for this person, so a tab in the background still tells.
    const waiting = !spectating && !G.inbox.length && parseLegal(G.msg.legal || []).any && !G.msg.result;
    document.title = waiting ? `● ${t("web.your_turn")} · Oriflamme` : "Oriflamme";

    const banner = G.connected ? null : h("div", { class: "banner-offline", role: "alert" }, t("web.reconnecting"));
    const end = G.msg.result ? resultPanel(G.msg.result, names, h("p", { class: "end-links" },
      rematchLink(), " ",
      h("a", { class: G.rematch || !spectating ? "button ghost" : "button", href: `/replay/${token}` }, t("web.replay_game")), " ",
      h("a", { class: "button ghost", href: `/api/save/${token}`, download: "" }, t("web.download_save")), " ",
      h("a", { class: "button ghost", href: "/" }, t("web.to_lobby")), reviewPanel()), G.msg.reveal, G.conceded || []) : null;
    mount(frame(title,
      banner,
      h("main", { class: "table-page" },
        h("div", { class: "main-col" }, nameAsk(), friendsPanel(), awayBanner(), playBar(looking),
          looking || spectating || end ? null : lessonPanel(G.msg, token, ctx, () => draw()), board(ctx),
          looking ? null : end, looking || spectating || !end ? null : lessonPanel(G.msg, token, ctx, () => draw())),
        h("div", { class: "side-col" },
          spectating ? null : invitePanel(),
          h("div", { class: "table-tools" }, galleryButton(v.recipe, G.welcome.table.rules, spectating ? null : seat)),
          spectating ? null : settingsPanel(),
          chat().el,
          logPanel(null, names, null, logList())))));
    scrollLog();
    scrollQueue(queueLeft);
    // A decision for this person just arrived: into view if it is not (the page scrolled to the log).
    if (waiting && !looking && G.decisionShown !== G.msg.state) {
      G.decisionShown = G.msg.state;
      showDecision();
    }
    // The game just ended: bring the result into view (it sits below the board, often below the fold).
    if (G.msg.result && !G.resultShown) {
      G.resultShown = true;
      const panel = document.querySelector(".result");
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      if (panel) panel.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
    }
    if (before && !looking) {
      animateChange(before, events || []);
      floatScores(before.viewBefore, v);
    }
    // Redrawing replaces the controls: keep keyboard focus on the same choice, or else on the first one.
    const hinted = G.focusHint ? document.querySelector(G.focusHint) : null;
    G.focusHint = null;
    const again = hinted || (focused ? document.querySelector(`[data-fk="${CSS.escape(focused)}"]`) : null);
    const first = document.querySelector(".prompt.mine .act, .slot.legal, .card.legal");
    if (again) focusQuietly(again);
    else if (first && (focused || before)) focusQuietly(first);
  }

  /**
   * For screen readers: what the others did since this person's last decision, in one polite
   * announcement when the game comes back to them (the log itself is not a live region: it
   * would read out every bot step as it happens).
   */
  function summarize() {
    const lines = logLines(G.since, names).map((li) => li.textContent);
    const region = document.getElementById("turn-summary")
      || document.body.appendChild(h("div", { id: "turn-summary", class: "sr-only", role: "status", "aria-live": "polite" }));
    region.textContent = lines.length ? `${t("web.since_your_turn")} ${lines.join(" ")}` : "";
  }

  /** Pause and speed for others' moves, and stepping back through what this page has shown. */
  function playBar(looking) {
    const n = G.past.length;
    const at = G.viewing === null ? n - 1 : G.viewing;
    const speed = currentSpeed();
    return h("nav", { class: "play-bar", "aria-label": t("web.follow_game") },
      h("button", { type: "button", class: "act ghost small-btn back", onclick: () => viewPast(at - 1), disabled: at <= 0, "aria-label": t("web.step_back") }, "◀"),
      h("button", { type: "button", class: "act ghost small-btn forward", onclick: () => viewPast(at + 1), disabled: G.viewing === null, "aria-label": t("web.step_forward") }, "▶"),
      looking
        ? h("span", { class: "viewing" }, t("web.viewing_step", { step: at + 1, total: n }), " ",
          h("button", { type: "button", class: "act small-btn live", onclick: () => viewPast(null) }, t("web.back_to_live")))
        : null,
      !looking && !spectating && G.msg.can_take_back && !G.inbox.length
        ? h("button", { type: "button", class: "act small-btn takeback", onclick: () => sendSeat("takeback") }, t("web.take_back"))
        : null,
      h("button", { type: "button", class: `act small-btn pause ${G.paused ? "on" : ""}`, "aria-pressed": G.paused ? "true" : "false", onclick: () => setPaused(!G.paused) },
        G.paused ? t("web.resume") : t("web.pause")),
      G.inbox.length ? h("span", { class: "waiting-steps" }, t("web.steps_waiting", {}, G.inbox.length)) : null,
      h("label", { class: "speed" }, t("web.speed"), " ",
        h("select", { onchange: (e) => { setSpeed(e.target.value); pump(); } },
          Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: k === speed }, t(`web.speed.${k}`))))));
  }

  /** The chat panel, made once the seat is known and kept between draws. */
  function chat() {
    if (!G.chat || G.chatLang !== currentLanguage()) {
      const old = G.chat;
      G.chat = chatPanel({
        send: (message) => { if (G.ws && G.ws.readyState === WebSocket.OPEN) G.ws.send(JSON.stringify(message)); },
        names, seat: spectating ? null : G.msg.seat,
      });
      G.chatLang = currentLanguage();
      if (G.chatState) G.chat.setState(G.chatState);
      else if (old) G.chat.setState({ lines: [], muted: [], spectators: false });
    }
    return G.chat;
  }

  function sendSeat(type) {
    if (G.ws && G.ws.readyState === WebSocket.OPEN) G.ws.send(JSON.stringify({ type }));
  }

  /** A bot plays this person's seat (they left, or their time ran out): say so, and how to come back. */
  function awayBanner() {
    if (spectating || !(G.away || []).includes(G.msg.seat) || G.msg.result) return null;
    if ((G.conceded || []).includes(G.msg.seat)) {
      return h("div", { class: "away-banner", role: "status" }, h("span", {}, t("web.you_conceded")));
    }
    return h("div", { class: "away-banner", role: "status" },
      h("span", {}, t("web.bot_plays_for_you")), " ",
      h("button", { type: "button", class: "primary back", onclick: () => sendSeat("back") }, t("web.take_seat_back")));
  }

  /** The time the person deciding has left, counted down here from what the server said. */
  function clockEl() {
    const left = G.msg.turn_left;
    if (left === null || left === undefined || G.msg.result) return null;
    if (G.clockFor !== G.msg.state) {
      G.clockFor = G.msg.state;
      G.clockEnds = G.msg.receivedAt + left * 1000;
    }
    const time = h("span", {});
    const el = h("span", { class: "turn-clock", role: "timer" }, h("span", { html: icon("clock") }), " ", time);
    const tick = () => {
      const s = Math.max(0, Math.ceil((G.clockEnds - performance.now()) / 1000));
      time.textContent = clockText(s);
      el.classList.toggle("low", s <= 10);
    };
    tick();
    clearInterval(G.clockTimer);
    G.clockTimer = setInterval(() => { if (el.isConnected) tick(); else clearInterval(G.clockTimer); }, 500);
    return el;
  }

  /** The rematch seats the same people under the same names: a name chosen (or kept) at this seat
   * is not asked for again at the rematch's seat. */
  function keepName(next) {
    if (seatNamed(token)) markSeatNamed(next);
  }

  function sendName(name) {
    if (G.ws && G.ws.readyState === WebSocket.OPEN) G.ws.send(JSON.stringify({ type: "name", name }));
  }

  /** A friend opening their invite says what the others should call them (asked once per link). */
  function nameAsk() {
    if (spectating || seatNamed(token) || G.msg.seat === null || G.msg.seat === undefined) return null;
    const current = G.welcome.table.seats[G.msg.seat].name;
    const input = h("input", { class: "name-input", maxlength: "24", value: current, placeholder: t("web.your_name"), "aria-label": t("web.your_name") });
    const done = (name) => {
      markSeatNamed(token);
      if (name && name !== current) sendName(name);
      draw();
    };
    return h("form", { class: "name-ask", onsubmit: (e) => { e.preventDefault(); done(input.value.trim()); } },
      h("label", {}, t("web.name_question"), " ", input),
      h("button", { type: "submit", class: "primary" }, t("web.name_ok")),
      h("button", { type: "button", class: "ghost", onclick: () => done("") }, t("web.name_skip")));
  }

  /** Rematch: the link to the next game once somebody made it, else (for a player) the button. */
  function rematchLink() {
    if (G.rematch) {
      const path = G.rematch.role === "spectator" ? "watch" : "play";
      return h("a", { class: "button rematch", href: `/${path}/${G.rematch.token}` }, t("web.join_rematch"));
    }
    if (spectating) return null;
    return h("button", {
      type: "button", class: "primary rematch",
      onclick: async (e) => {
        e.target.disabled = true;
        try {
          const r = await fetch("/api/rematch", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });
          const answer = await r.json();
          if (!r.ok) throw new Error(answer.detail || String(r.status));
          rememberToken(answer.token, "person");
          keepName(answer.token);
          location.href = `/play/${answer.token}`;
        } catch (err) {
          e.target.disabled = false;
          toast(`${t("web.rematch_failed")} ${err.message}`, "error");
        }
      },
    }, t("web.rematch"));
  }

  function settingsPanel() {
    return h("details", { class: "settings", open: !!G.settingsOpen, ontoggle: (e) => { G.settingsOpen = e.target.open; } },
      h("summary", {}, t("web.settings")),
      spectating ? null : h("form", { class: "setting rename", onsubmit: (e) => {
        e.preventDefault();
        const name = e.target.elements.name.value.trim();
        if (name) sendName(name);
      } },
        h("label", {}, t("web.your_name"), " ", h("input", { name: "name", maxlength: "24", value: G.welcome.table.seats[G.msg.seat] ? G.welcome.table.seats[G.msg.seat].name : "" })),
        h("button", { type: "submit", class: "ghost small-btn" }, t("web.name_ok"))),
      spectating || G.msg.result || (G.conceded || []).includes(G.msg.seat) ? null : h("p", { class: "setting" },
        h("button", { type: "button", class: "ghost small-btn leave", onclick: () => sendSeat("away") }, t("web.leave_seat")), " ",
        h("button", {
          type: "button", class: "ghost small-btn concede",
          onclick: () => { if (window.confirm(t("web.concede_question"))) sendSeat("concede"); },
        }, t("web.concede"))),
      h("label", { class: "setting" },
        h("input", { type: "checkbox", checked: confirmEveryMove(), onchange: (e) => setConfirmEveryMove(e.target.checked) }),
        " ", t("web.confirm_setting")),
      h("label", { class: "setting" },
        h("input", { type: "checkbox", name: "sound", checked: soundOn(), onchange: (e) => setSoundOn(e.target.checked) }),
        " ", t("web.sound_setting")),
      "Notification" in window ? h("label", { class: "setting" },
        h("input", {
          type: "checkbox", name: "notify", checked: notifyOn(),
          onchange: async (e) => {
            const box = e.target;
            const granted = await setNotifyOn(box.checked);
            if (box.checked && !granted) { box.checked = false; toast(t("web.notify_refused"), "error"); }
          },
        }),
        " ", t("web.notify_setting")) : null);
  }

  /** A line for a notification: who waits and for what (the round, the decision). */
  function promptLine(v) {
    return t("ui.round", { round: v.round, rounds: v.rounds });
  }

  /** For the host of a table among friends: the links of the seats nobody has joined yet. */
  function friendsPanel() {
    const waiting = G.waiting || [];
    const invites = (G.welcome.invites || []).filter((x) => waiting.includes(x.seat));
    if (!invites.length || G.msg.result) return null;
    return h("section", { class: "invite-friends", "aria-labelledby": "invite-friends-title" },
      h("h2", { id: "invite-friends-title" }, t("web.invite_friends")),
      h("p", {}, t("web.invite_friends_help")),
      invites.map((x) => h("div", { class: "invite", dataset: { seat: String(x.seat) } },
        h("span", {}, names(x.seat), " ", h("small", {}, t("web.not_joined"))),
        linkField(`${location.origin}/play/${x.token}`))));
  }

  function invitePanel() {
    return h("details", { class: "watch-link" },
      h("summary", {}, t("web.spectator_link")),
      linkField(`${location.origin}/watch/${G.welcome.spectator_token}`));
  }

  async function onMessage(msg) {
    if (msg.type === "welcome") {
      G.welcome = msg;
      if (!G.languageSet) {
        G.languageSet = true;
        await setLanguage(preferredLanguage(msg.lang));
      }
      draw();
    } else if (msg.type === "state") {
      msg.receivedAt = performance.now();
      const newest = G.inbox.length ? G.inbox[G.inbox.length - 1] : G.msg;
      if (newest && msg.state < newest.state) return;
      if (msg.log) {
        // A full resync (joining, reconnecting): shown at once, whatever was waiting is superseded.
        G.inbox = [];
        clearTimeout(G.pacer);
        G.pacer = 0;
        show(msg);
      } else {
        G.inbox.push(msg);
        pump();
      }
    } else if (msg.type === "rematch") {
      // Somebody asked for the next game: this page's own link to it.
      if (!G.rematch) toast(t("web.rematch_ready"));
      G.rematch = msg;
      rememberToken(msg.token, msg.role === "spectator" ? "spectator" : "person");
      if (msg.role !== "spectator") keepName(msg.token);
      if (G.msg) draw();
    } else if (msg.type === "chat_state") {
      G.chatState = { lines: msg.lines, muted: msg.muted, spectators: msg.spectators };
      if (G.chat) G.chat.setState(G.chatState);
    } else if (msg.type === "chat") {
      if (G.chatState) G.chatState.lines.push(msg.line);
      if (G.chat) G.chat.add(msg.line);
    } else if (msg.type === "clock") {
      // The time left changed without a move (somebody left or came back).
      const newest = G.inbox.length ? G.inbox[G.inbox.length - 1] : G.msg;
      if (newest && newest.state === msg.state) {
        newest.turn_left = msg.turn_left;
        newest.receivedAt = performance.now();
        G.clockFor = null;
        if (G.msg) draw();
      }
    } else if (msg.type === "seats") {
      // Somebody named their seat.
      G.welcome.table.seats = msg.seats;
      G.logView = null; // the log names players: say it again with the new name
      if (G.chat) G.chat.redraw();
      if (G.msg) draw();
    } else if (msg.type === "presence") {
      G.online = msg.online;
      G.away = msg.away || [];
      G.conceded = msg.conceded || [];
      G.waiting = msg.waiting || [];
      if (G.msg) draw();
    } else if (msg.type === "error") {
      G.busy = false;
      document.body.classList.remove("busy");
      if (msg.code === "bad_token") {
        G.dead = true;
        mount(frame("", h("main", { class: "notice" }, h("h2", {}, t("web.bad_link")), h("p", {}, h("a", { href: "/" }, t("web.to_lobby"))))));
        if (G.ws) G.ws.close();
        return;
      }
      toast(tr(`web.error.${msg.code}`, {}, undefined, msg.message), "error");
      if (G.msg) draw();
    }
  }

  /** Show one state: the board, the log and the animations of what changed. */
  function show(msg) {
    const prev = G.msg;
    const before = prev ? snapshotQueue(prev.view) : null;
    if (before) before.viewBefore = prev.view;
    if (msg.log) {
      G.log = msg.log;
      G.logView = null;
      G.past = [];
      G.viewing = null;
    } else G.log.push(msg.events);
    // The turn just came to this person (not when the page opens on it): a tone and a notification,
    // if they asked for them. Judged state by state: draws may merge several states.
    const mine = !spectating && (msg.legal || []).length > 0 && !msg.result;
    if (mine && G.wasMine === false) announceTurn(t("web.your_turn"), promptLine(msg.view));
    if (!msg.log && !G.wasMine) G.since.push(msg.events); // the others' steps since this person's last decision
    if (mine && G.wasMine === false) summarize();
    if (mine || msg.log) G.since = [];
    G.wasMine = mine;
    G.msg = msg;
    G.past.push(msg);
    if (G.past.length > PAST_KEPT) G.past.shift();
    G.shownAt = performance.now();
    moves.reset();
    G.busy = false;
    document.body.classList.remove("busy");
    scheduleDraw(msg.log ? null : before, msg.log ? [] : msg.events);
  }

  /**
   * The states others' moves bring are shown one at a time, each for at least the chosen speed's
   * time, and not at all while the person has paused; the person's own decision is never delayed.
   */
  function pump() {
    // While paused, only the answer to the person's own move is shown (it is what they wait for).
    if (G.pacer || !G.inbox.length || (G.paused && !G.busy)) {
      if (G.msg) draw(); // the count of waiting steps
      return;
    }
    const wait = G.msg ? G.shownAt + holdMs() - performance.now() : 0;
    if (wait > 0) {
      G.pacer = setTimeout(() => { G.pacer = 0; pump(); }, wait);
      return;
    }
    show(G.inbox.shift());
    if (G.inbox.length) pump();
  }

  function setPaused(paused) {
    G.paused = paused;
    if (!paused) pump();
    else draw();
  }

  /** Step through the states this page was shown (``null``: follow the game live). */
  function viewPast(index) {
    G.viewing = index === null || index >= G.past.length - 1 ? null : Math.max(0, index);
    draw();
  }

  function connect() {
    if (G.dead) return;
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    G.ws = ws;
    ws.onopen = () => {
      G.connected = true;
      G.retry = 0;
      ws.send(JSON.stringify({ type: "join", token }));
      clearInterval(G.pingTimer);
      G.pingTimer = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      // One message after the other: the welcome waits for its language's catalog, and a state
      // drawn meanwhile would be drawn in the wrong language.
      G.handling = G.handling.then(() => onMessage(msg)).catch(() => {});
    };
    ws.onclose = () => {
      clearInterval(G.pingTimer);
      if (G.ws !== ws) return;
      G.connected = false;
      G.busy = false;
      document.body.classList.remove("busy");
      if (G.dead) return;
      if (G.msg) draw();
      const delay = Math.min(5000, 400 * 2 ** G.retry++);
      setTimeout(connect, delay);
    };
  }

  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.altKey || e.ctrlKey || e.metaKey) return;
    if (!G.msg || spectating) return;
    const L = parseLegal(offeredMoves(G.msg, token));
    const key = e.key.toLowerCase();
    if (key === "k" && L.keep) act(L.keep);
    else if (key === "r" && L.reveal) act(L.reveal);
    else if (e.key === "Escape" && moves.pending) moves.cancel();
    else if (e.key === "Escape" && G.selected) select(null);
  });

  setRerender(() => draw());
  rememberToken(token, spectating ? "spectator" : "person");
  draw();
  connect();
  window.__oriflamme = G; // for people debugging their own page
  window.__rerender = () => draw();
}

//: How long each state brought by others' moves stays before the next is shown, in ms (the server
//: already spaces bot moves; these add to it for people who want to follow closely).
const SPEEDS = { normal: 0, slow: 1500, slower: 3000 };
const SPEED_KEY = "oriflamme.speed";
const PAST_KEPT = 600;

function currentSpeed() {
  try {
    const stored = localStorage.getItem(SPEED_KEY);
    if (stored in SPEEDS) return stored;
  } catch { /* default */ }
  return "normal";
}

function setSpeed(speed) {
  try { localStorage.setItem(SPEED_KEY, speed); } catch { /* not remembered */ }
}

function holdMs() {
  return SPEEDS[currentSpeed()];
}

/** Seconds left on a turn clock: "4:05", "5:04:05" past an hour, "2 d 05:04" past a day. */
function clockText(s) {
  const two = (n) => String(n).padStart(2, "0");
  if (s >= 86400) return `${Math.floor(s / 86400)} ${t("web.days_short")} ${two(Math.floor((s % 86400) / 3600))}:${two(Math.floor((s % 3600) / 60))}`;
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}
