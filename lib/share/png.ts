/**
 * SVG to PNG in the function: resvg (Rust) built to WebAssembly (@resvg/resvg-wasm), with the fonts
 * the function ships (Inter, from @expo-google-fonts/inter; Noto Sans SC and KR for CJK and Hangul names,
 * cut at synth to the catalogue's characters: no system font is assumed; Lambda has none to speak of). The WebAssembly
 * module is compiled and the fonts read at init (prepareRenderer, an endpoint's init hook), so that a
 * cold request pays only the instantiation.
 */
import { readFileSync } from 'node:fs';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { readDeckImage } from '#routes/share.ts';
import { shippedPath } from '#shipped';
import { type FontMetrics, fontMetrics, fontStack, textWidth } from './font-metrics.ts';
import { IMAGE_FONTS, type Measure } from './image.ts';

/** The route's shipped files: the renderer's WebAssembly and Inter's two faces; then the other families', two faces each (regular, bold). */
const [WASM, ...LATIN] = readDeckImage.files;
const FONTS = [...LATIN, ...readDeckImage.subsetFonts];

/** The WebAssembly API Node has (its types here declare only the namespace). */
const wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WebAssembly.Module } }).WebAssembly;

let compiled: WebAssembly.Module | undefined;
let fonts: Uint8Array[] = [];
let ready: Promise<void> | undefined;

/** Compiles the renderer and reads the fonts (once: at init). */
export function prepareRenderer(): void {
  compiled ??= new wasm.Module(readFileSync(shippedPath(WASM as string)));
  if (fonts.length === 0) fonts = FONTS.map((f) => new Uint8Array(readFileSync(shippedPath(f))));
}

let faces: { regular: FontMetrics; bold: FontMetrics } | undefined;
/** The shipped faces' measures, read once: regular, bold, regular, bold… in the families' order, each weight's stack in that order. */
function facesOf(): { regular: FontMetrics; bold: FontMetrics } {
  prepareRenderer();
  faces ??= {
    regular: fontStack(fonts.filter((_, i) => i % 2 === 0).map(fontMetrics)),
    bold: fontStack(fonts.filter((_, i) => i % 2 === 1).map(fontMetrics)),
  };
  return faces;
}

/** Text's width in the shipped fonts (regular or bold: Inter, else the CJK, else the Hangul face), read from the files the renderer draws with. */
export const measureText: Measure = (text, size, bold) => {
  const { regular, bold: heavy } = facesOf();
  return textWidth(bold ? heavy : regular, text, size);
};

/** Whether the shipped fonts have a glyph for every character of the text (what they lack would be drawn as a box). */
export const drawable = (text: string): boolean => {
  const { regular } = facesOf();
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
    font: { fontBuffers: fonts, defaultFontFamily: IMAGE_FONTS[0], sansSerifFamily: IMAGE_FONTS[0] },
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
