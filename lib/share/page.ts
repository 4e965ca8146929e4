/**
 * The share page of a deck (contract §9.3), pure: HTML for people, and the head unfurlers read (Open
 * Graph, Twitter). Every deck string is escaped (escapeMarkup); charts are inline SVG drawn with
 * presentation attributes (no style attribute, no script); the one script (the copy button) and the one
 * style sheet run by their hashes under the page's Content-Security-Policy: nothing inline runs
 * unless it is exactly these, nothing loads from another host.
 */
import { createHash } from 'node:crypto';
import { IMAGE_SIZES } from '#rules/image-sizes.ts';
import { type Labels, labelsFor } from '#rules/labels.ts';
import { escapeMarkup as e } from './markup.ts';
import { type DeckSheet, groupHeading, type SheetCard } from './sheet.ts';

/** Where the page's links point: absolute, on the host the request came to. */
export interface PageUrls {
  page: string;
  json: string;
  /** The wide image (a person's link to it). */
  image: string;
  /** The image link previews show (og:image, twitter:image): at an embed's size, readable 400 px wide (contract §12.5). */
  preview: string;
  /** Decks like this one (its code's: GET /api/v1/codes/{code}/similar), which the page's script lists under the deck. */
  similar: string;
  /** A share page's URL but its slug: where each of them links. */
  deckPage: string;
  /** The Atom feed of the newest public decks of its main nation (a share page's: feed readers find it in the head). */
  feed?: string;
}

const STYLE = `:root{color-scheme:light dark;--bg:#f6f4ef;--fg:#1d1f21;--muted:#5b6168;--card:#fff;--line:#d9d5cc;--accent:#8a2b1f}
@media (prefers-color-scheme:dark){:root{--bg:#16181b;--fg:#eceae6;--muted:#a3a8ad;--card:#1f2226;--line:#343a40;--accent:#e0705f}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1100px;margin:0 auto;padding:16px}header{border-bottom:3px solid var(--accent);margin-bottom:16px}
h1{margin:0 0 4px;font-size:1.8rem}h2{font-size:1.15rem;margin:0 0 8px}h3{font-size:.95rem;margin:12px 0 4px;color:var(--muted)}
.by{color:var(--muted);margin:0 0 8px}.archetype{margin:0 0 8px;overflow-wrap:anywhere}.tags{display:flex;flex-wrap:wrap;gap:6px;padding:0;margin:0 0 12px;list-style:none}
.tags li{border:1px solid var(--line);border-radius:999px;padding:0 10px;font-size:.85rem}
.grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin-bottom:16px}
.cards ul{list-style:none;margin:0;padding:0}.cards li{display:flex;gap:8px;padding:2px 0;border-bottom:1px solid var(--line)}
.cards li{flex-wrap:wrap}.kind{order:9;flex-basis:100%;padding-left:calc(2.2em + 8px);font-size:.75rem;color:var(--muted)}
.n{min-width:2.2em;font-weight:700;color:var(--accent)}.played{margin-left:auto;align-self:center;font-size:.8rem;color:var(--muted);white-space:nowrap}.played+.ally{margin-left:0}.hint{margin:0;font-size:.85rem;color:var(--muted)}.ally{margin-left:auto;align-self:center;flex:none;font-size:.8rem;color:var(--muted);border:1px solid var(--line);border-radius:4px;padding:0 6px;white-space:nowrap}.chart{width:100%;height:auto;display:block}
.legend{list-style:none;padding:0;margin:8px 0 0}.legend li{display:flex;gap:8px;align-items:baseline}.legend svg{flex:none}
svg text{fill:currentColor}.desc{white-space:pre-wrap;overflow-wrap:anywhere}
code{display:block;overflow-wrap:anywhere;padding:8px;border:1px solid var(--line);border-radius:6px;margin-bottom:8px}
button{font:inherit;padding:6px 14px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}
.links a,#similar a{color:var(--accent);margin-right:16px}#similar li{padding:2px 0}.score{color:var(--muted);font-size:.85rem}.bad,.issues li{color:#c0392b}.rsv{align-self:center;flex:none;font-size:.75rem;font-weight:700;color:#b9770e;border:1px solid #b9770e;border-radius:4px;padding:0 4px}.ranked li{color:#b9770e}dl{margin:0}dt{font-weight:700}dd{margin:0 0 6px}
@media (max-width:720px){.grid{grid-template-columns:minmax(0,1fr)}h1{font-size:1.45rem}main{padding:10px}}`;

