/**
 * A resource policy of the synthesised template evaluated for one request, as IAM evaluates it (the
 * policy evaluation logic of the IAM User Guide): an explicit Deny wins, else an Allow that matches,
 * else the implicit deny. Tokens are resolved with a fixed account, region and partition, and the
 * template's own Refs. The subset of the policy language the stack uses: Principal (Service, AWS, *),
 * Action and Resource with * wildcards, and the condition operators StringEquals, StringLike, ArnLike,
 * ArnEquals and Bool.
 */
export const ACCOUNT = '111122223333';
export const REGION = 'eu-west-1';

type Json = unknown;
export interface Request {
  principal: { Service?: string; AWS?: string };
  action: string;
  resource: string;
  context: Record<string, string | boolean>;
}

/** A CloudFormation value with its tokens resolved: pseudo parameters, Refs (to `refs`), Fn::Join. */
export function resolve(value: Json, refs: Record<string, string>): Json {
  if (Array.isArray(value)) return value.map((v) => resolve(v, refs));
  if (value && typeof value === 'object') {
    const o = value as Record<string, Json>;
    if ('Ref' in o) {
      const ref = o.Ref as string;
      const pseudo: Record<string, string> = { 'AWS::AccountId': ACCOUNT, 'AWS::Region': REGION, 'AWS::Partition': 'aws' };
      const found = pseudo[ref] ?? refs[ref];
      if (found === undefined) throw new Error(`no value for Ref ${ref}`);
      return found;
    }
    if ('Fn::Join' in o) {
      const [sep, parts] = o['Fn::Join'] as [string, Json[]];
      return (resolve(parts, refs) as string[]).join(sep);
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, resolve(v, refs)]));
  }
  return value;
}

const glob = (pattern: string, value: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  ).test(value);
const list = (x: Json): string[] => (x === undefined ? [] : Array.isArray(x) ? (x as string[]) : [x as string]);

function principalMatches(principal: Json, request: Request['principal']): boolean {
  if (principal === '*') return true;
  const p = principal as { Service?: Json; AWS?: Json };
  return (
    (request.Service !== undefined && list(p.Service).includes(request.Service)) ||
    (request.AWS !== undefined && list(p.AWS).some((a) => a === '*' || a === request.AWS))
  );
}

function conditionsHold(conditions: Record<string, Record<string, Json>> | undefined, context: Request['context']): boolean {
  for (const [operator, tests] of Object.entries(conditions ?? {})) {
    for (const [key, expected] of Object.entries(tests)) {
      const actual = context[key];
      if (actual === undefined) return false;
      const values = list(expected);
      const ok =
        operator === 'Bool'
          ? values.some((v) => String(v) === String(actual))
          : operator === 'StringEquals' || operator === 'ArnEquals'
            ? values.includes(String(actual))
            : operator === 'StringLike' || operator === 'ArnLike'
              ? values.some((v) => glob(v, String(actual)))
              : (() => {
                  throw new Error(`condition operator ${operator} is not evaluated here`);
                })();
      if (!ok) return false;
    }
  }
  return true;
}

/** Allow, Deny (explicit) or the implicit deny, for a request against a policy document. */
export function evaluate(document: { Statement: Record<string, Json>[] }, request: Request): 'Allow' | 'Deny' | 'ImplicitDeny' {
  const applies = (s: Record<string, Json>) =>
    principalMatches(s.Principal, request.principal) &&
    list(s.Action).some((a) => glob(a, request.action)) &&
    list(s.Resource).some((r) => glob(r, request.resource)) &&
    conditionsHold(s.Condition as Record<string, Record<string, Json>> | undefined, request.context);
  const matching = document.Statement.filter(applies);
  if (matching.some((s) => s.Effect === 'Deny')) return 'Deny';
  return matching.some((s) => s.Effect === 'Allow') ? 'Allow' : 'ImplicitDeny';
}
