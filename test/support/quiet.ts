/** The AWS SDK's notice about Node 20 support, muted in tests only (never in code paths). */
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  if (String(warning).startsWith('NodeVersionSupportWarning')) return;
  (emitWarning as (...a: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
