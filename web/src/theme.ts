import { type CSSVariablesResolver, createTheme } from '@mantine/core';

// WCAG 2.1 AA contrast (docs/product.md §11, checked by axe in the browser journeys): Mantine's default blue 6 links
// and buttons, dimmed gray 6 text and white text on light filled badges are below 4.5:1 on white. Shade 8 for what
// is filled and for links, black text on the lighter fills (autoContrast), gray 7 for dimmed text and red 9 for
// errors (red 6 is 3.6:1) are not.
// A table wider than a phone scrolls inside its container, which keyboard users must be able to reach (axe's
// scrollable-region-focusable): every table's scroll viewport takes focus.
export const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  luminanceThreshold: 0.2,
  components: { TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } } },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});
