/**
 * Discord's request signature (Discord: Interactions, "Security and Authorization"): every interaction is
 * signed with the application's Ed25519 key — `X-Signature-Ed25519` (hex) over `X-Signature-Timestamp` and the
 * raw body, byte for byte — and Discord sends some with invalid signatures on purpose: an endpoint that
 * accepts one is removed. Checked with node:crypto alone (discord-interactions-js dropped tweetnacl for it).
 * A timestamp more than MAX_SKEW_SECONDS away from now is refused too: a captured request cannot be replayed
 * later. Pure but for the clock it is given.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';

/** How far a request's timestamp may be from this clock (s): Discord answers within 3 s, so a minute is room for skew. */
export const MAX_SKEW_SECONDS = 60;

// An Ed25519 public key in SPKI's DER form: this prefix (SEQUENCE, the Ed25519 OID 1.3.101.112, BIT STRING) and the 32 raw bytes (RFC 8410).
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');
const HEX = (bytes: number) => new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`);

/** The application's public key (64 hex characters, as the Developer Portal shows it); undefined when it is none. */
export function publicKeyOf(hex: string | undefined): KeyObject | undefined {
  if (!hex || !HEX(32).test(hex)) return undefined;
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
}

/** Whether a request is Discord's: a 64-byte signature by `key` over timestamp + body, the timestamp recent. */
export function signedByDiscord(
  key: KeyObject,
  signature: string | undefined,
  timestamp: string | undefined,
  body: Buffer,
  nowSeconds = Date.now() / 1000,
): boolean {
  if (!signature || !HEX(64).test(signature) || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
  return verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), key, Buffer.from(signature, 'hex'));
}
