import { type CSSVariablesResolver, createTheme } from '@mantine/core';

// WCAG 2.1 AA contrast (docs/product.md §11; the browser journeys run axe, test/helpers/axe.ts): Mantine's default
// blue (shade 6, #228be6) with white text is 3.5:1 and its dimmed grey (#868e96) on white 3.3:1, both under 4.5:1.
// Shade 8 of blue is 4.9:1 with white; grey 7 is 7.6:1 on white.

export const theme = createTheme({ primaryShade: { light: 8, dark: 8 } });

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
