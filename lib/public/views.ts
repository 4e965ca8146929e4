/** What the public sees of a deck (contract §3): never visibility, sort_order, version or the owner. */
import { deckIdentity } from '#decks/views.ts';
import type { StoredDeck } from '#store/decks.ts';
import type { SearchEntry } from '#store/search.ts';

export function publicDeck(d: StoredDeck, counts: { views: number; likes: number }) {
  return {
    ...deckIdentity(d),
    tags: d.tags,
    display: d.display,
    guide: d.guide,
    archive: { key_components: d.archive.key_components, alternatives: d.archive.alternatives, chart_settings: d.archive.chart_settings },
    author: { display_name: d.author_name },
    views: counts.views,
    likes: counts.likes,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function searchItem(e: SearchEntry) {
  return {
    id: e.deck_id,
    share_slug: e.slug,
    name: e.name,
    main_faction: e.main_faction,
    ally_faction: e.ally_faction,
    tags: e.tags,
    system: e.system,
    display: e.display,
    author: { display_name: e.author_name },
    views: e.views,
    likes: e.likes,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}
