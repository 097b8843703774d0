// An optional account: logging in and out, its settings, and the links it keeps ("My games" on
// every device). Without one, the page works as before: this browser remembers its links.
//
// Every POST carries the CSRF token the server set in a cookie (double submit): another site's
// page can make the browser send the cookies, but cannot read them to send the header.

import { currentLanguage, t } from "./i18n.js";
import { h, rememberedTokens, setTokenListener, toast } from "./page.js";

let account = null;

/** The account logged in here (null: none), read once per page from the server. */
export async function loadAccount() {
  try {
    const r = await fetch("/api/account", { cache: "no-store" });
    account = r.ok ? (await r.json()).account : null;
  } catch {
    account = null;
  }
  // A link this browser learns (a table made, a seat taken) is kept with the account too.
  setTokenListener((token) => { if (account) keepLinks([token]); });
  return account;
}

export function currentAccount() {
  return account;
}

function csrfToken() {
  // Over HTTPS the server names it with the __Host- prefix (a cookie no other site can plant).
  const name = location.protocol === "https:" ? "__Host-oriflamme_csrf=" : "oriflamme_csrf=";
  const found = document.cookie.split("; ").find((c) => c.startsWith(name));
  return found ? decodeURIComponent(found.slice(name.length)) : "";
}

export async function post(path, body) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrf-token": csrfToken() },
    body: JSON.stringify(body || {}),
  });
  const answer = r.status === 204 ? {} : await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(typeof answer.detail === "string" ? answer.detail : t("web.account_failed"));
  return answer;
}

/** Keep links with the account (a guest's seats claimed into it). */
export async function keepLinks(tokens) {
  if (!account || !tokens.length) return;
  try { await post("/api/account/links", { tokens: tokens.slice(0, 200) }); } catch { /* kept here still */ }
}

export async function forgetLinks(tokens) {
  if (!account || !tokens.length) return;
  try { await post("/api/account/links/forget", { tokens }); } catch { /* forgotten here anyway */ }
}

/** The links the account keeps, as this browser's list holds them ({token, role}). */
export async function accountLinks() {
  if (!account) return [];
  try {
    const r = await fetch("/api/account/links", { cache: "no-store" });
    return r.ok ? (await r.json()).links : [];
  } catch {
    return [];
  }
}

//: The panel last drawn, and what it was drawn for: the lobby redraws often (tables, ladders and
//: live games answer, every 15 s), and a panel drawn afresh would drop what its reader was typing.
let drawn = null;
let drawnFor = "";

/** The lobby's account panel; ``changed`` redraws the lobby after logging in or out. */
export function accountPanel(changed) {
  const key = `${account ? account.name : ""}\u0000${currentLanguage()}`;
  if (drawn && drawnFor === key) return drawn;
  drawnFor = key;
  drawn = h("section", { class: "panel account" },
    h("h2", {}, t("web.account")),
    account ? loggedIn(changed) : loggedOut(changed));
  return drawn;
}

function loggedOut(changed) {
  const name = h("input", { name: "account-name", autocomplete: "username", maxlength: "24", required: true });
  const password = h("input", { name: "account-password", type: "password", autocomplete: "current-password", minlength: "8", required: true });
  const go = (path) => async (e) => {
    e.preventDefault();
    try {
      account = (await post(path, { name: name.value, password: password.value })).account;
      // The links this browser holds join the account: they show wherever its owner logs in.
      await keepLinks(rememberedTokens().map((x) => x.token));
      changed();
    } catch (err) {
      toast(err.message, "error");
    }
  };
  return h("form", { class: "account-form", onsubmit: go("/api/account/login") },
    h("p", { class: "muted" }, t("web.account_help")),
    h("label", {}, t("web.account_name"), " ", name),
    h("label", {}, t("web.password"), " ", password),
    h("div", { class: "form-row" },
      h("button", { type: "submit", class: "log-in" }, t("web.log_in")),
      h("button", { type: "button", class: "register", onclick: go("/api/account/register") }, t("web.register"))),
    passkeysWork() ? h("div", { class: "form-row" },
      h("button", { type: "button", class: "ghost passkey-log-in", onclick: () => logInWithPasskey(changed) }, t("web.passkey_log_in"))) : null);
}

// ---------------------------------------------------------------- passkeys
// The browser turns the server's JSON options into its own and its answer back into JSON
// (parse*OptionsFromJSON, toJSON): no base64 is written here.

/** Whether this browser can use passkeys with JSON options (a secure page, a recent browser). */
function passkeysWork() {
  const pk = window.PublicKeyCredential;
  return Boolean(pk && pk.parseCreationOptionsFromJSON && pk.parseRequestOptionsFromJSON && window.isSecureContext);
}

/** What to say when a passkey ceremony fails: the browser's refusals (cancelled, timed out) in our words. */
function passkeyTrouble(err) {
  return err instanceof DOMException ? t("web.passkey_cancelled") : err.message;
}

async function logInWithPasskey(changed) {
  try {
    const begun = await post("/api/passkey/login/begin");
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(begun.options);
    const credential = await navigator.credentials.get({ publicKey });
    account = (await post("/api/passkey/login/finish", { ceremony: begun.ceremony, credential: credential.toJSON() })).account;
    await keepLinks(rememberedTokens().map((x) => x.token));
    changed();
  } catch (err) {
    toast(passkeyTrouble(err), "error");
  }
}

function shownDate(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(currentLanguage());
}

