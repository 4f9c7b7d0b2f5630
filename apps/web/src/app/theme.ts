import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * The console's look. Mantine's defaults put small text below the WCAG 2.1 AA contrast of 4.5:1
 * (dimmed text gray-6 on white is 3.3:1, white on blue-6 buttons 3.6:1, a light badge's
 * text on its tint 2.6–4:1); the settings below lift every pairing the console uses above it,
 * and the browser tests run axe-core on every screen to keep it so.
 */

/** Filled buttons, badges and links a shade darker: white text on blue-8 is 5:1. */
const PRIMARY_SHADE = 8;
/** Secondary text ("dimmed"): 6.1:1 on white, 5.8:1 on the pages' gray-0, 5.1:1 on gray-2. */
const DIMMED = '#5c636a';
/** Placeholders: lighter than typed text, still 4.8:1 on gray-0. */
const PLACEHOLDER = '#687078';
/** Validation messages and errors: red-9, 5.6:1 on white (red-6 is 3.3:1). */
const ERROR = 'var(--mantine-color-red-9)';
/** What text on a light tint must reach, with a margin over 4.5:1 for rounding. */
const TEXT_CONTRAST = 4.6;

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: PRIMARY_SHADE, dark: PRIMARY_SHADE },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
});

/** Contrast ratio of two #rrggbb colours (WCAG 2.1 relative luminance). */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

function channels(hex: string): [number, number, number] {
  const value = hex.replace('#', '');
  return [0, 2, 4].map((index) => parseInt(value.slice(index, index + 2), 16)) as [
    number,
    number,
    number,
  ];
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function darker(hex: string, factor: number): string {
  return `#${channels(hex)
    .map((channel) =>
      Math.round(channel * factor)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * The text colour of a colour's light variant (light badges, the active menu entry, light
 * buttons): its darkest shade, darkened further until it reads on the variant's hover tint
 * (shade 2, the darkest tint it sits on) at TEXT_CONTRAST.
 */
export function lightTextColor(shades: MantineColorsTuple): string {
  let text = shades[9];
  while (contrastRatio(text, shades[2]) < TEXT_CONTRAST) text = darker(text, 0.92);
  return text;
}

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': DIMMED,
    '--mantine-color-placeholder': PLACEHOLDER,
    '--mantine-color-error': ERROR,
  };
  for (const [name, shades] of Object.entries(resolved.colors)) {
    if (shades.length === 10) {
      light[`--mantine-color-${name}-light-color`] = lightTextColor(shades);
    }
  }
  return { variables: {}, light, dark: {} };
};
