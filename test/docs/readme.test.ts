/**
 * The README's curl walkthrough, top to bottom, against a runtime of its own tables (on the tests'
 * store): what a newcomer runs after `npm start` answers as the README says — every command succeeds
 * but the one shown answering an error, the search examples find the walkthrough's decks (the pages
 * shown with their meta answer that meta), and the deck is deleted last. (Under LAMBDA_LIFECYCLE=1:
 * lifecycle.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readmeCurlLines, runWalkthrough, walkthroughCommands } from '../support/readme.ts';
import { expectWalkthrough } from '../support/readme-expect.ts';
import { type Runtime, startRuntime, UNTIMED } from '../support/runtime.ts';

let runtime: Runtime;
beforeAll(async () => {
  // Tables of its own: the runtime makes them, and prints a demo account as on a first start.
  // Untimed, as the other files on the run's shared store: a request there waits on its neighbours' transactions, and
  // the deployed budget answered a submission 503 beside them. What it asserts is what the answers say, not how soon.
  runtime = await startRuntime('/nonexistent-data-dir', {
    ...UNTIMED,
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    DECKS_TABLE: 'readme-decks',
    ACCOUNTS_TABLE: 'readme-accounts',
  });
}, 120_000);
afterAll(() => runtime?.stop());

describe("the README's walkthrough", () => {
  it("is found where the README's map says: owner calls, insight, search, the delete; the share page, keys, export, the erasure", () => {
    const commands = walkthroughCommands().map((c) => c.text);
    expect(commands.length).toBeGreaterThan(40);
    expect(commands.find((c) => c.includes('-X DELETE'))).toMatch(/\$API\/\$D$/);
    expect(commands.at(-3)).toMatch(/"confirm":"'\$U'"/);
  });

  it('runs every curl line of the README and the docs: none is left for a reader to find broken', () => {
    const run = new Set(walkthroughCommands().map((c) => c.text.split('\n')[0]));
    expect(readmeCurlLines().filter((line) => !run.has(line))).toEqual([]);
  });

  // A timeout ends a hang; it is not a budget. The walkthrough's ~60 requests take about 8 s alone; on the run's shared
  // store with three files beside it (the fuzz among them) they took over 60 s on a 2-core machine.
  it('answers as the README says, run as printed with the printed demo account', async () => {
    expect(runtime.demo).toBeDefined();
    expectWalkthrough(await runWalkthrough(runtime.baseUrl, runtime.demo as { userId: string; apiKey: string }));
  }, 180_000);
});
