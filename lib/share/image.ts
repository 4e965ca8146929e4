/**
 * The deck image's layout (contract §9.3, §10.2), pure: a 1200×630 SVG of the deck — name (a bare
 * code's: its factions), author, the cards by kredit cost with copies, the kredit curve, and what breaks
 * the deck rules (the first issue after the byline, the cards it names in red), or what keeps a legal deck
 * out of ranked play (its Reserve-pool cards marked, §11.5) — every label in the sheet's language — in the font the function ships (Inter,
 * png.ts). Every deck string is drawn as text (escaped for XML), and every text is fitted to its box by
 * the font's own measures (`Measure`, from the shipped font file: font-metrics.ts), shortened with an
 * ellipsis when it must: a name never runs into the next column. The layout says each text's box and
 * measured width, so a test can hold every text to its box without looking at pixels.
 */
import { IMAGE_SIZES } from '#rules/image-sizes.ts';
import { labelsFor } from '#rules/labels.ts';
import { familiesFor } from './fonts.ts';
import { escapeMarkup as e, xmlChars } from './markup.ts';
import { type DeckSheet, groupHeading } from './sheet.ts';

export const { width: IMAGE_WIDTH, height: IMAGE_HEIGHT } = IMAGE_SIZES.wide;

/** A text's width in pixels, drawn at `size` in the regular or bold face of the shipped font. */
export type Measure = (text: string, size: number, bold: boolean) => number;

/** One text of the image: where it starts, how wide it is, how wide its box lets it be. */
export interface PlacedText {
  text: string;
  /** Its left edge (for centred and right-aligned text, what its anchor makes it). */
  x: number;
  width: number;
  /** Its box: the text must end by `x + box`. */
  box: number;
}

/**
 * Text sizes (px at 1200 wide), chosen for Discord's embed, which shows the image 400 px wide (a third): a card's
 * name at 25 px is 8.3 px there, and no text is under 20 px (Inter's cap height, 0.727 em: 14.5 px here, 4.8 px
 * there). The list takes the whole width below the header; the curve sits in the header, right of the title.
 */
export const TEXT_SIZE = { title: 44, byline: 24, line: 22, name: 25, heading: 21, small: 20 } as const;
/** The list's box: as many columns as it needs (at most 4), each as wide as its names need where the width allows. */
export const LIST = { left: 48, top: 212, right: 1152, bottom: 594, row: 30 } as const;
const ROWS = Math.floor((LIST.bottom - LIST.top) / LIST.row) + 1;
/** The header's text box (the curve is right of it). */
const HEADER_RIGHT = 700;
/** Space kept between a column's longest text and the next column. */
const GUTTER = 14;
const ELLIPSIS = '…';

/** `s`, or its longest start that fits `box` with an ellipsis after it (by the font's measures). */
export function fitted(s: string, box: number, size: number, bold: boolean, measure: Measure): string {
  if (measure(s, size, bold) <= box) return s;
  const chars = [...s];
  let lo = 0;
  let hi = chars.length;
  // The longest prefix whose shortened form fits: widths grow with the prefix, so a binary search finds it.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${chars.slice(0, mid).join('').trimEnd()}${ELLIPSIS}`, size, bold) <= box) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, lo).join('').trimEnd()}${ELLIPSIS}`;
}

type Row =
  | { kind: 'group'; text: string }
  | { kind: 'card'; count: number; name: string; ally: boolean; flagged: boolean; reserved: boolean };

/**
 * The list's rows in as few columns as hold them (at most `most`, `perColumn` rows each), spread evenly over
 * them: a heading never ends a column, and a column that starts in the middle of a cost's cards starts with
 * that cost's heading again (`continued`). What the columns cannot hold is left out: the last row says how
 * many cards (`more`).
 */
export function arrangeColumns(
  rows: readonly Row[],
  perColumn: number,
  most: number,
  continued: (heading: string) => string,
  more: (cards: number) => string,
): Row[][] {
  const fill = (n: number) => {
    const columns: Row[][] = [];
    let heading = '';
    let i = 0;
    for (let c = 0; c < n && i < rows.length; c++) {
      const column: Row[] = [];
      const aim = c === n - 1 ? perColumn : Math.min(perColumn, Math.ceil((rows.length - i) / (n - c)));
      if (rows[i]?.kind === 'card') column.push({ kind: 'group', text: continued(heading) });
      while (column.length < aim && i < rows.length) {
        const row = rows[i++] as Row;
        if (row.kind === 'group') heading = row.text;
        column.push(row);
      }
      if (column.at(-1)?.kind === 'group' && i < rows.length) {
        column.pop();
        i--;
      }
      columns.push(column);
    }
    return { columns, placed: i };
  };
  for (let n = 1; n < most; n++) {
    const { columns, placed } = fill(n);
    if (placed === rows.length) return columns;
  }
  const { columns, placed } = fill(most);
  if (placed < rows.length) {
    const last = columns.at(-1) as Row[];
    const cut = last.pop() as Row;
    const hidden = rows.slice(placed).filter((r) => r.kind === 'card').length + (cut.kind === 'card' ? 1 : 0);
    last.push({ kind: 'group', text: more(hidden) });
  }
  return columns;
}

