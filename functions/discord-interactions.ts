import { discordInteractions } from '#discord/endpoint.ts';
import { publicHandler } from '#http/stack.ts';

export const handler = publicHandler(discordInteractions);
