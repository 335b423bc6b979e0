/** Contract §8.10 and §8.11: the widget's whole `livechat/config`, driven by the livechat settings of §3. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createDepartment, createLivechatApp, ISO, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let agent: Agent;
beforeAll(async () => {
  t = await createLivechatApp();
  agent = await makeAgent(t);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await onlyAvailable(t, [agent]);
});

/** W1: the widget's texts, `""` while unset. */
const DEFAULT_MESSAGES = {
  offlineMessage: '',
  offlineSuccessMessage: '',
  offlineUnavailableMessage: '',
  transcriptMessage: '',
  dataProcessingConsentText: 'We keep the name, e-mail address, messages and files you send in this chat in order to answer you.',
  conversationFinishedMessage: '',
  conversationFinishedText: '',
};
const CONFIG = '/api/v1/livechat/config';
const DEFAULT_SETTINGS = {
  registrationForm: true,
  nameFieldRegistrationForm: true,
  emailFieldRegistrationForm: true,
  allowSwitchingDepartments: true,
  showConnecting: false,
  displayOfflineForm: true,
  fileUpload: true,
  transcript: false,
  limitTextLength: false,
  forceAcceptDataProcessingConsent: false,
  agentHiddenInfo: false,
  historyMonitorType: 'url',
};
const DEFAULT_THEME = { title: 'Live chat', color: '#C1272D', offlineTitle: 'Leave a message', offlineColor: '#666666' };
const SURVEY = { items: ['satisfaction', 'agentKnowledge', 'agentResposiveness', 'agentFriendliness'], values: ['1', '2', '3', '4', '5'] };

async function withSetting<T>(id: string, value: unknown, fn: () => Promise<T>): Promise<T> {
  const before = t.services.settings.read(id).value;
  await setSetting(t, id, value);
  try {
    return await fn();
  } finally {
    await setSetting(t, id, before);
  }
}

