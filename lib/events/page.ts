/**
 * An event's page (contract §13.4), `/e/{event_id}`: its rules and deadline for people and, once its lists are public
 * (open lists, after the deadline), each entry's decks — nations, archetype, code, and links to the deck's page and
 * image. Every string a person wrote (names, description, reasons) is escaped; long ones wrap in their box. No script;
 * its one style sheet runs by its hash. Never cached (it changes at the deadline, and with every submission's count).
 */
import { createHash } from 'node:crypto';
import { endpoint } from '#http/types.ts';
import { htmlPage } from '#public/html.ts';
import { EVENT_ROUTES as R } from '#routes/events.ts';
import { factionById } from '#rules/factions.ts';
import { escapeMarkup as e } from '#share/markup.ts';
import { documentClient } from '#store/client.ts';
import type { StoredEntry, StoredEvent } from '#store/items/event.ts';
import { deckLinks, entriesOf, eventOf, listsPublic, lockedAt } from './answers.ts';

const STYLE = `:root{color-scheme:light dark;--bg:#f6f4ef;--fg:#1d1f21;--muted:#5b6168;--card:#fff;--line:#d9d5cc;--accent:#8a2b1f}
@media (prefers-color-scheme:dark){:root{--bg:#16181b;--fg:#eceae6;--muted:#a3a8ad;--card:#1f2226;--line:#343a40;--accent:#e0705f}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1100px;margin:0 auto;padding:16px}header{border-bottom:3px solid var(--accent);margin-bottom:16px}
h1{margin:0 0 4px;font-size:1.8rem;overflow-wrap:anywhere}h2{font-size:1.15rem;margin:0 0 8px;overflow-wrap:anywhere}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin-bottom:16px}
.desc{white-space:pre-wrap;overflow-wrap:anywhere}.muted{color:var(--muted)}dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:0}dt{font-weight:700}dd{margin:0;overflow-wrap:anywhere}
.decks{list-style:none;margin:0;padding:0}.decks li{padding:6px 0;border-top:1px solid var(--line)}.decks li:first-child{border-top:0}
code{display:block;overflow-wrap:anywhere;font-size:.85rem}a{color:var(--accent);margin-right:16px}.dq{color:#c0392b;overflow-wrap:anywhere}.hash{font-size:.75rem;color:var(--muted);overflow-wrap:anywhere}
@media (max-width:720px){h1{font-size:1.45rem}main{padding:10px}}`;

const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)} · Deck Library</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

/** A time as people read it: `2026-12-05 12:00:00 UTC`. */
const utc = (time: string) => time.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
const FORMAT_NAMES = { standard: 'Standard', pauper: 'Pauper', singleton: 'Singleton', monodeck: 'Monodeck' } as const;
const nation = (id: string) => factionById(id)?.name ?? id;

function entrySection(event: StoredEvent, entry: StoredEntry): string {
  const decks = entry.decks
    .map((d) => {
      const links = deckLinks(d.deck_code);
      const archetype = d.archetype ? ` · ${e(d.archetype.name)}` : '';
      return `<li><strong>${e(nation(d.main_faction))}</strong> + ${e(nation(d.ally_faction))}${archetype}<code>${e(d.deck_code)}</code><a href="${e(links.page)}">Deck page</a><a href="${e(links.image)}">Image</a></li>`;
    })
    .join('');
  const dq = entry.disqualified ? `<p class="dq">Disqualified: ${e(entry.disqualified.reason)}</p>` : '';
  const older = entry.rules_version === event.rules_version ? '' : '<p class="dq">Checked under the event’s earlier rules</p>';
  return `<section class="entry"><h2>${e(entry.display_name)}</h2>${dq}${older}<ul class="decks">${decks}</ul><p class="hash">Lock hash ${e(entry.lock_hash)}</p></section>`;
}

/** The page of an event: its lists when `entries` are given (they are public). */
export function eventPageHtml(event: StoredEvent, entries: readonly StoredEntry[] | undefined, now: Date): string {
  const open = now.getTime() < Date.parse(event.deadline);
  const rules = `<dl><dt>Format</dt><dd>${FORMAT_NAMES[event.format]}</dd><dt>Card pool</dt><dd>${e(event.pool_date)}</dd><dt>Decks a player</dt><dd>${event.decks_per_player}${event.distinct_mains ? ', different main nations' : ''}</dd><dt>Deadline</dt><dd><time datetime="${e(event.deadline)}">${e(utc(event.deadline))}</time>${open ? ' (submissions open)' : ' (closed)'}</dd><dt>Organizer</dt><dd>${e(event.organizer_name)}</dd></dl>`;
  const lists =
    entries === undefined
      ? `<section><p class="muted">${
          event.lists === 'closed'
            ? 'The lists of this event are its organizer’s alone.'
            : `The lists are shown here once the entries are locked, at ${e(utc(lockedAt(event)))}.`
        }</p></section>`
      : entries.length === 0
        ? '<section><p class="muted">No entries.</p></section>'
        : `<h2>Lists (${entries.length})</h2>${entries.map((entry) => entrySection(event, entry)).join('')}`;
  const description = event.description ? `<p class="desc">${e(event.description)}</p>` : '';
  return page(event.name, `<header><h1>${e(event.name)}</h1></header><section>${description}${rules}</section>${lists}`);
}

const NOT_FOUND = page('Event not found', '<header><h1>Event not found</h1></header><section><p>No event has this link.</p></section>');
const html = (status: 200 | 404, body: string) => htmlPage(status, body, { 'content-security-policy': CSP });

export const readEventPage = endpoint(R.readEventPage, { init: [documentClient], htmlError: () => html(404, NOT_FOUND) }, async (req) => {
  const now = new Date();
  const event = await eventOf(req.params.event_id);
  const entries = listsPublic(event, now) ? await entriesOf(event, now) : undefined;
  return html(200, eventPageHtml(event, entries, now));
});
