import '@mantine/core/styles.css';
import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { LabstockError } from './api';
import { router } from './routes';

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change by asking again; a network failure or a 5xx may.
    queries: { retry: (count, err) => count < 2 && !(err instanceof LabstockError && err.status < 500), refetchOnWindowFocus: false },
  },
});

// WCAG 2.1 AA asks for 4.5:1 between text and its background; Mantine's default primary shade (blue 6) under white
// button text and its dimmed gray on white both fall short (axe's color-contrast rule, test/helpers/axe.ts). A darker
// shade of the same colours keeps the look and passes.
// A table wider than a phone scrolls inside its container, which keyboard users must be able to reach (axe's
// scrollable-region-focusable): every table's scroll viewport takes focus.
const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  components: { TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } } },
});
const resolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7]! },
  dark: {},
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider defaultColorScheme="light" theme={theme} cssVariablesResolver={resolver}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
