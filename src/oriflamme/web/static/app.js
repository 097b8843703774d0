// Oriflamme in the browser: the lobby, the table (play or watch), the replay viewer, the players'
// profiles and the ladders.
// Plain modules, no build step. Every fact shown comes from the server's messages for this seat;
// the page offers only the legal actions the server listed.

import { preferredLanguage, setLanguage } from "./i18n.js";
import { addGlyphs } from "./art.js";
import { setCharacters } from "./cards.js";
import { tablePage } from "./table.js";
import { replayPage } from "./replay.js";
import { lobbyPage } from "./lobby.js";
import { loadAccount } from "./account.js";
import { profilePage } from "./profile.js";
import { ladderPage } from "./ladders.js";

async function start() {
  const parts = location.pathname.split("/").filter(Boolean);
  await setLanguage(preferredLanguage(null));
  await Promise.all([learnCards(), loadAccount()]);
  if (parts[0] === "play" && parts[1]) tablePage(parts[1], false);
  else if (parts[0] === "watch" && parts[1]) tablePage(parts[1], true);
  else if (parts[0] === "replay" && parts[1]) await replayPage(parts[1]);
  else if (parts[0] === "players" && parts[1]) await profilePage(decoded(parts[1]));
  else if (parts[0] === "ladders" && parts[1]) await ladderPage(parts[1]);
  else await lobbyPage();
}

/** A path segment as typed ("%41nn" is "Ann"); one that is not valid percent-encoding, as it is. */
function decoded(segment) {
  try { return decodeURIComponent(segment); } catch { return segment; }
}

/** The kinds the server has loaded (designers' cards among them): which are characters, their emblems. */
async function learnCards() {
  try {
    const meta = await (await fetch("/api/meta")).json();
    setCharacters(new Set(meta.cards.filter((c) => c.character).map((c) => c.slug).concat(["twin"])));
    addGlyphs(meta.cards);
  } catch {
    // The built-in kinds are known without it; a designer's card then shows a plain lozenge.
  }
}

start();
