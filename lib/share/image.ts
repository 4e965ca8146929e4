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
import { labelsFor } from '#rules/labels.ts';
import { familiesFor } from './fonts.ts';
import { type DeckSheet, escapeMarkup as e, groupHeading, xmlChars } from './sheet.ts';

export const IMAGE_WIDTH = 1200;
export const IMAGE_HEIGHT = 630;

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

const LIST = { left: 48, top: 196, right: 800, bottom: 598, row: 25 } as const;
const ROWS = Math.floor((LIST.bottom - LIST.top) / LIST.row);
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
  | { kind: 'card'; count: number; name: string; ally: boolean; flagged: boolean; reserved: boolean }
  | { kind: 'gap' };

/** Colours of the image: a card of the ally faction, and one a deck rule fails on (and the line saying why). */
const ALLY_FILL = '#8fb3d9';
const FLAGGED_FILL = '#ff7a6b';
/** A card of the Reserve pool's mark, and the line saying ranked play refuses the deck. */
const RESERVED_FILL = '#f0b44c';

/** The image's SVG and every text it draws, placed and measured. */
export function deckImageLayout(sheet: DeckSheet, measure: Measure): { svg: string; texts: PlacedText[] } {
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
    // A cost's heading never ends a column: it starts the next one with its cards.
    if (rows.length % ROWS === ROWS - 1) rows.push({ kind: 'gap' });
    rows.push({ kind: 'group', text: groupHeading(g, sheet.language) });
    for (const c of g.cards)
      rows.push({ kind: 'card', count: c.count, name: c.name, ally: c.ally, flagged: c.flagged, reserved: c.reserved });
  }
  const columns = Math.min(3, Math.max(1, Math.ceil(rows.length / ROWS)));
  const colWidth = (LIST.right - LIST.left) / columns;
  const shown = rows.slice(0, ROWS * columns);
  if (rows.length > shown.length) shown[shown.length - 1] = { kind: 'group', text: labels.moreRows(rows.length - shown.length + 1) };
  const list = shown
    .map((r, i) => {
      const x = LIST.left + Math.floor(i / ROWS) * colWidth;
      const y = LIST.top + (i % ROWS) * LIST.row;
      const box = colWidth - GUTTER;
      if (r.kind === 'gap') return '';
      if (r.kind === 'group')
        return `<text x="${x}" y="${y}" font-size="17" font-weight="700" fill="#e0705f">${e(place(r.text, x, box, 17, true))}</text>`;
      // "2×" in bold and a space, then the name in what is left of the box; an ally card's name in the ally's
      // colour, one a deck rule fails on in red (the line under the title says why).
      // A card of the Reserve pool: its mark, in bold, after the name (the name fitted to what the mark leaves).
      const count = place(`${r.count}×`, x, box, 19, true);
      const lead = measure(`${count} `, 19, true);
      const markWidth = r.reserved ? measure(` ${labels.reserveMark}`, 19, true) : 0;
      const name = place(r.name, x + lead, box - lead - markWidth, 19, false);
      const mark = r.reserved ? place(labels.reserveMark, x + lead + measure(`${name} `, 19, false), markWidth, 19, true) : '';
      const fill = r.flagged ? FLAGGED_FILL : r.ally ? ALLY_FILL : undefined;
      return `<text x="${x}" y="${y}" font-size="19" fill="#eceae6"><tspan font-weight="700">${e(count)}</tspan> <tspan${fill ? ` fill="${fill}"` : ''}>${e(name)}</tspan>${mark ? ` <tspan font-weight="700" fill="${RESERVED_FILL}">${e(mark)}</tspan>` : ''}</text>`;
    })
    .join('');
  // The kredit curve, right of the list.
  const chart = { left: 850, right: 1152, top: 250, bottom: 540 };
  const most = Math.max(1, ...sheet.curve.map((c) => c.count));
  const step = (chart.right - chart.left) / Math.max(1, sheet.curve.length);
  const bars = sheet.curve
    .map(({ kredits, count }, i) => {
      const h = Math.round((count / most) * (chart.bottom - chart.top - 30));
      const x = Math.round(chart.left + i * step + step * 0.15);
      const cx = Math.round(chart.left + i * step + step / 2);
      const above = place(String(count), cx, step, 18, false, 'middle');
      const below = place(String(kredits), cx, step, 18, false, 'middle');
      return `<rect x="${x}" y="${chart.bottom - h}" width="${Math.max(4, Math.round(step * 0.7))}" height="${h}" rx="4" fill="#e0705f"/><text x="${cx}" y="${chart.bottom - h - 8}" text-anchor="middle" font-size="18" fill="#eceae6">${e(above)}</text><text x="${cx}" y="${chart.bottom + 26}" text-anchor="middle" font-size="18" fill="#a3a8ad">${e(below)}</text>`;
    })
    .join('');
  const width = IMAGE_WIDTH - 2 * 48;
  const byline = [sheet.author === null ? '' : labels.by(sheet.author), sheet.system, labels.cards(sheet.cardCount)]
    .filter(Boolean)
    .join(' · ');
  const title = place(sheet.name, 48, width, 46, true);
  // An illegal deck says so after the byline (kept to under half the width then), in the colour its failing cards
  // are drawn in; a legal one ranked play refuses says that, in its marks' colour.
  const line = sheet.issues.length
    ? { text: labels.notLegalLine(sheet.issues[0] as string, sheet.issues.length - 1), fill: FLAGGED_FILL }
    : sheet.reserved.length
      ? { text: labels.notRankedLine(sheet.reserved.length), fill: RESERVED_FILL }
      : undefined;
  const by = place(byline, 48, line ? Math.round(width * 0.45) : width, 24, false);
  const issueX = Math.ceil(48 + measure(by, 24, false) + 20);
  const issue = line ? place(line.text, issueX, 48 + width - issueX, 24, false) : '';
  const curveTitle = place(labels.kreditCurve, chart.left, chart.right - chart.left, 22, true);
  const footer = place(`Deck Library · ${sheet.slug ?? labels.aDeckCode}`, 1152, 1152 - chart.left, 16, false, 'end');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}" font-family="${familiesFor(sheet.language)}">
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="#16181b"/>
<rect width="${IMAGE_WIDTH}" height="10" fill="#e0705f"/>
<text x="48" y="86" font-size="46" font-weight="700" fill="#ffffff">${e(title)}</text>
<text x="48" y="130" font-size="24" fill="#a3a8ad">${e(by)}</text>
${issue ? `<text x="${issueX}" y="130" font-size="24" fill="${line?.fill}">${e(issue)}</text>\n` : ''}<line x1="48" x2="1152" y1="158" y2="158" stroke="#343a40" stroke-width="2"/>
${list}
<text x="${chart.left}" y="200" font-size="22" font-weight="700" fill="#eceae6">${e(curveTitle)}</text>
${bars}
<text x="1152" y="612" text-anchor="end" font-size="16" fill="#5b6168">${e(footer)}</text>
</svg>`;
  return { svg, texts };
}

/** The image's SVG. */
export const deckImageSvg = (sheet: DeckSheet, measure: Measure): string => deckImageLayout(sheet, measure).svg;
