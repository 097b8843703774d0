// Card art: one small emblem per kind, drawn as SVG in a 48x48 box, coloured by the card's family.
// Strokes use currentColor so CSS decides the ink; fills use the family colour variables.

const S = 'fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"';
const F = 'fill="currentColor"';

const GLYPHS = {
  archer: `<path ${S} d="M14 6c16 6 16 30 0 36"/><path ${S} d="M14 6v36"/><path ${S} d="M10 24h30"/><path ${F} d="M40 24l-7-4v8z"/><path ${S} d="M10 24l-3-3M10 24l-3 3"/>`,
  soldier: `<path ${S} d="M24 5v28"/><path ${S} d="M16 33h16"/><path ${S} d="M24 33v8"/><circle ${F} cx="24" cy="43" r="2.5"/><path ${S} d="M21 9l3-4 3 4"/>`,
  spy: `<path ${S} d="M5 24c6-9 13-13 19-13s13 4 19 13c-6 9-13 13-19 13S11 33 5 24z"/><circle ${F} cx="24" cy="24" r="6"/>`,
  heir: `<path ${S} d="M10 34l-2-18 9 8 7-12 7 12 9-8-2 18z"/><path ${S} d="M10 39h28"/>`,
  shapeshifter: `<path ${S} d="M8 12c8-4 24-4 32 0 0 14-6 26-16 28C14 38 8 26 8 12z"/><path ${S} d="M24 12v28"/><circle ${F} cx="17" cy="21" r="2.5"/><path ${S} d="M28 21h6"/><path ${S} d="M15 30c2 2 5 2 7 0M27 31c2-2 5-2 7 0"/>`,
  lord: `<path ${S} d="M10 42V18h6v-6h4v6h8v-6h4v6h6v24z"/><path ${S} d="M21 42v-8a3 3 0 0 1 6 0v8"/><path ${S} d="M24 12V4l6 3-6 3"/>`,
  assassination: `<path ${S} d="M24 4l4 8v16h-8V12z"/><path ${S} d="M16 28h16"/><path ${S} d="M24 28v8"/><path ${F} d="M24 38c-3 4-3 7 0 7s3-3 0-7z"/>`,
  "royal-decree": `<path ${S} d="M12 8h22a4 4 0 0 1 0 8H16v24a4 4 0 0 1-8 0V12a4 4 0 0 1 4-4z"/><path ${S} d="M20 22h12M20 28h12"/><circle ${F} cx="32" cy="38" r="5"/>`,
  ambush: `<path ${S} d="M6 38h36"/><path ${S} d="M8 38l4-14 4 14 4-18 4 18 4-18 4 18 4-14 4 14"/><path ${S} d="M24 8v8M20 12l4 4 4-4"/>`,
  conspiracy: `<circle ${S} cx="18" cy="20" r="9"/><circle ${S} cx="30" cy="28" r="9"/><path ${S} d="M14 38l6-6M34 10l-6 6"/>`,
  prince: `<path ${S} d="M12 30l-2-14 8 6 6-10 6 10 8-6-2 14z"/><path ${S} d="M12 35h24"/><path ${F} d="M24 38l2 4-2 3-2-3z"/>`,
  twin: `<circle ${S} cx="16" cy="16" r="6"/><circle ${S} cx="32" cy="16" r="6"/><path ${S} d="M6 40c0-8 4-13 10-13s10 5 10 13M22 40c0-8 4-13 10-13s10 5 10 13"/>`,
  queen: `<path ${S} d="M8 34l2-20 7 9 7-15 7 15 7-9 2 20z"/><circle ${F} cx="24" cy="8" r="2.5"/><path ${S} d="M8 40h32"/>`,
  cutthroat: `<path ${S} d="M10 38C18 30 30 18 40 8c0 12-10 24-22 30z"/><path ${S} d="M14 34l-6-6"/><path ${S} d="M8 40l4-4"/>`,
  apothecary: `<path ${S} d="M19 6h10M21 6v10L10 36a4 4 0 0 0 4 6h20a4 4 0 0 0 4-6L27 16V6"/><path ${F} d="M14 32h20l3 6H11z"/>`,
  felon: `<circle ${S} cx="14" cy="24" r="8"/><circle ${S} cx="34" cy="24" r="8"/><path ${S} d="M22 24h4"/><path ${S} d="M14 16V8M34 16V8"/>`,
  schemer: `<path ${S} d="M24 40L8 14c8-6 24-6 32 0z"/><path ${S} d="M24 40l-8-26M24 40V12M24 40l8-26"/>`,
  impersonation: `<path ${S} d="M8 10c6-3 14-3 18 0 0 12-4 20-9 20S8 22 8 10z"/><circle ${F} cx="13" cy="16" r="2"/><circle ${F} cx="21" cy="16" r="2"/><path ${S} d="M26 30h14M34 24l6 6-6 6"/><path ${S} d="M22 38H8M14 32l-6 6 6 6"/>`,
  plot: `<path ${S} d="M24 6a18 18 0 1 1-18 18"/><path ${S} d="M24 14a10 10 0 1 1-10 10"/><circle ${F} cx="24" cy="24" r="3"/><path ${F} d="M6 24l-3-6h6z"/>`,
  trap: `<path ${S} d="M6 26a18 14 0 0 0 36 0z"/><path ${S} d="M6 26l6 6 6-6 6 6 6-6 6 6 6-6"/><path ${S} d="M24 40v4M14 44h20"/>`,
  bribery: `<path ${S} d="M16 12h16l-4 6c8 3 12 10 12 16a8 8 0 0 1-8 8H16a8 8 0 0 1-8-8c0-6 4-13 12-16z"/><path ${S} d="M28 26c-2-2-8-2-8 2s8 2 8 6-6 4-8 2M24 22v2M24 38v2"/>`,
  empress: `<path ${S} d="M6 32l4-18 7 8 7-14 7 14 7-8 4 18z"/><circle ${F} cx="24" cy="26" r="3"/><path ${S} d="M6 38h36"/><circle ${F} cx="10" cy="12" r="2"/><circle ${F} cx="38" cy="12" r="2"/>`,
  fanatic: `<path ${S} d="M24 4c4 8 12 12 12 24a12 12 0 0 1-24 0c0-6 3-9 5-12 1 5 3 7 5 7-2-8 0-14 2-19z"/>`,
  informant: `<path ${S} d="M6 12h36v24H6z"/><path ${S} d="M6 12l18 14 18-14"/><circle ${F} cx="36" cy="36" r="5"/>`,
  diplomat: `<path ${S} d="M8 40C16 32 28 20 40 8"/><path ${F} d="M18 30c-6 0-9-3-9-7 5 0 9 3 9 7zM26 22c-6 0-9-3-9-7 5 0 9 3 9 7zM22 26c0-6 3-9 7-9 0 5-3 9-7 9zM30 18c0-6 3-9 7-9 0 5-3 9-7 9z"/>`,
  deserter: `<path ${S} d="M24 4v14"/><path ${S} d="M26 24l-2 12"/><path ${S} d="M22 18l6 3"/><path ${S} d="M16 36h16"/><path ${S} d="M24 36v6"/><path ${S} d="M8 12l6 4M40 12l-6 4"/>`,
  judge: `<path ${S} d="M24 6v34M14 40h20M10 12h28"/><path ${S} d="M10 12L4 26h12zM38 12l-6 14h12z"/><path ${S} d="M4 26a6 6 0 0 0 12 0M32 26a6 6 0 0 0 12 0"/>`,
  insurrection: `<path ${S} d="M24 44V14"/><path ${S} d="M14 4v10a10 10 0 0 0 20 0V4M24 4v10"/><path ${S} d="M18 30h12"/>`,
  extortion: `<rect ${S} x="10" y="20" width="28" height="22" rx="3"/><path ${S} d="M16 20v-6a8 8 0 0 1 16 0v6"/><circle ${F} cx="24" cy="30" r="3"/><path ${S} d="M24 33v4"/>`,
  infiltration: `<circle ${S} cx="14" cy="16" r="8"/><path ${S} d="M20 22l20 20M32 34l4-4M36 38l4-4"/>`,
  agreement: `<circle ${S} cx="18" cy="24" r="10"/><circle ${S} cx="30" cy="24" r="10"/>`,
};

