/**
 * Discord's interactions endpoint (contract §11.3): one function, no API key — a request is Discord's when its
 * Ed25519 signature holds (lib/discord/signature.ts), checked before its body is read. Without the
 * application's public key configured (the stack's `discordPublicKey` setting) it answers 404, and nothing
 * else of the service changes.
 */
import { type Declared, routes } from './route.ts';
import { SIMILAR_READS } from './similar.ts';

export const DISCORD_ROUTES = routes({
  discordInteractions: {
    method: 'POST',
    path: '/api/v1/discord/interactions',
    rawBody: 'signed-json',
    catalogue: true,
    // A /deck's closest public deck (contract §12.3).
    grants: SIMILAR_READS,
    summary: "Discord's interactions endpoint",
    description:
      "Where Discord sends the /deck and /card commands of the Deck Library application (set it as the application's Interactions Endpoint URL). Every request must carry Discord's Ed25519 signature (X-Signature-Ed25519 over X-Signature-Timestamp and the raw body) by the configured public key, its timestamp within a minute of now: otherwise 401. A PING answers PONG; /deck code:<code, link or the game's text export> answers an embed with the deck's factions, cards by type, kredit curve, legality, image and the closest public deck (its score; left out when none is found within 1.2 s), in the user's language; /card name:<name> the card's facts, with autocomplete. An unreadable deck answers a message only its sender sees. Answers Discord's interaction response (bare, not the envelope). 404 when the service has no Discord public key configured.",
    tag: 'Discord',
    success: { status: 200, data: 'DiscordResponse', bare: true },
    errors: ['unauthorized', 'not_found', 'invalid_json'],
  } as const satisfies Declared,
});
