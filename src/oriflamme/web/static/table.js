// The table page: play a seat or watch, over the table's WebSocket.

import { currentLanguage, preferredLanguage, setLanguage, t } from "./i18n.js";
import { frame, h, mount, rememberToken, seatName, setRerender, toast, tr } from "./page.js";
import { parseLegal } from "./legal.js";
import { board } from "./board.js";
import { logLines, logPanel, resultPanel, scrollLog, scrollQueue } from "./log.js";
import { animateChange, floatScores, snapshotQueue } from "./animate.js";
import { focusQuietly } from "./cards.js";
import { chooser, confirmEveryMove, setConfirmEveryMove } from "./confirm.js";
import { galleryButton } from "./gallery.js";
import { announceTurn, notifyOn, setNotifyOn, setSoundOn, soundOn } from "./notify.js";

export function tablePage(token, spectating) {
  const G = {
    token, spectating, ws: null, welcome: null, msg: null, log: [], online: null, selected: null,
    connected: false, retry: 0, busy: false, dead: false, pingTimer: 0, languageSet: false,
    logView: null, pendingDraw: null,
  };
  const names = (s) => (G.welcome && G.welcome.table.seats[s] ? seatName(G.welcome.table.seats[s], s) : `p${s + 1}`);

  function send(text) {
    // A click on a page whose newest state is not drawn yet would act on what the person did not see.
    if (!G.msg || G.busy || G.pendingDraw || !G.ws || G.ws.readyState !== WebSocket.OPEN) return;
    G.busy = true;
    document.body.classList.add("busy");
    G.ws.send(JSON.stringify({ type: "act", state: G.msg.state, action: text }));
  }

  const moves = chooser(send, () => {
    G.focusHint = moves.pending ? ".prompt .act.confirm" : null;
    draw();
  });
  const act = (text, opts) => moves.act(text, opts);

  function select(slug) {
    G.selected = slug;
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
    const v = G.msg.view;
    const seat = G.msg.seat;
    const legal = parseLegal(G.msg.legal || []);
    document.body.dataset.state = String(G.msg.state);
    if (G.selected && !legal.place.has(G.selected)) G.selected = null;
    if (!G.selected && v.decision === "twin" && legal.place.has("twin")) G.selected = "twin";
    const ctx = {
      view: v, seat, names, legal, act, select, selected: G.selected, online: G.online,
      seats: G.welcome.table.seats, rules: G.welcome.table.rules, interactive: !spectating && !G.busy,
      reveal: G.msg.reveal || null, pending: moves.pending, cancel: () => moves.cancel(),
    };
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.fk : null;
    const oldQueue = document.querySelector(".queue");
    const queueLeft = oldQueue ? oldQueue.scrollLeft : null;
    const title = spectating ? t("web.spectating") : names(seat);
    // The tab says when the game waits for this person, so a tab in the background still tells.
    const waiting = !spectating && legal.any && !G.msg.result;
    document.title = waiting ? `● ${t("web.your_turn")} · Oriflamme` : "Oriflamme";
    // The turn just came to this person (not when the page opens on it): a tone and a notification,
    // if they asked for them.
    if (waiting && G.wasWaiting === false) announceTurn(t("web.your_turn"), promptLine(v));
    G.wasWaiting = waiting;
    const banner = G.connected ? null : h("div", { class: "banner-offline", role: "alert" }, t("web.reconnecting"));
    const end = G.msg.result ? resultPanel(G.msg.result, names, h("p", { class: "end-links" },
      h("a", { class: "button", href: `/replay/${token}` }, t("web.replay_game")), " ",
      h("a", { class: "button ghost", href: `/api/save/${token}`, download: "" }, t("web.download_save")), " ",
      h("a", { class: "button ghost", href: "/" }, t("web.to_lobby"))), G.msg.reveal) : null;
    mount(frame(title,
      banner,
      h("main", { class: "table-page" },
        h("div", { class: "main-col" }, board(ctx), end),
        h("div", { class: "side-col" },
          spectating ? null : invitePanel(),
          h("div", { class: "table-tools" }, galleryButton(v.recipe, G.welcome.table.rules, spectating ? null : seat)),
          spectating ? null : settingsPanel(),
          logPanel(null, names, null, logList())))));
    scrollLog();
    scrollQueue(queueLeft);
    // The game just ended: bring the result into view (it sits below the board, often below the fold).
    if (G.msg.result && !G.resultShown) {
      G.resultShown = true;
      const panel = document.querySelector(".result");
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      if (panel) panel.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
    }
    if (before) {
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

  function settingsPanel() {
    return h("details", { class: "settings", open: !!G.settingsOpen, ontoggle: (e) => { G.settingsOpen = e.target.open; } },
      h("summary", {}, t("web.settings")),
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
      if (G.msg && msg.state < G.msg.state) return;
      const prev = G.msg;
      const before = prev ? snapshotQueue(prev.view) : null;
      if (before) before.viewBefore = prev.view;
      if (msg.log) {
        G.log = msg.log;
        G.logView = null;
      } else G.log.push(msg.events);
      G.msg = msg;
      moves.reset();
      G.busy = false;
      document.body.classList.remove("busy");
      scheduleDraw(msg.log ? null : before, msg.log ? [] : msg.events);
    } else if (msg.type === "presence") {
      G.online = msg.online;
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
      onMessage(msg);
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
    const L = parseLegal(G.msg.legal || []);
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

export function linkField(url) {
  const input = h("input", { class: "link", readonly: true, value: url, "aria-label": url, onfocus: (e) => e.target.select() });
  const copy = h("button", {
    type: "button", class: "ghost small-btn",
    onclick: async (e) => {
      e.stopPropagation();
      try { await navigator.clipboard.writeText(url); toast(t("web.copied")); } catch { input.select(); }
    },
  }, t("web.copy"));
  return h("div", { class: "link-field" }, input, copy);
}
