/**
 * Events over HTTP (contract §13.4), on a runtime of the file's own (its store holds the catalogue versions this file
 * publishes, and nothing another file publishes): an organizer's pauper event; an illegal pair refused naming each
 * failure, a legal one taken with its lock hash; the lists the organizer's alone until the deadline, then anyone's
 * (JSON, CSV, the page); after the deadline nothing changes but the description, withdrawals and disqualifications;
 * a pool date chooses the catalogue version in force then; scopes, another account, bad input — each its answer.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CATALOGUE_FILE, demoCatalogue } from '#catalogue/load.ts';
import { type Card, parseCatalogue } from '#rules/catalogue.ts';
import { type Deck, encodeDeckCode } from '#rules/deck-code.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { publishCatalogue } from '#store/catalogue-publish.ts';
import { call, details, newOwner, type Owner } from '../support/api.ts';
import { pauperDeck } from '../support/decks.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';

const demo = demoCatalogue();
let runtime: OwnRuntime | undefined;
beforeAll(async () => {
  // Entries final 3 s after a deadline (deployed: the routes' timeout and 5 s): the lists are read once they are.
  runtime = await ownRuntime('events', { EVENT_SETTLE_SECONDS: '3' });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
});

const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
const sha256 = (codes: string[]) => createHash('sha256').update(codes.join('\n')).digest('hex');
const pair = (): [Deck, Deck] => [pauperDeck(demo, 'germany', 'italy') as Deck, pauperDeck(demo, 'soviet', 'usa') as Deck];
const entryPath = (id: string, o: Owner) => `/api/v1/events/${id}/entries/${o.userId}`;
const submit = (id: string, o: Owner, decks: unknown[]) => call('PUT', entryPath(id, o), { key: o.key, body: { decks } });
const codes = (decks: Deck[]) => decks.map((d) => ({ deck_code: encodeDeckCode(d) }));
const newEvent = async (organizer: Owner, body: Record<string, unknown> = {}) => {
  const r = await call('POST', '/api/v1/events', {
    key: organizer.key,
    body: {
      name: 'Special Ops Pauper',
      format: 'pauper',
      pool_date: '2026-11-01',
      decks_per_player: 2,
      distinct_mains: true,
      deadline: soon(30_000),
      lists: 'open',
      ...body,
    },
  });
  expect(r.status, r.text).toBe(201);
  return r;
};
/** Waits until an instant has passed (the deadline an event was moved to). */
const until = async (instant: string) => {
  const left = Date.parse(instant) - Date.now();
  if (left > 0) await new Promise((r) => setTimeout(r, left + 50));
};

