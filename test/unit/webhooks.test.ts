/**
 * Webhooks' pure rules (lib/rules/webhooks.ts): a delivery signed as Standard Webhooks 1.0 says, checked by the spec's
 * reference verifier (the `standardwebhooks` npm package) and by a hand HMAC; several signatures while a secret
 * rotates; the retry schedule; the addresses a delivery never reaches; a target URL's issues; search's filters on a deck.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  deliveryHeaders,
  isDiscordWebhook,
  passesFilters,
  RETRY_SCHEDULE_SECONDS,
  reachableAddress,
  retryDelaySeconds,
  SECRET_BYTES,
  SECRET_PREFIX,
  targetIssue,
} from '#rules/webhooks.ts';

const secret = () => `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
const body = JSON.stringify({ type: 'deck.published', timestamp: '2026-11-30T00:00:00.000Z', data: { share_slug: 'abcdefABCDEF' } });

describe('a delivery signed as Standard Webhooks 1.0', () => {
  it("verifies with the spec's reference verifier, and is the hand HMAC of id.timestamp.body", () => {
    const s = secret();
    const now = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders([s], 'msg_1', now, body);
    expect(new Webhook(s).verify(body, headers)).toEqual(JSON.parse(body));
    const hand = createHmac('sha256', Buffer.from(s.slice(6), 'base64'))
      .update(`msg_1.${now}.${body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${hand}`);
    // Another secret, another body, another id: refused.
    expect(() => new Webhook(secret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(s).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(s).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
  });

  it('carries one signature a live secret while rotating: a verifier holding either accepts it', () => {
    const [old, next] = [secret(), secret()];
    const now = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders([next, old], 'msg_3', now, body);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const s of [old, next]) expect(new Webhook(s).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each with at most a fifth more of jitter, then no more', () => {
    expect(RETRY_SCHEDULE_SECONDS.map((s) => s / 60)).toEqual([5 / 60, 5, 30, 120, 300, 600, 840, 1200, 1440]);
    for (const [n, base] of RETRY_SCHEDULE_SECONDS.entries()) {
      expect(retryDelaySeconds(n, 0)).toBe(base);
      expect(retryDelaySeconds(n, 0.999)).toBeLessThanOrEqual(Math.round(base * 1.2));
    }
    expect(retryDelaySeconds(RETRY_SCHEDULE_SECONDS.length, 0.5)).toBeUndefined();
  });
});

describe('targets', () => {
  it.each([
    ['169.254.169.254', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['127.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00:ec2::254', false],
    ['fc00::1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:a00:1', false],
    ['::ffff:169.254.169.254', false],
    ['224.0.0.1', false],
    // What a hostile review registered in a deployed stack's mode (defence in depth: none reached loopback there).
    ['::7f00:1', false],
    ['::127.0.0.1', false],
    ['::ffff:0:7f00:1', false],
    ['::a9fe:a9fe', false],
    ['64:ff9b:1::a9fe:a9fe', false],
    ['2002:7f00:1::', false],
    ['2002:a9fe:a9fe::', false],
    ['2001:0:4136:e378::1', false],
    ['192.0.2.1', false],
    ['198.51.100.1', false],
    ['203.0.113.9', false],
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['2606:4700:4700::1111', true],
    ['example.com', false],
  ])('%s reachable: %s', (address, reachable) => {
    expect(reachableAddress(address)).toBe(reachable);
  });

  it('loopback only where the local runtime allows it', () => {
    expect([reachableAddress('127.0.0.1', true), reachableAddress('::1', true), reachableAddress('10.0.0.1', true)]).toEqual([
      true,
      true,
      false,
    ]);
    // Loopback alone: not the IPv4-compatible or 6to4 forms of it, nor the metadata service.
    expect(['::7f00:1', '2002:7f00:1::', '169.254.169.254', '::ffff:169.254.169.254'].map((a) => reachableAddress(a, true))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'deployed'],
    ['http://10.0.0.1/hook', 'deployed'],
    ['http://[::1]/', 'deployed'],
    ['https://[::1]/', 'deployed'],
    ['https://10.0.0.1/hook', 'local'],
    ['http://example.com/hook', 'deployed'],
    ['ftp://example.com/hook', 'local'],
    ['https://user:pass@example.com/hook', 'deployed'],
    ['not a url', 'deployed'],
  ])('%s is refused (%s)', (url, mode) => {
    expect(targetIssue(url, { https: mode === 'deployed', loopback: mode === 'local' })).toEqual(expect.any(String));
  });

  it.each([
    ['https://hooks.example.com/deck-library', 'deployed'],
    ['http://127.0.0.1:8080/hook', 'local'],
    ['http://localhost:8080/hook', 'local'],
    ['https://discord.com/api/webhooks/123456789012345678/abc-DEF_123', 'deployed'],
  ])('%s is taken (%s)', (url, mode) => {
    expect(targetIssue(url, { https: mode === 'deployed', loopback: mode === 'local' })).toBeUndefined();
  });

  it("knows Discord's webhook URLs", () => {
    expect(isDiscordWebhook('https://discord.com/api/webhooks/123456789012345678/abc-DEF_123')).toBe(true);
    expect(isDiscordWebhook('https://canary.discordapp.com/api/v10/webhooks/1/x')).toBe(true);
    expect(isDiscordWebhook('https://discord.com.evil.example/api/webhooks/1/x')).toBe(false);
    expect(isDiscordWebhook('http://discord.com/api/webhooks/1/x')).toBe(false);
  });
});

describe("search's filters on a deck", () => {
  const deck = {
    archetype_id: 'ger-blitz',
    tags: ['aggro', 'otk'],
    main_faction: 'germany',
    ally_faction: 'italy',
    search_text: 'blitz tempo',
    cards: ['2B', '38'],
  };
  it.each([
    [{}, true],
    [{ main_faction: 'germany' }, true],
    [{ main_faction: 'soviet' }, false],
    [{ ally_faction: 'italy', tag: 'otk' }, true],
    [{ tag: 'control' }, false],
    [{ q: 'tempo' }, true],
    [{ q: 'control' }, false],
    [{ archetype: 'ger-blitz' }, true],
    [{ card: ['2B', '38'] }, true],
    [{ card: ['2B', '2I'] }, false],
    [{ exclude_card: ['2I'] }, true],
    [{ exclude_card: ['38'] }, false],
  ])('%j passes: %s', (filters, passes) => {
    expect(passesFilters(deck, filters)).toBe(passes);
  });
});
