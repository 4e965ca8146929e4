/**
 * The edge's viewer-request function (a CloudFront Function, cloudfront-js-2.0; locally infra/local/edge.ts
 * runs the same code): what a cached answer varies on, made one value each before the cache key is taken
 * (contract §11.2) —
 *   - `Accept-Language` becomes the one served language the service would answer in (lib/rules/languages.ts
 *     `answerLanguage` with every served language at hand: the same ranges, weights, `*`, zh scripts), so a
 *     German reader never gets the English copy and raw header values do not split the cache;
 *   - `X-Forwarded-Host` becomes the host the reader asked (the distribution's domain, or a custom one): the
 *     origin request never carries the viewer's Host (API Gateway answers 403 to a foreign one), and the
 *     links an answer prints (og:image, og:url, a code's links) use this one (lib/http/origin.ts);
 *   - `X-Deck-Catalogue` is the catalogue the functions ship (a hash of it, written into the code at synth):
 *     a deploy of a new catalogue makes every cache key new, so no reader gets an image or a card of the
 *     catalogue before it from the cache (contract §11.2) — with no invalidation to make or to pay for.
 * Generated from the rules' own data, so the two cannot drift apart (test/unit/edge-function.test.ts holds
 * them to each other on a table of headers and on random ones).
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_LANGUAGE, SERVED_LANGUAGES, TRADITIONAL_REGIONS } from '#rules/languages.ts';
import { versionOf } from '#store/catalogue-read.ts';

export const EDGE_LANGUAGE_HEADER = 'accept-language';
export const EDGE_HOST_HEADER = 'x-forwarded-host';
export const EDGE_CATALOGUE_HEADER = 'x-deck-catalogue';

/**
 * The version of a catalogue file (what the edge's cache keys carry): the one version string of a catalogue, as the
 * functions name the one they serve (lib/catalogue/load.ts catalogueTag) and the published one is named.
 */
export const catalogueVersion = (file: string | URL): string => versionOf(readFileSync(file, 'utf8'));

/** The function's code, for the catalogue of that version (a hash of the catalogue file the functions ship). */
export function edgeFunctionCode(catalogue: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(catalogue)) throw new Error(`a catalogue version is a hash: ${catalogue}`);
  const served = JSON.stringify(SERVED_LANGUAGES.map((l) => l.tag));
  const traditional = JSON.stringify([...TRADITIONAL_REGIONS]);
  return `var SERVED = ${served};
var TRADITIONAL = ${traditional};
function languageOfTag(tag) {
  var parts = tag.toLowerCase().split('-');
  var primary = parts[0];
  if (primary !== 'zh') return primary;
  var rest = parts.slice(1);
  if (rest.indexOf('hans') >= 0) return 'zh';
  for (var i = 0; i < rest.length; i++) if (rest[i] === 'hant' || TRADITIONAL.indexOf(rest[i]) >= 0) return 'zh-Hant';
  return 'zh';
}
function negotiate(accept) {
  var ranges = [];
  var parts = accept.split(',');
  for (var i = 0; i < parts.length; i++) {
    var params = parts[i].trim().split(';');
    var range = params[0].trim();
    var q = 1;
    for (var j = 1; j < params.length; j++) {
      var m = /^\\s*q=([01](?:\\.\\d{0,3})?)\\s*$/.exec(params[j]);
      if (m) { q = Number(m[1]); break; }
    }
    if (range !== '' && q > 0) ranges.push({ range: range, q: q, i: i });
  }
  ranges.sort(function (a, b) { return b.q - a.q || a.i - b.i; });
  for (var k = 0; k < ranges.length; k++) {
    if (ranges[k].range === '*') return '${DEFAULT_LANGUAGE}';
    var wanted = languageOfTag(ranges[k].range);
    if (SERVED.indexOf(wanted) >= 0) return wanted;
  }
  return '${DEFAULT_LANGUAGE}';
}
function handler(event) {
  var request = event.request;
  var headers = request.headers;
  var accept = headers['${EDGE_LANGUAGE_HEADER}'] ? headers['${EDGE_LANGUAGE_HEADER}'].value : '';
  headers['${EDGE_LANGUAGE_HEADER}'] = { value: negotiate(accept) };
  headers['${EDGE_HOST_HEADER}'] = { value: headers.host ? headers.host.value : '' };
  headers['${EDGE_CATALOGUE_HEADER}'] = { value: '${catalogue}' };
  return request;
}
`;
}
