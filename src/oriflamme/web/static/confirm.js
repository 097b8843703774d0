// A second click before a move is sent: always for a move against one's own card, and for every
// move when the person asks for it (the default on touch screens, where a tap is easily misplaced).

const KEY = "oriflamme.confirm";

/** Whether every move waits for a confirmation: the person's setting, else on for touch screens. */
export function confirmEveryMove() {
  try {
    const stored = localStorage.getItem(KEY);
    if (stored === "1" || stored === "0") return stored === "1";
  } catch {
    // storage refused (private mode): fall back to the default
  }
  return window.matchMedia("(pointer: coarse)").matches;
}

export function setConfirmEveryMove(on) {
  try { localStorage.setItem(KEY, on ? "1" : "0"); } catch { /* not remembered */ }
}

/**
 * Wraps ``send(text)``: ``act(text, {own})`` sends at once, or first asks (``pending`` is then the
 * move, and ``redraw()`` shows the question); the same move again confirms it, ``cancel()`` drops it.
 */
export function chooser(send, redraw) {
  let pending = null;
  return {
    get pending() { return pending; },
    act(text, opts = {}) {
      if (pending && pending.text === text) {
        pending = null;
        send(text);
      } else if (opts.own || confirmEveryMove()) {
        pending = { text, own: !!opts.own };
        redraw();
      } else {
        pending = null;
        send(text);
      }
    },
    cancel() {
      pending = null;
      redraw();
    },
    /** A new state arrived: a question about the old one is void. */
    reset() { pending = null; },
  };
}
