/**
 * Writes lib/catalogue/demo-cards.json: the demo catalogue of the project's own making.
 * Every name is invented (no game data); run `npx tsx scripts/make-demo-catalogue.ts` to regenerate.
 * Shape: per faction 30 deckable cards (all types, all rarities), 2 derived cards, and an HQ for each
 * main faction; a few neutral cards; exile cards; one derived card with a long (non-code) id.
 */
import { writeFileSync } from 'node:fs';
import { BASE62 } from '../lib/rules/base62.ts';
import type { Card, CardType, Rarity } from '../lib/rules/catalogue.ts';
import { type CardFaction, FACTIONS, type FactionId } from '../lib/rules/factions.ts';

const TYPES: CardType[] = ['infantry', 'tank', 'artillery', 'fighter', 'bomber', 'order', 'countermeasure'];
// 12 standard, 8 limited, 6 special, 4 elite per faction.
const RARITY_PLAN: Rarity[] = [
  ...Array<Rarity>(12).fill('standard'),
  ...Array<Rarity>(8).fill('limited'),
  ...Array<Rarity>(6).fill('special'),
  ...Array<Rarity>(4).fill('elite'),
];
const WORDS: Record<CardType, [string[], string[]]> = {
  infantry: [
    ['Grey', 'Ridge', 'Harbour', 'Lantern', 'Copper'],
    ['Rifles', 'Wardens', 'Pioneers', 'Rangers', 'Fusiliers'],
  ],
  tank: [
    ['Anvil', 'Thistle', 'Bastion', 'Cinder', 'Rook'],
    ['Mk I', 'Mk II', 'Heavy', 'Light', 'Prototype'],
  ],
  artillery: [
    ['Long', 'Valley', 'Thunder', 'Quarry', 'Sentinel'],
    ['Battery', 'Howitzer', 'Mortar Team', 'Field Gun', 'Rocket Rack'],
  ],
  fighter: [
    ['Swift', 'Kestrel', 'Skylark', 'Falcon', 'Sparrow'],
    ['Interceptor', 'Patrol', 'Squadron', 'Escort', 'Wing'],
  ],
  bomber: [
    ['Night', 'Storm', 'Heron', 'Albatross', 'Pelican'],
    ['Raider', 'Bomber', 'Torpedo Wing', 'Striker', 'Heavy Wing'],
  ],
  order: [
    ['Forward', 'Quiet', 'Iron', 'Open', 'Last'],
    ['March', 'Resolve', 'Supply', 'Barrage', 'Ruse'],
  ],
  countermeasure: [
    ['Hidden', 'False', 'Tight', 'Cold', 'Sudden'],
    ['Ambush', 'Front', 'Perimeter', 'Snap', 'Warning'],
  ],
  headquarters: [[], []],
};
const FACTION_TAG: Record<CardFaction, string> = {
  germany: 'Nordmark',
  britain: 'Albion',
  japan: 'Kaido',
  soviet: 'Volga',
  usa: 'Prairie',
  france: 'Loire',
  italy: 'Tevere',
  poland: 'Vistula',
  finland: 'Karelia',
  anzac: 'Southern Cross',
  neutral: 'Free',
};

let next = 62; // "10": skip one-digit-looking ids
const nextId = () => {
  const id = (BASE62[Math.floor(next / 62)] as string) + (BASE62[next % 62] as string);
  next++;
  return id;
};
const cards: Card[] = [];
const add = (c: Omit<Card, 'card_id'> & { card_id?: string }) => cards.push({ card_id: c.card_id ?? nextId(), ...c } as Card);

