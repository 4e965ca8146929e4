/**
 * The deck image at a chat embed's size (contract §12.5), pure: a 1200×900 SVG (4:3) of the deck for where
 * it is shown 400 px wide — Discord fits an embed's image into 400×300 (github.com/leovoel/embed-visualizer/issues/30,
 * measured in the client), so a 4:3 picture is shown whole at 400×300, a third of its size. Every text is
 * drawn at 36 px or more (12 px there). The wide image (image.ts: 1200×630, the cards in columns) cannot
 * hold a 30-card deck at that size, so this one sets the cards as running text, by kredit cost: each cost's
 * mark ("3K"), then "2× NAME" after "2× NAME", a line breaking between two cards or inside a name — after
 * a space or a hyphen, or beside a CJK or Hangul character — never cutting it. The kredit curve is in the
 * header, right of the title and byline; what breaks the deck rules (or keeps it out of ranked play) is
 * the list's first line, over two lines at most. What the list cannot hold (no real deck: the fit test
 * holds every real code in the game's 12 languages) is said at its end ("… and 3 more"). No tags and no
 * footer: the embed around it says where it comes from. The layout says each text's line, size, width
 * and box, and which card's name a piece is of, so a test can hold every name whole and every box apart.
 */
import { IMAGE_SIZES } from '#rules/image-sizes.ts';
import { labelsFor } from '#rules/labels.ts';
import { familiesFor } from './fonts.ts';
import { ALLY_FILL, FLAGGED_FILL, fitted, type Measure, type PlacedText, RESERVED_FILL } from './image.ts';
import { escapeMarkup as e, xmlChars } from './markup.ts';
import type { DeckSheet } from './sheet.ts';

/** The picture's size, and the width an embed shows it at. */
export const EMBED = IMAGE_SIZES.embed;
/** The least size a text is drawn at: 12 px where the image is shown 400 px wide. */
export const EMBED_LEAST_TEXT = (12 * EMBED.width) / EMBED.shown;
export const EMBED_TEXT = { title: 44, text: EMBED_LEAST_TEXT } as const;
/** The list's box (baselines from `top` to `bottom`, a line every `row`), and the margins of everything. */
export const EMBED_LIST = { left: 36, right: 1164, top: 232, bottom: 885, row: 45 } as const;
/**
 * The two frames a deck is set in: `full` (the kredit curve in the header, right of the title), and `compact` for a
 * deck whose cards `full` cannot hold — no curve, the header a line shorter, a line every 44 px (a text's box is
 * 1.2 em: 43.2 px), so two lines more of cards. What `compact` cannot hold either is said at the list's end.
 */
export const EMBED_FRAMES = {
  full: { curve: true, row: EMBED_LIST.row, inline: false, gap: 0.6, left: EMBED_LIST.left, right: EMBED_LIST.right },
  compact: { curve: false, row: 44, inline: false, gap: 0.6, left: EMBED_LIST.left, right: EMBED_LIST.right },
  dense: { curve: false, row: 44, inline: true, gap: 0.4, left: 24, right: 1176 },
} as const;
export type EmbedFrame = keyof typeof EMBED_FRAMES;
/** A text's box above and below its baseline, in ems (Inter's ascender 0.969 and descender 0.242, rounded in). */
export const TEXT_BOX = { above: 0.95, below: 0.25 } as const;

/** One text of the embed image: its box (as the wide image's) and its baseline and size; a piece of a card's name says whose, and what joins it to the piece before. */
export interface DrawnText extends PlacedText {
  y: number;
  size: number;
  card?: string;
  joiner?: '' | ' ';
}
/** A drawn rectangle (a bar of the curve), by its top left corner. */
export interface DrawnBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One run of running text: drawn in one style; a line may break before it only where `breaks`. */
interface Atom {
  text: string;
  bold: boolean;
  fill: string;
  /** May a line end before it. */
  breaks: boolean;
  /** What stands between it and the atom before on one line: a space, the gap between two cards, or nothing. */
  lead: 'space' | 'gap' | 'none';
  card?: string;
  joiner?: '' | ' ';
}

const TEXT_FILL = '#eceae6';
const DIM_FILL = '#a3a8ad';
const ACCENT = '#e0705f';

/** Characters a line may break beside without a space: CJK ideographs, kana, Hangul, full-width forms. */
const CJK = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF\u{20000}-\u{3FFFF}]/u;

/**
 * `s` in the pieces a line may break between: after a space (the space dropped at a break, `joiner` ' '), after
 * a hyphen, and before and after a CJK or Hangul character (`joiner` ''). Joined by their joiners, they are `s`
 * (its spaces single: a name's runs of spaces are one, as a line shows them).
 */
