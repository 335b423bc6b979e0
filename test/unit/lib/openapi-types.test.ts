/**
 * The console's wire types (console/src/api/openapi.d.ts) are generated from openapi.json by `npm run openapi`;
 * this fails when the committed file is not what a fresh generation from the committed document gives, so the
 * console cannot drift from the server's schemas (test/api/platform.test.ts holds openapi.json to the code).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_TYPES_FILE, openApiTypes } from '../../../scripts/openapi-types.js';

describe('console/src/api/openapi.d.ts', () => {
  it('equals a fresh generation from openapi.json (run `npm run openapi` after a schema change)', async () => {
    const fresh = await openApiTypes();
    expect(fresh).toContain('export interface paths');
    expect(readFileSync(OPENAPI_TYPES_FILE, 'utf8')).toBe(fresh);
  });
});
