// The table's chat panel: one element kept between draws (so a line being typed survives them),
// updated as lines and the host's decisions arrive.

import { t } from "./i18n.js";
import { h } from "./page.js";
import { swatch } from "./cards.js";
import { icon } from "./art.js";

const MAX_CHAT = 300;

/**
 * ``send(message)`` sends a client message; ``names(seat)`` names players; ``seat`` is this page's
 * seat (null: a spectator); the person at seat 1 is the host.
 */
export function chatPanel({ send, names, seat }) {
  const host = seat === 0;
  let state = { lines: [], muted: [], spectators: false };
  const list = h("ol", { class: "chat-lines", "aria-live": "off" });
  const input = h("input", {
    class: "chat-input", maxlength: String(MAX_CHAT), "aria-label": t("web.chat_say"),
    placeholder: t("web.chat_say"), dataset: { fk: "chat-input" }, autocomplete: "off",
  });
  const note = h("p", { class: "muted chat-note" });
  const form = h("form", {
    class: "chat-form",
    onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      send({ type: "chat", text });
      input.value = "";
    },
  }, input, h("button", { type: "submit", class: "ghost small-btn" }, t("web.chat_send")));
  const spectatorsBox = host ? h("label", { class: "setting chat-spectators" },
    h("input", { type: "checkbox", onchange: (e) => send({ type: "chat_mod", spectators: e.target.checked }) }),
    " ", t("web.chat_spectators")) : null;
  const el = h("details", { class: "chat", open: true },
    h("summary", {}, t("web.chat")), list, note, form, spectatorsBox);

  function lineEl(line) {
    const who = line.seat === null || line.seat === undefined ? t("web.spectator") : names(line.seat);
    const silence = host && line.seat !== null && line.seat !== undefined && line.seat !== 0
      ? h("button", {
        type: "button", class: "ghost small-btn silence", title: t("web.chat_silence"), "aria-label": `${t("web.chat_silence")}: ${who}`,
        onclick: () => send({ type: "chat_mod", seat: line.seat, mute: true, remove: true }), html: icon("mute"),
      }) : null;
    return h("li", { dataset: { seat: line.seat === null ? "" : String(line.seat) } },
      line.seat === null || line.seat === undefined ? null : swatch(line.seat), " ",
      h("b", {}, who), ": ", h("span", { class: "chat-text" }, line.text), silence);
  }

  function refresh() {
    const closed = seat === null ? !state.spectators : state.muted.includes(seat);
    input.disabled = closed;
    note.textContent = closed ? t(seat === null ? "web.chat_closed" : "web.chat_muted") : "";
    if (spectatorsBox) spectatorsBox.querySelector("input").checked = state.spectators;
    const muted = host ? state.muted.map((s) => h("button", {
      type: "button", class: "ghost small-btn unmute", onclick: () => send({ type: "chat_mod", seat: s, mute: false }),
    }, t("web.chat_unmute", { player: names(s) }))) : [];
    note.append(...muted);
  }

  return {
    el,
    setState(next) {
      state = next;
      list.replaceChildren(...state.lines.map(lineEl));
      refresh();
      list.scrollTop = list.scrollHeight;
    },
    add(line) {
      state.lines.push(line);
      list.append(lineEl(line));
      list.scrollTop = list.scrollHeight;
    },
    /** Names changed (a rename, or the language): say every line again. */
    redraw() { this.setState(state); },
  };
}