export function breakable(s: string): { text: string; joiner: '' | ' ' }[] {
  const pieces: { text: string; joiner: '' | ' ' }[] = [];
  let text = '';
  let joiner: '' | ' ' = '';
  let next: '' | ' ' = '';
  const push = () => {
    if (text) pieces.push({ text, joiner: pieces.length ? joiner : '' });
    text = '';
  };
  const add = (ch: string) => {
    if (!text) [joiner, next] = [next, ''];
    text += ch;
  };
  for (const ch of s.trim()) {
    if (ch === ' ') {
      push();
      next = ' ';
    } else if (CJK.test(ch)) {
      push();
      add(ch);
      push();
    } else {
      add(ch);
      if (ch === '-') push();
    }
  }
  push();
  return pieces;
}

export interface EmbedLayout {
  svg: string;
  texts: DrawnText[];
  boxes: DrawnBox[];
  /** Cards the list could not hold (said at its end). */
  hidden: number;
  rows: number;
  frame: EmbedFrame;
  /** The lines the title is drawn on (1 or 2), and whether it was shortened (only a name past two lines is). */
  titleLines: number;
  titleCut: boolean;
}

/**
 * The deck image at an embed's size: its SVG, every text placed and measured, its bars, and how many cards it could
 * not hold — in the full frame, or the compact one where the full one leaves cards out.
 */
export function embedImageLayout(sheet: DeckSheet, measure: Measure): EmbedLayout {
  let best: EmbedLayout | undefined;
  for (const frame of Object.keys(EMBED_FRAMES) as EmbedFrame[]) {
    const laid = layoutIn(frame, sheet, measure);
    if (laid.hidden === 0) return laid;
    if (!best || laid.hidden < best.hidden) best = laid;
  }
  return best as EmbedLayout;
}

/**
 * The title in its box: at 44 px, else the largest size down to the least (36) at which it fits on one line, else on
 * two lines at the least size (broken where breakable() allows), else shortened on its second line.
 */
export function titleLines(title: string, box: number, measure: Measure): { lines: string[]; size: number; cut: boolean } {
  const { title: most, text: least } = EMBED_TEXT;
  for (let size = most; size >= least; size -= 2) if (measure(title, size, true) <= box) return { lines: [title], size, cut: false };
  const pieces = breakable(title);
  let first = '';
  let k = 0;
  for (; k < pieces.length; k++) {
    const piece = pieces[k] as { text: string; joiner: '' | ' ' };
    const next = first ? `${first}${piece.joiner}${piece.text}` : piece.text;
    if (first && measure(next, least, true) > box) break;
    first = next;
  }
  const rest = pieces
    .slice(k)
    .map((p, i) => (i ? p.joiner : '') + p.text)
    .join('');
  if (!rest) return { lines: [fitted(first, box, least, true, measure)], size: least, cut: measure(first, least, true) > box };
  const second = fitted(rest, box, least, true, measure);
  return {
    lines: [fitted(first, box, least, true, measure), second],
    size: least,
    cut: second !== rest || measure(first, least, true) > box,
  };
}

