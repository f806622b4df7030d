import { describe, expect, it } from 'vitest';
import { compilerColors, OKABE_ITO, textureFor } from '../../src/chart/palette';

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
};

/** The card backgrounds: white, and slate-900 (what white becomes in the dark theme). */
const LIGHT_CARD = '#ffffff';
const DARK_CARD = '#0f172a';

describe('compiler palette', () => {
  it('gives the first four compilers bars with at least 3:1 contrast against light and dark cards', () => {
    for (const color of compilerColors(['gcc', 'clang', 'icc', 'aocc']).range().slice(0, 4)) {
      expect(contrast(color, LIGHT_CARD)).toBeGreaterThanOrEqual(3);
      expect(contrast(color, DARK_CARD)).toBeGreaterThanOrEqual(3);
    }
  });

  it('tells every colour apart in grayscale: a texture of its own for each colour after the first', () => {
    const textures = OKABE_ITO.map(textureFor);
    expect(textures[0]).toBeNull();
    expect(new Set(textures).size).toBe(OKABE_ITO.length);
    // gcc and clang (the first two) would otherwise differ by only ~13% in gray level.
    const scale = compilerColors(['gcc', 'clang']);
    expect(textureFor(scale('gcc'))).not.toBe(textureFor(scale('clang')));
  });

  it('draws colours that are not compiler colours without a texture', () => {
    expect(textureFor('#123456')).toBeNull();
  });
});
