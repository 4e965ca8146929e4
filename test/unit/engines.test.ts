/**
 * What `npm ci` needs (issue: 145 EBADENGINE warnings on the Node the README called enough): the Node range
 * package.json declares is exactly what every locked package accepts — its lowest version satisfies every
 * package's `engines.node`, and the lowest release below it does not — and the README states that range.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { NODE_MAJOR } from '../../infra/node-version.ts';

const ROOT = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};
/** Each locked package that declares the Node it runs on: its name and range. */
const declared = Object.entries(lock.packages).flatMap(([path, p]) => {
  const node = !Array.isArray(p.engines) ? p.engines?.node : undefined;
  return path && node ? [[path.replace(/^.*node_modules\//, ''), node] as const] : [];
});
const refusing = (version: string) => declared.filter(([, range]) => !semver.satisfies(version, range, { includePrerelease: true }));

describe('the Node npm ci needs', () => {
  it('package.json engines is the least every locked package accepts; the project’s Node is in it', () => {
    expect(declared.length).toBeGreaterThan(100);
    const lowest = semver.minVersion(pkg.engines.node)?.version as string;
    expect(refusing(lowest)).toEqual([]);
    // Just below it, some package refuses: the range is not wider than the lockfile allows.
    expect(refusing('22.12.0').length).toBeGreaterThan(0);
    expect(refusing('20.20.2').length).toBeGreaterThan(0);
    expect(semver.satisfies(`${NODE_MAJOR}.0.0`, pkg.engines.node)).toBe(true);
    expect(refusing(`${NODE_MAJOR}.0.0`)).toEqual([]);
  });

  it('the README says that range', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`Needs Node.js \`${pkg.engines.node}\``);
  });
});
