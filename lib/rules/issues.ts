/** Turns valibot issues into contract details (`{ path, code, message }`). */
import type * as v from 'valibot';
import { at, type Detail, type DetailCode, detail } from './details.ts';

/** Custom checks name their detail code at the head of their message: "too_long: …". */
export const coded = (code: DetailCode, message: string): string => `${code}: ${message}`;
const CODED = /^([a-z_]+): (.*)$/s;

const SCHEMA_NOUN: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  strict_object: 'an object',
  object: 'an object',
};

export function issueToDetail(issue: v.BaseIssue<unknown>, prefix = ''): Detail {
  const path = (issue.path ?? []).reduce<string>((p, item) => at(p, item.key as string | number), prefix);
  const custom = CODED.exec(issue.message);
  if (custom) return detail(path, custom[1] as DetailCode, custom[2] as string);

  const isArray = Array.isArray(issue.input);
  switch (issue.type) {
    case 'strict_object':
      if (issue.expected === 'never') return detail(path, 'unknown_field', `${path} is not a field here`);
      if (issue.received === 'undefined') return detail(path, 'required', `${path} is required`);
      return detail(path, 'invalid_type', `${path || 'body'} must be an object`);
    case 'max_length':
      return isArray
        ? detail(path, 'too_many', `${path} holds at most ${issue.requirement} items`)
        : detail(path, 'too_long', `${path} is at most ${issue.requirement} characters`);
    case 'min_length':
      return isArray
        ? detail(path, 'too_few', `${path} needs at least ${issue.requirement} item${issue.requirement === 1 ? '' : 's'}`)
        : detail(path, 'required', `${path} must not be empty`);
    case 'integer':
      return detail(path, 'invalid_type', `${path} must be an integer`);
    case 'min_value':
    case 'max_value':
      return detail(path, 'invalid_value', `${path} must be ${issue.expected}`);
    case 'picklist':
      return detail(path, 'invalid_value', `${path} must be one of ${issue.expected}`);
    default:
      if (issue.kind === 'schema') {
        if (issue.input === undefined) return detail(path, 'required', `${path} is required`);
        const noun = SCHEMA_NOUN[issue.type] ?? issue.expected;
        return detail(path, 'invalid_type', `${path} must be ${noun}${issue.type === 'nullable' ? ' or null' : ''}`);
      }
      return detail(path, 'invalid_value', `${path} is not valid (${issue.message})`);
  }
}

export const issuesToDetails = (issues: readonly v.BaseIssue<unknown>[], prefix = ''): Detail[] =>
  issues.map((i) => issueToDetail(i, prefix));
