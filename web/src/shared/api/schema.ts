/**
 * The server's shapes, generated from its API document (`schema.gen.ts`, `npm run gen:api`):
 * answer types come from here, never declared again by hand, so `tsc` fails when the server
 * changes one.
 */
import type { components } from './schema.gen';

/** The named schemas of the API document (`Schemas['Note']`). */
export type Schemas = components['schemas'];
