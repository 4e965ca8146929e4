/**
 * The bot example of docs/api.md and docs/sharing.md ("Any deck code"), run as printed against the run's local
 * runtime: the same block in both; a pasted message with a code (in another order than canonical, as a
 * player may have it) becomes an embed whose page and image answer; an illegal deck says why; a message
 * without a code gives nothing; a broken code gives its error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { baseUrl, code, DEMO_VERSION } from '../support/api.ts';
import { PROJECT_ROOT } from '../support/shared.ts';

const blockIn = (file: string) => /```js\n([\s\S]*?)```/.exec(readFileSync(join(PROJECT_ROOT, file), 'utf8'))?.[1] ?? '';

type Embed = { title: string; url: string; description: string; image: { url: string } } | undefined;
/** The printed block as a module, its API the runtime's. */
async function deckEmbed(message: string, lang?: string): Promise<Embed> {
  const source = `${blockIn('docs/api.md').replace("'http://127.0.0.1:3000'", JSON.stringify(baseUrl()))}\nexport { deckEmbed };\n`;
  const module = (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as {
    deckEmbed: (m: string, l?: string) => Promise<Embed>;
  };
  return module.deckEmbed(message, lang);
}

describe('the bot example (docs/api.md, docs/sharing.md)', () => {
  it('is the same block in both', () => {
    expect(blockIn('docs/api.md')).toContain('async function deckEmbed');
    expect(blockIn('docs/sharing.md')).toBe(blockIn('docs/api.md'));
  });

  it('turns a pasted code into an embed whose page and image answer; in German when asked', async () => {
    const legal = code('soviet', 'usa', 6);
    const [head, groups] = legal.split('|') as [string, string];
    // The groups' ids in another order: a spelling the API sends on to the canonical one.
    const pasted = `${head}|${groups
      .split(';')
      .map((g) => (g.match(/../g) ?? []).reverse().join(''))
      .join(';')}`;
    const embed = await deckEmbed(`gg, try my deck ${pasted} !`);
    const canonical = urlCodeOf(parseDeckCode(legal));
    expect(embed).toEqual({
      title: 'Soviet Union / United States',
      url: `${baseUrl()}/c/${canonical}`,
      description: '39 cards',
      image: { url: `${baseUrl()}/api/v1/codes/${canonical}/image.png?catalogue=${DEMO_VERSION}` },
    });
    const image = await fetch(embed?.image.url as string);
    const png = PNG.sync.read(Buffer.from(await image.arrayBuffer()));
    expect([image.status, png.width, png.height]).toEqual([200, 1200, 900]);
    expect((await fetch(embed?.url as string)).status).toBe(200);
    const german = await deckEmbed(pasted, 'de');
    expect([german?.title, german?.image.url]).toEqual([
      'Sowjetunion / Vereinigte Staaten',
      `${baseUrl()}/api/v1/codes/${canonical}/image.png?lang=de&catalogue=${DEMO_VERSION}`,
    ]);
  });

  it('an illegal deck says why; no code, nothing; a broken one, its error', async () => {
    const deck = parseDeckCode(code('soviet', 'usa', 6));
    const short = encodeDeckCode({ ...deck, cards: deck.cards.slice(1) });
    expect((await deckEmbed(short))?.description).toMatch(/^3\d cards · not legal: a deck holds exactly 39 cards; this one holds 3\d$/);
    expect(await deckEmbed('no code here')).toBeUndefined();
    expect((await deckEmbed('%%45|2H2'))?.description).toMatch(/^code is not a deck code: .* at offset \d+$/);
  });
});
