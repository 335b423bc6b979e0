/**
 * Pure parts of the DDP layer: EJSON conversion, the ApiError → Meteor error mapping and the stream
 * option normalisation (the protocol itself is tested through sockets in ddp-protocol / ddp-streams).
 */
import { describe, expect, it } from 'vitest';
import {
  decodeEJSONInPlace,
  fromApiError,
  normaliseStreamParams,
  stringifyEJSON,
  toEJSON,
} from '../../../src/realtime/ddp/index.js';
import { loadConfig } from '../../../src/config.js';
import { ApiError, bareFailure, failure, serviceUnavailable, tooManyRequests } from '../../../src/services/errors.js';

describe('EJSON dates (R1)', () => {
  it('stringifies Dates anywhere as {$date: ms}', () => {
    expect(JSON.parse(stringifyEJSON({ a: new Date(1), b: [new Date(2), { c: new Date(3) }], d: 'x' }))).toEqual({
      a: { $date: 1 },
      b: [{ $date: 2 }, { c: { $date: 3 } }],
      d: 'x',
    });
  });

  it('converts ISO strings only under the named keys, and Dates everywhere', () => {
    const wire = {
      _id: 'm',
      ts: '2024-05-01T10:00:00.000Z',
      msg: '2024-05-01T10:00:00.000Z',
      u: { _updatedAt: '2024-05-01T10:00:01.500Z', name: 'n' },
      list: [{ ts: '2024-05-01T10:00:02Z' }, { ts: 'not a date' }],
      when: new Date(7),
    };
    expect(toEJSON(wire, ['ts', '_updatedAt'])).toEqual({
      _id: 'm',
      ts: { $date: Date.parse('2024-05-01T10:00:00.000Z') },
      msg: '2024-05-01T10:00:00.000Z',
      u: { _updatedAt: { $date: Date.parse('2024-05-01T10:00:01.500Z') }, name: 'n' },
      list: [{ ts: { $date: Date.parse('2024-05-01T10:00:02Z') } }, { ts: 'not a date' }],
      when: { $date: 7 },
    });
    // The input is not modified.
    expect(wire.ts).toBe('2024-05-01T10:00:00.000Z');
  });

  it('decodes {$date} in client values and refuses nesting beyond the bound', () => {
    const decoded = decodeEJSONInPlace([{ end: { $date: 1000 }, other: { $date: 1, x: 2 } }, { $date: null }]);
    expect(decoded.ok).toBe(true);
    const [first, second] = (decoded as { value: any[] }).value;
    expect(first.end).toEqual(new Date(1000));
    expect(first.other).toEqual({ $date: 1, x: 2 });
    expect(second).toEqual({ $date: null });
    // only times a Date can hold (±8.64e15 ms) become Dates: never an Invalid Date
    const bounds = decodeEJSONInPlace([{ $date: 8.64e15 }, { $date: -8.64e15 }, { $date: 8.64e15 + 1 }, { $date: -1e17 }, { $date: Infinity }, { $date: NaN }]);
    expect((bounds as { value: unknown[] }).value).toEqual([
      new Date(8.64e15),
      new Date(-8.64e15),
      { $date: 8.64e15 + 1 },
      { $date: -1e17 },
      { $date: Infinity },
      { $date: NaN },
    ]);
    let deep: unknown = {};
    for (let i = 0; i < 100; i++) deep = { a: deep };
    expect(decodeEJSONInPlace(deep)).toEqual({ ok: false });
  });
});

describe('ApiError → Meteor error', () => {
  it('splits "<reason> [<code>]" into code and reason, keeping details', () => {
    expect(fromApiError(failure('TOTP Required', 'totp-required', { method: 'password' })).toJSON()).toEqual({
      isClientSafe: true,
      error: 'totp-required',
      reason: 'TOTP Required',
      message: 'TOTP Required [totp-required]',
      errorType: 'Meteor.Error',
      details: { method: 'password' },
    });
    expect(fromApiError(failure('', 'error-omnichannel-is-disabled')).toJSON()).toMatchObject({
      error: 'error-omnichannel-is-disabled',
      reason: 'error-omnichannel-is-disabled',
    });
    expect(fromApiError(tooManyRequests(3, {})).toJSON()).toMatchObject({
      error: 'error-too-many-requests',
      reason: 'Error, too many requests. Please slow down. You must wait 3 seconds before trying this endpoint again.',
    });
    expect(fromApiError(serviceUnavailable()).toJSON()).toMatchObject({ error: 'error-service-unavailable', reason: 'Service unavailable, try again' });
  });

  it('keeps bare livechat words as code and reason; other uncoded texts take the HTTP status', () => {
    expect(fromApiError(bareFailure('invalid-token')).toJSON()).toMatchObject({ error: 'invalid-token', reason: 'invalid-token', message: 'invalid-token [invalid-token]' });
    expect(fromApiError(bareFailure('Please verify the parameters')).toJSON()).toMatchObject({ error: 400, reason: 'Please verify the parameters' });
    expect(fromApiError(new ApiError(500, { success: false, error: 'Internal server error' })).toJSON()).toMatchObject({ error: 500, reason: 'Internal server error' });
  });
});

describe('stream options', () => {
  it('normalises every form to (eventName, extra)', () => {
    const token = { token: 't' };
    expect(normaliseStreamParams(['e'])).toEqual({ eventName: 'e', extra: {} });
    expect(normaliseStreamParams(['e', false])).toEqual({ eventName: 'e', extra: {} });
    expect(normaliseStreamParams(['e', null])).toEqual({ eventName: 'e', extra: {} });
    expect(normaliseStreamParams(['e', { useCollection: false, args: [token] }])).toEqual({ eventName: 'e', extra: token });
    expect(() => normaliseStreamParams(['e', { args: [[token]] }])).toThrow('Match failed');
    expect(() => normaliseStreamParams([{ eventName: 'e' }])).toThrow('Match failed');
  });
});

describe('keep-alive configuration', () => {
  it('reads DDP_PING_INTERVAL_MS and DDP_PING_TIMEOUT_MS (30 s each by default), refusing 0 and garbage', () => {
    expect(loadConfig({})).toMatchObject({ ddpPingIntervalMs: 30_000, ddpPingTimeoutMs: 30_000 });
    expect(loadConfig({ DDP_PING_INTERVAL_MS: '500', DDP_PING_TIMEOUT_MS: '700' })).toMatchObject({ ddpPingIntervalMs: 500, ddpPingTimeoutMs: 700 });
    expect(() => loadConfig({ DDP_PING_INTERVAL_MS: '0' })).toThrow('DDP_PING_INTERVAL_MS must be positive');
    expect(() => loadConfig({ DDP_PING_TIMEOUT_MS: 'soon' })).toThrow(/non-negative integer/);
  });
});
