/**
 * The files part of the store suite (WIDGET.md W5.6): every method of the files repository against its documented
 * contract (`src/store/files-store.ts`), on the backend of the running vitest project. The cases live in
 * `files.cases.ts`.
 */
import { describe } from 'vitest';
import { backend, useMigratedStore } from '../support/backend.js';
import { filesCases } from './files.cases.js';

describe(`files store on ${backend}`, () => {
  filesCases({ store: useMigratedStore() });
});
