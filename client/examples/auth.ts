// client/README.md, "Authentication" (quoted after the marker; compiled by client/test/readme.test.ts).
declare const baseUrl: string;
declare function readCsrfTokenFromThePage(): string | undefined;

// ---- README ----
import { createLabstockClient } from '@labstock/client';

// A script or a server: an API token (Settings → API tokens), sent as the Access-Token header.
const api = createLabstockClient({ baseUrl, token: 'lst_…' });

// A page served beside the application: the sign-in cookie goes with every request (credentials: 'include');
// POST, PUT, PATCH and DELETE also carry X-CSRF-Token.
const app = createLabstockClient({ baseUrl, session: { csrfToken: () => readCsrfTokenFromThePage() } });

console.log((await api.GET('/user')).data, (await app.GET('/user')).data);
