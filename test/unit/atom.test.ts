/** The Atom writer (lib/share/atom.ts): what XML refuses is dropped and markup stays text, so that any feed parses. */
import fc from 'fast-check';
import { parseAtomFeed } from 'feedsmith';
import { describe, expect, it } from 'vitest';
import { type AtomEntry, atomFeed } from '#share/atom.ts';

const feedWith = (text: string, entries: AtomEntry[] = []) =>
  atomFeed({
    id: 'https://decks.example/api/v1/decks/feed.atom',
    title: text,
    subtitle: text,
    self: 'https://decks.example/api/v1/decks/feed.atom',
    alternate: 'https://decks.example/',
    updated: '2026-11-30T00:00:00.000Z',
    author: text,
    generator: { name: 'Deck Library', uri: 'https://decks.example/' },
    entries,
  });
const entryWith = (text: string): AtomEntry => ({
  id: 'urn:uuid:3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
  title: text,
  updated: '2026-11-30T00:00:00.000Z',
  published: '2026-11-29T00:00:00.000Z',
  author: text,
  link: 'https://decks.example/d/abcdefABCDEF',
  summary: text,
  categories: [text],
});
/** What XML 1.0 keeps of a string (§2.2 Char), its line ends as a parser reads them (§2.11: CR LF and CR are LF). */
const xmlKept = (s: string) => s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '').replace(/\r\n?/g, '\n');

describe('atomFeed', () => {
  it('drops controls, lone surrogates and U+FFFE/FFFF, and keeps markup as text', () => {
    const hostile = 'a\u0000b\u0008c\u000bd\ud800e\udfff f\ufffe\uffff <script>&amp;"\'</script> ]]> 🂡';
    const feed = parseAtomFeed(feedWith(hostile, [entryWith(hostile)]));
    const kept = 'abcde f <script>&amp;"\'</script> ]]> 🂡';
    expect(feed.authors?.[0]?.name).toBe(kept);
    expect(feed.entries?.[0]?.authors?.[0]?.name).toBe(kept);
    expect(feed.entries?.[0]?.categories?.[0]?.term).toBe(kept);
  });

  it('parses with any text at all, every string coming back as XML keeps it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const feed = parseAtomFeed(feedWith(text, [entryWith(text)]));
        expect(feed.entries?.[0]?.authors?.[0]?.name ?? '').toBe(xmlKept(text).trim());
      }),
      { numRuns: 100 },
    );
  });
});
