import { type Detail, detail } from './details.ts';

/** A delete's body (requirement §4 Delete), and a restore's, must be exactly `{}`: each field is `must_be_empty_object`. */
export function checkEmptyObject(body: Record<string, unknown>, of = 'a delete'): Detail[] {
  return Object.keys(body).map((key) => detail(key, 'must_be_empty_object', `the body of ${of} is exactly {}`));
}
