/**
 * The livechat part of the store suite: every method of the visitors,
 * livechat rooms, messages, inquiries, agents and departments repositories
 * against its documented contract (`src/store/*-store.ts`), on the backend of
 * the running vitest project. The cases live in `livechat-*.cases.ts`.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/backend.js';
import { agentsCases } from './livechat-agents.cases.js';
import { departmentsCases } from './livechat-departments.cases.js';
import type { LivechatCaseContext } from './livechat-fixtures.js';
import { inquiriesCases } from './livechat-inquiries.cases.js';
import { messagesCases } from './livechat-messages.cases.js';
import { livechatRoomsCases } from './livechat-rooms.cases.js';
import { visitorsCases } from './livechat-visitors.cases.js';

let db: TestDatabase;
let store: Store;
beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  store = db.open();
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

const ctx: LivechatCaseContext = { store: () => store };

describe(`livechat store on ${backend}`, () => {
  describe('visitors', () => visitorsCases(ctx));
  describe('livechat rooms', () => livechatRoomsCases(ctx));
  describe('messages', () => messagesCases(ctx));
  describe('inquiries', () => inquiriesCases(ctx));
  describe('agents', () => agentsCases(ctx));
  describe('departments', () => departmentsCases(ctx));
});
