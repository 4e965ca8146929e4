/**
 * The deck image's layout (contract §9.3), pure: a 1200×630 SVG of the deck — name, factions, author,
 * the cards by kredit cost with copies, the kredit curve — in the font the function ships (Inter,
 * png.ts). Every deck string is drawn as text (escaped for XML). png.ts renders it.
 */
import { type DeckSheet, escapeMarkup as e, groupHeading } from './sheet.ts';

export const IMAGE_WIDTH = 1200;
export const IMAGE_HEIGHT = 630;
export const IMAGE_FONT = 'Inter';

const LIST = { left: 48, top: 196, right: 800, bottom: 598, row: 25 } as const;
const ROWS = Math.floor((LIST.bottom - LIST.top) / LIST.row);

/** `s` cut to what fits `width` pixels at `size` (Inter's average advance, a little generous), with an ellipsis. */
function clipped(s: string, width: number, size: number): string {
  const max = Math.floor(width / (size * 0.56));
  return s.length <= max ? s : `${s.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
}

type Row = { kind: 'group'; text: string } | { kind: 'card'; count: number; name: string } | { kind: 'gap' };

export function deckImageSvg(sheet: DeckSheet): string {
  const rows: Row[] = [];
  for (const g of sheet.groups) {
    // A cost's heading never ends a column: it starts the next one with its cards.
    if (rows.length % ROWS === ROWS - 1) rows.push({ kind: 'gap' });
    rows.push({ kind: 'group', text: groupHeading(g) });
    for (const c of g.cards) rows.push({ kind: 'card', count: c.count, name: c.name });
  }
  const columns = Math.min(3, Math.max(1, Math.ceil(rows.length / ROWS)));
  const colWidth = (LIST.right - LIST.left) / columns;
  const shown = rows.slice(0, ROWS * columns);
  if (rows.length > shown.length) shown[shown.length - 1] = { kind: 'group', text: `… and ${rows.length - shown.length + 1} more` };
  const list = shown
    .map((r, i) => {
      const x = LIST.left + Math.floor(i / ROWS) * colWidth;
      const y = LIST.top + (i % ROWS) * LIST.row;
      if (r.kind === 'gap') return '';
      if (r.kind === 'group') return `<text x="${x}" y="${y}" font-size="17" font-weight="700" fill="#e0705f">${e(r.text)}</text>`;
      return `<text x="${x}" y="${y}" font-size="19" fill="#eceae6"><tspan font-weight="700">${r.count}×</tspan> ${e(clipped(r.name, colWidth - 44, 19))}</text>`;
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
      return `<rect x="${x}" y="${chart.bottom - h}" width="${Math.max(4, Math.round(step * 0.7))}" height="${h}" rx="4" fill="#e0705f"/><text x="${cx}" y="${chart.bottom - h - 8}" text-anchor="middle" font-size="18" fill="#eceae6">${count}</text><text x="${cx}" y="${chart.bottom + 26}" text-anchor="middle" font-size="18" fill="#a3a8ad">${kredits}</text>`;
    })
    .join('');
  const byline = [`by ${sheet.author}`, sheet.system, `${sheet.cardCount} cards`].filter(Boolean).join(' · ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}" font-family="${IMAGE_FONT}">
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="#16181b"/>
<rect width="${IMAGE_WIDTH}" height="10" fill="#e0705f"/>
<text x="48" y="86" font-size="46" font-weight="700" fill="#ffffff">${e(clipped(sheet.name, 1100, 46))}</text>
<text x="48" y="130" font-size="24" fill="#a3a8ad">${e(clipped(byline, 1100, 24))}</text>
<line x1="48" x2="1152" y1="158" y2="158" stroke="#343a40" stroke-width="2"/>
${list}
<text x="${chart.left}" y="200" font-size="22" font-weight="700" fill="#eceae6">Kredit curve</text>
${bars}
<text x="1152" y="612" text-anchor="end" font-size="16" fill="#5b6168">Deck Library · ${e(sheet.slug)}</text>
</svg>`;
}
