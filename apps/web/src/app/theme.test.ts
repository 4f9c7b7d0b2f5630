import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, lightTextColor } from './theme';

describe('theme contrast', () => {
  it.each(Object.keys(DEFAULT_THEME.colors))(
    'gives %s light variants text of at least 4.5:1 on their tints',
    (name) => {
      const shades = DEFAULT_THEME.colors[name]!;
      const text = lightTextColor(shades);
      for (const tint of [shades[0], shades[1], shades[2]]) {
        expect(contrastRatio(text, tint)).toBeGreaterThanOrEqual(4.5);
      }
    },
  );

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 1);
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
  });
});
