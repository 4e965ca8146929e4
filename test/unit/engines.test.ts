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

/**
 * npm 12 runs a dependency's install script only when package.json's allowScripts approves it (npm docs, "npm
 * install-scripts"; issue 54: on a clean clone npm 12 blocked 7, the project's Node among them). Entries are
 * name-only, as npm writes them here: this machine's npm omits the registry's addresses from the lockfile
 * (omit-lockfile-registry-resolved), and npm matches a pinned entry only on the version of that address, so a pin
 * would be refused (@npmcli/arborist lib/script-allowed.js: "Unverifiable version: ... an allow is refused").
 */
describe('install scripts under npm 12 (allowScripts)', () => {
  const policy = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> }).allowScripts;
  const withScripts = [
    ...new Set(
      Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
        .filter(([path, p]) => path && p.hasInstallScript)
        .map(([path]) => path.replace(/^.*node_modules\//, '')),
    ),
  ].sort();

  it('every locked package with an install script is approved or denied: none is left to npm to block unreviewed', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => policy[name] === undefined)).toEqual([]);
    // Nothing named that the lockfile does not hold (a stale entry reads as a review that never happened).
    expect(Object.keys(policy).filter((name) => !withScripts.includes(name))).toEqual([]);
  });

  it("what the project needs runs (its Node, esbuild's binary, Lambda's runtime client's native part); telemetry and the rest do not", () => {
    expect(
      Object.entries(policy)
        .filter(([, allowed]) => allowed)
        .map(([name]) => name)
        .sort(),
    ).toEqual(['aws-lambda-ric', 'esbuild', 'node']);
    expect(policy['@scarf/scarf']).toBe(false);
  });

  it("CI installs with npm 12 on the project's Node, strict, and checks the Node it left", () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/NPM_FOR_CI=12\./);
    expect(ci).toContain('npm ci --strict-allow-scripts');
    expect(ci).toContain('scripts/check-node.ts');
  });
});
