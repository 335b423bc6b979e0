/**
 * The webhook part of the store suite (DESK.md D9): the outbox repository against its documented contract
 * (`src/store/webhooks-store.ts`), on the backend of the running vitest project.
 */
import { describe } from 'vitest';
import { backend, useMigratedStore } from '../support/backend.js';
import { webhooksCases } from './webhooks.cases.js';

describe(`webhooks store on ${backend}`, () => {
  webhooksCases({ store: useMigratedStore() });
});
