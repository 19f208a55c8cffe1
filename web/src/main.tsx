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

// Mantine's default light colours fail WCAG AA contrast on white (blue.6 links and filled buttons about 3.5:1, gray.6
// dimmed text about 3.3:1); the journeys check every page with axe (test/helpers/axe.ts). Shade 8 and gray.7 pass.
const theme = createTheme({ primaryShade: { light: 8, dark: 6 } });
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider defaultColorScheme="light" theme={theme} cssVariablesResolver={contrast}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
