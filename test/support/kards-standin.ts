/**
 * A local stand-in for the KARDS GraphQL endpoint (https://api.kards.com/graphql: no network here). It
 * answers the `cards` query in the official shape as recorded in
 * ../shared/reference/kards/kards_api_baseline.kardscm.json — nodes with cardId, id, importId, json,
 * reserved, imageUrl, thumbUrl; json with its title per locale — 20 a page by `offset`, over the real
 * English catalogue of ../shared (read at test time, never copied). Titles in other languages are the
 * stand-in's own inventions (German, Russian and Chinese scripts), so the names a fetch gives are known.
 * It can fail a page, answer one short, hold a malformed node, or lose a card between two pages, as a test asks.
 * It omits the endpoint's other queries, its rate limits and its own changes of shape.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KARDS_LOCALES } from '#rules/kards-graphql.ts';
import { REAL_CATALOGUE_FILE } from './shared.ts';

interface RealCard {
  id: string;
  importId: string;
  name: string;
  nation: string;
  type: string;
  rarity: string;
  set: string;
  kredits: number;
  exile: string | null;
  reserved: boolean;
}

/** A script's letters for A–Z: how the stand-in writes its titles in the languages of other scripts. */
const letters = (alphabet: string) => Object.fromEntries([...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, [...alphabet][i] as string]));
const CYRILLIC = letters('АБЦДЕФГХИЙКЛМНОПКРСТУВШХЫЗ');
const KATAKANA = letters('アイウエオカキクケコサシスセソタチツテトナニヌネノハ');
const TRADITIONAL = letters('國體學會說話書車門開關電長東馬鳥魚龍風雲黃葉讀寫聽齊');
const spell = (name: string, script: Record<string, string>) => [...name.toUpperCase()].map((c) => script[c] ?? c).join('');
/** Titles the stand-in gives, by locale (the endpoint's locale keys: en-EN as its image URLs show, and others alike): one for each of the game's 12 languages. */
export const standInTitles = (name: string): Record<string, string> => ({
  'en-EN': name,
  'de-DE': `${name} (DE)`,
  'es-ES': `${name} (ES)`,
  'fr-FR': `${name} (FR)`,
  'it-IT': `${name} (IT)`,
  'ja-JP': spell(name, KATAKANA),
  'ko-KR': [...name.toUpperCase()].map((c) => (/[A-Z]/.test(c) ? String.fromCodePoint(0xac00 + (c.charCodeAt(0) - 65) * 84) : c)).join(''),
  'pl-PL': `${name} (PL)`,
  'pt-BR': `${name} (PT)`,
  'ru-RU': spell(name, CYRILLIC),
  'zh-Hans': [...name.toUpperCase()].map((c) => (/[A-Z]/.test(c) ? String.fromCodePoint(0x4e00 + c.charCodeAt(0) * 7) : c)).join(''),
  'zh-Hant': spell(name, TRADITIONAL),
});

/** The locale of each `language` a request may ask for: a language (as kards.com's pages name them) or a locale itself. */
const LOCALE_OF: Record<string, string> = { ...KARDS_LOCALES, 'zh-Hans': 'zh-Hans' };

export interface StandInFaults {
  /** Every request for this offset answers 500. */
  failAt?: number;
  /** The request for this offset answers 503 this many times, then the page. */
  flakyAt?: { offset: number; times: number };
  /** The page at this offset holds one card fewer than it should. */
  shortAt?: number;
  /** The card at this index has a nation the project cannot map. */
  malformedAt?: number;
  /** The card at this index with these node fields, and these json fields, in place of its own (hostile values). */
  patch?: { at: number; node?: Record<string, unknown>; json?: Record<string, unknown> };
  /**
   * How titles come: every locale the stand-in has in each answer (`every`, the default), or only the
   * `language` asked and English (`asked`: how AABur/kardscm reads it, `title.<locale>` of the language it asked).
   */
  titles?: 'every' | 'asked';
  /** The locales it has titles in (default: all 12 of standInTitles); a language it lacks is one an endpoint truly lacks. */
  locales?: readonly string[];
  /**
   * The card at index `at` removed upstream once this many requests are answered (a card leaving the listing while a
   * client pages it: every later page starts a card later, and the card at the next page's boundary slides back
   * onto a page the client has read).
   */
  removeAfter?: { requests: number; at: number };
  /**
   * A listing that shifts in every pass: the pages before `offset` list every card, the pages from it on list them
   * without the card at index `at` (and count one fewer) — a card that leaves between two pages of each pass.
   */
  shiftsEachPass?: { at: number; offset: number };
}

