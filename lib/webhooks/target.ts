/**
 * Where a webhook delivery may go, once names are resolved (contract §13.5): a target's host must resolve only to
 * addresses a delivery may reach (lib/rules/webhooks.ts reachableAddress), checked at registration and again on every
 * attempt — by the lookup the attempt's socket itself uses (`guardedLookup`), so that a name that resolves elsewhere
 * later, or differently between a check and a connect (DNS rebinding), is refused where it connects.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { reachableAddress, targetIssue } from '#rules/webhooks.ts';

/** dns.lookup's shape, with every address asked for. */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

export interface TargetMode {
  /** Only https (a deployed stack). */
  https: boolean;
  /** Loopback allowed (the local runtime, for local use and tests; never a deployed stack). */
  loopback: boolean;
}

/** What is wrong with a target, its name resolved: none, or why (a 422's message). */
export async function resolvedTargetIssue(raw: string, mode: TargetMode, resolve: Resolve = systemResolve): Promise<string | undefined> {
  const issue = targetIssue(raw, mode);
  if (issue) return issue;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return undefined;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'url names a host that does not resolve';
  }
  if (addresses.length === 0) return 'url names a host that does not resolve';
  if (addresses.some((a) => !reachableAddress(a.address, mode.loopback)))
    return 'url names a host that resolves to an address deliveries never reach (private, loopback, link-local)';
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) requests that connects only to reachable addresses: the name resolved as dns.lookup
 * does, every address checked, the request failing (EADDRNOTAVAIL-like, before any byte is sent) if one is not.
 */
export function guardedLookup(loopback: boolean, resolve: Resolve = systemResolve) {
  return (host: string, options: { all?: boolean } | number | undefined, callback: LookupCallback): void => {
    resolve(host).then(
      (addresses) => {
        const refused = addresses.find((a) => !reachableAddress(a.address, loopback));
        if (refused || addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${host} resolves to an address deliveries never reach`);
          error.code = 'EWEBHOOKTARGET';
          return callback(error, '', 0);
        }
        const all = typeof options === 'object' && options?.all === true;
        const [first] = addresses;
        if (all) callback(null, addresses);
        else callback(null, first?.address ?? '', first?.family ?? 4);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * The operator's setting of where deliveries may go: WEBHOOK_TARGETS=local (the local runtime sets it, for local use and
 * tests) takes http and loopback; anything else — a deployed stack sets none — https to public addresses only.
 */
export const targetMode = (env: NodeJS.ProcessEnv = process.env): TargetMode =>
  env.WEBHOOK_TARGETS === 'local' ? { https: false, loopback: true } : { https: true, loopback: false };