for (const f of FACTIONS) {
  const faction = f.id as FactionId;
  RARITY_PLAN.forEach((rarity, i) => {
    const type = TYPES[i % TYPES.length] as CardType;
    const [a, b] = WORDS[type];
    const name = `${FACTION_TAG[faction]} ${a[i % a.length]} ${b[Math.floor(i / TYPES.length) % b.length]}`;
    add({ name, faction, type, rarity, kredits: 1 + (i % 7), set: 'Demo Core', derived: false, exile: null });
  });
  add({
    name: `${FACTION_TAG[faction]} Reserve Token`,
    faction,
    type: 'infantry',
    rarity: 'standard',
    kredits: 1,
    set: 'Demo Tokens',
    derived: true,
    exile: null,
  });
  add({
    name: `${FACTION_TAG[faction]} Field Order Token`,
    faction,
    type: 'order',
    rarity: 'limited',
    kredits: 0,
    set: 'Demo Tokens',
    derived: true,
    exile: null,
  });
  if (f.main) {
    add({
      name: `${FACTION_TAG[faction]} Command Post`,
      faction,
      type: 'headquarters',
      rarity: 'standard',
      kredits: 0,
      set: 'Demo Core',
      derived: false,
      exile: null,
    });
  }
}
for (const [i, rarity] of (['standard', 'limited', 'special'] as Rarity[]).entries()) {
  add({
    name: `Free ${['Volunteers', 'Convoy', 'Partisans'][i]}`,
    faction: 'neutral',
    type: (['infantry', 'order', 'infantry'] as CardType[])[i] as CardType,
    rarity,
    kredits: 2 + i,
    set: 'Demo Core',
    derived: false,
    exile: null,
  });
}
add({
  name: 'Free Supply Crate',
  faction: 'neutral',
  type: 'order',
  rarity: 'standard',
  kredits: 0,
  set: 'Demo Tokens',
  derived: true,
  exile: null,
});
add({
  card_id: 'demo_spawned_scout',
  name: 'Free Spawned Scout',
  faction: 'neutral',
  type: 'infantry',
  rarity: 'standard',
  kredits: 1,
  set: 'Demo Tokens',
  derived: true,
  exile: null,
});
// Exiles: cards of one faction that may also serve another (counted as that faction).
add({
  name: 'Vistula Exile Squadron',
  faction: 'poland',
  type: 'fighter',
  rarity: 'limited',
  kredits: 3,
  set: 'Demo Exiles',
  derived: false,
  exile: 'britain',
});
add({
  name: 'Vistula Exile Brigade',
  faction: 'poland',
  type: 'infantry',
  rarity: 'standard',
  kredits: 2,
  set: 'Demo Exiles',
  derived: false,
  exile: 'britain',
});
add({
  name: 'Loire Exile Legion',
  faction: 'france',
  type: 'infantry',
  rarity: 'special',
  kredits: 3,
  set: 'Demo Exiles',
  derived: false,
  exile: 'usa',
});

// A second language, invented as the names are (contract §10.1: every path of names by language runs
// offline): each English word of a name in German where this list has it, the place names as they are.
const GERMAN: Record<string, string> = {
  Grey: 'Graue',
  Ridge: 'Grat',
  Harbour: 'Hafen',
  Lantern: 'Laternen',
  Copper: 'Kupfer',
  Rifles: 'Schützen',
  Wardens: 'Wächter',
  Pioneers: 'Pioniere',
  Rangers: 'Jäger',
  Fusiliers: 'Füsiliere',
  Anvil: 'Amboss',
  Thistle: 'Distel',
  Cinder: 'Glut',
  Rook: 'Turm',
  Heavy: 'Schwer',
  Light: 'Leicht',
  Prototype: 'Prototyp',
  Long: 'Lange',
  Valley: 'Tal',
  Thunder: 'Donner',
  Quarry: 'Steinbruch',
  Sentinel: 'Wacht',
  Battery: 'Batterie',
  Howitzer: 'Haubitze',
  Mortar: 'Mörser',
  Team: 'Trupp',
  Field: 'Feld',
  Gun: 'Geschütz',
  Rocket: 'Raketen',
  Rack: 'Werfer',
  Swift: 'Flinke',
  Kestrel: 'Turmfalke',
  Skylark: 'Lerche',
  Falcon: 'Falke',
  Sparrow: 'Spatz',
  Interceptor: 'Abfangjäger',
  Patrol: 'Streife',
  Squadron: 'Staffel',
  Escort: 'Geleit',
  Wing: 'Geschwader',
  Night: 'Nacht',
  Storm: 'Sturm',
  Heron: 'Reiher',
  Albatross: 'Albatros',
  Pelican: 'Pelikan',
  Raider: 'Räuber',
  Bomber: 'Bomber',
  Torpedo: 'Torpedo',
  Striker: 'Stürmer',
  Forward: 'Vorwärts',
  Quiet: 'Stiller',
  Iron: 'Eiserner',
  Open: 'Offener',
  Last: 'Letzter',
  March: 'Marsch',
  Resolve: 'Wille',
  Supply: 'Nachschub',
  Barrage: 'Sperrfeuer',
  Ruse: 'List',
  Hidden: 'Verborgener',
  False: 'Falsche',
  Tight: 'Enge',
  Cold: 'Kalte',
  Sudden: 'Jäher',
  Ambush: 'Hinterhalt',
  Front: 'Front',
  Perimeter: 'Ring',
  Snap: 'Schnapp',
  Warning: 'Warnung',
  Reserve: 'Reserve',
  Token: 'Marke',
  Order: 'Befehl',
  Command: 'Kommando',
  Post: 'Posten',
  Free: 'Freie',
  Volunteers: 'Freiwillige',
  Convoy: 'Konvoi',
  Partisans: 'Partisanen',
  Crate: 'Kiste',
  Spawned: 'Gerufener',
  Scout: 'Späher',
  Exile: 'Exil',
  Brigade: 'Brigade',
  Legion: 'Legion',
};
const german = (name: string) =>
  name
    .split(' ')
    .map((word) => GERMAN[word] ?? word)
    .join(' ');
for (const card of cards) card.names = { en: card.name, de: german(card.name) };

writeFileSync(new URL('../lib/catalogue/demo-cards.json', import.meta.url), `${JSON.stringify(cards, null, 1)}\n`);
console.log(`wrote ${cards.length} demo cards`);
