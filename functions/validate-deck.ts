import { validateOwnerDeck } from '#decks/validate.ts';
import { route } from '#http/route.ts';

export const handler = route('validateDeck', validateOwnerDeck);
