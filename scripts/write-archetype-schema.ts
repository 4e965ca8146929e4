/**
 * Writes lib/archetypes/rules.schema.json, the JSON Schema of an archetype rules file, from its one declaration
 * (lib/rules/archetypes.ts ArchetypeRules). test/unit/archetypes.test.ts holds the file to it.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { archetypeRulesSchema } from '#rules/archetypes.ts';

writeFileSync(resolve(import.meta.dirname, '../lib/archetypes/rules.schema.json'), archetypeRulesSchema());
