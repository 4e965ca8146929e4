/**
 * A delivery's attempt (contract §13.5): the endpoint and the delivery read, the body signed with every live secret
 * (Standard Webhooks 1.0) at the attempt's time, POSTed through a socket that connects only to addresses a delivery may
 * reach (target.ts guardedLookup), an answer awaited 15 s. A 2xx delivers it; 410 Gone disables the endpoint; anything
 * else (no answer, a redirect, an error) is retried on the schedule (lib/rules/webhooks.ts) — a Discord 429 after its
 * `retry_after` — until the schedule ends (failed); an endpoint failing for 5 days is disabled. A wait longer than the
 * queue's 15-minute delay is a chain of them: a message that comes before its delivery's next try is sent again.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { logger } from '#logger';
import {
  deliveryHeaders,
  isDiscordWebhook,
  liveSecrets,
  RETRY_SCHEDULE_SECONDS,
  retryDelaySeconds,
  targetIssue,
  WEBHOOK_LIMITS,
} from '#rules/webhooks.ts';
import type { Attempt, StoredDelivery, StoredWebhook } from '#store/items/webhook.ts';
import { changeDelivery, changeWebhook, getDelivery, getWebhook, isPublicDeck } from '#store/webhooks.ts';
import { discordMessage } from './discord.ts';
import { type QueuedDelivery, sendDelivery } from './queue.ts';
import { guardedLookup, type TargetMode, targetMode } from './target.ts';

/** What an attempt changes of its endpoint. */
type WebhookPatch = Partial<Pick<StoredWebhook, 'failing_since' | 'disabled'>>;

/** An endpoint's fields set, on the version read (read again when another change came between); none when it is gone. */
async function patchWebhook(w: StoredWebhook, patch: WebhookPatch): Promise<void> {
  let read: StoredWebhook | undefined = w;
  for (let attempt = 0; read && attempt < 5; attempt++) {
    if ((await changeWebhook(read, { ...read, ...patch, updated_at: new Date().toISOString(), version: read.version + 1 })) === 'ok')
      return;
    read = await getWebhook(w.user_id, w.webhook_id, true);
  }
}

/** What an attempt heard: the answer's status (none: no answer, `error` says why), and a wait the target asked for. */
export interface Heard {
  status: number | null;
  error?: string;
  retryAfterSeconds?: number;
}

/** The most of an answer's body read (a Discord 429's retry_after is in it). */
const ANSWER_BYTES = 16_384;

/** POSTs a body to a target, answered or not within the attempt's time; never throws. */
export function post(url: string, headers: Record<string, string>, body: string, mode: TargetMode): Promise<Heard> {
  const issue = targetIssue(url, mode);
  if (issue) return Promise.resolve({ status: null, error: issue });
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let done = false;
    const finish = (heard: Heard) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(heard);
    };
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'DeckLibrary-Webhooks/1' },
        lookup: guardedLookup(mode.loopback) as never,
        agent: false,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < ANSWER_BYTES) chunks.push(c);
          size += c.length;
        });
        res.on('error', () => finish({ status: res.statusCode ?? null }));
        res.on('end', () => {
          const status = res.statusCode ?? null;
          let retryAfterSeconds: number | undefined;
          if (status === 429) {
            try {
              const wait = Number((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { retry_after?: unknown }).retry_after);
              if (Number.isFinite(wait) && wait >= 0) retryAfterSeconds = Math.min(wait, RETRY_SCHEDULE_SECONDS.at(-1) as number);
            } catch {
              // Not Discord's JSON: the schedule's wait.
            }
          }
          finish({ status, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ status: null, error: `no answer within ${WEBHOOK_LIMITS.timeoutSeconds} s` });
    }, WEBHOOK_LIMITS.timeoutSeconds * 1000);
    req.on('error', (e: NodeJS.ErrnoException) =>
      finish({ status: null, error: e.code === 'EWEBHOOKTARGET' ? e.message : `${e.code ?? e.name}: ${e.message}`.slice(0, 200) }),
    );
    req.end(body);
  });
}