/** A designer's card's emblem, from its path data (the server checked it holds only commands and numbers). */
export function addGlyphs(cards) {
  for (const card of cards) {
    if (GLYPHS[card.slug] || !Array.isArray(card.art) || !card.art.length) continue;
    const paths = card.art.filter((d) => typeof d === "string" && /^[MmLlHhVvCcSsQqTtAaZz0-9 ,.\-]+$/.test(d));
    GLYPHS[card.slug] = paths.map((d) => `<path ${S} d="${d}"/>`).join("");
  }
}

/** The emblem of a kind as an SVG string; unknown kinds get a plain lozenge. */
export function emblem(kind) {
  const body = GLYPHS[kind] || `<path ${S} d="M24 6l14 18-14 18-14-18z"/>`;
  return `<svg class="emblem" viewBox="0 0 48 48" aria-hidden="true" focusable="false">${body}</svg>`;
}

/** The back of a card: a lattice and the family's crest. */
export function back() {
  return `<svg class="back-art" viewBox="0 0 60 84" preserveAspectRatio="none" aria-hidden="true" focusable="false">
    <defs><pattern id="lattice" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <path d="M0 5h10M5 0v10" stroke="currentColor" stroke-opacity=".22" stroke-width="1"/></pattern></defs>
    <rect x="0" y="0" width="60" height="84" fill="url(#lattice)"/>
    <path d="M30 22l10 10-10 30-10-30z" fill="currentColor" fill-opacity=".35" stroke="currentColor" stroke-opacity=".8"/>
    <circle cx="30" cy="32" r="4" fill="currentColor" fill-opacity=".8"/>
  </svg>`;
}