describe('an event, its entries and its lists, over HTTP', () => {
  it('a pauper event: an illegal pair is 422 naming each failure, a legal one 200; lists the organizer’s alone; after the deadline 409, lists public with lock hashes', async () => {
    const organizer = await newOwner(undefined, 'Tournament Desk');
    const [alice, bob, carol] = await Promise.all([
      newOwner(undefined, 'Alice'),
      newOwner(undefined, '=HYPERLINK("x")'),
      newOwner(undefined, '<b>Carol</b>'),
    ]);
    const created = await newEvent(organizer);
    const event = created.body.data;
    expect(created.headers.get('location')).toBe(`/api/v1/events/${event.event_id}`);
    expect(event).toMatchObject({
      format: 'pauper',
      decks_per_player: 2,
      distinct_mains: true,
      lists: 'open',
      submissions_open: true,
      lists_public: false,
    });
    expect(event.organizer).toEqual({ display_name: 'Tournament Desk' });
    expect((await call('GET', `/api/v1/events/${event.event_id}`)).body.data).toEqual(event);

    // An illegal pair: a special card in the second deck, and both decks of one main nation.
    const [legal, other] = pair();
    const rare = demo.cards.find(
      (c) => c.faction === 'germany' && c.rarity === 'special' && !legal.cards.some((x) => x.card_id === c.card_id),
    ) as Card;
    const traded = legal.cards.findIndex((c) => demo.get(c.card_id)?.faction === 'germany' && c.count > 1);
    const special: Deck = {
      ...legal,
      cards: legal.cards.map((c, i) => (i === traded ? { ...c, count: c.count - 1 } : c)).concat([{ card_id: rare.card_id, count: 1 }]),
    };
    const refused = await submit(event.event_id, alice, codes([legal, special]));
    expect(refused.status).toBe(422);
    expect(details(refused)).toEqual([
      ['decks[1]', 'not_in_format'],
      ['decks[1]', 'duplicate'],
    ]);
    expect(refused.body.error.details[0].message).toContain(rare.card_id);

    // Legal: 200, with the hash of the canonical codes; bob submits a saved deck and a code.
    const taken = await submit(event.event_id, alice, codes([legal, other]));
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body.data.lock_hash).toBe(sha256([encodeDeckCode(legal), encodeDeckCode(other)]));
    expect(taken.body.data).toMatchObject({ locked: false, display_name: 'Alice', checked_under_current_rules: true, disqualified: null });
    expect(taken.body.data.decks[0].links).toEqual({
      page: `/c/${urlCodeOf(legal)}`,
      image: `/api/v1/codes/${urlCodeOf(legal)}/image.png`,
    });
    const saved = await call('POST', bob.decks, { key: bob.key, body: { deck_code: encodeDeckCode(legal), guide: { system: 'Tempo' } } });
    expect(saved.status).toBe(201);
    const bobs = await submit(event.event_id, bob, [{ deck_id: saved.body.data.id }, { deck_code: encodeDeckCode(other) }]);
    expect(bobs.status, bobs.text).toBe(200);
    expect(bobs.body.data.decks[0].deck_id).toBe(saved.body.data.id);
    // Another account's deck is no deck of bob's; another account's entry path is 403.
    expect(details(await submit(event.event_id, alice, [{ deck_id: saved.body.data.id }, codes([other])[0]]))).toEqual([
      ['decks[0].deck_id', 'invalid_value'],
    ]);
    expect((await call('PUT', entryPath(event.event_id, bob), { key: alice.key, body: { decks: codes([legal, other]) } })).status).toBe(
      403,
    );
    // Carol submits, then withdraws.
    expect((await submit(event.event_id, carol, codes([legal, other]))).status).toBe(200);
    expect((await call('DELETE', entryPath(event.event_id, carol), { key: carol.key })).status).toBe(200);
    expect((await call('GET', entryPath(event.event_id, carol), { key: carol.key })).status).toBe(404);
    expect((await call('GET', entryPath(event.event_id, alice), { key: alice.key })).body.data.lock_hash).toBe(taken.body.data.lock_hash);

    // Before the deadline the lists are the organizer's alone.
    const lists = `/api/v1/events/${event.event_id}/entries`;
    for (const key of [undefined, alice.key]) {
      const r = await call('GET', lists, { key });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('lists_not_public');
      expect((await call('GET', `${lists}.csv`, { key })).status).toBe(403);
    }
    const own = await call('GET', lists, { key: organizer.key });
    expect(own.status).toBe(200);
    expect(own.body.data.map((e: { display_name: string }) => e.display_name).sort()).toEqual(['=HYPERLINK("x")', 'Alice'].sort());
    expect(own.body.data.every((e: { decks: { deck_id?: string }[] }) => e.decks.every((d) => d.deck_id === undefined))).toBe(true);
    expect(own.headers.get('cache-control')).toBe('no-store');
    // The organizer alone changes the event; a disqualification shows.
    expect((await call('PATCH', `/api/v1/events/${event.event_id}`, { key: alice.key, body: { name: 'Mine' } })).body.error.code).toBe(
      'not_organizer',
    );
    const dq = await call('PATCH', `/api/v1/events/${event.event_id}`, {
      key: organizer.key,
      body: { disqualify: [{ user_id: bob.userId, reason: 'Late check-in' }] },
    });
    expect(dq.status, dq.text).toBe(200);
    expect(
      details(await call('PATCH', `/api/v1/events/${event.event_id}`, { key: organizer.key, body: { withdraw: [carol.userId] } })),
    ).toEqual([['withdraw[0]', 'invalid_value']]);

    // The deadline moved to 2 s ahead, and passed: nothing changes but the description and the entries.
    const deadline = soon(2_000);
    const moved = await call('PATCH', `/api/v1/events/${event.event_id}`, { key: organizer.key, body: { deadline } });
    expect(moved.body.data.deadline).toBe(deadline);
    await until(deadline);
    // Past the deadline, not yet locked: the lists are still closed (entries sent before it may still land).
    expect((await call('GET', lists)).status).toBe(403);
    const late = await submit(event.event_id, alice, codes([legal, other]));
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('deadline_passed');
    expect((await call('DELETE', entryPath(event.event_id, alice), { key: alice.key })).status).toBe(409);
    expect((await call('PATCH', `/api/v1/events/${event.event_id}`, { key: organizer.key, body: { name: 'Renamed' } })).status).toBe(409);
    expect(
      (await call('PATCH', `/api/v1/events/${event.event_id}`, { key: organizer.key, body: { description: 'Round 1 at 14:00' } })).status,
    ).toBe(200);
    // Final once the settle after the deadline has passed (here 3 s: EVENT_SETTLE_SECONDS).
    expect(Date.parse(moved.body.data.locked_at) - Date.parse(deadline)).toBe(3_000);
    await until(moved.body.data.locked_at);

    // Public now: JSON, CSV and the page, with the lock hashes answered at submission.
    const open = await call('GET', lists);
    expect(open.status).toBe(200);
    expect(open.body.meta).toEqual({ api_version: 'v1', event_id: event.event_id, entries: 2, locked: true, deadline });
    const byName = Object.fromEntries(open.body.data.map((e: { display_name: string }) => [e.display_name, e]));
    expect(byName.Alice.lock_hash).toBe(taken.body.data.lock_hash);
    expect(byName.Alice.locked).toBe(true);
    expect(byName['=HYPERLINK("x")'].disqualified.reason).toBe('Late check-in');
    const csv = await call('GET', `${lists}.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = csv.text.split('\r\n');
    expect(rows[0]).toBe(
      'player,user_id,deck_1_code,deck_1_main_faction,deck_1_ally_faction,deck_1_archetype,deck_2_code,deck_2_main_faction,deck_2_ally_faction,deck_2_archetype,lock_hash,checked_under_current_rules,disqualified',
    );
    expect(rows.filter(Boolean)).toHaveLength(3);
    // A name a spreadsheet would run is led by an apostrophe.
    // Anyone's lists name no account's id; the organizer's do.
    expect(csv.text).toContain(`"'=HYPERLINK(""x"")",,`);
    expect(csv.text).not.toContain(bob.userId);
    expect(open.body.data.every((e: { user_id?: string }) => e.user_id === undefined)).toBe(true);
    expect((await call('GET', `${lists}.csv`, { key: organizer.key })).text).toContain(`"'=HYPERLINK(""x"")",${bob.userId}`);
    expect((await call('GET', lists, { key: alice.key })).status).toBe(200);
    expect(csv.text).toContain(taken.body.data.lock_hash);
    const page = await call('GET', `/e/${event.event_id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Alice');
    expect(page.text).toContain(`/c/${urlCodeOf(legal)}`);
    expect(page.text).toContain('Late check-in');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    // The public lists a function keeps are known by the event's version: a withdrawal shows on the next read.
    const out = await call('PATCH', `/api/v1/events/${event.event_id}`, { key: organizer.key, body: { withdraw: [alice.userId] } });
    expect(out.status, out.text).toBe(200);
    expect((await call('GET', lists)).body.data.map((e: { display_name: string }) => e.display_name)).toEqual(['=HYPERLINK("x")']);
    expect((await call('GET', `/e/${event.event_id}`)).text).not.toContain('Alice');
  }, 60_000);

  it('a closed event’s lists stay the organizer’s after the deadline; an unknown event is 404; the page of one says so', async () => {
    const organizer = await newOwner();
    const made = (await newEvent(organizer, { lists: 'closed', deadline: soon(1_500), format: 'standard', decks_per_player: 1 })).body.data;
    const { event_id } = made;
    await until(made.locked_at);
    const r = await call('GET', `/api/v1/events/${event_id}/entries`);
    expect(r.status).toBe(403);
    expect(r.body.error.message).toContain('closed');
    expect((await call('GET', `/api/v1/events/${event_id}/entries`, { key: organizer.key })).status).toBe(200);
    const page = await call('GET', `/e/${event_id}`);
    expect(page.text).toContain('organizer’s alone');
    for (const id of ['6c1f0e7a-2b9d-4f3e-8a51-0d4c7b2e9f18', 'nope']) {
      expect((await call('GET', `/api/v1/events/${id}`)).status).toBe(404);
      const missing = await call('GET', `/e/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.text).toContain('Event not found');
    }
  });

  it('bad input names each field; scopes and accounts are held', async () => {
    const organizer = await newOwner();
    const bad = await call('POST', '/api/v1/events', {
      key: organizer.key,
      body: { name: '', format: 'vintage', pool_date: '2026-02-30', decks_per_player: 4, deadline: 'tomorrow', lists: 'public', extra: 1 },
    });
    expect(bad.status).toBe(422);
    expect(
      details(bad)
        .map(([p]) => p)
        .sort(),
    ).toEqual(['extra', 'name', 'format', 'pool_date', 'decks_per_player', 'deadline', 'lists'].sort());
    const past = await call('POST', '/api/v1/events', {
      key: organizer.key,
      body: { name: 'Past', format: 'standard', pool_date: '2026-01-01', decks_per_player: 1, deadline: '2020-01-01T00:00:00Z' },
    });
    expect(details(past)).toEqual([['deadline', 'invalid_value']]);
    // An offset deadline is answered in UTC.
    const offset = new Date(Date.now() + 3_600_000);
    const local = `${offset.toISOString().slice(0, 19)}-02:00`;
    const made = await newEvent(organizer, { deadline: local });
    expect(made.body.data.deadline).toBe(new Date(Date.parse(local)).toISOString());
    const submitter = await newOwner(['events:submit']);
    expect((await call('POST', '/api/v1/events', { key: submitter.key, body: {} })).body.error.code).toBe('insufficient_scope');
    expect((await call('POST', '/api/v1/events', { body: {} })).status).toBe(401);
    const writer = await newOwner(['events:write']);
    expect((await submit(made.body.data.event_id, writer, codes(pair()))).body.error.code).toBe('insufficient_scope');
    // A writer of another account reads no lists; a submission's body is checked whole.
    expect((await call('GET', `/api/v1/events/${made.body.data.event_id}/entries`, { key: writer.key })).status).toBe(403);
    const odd = await submit(made.body.data.event_id, submitter, [{ deck_code: 'not a code' }, { deck_id: 'x' }, {}]);
    expect(odd.status).toBe(422);
    expect(
      details(await submit(made.body.data.event_id, submitter, [{ deck_code: '%%12|' }, { deck_code: encodeDeckCode(pair()[1]) }])),
    ).toEqual([['decks[0].deck_code', 'invalid_deck_code']]);
    expect(details(await call('PATCH', `/api/v1/events/${made.body.data.event_id}`, { key: organizer.key, body: {} }))).toEqual([
      ['', 'empty_patch'],
    ]);
  });

  it('a rules change leaves the entries made before it marked; they are checked again when submitted again', async () => {
    const organizer = await newOwner();
    const player = await newOwner();
    const { event_id } = (await newEvent(organizer, { distinct_mains: false })).body.data;
    expect((await submit(event_id, player, codes(pair()))).status).toBe(200);
    const changed = await call('PATCH', `/api/v1/events/${event_id}`, { key: organizer.key, body: { decks_per_player: 1 } });
    expect(changed.body.data.rules_version).toBe(2);
    expect((await call('GET', entryPath(event_id, player), { key: player.key })).body.data.checked_under_current_rules).toBe(false);
    expect(details(await submit(event_id, player, codes(pair())))).toEqual([['decks', 'too_many']]);
    expect((await submit(event_id, player, codes(pair().slice(0, 1)))).body.data.checked_under_current_rules).toBe(true);
    // A change of the name alone is no rules change.
    expect(
      (await call('PATCH', `/api/v1/events/${event_id}`, { key: organizer.key, body: { name: 'Renamed' } })).body.data.rules_version,
    ).toBe(2);
  });
});

describe('the card pool of an event’s date', () => {
  it('a deck legal today but holding a card newer than the pool of the event’s date is refused; a later pool takes it', async () => {
    const organizer = await newOwner();
    const player = await newOwner();
    const [legal, other] = pair();
    // The older version lacks one card of the legal deck: the catalogue as published on 2026-03-01, then today's on 2026-06-01.
    const newer = legal.cards[0]?.card_id as string;
    const text = readFileSync(DEMO_CATALOGUE_FILE, 'utf8');
    const older = JSON.stringify((JSON.parse(text) as { card_id: string }[]).filter((c) => c.card_id !== newer));
    expect(parseCatalogue(JSON.parse(older)).get(newer)).toBeUndefined();
    // A webhook taking catalogue.published (contract §13.5) hears each version put in force, with the one before.
    const heard: { type: string; data: { catalogue: { version: string; previous: string | null } } }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        heard.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
    const hook = await call('POST', `/api/v1/users/${organizer.userId}/webhooks`, {
      key: organizer.key,
      body: { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/catalogue`, events: ['catalogue.published'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const first = await publishCatalogue(older, { cards: 1, languages: ['en'] }, undefined, new Date('2026-03-01T00:00:00Z'));
    const second = await publishCatalogue(text, { cards: 1, languages: ['en'] }, first, new Date('2026-06-01T00:00:00Z'));
    for (let i = 0; i < 200 && heard.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    receiver.close();
    // Each its own delivery (sent at once, they may arrive in either order).
    expect(heard.map((h) => [h.type, h.data.catalogue.version, h.data.catalogue.previous])).toEqual(
      expect.arrayContaining([
        ['catalogue.published', first?.version, null],
        ['catalogue.published', second?.version, first?.version],
      ]),
    );
    expect(heard).toHaveLength(2);
    for (const [pool, status] of [
      ['2026-04-15', 422],
      ['2025-01-01', 422], // before the first version kept: the oldest
      ['2026-06-01', 200], // the day it was published: that day's end
      ['2026-11-01', 200],
    ] as const) {
      const { event_id } = (await newEvent(organizer, { pool_date: pool })).body.data;
      const r = await submit(event_id, player, codes([legal, other]));
      expect(r.status, `${pool}: ${r.text}`).toBe(status);
      if (status === 422) expect(details(r)).toContainEqual(['decks[0]', 'unknown_card']);
    }
  });
});

describe('the last second before the deadline', () => {
  it('212 entries submitted at once in it: each 200 (landed before the deadline) or 409, none lost or doubled', async () => {
    const organizer = await newOwner();
    const players = await Promise.all(Array.from({ length: 212 }, (_, i) => newOwner(['events:submit'], `Player ${i}`)));
    const [deck, other] = pair();
    const deadline = soon(8_000);
    const { event_id } = (await newEvent(organizer, { format: 'standard', decks_per_player: 1, distinct_mains: false, deadline })).body
      .data;
    // Ten of them submitted well before: the lists hold them whatever the burst's split (on a loaded machine every one of
    // the burst's may reach the store after the deadline).
    const early = players.slice(0, 10);
    for (const r of await Promise.all(early.map((p) => submit(event_id, p, codes([other]))))) expect(r.status, r.text).toBe(200);
    await until(new Date(Date.parse(deadline) - 1_000).toISOString());
    const answers = await Promise.all(players.map((p) => submit(event_id, p, codes([deck]))));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      JSON.stringify(statuses),
    ).toBe(true);
    for (const a of answers) {
      if (a.status === 200) expect(Date.parse(a.body.data.submitted_at)).toBeLessThan(Date.parse(deadline));
      else expect(a.body.error.code).toBe('deadline_passed');
    }
    await until(deadline);
    const burst = new Set(players.filter((_, i) => statuses[i] === 200).map((p) => p.userId));
    const landed = new Set([...early.map((p) => p.userId), ...burst]);
    const entries = (await call('GET', `/api/v1/events/${event_id}/entries`, { key: organizer.key })).body.data as {
      user_id: string;
      decks: { deck_code: string }[];
    }[];
    const listed = entries.map((e) => e.user_id);
    expect(listed.length).toBe(new Set(listed).size);
    expect(new Set(listed)).toEqual(landed);
    // Each entry is its last submission that landed: the burst's deck where it was 200, else the early one's.
    for (const e of entries) expect(e.decks[0]?.deck_code, e.user_id).toBe(encodeDeckCode(burst.has(e.user_id) ? deck : other));
  }, 120_000);
});

describe('what a hostile review found, held', () => {
  const patch = (o: Owner, id: string, body: unknown) => call('PATCH', `/api/v1/events/${id}`, { key: o.key, body });
  const post = (o: Owner, body: Record<string, unknown>) =>
    call('POST', '/api/v1/events', {
      key: o.key,
      body: { name: 'Cup', format: 'standard', pool_date: '2026-11-01', decks_per_player: 1, deadline: soon(3_600_000), ...body },
    });

  it('days and times that do not exist are 422, never a 500 or another day; the pool is a day past', async () => {
    const organizer = await newOwner();
    for (const pool_date of ['2026-13-01', '2026-00-10', '2026-02-30', '0000-01-01', '9999-12-31', new Date().toISOString().slice(0, 10)]) {
      const r = await post(organizer, { pool_date });
      expect([r.status, details(r)], pool_date).toEqual([422, [['pool_date', 'invalid_value']]]);
    }
    const next = new Date().getUTCFullYear() + 1;
    for (const deadline of [
      `${next}-02-30T12:00:00Z`,
      `${next}-01-01T24:00:00Z`,
      `${next}-01-01T12:00:60Z`,
      `${next}-01-01T12:00:00+24:00`,
    ]) {
      const r = await post(organizer, { deadline });
      expect([r.status, details(r)], deadline).toEqual([422, [['deadline', 'invalid_value']]]);
    }
    const { event_id } = (await post(organizer, {})).body.data;
    expect(details(await patch(organizer, event_id, { pool_date: '2026-99-01' }))).toEqual([['pool_date', 'invalid_value']]);
  });

  it('names and reasons are visible text counted in characters; a blank reason is blank_reason', async () => {
    const organizer = await newOwner();
    for (const name of ['   ', 'a\u0000b', 'x\u202ey', 'bell\u0007'])
      expect(details(await post(organizer, { name })), JSON.stringify(name)).toEqual([['name', expect.any(String)]]);
    const emoji = await post(organizer, { name: '😀'.repeat(60), description: 'Line one\n\tLine two' });
    expect(emoji.status, emoji.text).toBe(201);
    expect(details(await post(organizer, { description: 'a\u001b[2J' }))).toEqual([['description', 'invalid_value']]);
    const player = await newOwner();
    const { event_id } = emoji.body.data;
    expect((await submit(event_id, player, codes(pair().slice(0, 1)))).status).toBe(200);
    expect(details(await patch(organizer, event_id, { disqualify: [{ user_id: player.userId, reason: '  ' }] }))).toEqual([
      ['disqualify[0].reason', 'blank_reason'],
    ]);
  });

  it('a change is whole or not at all; a player named twice is a duplicate; a change that changes nothing writes nothing', async () => {
    const organizer = await newOwner();
    const [a, b] = await Promise.all([newOwner(), newOwner()]);
    const { event_id } = (await post(organizer, {})).body.data;
    for (const p of [a, b]) expect((await submit(event_id, p, codes(pair().slice(0, 1)))).status).toBe(200);
    const before = (await call('GET', `/api/v1/events/${event_id}`)).body.data;
    const stranger = '6c1f0e7a-2b9d-4f3e-8a51-0d4c7b2e9f18';
    const failed = await patch(organizer, event_id, {
      name: 'Renamed',
      withdraw: [a.userId],
      disqualify: [{ user_id: stranger, reason: 'x' }],
    });
    expect(details(failed)).toEqual([['disqualify[0].user_id', 'invalid_value']]);
    expect((await call('GET', `/api/v1/events/${event_id}`)).body.data).toEqual(before);
    expect((await call('GET', entryPath(event_id, a), { key: a.key })).status).toBe(200);
    expect(details(await patch(organizer, event_id, { withdraw: [a.userId, a.userId] }))).toEqual([['withdraw[1]', 'duplicate']]);
    expect(details(await patch(organizer, event_id, { withdraw: [a.userId], disqualify: [{ user_id: a.userId, reason: 'x' }] }))).toEqual([
      ['disqualify[0].user_id', 'duplicate'],
    ]);
    const same = await patch(organizer, event_id, { format: before.format, decks_per_player: before.decks_per_player, name: before.name });
    expect(same.body.data).toEqual(before);
    // A disqualification stays when its player submits again; repeating it rewrites nothing.
    const dq = { disqualify: [{ user_id: b.userId, reason: 'Late check-in' }] };
    expect((await patch(organizer, event_id, dq)).status).toBe(200);
    const at = (await call('GET', entryPath(event_id, b), { key: b.key })).body.data.disqualified.at;
    expect((await patch(organizer, event_id, dq)).status).toBe(200);
    const again = await submit(event_id, b, codes(pair().slice(1)));
    expect(again.body.data.disqualified).toEqual({ reason: 'Late check-in', at });
    expect((await patch(organizer, event_id, { disqualify: [{ user_id: b.userId, reason: null }] })).status).toBe(200);
    expect((await call('GET', entryPath(event_id, b), { key: b.key })).body.data.disqualified).toBeNull();
  });

  it('each deck of a submission is a code or a saved deck, one of the two; unknown fields are named; an unknown event is 404 first', async () => {
    const player = await newOwner();
    const { event_id } = (await post(await newOwner(), { decks_per_player: 2 })).body.data;
    const [legal] = pair();
    const both = await submit(event_id, player, [
      { deck_code: encodeDeckCode(legal), deck_id: '6c1f0e7a-2b9d-4f3e-8a51-0d4c7b2e9f18' },
      JSON.parse(`{"__proto__":1,"deck_code":"${encodeDeckCode(legal)}"}`),
    ]);
    expect(details(both)).toEqual([
      ['decks[1].__proto__', 'unknown_field'],
      ['decks[0]', 'invalid_value'],
    ]);
    expect((await submit('6c1f0e7a-2b9d-4f3e-8a51-0d4c7b2e9f18', player, [{ deck_code: 'garbage' }])).status).toBe(404);
    expect(
      details(await submit(event_id, player, [{ deck_code: 'garbage' }, { deck_id: '6c1f0e7a-2b9d-4f3e-8a51-0d4c7b2e9f18' }])),
    ).toEqual([
      ['decks[0].deck_code', 'invalid_deck_code'],
      ['decks[1].deck_id', 'invalid_value'],
    ]);
  });
});

describe('what a second hostile review found, held', () => {
  const post = (o: Owner, body: Record<string, unknown>) =>
    call('POST', '/api/v1/events', {
      key: o.key,
      body: { name: 'Cup', format: 'standard', pool_date: '2026-11-01', decks_per_player: 1, deadline: soon(3_600_000), ...body },
    });

  it('a disqualified entry is the organizer’s to withdraw: the player’s DELETE is 403 and the disqualification stays', async () => {
    const organizer = await newOwner();
    const player = await newOwner();
    const { event_id } = (await post(organizer, {})).body.data;
    expect((await submit(event_id, player, codes(pair().slice(0, 1)))).status).toBe(200);
    const dq = { disqualify: [{ user_id: player.userId, reason: 'Marked cards' }] };
    expect((await call('PATCH', `/api/v1/events/${event_id}`, { key: organizer.key, body: dq })).status).toBe(200);
    const gone = await call('DELETE', entryPath(event_id, player), { key: player.key });
    expect([gone.status, gone.body.error.code]).toEqual([403, 'not_organizer']);
    expect((await submit(event_id, player, codes(pair().slice(1)))).body.data.disqualified.reason).toBe('Marked cards');
  });

  it('every failure of a submission at once: a deck that cannot be read, and the count; the CSV holds every deck of an entry made under earlier rules', async () => {
    const organizer = await newOwner();
    const player = await newOwner();
    const { event_id } = (await post(organizer, { decks_per_player: 3, distinct_mains: true })).body.data;
    const [legal] = pair();
    expect(details(await submit(event_id, player, [{ deck_code: 'garbage' }, { deck_code: encodeDeckCode(legal) }]))).toEqual([
      ['decks[0].deck_code', 'invalid_deck_code'],
      ['decks', 'too_few'],
    ]);
    const two = await post(organizer, { decks_per_player: 2, lists: 'open' });
    expect((await submit(two.body.data.event_id, player, codes(pair()))).status).toBe(200);
    expect(
      (await call('PATCH', `/api/v1/events/${two.body.data.event_id}`, { key: organizer.key, body: { decks_per_player: 1 } })).status,
    ).toBe(200);
    const csv = (await call('GET', `/api/v1/events/${two.body.data.event_id}/entries.csv`, { key: organizer.key })).text;
    expect(csv.split('\r\n')[0]).toContain('deck_2_code');
    expect(csv).toContain(encodeDeckCode(pair()[1]));
  });

  it('blank lookalikes are no name and no reason; a description keeps CRLF lines; another account’s PATCH is 403 whatever its body', async () => {
    const organizer = await newOwner();
    for (const name of ['\u2800', '\u3164 \u3164']) expect(details(await post(organizer, { name })), name).toEqual([['name', 'required']]);
    const made = await post(organizer, { description: 'Round 1\r\nRound 2' });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.description).toBe('Round 1\r\nRound 2');
    const player = await newOwner();
    const { event_id } = made.body.data;
    expect((await submit(event_id, player, codes(pair().slice(0, 1)))).status).toBe(200);
    expect(
      details(
        await call('PATCH', `/api/v1/events/${event_id}`, {
          key: organizer.key,
          body: { disqualify: [{ user_id: player.userId, reason: '\u3164' }] },
        }),
      ),
    ).toEqual([['disqualify[0].reason', 'blank_reason']]);
    const other = await call('PATCH', `/api/v1/events/${event_id}`, { key: player.key, body: { name: '' } });
    expect([other.status, other.body.error.code]).toEqual([403, 'not_organizer']);
  });

  it('between the deadline and locked_at the page says when the lists open', async () => {
    const organizer = await newOwner();
    const made = (await post(organizer, { deadline: soon(1_000), lists: 'open' })).body.data;
    await until(made.deadline);
    const page = await call('GET', `/e/${made.event_id}`);
    expect(page.text).toContain(`once the entries are locked, at ${made.locked_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`);
  });
});