/** The account's passkeys, drawn into ``box`` (in place: the panel around it is kept across redraws). */
async function drawPasskeys(box) {
  let held = [];
  try {
    const r = await fetch("/api/account/passkeys", { cache: "no-store" });
    held = r.ok ? (await r.json()).passkeys : [];
  } catch { /* drawn empty */ }
  box.replaceChildren(held.length
    ? h("ul", { class: "passkey-list" }, held.map((p) => passkeyRow(p, box)))
    : h("p", { class: "muted passkeys-none" }, t("web.passkeys_none")));
}

function passkeyRow(passkey, box) {
  const label = h("input", { name: "passkey-label", maxlength: "60", value: passkey.label, placeholder: t("web.passkey_unnamed"), "aria-label": t("web.passkey_label") });
  const when = [t("web.passkey_added_on", { date: shownDate(passkey.created) }),
    passkey.last_used ? t("web.passkey_used_on", { date: shownDate(passkey.last_used) }) : t("web.passkey_never_used")];
  const act = (path, body, done) => async () => {
    try {
      await post(path, body());
      toast(t(done));
      await drawPasskeys(box);
    } catch (err) { toast(err.message, "error"); }
  };
  return h("li", { class: "passkey" },
    h("form", { class: "form-row", onsubmit: (e) => { e.preventDefault(); act("/api/account/passkeys/rename", () => ({ id: passkey.id, label: label.value }), "web.passkey_renamed")(); } },
      label,
      h("button", { type: "submit", class: "ghost rename-passkey" }, t("web.passkey_rename")),
      h("button", { type: "button", class: "ghost remove-passkey", onclick: act("/api/account/passkeys/remove", () => ({ id: passkey.id }), "web.passkey_removed") }, t("web.passkey_remove"))),
    h("span", { class: "muted" }, when.join(" · ")));
}

function passkeysSection() {
  const box = h("div", { class: "passkeys-held" });
  const label = h("input", { name: "new-passkey-label", maxlength: "60", placeholder: t("web.passkey_unnamed") });
  // Asked again: a session left open somewhere must not be enough to add a way in.
  const password = h("input", { type: "password", name: "new-passkey-password", autocomplete: "current-password", required: true });
  const add = async (e) => {
    e.preventDefault();
    try {
      const begun = await post("/api/account/passkeys/begin", { password: password.value });
      password.value = "";
      const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(begun.options);
      const credential = await navigator.credentials.create({ publicKey });
      await post("/api/account/passkeys/finish", { ceremony: begun.ceremony, credential: credential.toJSON(), label: label.value });
      label.value = "";
      toast(t("web.passkey_added"));
      await drawPasskeys(box);
    } catch (err) { toast(passkeyTrouble(err), "error"); }
  };
  drawPasskeys(box);
  return h("section", { class: "passkeys" },
    h("h3", {}, t("web.passkeys")),
    h("p", { class: "muted" }, t("web.passkeys_help")),
    box,
    passkeysWork() ? h("form", { class: "new-passkey", onsubmit: add },
      h("label", {}, t("web.passkey_label"), " ", label),
      h("label", {}, t("web.password"), " ", password),
      h("button", { type: "submit", class: "add-passkey" }, t("web.passkey_add"))) : null);
}

function loggedIn(changed) {
  const logOut = async () => {
    try { await post("/api/account/logout"); } catch { /* the session ends anyway */ }
    account = null;
    changed();
  };
  const current = h("input", { type: "password", name: "current-password", autocomplete: "current-password", required: true });
  const fresh = h("input", { type: "password", name: "new-password", autocomplete: "new-password", minlength: "8", required: true });
  const confirm = h("input", { type: "password", name: "delete-password", autocomplete: "current-password", required: true });
  const email = h("input", { type: "email", name: "email", autocomplete: "email", maxlength: "254", value: account.email || "" });
  return h("div", { class: "account-in" },
    h("p", {}, t("web.logged_in_as", { name: account.name }), " ",
      h("button", { type: "button", class: "ghost log-out", onclick: logOut }, t("web.log_out"))),
    h("details", { class: "account-settings" },
      h("summary", {}, t("web.account_settings")),
      h("form", {
        class: "change-password",
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            await post("/api/account/password", { current: current.value, new: fresh.value });
            toast(t("web.password_changed"));
            current.value = fresh.value = "";
          } catch (err) { toast(err.message, "error"); }
        },
      },
        h("label", {}, t("web.current_password"), " ", current),
        h("label", {}, t("web.new_password"), " ", fresh),
        h("button", { type: "submit" }, t("web.change_password"))),
      h("form", {
        class: "account-email",
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            const answer = await post("/api/account/email", { email: email.value });
            account = { ...account, email: answer.email, mail: answer.mail };
            toast(t(answer.mail ? "web.mail_on" : "web.mail_off"));
          } catch (err) { toast(err.message, "error"); }
        },
      },
        h("p", { class: "muted" }, t("web.mail_help")),
        h("label", {}, t("web.email"), " ", email),
        h("button", { type: "submit" }, t("web.save_email"))),
      passkeysSection(),
      h("p", {}, h("a", { href: "/api/account/export", download: "oriflamme-account.json" }, t("web.export_data"))),
      h("form", {
        class: "delete-account",
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            await post("/api/account/delete", { password: confirm.value });
            account = null;
            toast(t("web.account_deleted"));
            changed();
          } catch (err) { toast(err.message, "error"); }
        },
      },
        h("p", { class: "muted" }, t("web.delete_account_help")),
        h("label", {}, t("web.password"), " ", confirm),
        h("button", { type: "submit", class: "danger" }, t("web.delete_account")))));
}
