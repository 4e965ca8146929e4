/**
 * The faces deck images draw with (contract §10.1, §11.3), the one list the image routes ship (lib/routes/
 * share.ts, codes.ts), synth cuts (scripts/subset-fonts.ts) and the renderer loads (png.ts): Inter for
 * Latin, Cyrillic and Greek, whole; and a face for each CJK and Hangul language, regular and bold, each cut at
 * synth to the characters of the card and faction names of its own languages only (a face holds what it
 * will draw, not every script's characters). An image in a language draws with Inter, then that language's
 * face, then the others (familiesFor): Japanese names in the Japanese face, Traditional ones in the
 * Traditional face, though the Simplified face holds many of the same characters. Pure data.
 */

/** A family the images draw with: its name in the SVG, its regular and bold files, the languages it is cut for. */
export interface Face {
  family: string;
  files: readonly [regular: string, bold: string];
  /** The languages whose names it is cut to (none: shipped whole). */
  languages: readonly string[];
}

export const LATIN_FACE = {
  family: 'Inter',
  files: [
    'node_modules/@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf',
    'node_modules/@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf',
  ],
  languages: [],
} as const satisfies Face;

/** Card names in CJK and Hangul, a Noto Sans face a language, in the order they fall back on each other. */
export const CUT_FACES = [
  {
    family: 'Noto Sans SC',
    files: [
      'node_modules/@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
      'node_modules/@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
    ],
    languages: ['zh'],
  },
  {
    family: 'Noto Sans TC',
    files: [
      'node_modules/@expo-google-fonts/noto-sans-tc/400Regular/NotoSansTC_400Regular.ttf',
      'node_modules/@expo-google-fonts/noto-sans-tc/700Bold/NotoSansTC_700Bold.ttf',
    ],
    languages: ['zh-Hant'],
  },
  {
    family: 'Noto Sans JP',
    files: [
      'node_modules/@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
      'node_modules/@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
    ],
    languages: ['ja'],
  },
  {
    family: 'Noto Sans KR',
    files: [
      'node_modules/@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
      'node_modules/@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf',
    ],
    languages: ['ko'],
  },
] as const satisfies readonly Face[];

/** Every face, Inter first: the order the renderer loads them in. */
export const FACES: readonly Face[] = [LATIN_FACE, ...CUT_FACES];

/** The faces an image in `language` draws with, in order: Inter, the language's own face, then the others as they come. */
export function facesFor(language: string): Face[] {
  const own = CUT_FACES.filter((f) => (f.languages as readonly string[]).includes(language));
  return [LATIN_FACE, ...own, ...CUT_FACES.filter((f) => !own.includes(f))];
}

/** The SVG font-family of an image in `language`. */
export const familiesFor = (language: string): string =>
  facesFor(language)
    .map((f) => f.family)
    .join(', ');

/** What a deck image's function ships beside its bundle: the renderer's wasm, and Inter (Latin, Cyrillic, Greek) regular and bold. */
export const IMAGE_FILES = ['node_modules/@resvg/resvg-wasm/index_bg.wasm', ...LATIN_FACE.files] as const;
/**
 * Card names in CJK and Hangul (contract §10.1, §11.3): a Noto Sans face a language (Simplified and
 * Traditional Chinese, Japanese, Korean), regular and bold, each cut to its own languages' names at synth.
 */
export const IMAGE_SUBSET_FONTS: readonly { file: string; languages: readonly string[] }[] = CUT_FACES.flatMap((face) =>
  face.files.map((file) => ({ file, languages: face.languages })),
);
