// Oriflamme in the browser: the lobby, the table (play or watch) and the replay viewer.
// Plain modules, no build step. Every fact shown comes from the server's messages for this seat;
// the page offers only the legal actions the server listed.

import { preferredLanguage, setLanguage } from "./i18n.js";
import { tablePage } from "./table.js";
import { replayPage } from "./replay.js";
import { lobbyPage } from "./lobby.js";

async function start() {
  const parts = location.pathname.split("/").filter(Boolean);
  await setLanguage(preferredLanguage(null));
  if (parts[0] === "play" && parts[1]) tablePage(parts[1], false);
  else if (parts[0] === "watch" && parts[1]) tablePage(parts[1], true);
  else if (parts[0] === "replay" && parts[1]) await replayPage(parts[1]);
  else await lobbyPage();
}

start();