function layoutIn(frameName: EmbedFrame, sheet: DeckSheet, measure: Measure): EmbedLayout {
  const frame = EMBED_FRAMES[frameName];
  const labels = labelsFor(sheet.language);
  const { text: S } = EMBED_TEXT;
  const { left, right } = frame;
  const texts: DrawnText[] = [];
  const boxes: DrawnBox[] = [];
  const svg: string[] = [];
  /** A text fitted to its box, recorded and drawn; `anchor` says where x is. */
  const draw = (
    s: string,
    x: number,
    y: number,
    box: number,
    size: number,
    bold: boolean,
    fill: string,
    anchor: 'start' | 'middle' = 'start',
  ) => {
    const text = fitted(xmlChars(s), box, size, bold, measure);
    const width = measure(text, size, bold);
    const at = anchor === 'start' ? x : x - width / 2;
    texts.push({ text, x: at, width, box: anchor === 'start' ? box : box / 2 + width / 2, y, size });
    svg.push(
      `<text x="${x}" y="${y}"${anchor === 'middle' ? ' text-anchor="middle"' : ''} font-size="${size}"${bold ? ' font-weight="700"' : ''} fill="${fill}">${e(text)}</text>`,
    );
  };

  const space = (size: number) => measure(' ', size, false);
  // The kredit curve, top right: a bar a cost, its copies above it, its cost under it ("3K" where every cost fits so).
  const costs = frame.curve ? sheet.curve : [];
  const widest = (unit: string) =>
    Math.max(0, ...costs.flatMap((c) => [measure(String(c.count), S, false), measure(`${c.kredits}${unit}`, S, false)]));
  const unit = widest('K') + 12 <= 60 ? 'K' : '';
  const step = Math.max(48, widest(unit) + 12);
  const chart = { left: right - step * costs.length, right, top: 62, bottom: 132 };
  const most = Math.max(1, ...costs.map((c) => c.count));
  for (const [i, { kredits, count }] of costs.entries()) {
    const h = Math.max(3, Math.round((count / most) * (chart.bottom - chart.top)));
    const cx = chart.left + i * step + step / 2;
    const bar = { x: Math.round(chart.left + i * step + step * 0.2), y: chart.bottom - h, width: Math.round(step * 0.6), height: h };
    boxes.push(bar);
    svg.push(`<rect x="${bar.x}" y="${bar.y}" width="${bar.width}" height="${bar.height}" rx="4" fill="${ACCENT}"/>`);
    draw(String(count), cx, bar.y - 12, step, S, false, TEXT_FILL, 'middle');
    draw(`${kredits}${unit}`, cx, chart.bottom + 40, step, S, false, DIM_FILL, 'middle');
  }
  // The title and byline, left of the curve: the title whole, on two lines where one cannot hold it.
  const headerBox = (costs.length ? chart.left - 24 : right) - left;
  const title = titleLines(xmlChars(sheet.name), headerBox, measure);
  const owner = [sheet.author === null ? '' : labels.by(sheet.author), sheet.system].filter(Boolean).join(' · ');
  const count = labels.cards(sheet.cardCount);
  const byline = owner ? `${owner} · ${count}` : count;
  /** The byline in `box`: the card count always whole, the owner's part (name, system) cut before it where all cannot fit. */
  const bylineIn = (box: number) =>
    !owner || measure(byline, S, false) <= box
      ? byline
      : `${fitted(owner, box - measure(` · ${count}`, S, false), S, false, measure)} · ${count}`;
  // Inline (the dense frame): the byline after a one-line title, on its line, where it fits whole there.
  const titleWidth = title.lines.length === 1 ? measure(title.lines[0] as string, title.size, true) : Infinity;
  const inline = frame.inline && titleWidth + space(S) * 3 + measure(byline, S, false) <= headerBox;
  const titleBase = title.lines.length === 1 ? (frame.curve ? 70 : 56) : 58;
  for (const [i, text] of title.lines.entries()) draw(text, left, titleBase + i * 44, headerBox, title.size, true, '#ffffff');
  let bylineBase = titleBase + (title.lines.length - 1) * 44 + 54;
  if (inline) {
    bylineBase = titleBase;
    const at = left + titleWidth + space(S) * 3;
    draw(bylineIn(right - at), at, bylineBase, right - at, S, false, DIM_FILL);
  } else draw(bylineIn(headerBox), left, bylineBase, headerBox, S, false, DIM_FILL);
  // The rule under the header: below the curve's cost labels, or the byline, whichever is lower.
  const rule = Math.max(frame.curve ? 188 : 0, bylineBase + 26);
  svg.push(`<line x1="${left}" x2="${right}" y1="${rule}" y2="${rule}" stroke="#343a40" stroke-width="3"/>`);
  const listTop = rule + 44;

  // The running text: what breaks the rules (its own lines, two at most), then each cost's cards.
  const line = sheet.issues.length
    ? { text: labels.notLegalLine(sheet.issues[0] as string, sheet.issues.length - 1), fill: FLAGGED_FILL }
    : sheet.reserved.length
      ? { text: labels.notRankedLine(sheet.reserved.length), fill: RESERVED_FILL }
      : undefined;
  const lineOf = (text: string, fill: string) =>
    breakable(text).map((p, i): Atom => ({ text: p.text, bold: false, fill, breaks: i > 0, lead: p.joiner === ' ' ? 'space' : 'none' }));
  const lineAtoms: Atom[] = line ? lineOf(xmlChars(line.text), line.fill) : [];
  /** Each card's atoms, its kredit group's mark before the group's first. */
  const cards: Atom[][] = [];
  for (const g of sheet.groups)
    for (const [i, c] of g.cards.entries()) {
      const atoms: Atom[] = [];
      if (i === 0)
        atoms.push({
          text: g.kredits === null ? labels.notInCatalogue : `${g.kredits}K`,
          bold: true,
          fill: ACCENT,
          breaks: true,
          lead: 'gap',
        });
      // A card's copies before its name; set dense, a single copy's none (only 2× and more are marked).
      const bare = frame.inline && c.count === 1;
      if (!bare) atoms.push({ text: `${c.count}×`, bold: true, fill: TEXT_FILL, breaks: i !== 0, lead: i === 0 ? 'space' : 'gap' });
      const fill = c.flagged ? FLAGGED_FILL : c.ally ? ALLY_FILL : TEXT_FILL;
      // A piece of a name no wider than a line leaves beside its copies (no real name has one near it).
      for (const [k, p] of breakable(xmlChars(c.name)).entries())
        atoms.push({
          text: fitted(p.text, right - left - 4 * S, S, false, measure),
          bold: false,
          fill,
          breaks: k > 0 || (bare && i !== 0),
          lead: k === 0 ? (bare && i !== 0 ? 'gap' : 'space') : p.joiner === ' ' ? 'space' : 'none',
          card: c.card_id,
          joiner: k === 0 ? '' : p.joiner,
        });
      if (c.reserved) atoms.push({ text: labels.reserveMark, bold: true, fill: RESERVED_FILL, breaks: false, lead: 'space' });
      cards.push(atoms);
    }
  const gap = frame.gap * S;
  const lines = Math.floor((EMBED_LIST.bottom - listTop) / frame.row) + 1;
  const width = (a: Atom) => measure(a.text, S, a.bold);
  const leadOf = (a: Atom) => (a.lead === 'space' ? space(S) : a.lead === 'gap' ? gap : 0);

  /** The runs (a card's atoms, or the rules' line) set in lines from the list's left: each atom's line and x, and how many lines. */
  const set = (runs: Atom[][]) => {
    const placed: { atom: Atom; row: number; x: number }[] = [];
    let row = 0;
    let x = left;
    for (const [r, atoms] of runs.entries()) {
      // The cards start a line of their own after the rules' line.
      if (r > 0 && runs[r - 1] === lineAtoms) {
        row++;
        x = left;
      }
      for (let i = 0; i < atoms.length; ) {
        // What cannot be parted from this atom: it and those after it that may not start a line.
        let j = i + 1;
        while (j < atoms.length && !(atoms[j] as Atom).breaks) j++;
        const unit = atoms.slice(i, j);
        const unitWidth = unit.reduce((w, a, k) => w + (k ? leadOf(a) : 0) + width(a), 0);
        if (x > left && x + leadOf(unit[0] as Atom) + unitWidth > right) {
          row++;
          x = left;
        }
        for (const a of unit) {
          if (x > left) x += leadOf(a);
          placed.push({ atom: a, row, x });
          x += width(a);
        }
        i = j;
      }
    }
    return { placed, lines: placed.length ? row + 1 : 0 };
  };
  /** The runs when the first `shown` cards are drawn: the rules' line, those cards, and how many are not. */
  const runs = (shown: number): Atom[][] => [
    ...(lineAtoms.length ? [lineAtoms] : []),
    ...cards.slice(0, shown),
    ...(shown < cards.length
      ? [[{ text: labels.moreRows(cards.length - shown), bold: false, fill: DIM_FILL, breaks: true, lead: 'gap' } as Atom]]
      : []),
  ];
  // The rules' line over two lines at most: a longer one is shortened (it is the service's text, not a name).
  for (let box = 2 * (right - left); lineAtoms.length && set([lineAtoms]).lines > 2; box -= S)
    lineAtoms.splice(0, lineAtoms.length, ...lineOf(fitted(xmlChars(line?.text ?? ''), box, S, false, measure), line?.fill ?? ''));
  let shown = cards.length;
  let laid = set(runs(shown));
  while (shown > 0 && laid.lines > lines) laid = set(runs(--shown));
  const hidden = cards.length - shown;
  for (const { atom, row, x } of laid.placed) {
    const y = listTop + row * frame.row;
    const w = width(atom);
    texts.push({
      text: atom.text,
      x,
      width: w,
      box: right - x,
      y,
      size: S,
      ...(atom.card === undefined ? {} : { card: atom.card, joiner: atom.joiner ?? '' }),
    });
    svg.push(
      `<text x="${x.toFixed(1)}" y="${y}" font-size="${S}"${atom.bold ? ' font-weight="700"' : ''} fill="${atom.fill}">${e(atom.text)}</text>`,
    );
  }
  const out = `<svg xmlns="http://www.w3.org/2000/svg" width="${EMBED.width}" height="${EMBED.height}" viewBox="0 0 ${EMBED.width} ${EMBED.height}" font-family="${familiesFor(sheet.language)}">
<rect width="${EMBED.width}" height="${EMBED.height}" fill="#16181b"/>
<rect width="${EMBED.width}" height="12" fill="${ACCENT}"/>
${svg.join('\n')}
</svg>`;
  return {
    svg: out,
    texts,
    boxes,
    hidden,
    rows: laid.lines,
    frame: frameName,
    titleLines: title.lines.length,
    titleCut: title.cut,
  };
}
