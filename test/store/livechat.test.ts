/**
 * The livechat part of the store suite: every method of the visitors,
 * livechat rooms, messages, inquiries, agents and departments repositories
 * against its documented contract (`src/store/*-store.ts`), on the backend of
 * the running vitest project (on PostgreSQL also on an ICU `en-US` database,
 * as core-repos.test.ts does). The cases live in `livechat-*.cases.ts`.
 */
import { describe } from 'vitest';
import { backend, useMigratedStore } from '../support/backend.js';
import { agentsCases } from './livechat-agents.cases.js';
import { departmentsCases } from './livechat-departments.cases.js';
import type { LivechatCaseContext } from './livechat-fixtures.js';
import { inquiriesCases } from './livechat-inquiries.cases.js';
import { messagesCases } from './livechat-messages.cases.js';
import { presenceCases } from './presence.cases.js';
import { livechatRoomsCases } from './livechat-rooms.cases.js';
import { visitorsCases } from './livechat-visitors.cases.js';
import { businessHoursCases } from './business-hours.cases.js';
import { deskCases, roomInfoCases, tagsCases } from './desk.cases.js';
import { contactsCases } from './contacts.cases.js';
import { widgetCases } from './widget.cases.js';
import { capacityCases } from './capacity.cases.js';
import { reportsCases } from './reports.cases.js';

function allCases(ctx: LivechatCaseContext): void {
  describe('visitors', () => visitorsCases(ctx));
  describe('livechat rooms', () => livechatRoomsCases(ctx));
  describe('messages', () => messagesCases(ctx));
  describe('inquiries', () => inquiriesCases(ctx));
  describe('agents', () => agentsCases(ctx));
  describe('departments', () => departmentsCases(ctx));
  describe('presence', () => presenceCases(ctx));
  describe('business hours', () => businessHoursCases(ctx));
  describe('desk', () => deskCases(ctx));
  describe('tags', () => tagsCases(ctx));
  describe('room info', () => roomInfoCases(ctx));
  describe('contacts', () => contactsCases(ctx));
  describe('widget', () => widgetCases(ctx));
  describe('capacity', () => capacityCases(ctx));
  describe('reports', () => reportsCases(ctx));
}

describe(`livechat store on ${backend}`, () => {
  allCases({ store: useMigratedStore() });
});

// As in core-repos.test.ts: orders of text and ids must not depend on the database's collation.
if (backend === 'postgres') describe('livechat store on postgres with an en-US (ICU) default collation', () => {
  allCases({ store: useMigratedStore({ icu: true }) });
});
