/**
 * Writes the generated OpenAPI document to openapi.json (committed, so API
 * changes show up in review; a test fails when it drifts from the code).
 */
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { sortedOpenApi } from '../src/http/plugins/docs.js';
import { openStore } from '../src/store/index.js';

const store = await openStore('sqlite::memory:');
const { app } = await buildApp({ config: loadConfig({ ADMIN_PASS: 'unused-for-docs' }), store, logger: false });
writeFileSync(new URL('../openapi.json', import.meta.url), JSON.stringify(sortedOpenApi(app), null, 2) + '\n');
await app.close();
await store.close();
console.log('wrote openapi.json');
