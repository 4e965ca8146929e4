/**
 * Guide, archive and display rules (requirement §2, contract §3): how a deck's writable content
 * must relate to its cards and the catalogue. Each failure is a detail on the item's path.
 */
import type { Catalogue } from './catalogue.ts';
import type { CardCount } from './deck-code.ts';
import type { Alternatives, ChartSettings, Display, Guide, KeyComponents } from './deck-model.ts';
import { copiesById, countsAs, undeckable } from './deck-rules.ts';
import { at, type Detail, detail, duplicates } from './details.ts';
import type { FactionId } from './factions.ts';

/** What the rules know of the deck; undefined fields when the deck code could not be read. */
export interface DeckContext {
  catalogue: Catalogue;
  copies?: ReadonlyMap<string, number>;
  main?: FactionId;
  ally?: FactionId;
}

export const deckContext = (catalogue: Catalogue, deck?: { main: FactionId; ally: FactionId; cards: readonly CardCount[] }): DeckContext =>
  deck ? { catalogue, copies: copiesById(deck.cards), main: deck.main, ally: deck.ally } : { catalogue };

const notInDeck = (ctx: DeckContext, path: string, id: string): Detail[] =>
  ctx.copies && !ctx.copies.has(id) ? [detail(path, 'not_in_deck', `${id} is not one of this deck's cards`)] : [];

/** A card the catalogue knows and that is not derived (it may be in the deck or not). */
const knownNonDerived = (ctx: DeckContext, path: string, id: string): Detail[] => {
  const card = ctx.catalogue.get(id);
  const bad = undeckable(path, id, card);
  return bad && bad.code !== 'headquarters_card' ? [bad] : [];
};

export function checkGuide(guide: Guide, ctx: DeckContext, base = 'guide'): Detail[] {
  const core = at(base, 'core_cards');
  const reserve = at(base, 'reserve_recommendations');
  return [
    ...duplicates(guide.core_cards, (i) => at(core, i), core),
    ...guide.core_cards.flatMap((id, i) => {
      const known = knownNonDerived(ctx, at(core, i), id);
      return known.length ? known : notInDeck(ctx, at(core, i), id);
    }),
    ...duplicates(guide.reserve_recommendations, (i) => at(reserve, i), reserve),
    ...guide.reserve_recommendations.flatMap((id, i) => knownNonDerived(ctx, at(reserve, i), id)),
  ];
}

type Section = KeyComponents | Alternatives;
/** Rules every enabled section shares: items required, reasons not blank; card ids unique. */
function checkSection(section: Section, base: string): Detail[] {
  const items = at(base, 'items');
  const out = duplicates(
    section.items.map((i) => i.card_id),
    (i) => at(at(items, i), 'card_id'),
    items,
  );
  if (!section.enabled) return out;
  if (section.items.length === 0) out.push(detail(items, 'items_required', `an enabled section needs at least 1 item`));
  section.items.forEach((item, i) => {
    if (item.reason.trim() === '')
      out.push(detail(at(at(items, i), 'reason'), 'blank_reason', `a reason is required while the section is enabled`));
  });
  return out;
}

export function checkKeyComponents(section: KeyComponents, ctx: DeckContext, base = 'archive.key_components'): Detail[] {
  return [
    ...checkSection(section, base),
    ...section.items.flatMap((item, i) => notInDeck(ctx, at(at(at(base, 'items'), i), 'card_id'), item.card_id)),
  ];
}

export function checkAlternatives(section: Alternatives, ctx: DeckContext, base = 'archive.alternatives'): Detail[] {
  const out = checkSection(section, base);
  section.items.forEach((item, i) => {
    const path = at(at(base, 'items'), i);
    const card = ctx.catalogue.get(item.card_id);
    const bad = undeckable(at(path, 'card_id'), item.card_id, card);
    if (bad) out.push(bad);
    else if (card && ctx.main && ctx.ally && countsAs(card, ctx.main, ctx.ally) === undefined) {
      out.push(
        detail(at(path, 'card_id'), 'wrong_faction', `${item.card_id} (${card.name}) is not available to this deck's main or ally faction`),
      );
    }
    if (item.replaces_card_id !== undefined) out.push(...notInDeck(ctx, at(path, 'replaces_card_id'), item.replaces_card_id));
  });
  return out;
}

export function checkChartSettings(chart: ChartSettings, ctx: DeckContext, base = 'archive.chart_settings'): Detail[] {
  const items = at(at(base, 'otkConfig'), 'items');
  return chart.otkConfig.items.flatMap((item, i) => {
    const path = at(items, i);
    const ids = at(path, 'card_ids');
    const out = [...duplicates(item.card_ids, (j) => at(ids, j), ids), ...item.card_ids.flatMap((id, j) => notInDeck(ctx, at(ids, j), id))];
    // `required` is judged against a well-formed pool only (none, or one with a failed id, is reported there).
    const wellFormed = item.card_ids.length > 0 && !item.card_ids.includes(undefined as unknown as string);
    if (ctx.copies && out.length === 0 && wellFormed) {
      const pool = [...new Set(item.card_ids)].reduce((n, id) => n + (ctx.copies?.get(id) ?? 0), 0);
      if (item.required > pool) {
        out.push(detail(at(path, 'required'), 'invalid_value', `required is at most the ${pool} copies of these cards in the deck`));
      }
    }
    return out;
  });
}

export function checkDisplay(display: Display, ctx: DeckContext): Detail[] {
  return display.featured_card_id === null ? [] : notInDeck(ctx, 'featured_card_id', display.featured_card_id);
}
