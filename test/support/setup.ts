/** Each test worker: the store points at the run's DynamoDB Local; the SDK's Node 20 notice is muted here only. */
import { inject } from 'vitest';

process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  if (String(warning).startsWith('NodeVersionSupportWarning')) return;
  (emitWarning as (...a: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
