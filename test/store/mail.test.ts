/**
 * The mail part of the store suite (widget contract W2, W3): the outbox and offline-message repositories against
 * their documented contracts (`src/store/mail-store.ts`), on the backend of the running vitest project.
 */
import { describe } from 'vitest';
import { backend, useMigratedStore } from '../support/backend.js';
import { mailCases } from './mail.cases.js';

describe(`mail store on ${backend}`, () => {
  mailCases({ store: useMigratedStore() });
});
