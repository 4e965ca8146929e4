/**
 * How wide text is in a font the function ships, read from the font file itself (OpenType/TrueType:
 * `head` for units per em, `hhea` + `hmtx` for each glyph's advance, `cmap` for the glyph of a character,
 * formats 4 and 12), so that the deck image's layout shortens what would not fit by the font's own
 * measures rather than by a guess. Pure: bytes in, a measure out. Kerning is not applied: resvg's
 * kerning only narrows Latin pairs, so the measure is at most the drawn width plus a little.
 */

export interface FontMetrics {
  /** The advance of one character (a code point), in ems; a character the font lacks has its .notdef advance. */
  advance(codePoint: number): number;
  /** Whether the font has a glyph for the character. */
  has(codePoint: number): boolean;
  /** The height of its capital letters, in ems (OS/2 sCapHeight; none in a font without it). */
  capHeight?: number;
}

class Reader {
  constructor(private readonly view: DataView) {}
  u16 = (at: number) => this.view.getUint16(at);
  i16 = (at: number) => this.view.getInt16(at);
  u32 = (at: number) => this.view.getUint32(at);
  tag = (at: number) => String.fromCharCode(...[0, 1, 2, 3].map((i) => this.view.getUint8(at + i)));
}

/** The glyph of a code point, by a `cmap` subtable (format 4 or 12); 0 (.notdef) where it has none. */
function cmapLookup(r: Reader, table: number): ((cp: number) => number) | undefined {
  const count = r.u16(table + 2);
  const subtables: { platform: number; encoding: number; at: number }[] = [];
  for (let i = 0; i < count; i++) {
    const rec = table + 4 + i * 8;
    subtables.push({ platform: r.u16(rec), encoding: r.u16(rec + 2), at: table + r.u32(rec + 4) });
  }
  const full = subtables.find((s) => r.u16(s.at) === 12);
  if (full) {
    const groups = r.u32(full.at + 12);
    return (cp) => {
      let lo = 0;
      let hi = groups - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const g = full.at + 16 + mid * 12;
        if (cp < r.u32(g)) hi = mid - 1;
        else if (cp > r.u32(g + 4)) lo = mid + 1;
        else return r.u32(g + 8) + (cp - r.u32(g));
      }
      return 0;
    };
  }
  const bmp = subtables.find((s) => r.u16(s.at) === 4);
  if (!bmp) return undefined;
  const segments = r.u16(bmp.at + 6) / 2;
  const ends = bmp.at + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const offsets = deltas + segments * 2;
  return (cp) => {
    if (cp > 0xffff) return 0;
    for (let i = 0; i < segments; i++) {
      if (cp > r.u16(ends + i * 2)) continue;
      const start = r.u16(starts + i * 2);
      if (cp < start) return 0;
      const offset = r.u16(offsets + i * 2);
      const delta = r.i16(deltas + i * 2);
      if (offset === 0) return (cp + delta) & 0xffff;
      const glyph = r.u16(offsets + i * 2 + offset + (cp - start) * 2);
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}

export function fontMetrics(bytes: Uint8Array): FontMetrics {
  const r = new Reader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const tables = new Map<string, number>();
  for (let i = 0; i < r.u16(4); i++) tables.set(r.tag(12 + i * 16), r.u32(12 + i * 16 + 8));
  const [head, hhea, hmtx, cmap, os2] = ['head', 'hhea', 'hmtx', 'cmap', 'OS/2'].map((t) => tables.get(t));
  if (head === undefined || hhea === undefined || hmtx === undefined || cmap === undefined)
    throw new Error('not a font with head, hhea, hmtx and cmap tables');
  const unitsPerEm = r.u16(head + 18);
  const longMetrics = r.u16(hhea + 34);
  const glyphOf = cmapLookup(r, cmap);
  if (!glyphOf) throw new Error('the font has no Unicode cmap of format 4 or 12');
  const advances = new Map<number, number>();
  const advanceOfGlyph = (glyph: number) => r.u16(hmtx + Math.min(glyph, longMetrics - 1) * 4) / unitsPerEm;
  // OS/2 version 2 and later hold sCapHeight at byte 88 (OpenType spec, "OS/2 — OS/2 and Windows Metrics Table").
  const capHeight = os2 !== undefined && r.u16(os2) >= 2 ? r.i16(os2 + 88) / unitsPerEm : undefined;
  return {
    ...(capHeight === undefined ? {} : { capHeight }),
    advance(cp) {
      let a = advances.get(cp);
      if (a === undefined) {
        a = advanceOfGlyph(glyphOf(cp));
        advances.set(cp, a);
      }
      return a;
    },
    has: (cp) => glyphOf(cp) !== 0,
  };
}

/** Fonts drawn as one, as the renderer falls back (a family list): each character measured in the first that has it. */
export function fontStack(faces: readonly FontMetrics[]): FontMetrics {
  const first = faces[0] as FontMetrics;
  const holder = (cp: number) => faces.find((f) => f.has(cp));
  return {
    advance: (cp) => (holder(cp) ?? first).advance(cp),
    has: (cp) => holder(cp) !== undefined,
  };
}

/** Text's width in pixels at `size`, in a font's measures. */
export function textWidth(metrics: FontMetrics, text: string, size: number): number {
  let ems = 0;
  for (const ch of text) ems += metrics.advance(ch.codePointAt(0) as number);
  return ems * size;
}
