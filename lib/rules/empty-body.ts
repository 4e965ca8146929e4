import { type Detail, detail } from './details.ts';

/** A delete body must be exactly `{}` (requirement §4 Delete): each field is `must_be_empty_object`. */
export function checkEmptyObject(body: Record<string, unknown>): Detail[] {
  return Object.keys(body).map((key) => detail(key, 'must_be_empty_object', 'the body of a delete is exactly {}'));
}
