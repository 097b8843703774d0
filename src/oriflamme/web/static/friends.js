// An account's friends, the players it blocks, and the seats offered to it by name.
//
// The lobby redraws often (lists answering, every 15 s): the panels are drawn once per account and
// language and kept, their lists filled in place when the server answers, so that a name being
// typed keeps its text, its focus and its caret.

import { currentAccount, post } from "./account.js";
import { currentLanguage, t } from "./i18n.js";
import { h, rememberToken, seatName, toast, tr } from "./page.js";

let drawn = null;
let lists = { friends: [], blocks: [], invites: [] };

/** The invitations panel (hidden while there are none) and the friends panel, for a logged-in account. */
export function socialPanels() {
  const account = currentAccount();
  if (!account) {
    drawn = null;
    lists = { friends: [], blocks: [], invites: [] };
    return [null, null];
  }
  const key = `${account.name}\u0000${currentLanguage()}`;
  if (!drawn || drawn.key !== key) {
    drawn = build(key);
    fill();
  }
  return [drawn.invites, drawn.friends];
}

/** Read the friends, blocks and invitations again (the lobby's refresh), and fill the panels. */
export async function refreshSocial() {
  if (!currentAccount()) return;
  const read = async (path, field) => {
    try {
      const r = await fetch(path, { cache: "no-store" });
      return r.ok ? (await r.json())[field] : lists[field];
    } catch {
      return lists[field];
    }
  };
  const [friends, blocks, invites] = await Promise.all([
    read("/api/account/friends", "friends"), read("/api/account/blocks", "blocks"), read("/api/account/invites", "invites"),
  ]);
  lists = { friends, blocks, invites };
  fill();
}

function build(key) {
  const name = h("input", { name: "friend-name", maxlength: "24", autocomplete: "off", placeholder: t("web.friend_name"), "aria-label": t("web.friend_name") });
  const act = (path, field, after) => async (who) => {
    try {
      lists[field] = (await post(path, { name: who }))[field];
      if (after) await after();
      fill();
    } catch (err) { toast(err.message, "error"); }
  };
  const add = act("/api/account/friends/add", "friends");
  const remove = act("/api/account/friends/remove", "friends");
  // Blocking takes the player off the friends list too, and their invitations away.
  const block = act("/api/account/blocks/add", "blocks", refreshSocial);
  const unblock = act("/api/account/blocks/remove", "blocks");
  const parts = {
    key,
    friendsList: h("ul", { class: "friend-list" }),
    blocksList: h("ul", { class: "block-list" }),
    blocksCount: h("span", {}),
    invitesList: h("ul", { class: "table-list invite-list" }),
    remove, block, unblock,
  };
  parts.friends = h("section", { class: "panel friends" },
    h("h2", {}, t("web.friends")),
    h("p", { class: "muted" }, t("web.friends_help")),
    h("form", {
      class: "form-row add-friend",
      onsubmit: async (e) => {
        e.preventDefault();
        if (!name.value.trim()) return;
        await add(name.value.trim());
        name.value = "";
      },
    }, name,
      h("button", { type: "submit" }, t("web.add_friend")),
      h("button", { type: "button", class: "ghost block-name", onclick: async () => { if (name.value.trim()) { await block(name.value.trim()); name.value = ""; } } }, t("web.block"))),
    parts.friendsList,
    h("details", { class: "blocked" },
      h("summary", {}, parts.blocksCount),
      h("p", { class: "muted" }, t("web.block_help")),
      parts.blocksList));
  parts.invites = h("section", { class: "panel invitations" },
    h("h2", {}, t("web.invitations")),
    parts.invitesList);
  return parts;
}

function fill() {
  if (!drawn) return;
  const d = drawn;
  d.friendsList.replaceChildren(...(lists.friends.length
    ? lists.friends.map((f) => h("li", { class: "friend", dataset: { name: f.name } },
      f.online === null ? null : h("span", { class: `dot ${f.online ? "on" : "off"}`, title: t(f.online ? "web.online" : "web.offline") }),
      " ", h("span", { class: "friend-name" }, f.name), " ",
      h("button", { type: "button", class: "ghost small-btn remove-friend", onclick: () => d.remove(f.name) }, t("web.remove_friend")),
      h("button", { type: "button", class: "ghost small-btn block-friend", onclick: () => d.block(f.name) }, t("web.block"))))
    : [h("li", { class: "muted" }, t("web.no_friends"))]));
  d.blocksCount.textContent = t("web.blocked_players", {}, lists.blocks.length);
  d.blocksList.replaceChildren(...lists.blocks.map((name) => h("li", {}, name, " ",
    h("button", { type: "button", class: "ghost small-btn unblock", onclick: () => d.unblock(name) }, t("web.unblock")))));
  d.invitesList.replaceChildren(...lists.invites.map(invitationCard));
  d.invites.hidden = !lists.invites.length;
}

function invitationCard(x) {
  const which = { table: x.table, seat: x.seat };
  const take = async () => {
    try {
      const answer = await post("/api/account/invites/take", which);
      rememberToken(answer.token, "person");
      location.href = `/play/${answer.token}`;
    } catch (err) { toast(err.message, "error"); refreshSocial(); }
  };
  const decline = async () => {
    try { await post("/api/account/invites/decline", which); } catch (err) { toast(err.message, "error"); }
    await refreshSocial();
  };
  return h("li", { class: "table-card invitation", dataset: { table: x.table } },
    h("div", { class: "tc-head" },
      h("strong", {}, tr(`web.deck.${x.deck}`, {}, undefined, x.deck), " · ", t("web.players_n", {}, x.players)),
      h("span", { class: "tc-status" }, t("web.invited_by", { name: x.by }))),
    h("ul", { class: "tc-seats" }, x.seats.map((s, i) => h("li", {}, seatName(s, i), i === x.seat ? h("small", {}, " ", t("web.your_seat")) : null))),
    h("div", { class: "tc-actions" },
      h("button", { type: "button", class: "button primary take-invite", onclick: take }, t("web.take_invite")),
      h("button", { type: "button", class: "ghost decline-invite", onclick: decline }, t("web.decline_invite"))));
}
