/**
 * The edge's viewer-request function (infra/edge-function.ts: a CloudFront Function's JavaScript, run here in
 * a V8 context of its own as CloudFront runs it, with no module of ours) answers the language the service
 * would (lib/rules/languages.ts answerLanguage, every served language at hand) for a table of Accept-Language
 * values — quality values, zh-TW, pt-BR, `*`, garbage — and for any string; and it sets the host the reader
 * asked as X-Forwarded-Host.
 */
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerLanguage, SERVED_LANGUAGES } from '#rules/languages.ts';
import { edgeFunctionCode } from '../../infra/edge-function.ts';

type Headers = Record<string, { value: string }>;
const handler = runInNewContext(`${edgeFunctionCode('v1')}\nhandler`) as (event: { request: { headers: Headers } }) => { headers: Headers };
const served = new Set<string>(SERVED_LANGUAGES.map((l) => l.tag));
const atEdge = (accept: string | undefined, host = 'd123.cloudfront.net') =>
  handler({ request: { headers: { host: { value: host }, ...(accept === undefined ? {} : { 'accept-language': { value: accept } }) } } })
    .headers;

describe("the edge's language: the service's own negotiation, to one served language", () => {
  it.each([
    'de',
    'de-DE,de;q=0.9,en;q=0.8',
    'fr-CA;q=0.2, ja;q=0.9',
    'zh-TW',
    'zh-HK, en;q=0.5',
    'zh-CN,zh;q=0.9',
    'zh-Hans-TW',
    'zh-Hant-CN',
    'pt-BR',
    'es-419',
    'el, ru;q=0.1',
    '*',
    'xx, *;q=0.5, de;q=0.1',
    'de;q=0, ru;q=0.1',
    'de;q=0',
    '',
    ',,;;q=;',
    'constructor, __proto__',
    'EN-us',
    'ko-KR;q=1.000, pl;q=0.999',
    'q=1',
  ])('Accept-Language %j', (accept) => {
    expect(atEdge(accept)['accept-language']?.value).toBe(answerLanguage(undefined, accept, served));
  });

  it('no Accept-Language: English; any string at all: what the service answers', () => {
    expect(atEdge(undefined)['accept-language']?.value).toBe('en');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc
            .array(
              fc.tuple(
                fc.constantFrom('de', 'zh-TW', 'zh', 'ja-JP', 'xx', '*', 'pt-BR', ''),
                fc.option(fc.float({ min: 0, max: 1, noNaN: true })),
              ),
              {
                maxLength: 5,
              },
            )
            .map((parts) => parts.map(([r, q]) => (q === null ? r : `${r};q=${q.toFixed(3)}`)).join(', ')),
        ),
        (accept) => {
          expect(atEdge(accept)['accept-language']?.value).toBe(answerLanguage(undefined, accept, served));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('the host the reader asked, as X-Forwarded-Host (the origin request carries no Host of the viewer); the catalogue of the deploy', () => {
    expect(atEdge('de', 'decks.example.org')['x-forwarded-host']?.value).toBe('decks.example.org');
    expect(atEdge('de')['x-deck-catalogue']?.value).toBe('v1');
    expect(() => edgeFunctionCode("x'; evil()")).toThrow(/a catalogue version is a hash/);
  });
});
