/**
 * users.setPreferences keys (contract §6.9) against Rocket.Chat 8.8.1's own
 * request schema, `UsersSetPreferencesParamsPOST` of @rocket.chat/rest-typings,
 * read from the installed package at test time: the lists cannot drift apart
 * without this failing. Rocket.Chat's web client sends these keys; each must
 * be accepted with the type Rocket.Chat gives it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreferencesData } from '../../src/wire/users.js';
import { createTestApp, type TestApp } from '../support/app.js';

interface JsonSchema {
  type?: string;
  enum?: string[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  nullable?: boolean;
}

/**
 * The package's ESM build cannot be imported by Node (directory imports), so
 * the schema literal is read from its compiled file and evaluated alone.
 */
function rocketChatPreferencesSchema(): Record<string, JsonSchema> {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@rocket.chat/rest-typings/package.json');
  const version = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  expect(version).toBe('8.8.1');
  const file = pkg.replace(/package\.json$/, 'dist/v1/users/UsersSetPreferenceParamsPOST.js');
  const source = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^(import|export|\/\/#)/.test(line))
    .join('\n');
  const schema = new Function(`${source}\nreturn UsersSetPreferencesParamsPostSchema;`)() as JsonSchema;
  return schema.properties!.data!.properties!;
}

/** §6.9's keys by type, as the contract lists them. */
const CONTRACT: Record<string, 'string' | 'integer' | 'number' | 'boolean' | 'string[]' | 'object[]'> = {
  ...Object.fromEntries(
    [
      'newRoomNotification', 'newMessageNotification', 'emailNotificationMode', 'roomsListExhibitionMode',
      'desktopNotifications', 'mobileNotifications', 'pushNotifications', 'sendOnEnter', 'language',
      'sidebarSortby', 'sidebarViewMode', 'themeAppearence', 'fontSize', 'alsoSendThreadToChannel',
    ].map((k) => [k, 'string' as const]),
  ),
  ...Object.fromEntries(
    [
      'notificationsSoundVolume', 'desktopNotificationDuration', 'viewMode', 'messageViewMode', 'clockMode',
      'masterVolume', 'voipRingerVolume', 'idleTimeLimit',
    ].map((k) => [k, 'integer' as const]),
  ),
  utcOffset: 'number',
  ...Object.fromEntries(
    [
      'useEmojis', 'convertAsciiEmoji', 'saveMobileBandwidth', 'collapseMediaByDefault', 'autoImageLoad', 'unreadAlert',
      'enableAutoAway', 'hideUsernames', 'hideRoles', 'hideAvatars', 'hideFlexTab', 'displayAvatars', 'roomCounterSidebar',
      'sidebarShowFavorites', 'sidebarShowUnread', 'sidebarHideAvatar', 'sidebarDisplayAvatar', 'groupByType',
      'sidebarGroupByType', 'muteFocusedConversations', 'showThreadsInMainChannel', 'desktopNotificationRequireInteraction',
      'receiveLoginDetectionEmail', 'notifyCalendarEvents', 'enableMobileRinging', 'mentionsWithSymbol',
      'omnichannelTranscriptEmail', 'omnichannelTranscriptPDF', 'omnichannelHideConversationAfterClosing',
      'desktopNotificationVoiceCalls',
    ].map((k) => [k, 'boolean' as const]),
  ),
  highlights: 'string[]',
  statusVisibilityDenied: 'string[]',
  dontAskAgainList: 'object[]',
  featuresPreview: 'object[]',
};

/** The type a schema describes, in the contract's words (nullable wrappers removed). */
function typeOf(schema: JsonSchema): string {
  const inner = schema.anyOf ? schema.anyOf.find((s) => s.type !== 'null')! : schema;
  if (inner.type === 'array') return `${inner.items!.type}[]`;
  return inner.type!;
}

/** Contract types that accept what Rocket.Chat's type accepts (its volumes are "number", sent as integers). */
const COMPATIBLE: Record<string, string[]> = {
  string: ['string'],
  number: ['number', 'integer'],
  boolean: ['boolean'],
  'string[]': ['string[]'],
  'object[]': ['object[]'],
};

/** A value of Rocket.Chat's type for one key, as its web client would send it. */
function sampleValue(key: string, schema: JsonSchema): unknown {
  if (schema.enum) return schema.enum[0];
  if (key === 'language') return 'pt-BR';
  if (key === 'idleTimeLimit') return 300;
  switch (schema.type) {
    case 'string':
      return 'default';
    case 'number':
      return 50;
    case 'boolean':
      return true;
    case 'array':
      if (schema.items!.type === 'string') return key === 'statusVisibilityDenied' ? [] : ['word'];
      return [Object.fromEntries(Object.entries(schema.items!.properties!).map(([k, s]) => [k, s.type === 'boolean' ? true : 'x']))];
    default:
      throw new Error(`no sample for ${key}`);
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});

describe('users.setPreferences keys (§6.9) vs Rocket.Chat 8.8.1 UsersSetPreferencesParamsPOST', () => {
  const rocketChat = rocketChatPreferencesSchema();

  it('Parley\'s schema has exactly the keys and types of §6.9', () => {
    const parley = Object.fromEntries(Object.entries(PreferencesData.properties).map(([k, s]) => [k, typeOf(s as JsonSchema)]));
    expect(parley).toEqual(CONTRACT);
  });

  it('every Rocket.Chat key is in §6.9 with a compatible type', () => {
    const mismatches: string[] = [];
    for (const [key, schema] of Object.entries(rocketChat)) {
      const contractType = CONTRACT[key];
      if (!contractType) mismatches.push(`${key}: missing from §6.9`);
      else if (!COMPATIBLE[typeOf(schema)]?.includes(contractType)) {
        mismatches.push(`${key}: Rocket.Chat ${typeOf(schema)}, §6.9 ${contractType}`);
      }
    }
    expect(mismatches).toEqual([]);
    // statusVisibilityDenied was the drift that broke Rocket.Chat 8's web client (it sends []).
    expect(typeOf(rocketChat.statusVisibilityDenied!)).toBe('string[]');
  });

  it('accepts and stores a value of Rocket.Chat\'s type for every one of its keys', async () => {
    const user = await t.createUser();
    const data = Object.fromEntries(Object.entries(rocketChat).map(([key, schema]) => [key, sampleValue(key, schema)]));
    const res = await t.api.post('/api/v1/users.setPreferences', { data }, { auth: user });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.settings.preferences).toEqual(data);
    expect((await t.store.users.findById(user.userId))!.preferences).toEqual(data);
  });

  it('statusVisibilityDenied: a list of strings, not a boolean', async () => {
    const user = await t.createUser();
    const ok = await t.api.post('/api/v1/users.setPreferences', { data: { statusVisibilityDenied: ['online', 'busy'] } }, { auth: user });
    expect(ok.status).toBe(200);
    expect(ok.body.user.settings.preferences).toEqual({ statusVisibilityDenied: ['online', 'busy'] });
    const bad = await t.api.post('/api/v1/users.setPreferences', { data: { statusVisibilityDenied: true } }, { auth: user });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, error: 'must be array [invalid-params]', errorType: 'invalid-params' });
    expect((await t.store.users.findById(user.userId))!.preferences).toEqual({ statusVisibilityDenied: ['online', 'busy'] });
  });
});
