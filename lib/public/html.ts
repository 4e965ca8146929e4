/** Pages for people (the share pages of a deck and of a code): how they are sent. */
import type { Raw } from '#http/types.ts';
import { SHARE_PAGE_CSP } from '#share/page.ts';

const HTML = 'text/html; charset=utf-8';

/** A page: its policy (nothing but its own style and script runs, never framed), never stored by a cache (a view is counted per request). */
export const htmlPage = (status: 200 | 400 | 404, body: string, extra: Record<string, string> = {}): Raw => ({
  status,
  data: undefined,
  headers: { 'content-security-policy': SHARE_PAGE_CSP, 'x-frame-options': 'DENY', 'cache-control': 'no-store', ...extra },
  raw: { contentType: HTML, body },
});
