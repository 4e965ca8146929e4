/**
 * A webhook's target once its name is resolved (lib/webhooks/target.ts): a name that resolves to a private, loopback or
 * link-local address is refused at registration, and an attempt's own socket refuses it where it connects. DNS is a
 * stand-in here (a resolver of dns.lookup's shape answering what the test says; it omits TTLs and CNAME chains) — but
 * the sockets are real: a local server that is reached, or not.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { guardedLookup, type Resolve, resolvedTargetIssue } from '#webhooks/target.ts';

const dns =
  (answers: Record<string, string[]>): Resolve =>
  async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
const DEPLOYED = { https: true, loopback: false };
const LOCAL = { https: false, loopback: true };

describe('a target, its name resolved', () => {
  const resolve = dns({
    'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'rebind.example.com': ['93.184.215.14', '10.0.0.1'],
    'meta.example.com': ['169.254.169.254'],
    'local.example.com': ['127.0.0.1'],
    'mapped.example.com': ['::ffff:192.168.0.1'],
    // A name of one label (a search domain's host, say) is judged by its addresses as any other.
    intranet: ['10.1.2.3'],
    buildbox: ['93.184.215.14'],
  });
  it.each([
    ['https://hooks.example.com/x', DEPLOYED, undefined],
    ['https://rebind.example.com/x', DEPLOYED, 'resolves to an address'],
    ['https://meta.example.com/x', DEPLOYED, 'resolves to an address'],
    ['https://local.example.com/x', DEPLOYED, 'resolves to an address'],
    ['http://local.example.com/x', LOCAL, undefined],
    ['https://mapped.example.com/x', DEPLOYED, 'resolves to an address'],
    ['https://nowhere.example.com/x', DEPLOYED, 'does not resolve'],
    ['https://intranet/x', DEPLOYED, 'resolves to an address'],
    ['https://buildbox/x', DEPLOYED, undefined],
  ] as const)('%s (%j): %s', async (url, mode, issue) => {
    const found = await resolvedTargetIssue(url, mode, resolve);
    if (issue === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(issue);
  });
});

describe("an attempt's socket", () => {
  it('connects to a loopback server only where loopback is allowed, whatever was checked before', async () => {
    let reached = 0;
    const server = createServer((_req, res) => {
      reached++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    // The name resolved to a public address when it was registered; it resolves to loopback now.
    const now = dns({ 'hooks.example.com': ['127.0.0.1'] });
    const attempt = (loopback: boolean) =>
      new Promise<number | string>((resolve) => {
        const req = request({ host: 'hooks.example.com', port, path: '/', lookup: guardedLookup(loopback, now) }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
        req.end();
      });
    try {
      expect(await attempt(false)).toBe('EWEBHOOKTARGET');
      expect(reached).toBe(0);
      expect(await attempt(true)).toBe(200);
      expect(reached).toBe(1);
    } finally {
      server.close();
    }
  });
});
