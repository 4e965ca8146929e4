/** Text in markup (pages, SVG images, Atom): what XML refuses dropped, markup's characters escaped. Pure, and small: what a page of its own bundles. */
/**
 * The characters XML 1.0 refuses (§2.2 Char: controls but tab, line feed and carriage return; lone surrogates;
 * U+FFFE and U+FFFF): resvg refuses an SVG that holds one (an image would fail), and a page should not hold
 * them either. Text drawn or written is cleaned of them: they are drawn as nothing.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
export const xmlChars = (s: string): string => s.replace(NOT_XML, '');

/** The characters of HTML and XML markup as text: every deck string goes through this (or is drawn as text); what XML refuses, dropped. */
export const escapeMarkup = (s: string): string =>
  xmlChars(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
