/**
 * A tiny authoritative DNS server on loopback (UDP) for tests of DNS lookups: each name answers as configured —
 * records (MX, A, AAAA), `nxdomain`, `nodata` (the name exists, no record of the asked type) or `servfail`. Only
 * what a resolver's MX/A/AAAA query needs; every query it saw is kept in `queries`.
 */
import dgram from 'node:dgram';

export type DnsAnswer = 'nxdomain' | 'nodata' | 'servfail' | { mx?: string[]; a?: string[]; aaaa?: string[] };

const TYPES: Record<number, 'a' | 'mx' | 'aaaa'> = { 1: 'a', 15: 'mx', 28: 'aaaa' };

function encodeName(name: string): Buffer {
  const parts = name.split('.').filter(Boolean).map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function rdata(type: 'a' | 'mx' | 'aaaa', value: string): Buffer {
  if (type === 'a') return Buffer.from(value.split('.').map(Number));
  if (type === 'aaaa') {
    const out = Buffer.alloc(16);
    const [head, tail = ''] = value.split('::');
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
    groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
    return out;
  }
  return Buffer.concat([Buffer.from([0, 10]), encodeName(value)]);
}

export class DnsServer {
  readonly queries: Array<{ name: string; type: string }> = [];
  private constructor(
    private readonly socket: dgram.Socket,
    readonly port: number,
    private readonly zone: Record<string, DnsAnswer>,
  ) {}

  static async start(zone: Record<string, DnsAnswer>): Promise<DnsServer> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const server = new DnsServer(socket, socket.address().port, zone);
    socket.on('message', (query, peer) => socket.send(server.answer(query), peer.port, peer.address));
    return server;
  }

  /** The resolver address for `dns.Resolver#setServers`. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  private answer(query: Buffer): Buffer {
    const labels: string[] = [];
    let offset = 12;
    while (query[offset]! > 0) {
      const length = query[offset]!;
      labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
      offset += length + 1;
    }
    const question = query.subarray(12, offset + 5);
    const qtype = query.readUInt16BE(offset + 1);
    const name = labels.join('.').toLowerCase();
    const type = TYPES[qtype];
    this.queries.push({ name, type: type ?? String(qtype) });
    const found = this.zone[name] ?? 'nxdomain';
    const rcode = found === 'nxdomain' ? 3 : found === 'servfail' ? 2 : 0;
    const values = typeof found === 'object' && type ? (found[type] ?? []) : [];
    const answers = values.map((value) => {
      const data = rdata(type!, value);
      const head = Buffer.alloc(12);
      head.writeUInt16BE(0xc00c, 0); // the question's name
      head.writeUInt16BE(qtype, 2);
      head.writeUInt16BE(1, 4); // IN
      head.writeUInt32BE(60, 6);
      head.writeUInt16BE(data.length, 10);
      return Buffer.concat([head, data]);
    });
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | rcode, 2); // QR, AA, the query's RD
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    return Buffer.concat([header, question, ...answers]);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}
