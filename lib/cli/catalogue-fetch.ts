/**
 * `deckctl catalogue fetch --out FILE [--languages en,de,…] [--endpoint URL] [--from SAVED] [--json]`
 * (contract §10.1): the official catalogue, from the KARDS GraphQL endpoint the kards.com deck builder
 * reads (every page, 20 cards each), or from a saved answer of it, written as one catalogue file of the
 * project's format with each card's names by language. Nothing is written unless every page came and
 * every card maps (the error names the card). The card data is the game's publisher's: the project ships
 * none, and an operator fetches it (README, "A real catalogue").
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fetchNodes, officialEndpoint } from '#catalogue/fetch.ts';
import { catalogueOf, checkPage, PAGE_SIZE, pageOf } from '#rules/kards-graphql.ts';
import { LANGUAGE, languageOfTag } from '#rules/languages.ts';
import { UsageError } from './usage.ts';

/** A saved answer: one page's answer, a list of them (in order), or a list of nodes. */
function savedNodes(file: string): unknown[] {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const answers = Array.isArray(saved) ? saved : [saved];
  if (answers.every((a) => typeof a === 'object' && a !== null && ('data' in a || 'errors' in a)))
    return answers.flatMap((answer, i) => {
      const page = pageOf(answer);
      checkPage(page, i * PAGE_SIZE);
      return page.nodes;
    });
  return answers;
}

export async function catalogueFetch(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      languages: { type: 'string' },
      endpoint: { type: 'string' },
      from: { type: 'string' },
      json: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError('catalogue fetch takes no positional argument');
  if (!values.out) throw new UsageError('catalogue fetch needs --out FILE');
  const languages = values.languages?.split(',').map((l) => languageOfTag(l.trim()));
  if (languages?.some((l) => !LANGUAGE.test(l))) throw new UsageError('--languages is a list of language tags: en,de,ja,ru,zh,zh-Hant');
  if (values.from && values.endpoint) throw new UsageError('--from and --endpoint: one source only');
  const progress = process.stderr.isTTY ? (line: string) => process.stderr.write(`\r${line}`) : () => undefined;

  let nodes: unknown[];
  if (values.from) nodes = savedNodes(values.from);
  else {
    // A mirror for every run (KARDS_GRAPHQL_ENDPOINT), or for this one (--endpoint).
    nodes = await fetchNodes({ endpoint: values.endpoint ?? officialEndpoint(), languages, progress });
    progress('\n');
  }
  const fetched = catalogueOf(nodes, languages);
  // Whole or not at all: a file is never left half-written.
  const partial = `${values.out}.partial`;
  writeFileSync(partial, `${JSON.stringify(fetched.cards, null, 1)}\n`);
  renameSync(partial, values.out);
  const summary = { file: values.out, cards: fetched.cards.length, languages: fetched.languages, left_out: fetched.missing };
  console.log(
    values.json
      ? JSON.stringify(summary, null, 2)
      : `wrote ${summary.cards} cards to ${summary.file}, named in ${summary.languages.join(', ')}${
          summary.left_out.length ? ` (no titles in ${summary.left_out.join(', ')}: left out)` : ''
        }`,
  );
  return 0;
}
