/** Query parameters of the public routes: each bad value is 400 invalid_parameter (contract §2). */
import { normalizeTag } from '#rules/schemas.ts';
import { invalidParameter } from './errors.ts';
import type { ApiRequest } from './types.ts';

export function pageParam(req: ApiRequest): number {
  const raw = req.query.page;
  if (raw === undefined) return 1;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw invalidParameter('page is an integer from 1');
  return Number(raw);
}

export function limitParam(req: ApiRequest, fallback: number, max: number): number {
  const raw = req.query.limit;
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw invalidParameter(`limit is an integer from 1 to ${max}`);
  return Number(raw);
}

export function oneOf<T extends string>(req: ApiRequest, name: string, values: readonly T[]): T | undefined {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw)) throw invalidParameter(`${name} must be one of ${values.join(', ')}`);
  return raw as T;
}

/** A free-text parameter: trimmed and lower-cased; absent when empty; bounded and without control characters. */
export function textParam(req: ApiRequest, name: string, max: number): string | undefined {
  const raw = req.query[name]?.trim();
  if (!raw) return undefined;
  if ([...raw].length > max || /\p{Cc}/u.test(raw))
    throw invalidParameter(`${name} is at most ${max} characters, without control characters`);
  return raw.toLowerCase();
}

/** A tag filter, normalised as stored tags are (trim, lower-case, NFC). */
export function tagParam(req: ApiRequest, name: string, max: number): string | undefined {
  const raw = textParam(req, name, Number.POSITIVE_INFINITY);
  const tag = raw === undefined ? undefined : normalizeTag(raw);
  if (tag !== undefined && [...tag].length > max) throw invalidParameter(`${name} is at most ${max} characters`);
  return tag || undefined;
}
