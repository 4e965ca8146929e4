/**
 * `deckctl catalogue fetch` (contract §10.1) against a local stand-in of the KARDS GraphQL endpoint that
 * answers in the recorded shape (test/support/kards-standin.ts): the whole catalogue over its pages,
 * each card named in the languages asked, every real code's cards found with the names the stand-in
 * gave; the runtime serves the file in those languages. A failing page, a short page or a malformed
 * card writes nothing and names what is wrong; a page that fails and then answers is retried.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogueFile } from '#catalogue/load.ts';
import { cardName } from '#rules/card.ts';
import { compileCatalogue, parseCatalogue } from '#rules/catalogue.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { CARDS_QUERY, cardsVariables, KARDS_LANGUAGES, KARDS_LOCALES } from '#rules/kards-graphql.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { escapeMarkup } from '#share/markup.ts';
import { deckctl } from '../support/deckctl.ts';
import { standInTitles, startKardsStandIn } from '../support/kards-standin.ts';
import { type Runtime, startRuntime, THROWAWAY } from '../support/runtime.ts';
import { hasRealCatalogue, hasRealCodes, KARDS_DIR, PROJECT_ROOT, type RealCode, realCodes } from '../support/shared.ts';

const dir = mkdtempSync(join(tmpdir(), 'catalogue-fetch-'));

/** The real Japan / United States deck, created public with the runtime's demo key: the code and its share slug. */
async function sharedRealDeck(runtime: Runtime): Promise<{ real: RealCode; slug: string }> {
  const demo = runtime.demo as { userId: string; apiKey: string };
  const real = realCodes().find((c) => c.key === 'jp-usa') as RealCode;
  const created = await fetch(`${runtime.baseUrl}/api/v1/users/${demo.userId}/decks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ deck_code: real.code, guide: { system: 'Tempo' }, visibility: 'public' }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  return { real, slug: ((await created.json()) as { data: { share_slug: string } }).data.share_slug };
}
const quick = { DECKCTL_BACKOFF_MS: '20' };

describe.skipIf(!hasRealCatalogue || !hasRealCodes)('deckctl catalogue fetch', () => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it('the stand-in answers in the recorded shape (node and json keys of the official endpoint)', async () => {
    const standIn = await startKardsStandIn();
    closing.push(standIn.close);
    const baseline = JSON.parse(readFileSync(join(KARDS_DIR, 'kards_api_baseline.kardscm.json'), 'utf8')) as {
      node_keys: string[];
      json_keys: Record<string, number>;
    };
    const res = await fetch(standIn.url, { method: 'POST', body: JSON.stringify({ query: CARDS_QUERY, variables: cardsVariables(0) }) });
    const edges = ((await res.json()) as { data: { cards: { edges: { node: Record<string, unknown> }[] } } }).data.cards.edges;
    expect(edges).toHaveLength(20);
    for (const { node } of edges) {
      expect(Object.keys(node).sort()).toEqual([...baseline.node_keys].sort());
      for (const key of Object.keys(node.json as object)) expect(Object.keys(baseline.json_keys)).toContain(key);
    }
  });

  it('fetches every page and names each card in the languages asked; every real code finds its cards with those names', async () => {
    // An endpoint that truly lacks Korean: asked for it in a pass of its own, still without it, reported and left out.
    const standIn = await startKardsStandIn({ locales: ['en-EN', 'de-DE', 'ru-RU', 'zh-Hans'] });
    closing.push(standIn.close);
    const out = join(dir, 'fetched.json');
    const run = await deckctl(
      ['catalogue', 'fetch', '--out', out, '--endpoint', standIn.url, '--languages', 'en,de,ru,zh,ko', '--json'],
      quick,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      file: out,
      cards: standIn.cards.length,
      languages: ['en', 'de', 'ru', 'zh'],
      left_out: ['ko'],
    });
    const pages = Math.ceil(standIn.cards.length / 20);
    // The English listing twice (two passes that agree), Korean's once (it lists the English one's cards).
    expect(standIn.requests).toBe(3 * pages);
    expect(new Set(standIn.languages)).toEqual(new Set(['en', 'ko']));
    const fetched = loadCatalogueFile(out);
    expect(fetched.cards).toHaveLength(standIn.cards.length);
    // The Reserve pool (the node's `reserved`) is kept: ranked legality reads it (contract §11.5).
    const reserved = (cards: readonly { reserved?: boolean }[]) => cards.filter((c) => c.reserved === true).length;
    expect(reserved(fetched.cards)).toBe(reserved(standIn.cards));
    expect(reserved(fetched.cards)).toBeGreaterThan(0);
    // Every card of every real code the catalogue has, with the stand-in's names in each language.
    let found = 0;
    for (const real of realCodes()) {
      for (const { code: card_id } of real.cards) {
        const source = standIn.cards.find((c) => c.importId === card_id);
        const card = fetched.get(card_id);
        expect(card === undefined, `${real.key} ${card_id}`).toBe(source === undefined);
        if (!card || !source) continue;
        found++;
        const titles = standInTitles(source.name);
        expect([card.name, cardName(card, 'de'), cardName(card, 'ru'), cardName(card, 'zh')]).toEqual([
          titles['en-EN'],
          titles['de-DE'],
          titles['ru-RU'],
          titles['zh-Hans'],
        ]);
      }
    }
    expect(found).toBeGreaterThan(300);
    // What synth ships (checked, compiled) loads to the same cards and languages.
    const compiled = parseCatalogue(JSON.parse(compileCatalogue(fetched)));
    expect([compiled.cards, compiled.languages]).toEqual([fetched.cards, fetched.languages]);

    // The same from a saved answer (--from): an operator without network on the deploying machine.
    const answers = [];
    for (let offset = 0; offset < standIn.cards.length; offset += 20)
      answers.push(
        await (
          await fetch(standIn.url, { method: 'POST', body: JSON.stringify({ query: CARDS_QUERY, variables: cardsVariables(offset) }) })
        ).json(),
      );
    const saved = join(dir, 'saved.json');
    writeFileSync(saved, JSON.stringify(answers));
    const fromSaved = join(dir, 'from-saved.json');
    const offline = await deckctl(['catalogue', 'fetch', '--out', fromSaved, '--from', saved, '--languages', 'en,de,ru,zh']);
    expect(offline.status, offline.stderr).toBe(0);
    expect(readFileSync(fromSaved, 'utf8')).toBe(readFileSync(out, 'utf8'));

    // npm start with that file: the cards answer in each language asked.
    const runtime = await startRuntime(mkdtempSync(join(tmpdir(), 'fetched-runtime-')), { ...THROWAWAY, CATALOGUE_FILE: out });
    closing.push(async () => void (await runtime.stop()));
    const sample = standIn.cards.find((c) => c.importId !== '') as (typeof standIn.cards)[number];
    for (const [lang, locale] of [
      ['de', 'de-DE'],
      ['ru', 'ru-RU'],
      ['zh', 'zh-Hans'],
      ['en', 'en-EN'],
      ['ja', 'en-EN'],
    ] as const) {
      const res = await fetch(`${runtime.baseUrl}/api/v1/cards/${sample.importId}?lang=${lang}`);
      const body = (await res.json()) as { data: { name: string } };
      expect([lang, body.data.name, res.headers.get('content-language')]).toEqual([
        lang,
        standInTitles(sample.name)[locale],
        // Japanese not fetched: labels in it, card names English (contract §12.5).
        lang === 'ja' ? 'ja, en' : lang,
      ]);
    }
    // A real deck, shared: its page and its image in Russian and Chinese names where asked, English otherwise.
    const { real, slug } = await sharedRealDeck(runtime);
    const card = standIn.cards.find((c) => c.importId === real.cards[0]?.code) as (typeof standIn.cards)[number];
    for (const [lang, locale] of [
      ['ru', 'ru-RU'],
      ['zh', 'zh-Hans'],
      ['', 'en-EN'],
    ] as const) {
      const page = await fetch(`${runtime.baseUrl}/d/${slug}${lang ? `?lang=${lang}` : ''}`);
      const html = await page.text();
      expect([lang, page.headers.get('content-language'), html.includes(escapeMarkup(standInTitles(card.name)[locale] as string))]).toEqual(
        [lang, lang || 'en', true],
      );
      const image = await fetch(`${runtime.baseUrl}/api/v1/decks/${slug}/image.png${lang ? `?lang=${lang}` : ''}`);
      expect([lang, image.status, image.headers.get('content-language')]).toEqual([lang, 200, lang || 'en']);
    }
  }, 240_000);

  it.each(['every', 'asked'] as const)(
    'titles that come %s (every locale in one answer, or the one asked and English): every language of the game named, a pass a language only where needed',
    async (titles) => {
      const standIn = await startKardsStandIn({ titles });
      closing.push(standIn.close);
      const out = join(dir, `fetched-${titles}.json`);
      const run = await deckctl(['catalogue', 'fetch', '--out', out, '--endpoint', standIn.url, '--json'], quick);
      expect(run.status, run.stderr).toBe(0);
      const all = ['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'pl', 'pt', 'ru', 'zh', 'zh-Hant'];
      expect(JSON.parse(run.stdout)).toMatchObject({ languages: ['en', ...all.filter((l) => l !== 'en')], left_out: [] });
      const pages = Math.ceil(standIn.cards.length / 20);
      // Every locale in one answer: the English listing's two passes (two that agree). The one asked only: those, and a
      // pass a language, each asking for its own (taken at once: it lists the English listing's cards).
      expect(standIn.requests).toBe(titles === 'every' ? 2 * pages : pages * (all.length + 1));
      if (titles === 'asked')
        expect(new Set(standIn.languages)).toEqual(
          new Set(['en', ...all.filter((l) => l !== 'en').map((l) => (l === 'zh' ? 'zh-Hans' : l))]),
        );
      const fetched = loadCatalogueFile(out);
      const locale = KARDS_LOCALES;
      for (const source of standIn.cards.filter((_, i) => i % 97 === 0)) {
        const card = fetched.get(source.importId || source.id);
        for (const language of all)
          expect([source.id, language, card && cardName(card, language)]).toEqual([
            source.id,
            language,
            standInTitles(source.name)[locale[language] as string],
          ]);
      }

      if (titles === 'asked') return;
      // Served in Japanese and Traditional Chinese (contract §11.3), by lang and by Accept-Language: the cards,
      // a deck's share page and image, a code's page and image.
      const runtime = await startRuntime(mkdtempSync(join(tmpdir(), 'languages-runtime-')), { ...THROWAWAY, CATALOGUE_FILE: out });
      closing.push(async () => void (await runtime.stop()));
      const { real, slug } = await sharedRealDeck(runtime);
      const first = standIn.cards.find((c) => c.importId === real.cards[0]?.code) as (typeof standIn.cards)[number];
      const urlCode = urlCodeOf(parseDeckCode(real.code));
      for (const [asked, language] of [
        [{ lang: 'ja' }, 'ja'],
        [{ lang: 'zh-Hant' }, 'zh-Hant'],
        [{ accept: 'ja-JP,ja;q=0.9' }, 'ja'],
        [{ accept: 'zh-TW' }, 'zh-Hant'],
        [{ accept: 'zh-HK, en;q=0.5' }, 'zh-Hant'],
        [{ accept: 'zh-CN' }, 'zh'],
      ] as const) {
        const query = 'lang' in asked ? `?lang=${asked.lang}` : '';
        const headers: Record<string, string> = 'accept' in asked ? { 'accept-language': asked.accept } : {};
        const name = standInTitles(first.name)[locale[language] as string] as string;
        const card = await fetch(`${runtime.baseUrl}/api/v1/cards/${first.importId}${query}`, { headers });
        expect([language, ((await card.json()) as { data: { name: string } }).data.name, card.headers.get('content-language')]).toEqual([
          language,
          name,
          language,
        ]);
        for (const page of [`/d/${slug}`, `/c/${urlCode}`]) {
          const html = await fetch(`${runtime.baseUrl}${page}${query}`, { headers });
          expect([language, page, html.headers.get('content-language'), (await html.text()).includes(escapeMarkup(name))]).toEqual([
            language,
            page,
            language,
            true,
          ]);
        }
        for (const image of [`/api/v1/decks/${slug}/image.png`, `/api/v1/codes/${urlCode}/image.png`]) {
          const png = await fetch(`${runtime.baseUrl}${image}${query}`, { headers });
          expect([language, image, png.status, png.headers.get('content-language')]).toEqual([language, image, 200, language]);
        }
      }
    },
    240_000,
  );

  // Issue 53: a card removed upstream between two pages moved every later page one card on; the fetch checked each page
  // alone and wrote 1,487 of 1,488 cards — the one that slid across the page boundary was lost.
  it('a card removed upstream while the listing is paged: read again until two passes agree, every card the endpoint lists written', async () => {
    // Removed after the 10th page of the first pass: the first card of the 11th page slides onto the 10th, read already.
    const standIn = await startKardsStandIn({ removeAfter: { requests: 10, at: 45 } });
    closing.push(standIn.close);
    // A card's id in a catalogue: its import id, else (a card no code holds) its id.
    const idOf = (c: (typeof standIn.cards)[number] | undefined) => (c?.importId || c?.id) as string;
    const removed = idOf(standIn.cards[45]);
    const slid = idOf(standIn.cards[200]);
    const out = join(dir, 'shifted.json');
    const run = await deckctl(['catalogue', 'fetch', '--out', out, '--endpoint', standIn.url, '--languages', 'en'], quick);
    expect(run.status, run.stderr).toBe(0);
    const fetched = loadCatalogueFile(out);
    expect(fetched.cards.map((c) => c.card_id).sort()).toEqual(standIn.cards.map(idOf).sort());
    expect(fetched.get(slid)).toBeDefined();
    expect(fetched.get(removed)).toBeUndefined();
    // The first pass (one card lost), the second (the listing as it is now), the third agreeing with it.
    expect(standIn.requests).toBe(3 * Math.ceil(standIn.cards.length / 20));
  }, 240_000);

  it("a listing that shifts between two pages of every pass (its pages' counts disagree): never taken, nothing written", async () => {
    // Pages before offset 200 list every card and count them all; from it on one card fewer: the card at 200 of the
    // whole listing slides onto page 10, read already, in every pass — two passes alike, both one card short.
    const standIn = await startKardsStandIn({ shiftsEachPass: { at: 45, offset: 200 } });
    closing.push(standIn.close);
    const out = join(dir, 'shifting.json');
    const run = await deckctl(['catalogue', 'fetch', '--out', out, '--endpoint', standIn.url, '--languages', 'en'], quick);
    expect([run.status, run.stderr]).toEqual([1, expect.stringMatching(/changed while it was read: 4 passes/)]);
    expect(run.stderr).toMatch(
      new RegExp(`disagree on the count \\(${standIn.cards.length}, ${standIn.cards.length - 1}; ${standIn.cards.length - 1} read\\)`),
    );
    expect(existsSync(out)).toBe(false);
  }, 180_000);

  it('a page that keeps failing, a short page or a malformed card: exit 1 naming it, and nothing written', async () => {
    const cases = [
      [{ failAt: 40 }, /offset 40 failed \(HTTP 500\) after 5 attempts/],
      [{ shortAt: 20 }, /page at offset 20 holds 19 cards where 20 were due/],
      [{ malformedAt: 25 }, /card \[25\].*nation: unknown nation/],
    ] as const;
    for (const [faults, message] of cases) {
      const standIn = await startKardsStandIn(faults);
      closing.push(standIn.close);
      const out = join(dir, `refused-${Object.keys(faults)[0]}.json`);
      const run = await deckctl(['catalogue', 'fetch', '--out', out, '--endpoint', standIn.url], quick);
      expect([run.status, run.stderr], JSON.stringify(faults)).toEqual([1, expect.stringMatching(message)]);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}.partial`)).toBe(false);
    }
  }, 180_000);

  it("a card the service would refuse to load, or that would make an answer past its bounds: exit 1 naming it, the operator's file left as it was", async () => {
    const out = join(dir, 'kept.json');
    writeFileSync(out, '[]\n');
    const long = 'W'.repeat(10_000);
    const cases = [
      [{ json: { kredits: -3 } }, /card \[30\].*kredits/],
      [{ json: { kredits: 100_000 } }, /card \[30\].*kredits are 0-30/],
      [{ node: { importId: '<b>' } }, /card \[30\].*importId: an import id is a deck code's 2-character id/],
      [{ node: { importId: 'a b' } }, /card \[30\].*importId/],
      [{ node: { importId: 'x'.repeat(65) } }, /card \[30\].*importId/],
      [{ node: { importId: '' }, json: { id: 'a b', import_id: '' } }, /card \[30\].*card_id/],
      [{ json: { faction: '__proto__' } }, /card \[30\].*nation: unknown nation/],
      [{ json: { faction: 'constructor' } }, /card \[30\].*nation: unknown nation/],
      [{ json: { title: { 'en-EN': long } } }, /card \[30\].*at most 80 characters/],
      [{ json: { title: { 'en-EN': 'PANZER', 'de-DE': long } } }, /card \[30\].*names\.de: a card's name is at most 80 characters/],
    ] as const;
    for (const [patch, message] of cases) {
      const standIn = await startKardsStandIn({ patch: { at: 30, ...patch } });
      closing.push(standIn.close);
      const run = await deckctl(['catalogue', 'fetch', '--out', out, '--endpoint', standIn.url], quick);
      expect([run.status, run.stderr], JSON.stringify(patch).slice(0, 200)).toEqual([1, expect.stringMatching(message)]);
      expect(run.stderr.length).toBeLessThan(1_000);
      expect(readFileSync(out, 'utf8')).toBe('[]\n');
      expect(existsSync(`${out}.partial`)).toBe(false);
    }
  }, 180_000);

  it('a page that fails and then answers is retried; usage mistakes exit 2', async () => {
    const standIn = await startKardsStandIn({ flakyAt: { offset: 60, times: 2 } });
    closing.push(standIn.close);
    const out = join(dir, 'retried.json');
    const run = await deckctl(['catalogue', 'fetch', '--out', out, '--endpoint', standIn.url], quick);
    expect(run.status, run.stderr).toBe(0);
    expect(loadCatalogueFile(out).cards).toHaveLength(standIn.cards.length);
    for (const args of [
      ['catalogue', 'fetch'],
      ['catalogue', 'fetch', '--out', out, '--languages', 'English'],
    ])
      expect((await deckctl(args)).status, args.join(' ')).toBe(2);
  }, 180_000);

  it("the operator's path of docs/deploy.md, line by line (fetch, check a real code, diff against the one deployed), but the deploy", async () => {
    const standIn = await startKardsStandIn();
    closing.push(standIn.close);
    const deploy = readFileSync(join(PROJECT_ROOT, 'docs/deploy.md'), 'utf8');
    const section = deploy.slice(deploy.indexOf('### A real catalogue'));
    const lines = section
      .split('\n')
      .filter((l) => l.startsWith('    ') && l.includes('npx '))
      .map((l) => l.trim().replace(/\s+#.*$/, ''));
    expect(
      lines.map((l) =>
        l
          .replace(/^CATALOGUE_FILE=\S+ /, '')
          .split(' ')
          .slice(0, 3)
          .join(' '),
      ),
    ).toEqual(['npx deckctl catalogue', 'npx deckctl deck', 'npx deckctl catalogue', 'npx cdk deploy']);
    const cwd = mkdtempSync(join(tmpdir(), 'operator-'));
    for (const line of lines.filter((l) => !l.includes('cdk deploy'))) {
      // As a shell runs it: a leading assignment is the command's environment; npx deckctl is bin/deckctl.js.
      const [, assignment, rest] = /^(?:(\w+=\S+) )?npx deckctl (.*)$/.exec(line) as RegExpExecArray;
      const args = ((rest as string).match(/'[^']*'|\S+/g) ?? []).map((a) =>
        a.replace(/^'(.*)'$/, '$1').replace(/^lib\//, `${PROJECT_ROOT}/lib/`),
      );
      const [name, value] = assignment ? (assignment.split('=') as [string, string]) : [];
      const env = { ...quick, KARDS_GRAPHQL_ENDPOINT: standIn.url, ...(name ? { [name]: join(cwd, value as string) } : {}) };
      const run = await deckctl(
        args.map((a) => (a === 'cards.json' ? join(cwd, a) : a)),
        env,
      );
      expect([line, run.status], run.stderr).toEqual([line, 0]);
    }
    expect(loadCatalogueFile(join(cwd, 'cards.json')).languages).toEqual(new Set(KARDS_LANGUAGES));
  }, 180_000);
});
