/**
 * Writes the generated OpenAPI document to openapi.json (committed, so API
 * changes show up in review; a test fails when it drifts from the code), and
 * the console's types generated from it (console/src/api/openapi.d.ts; a test
 * fails when they drift from openapi.json).
 */
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { sortedOpenApi } from '../src/http/plugins/docs.js';
import { openStore } from '../src/store/index.js';
import { OPENAPI_TYPES_FILE, openApiTypes } from './openapi-types.js';

const store = await openStore('sqlite::memory:');
const { app } = await buildApp({ config: loadConfig({ ADMIN_PASS: 'unused-for-docs' }), store, logger: false });
const document = JSON.stringify(sortedOpenApi(app), null, 2) + '\n';
writeFileSync(new URL('../openapi.json', import.meta.url), document);
await app.close();
await store.close();
console.log('wrote openapi.json');
writeFileSync(OPENAPI_TYPES_FILE, await openApiTypes(document));
console.log('wrote console/src/api/openapi.d.ts');
