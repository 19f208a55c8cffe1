import { Badge, type CSSVariablesResolver, createTheme, type MantineColorsTuple } from '@mantine/core';

/**
 * Labstock's one accent colour (docs/web.md, "Brand"): a laboratory green, light to dark. Everything filled, every
 * link and the active navigation entry use it (as the theme's primary colour); the mark in the header and the
 * favicon (web/public) are its shade 8, the shade the theme uses, 5.0:1 on white.
 */
export const ACCENT: MantineColorsTuple = [
  '#e6fcf5',
  '#c3fae8',
  '#96f2d7',
  '#63e6be',
  '#38d9a9',
  '#20c997',
  '#12b886',
  '#0ca678',
  '#087f5b',
  '#066649',
];

// WCAG 2.1 AA contrast (docs/product.md §11, checked by axe in the browser journeys): the lighter shades of a
// colour, dimmed gray 6 text and white text on light filled badges are below 4.5:1 on white. Shade 8 for what is
// filled and for links, black text on the lighter fills (autoContrast), gray 7 for dimmed text and red 9 for errors
// (red 6 is 3.6:1) are not.
// A table wider than a phone scrolls inside its container, which keyboard users must be able to reach (axe's
// scrollable-region-focusable): every table's scroll viewport takes focus.
// Badges keep the case of their words (Mantine writes them in capitals by default): a status reads "Ordered", never
// ORDERED (docs/web.md, people read words).
export const theme = createTheme({
  colors: { labstock: ACCENT },
  primaryColor: 'labstock',
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  luminanceThreshold: 0.2,
  components: {
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
    Badge: Badge.extend({ defaultProps: { tt: 'none' } }),
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});
