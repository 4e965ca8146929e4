/**
 * The body of an erasure (contract §9.4): exactly `{ "confirm": "<user_id>" }` — the account's own id,
 * typed out, so that no erasure happens by a stray request. Anything else is refused with its details.
 */
import * as v from 'valibot';
import { type Detail, detail } from './details.ts';
import { parseStrict } from './strict-input.ts';

/** DELETE /api/v1/users/:user_id: the account's user_id, as its confirmation. */
export const ErasureBody = v.strictObject({ confirm: v.string() });

export function checkErasureBody(body: unknown, userId: string): Detail[] {
  const parsed = parseStrict(ErasureBody, body);
  if (!parsed.ok) return parsed.details;
  return parsed.output.confirm === userId ? [] : [detail('confirm', 'invalid_value', 'confirm must be exactly the user_id in the path')];
}
