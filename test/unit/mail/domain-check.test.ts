/**
 * `Livechat_validate_offline_email`'s lookup (WIDGET.md W3.2) against a real DNS server on loopback: a domain with MX,
 * A or AAAA passes; a name that does not exist or has none of them fails; a resolver that fails passes (a DNS outage
 * never loses a lead).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsDomainCheck } from '../../../src/services/offline-messages.service.js';
import { DnsServer } from '../../support/dns-server.js';

let server: DnsServer;

beforeAll(async () => {
  server = await DnsServer.start({
    'mail.example': { mx: ['mx.mail.example'] },
    'web.example': { a: ['192.0.2.10'] },
    'six.example': { aaaa: ['2001:db8::1'] },
    'empty.example': 'nodata',
    'broken.example': 'servfail',
  });
});
afterAll(async () => server.close());

describe('dnsDomainCheck', () => {
  it('passes a domain with MX, A or AAAA records', async () => {
    const check = dnsDomainCheck({ servers: [server.address] });
    expect(await check('mail.example')).toBe(true);
    expect(await check('web.example')).toBe(true);
    expect(await check('six.example')).toBe(true);
    // All three record types were asked for.
    expect(new Set(server.queries.filter((q) => q.name === 'mail.example').map((q) => q.type))).toEqual(new Set(['mx', 'a', 'aaaa']));
  });

  it('refuses a domain that does not exist or has no such record', async () => {
    const check = dnsDomainCheck({ servers: [server.address] });
    expect(await check('nowhere.example')).toBe(false);
    expect(await check('empty.example')).toBe(false);
  });

  it('passes when the resolver fails: an outage never loses a lead', async () => {
    const check = dnsDomainCheck({ servers: [server.address] });
    expect(await check('broken.example')).toBe(true);
  });
});