export interface StandIn {
  url: string;
  cards: RealCard[];
  requests: number;
  /** The `language` of each request, in order. */
  languages: string[];
  close(): Promise<void>;
}

export async function startKardsStandIn(faults: StandInFaults = {}): Promise<StandIn> {
  const cards = JSON.parse(readFileSync(REAL_CATALOGUE_FILE, 'utf8')) as RealCard[];
  let flaky = faults.flakyAt?.times ?? 0;
  const nodeOf = (c: RealCard, i: number, language: string) => {
    const node = plainNodeOf(c, i, language);
    if (i !== faults.patch?.at) return node;
    return { ...node, ...faults.patch.node, json: { ...node.json, ...faults.patch.json } };
  };
  /** A card's titles as an answer in `language` carries them. */
  const titlesIn = (name: string, language: string) => {
    const all = standInTitles(name);
    const asked = LOCALE_OF[language] ?? language;
    return Object.fromEntries(
      Object.entries(all).filter(
        ([locale]) =>
          (faults.locales ?? Object.keys(all)).includes(locale) && (faults.titles !== 'asked' || locale === 'en-EN' || locale === asked),
      ),
    );
  };
  const plainNodeOf = (c: RealCard, i: number, language: string) => ({
    __typename: 'Card',
    id: Buffer.from(`Card:${i + 1}`).toString('base64'),
    cardId: c.id,
    importId: c.importId,
    reserved: c.reserved,
    imageUrl: `/images/card/v48/en-EN/${c.id}.avif`,
    thumbUrl: `/images/card/v48/en-EN/thumb/${c.id}.avif`,
    json: {
      id: c.id,
      import_id: c.importId,
      title: titlesIn(c.name, language),
      text: { 'en-EN': '' },
      faction: i === faults.malformedAt ? 'Atlantis' : c.nation,
      type: c.type,
      rarity: c.rarity,
      set: c.set,
      kredits: c.kredits,
      reserved: c.reserved,
      image: `${c.id}.avif`,
      ...(c.exile ? { exile: c.exile } : {}),
    },
  });
  const standIn: StandIn = { url: '', cards, requests: 0, languages: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (faults.removeAfter && standIn.requests === faults.removeAfter.requests) {
        cards.splice(faults.removeAfter.at, 1);
        faults.removeAfter = undefined;
      }
      standIn.requests++;
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const { query, variables } = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
        query?: string;
        variables?: { offset?: number; language?: string };
      };
      if (req.method !== 'POST' || !query?.includes('cards(')) return answer(400, { errors: [{ message: 'Must provide query string.' }] });
      const offset = variables?.offset ?? 0;
      if (offset === faults.failAt) return answer(500, { errors: [{ message: 'Internal Server Error' }] });
      if (offset === faults.flakyAt?.offset && flaky > 0) {
        flaky--;
        return answer(503, { errors: [{ message: 'Service Unavailable' }] });
      }
      const language = variables?.language ?? 'en';
      standIn.languages.push(language);
      const shift = faults.shiftsEachPass;
      const listed = shift && offset >= shift.offset ? cards.filter((_, i) => i !== shift.at) : cards;
      const page = listed.slice(offset, offset + 20).map((c, i) => nodeOf(c, offset + i, language));
      answer(200, {
        data: {
          cards: {
            __typename: 'CardConnection',
            pageInfo: { __typename: 'PageInfo', count: listed.length, hasNextPage: offset + 20 < listed.length },
            edges: (offset === faults.shortAt ? page.slice(1) : page).map((node) => ({ __typename: 'CardEdge', node })),
          },
        },
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  standIn.close = () => new Promise((ok) => server.close(() => ok()));
  return standIn;
}
