/**
 * The game's text export of a deck (contract §11.3), out and in: a code's export in the language asked, and
 * whatever a player pastes (the export, a code, a link) read back as the code's facts. In a file of their own
 * so that the code routes' functions do not carry these declarations (lib/routes/codes.ts).
 */
import { CardLanguageQuery } from '#shapes/language-query.ts';
import { LIFETIMES } from './cache-lifetimes.ts';
import { BY_LANGUAGE } from './code-paths.ts';
import { Code } from './params.ts';
import { type Declared, routes } from './route.ts';

export const CODE_TEXT_ROUTES = routes({
  readCodeText: {
    edge: 'cached',
    cache: LIFETIMES.deployment,
    method: 'GET',
    path: '/api/v1/codes/{code}/deck.txt',
    params: { code: Code },
    query: CardLanguageQuery,
    catalogue: true,
    redirects: true,
    grants: [],
    summary: "A deck code as the game's text export",
    description: `The deck as the game exports it (and AABur/kardscm reads it): the factions' names, \`Major power: <faction>\`, \`Ally: <faction>\`, then a nation's header (\`soviet:\`) and a \`Nx (kK) NAME\` line per card — by nation, then kredits, then name — and the %% code last. A card the catalogue does not know is written \`[id]\` with \`?\` kredits. ${BY_LANGUAGE} POST /api/v1/codes reads it back in any language.`,
    tag: 'Deck codes',
    success: {
      status: 200,
      data: 'Text',
      bare: true,
      contentType: 'text/plain; charset=utf-8',
      headers: ['ETag', 'Cache-Control', 'Content-Language', 'Vary'],
      conditional: true,
    },
  } as const satisfies Declared,
  readPastedCode: {
    method: 'POST',
    path: '/api/v1/codes',
    query: CardLanguageQuery,
    rawBody: 'text/plain',
    catalogue: true,
    grants: [],
    summary: "A pasted deck's facts",
    description: `What a player pastes, as text/plain: the game's text export (a name line, \`Major power: …\`, \`Ally: …\`, an optional \`HQ: …\`, a nation's header per nation, \`Nx (kK) NAME\` per card, names in any served language, case and accents aside; the %% code line, when present, must make the same deck), a deck code in either form, or a link holding one (a kards.com deck-builder link's ?hash=). Answers the facts GET /api/v1/codes/{code} gives of its canonical code. ${BY_LANGUAGE} A line no card's name in any language matches, or a code that does not parse, is 422 validation_failed naming the line (or the offset).`,
    tag: 'Deck codes',
    success: { status: 200, data: 'CodeFacts' },
    errors: ['validation_failed'],
  } as const satisfies Declared,
});