// Its words are the button's data attributes (the page's language): the script, hashed for the CSP, is one for every language.
// It also lists decks like this one under the deck (contract §12.3): fetched from this host by the deck's code, each
// drawn as text (a deck's name never becomes markup), the section shown only when there is one.
const SCRIPT = `document.getElementById('copy').addEventListener('click',function(){var b=this,c=document.getElementById('code');
var pick=function(){var r=document.createRange();r.selectNodeContents(c);var s=getSelection();s.removeAllRanges();s.addRange(r);b.textContent=b.dataset.select};
if(navigator.clipboard){navigator.clipboard.writeText(c.textContent).then(function(){b.textContent=b.dataset.copied},pick)}else{pick()}});
var like=document.getElementById('similar');if(like&&window.fetch){fetch(like.dataset.src).then(function(r){return r.ok?r.json():null}).then(function(j){var d=j&&j.data;if(!d||!d.length)return;var o=like.querySelector('ol');
d.forEach(function(x){var li=document.createElement('li'),a=document.createElement('a');a.href=like.dataset.page+encodeURIComponent(x.share_slug);a.textContent=x.name;li.appendChild(a);
var p=document.createElement('span');p.className='score';p.textContent=Math.round(x.score*100)+'%';li.appendChild(p);o.appendChild(li)});like.hidden=false},function(){})}`;

const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** What the page may do: its one style sheet and one script by hash, images from this host (and its empty data: icon), never framed. */
export const SHARE_PAGE_CSP = [
  "default-src 'none'",
  `script-src ${hash(SCRIPT)}`,
  `style-src ${hash(STYLE)}`,
  "img-src 'self' data:",
  // Decks like this one, fetched from this host.
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PALETTE = ['#c0392b', '#2471a3', '#1e8449', '#b9770e', '#7d3c98', '#117a65', '#a04000', '#2e4053'];

/** The kredit curve as bars with their counts. */
function curveChart(sheet: DeckSheet, labels: Labels): string {
  const { curve } = sheet;
  const width = 360;
  const height = 180;
  const bottom = 150;
  const most = Math.max(1, ...curve.map((c) => c.count));
  const step = width / curve.length;
  const bars = curve
    .map(({ kredits, count }, i) => {
      const h = Math.round((count / most) * 120);
      const x = Math.round(i * step + step * 0.15);
      const w = Math.max(4, Math.round(step * 0.7));
      const cx = Math.round(i * step + step / 2);
      return `<rect x="${x}" y="${bottom - h}" width="${w}" height="${h}" rx="3" fill="#8a2b1f"/><text x="${cx}" y="${bottom - h - 6}" text-anchor="middle" font-size="13">${count}</text><text x="${cx}" y="${bottom + 18}" text-anchor="middle" font-size="13">${kredits}</text>`;
    })
    .join('');
  return `<svg id="curve" class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="curve-title"><title id="curve-title">${e(labels.kreditCurveAlt)}</title>${bars}</svg>`;
}

/** Type counts as horizontal bars. */
function typeChart(sheet: DeckSheet, labels: Labels): string {
  const types = sheet.types.filter((t) => t.count > 0);
  const most = Math.max(1, ...types.map((t) => t.count));
  const row = 24;
  const bars = types
    .map(({ type, count }, i) => {
      const y = i * row + 4;
      const w = Math.round((count / most) * 200);
      return `<text x="0" y="${y + 15}" font-size="13">${e(labels.type[type])}</text><rect x="120" y="${y + 3}" width="${w}" height="16" rx="3" fill="#2471a3"/><text x="${126 + w}" y="${y + 15}" font-size="13">${count}</text>`;
    })
    .join('');
  return `<svg id="types" class="chart" viewBox="0 0 360 ${types.length * row + 8}" role="img" aria-labelledby="types-title"><title id="types-title">${e(labels.typesAlt)}</title>${bars}</svg>`;
}

/** The OTK chart: each item's chance by cards drawn (1–39), with a legend. */
function otkChart(sheet: DeckSheet, labels: Labels): string {
  if (sheet.otk.length === 0) return '';
  const [w, h, left, top, bottom] = [400, 220, 34, 10, 190];
  const x = (n: number) => (left + ((n - 1) / 38) * (w - left - 10)).toFixed(1);
  const y = (p: number) => (bottom - p * (bottom - top)).toFixed(1);
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (p) =>
        `<line x1="${left}" x2="${w - 10}" y1="${y(p)}" y2="${y(p)}" stroke="#888" stroke-width="0.5"/><text x="${left - 4}" y="${Number(y(p)) + 4}" text-anchor="end" font-size="10">${p * 100}%</text>`,
    )
    .join('');
  const ticks = [1, 10, 20, 30, 39]
    .map((n) => `<text x="${x(n)}" y="${bottom + 14}" text-anchor="middle" font-size="10">${n}</text>`)
    .join('');
  const lines = sheet.otk
    .map((item, i) => {
      const points = item.by_draws.map((p, k) => `${x(k + 1)},${y(p)}`).join(' ');
      return `<polyline points="${points}" fill="none" stroke="${PALETTE[i % PALETTE.length]}" stroke-width="2"/>`;
    })
    .join('');
  const legend = sheet.otk
    .map(
      (item, i) =>
        `<li><svg class="swatch" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/></svg> ${e(item.label)} — ${e(labels.otkLegend(item.required, item.pool_copies, `${(100 * (item.by_draws[9] ?? 0)).toFixed(1)}%`))}</li>`,
    )
    .join('');
  return `<section><h2>${e(labels.otkChart)}</h2><svg id="otk" class="chart" viewBox="0 0 ${w} ${h}" role="img" aria-labelledby="otk-title"><title id="otk-title">${e(labels.otkAlt)}</title>${grid}${ticks}${lines}</svg><ul class="legend">${legend}</ul></section>`;
}