/** What the delivery and its endpoint become after an attempt heard `heard` at `now` (`random` the jitter's, in [0, 1)). */
export function afterAttempt(
  d: StoredDelivery,
  w: StoredWebhook,
  heard: Heard,
  now: Date,
  random: number,
): { delivery: StoredDelivery; webhook?: WebhookPatch; waitSeconds?: number } {
  const at = now.toISOString();
  const attempt: Attempt = { at, status: heard.status, ...(heard.error ? { error: heard.error } : {}) };
  const attempts = [...d.attempts, attempt].slice(-WEBHOOK_LIMITS.attemptsKept);
  const base = { ...d, attempts, version: d.version + 1 };
  if (heard.status !== null && heard.status >= 200 && heard.status < 300)
    return {
      delivery: { ...base, status: 'delivered', next_try: null },
      ...(w.failing_since ? { webhook: { failing_since: null } } : {}),
    };
  if (heard.status === 410)
    return {
      delivery: { ...base, status: 'failed', next_try: null },
      webhook: { disabled: { reason: 'its target answered 410 Gone', at } },
    };
  const failingSince = w.failing_since ?? at;
  if (now.getTime() - Date.parse(failingSince) >= WEBHOOK_LIMITS.failingDays * 86_400_000)
    return {
      delivery: { ...base, status: 'failed', next_try: null },
      webhook: { disabled: { reason: `every attempt failed for ${WEBHOOK_LIMITS.failingDays} days`, at } },
    };
  // The schedule's next wait; a Discord target's 429 says its own (its rate limit: at least a second), and counts as a
  // retry all the same — the schedule ends what any answer repeats.
  const scheduled = retryDelaySeconds(d.retries, random);
  const discordWait = isDiscordWebhook(w.url) && heard.retryAfterSeconds !== undefined ? Math.max(1, heard.retryAfterSeconds) : undefined;
  const wait = scheduled === undefined ? undefined : (discordWait ?? scheduled);
  const webhook = w.failing_since ? undefined : { failing_since: at };
  if (wait === undefined) return { delivery: { ...base, status: 'failed', next_try: null }, ...(webhook ? { webhook } : {}) };
  return {
    delivery: { ...base, retries: d.retries + 1, next_try: new Date(now.getTime() + wait * 1000).toISOString() },
    ...(webhook ? { webhook } : {}),
    waitSeconds: wait,
  };
}

/** The body a target is sent: Discord's message for a Discord webhook, else the stored body. */
const bodyFor = (w: StoredWebhook, d: StoredDelivery): string =>
  isDiscordWebhook(w.url) ? discordMessage(d.body, process.env.PUBLIC_URL ?? '') : d.body;

/** One message of the queue handled: the delivery attempted when due (sent on when not yet), its outcome recorded. */
export async function deliver(m: QueuedDelivery): Promise<void> {
  const d = await getDelivery(m.webhook_id, m.delivery_id);
  // Gone (expired), done, or changed since the message was sent (a replay's message is another's): nothing to do.
  if (d?.status !== 'pending' || d.version !== m.version) return;
  const due = d.next_try ? Date.parse(d.next_try) - Date.now() : 0;
  if (due > 1000) return sendDelivery(m, due / 1000);
  const w = await getWebhook(m.user_id, m.webhook_id, true);
  if (!w || w.disabled) {
    const why = w ? `the webhook is disabled (${w.disabled?.reason})` : 'the webhook was deleted';
    const attempt: Attempt = { at: new Date().toISOString(), status: null, error: why };
    await changeDelivery(d, { ...d, status: 'failed', next_try: null, attempts: [...d.attempts, attempt], version: d.version + 1 });
    return;
  }
  // A deck's data goes only while the deck is public: one made private, unlisted or deleted since is not sent.
  if (await noLongerPublic(d)) {
    const attempt: Attempt = { at: new Date().toISOString(), status: null, error: 'not sent: the deck is no longer public' };
    await changeDelivery(d, { ...d, status: 'failed', next_try: null, attempts: [...d.attempts, attempt], version: d.version + 1 });
    return;
  }
  // An attempt is dated when it begins (its answer may take 15 s).
  const now = new Date();
  const body = bodyFor(w, d);
  const secrets = liveSecrets(w, now).map((s) => s.secret);
  const heard = await post(w.url, deliveryHeaders(secrets, d.delivery_id, Math.floor(now.getTime() / 1000), body), body, targetMode());
  const next = afterAttempt(d, w, heard, now, Math.random());
  logger.info('webhook attempt', {
    webhook: w.webhook_id,
    delivery: d.delivery_id,
    status: heard.status,
    error: heard.error,
    outcome: next.delivery.status,
  });
  if (!(await changeDelivery(d, next.delivery))) {
    // A replay came between: the attempt was made all the same, so it is recorded on the newer run, which goes on as it is.
    await recordOnly(d, next.delivery.attempts.at(-1) as Attempt);
    return;
  }
  if (next.webhook) await patchWebhook(w, next.webhook);
  if (next.waitSeconds !== undefined) await sendDelivery({ ...m, version: next.delivery.version }, next.waitSeconds);
}

/** Whether a deck event's deck has stopped being public (its `all` search entry is gone). */
async function noLongerPublic(d: StoredDelivery): Promise<boolean> {
  if (d.type !== 'deck.published' && d.type !== 'deck.updated') return false;
  const id = (JSON.parse(d.body) as { data?: { deck?: { id?: unknown } } }).data?.deck?.id;
  return typeof id === 'string' && !(await isPublicDeck(id));
}

/** An attempt added to a delivery's log whatever run it is in now (read again on each race, a few times). */
async function recordOnly(read: StoredDelivery, attempt: Attempt): Promise<void> {
  for (let tries = 0; tries < 3; tries++) {
    const now = await getDelivery(read.webhook_id, read.delivery_id);
    if (!now) return;
    const attempts = [...now.attempts, attempt].slice(-WEBHOOK_LIMITS.attemptsKept);
    if (await changeDelivery(now, { ...now, attempts, version: now.version + 1 })) return;
  }
}
