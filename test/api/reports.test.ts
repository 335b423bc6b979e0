/**
 * DESK.md D8 reports (D10.11): a known desk day driven by the manual clock — rooms waiting outside business hours,
 * routed at the opening, taken, transferred, answered after chosen delays, closed by agents and visitors, rated and
 * re-rated — then every figure of `reports.metrics` (each grouping, UTC and Asia/Kolkata, a DST zone, the
 * business-hours variant, a range off quarter-hour boundaries) compared with an independent recomputation of D8's
 * definitions from the history the test itself recorded. Also: validation, scope, the CSV export byte for byte, the
 * snapshot, Rocket.Chat's dashboards, and the log rolled back with its change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createDepartment, db, makeAgent, onlyAvailable, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

const V = '/api/v1/livechat';
const START = Date.parse('2026-03-02T05:00:00.000Z'); // a Monday
const at = (hms: string, day = '2026-03-02') => Date.parse(`${day}T${hms}.000Z`);

// ── the history the test records, and D8 recomputed from it ──

type Step =
  | { kind: 'open'; rid: string; at: number; dept: string; visitor: string }
  | { kind: 'assign'; rid: string; at: number; agent: string }
  | { kind: 'queue'; rid: string; at: number }
  | { kind: 'transfer'; rid: string; at: number; dept: string }
  | { kind: 'visitor'; rid: string; at: number }
  | { kind: 'agent'; rid: string; at: number; agent: string }
  | { kind: 'close'; rid: string; at: number; closer: 'visitor' | 'user' }
  | { kind: 'rate'; rid: string; at: number; value: number };
const history: Step[] = [];

interface Sample {
  kind: string;
  ts: number;
  value: number | null;
  bh: number | null;
  agent: string | null;
  dept: string;
  weight: number;
}

/** Seconds of `[from, to)` inside Monday–Friday 08:00–20:00 UTC (the default schedule), day by day. */
function openSeconds(from: number, to: number): number {
  let total = 0;
  for (let day = Math.floor(from / 86_400_000) * 86_400_000; day < to; day += 86_400_000) {
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const lo = Math.max(from, day + 8 * 3_600_000);
    const hi = Math.min(to, day + 20 * 3_600_000);
    if (hi > lo) total += hi - lo;
  }
  return Math.floor(total / 1000);
}

/** D8's definitions, applied room by room to the recorded history. */
function samplesOf(steps: readonly Step[], businessHours: boolean): Sample[] {
  const out: Sample[] = [];
  const rooms = new Map<string, Step[]>();
  for (const s of steps) rooms.set(s.rid, [...(rooms.get(s.rid) ?? []), s]);
  for (const list of rooms.values()) {
    const open = list[0] as Extract<Step, { kind: 'open' }>;
    let dept = open.dept;
    let agent: string | null = null;
    let lastAgent: string | null = null;
    let firstAssign: number | null = null;
    let assignedAt: number | null = null;
    let reacted = false;
    let firstVisitor: number | null = null;
    let burst: number | null = null;
    let human = false;
    let rating: number | null = null;
    const dur = (kind: string, from: number, to: number, who: string | null) =>
      out.push({ kind, ts: to, value: Math.floor((to - from) / 1000), bh: businessHours ? openSeconds(from, to) : Math.floor((to - from) / 1000), agent: who, dept, weight: 1 });
    const count = (kind: string, ts: number, who: string | null) => out.push({ kind, ts, value: null, bh: null, agent: who, dept, weight: 1 });
    for (const s of list) {
      switch (s.kind) {
        case 'open':
          count('conversations', s.at, null);
          break;
        case 'assign':
          if (firstAssign === null) {
            firstAssign = s.at;
            dur('queueWait', open.at, s.at, s.agent);
          }
          agent = lastAgent = s.agent;
          assignedAt = s.at;
          reacted = false;
          break;
        case 'queue':
          agent = null;
          break;
        case 'transfer':
          dept = s.dept;
          break;
        case 'visitor':
          count('messagesIn', s.at, agent);
          firstVisitor ??= s.at;
          burst ??= s.at;
          break;
        case 'agent':
          count('messagesOut', s.at, s.agent);
          if (!human && firstVisitor !== null) dur('firstResponse', firstVisitor, s.at, s.agent);
          if (burst !== null) dur('replyTime', burst, s.at, s.agent);
          if (s.agent === agent && !reacted && assignedAt !== null) {
            dur('reaction', assignedAt, s.at, s.agent);
            reacted = true;
          }
          human = true;
          burst = null;
          break;
        case 'close':
          count('closed', s.at, agent);
          dur('resolution', open.at, s.at, agent);
          if (firstAssign !== null) {
            dur('handleTime', firstAssign, s.at, agent);
            if (s.closer === 'visitor' && !human) count('abandoned', s.at, agent);
          } else {
            count('missed', s.at, null);
          }
          break;
        case 'rate':
          if (rating !== null) out.push({ kind: 'csat', ts: s.at, value: rating, bh: rating, agent: lastAgent, dept, weight: -1 });
          out.push({ kind: 'csat', ts: s.at, value: s.value, bh: s.value, agent: lastAgent, dept, weight: 1 });
          rating = s.value;
          break;
      }
    }
  }
  return out;
}