describe('GET livechat/config', () => {
  it('without a token: the whole config with the §3 defaults, and no guest, room or agent', async () => {
    const res = await t.api.get(CONFIG);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({
      config: {
        enabled: true,
        online: true,
        settings: DEFAULT_SETTINGS,
        theme: DEFAULT_THEME,
        messages: DEFAULT_MESSAGES,
        triggers: [],
        customFields: [],
        resources: { sound: 'http://localhost:80/sounds/chime.mp3' },
        departments: expect.any(Array),
        survey: SURVEY,
      },
      success: true,
    });
    await onlyAvailable(t, []);
    expect((await t.api.get(CONFIG)).body.config.online).toBe(false);
  });

  it('W1: settings.transcript needs Livechat_enable_transcript and configured mail; messages.* follow their settings', async () => {
    const read = async () => (await t.api.get(CONFIG)).body.config;
    await withSetting('Livechat_enable_transcript', true, async () => {
      expect((await read()).settings.transcript).toBe(false);
      await withSetting('SMTP_Host', 'smtp.example.com', async () => {
        expect((await read()).settings.transcript).toBe(false);
        await withSetting('From_Email', 'desk@example.com', async () => {
          expect((await read()).settings.transcript).toBe(true);
        });
      });
    });
    await withSetting('Livechat_offline_success_message', 'Thanks, we will write back', async () => {
      expect((await read()).messages).toEqual({ ...DEFAULT_MESSAGES, offlineSuccessMessage: 'Thanks, we will write back' });
    });
    // DESK.md D3: what the widget shows after any close.
    await withSetting('Livechat_conversation_finished_message', 'Thanks for chatting', async () => {
      await withSetting('Livechat_conversation_finished_text', 'Line one\nLine two', async () => {
        expect((await read()).messages).toEqual({ ...DEFAULT_MESSAGES, conversationFinishedMessage: 'Thanks for chatting', conversationFinishedText: 'Line one\nLine two' });
      });
    });
  });

  it('keeps settings, theme, messages, triggers and resources when livechat is disabled', async () => {
    const body = await withSetting('Livechat_enabled', false, async () => (await t.api.get(CONFIG)).body);
    expect(body.config).toMatchObject({
      enabled: false,
      online: false,
      settings: DEFAULT_SETTINGS,
      theme: DEFAULT_THEME,
      messages: DEFAULT_MESSAGES,
      triggers: [],
      resources: { sound: 'http://localhost:80/sounds/chime.mp3' },
    });
  });

  it('theme and settings follow the livechat settings at once', async () => {
    // Read first, so the kept configuration exists and the change must replace it.
    expect((await t.api.get(CONFIG)).body.config.theme.title).toBe('Live chat');
    await setSetting(t, 'Livechat_title', 'Talk to ACME');
    await setSetting(t, 'Livechat_title_color', '#112233');
    await setSetting(t, 'Livechat_offline_title', 'We are away');
    await setSetting(t, 'Livechat_offline_title_color', 'rgb(1, 2, 3)');
    await setSetting(t, 'Livechat_display_offline_form', false);
    await setSetting(t, 'Livechat_enable_message_character_limit', true);
    await setSetting(t, 'Livechat_message_character_limit', 140);
    await setSetting(t, 'Livechat_show_agent_info', false);
    await setSetting(t, 'Livechat_registration_form', false);
    await setSetting(t, 'Livechat_name_field_registration_form', false);
    await setSetting(t, 'Livechat_email_field_registration_form', false);
    try {
      const { config } = (await t.api.get(CONFIG)).body;
      expect(config.theme).toEqual({ title: 'Talk to ACME', color: '#112233', offlineTitle: 'We are away', offlineColor: 'rgb(1, 2, 3)' });
      expect(config.settings).toEqual({
        ...DEFAULT_SETTINGS,
        displayOfflineForm: false,
        limitTextLength: 140,
        agentHiddenInfo: true,
        registrationForm: false,
        nameFieldRegistrationForm: false,
        emailFieldRegistrationForm: false,
      });
    } finally {
      for (const id of ['Livechat_registration_form', 'Livechat_name_field_registration_form', 'Livechat_email_field_registration_form']) {
        await setSetting(t, id, true);
      }
      await setSetting(t, 'Livechat_title', 'Live chat');
      await setSetting(t, 'Livechat_title_color', '#C1272D');
      await setSetting(t, 'Livechat_offline_title', 'Leave a message');
      await setSetting(t, 'Livechat_offline_title_color', '#666666');
      await setSetting(t, 'Livechat_display_offline_form', true);
      await setSetting(t, 'Livechat_enable_message_character_limit', false);
      await setSetting(t, 'Livechat_message_character_limit', 0);
      await setSetting(t, 'Livechat_show_agent_info', true);
    }
    expect((await t.api.get(CONFIG)).body.config.settings).toEqual(DEFAULT_SETTINGS);
  });

  it('lists the enabled departments that have agents, with showOnRegistration and showOnOfflineForm', async () => {
    const shown = await createDepartment(t, 'config-dep', [agent]);
    const offlineOnly = await createDepartment(t, 'config-offline', [agent], { showOnRegistration: false, showOnOfflineForm: true });
    const disabled = await createDepartment(t, 'config-disabled', [agent], { enabled: false });
    // Rocket.Chat lists only departments with agents: the widget must not offer one nobody staffs.
    const empty = await createDepartment(t, 'config-empty', []);
    const { departments } = (await t.api.get(CONFIG)).body.config;
    expect(departments).toContainEqual({ _id: shown._id, name: 'config-dep', showOnRegistration: true, showOnOfflineForm: true });
    expect(departments).toContainEqual({ _id: offlineOnly._id, name: 'config-offline', showOnRegistration: false, showOnOfflineForm: true });
    expect(departments.map((d: { _id: string }) => d._id)).not.toContain(disabled._id);
    expect(departments.map((d: { _id: string }) => d._id)).not.toContain(empty._id);
  });

  it('online: an agent available, or chats accepted without agents, or the visitor has an open room', async () => {
    const { token } = await registerVisitor(t);
    await onlyAvailable(t, []);
    expect((await t.api.get(CONFIG)).body.config.online).toBe(false);
    expect((await t.api.get(CONFIG, { query: { token } })).body.config.online).toBe(false);
    // Livechat_accept_chats_with_no_agents: the chat waits in the queue, so the widget offers it (Rocket.Chat does).
    await withSetting('Livechat_accept_chats_with_no_agents', true, async () => {
      expect((await t.api.get(CONFIG)).body.config.online).toBe(true);
      await openRoom(t, token);
    });
    expect((await t.api.get(CONFIG)).body.config.online).toBe(false);
    // Parley rule (W1): the widget re-routes on `online` at each load; an open chat is never hidden behind the offline form.
    expect((await t.api.get(CONFIG, { query: { token } })).body.config.online).toBe(true);
    // Livechat disabled: offline whatever else holds.
    const disabled = await withSetting('Livechat_enabled', false, async () => (await t.api.get(CONFIG, { query: { token } })).body.config);
    expect(disabled.online).toBe(false);
  });

  it('with a token: guest, open room and the agent as agent.info shows it', async () => {
    const { token, visitor } = await registerVisitor(t, { name: 'Config Visitor' });
    const room = await openRoom(t, token);
    const res = await t.api.get(CONFIG, { query: { token } });
    expect(res.body.config.guest).toEqual({ ...visitor, _updatedAt: expect.stringMatching(ISO) });
    expect(res.body.config.room).toEqual({ ...room, _updatedAt: expect.stringMatching(ISO) });
    expect(res.body.config.agent).toEqual({ _id: agent.userId, username: agent.username, name: agent.username, status: 'online' });

    const withEmail = await withSetting('Livechat_show_agent_email', true, async () => (await t.api.get(CONFIG, { query: { token } })).body);
    expect(withEmail.config.agent).toEqual({
      _id: agent.userId,
      username: agent.username,
      name: agent.username,
      status: 'online',
      emails: [{ address: `${agent.username}@example.com` }],
    });
    const hidden = await withSetting('Livechat_show_agent_info', false, async () => (await t.api.get(CONFIG, { query: { token } })).body);
    expect(hidden.config.agent).toEqual({ hiddenInfo: true });
    expect(hidden.config.settings.agentHiddenInfo).toBe(true);
  });

  it('an unknown token is no guest; unknown query parameters and businessUnit are ignored', async () => {
    const res = await t.api.get(CONFIG, { query: { token: 'no-such-token', businessUnit: 'x', department: 'nope' } });
    expect(res.status).toBe(200);
    expect(res.body.config.guest).toBeUndefined();
    expect(res.body.config.room).toBeUndefined();
    expect(res.body.config.agent).toBeUndefined();
    const nul = await t.api.get(CONFIG, { query: { token: 'a\u0000b' } });
    expect(nul.status).toBe(400);
    expect(nul.body.errorType).toBe('invalid-params');
  });
});
