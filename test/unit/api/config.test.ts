/** Configuration from the environment (src/config.ts, contract §2): parsing, validation and defaults. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('configuration', () => {
  it('parses OVERWRITE_SETTING_<id> values to the setting type', () => {
    const config = loadConfig({
      OVERWRITE_SETTING_Livechat_enabled: 'FALSE',
      OVERWRITE_SETTING_API_Default_Count: '25',
      OVERWRITE_SETTING_Livechat_Routing_Method: 'Manual_Selection',
    });
    expect(config.settingOverrides).toEqual({
      Livechat_enabled: false,
      API_Default_Count: 25,
      Livechat_Routing_Method: 'Manual_Selection',
    });
  });

  it('refuses malformed overrides and unknown settings at start-up', () => {
    expect(() => loadConfig({ OVERWRITE_SETTING_Livechat_enabled: 'maybe' })).toThrow(/true or false/);
    expect(() => loadConfig({ OVERWRITE_SETTING_API_Default_Count: 'ten' })).toThrow(/integer/);
    expect(() => loadConfig({ OVERWRITE_SETTING_Livechat_Routing_Method: 'x' })).toThrow(/one of/);
    expect(() => loadConfig({ OVERWRITE_SETTING_Nope: '1' })).toThrow(/unknown setting/);
    expect(() => loadConfig({ OVERWRITE_SETTING_Livechat_AllowedDomainsList: "'none'" })).toThrow(/list of domains/);
    expect(() => loadConfig({ OVERWRITE_SETTING_Livechat_title_color: 'url(x)' })).toThrow(/colour/);
  });

  it('has the contract defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: 'sqlite:./data/parley.db',
      adminUsername: 'admin',
      adminPassword: undefined,
      adminEmail: 'admin@localhost',
      siteUrl: 'http://localhost:3000',
      publicUrl: null,
      rateLimit: true,
      logLevel: 'info',
      workers: 1,
    });
    expect(loadConfig({ RATE_LIMIT: 'off' }).rateLimit).toBe(false);
    // SITE_URL set: both the fallback and the public URL, without a trailing slash.
    expect(loadConfig({ SITE_URL: 'https://chat.example.com/' })).toMatchObject({ siteUrl: 'https://chat.example.com', publicUrl: 'https://chat.example.com' });
  });

  it('timeouts are configuration: validated, with defaults', () => {
    expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 72_000 });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '3000' })).toMatchObject({
      requestTimeoutMs: 5000,
      headersTimeoutMs: 2000,
      keepAliveTimeoutMs: 3000,
    });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000' }).headersTimeoutMs).toBe(5000);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' })).toThrow(/must not exceed/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/positive/);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: 'soon' })).toThrow(/non-negative integer/);
  });
});