// Each seat's mark: a shape as well as a colour, so owners are told apart without telling colours
// apart (seat 1 a circle, 2 a square, 3 a triangle, 4 a diamond, 5 a star).
const MARKS = [
  '<circle cx="8" cy="8" r="6"/>',
  '<rect x="2.5" y="2.5" width="11" height="11" rx="1"/>',
  '<path d="M8 1.5l6.5 12h-13z"/>',
  '<path d="M8 1l7 7-7 7-7-7z"/>',
  '<path d="M8 .8l2.1 4.6 5 .5-3.8 3.4 1.1 4.9L8 11.7l-4.4 2.5 1.1-4.9L.9 5.9l5-.5z"/>',
];

export function seatMark(seat) {
  return `<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">${MARKS[seat % MARKS.length]}</svg>`;
}

// Small icons for controls, drawn like the emblems: no emoji, which many systems show as empty boxes.
const I = 'fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"';
const ICONS = {
  clock: `<circle ${I} cx="12" cy="13" r="8"/><path ${I} d="M12 9v4l2.5 2.5M9.5 2.5h5M12 2.5V5"/>`,
  mute: `<path fill="currentColor" d="M4 9h3.5L12 5v14l-4.5-4H4z"/><path ${I} d="M15.5 9.5l5 5M20.5 9.5l-5 5"/>`,
  close: `<path ${I} d="M6 6l12 12M18 6L6 18"/>`,
};

/** A control's icon as an SVG string, sized to the text around it (``clock``, ``mute``, ``close``). */
export function icon(name) {
  return `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${ICONS[name]}</svg>`;
}
