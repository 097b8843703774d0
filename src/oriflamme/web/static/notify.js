// Telling a person it is their turn when they are looking elsewhere: a short tone and a system
// notification, each a setting (both off until the person turns them on), besides the tab title.

const SOUND_KEY = "oriflamme.sound";
const NOTIFY_KEY = "oriflamme.notify";

function stored(key) {
  try { return localStorage.getItem(key) === "1"; } catch { return false; }
}

function store(key, on) {
  try { localStorage.setItem(key, on ? "1" : "0"); } catch { /* not remembered */ }
}

export const soundOn = () => stored(SOUND_KEY);
export const notifyOn = () => stored(NOTIFY_KEY) && "Notification" in window;

export function setSoundOn(on) {
  store(SOUND_KEY, on);
  if (on) tone(); // the person hears what they chose (and the browser lets a page play sound after a click)
}

/** Turning notifications on asks the browser's permission; refused, the setting stays off. */
export async function setNotifyOn(on) {
  if (!on || !("Notification" in window)) { store(NOTIFY_KEY, false); return false; }
  const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  store(NOTIFY_KEY, answer === "granted");
  return answer === "granted";
}

let audio = null;

function tone() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    const gain = audio.createGain();
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.45);
    gain.connect(audio.destination);
    for (const [freq, at] of [[660, 0], [880, 0.12]]) {
      const osc = audio.createOscillator();
      osc.type = "sine";
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(now + at);
      osc.stop(now + at + 0.3);
    }
  } catch {
    // no audio on this device
  }
}

/** The game now waits for this person: sound and notify, as they asked. */
export function announceTurn(title, body) {
  if (soundOn()) tone();
  if (notifyOn() && document.hidden && Notification.permission === "granted") {
    try {
      const n = new Notification(title, { body, tag: "oriflamme-turn" });
      n.onclick = () => { window.focus(); n.close(); };
    } catch {
      // some browsers allow notifications only from a service worker
    }
  }
}
