/**
 * The jobs part of the store suite (desk contract D0): every method of the jobs and manual-clock repositories
 * against its documented contract (`src/store/jobs-store.ts`), on the backend of the running vitest project.
 * The cases live in `jobs.cases.ts`.
 */
import { describe } from 'vitest';
import { backend, useMigratedStore } from '../support/backend.js';
import { jobsCases } from './jobs.cases.js';

describe(`jobs store on ${backend}`, () => {
  jobsCases({ store: useMigratedStore() });
});
