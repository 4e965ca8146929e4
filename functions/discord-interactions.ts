import { discordInteractions } from '#discord/endpoint.ts';
import { route } from '#http/stack.ts';

export const handler = route(discordInteractions);
