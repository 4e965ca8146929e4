/**
 * POST /api/v1/discord/interactions — wiring (contract §11.3): the configured public key (404 without one),
 * Discord's signature over the raw body (401 when it does not hold), then the body read and answered
 * (answers.ts). No store, no drawing: the catalogue is all it reads.
 */
import { catalogue } from '#catalogue/load.ts';
import { utf8Text } from '#http/body.ts';
import { ApiError, invalidJson } from '#http/errors.ts';
import { originOf } from '#http/origin.ts';
import { type DataOf, endpoint } from '#http/types.ts';
import { codeLinks } from '#public/codes.ts';
import * as R from '#routes/discord.ts';
import { answerInteraction } from './answers.ts';
import { publicKeyOf, signedByDiscord } from './signature.ts';

/** The application's public key, from DISCORD_PUBLIC_KEY (the stack sets it from its `discordPublicKey` setting). */
let key: { hex: string | undefined; value: ReturnType<typeof publicKeyOf> } | undefined;
const publicKey = () => {
  const hex = process.env.DISCORD_PUBLIC_KEY || undefined;
  if (key?.hex !== hex) key = { hex, value: publicKeyOf(hex) };
  return key?.value;
};

export const discordInteractions = endpoint(R.discordInteractions, { init: [catalogue, publicKey] }, async (req) => {
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
  const data = answerInteraction(interaction, {
    catalogue: catalogue(),
    // The image Discord shows: the one drawn for its embed's 400 px (contract §12.5).
    linksOf: (urlCode, language) => {
      const { page, preview } = codeLinks(origin, urlCode, language);
      return { page, image: preview };
    },
  });
  // Typed by discord-api-types as it is built (answers.ts); the declared shape (lib/shapes/named.ts DiscordResponse)
  // is what the document publishes, and every answer of test/api/discord.test.ts is held to it.
  return { data: data as DataOf<typeof R.discordInteractions>, bare: true };
});
