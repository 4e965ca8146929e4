/**
 * Decks like this one (contract §12.3, §13.2), pure: how alike two decks are by their copies — Σ min(copies) /
 * Σ max(copies) over the cards of both (1 for the same cards and copies, 0 for none shared), which is the Jaccard
 * similarity of the two decks as weighted sets (each card once a copy: (card, 1), (card, 2)…) — how candidates are
 * found by their whole card set (MinHash with banding: Broder 1997, "On the resemblance and containment of
 * documents"; Leskovec, Rajaraman, Ullman, *Mining of Massive Datasets*, ch. 3.4), and the closest of the candidates:
 * the same main nation, the deck itself and its exact copies (the same canonical code: the same nations, cards and
 * copies) left out, each other code once (its deck of the lowest id), most alike first, ties by id.
 *
 * A deck's signature is SIMILAR_BANDS × SIMILAR_ROWS minimum hashes of its weighted set; two decks agree on one of
 * them with probability their likeness s, on a band of SIMILAR_ROWS rows with s^r, and share at least one of
 * SIMILAR_BANDS bands with 1 − (1 − s^r)^b: with r = 2 and b = 17, 0.99 at s = 0.5 and above (bandCatchRate).
 * A band is a key (its main nation, its number, its rows): the decks sharing one are found by it.
 */
import type { CardCount, Deck } from './deck-code.ts';

/** Most decks a likeness answer lists. */
export const SIMILAR_MOST = 10;
/** A signature's bands, and the rows (minimum hashes) of each. */
export const SIMILAR_BANDS = 17;
export const SIMILAR_ROWS = 2;
/** Most decks read of one band at a time (a band shared by more is read by its probe rows too: bandPlaces). */
export const SIMILAR_PER_BAND = 50;
/** Candidates answered for past the 10 listed, so that a deck turned private since its band was read leaves no hole. */
export const SIMILAR_SPARE = 5;

/** The chance that two decks of likeness `s` share a band: 1 − (1 − s^r)^b. */
export const bandCatchRate = (s: number, bands = SIMILAR_BANDS, rows = SIMILAR_ROWS): number => 1 - (1 - s ** rows) ** bands;

/** A 32-bit hash of a text (FNV-1a). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** MurmurHash3's 32-bit finaliser of `h` mixed with `seed`: one of a family of hash functions, one a seed. */
function mixed(h: number, seed: number): number {
  let x = (h ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** The deck's MinHash signature: for each of the bands × rows hash functions, the least hash of its weighted set. */
export function signature(cards: readonly CardCount[], hashes = SIMILAR_BANDS * SIMILAR_ROWS): number[] {
  const elements = cards.flatMap(({ card_id, count }) => Array.from({ length: count }, (_, k) => fnv1a(`${card_id}:${k + 1}`)));
  const out: number[] = [];
  for (let f = 0; f < hashes; f++) {
    let least = 0xffffffff;
    for (const e of elements) {
      const h = mixed(e, f + 1);
      if (h < least) least = h;
    }
    out.push(least);
  }
  return out;
}

/** Probe rows a band carries beside its own: the decks that agree on them too come first where a band is crowded. */
export const SIMILAR_PROBES = 2;

/** A deck's place in one band: the band's key, and its probe rows (as the band's members are ordered by them). */
export interface BandPlace {
  /** `<main>.<band>.<rows in base 36>`: the decks sharing it are candidates. */
  key: string;
  /** The band's probe rows in base 36, `p1.p2`: a member agreeing on more of them is likelier alike. */
  probes: string[];
}

/**
 * The deck's bands: for each, its key and its probe rows. A band crowded past what a read takes (a list copied by
 * many) is read by its members that agree on both probe rows first, then on the first: near-copies agree on each
 * with their likeness's chance, so they come first there.
 */
export function bandPlaces(deck: Pick<Deck, 'main' | 'cards'>, bands = SIMILAR_BANDS, rows = SIMILAR_ROWS): BandPlace[] {
  if (deck.cards.length === 0) return [];
  const sig = signature(deck.cards, bands * (rows + SIMILAR_PROBES)).map((h) => h.toString(36));
  return Array.from({ length: bands }, (_, b) => {
    const probes = sig.slice(bands * rows + b * SIMILAR_PROBES, bands * rows + (b + 1) * SIMILAR_PROBES);
    return {
      key: `${deck.main}.${b}.${sig.slice(b * rows, (b + 1) * rows).join('.')}`,
      probes: probes.map((_, k) => probes.slice(0, k + 1).join('.')),
    };
  });
}

/** The deck's band keys. */
export const bandKeys = (deck: Pick<Deck, 'main' | 'cards'>, bands = SIMILAR_BANDS, rows = SIMILAR_ROWS): string[] =>
  bandPlaces(deck, bands, rows).map((p) => p.key);

/** Σ min(copies) / Σ max(copies) over the cards of both decks. */
export function likeness(a: readonly CardCount[], b: readonly CardCount[]): number {
  const of = new Map(b.map((c) => [c.card_id, c.count]));
  let min = 0;
  let max = 0;
  for (const { card_id, count } of a) {
    const other = of.get(card_id) ?? 0;
    min += Math.min(count, other);
    max += Math.max(count, other);
    of.delete(card_id);
  }
  for (const count of of.values()) max += count;
  return max === 0 ? 0 : min / max;
}

/** A deck's identity as its canonical code has it: its nations, and each card's copies (in card order). */
export const deckIdentity = (d: Deck): string =>
  `${d.main}|${d.ally}|${[...d.cards]
    .sort((x, y) => (x.card_id < y.card_id ? -1 : x.card_id > y.card_id ? 1 : 0))
    .map((c) => `${c.card_id}${c.count}`)
    .join(',')}`;

export interface Candidate {
  id: string;
  deck: Deck;
}

/**
 * The closest candidates to `deck` (`self`: its own id, when it is a stored deck), each with its likeness, most alike
 * first, ties by id; the first `most` (each other code once: its candidate of the lowest id).
 */
export function closest<C extends Candidate>(
  deck: Deck,
  candidates: Iterable<C>,
  self?: string,
  most = SIMILAR_MOST,
): { candidate: C; score: number }[] {
  const own = deckIdentity(deck);
  const byCode = new Map<string, C>();
  for (const c of candidates) {
    if (c.id === self || c.deck.main !== deck.main) continue;
    const code = deckIdentity(c.deck);
    if (code === own) continue;
    const held = byCode.get(code);
    if (!held || c.id < held.id) byCode.set(code, c);
  }
  return [...byCode.values()]
    .map((candidate) => ({ candidate, score: likeness(deck.cards, candidate.deck.cards) }))
    .sort((x, y) => y.score - x.score || (x.candidate.id < y.candidate.id ? -1 : x.candidate.id > y.candidate.id ? 1 : 0))
    .slice(0, most);
}
