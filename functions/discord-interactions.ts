import { discordInteractions } from '#discord/endpoint.ts';
import { route } from '#http/route.ts';

export const handler = route(discordInteractions);
