/**
 * POST /api/v1/discord/interactions — wiring (contract §11.3): the configured public key (404 without one),
 * Discord's signature over the raw body (401 when it does not hold), then the body read and answered
 * (answers.ts). No drawing; of the store, a /deck reads the public deck most like its deck (lib/public/similar.ts:
 * the main nation's figures and three cards' partitions), bounded in time so the answer keeps Discord's 3 s: a
 * store that is slow or failing leaves that one field out, never the answer.
 */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { utf8Text } from '#http/body.ts';
import { ApiError, invalidJson } from '#http/errors.ts';
import { originOf } from '#http/origin.ts';
import { type DataOf, endpoint } from '#http/types.ts';
import { logger } from '#logger';
import { codeLinks } from '#public/codes.ts';
import { similarTo } from '#public/similar.ts';
import { DISCORD_ROUTES as R } from '#routes/discord.ts';
import type { Deck } from '#rules/deck-code.ts';
import { documentClient } from '#store/client.ts';
import { answerInteraction, type Closest, deckOfCommand } from './answers.ts';
import { publicKeyOf, signedByDiscord } from './signature.ts';

/** The application's public key, from DISCORD_PUBLIC_KEY (the stack sets it from its `discordPublicKey` setting). */
let key: { hex: string | undefined; value: ReturnType<typeof publicKeyOf> } | undefined;
const publicKey = () => {
  const hex = process.env.DISCORD_PUBLIC_KEY || undefined;
  if (key?.hex !== hex) key = { hex, value: publicKeyOf(hex) };
  return key?.value;
};

/**
 * How long a /deck waits for its closest deck: Discord wants an answer within 3 s of the interaction. DISCORD_CLOSEST_MS
 * sets another (a test on a busy machine: what it checks is the field, not the machine's speed).
 */
const closestMs = () => Number(process.env.DISCORD_CLOSEST_MS || 1_200);

/** The public deck most like `deck`, or none (none alike, or the store too slow or failing: said in the log). */
async function closestTo(deck: Deck, origin: string): Promise<Closest | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), closestMs());
  });
  try {
    const found = await Promise.race([similarTo(deck), late]);
    const [first] = found ?? [];
    if (found === undefined) logger.warn('discord: the closest deck was not found in time; answered without it', { ms: closestMs() });
    return first && { name: first.name, sharePage: `${origin}/d/${first.share_slug}`, score: first.score };
  } catch (error) {
    logger.warn('discord: the closest deck could not be read; answered without it', { error: error as Error });
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

export const discordInteractions = endpoint(
  R.discordInteractions,
  { init: [catalogue, archetypeRules, publicKey, documentClient] },
  async (req) => {
    const verifier = publicKey();
    if (!verifier) throw new ApiError(404, 'not_found', 'this service has no Discord application configured');
    if (!signedByDiscord(verifier, req.headers['x-signature-ed25519'], req.headers['x-signature-timestamp'], req.body))
      throw new ApiError(401, 'unauthorized', 'invalid request signature');
    let interaction: unknown;
    try {
      interaction = JSON.parse(utf8Text(req.body));
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw invalidJson('the body is not valid JSON');
    }
    const origin = originOf(req);
    const deck = deckOfCommand(interaction, catalogue());
    const closest = deck && (await closestTo(deck, origin));
    const data = answerInteraction(interaction, {
      catalogue: catalogue(),
      archetypes: archetypeRules(),
      closest,
      // The image Discord shows: the one drawn for its embed's 400 px (contract §12.5).
      linksOf: (urlCode, language) => {
        const { page, preview } = codeLinks(origin, urlCode, language);
        return { codePage: page, image: preview };
      },
    });
    // Typed by discord-api-types as it is built (answers.ts); the declared shape (lib/shapes/named.ts DiscordResponse)
    // is what the document publishes, and every answer of test/api/discord.test.ts is held to it.
    return { data: data as DataOf<typeof R.discordInteractions>, bare: true };
  },
);