/**
 * Each column's width out of `available`: a column whose rows need less than an even share gets what it needs,
 * the others share the rest evenly (so a name is shortened only when its column's share is too small for it);
 * what is left over is spread evenly.
 */
export function columnWidths(needs: readonly number[], available: number): number[] {
  const widths = needs.map(() => 0);
  let left = available;
  const order = needs.map((_, i) => i).sort((a, b) => (needs[a] as number) - (needs[b] as number));
  for (const [k, i] of order.entries()) {
    const width = Math.min(needs[i] as number, left / (needs.length - k));
    widths[i] = width;
    left -= width;
  }
  return widths.map((w) => w + left / needs.length);
}

/** Colours of the image: a card of the ally faction, and one a deck rule fails on (and the line saying why). */
export const ALLY_FILL = '#8fb3d9';
export const FLAGGED_FILL = '#ff7a6b';
/** A card of the Reserve pool's mark, and the line saying ranked play refuses the deck. */
export const RESERVED_FILL = '#f0b44c';

/** The image's SVG and every text it draws, placed and measured. */
export function deckImageLayout(sheet: DeckSheet, measure: Measure): { svg: string; texts: PlacedText[]; needs: number[] } {
  const labels = labelsFor(sheet.language);
  const texts: PlacedText[] = [];
  /** A text fitted to its box, recorded; `anchor` says where x is (its start, middle or end). */
  const place = (s: string, x: number, box: number, size: number, bold: boolean, anchor: 'start' | 'middle' | 'end' = 'start') => {
    // Measured as drawn: without what XML refuses (escapeMarkup drops it from the SVG too).
    const text = fitted(xmlChars(s), box, size, bold, measure);
    const width = measure(text, size, bold);
    const left = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width;
    const boxLeft = anchor === 'start' ? x : anchor === 'middle' ? x - box / 2 : x - box;
    texts.push({ text, x: left, width, box: box - (left - boxLeft) });
    return text;
  };

  const rows: Row[] = [];
  for (const g of sheet.groups) {
    rows.push({ kind: 'group', text: groupHeading(g, sheet.language) });
    for (const c of g.cards)
      rows.push({ kind: 'card', count: c.count, name: c.name, ally: c.ally, flagged: c.flagged, reserved: c.reserved });
  }
  const columns = arrangeColumns(rows, ROWS, 4, labels.continued, labels.moreRows);
  const { name: N, heading: H, small: S } = TEXT_SIZE;
  // What a row needs, whole: a heading in bold; "2× " in bold, the name, and a Reserve-pool mark.
  const need = (r: Row) =>
    r.kind === 'group'
      ? measure(xmlChars(r.text), H, true)
      : measure(`${r.count}× `, N, true) +
        measure(xmlChars(r.name), N, false) +
        (r.reserved ? measure(` ${labels.reserveMark}`, N, true) : 0);
  const needs = columns.map((column) => Math.max(0, ...column.map(need)) + GUTTER);
  const widths = columnWidths(needs, LIST.right - LIST.left);
  const list = columns
    .flatMap((column, c) => {
      const x = LIST.left + widths.slice(0, c).reduce((a, b) => a + b, 0);
      const box = (widths[c] as number) - GUTTER;
      return column.map((r, i) => {
        const y = LIST.top + i * LIST.row;
        if (r.kind === 'group')
          return `<text x="${x}" y="${y}" font-size="${H}" font-weight="700" fill="#e0705f">${e(place(r.text, x, box, H, true))}</text>`;
        // "2×" in bold and a space, then the name in what is left of the box; an ally card's name in the ally's
        // colour, one a deck rule fails on in red (the line under the title says why).
        // A card of the Reserve pool: its mark, in bold, after the name (the name fitted to what the mark leaves).
        const count = place(`${r.count}×`, x, box, N, true);
        const lead = measure(`${count} `, N, true);
        const markWidth = r.reserved ? measure(` ${labels.reserveMark}`, N, true) : 0;
        const name = place(r.name, x + lead, box - lead - markWidth, N, false);
        const mark = r.reserved ? place(labels.reserveMark, x + lead + measure(`${name} `, N, false), markWidth, N, true) : '';
        const fill = r.flagged ? FLAGGED_FILL : r.ally ? ALLY_FILL : undefined;
        return `<text x="${x}" y="${y}" font-size="${N}" fill="#eceae6"><tspan font-weight="700">${e(count)}</tspan> <tspan${fill ? ` fill="${fill}"` : ''}>${e(name)}</tspan>${mark ? ` <tspan font-weight="700" fill="${RESERVED_FILL}">${e(mark)}</tspan>` : ''}</text>`;
      });
    })
    .join('');
  // The kredit curve, in the header right of the title: a bar a cost, its cards above it, its cost under it.
  const chart = { left: 760, right: 1152, top: 46, bottom: 128 };
  const most = Math.max(1, ...sheet.curve.map((c) => c.count));
  const step = (chart.right - chart.left) / Math.max(1, sheet.curve.length);
  // A cost under its bar as "3K" where every cost fits so, else as the number alone.
  const unit = sheet.curve.every(({ kredits }) => measure(`${kredits}K`, S, false) <= step - 4) ? 'K' : '';
  const bars = sheet.curve
    .map(({ kredits, count }, i) => {
      const h = Math.max(2, Math.round((count / most) * (chart.bottom - chart.top)));
      const x = Math.round(chart.left + i * step + step * 0.15);
      const cx = Math.round(chart.left + i * step + step / 2);
      const above = place(String(count), cx, step, S, false, 'middle');
      const below = place(`${kredits}${unit}`, cx, step, S, false, 'middle');
      return `<rect x="${x}" y="${chart.bottom - h}" width="${Math.max(4, Math.round(step * 0.7))}" height="${h}" rx="3" fill="#e0705f"/><text x="${cx}" y="${chart.bottom - h - 6}" text-anchor="middle" font-size="${S}" fill="#eceae6">${e(above)}</text><text x="${cx}" y="${chart.bottom + 26}" text-anchor="middle" font-size="${S}" fill="#a3a8ad">${e(below)}</text>`;
    })
    .join('');
  const width = HEADER_RIGHT - 48;
  const byline = [sheet.author === null ? '' : labels.by(sheet.author), sheet.system, labels.cards(sheet.cardCount)]
    .filter(Boolean)
    .join(' · ');
  const title = place(sheet.name, 48, width, TEXT_SIZE.title, true);
  // An illegal deck says so under the byline, in the colour its failing cards are drawn in; a legal one ranked
  // play refuses says that, in its marks' colour.
  const line = sheet.issues.length
    ? { text: labels.notLegalLine(sheet.issues[0] as string, sheet.issues.length - 1), fill: FLAGGED_FILL }
    : sheet.reserved.length
      ? { text: labels.notRankedLine(sheet.reserved.length), fill: RESERVED_FILL }
      : undefined;
  const by = place(byline, 48, width, TEXT_SIZE.byline, false);
  const issue = line ? place(line.text, 48, width, TEXT_SIZE.line, false) : '';
  const footerText = `Deck Library · ${sheet.slug ?? labels.aDeckCode}`;
  const footer = place(footerText, 1152, 1152 - HEADER_RIGHT, S, false, 'end');
  // A saved deck's tags, under the list (left of the footer).
  const tagsRight = 1152 - measure(footer, S, false) - 32;
  const tags = sheet.tags.length ? place(sheet.tags.map((t) => `#${t}`).join('  '), 48, tagsRight - 48, S, false) : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}" font-family="${familiesFor(sheet.language)}">
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="#16181b"/>
<rect width="${IMAGE_WIDTH}" height="10" fill="#e0705f"/>
<text x="48" y="74" font-size="${TEXT_SIZE.title}" font-weight="700" fill="#ffffff">${e(title)}</text>
<text x="48" y="114" font-size="${TEXT_SIZE.byline}" fill="#a3a8ad">${e(by)}</text>
${issue ? `<text x="48" y="148" font-size="${TEXT_SIZE.line}" fill="${line?.fill}">${e(issue)}</text>\n` : ''}${bars}
<line x1="48" x2="1152" y1="170" y2="170" stroke="#343a40" stroke-width="2"/>
${list}
${tags ? `<text x="48" y="618" font-size="${S}" fill="#a3a8ad">${e(tags)}</text>\n` : ''}<text x="1152" y="618" text-anchor="end" font-size="${S}" fill="#5b6168">${e(footer)}</text>
</svg>`;
  return { svg, texts, needs };
}

/** The image's SVG. */
export const deckImageSvg = (sheet: DeckSheet, measure: Measure): string => deckImageLayout(sheet, measure).svg;
