// The legal actions of a decision, read from their text form (the server lists them).



export function parseLegal(texts) {
  const L = {
    place: new Map(), target: new Map(), to: new Map(), steal: new Map(), copy: new Map(), fetch: new Map(),
    use: new Map(), swap: new Map(), modes: [], keep: null, reveal: null, gain: null, any: texts.length > 0,
  };
  for (const text of texts) {
    const w = text.split(" ");
    switch (w[0]) {
      case "place": {
        const list = L.place.get(w[1]) || [];
        list.push({ where: w[2], pos: w[2] === "on" ? Number(w[3]) - 1 : null, text });
        L.place.set(w[1], list);
        break;
      }
      case "keep": L.keep = text; break;
      case "reveal": L.reveal = text; break;
      case "gain": L.gain = text; break;
      case "target": L.target.set(Number(w[1]) - 1, text); break;
      case "to": L.to.set(Number(w[1]) - 1, text); break;
      case "steal": L.steal.set(Number(w[1].slice(1)) - 1, text); break;
      case "copy": L.copy.set(w[1], text); break;
      case "fetch": L.fetch.set(w[1], text); break;
      case "use": L.use.set(Number(w[1]) - 1, text); break;
      case "swap": L.swap.set(w[1], text); break;
      default: L.modes.push(text);
    }
  }
  return L;
}
