/**
 * An Atom feed (RFC 4287), pure: the feed's id, title, updated and self link, and each entry's id, title, updated,
 * author, alternate link and summary (text) — the elements §4.1.1 and §4.1.2 require of a feed and an entry, and
 * those a reader shows. Every string goes through escapeMarkup: what XML refuses dropped, markup's characters escaped.
 * Written by hand rather than by a feed library: this fixed shape is some 40 lines, a generator bundles an XML writer.
 */
import { escapeMarkup } from './markup.ts';

export interface AtomEntry {
  /** A permanent IRI (RFC 4287 §4.2.6): `urn:uuid:<deck id>`. */
  id: string;
  title: string;
  /** RFC 3339 times. */
  updated: string;
  published: string;
  author: string;
  /** The entry's page for people (rel="alternate"). */
  link: string;
  /** Plain text. */
  summary: string;
  /** Category terms (tags, an archetype). */
  categories: string[];
}

export interface AtomFeed {
  /** A permanent IRI: the feed's own canonical URL. */
  id: string;
  title: string;
  subtitle: string;
  /** The feed's URL (rel="self") and a page for people (rel="alternate"). */
  self: string;
  alternate: string;
  /** When the newest entry changed (RFC 3339); a feed with none says when it was read. */
  updated: string;
  /** The feed's author: an entry's own author stands for its entry (§4.1.1 asks one of a feed whose entries may be none). */
  author: string;
  /** The generator's name and URI (§4.2.4). */
  generator: { name: string; uri: string };
  entries: AtomEntry[];
}

const e = escapeMarkup;

const entryXml = (x: AtomEntry): string =>
  [
    '  <entry>',
    `    <id>${e(x.id)}</id>`,
    `    <title type="text">${e(x.title)}</title>`,
    `    <updated>${e(x.updated)}</updated>`,
    `    <published>${e(x.published)}</published>`,
    `    <author><name>${e(x.author)}</name></author>`,
    `    <link rel="alternate" type="text/html" href="${e(x.link)}"/>`,
    ...x.categories.map((term) => `    <category term="${e(term)}"/>`),
    `    <summary type="text">${e(x.summary)}</summary>`,
    '  </entry>',
  ].join('\n');

export const atomFeed = (f: AtomFeed): string =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${e(f.id)}</id>`,
    `  <title type="text">${e(f.title)}</title>`,
    `  <subtitle type="text">${e(f.subtitle)}</subtitle>`,
    `  <updated>${e(f.updated)}</updated>`,
    `  <author><name>${e(f.author)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${e(f.self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${e(f.alternate)}"/>`,
    `  <generator uri="${e(f.generator.uri)}">${e(f.generator.name)}</generator>`,
    ...f.entries.map(entryXml),
    '</feed>',
    '',
  ].join('\n');