/** D8's histogram bucket, written out again. */
function bucket(v: number): number {
  if (v < 600) return v;
  if (v < 3600) return Math.floor(v / 10) * 10;
  if (v < 86_400) return Math.floor(v / 60) * 60;
  if (v < 30 * 86_400) return Math.floor(v / 600) * 600;
  return 30 * 86_400;
}

const DURATION_KINDS = ['queueWait', 'firstResponse', 'reaction', 'replyTime', 'resolution', 'handleTime'];
const COUNT_KINDS = ['conversations', 'closed', 'missed', 'abandoned', 'messagesIn', 'messagesOut'];

/** The totals object D8 specifies, from samples: weights cancel taken-back answers; ranks over the sorted values. */
function totalsOf(samples: readonly Sample[], useBh: boolean) {
  const out: Record<string, unknown> = {};
  const valuesOf = (kind: string) => {
    const values: number[] = [];
    for (const s of samples.filter((x) => x.kind === kind)) {
      const v = (useBh ? s.bh : s.value)!;
      if (s.weight > 0) values.push(v);
      else values.splice(values.indexOf(v), 1);
    }
    return values.sort((a, b) => a - b);
  };
  const stats = (values: number[]) => {
    if (values.length === 0) return { count: 0, mean: null, median: null, p90: null };
    const rank = (q: number) => bucket(values[Math.max(1, Math.ceil(q * values.length)) - 1]!);
    return { count: values.length, mean: values.reduce((a, b) => a + b, 0) / values.length, median: rank(0.5), p90: rank(0.9) };
  };
  for (const kind of DURATION_KINDS) out[kind] = stats(valuesOf(kind));
  const csat = valuesOf('csat');
  out.csat = { ...stats(csat), score: csat.length === 0 ? null : csat.filter((v) => v >= 4).length / csat.length };
  for (const kind of COUNT_KINDS) out[kind] = { count: samples.filter((s) => s.kind === kind).length };
  return out;
}

/** Local `YYYY-MM-DD` of an instant in a zone. */
function localDate(zone: string, t: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(t));
}
function localHourOfWeek(zone: string, t: number): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(t));
  const wd = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.find((p) => p.type === 'weekday')!.value) + 1;
  return `${wd}-${parts.find((p) => p.type === 'hour')!.value}`;
}

// ── the scenario ──

let t: TestApp;
let a: Agent;
let b: Agent;
let d1: { _id: string; name: string };
let d2: { _id: string; name: string };
const rooms: Record<string, { rid: string; token: string }> = {};