function reasonedList(title: string, items: DeckSheet['keyComponents'], labels: Labels): string {
  if (items.length === 0) return '';
  const rows = items
    .map((i) => `<dt>${e(i.name)}${i.replaces ? ` ${e(labels.replaces(i.replaces))}` : ''}</dt><dd>${e(i.reason) || '—'}</dd>`)
    .join('');
  return `<section><h2>${e(title)}</h2><dl>${rows}</dl></section>`;
}

/**
 * The og:description: what a player wants before clicking — factions and system, the kredit curve (copies
 * at each cost), the cards the deck is built around (up to three), the card count. The title says the
 * deck's name and author; this says the rest.
 */
export function shareSummary(sheet: DeckSheet): string {
  const labels = labelsFor(sheet.language);
  const curve = sheet.curve.length ? `${labels.summaryCurve} ${sheet.curve.map((c) => `${c.kredits}:${c.count}`).join(' ')}` : '';
  const key = sheet.keyCards.length
    ? `${labels.summaryKeyCards} ${sheet.keyCards.slice(0, 3).join(', ')}${sheet.keyCards.length > 3 ? ` +${sheet.keyCards.length - 3}` : ''}`
    : '';
  return [`${sheet.main} / ${sheet.ally}`, sheet.system, curve, key, labels.cards(sheet.cardCount)].filter(Boolean).join(' · ');
}

const head = (title: string, extra: string, language = 'en') => `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
${extra}<style>${STYLE}</style>
</head>`;

/**
 * What breaks the deck rules against the catalogue today (contract §8.6): none for a legal deck; and the cards
 * of the Reserve pool that keep it out of ranked play (§11.5).
 */
const issuesOf = (sheet: DeckSheet, labels: Labels): string =>
  (sheet.issues.length
    ? `<section class="issues"><h2>${e(labels.notLegal)}</h2><ul>${sheet.issues.map((i) => `<li>${e(i)}</li>`).join('')}</ul></section>\n`
    : '') +
  (sheet.reserved.length
    ? `<section class="ranked"><h2>${e(labels.notRanked)}</h2><p class="hint">${e(labels.reserveHint)}</p><ul>${sheet.reserved.map((name) => `<li>${e(name)}</li>`).join('')}</ul></section>\n`
    : '');

