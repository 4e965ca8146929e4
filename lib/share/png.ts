/**
 * SVG to PNG in the function: resvg (Rust) built to WebAssembly (@resvg/resvg-wasm), with the faces the
 * function ships (fonts.ts: Inter, from @expo-google-fonts/inter; a Noto Sans face for each CJK and Hangul
 * language, cut at synth to that language's names: no system font is assumed; Lambda has none to speak of).
 * The WebAssembly module is compiled and the fonts read at init (prepareRenderer, an endpoint's init hook), so
 * that a cold request pays only the instantiation. Text is measured, and checked for glyphs, by the faces an
 * image in its language draws with, in their order (fonts.ts facesFor).
 */
import { readFileSync } from 'node:fs';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { shippedPath } from '#shipped';
import { type FontMetrics, fontMetrics, fontStack, textWidth } from './font-metrics.ts';
import { FACES, type Face, facesFor, IMAGE_FILES, LATIN_FACE } from './fonts.ts';
import type { Measure } from './image.ts';

/** The route's shipped renderer (its first file); each face's files are beside it (whole, or cut at synth), or in the project. */
const [WASM] = IMAGE_FILES;

/** The WebAssembly API Node has (its types here declare only the namespace). */
const wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WebAssembly.Module } }).WebAssembly;

let compiled: WebAssembly.Module | undefined;
/** Each face's regular and bold bytes, in FACES's order. */
let faceBytes = new Map<Face, [Uint8Array, Uint8Array]>();
let fonts: Uint8Array[] = [];
let ready: Promise<void> | undefined;

/** Compiles the renderer and reads the fonts (once: at init). */
export function prepareRenderer(): void {
  compiled ??= new wasm.Module(readFileSync(shippedPath(WASM as string)));
  if (fonts.length === 0) {
    faceBytes = new Map(
      FACES.map((face) => [face, face.files.map((f) => new Uint8Array(readFileSync(shippedPath(f)))) as [Uint8Array, Uint8Array]]),
    );
    fonts = [...faceBytes.values()].flat();
  }
}

const stacks = new Map<string, { regular: FontMetrics; bold: FontMetrics }>();
/** The measures of the faces an image in `language` draws with, regular and bold, each in their order; read once a language. */
function facesOf(language: string): { regular: FontMetrics; bold: FontMetrics } {
  prepareRenderer();
  let stack = stacks.get(language);
  if (!stack) {
    const bytes = facesFor(language).map((face) => faceBytes.get(face) as [Uint8Array, Uint8Array]);
    stack = { regular: fontStack(bytes.map(([r]) => metricsOf(r))), bold: fontStack(bytes.map(([, b]) => metricsOf(b))) };
    stacks.set(language, stack);
  }
  return stack;
}
const parsed = new Map<Uint8Array, FontMetrics>();
const metricsOf = (bytes: Uint8Array): FontMetrics => {
  const known = parsed.get(bytes);
  if (known) return known;
  const m = fontMetrics(bytes);
  parsed.set(bytes, m);
  return m;
};

/** Text's width in the shipped faces an image in `language` draws with (regular or bold), read from the files the renderer draws with. */
export const measurerFor =
  (language: string): Measure =>
  (text, size, bold) => {
    const { regular, bold: heavy } = facesOf(language);
    return textWidth(bold ? heavy : regular, text, size);
  };

/** Whether the faces an image in `language` draws with have a glyph for every character of the text (what they lack would be drawn as a box). */
export const drawable = (text: string, language: string): boolean => {
  const { regular } = facesOf(language);
  for (const ch of text) if (!regular.has(ch.codePointAt(0) as number)) return false;
  return true;
};

let rendered = 0;
/** How many images this environment has rendered (the tests' and the bench's proof that a 304 renders none). */
export const renders = (): number => rendered;

/** The SVG as a PNG of its own size. */
export async function renderPng(svg: string): Promise<Buffer> {
  prepareRenderer();
  rendered++;
  ready ??= initWasm(compiled as WebAssembly.Module);
  await ready;
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'original' },
    font: { fontBuffers: fonts, defaultFontFamily: LATIN_FACE.family, sansSerifFamily: LATIN_FACE.family },
  });
  try {
    const image = resvg.render();
    try {
      return Buffer.from(image.asPng());
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}
