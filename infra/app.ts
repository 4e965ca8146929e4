/**
 * The CDK app (`npx cdk synth | deploy`). Synthesises offline: no credentials, no Docker (the local
 * esbuild bundles). cdk-nag's AwsSolutions checks and the Control Tower proactive controls (cfn-guard)
 * run on every synth.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DEMO_CATALOGUE_FILE, loadCatalogueFile } from '#catalogue/load.ts';
import { compileCatalogue } from '#rules/catalogue.ts';
import { EveryTemplateGuard } from './guard.ts';
import { opsSettings } from './settings.ts';
import { DeckLibraryStack } from './stack.ts';

/**
 * The app, with cdk-nag and — unless `guard` is false (tests that synthesise only to read the template:
 * cfn-guard's 237 rules take about 25 s a synth) — the Control Tower proactive controls, or the rule files `guard`
 * names (a test of one service's rules: each rule file is a cfn-guard run over every template).
 */
export function buildApp(app = new App(), { guard = true as boolean | { rules: string[] } } = {}): { app: App; stack: DeckLibraryStack } {
  const catalogueFile = process.env.CATALOGUE_FILE ? resolve(process.env.CATALOGUE_FILE) : fileURLToPath(DEMO_CATALOGUE_FILE);
  if (!existsSync(catalogueFile)) throw new Error(`CATALOGUE_FILE ${catalogueFile} does not exist`);
  // Refuse a bad catalogue at synth, not at the first request; ship it compiled (checked: no validation at init).
  // Absolute: the CLI's output folder is relative, and the fonts are cut by a process of their own started elsewhere.
  const compiled = resolve(app.outdir, 'catalogue.compiled.json');
  mkdirSync(app.outdir, { recursive: true });
  writeFileSync(compiled, compileCatalogue(loadCatalogueFile(catalogueFile)));
  const stack = new DeckLibraryStack(app, app.node.tryGetContext('deck-library:stackName') ?? 'DeckLibrary', {
    description: 'Deck Library: a KARDS deck API',
    catalogueFile: compiled,
    logRetention: RetentionDays.ONE_MONTH,
    settings: opsSettings(app),
  });
  // cdk-nag's AwsSolutions checks, and AWS's Control Tower proactive controls as cfn-guard rules, on every
  // synth: a finding that is not fixed must be acknowledged, with its reason, on the construct it is about.
  Validations.of(app).addPlugins(
    new AwsSolutionsChecks(app),
    ...(guard ? [new EveryTemplateGuard(guard === true ? {} : { controlTowerRulesEnabled: false, ...guard })] : []),
  );
  return { app, stack };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) buildApp().app.synth();