export function sharePage(sheet: DeckSheet, urls: PageUrls): string {
  const labels = labelsFor(sheet.language);
  const title = sheet.author === null ? labels.codeTitle(sheet.name) : labels.byAuthor(sheet.name, sheet.author);
  const meta = [
    sheet.noindex ? '<meta name="robots" content="noindex">' : '',
    `<meta name="description" content="${e(shareSummary(sheet))}">`,
    `<meta property="og:site_name" content="Deck Library">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${e(title)}">`,
    `<meta property="og:description" content="${e(shareSummary(sheet))}">`,
    `<meta property="og:url" content="${e(urls.page)}">`,
    // One picture for every preview (Discord's "Link Previews" docs: two og:image tags are a gallery): the one its
    // embed shows readable. The wide one is the page's own link to its image.
    `<meta property="og:image" content="${e(urls.preview)}">`,
    `<meta property="og:image:type" content="image/png">`,
    `<meta property="og:image:width" content="${IMAGE_SIZES.embed.width}">`,
    `<meta property="og:image:height" content="${IMAGE_SIZES.embed.height}">`,
    `<meta property="og:image:alt" content="${e(labels.imageAlt(title))}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    `<meta name="twitter:title" content="${e(title)}">`,
    `<meta name="twitter:description" content="${e(shareSummary(sheet))}">`,
    `<meta name="twitter:image" content="${e(urls.preview)}">`,
    // Its title names the nation in the page's language and the format, no word of its own to translate.
    urls.feed
      ? `<link rel="alternate" type="application/atom+xml" title="${e(`Deck Library · ${sheet.main} (Atom)`)}" href="${e(urls.feed)}">`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
  const groups = sheet.groups
    .map(
      (g) =>
        `<h3>${e(groupHeading(g, sheet.language))}</h3><ul>${g.cards
          .map(
            (c) =>
              `<li${c.flagged ? ` class="bad" title="${e(labels.ruleFails)}"` : ''}><span class="n">${c.count}×</span><span>${e(c.name)}</span>${c.reserved ? `<span class="rsv" title="${e(labels.reserveTitle)}">${e(labels.reserveMark)}</span>` : ''}${playedOf(c, sheet, labels)}${c.ally ? `<span class="ally" title="${e(labels.allyLimit)}">${e(sheet.ally)}</span>` : ''}${kindOf(c, labels)}</li>`,
          )
          .join('')}</ul>`,
    )
    .join('');
  const tags = sheet.tags.length ? `<ul class="tags">${sheet.tags.map((t) => `<li>${e(t)}</li>`).join('')}</ul>` : '';
  const guide =
    sheet.system || sheet.description
      ? `<section><h2>${e(labels.guide)}${sheet.system ? `: ${e(sheet.system)}` : ''}</h2>${sheet.description ? `<p class="desc">${e(sheet.description)}</p>` : ''}</section>`
      : '';
  return `${head(e(title), `${meta}\n`, e(sheet.language))}
<body>
<main>
<header>
<h1>${e(sheet.name)}</h1>
<p class="by">${sheet.author === null ? '' : `${e(labels.by(sheet.author))} · `}${e(labels.mainAlly(sheet.main, sheet.ally))} · ${e(labels.cards(sheet.cardCount))}</p>
${
  sheet.archetype === null
    ? ''
    : `<p class="archetype">${e(labels.archetype)}: <strong>${e(sheet.archetype)}</strong></p>
`
}${tags}</header>
${issuesOf(sheet, labels)}
<div class="grid">
<section class="cards"><h2>${e(labels.cardsByKredits)}</h2>${playedHint(sheet, labels)}${groups}</section>
<div>
<section><h2>${e(labels.kreditCurve)}</h2>${curveChart(sheet, labels)}<h2>${e(labels.types)}</h2>${typeChart(sheet, labels)}</section>
${otkChart(sheet, labels)}
</div>
</div>
${guide}${reasonedList(labels.keyComponents, sheet.keyComponents, labels)}${reasonedList(labels.alternatives, sheet.alternatives, labels)}
<section><h2>${e(labels.deckCode)}</h2><code id="code">${e(sheet.code)}</code><button id="copy" type="button" data-copied="${e(labels.copied)}" data-select="${e(labels.selectToCopy)}">${e(labels.copy)}</button></section>
<section id="similar" hidden data-src="${e(urls.similar)}" data-page="${e(urls.deckPage)}"><h2>${e(labels.similar)}</h2><ol></ol></section>
<p class="links"><a href="${e(urls.json)}">${e(labels.asJson)}</a><a href="${e(urls.image)}">${e(labels.itsImage)}</a></p>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** A card's type and rarity, in a line of its own under it (none for a card the catalogue no longer has). */
const kindOf = (c: SheetCard, labels: Labels) =>
  c.type && c.rarity ? `<small class="kind">${e(labels.type[c.type])} · ${e(labels.rarity[c.rarity])}</small>` : '';

/** How many of the library's public decks of the main nation play a card (contract §10.3): "in N%". */
const percent = (share: number) => `${Math.round(share * 100)}%`;
const playedOf = (c: SheetCard, sheet: DeckSheet, labels: Labels) =>
  c.played === null
    ? ''
    : `<span class="played" title="${e(labels.playedTitle(percent(c.played), sheet.main))}">${percent(c.played)}</span>`;
const playedHint = (sheet: DeckSheet, labels: Labels) =>
  sheet.playedOver === null ? '' : `<p class="hint">${e(labels.playedHint(sheet.playedOver, sheet.main))}</p>`;

/** The page for a slug no one may see (private, unknown or malformed): nothing tells them apart. */
export const NOT_FOUND_PAGE = `${head('Deck not found · Deck Library', '<meta name="robots" content="noindex">\n')}
<body>
<main>
<header><h1>Deck not found</h1></header>
<section><p>No public or unlisted deck has this link. It may have been made private or deleted.</p></section>
</main>
</body>
</html>
`;

/** The page for a code that does not parse (contract §10.2): what is wrong with it, and where, for a person. */
export const badCodePage = (
  message: string,
): string => `${head('Not a deck code · Deck Library', '<meta name="robots" content="noindex">\n')}
<body>
<main>
<header><h1>Not a deck code</h1></header>
<section><p>${e(message)}</p>
<p>A KARDS deck code looks like <code>%%45|2H…;2B2C…;…;…</code>; in a link, <code>45-2H…-2B2C…-…-…</code>.</p></section>
</main>
</body>
</html>
`;