const setClock = async (iso: number) => {
  const res = await t.api.post('/api/v1/clock', { set: new Date(iso).toISOString() }, { auth: t.admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const now = () => Date.parse(t.services.clock.now() as unknown as string) || (t.services.clock.now() as number);

async function open(name: string, dept: { _id: string }, when: number, visitorName = `Visitor ${name}`) {
  await setClock(when);
  const { token, visitor } = await registerVisitor(t, { department: dept._id, name: visitorName });
  const res = await t.api.get(`${V}/room`, { query: { token } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  rooms[name] = { rid: res.body.room._id, token };
  history.push({ kind: 'open', rid: res.body.room._id, at: when, dept: dept._id, visitor: visitor._id });
  const served = res.body.room.servedBy?._id as string | undefined;
  if (served) history.push({ kind: 'assign', rid: res.body.room._id, at: when, agent: served });
  return res.body.room;
}
async function visitorSays(name: string, when: number) {
  await setClock(when);
  const res = await t.api.post(`${V}/message`, { rid: rooms[name]!.rid, token: rooms[name]!.token, msg: `from the visitor at ${when}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  history.push({ kind: 'visitor', rid: rooms[name]!.rid, at: when });
}
async function agentSays(name: string, who: Agent, when: number) {
  await setClock(when);
  const res = await t.api.post('/api/v1/chat.sendMessage', { message: { rid: rooms[name]!.rid, msg: 'from the agent' } }, { auth: who });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  history.push({ kind: 'agent', rid: rooms[name]!.rid, at: when, agent: who.userId });
}
async function agentCloses(name: string, who: Agent, when: number, comment = 'done') {
  await setClock(when);
  const res = await t.api.post(`${V}/room.closeByUser`, { rid: rooms[name]!.rid, comment }, { auth: who });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  history.push({ kind: 'close', rid: rooms[name]!.rid, at: when, closer: 'user' });
}
async function visitorCloses(name: string, when: number) {
  await setClock(when);
  const res = await t.api.post(`${V}/room.close`, { rid: rooms[name]!.rid, token: rooms[name]!.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  history.push({ kind: 'close', rid: rooms[name]!.rid, at: when, closer: 'visitor' });
}
async function rate(name: string, value: number, when: number) {
  await setClock(when);
  const res = await t.api.post(`${V}/room.survey`, { rid: rooms[name]!.rid, token: rooms[name]!.token, data: [{ name: 'satisfaction', value: String(value) }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  history.push({ kind: 'rate', rid: rooms[name]!.rid, at: when, value });
}
async function servedBy(name: string): Promise<string | null> {
  const row = await db(t.store).selectFrom('rooms').select('served_by_id').where('id', '=', rooms[name]!.rid).executeTakeFirstOrThrow();
  return row.served_by_id;
}

/** A query string; arrays as `key[]=v` pairs (qs's form, as the console sends them). */
function qs(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const item of v) params.append(k.endsWith('[]') ? k : `${k}[]`, String(item));
    else params.append(k, String(v));
  }
  return params.toString();
}
const metrics = (query: Record<string, unknown>, auth: { userId: string; authToken: string } = t.admin) => t.api.get(`${V}/reports.metrics?${qs(query)}`, { auth });
const DAY1 = { start: '2026-03-02T00:00:00.000Z', end: '2026-03-04T00:00:00.000Z' };
const inDay1 = (s: Sample) => s.ts >= Date.parse(DAY1.start) && s.ts < Date.parse(DAY1.end);

beforeAll(async () => {
  t = await createTestApp({ config: { clock: 'manual', clockStart: START, rateLimit: false } });
  a = await makeAgent(t);
  b = await makeAgent(t);
  d1 = await createDepartment(t, 'reports-one', [a]);
  d2 = await createDepartment(t, 'reports-two', [b]);
  await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
  await setSetting(t, 'Livechat_enable_business_hours', true);
  await onlyAvailable(t, [a]);

  // R1: opened at 06:00 while closed (it waits), written to at once, routed to A at the 08:00 opening.
  await open('r1', d1, at('06:00:00'));
  await visitorSays('r1', at('06:00:10'));
  await setClock(at('08:00:00'));
  expect(await servedBy('r1')).toBe(a.userId);
  history.push({ kind: 'assign', rid: rooms.r1!.rid, at: at('08:00:00'), agent: a.userId });
  await agentSays('r1', a, at('08:01:00'));
  await visitorSays('r1', at('08:01:30'));
  await visitorSays('r1', at('08:01:40'));
  await agentSays('r1', a, at('08:03:00'));
  await agentCloses('r1', a, at('08:10:00'));
  await rate('r1', 5, at('08:10:05'));
  await rate('r1', 3, at('08:10:10'));

  // R2: queued (manual selection), taken by B after 725 s; first response 750 s after the visitor's message.
  await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
  await onlyAvailable(t, [a, b]);
  await open('r2', d2, at('08:20:00'));
  await visitorSays('r2', at('08:20:05'));
  await setClock(at('08:32:05'));
  const inquiry = await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: rooms.r2!.rid }, auth: t.admin });
  expect((await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry.body.inquiry._id }, { auth: b })).status).toBe(200);
  history.push({ kind: 'assign', rid: rooms.r2!.rid, at: at('08:32:05'), agent: b.userId });
  await agentSays('r2', b, at('08:32:35'));
  await visitorCloses('r2', at('08:40:00'));
  await rate('r2', 4, at('08:41:00'));

  // R3: never assigned, closed by the visitor: missed.
  await open('r3', d1, at('09:00:00'));
  await visitorSays('r3', at('09:00:30'));
  await visitorCloses('r3', at('09:05:00'));

  // R4: routed to B at open, closed by the visitor before any human answer: abandoned.
  await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
  await onlyAvailable(t, [b]);
  await open('r4', d2, at('10:00:00'));
  expect(await servedBy('r4')).toBe(b.userId);
  await visitorSays('r4', at('10:00:20'));
  await visitorCloses('r4', at('10:02:00'));

  // R5: evening (01:00 the next day in Kolkata), transferred to D1 (A), closed by A after the 20:00 closing.
  await open('r5', d2, at('19:30:00'), '=HYPERLINK("x")');
  expect(await servedBy('r5')).toBe(b.userId);
  await visitorSays('r5', at('19:30:10'));
  await agentSays('r5', b, at('19:45:10'));
  await visitorSays('r5', at('19:46:00'));
  await onlyAvailable(t, [a, b]);
  await setClock(at('19:50:00'));
  const forwarded = await t.api.post(`${V}/room.forward`, { roomId: rooms.r5!.rid, departmentId: d1._id }, { auth: t.admin });
  expect(forwarded.status, JSON.stringify(forwarded.body)).toBe(200);
  expect(await servedBy('r5')).toBe(a.userId);
  history.push({ kind: 'transfer', rid: rooms.r5!.rid, at: at('19:50:00'), dept: d1._id });
  history.push({ kind: 'assign', rid: rooms.r5!.rid, at: at('19:50:00'), agent: a.userId });
  await agentSays('r5', a, at('19:52:00'));
  await agentCloses('r5', a, at('20:30:00'), '+1, "quoted"\nline');
}, 120_000);
afterAll(async () => t.close());

describe('reports.metrics against the recorded history', () => {
  it('totals: every metric (UTC, no grouping)', async () => {
    const res = await metrics(DAY1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = totalsOf(samplesOf(history, false).filter(inDay1), false);
    expect(res.body).toEqual({ start: DAY1.start, end: DAY1.end, timezone: 'UTC', businessHours: false, totals: expected, groups: [], success: true });
    // The scenario's known figures, as a check of the recomputation itself.
    expect(res.body.totals.queueWait).toEqual({ count: 4, mean: (7200 + 725 + 0 + 0) / 4, median: 0, p90: 7200 });
    expect(res.body.totals.firstResponse.count).toBe(3);
    expect(res.body.totals.csat).toEqual({ count: 2, mean: 3.5, median: 3, p90: 4, score: 0.5 });
    expect(res.body.totals.missed).toEqual({ count: 1 });
    expect(res.body.totals.abandoned).toEqual({ count: 1 });
  });

  it('the business-hours variant counts only the part inside open hours', async () => {
    const res = await metrics({ ...DAY1, businessHours: 'true' });
    expect(res.status).toBe(200);
    expect(res.body.businessHours).toBe(true);
    expect(res.body.totals).toEqual(totalsOf(samplesOf(history, true).filter(inDay1), true));
    // R1 waited 06:00–08:00 outside hours: none of it counts; R2's 725 s are all inside.
    expect(res.body.totals.queueWait.p90).toBe(720); // 725 s, in the 10 s bucket from 720
  });

  for (const zone of ['UTC', 'Asia/Kolkata']) {
    it(`groupBy day and hourOfWeek in ${zone}`, async () => {
      const samples = samplesOf(history, false).filter(inDay1);
      const day = await metrics({ ...DAY1, timezone: zone, groupBy: 'day' });
      expect(day.status, JSON.stringify(day.body)).toBe(200);
      const days = zone === 'UTC' ? ['2026-03-02', '2026-03-03'] : ['2026-03-02', '2026-03-03', '2026-03-04'];
      expect(day.body.groups).toEqual(days.map((key) => ({ key, totals: totalsOf(samples.filter((s) => localDate(zone, s.ts) === key), false) })));
      expect(day.body.totals).toEqual(totalsOf(samples, false));
      if (zone === 'Asia/Kolkata') expect(day.body.groups[1].totals.resolution.count).toBe(1); // R5's close, 02:00 on the 3rd

      const how = await metrics({ ...DAY1, timezone: zone, groupBy: 'hourOfWeek', 'metrics[]': ['conversations', 'replyTime'] });
      expect(how.status).toBe(200);
      expect(how.body.groups).toHaveLength(168);
      for (const g of how.body.groups) {
        const mine = samples.filter((s) => localHourOfWeek(zone, s.ts) === g.key);
        const expected = totalsOf(mine, false);
        expect(g.totals, g.key).toEqual({ conversations: expected.conversations, replyTime: expected.replyTime });
      }
    });
  }

  it('groupBy week: the local Monday', async () => {
    const res = await metrics({ ...DAY1, groupBy: 'week', 'metrics[]': ['conversations'] });
    expect(res.body.groups).toEqual([{ key: '2026-03-02', totals: { conversations: { count: 5 } } }]);
  });

  it('groupBy agent: samples without agent only in the totals', async () => {
    const samples = samplesOf(history, false).filter(inDay1);
    const res = await metrics({ ...DAY1, groupBy: 'agent' });
    expect(res.status).toBe(200);
    const ids = [a.userId, b.userId].sort();
    expect(res.body.groups.map((g: { key: string }) => g.key)).toEqual(ids);
    for (const g of res.body.groups) {
      const who = g.key === a.userId ? a : b;
      expect(g.agent).toEqual({ _id: who.userId, username: who.username, name: expect.anything() });
      expect(g.totals).toEqual(totalsOf(samples.filter((s) => s.agent === g.key), false));
    }
    expect(res.body.totals).toEqual(totalsOf(samples, false));
  });

  it('groupBy department, and filters', async () => {
    const samples = samplesOf(history, false).filter(inDay1);
    const res = await metrics({ ...DAY1, groupBy: 'department' });
    expect(res.status).toBe(200);
    const byId = new Map(res.body.groups.map((g: { key: string }) => [g.key, g]));
    expect([...byId.keys()].sort()).toEqual([d1._id, d2._id].sort());
    for (const d of [d1, d2]) {
      expect(byId.get(d._id)).toEqual({ key: d._id, department: { _id: d._id, name: d.name }, totals: totalsOf(samples.filter((s) => s.dept === d._id), false) });
    }
    const filtered = await metrics({ ...DAY1, 'departmentId[]': [d2._id], 'agentId[]': [b.userId] });
    expect(filtered.body.totals).toEqual(totalsOf(samples.filter((s) => s.dept === d2._id && s.agent === b.userId), false));
  });

  it('a range off quarter-hour boundaries reads the edges exactly', async () => {
    const samples = samplesOf(history, false);
    for (const [start, end] of [
      ['2026-03-02T08:01:00.000Z', '2026-03-02T08:32:34.999Z'],
      ['2026-03-02T08:00:00.001Z', '2026-03-02T19:52:00.000Z'],
      ['2026-03-02T08:10:07.000Z', '2026-03-02T08:10:09.000Z'],
    ] as const) {
      const res = await metrics({ start, end });
      expect(res.status).toBe(200);
      const mine = samples.filter((s) => s.ts >= Date.parse(start) && s.ts < Date.parse(end));
      expect(res.body.totals, `${start} ${end}`).toEqual(totalsOf(mine, false));
    }
  });
});

describe('the rollups', () => {
  it('equal the sums of the raw log, row by row (both written in each change\'s transaction)', async () => {
    const { rollupRowsOf } = await import('../../src/store/sql/reports-repo.js');
    const events = await db(t.store).selectFrom('report_events').selectAll().execute();
    const expected = rollupRowsOf(
      events.map((e) => ({ id: e.id, ts: Number(e.ts), kind: e.kind as never, rid: e.rid, departmentId: e.department_id, agentId: e.agent_id, visitorId: e.visitor_id, value: e.value === null ? null : Number(e.value), valueBh: e.value_bh === null ? null : Number(e.value_bh), weight: Number(e.weight) })),
    );
    const stored = await db(t.store).selectFrom('report_rollups').selectAll().execute();
    const norm = (rows: Array<Record<string, unknown>>) =>
      rows.map((r) => [r.quarter, r.kind, r.department_key, r.agent_key, r.bh, r.bucket, r.count, r.total].map((v) => (typeof v === 'string' ? v : Number(v))).join('|')).sort();
    expect(norm(stored)).toEqual(norm(expected as unknown as Array<Record<string, unknown>>));
    expect(stored.length).toBeGreaterThan(20);
  });
});

describe('the CSV export', () => {
  it('BOM, CRLF, every column, formula guard, RFC 4180 quoting', async () => {
    const res = await t.api.get(`${V}/reports.export`, { query: DAY1, auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="conversations-2026-03-02-2026-03-04.csv"');
    const text = res.text as string;
    expect(text.startsWith('\uFEFFroom_id,created_at,closed_at,status,department_id,department,agent_id,agent,visitor_id,visitor,source,close_reason,closer,tags,comment,messages_in,messages_out,transfers,queue_wait_s,first_response_s,reply_time_mean_s,reply_time_max_s,resolution_s,handle_time_s,queue_wait_bh_s,first_response_bh_s,resolution_bh_s,csat,missed,abandoned\r\n')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    // Header, 5 rooms (R5's comment holds a quoted line break), and the empty tail after the last CRLF.
    expect(lines[0]!.split(',')).toHaveLength(30);
    expect(lines[1]!.startsWith(`${rooms.r1!.rid},2026-03-02T06:00:00.000Z,2026-03-02T08:10:00.000Z,closed,${d1._id},reports-one,${a.userId},`)).toBe(true);
    expect(lines[1]!.endsWith(',3,2,0,7200,7250,3670,7250,7800,600,0,60,600,3,false,false')).toBe(true);
    expect(lines[3]!.endsWith(',1,0,0,,,,,300,,,,300,,true,false')).toBe(true);
    expect(lines[4]!.endsWith(',1,0,0,0,,,,120,120,0,,120,,false,true')).toBe(true);
    // R5: the visitor's name starts a formula, the comment needs quotes and starts with `+`.
    expect(text).toContain(`,"'=HYPERLINK(""x"")",`);
    expect(text).toContain(`,"'+1, ""quoted""\r\nline",`.replace('\r\n', '\n'));
  });

  it('errors come before the first byte, as JSON', async () => {
    const res = await t.api.get(`${V}/reports.export`, { query: { start: 'x', end: DAY1.end }, auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'The "start" query parameter must be a valid date.' });
  });
});

describe('validation and access', () => {
  it('401, 403, and each 400 with its exact text', async () => {
    expect((await t.api.get(`${V}/reports.metrics`, { query: DAY1 })).status).toBe(401);
    const plain = await t.createUser();
    expect((await metrics(DAY1, plain)).status).toBe(403);
    expect((await metrics({ end: DAY1.end })).body).toEqual({ success: false, error: 'The "start" query parameter must be a valid date.' });
    expect((await metrics({ start: DAY1.start, end: 'nope' })).body).toEqual({ success: false, error: 'The "end" query parameter must be a valid date.' });
    expect((await metrics({ start: DAY1.end, end: DAY1.start })).body).toEqual({ success: false, error: 'Invalid date range [error-invalid-date-range]', errorType: 'error-invalid-date-range' });
    expect((await metrics({ start: '2025-01-01T00:00:00Z', end: '2026-03-01T00:00:00Z' })).body.error).toBe('Invalid date range [error-invalid-date-range]');
    expect((await metrics({ ...DAY1, timezone: 'Mars/Olympus' })).body).toEqual({ success: false, error: 'error-invalid-timezone' });
    expect((await metrics({ ...DAY1, groupBy: 'month' })).status).toBe(400);
    expect((await metrics({ ...DAY1, 'metrics[]': ['speed'] })).status).toBe(400);
  });

  it('a monitor sees only its departments; a filter outside them is 403', async () => {
    const monitor = await makeAgent(t, { roles: ['livechat-monitor'], available: false });
    const added = await t.api.put(`${V}/department/${d1._id}`, { department: { name: d1.name, enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'x@example.com' }, agents: [{ agentId: a.userId, username: a.username }, { agentId: monitor.userId, username: monitor.username }] }, { auth: t.admin });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const mine = await metrics(DAY1, monitor);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.totals).toEqual(totalsOf(samplesOf(history, false).filter(inDay1).filter((s) => s.dept === d1._id), false));
    const outside = await metrics({ ...DAY1, 'departmentId[]': [d2._id] }, monitor);
    expect(outside.status).toBe(403);
    expect((await t.api.get(`${V}/reports.export`, { query: { ...DAY1, departmentId: d2._id }, auth: monitor })).status).toBe(403);
    // RC's dashboards need full scope.
    expect((await t.api.get(`${V}/analytics/dashboards/charts/chats`, { query: DAY1, auth: monitor })).status).toBe(403);
  });
});

describe("Rocket.Chat's dashboards", () => {
  const dash = (name: string, query: Record<string, string> = DAY1) => t.api.get(`${V}/analytics/dashboards/${name}`, { query, auth: t.admin });

  it('totalizers and charts, from the log', async () => {
    const samples = samplesOf(history, false).filter(inDay1);
    const mean = (kind: string) => {
      const v = samples.filter((s) => s.kind === kind).map((s) => s.value!);
      return v.reduce((x, y) => x + y, 0) / v.length;
    };
    const hms = (s: number) => {
      const f = Math.floor(s);
      return [Math.floor(f / 3600), Math.floor((f % 3600) / 60), f % 60].map((n) => String(n).padStart(2, '0')).join(':');
    };
    expect((await dash('conversation-totalizers')).body).toEqual({
      totalizers: [
        { title: 'Total_conversations', value: 5 },
        { title: 'Open_conversations', value: 0 },
        { title: 'On_Hold_conversations', value: 0 },
        { title: 'Total_messages', value: samples.filter((s) => s.kind === 'messagesIn' || s.kind === 'messagesOut').length },
        { title: 'Total_visitors', value: 5 },
      ],
      success: true,
    });
    expect((await dash('productivity-totalizers')).body.totalizers).toEqual([
      { title: 'Avg_response_time', value: hms(mean('replyTime')) },
      { title: 'Avg_first_response_time', value: hms(mean('firstResponse')) },
      { title: 'Avg_reaction_time', value: hms(mean('reaction')) },
      { title: 'Avg_of_waiting_time', value: hms(mean('queueWait')) },
    ]);
    expect((await dash('chats-totalizers')).body.totalizers).toEqual([
      { title: 'Total_abandoned_chats', value: 1 },
      { title: 'Avg_of_abandoned_chats', value: '20%' },
      { title: 'Avg_of_chat_duration_time', value: hms(mean('resolution')) },
    ]);
    const productivity = await dash('agents-productivity-totalizers');
    expect(productivity.body.totalizers[0]).toEqual({ title: 'Busiest_time', value: '06:00' });
    expect(productivity.body.totalizers[2]).toEqual({ title: 'Avg_of_service_time', value: hms(mean('handleTime')) });
    expect((await dash('charts/chats')).body).toEqual({ open: 0, closed: 5, queued: 0, onhold: 0, success: true });
    expect((await dash('charts/chats-per-agent')).body).toEqual({ [a.username]: { open: 0, closed: 2, onhold: 0 }, [b.username]: { open: 0, closed: 2, onhold: 0 }, success: true });
    expect((await dash('charts/chats-per-department')).body).toEqual({ 'reports-one': { open: 0, closed: 3 }, 'reports-two': { open: 0, closed: 2 }, success: true });
    const max = (kind: string) => Math.max(...samples.filter((s) => s.kind === kind).map((s) => s.value!));
    expect((await dash('charts/timings')).body).toEqual({
      response: { avg: mean('replyTime'), longest: max('replyTime') },
      reaction: { avg: mean('reaction'), longest: max('reaction') },
      chatDuration: { avg: mean('resolution'), longest: max('resolution') },
      success: true,
    });
    const status = await dash('charts/agents-status');
    expect(Object.keys(status.body).sort()).toEqual(['available', 'away', 'busy', 'offline', 'success']);
    expect((await dash('charts/chats', { start: 'x', end: DAY1.end })).body).toEqual({ success: false, error: 'The "start" query parameter must be a valid date.' });
  });
});

describe('the log moves with its change', () => {
  it('a failed close leaves no event; the snapshot shows the room still waiting', async () => {
    await onlyAvailable(t, []);
    const room = await open('rollback', d1, at('21:00:00'));
    expect(room.servedBy).toBeUndefined();
    let fail = true;
    t.services.activity.add(async (_tx, event) => {
      if (fail && event.kind === 'closed') throw new Error('recorder failed');
    });
    await setClock(at('21:00:30'));
    expect((await t.api.post(`${V}/room.close`, { rid: rooms.rollback!.rid, token: rooms.rollback!.token })).status).toBe(500);
    fail = false;
    const events = await db(t.store).selectFrom('report_events').select('kind').where('rid', '=', rooms.rollback!.rid).execute();
    expect(events.map((e) => e.kind)).toEqual(['conversations']);
    const snapshot = await t.api.get(`${V}/reports.snapshot`, { auth: t.admin });
    expect(snapshot.status).toBe(200);
    expect(snapshot.body).toMatchObject({ open: 1, unassigned: 1, queued: 0, onHold: 0, longestWaitSeconds: 30, success: true });
    void now;
  });

  it('across a DST change: days in America/New_York', async () => {
    const instants = ['2026-03-08T04:30:00.000Z', '2026-03-08T05:30:00.000Z', '2026-03-08T07:30:00.000Z', '2026-03-09T03:30:00.000Z', '2026-03-09T04:30:00.000Z'];
    for (const [i, iso] of instants.entries()) {
      await open(`dst${i}`, d2, Date.parse(iso));
      await visitorCloses(`dst${i}`, Date.parse(iso) + 1000);
    }
    const res = await metrics({ start: '2026-03-07T05:00:00.000Z', end: '2026-03-10T04:00:00.000Z', timezone: 'America/New_York', groupBy: 'day', 'metrics[]': ['conversations'] });
    expect(res.status).toBe(200);
    expect(res.body.groups).toEqual([
      { key: '2026-03-07', totals: { conversations: { count: 1 } } },
      { key: '2026-03-08', totals: { conversations: { count: 3 } } },
      { key: '2026-03-09', totals: { conversations: { count: 1 } } },
    ]);
    const how = await metrics({ start: '2026-03-07T05:00:00.000Z', end: '2026-03-10T04:00:00.000Z', timezone: 'America/New_York', groupBy: 'hourOfWeek', 'metrics[]': ['conversations'] });
    const nonEmpty = how.body.groups.filter((g: { totals: { conversations: { count: number } } }) => g.totals.conversations.count > 0).map((g: { key: string }) => g.key);
    expect(nonEmpty).toEqual(instants.map((i) => localHourOfWeek('America/New_York', Date.parse(i))).sort());
  });

  it("removing a visitor's data keeps their events without the visitor id", async () => {
    await setClock(at('00:00:00', '2026-03-10'));
    const rid = rooms.r4!.rid;
    expect((await t.api.delete(`${V}/visitor/${rooms.r4!.token}`)).status).toBe(200);
    const events = await db(t.store).selectFrom('report_events').select(['kind', 'visitor_id']).where('rid', '=', rid).execute();
    expect(events.length).toBeGreaterThan(3);
    expect(events.every((e) => e.visitor_id === null)).toBe(true);
  });
});
