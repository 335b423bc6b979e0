/**
 * DESK.md D8's conversation export: one CSV row per livechat room created in the range, oldest first, read a page
 * of rooms at a time with their report events (so memory does not grow with the rows), as text chunks.
 */
import { iso, type Millis } from '../../lib/time.js';
import type { ExportRoomRow, ReportEvent, Store } from '../../store/store.js';
import { BOM, csvLine } from './csv.js';

export const EXPORT_COLUMNS = [
  'room_id',
  'created_at',
  'closed_at',
  'status',
  'department_id',
  'department',
  'agent_id',
  'agent',
  'visitor_id',
  'visitor',
  'source',
  'close_reason',
  'closer',
  'tags',
  'comment',
  'messages_in',
  'messages_out',
  'transfers',
  'queue_wait_s',
  'first_response_s',
  'reply_time_mean_s',
  'reply_time_max_s',
  'resolution_s',
  'handle_time_s',
  'queue_wait_bh_s',
  'first_response_bh_s',
  'resolution_bh_s',
  'csat',
  'missed',
  'abandoned',
] as const;

const PAGE = 500;

/** The CSV cells of one room from the room as it is and its events. */
export function exportRow(room: ExportRoomRow, events: readonly ReportEvent[]): Array<string | number | null> {
  const count = (kind: string) => events.filter((e) => e.kind === kind).reduce((n, e) => n + e.weight, 0);
  const first = (kind: string) => events.find((e) => e.kind === kind) ?? null;
  const replies = events.filter((e) => e.kind === 'replyTime').map((e) => e.value ?? 0);
  const rated = new Map<number, number>();
  for (const e of events) if (e.kind === 'csat' && e.value !== null) rated.set(e.value, (rated.get(e.value) ?? 0) + e.weight);
  const csat = [...rated.entries()].find(([, n]) => n > 0)?.[0] ?? null;
  const status = !room.open ? 'closed' : room.agentId === null ? 'queued' : 'open';
  const closed = !room.open;
  return [
    room.id,
    iso(room.ts),
    room.closedAt === null ? null : iso(room.closedAt),
    status,
    room.departmentId,
    room.departmentName,
    room.agentId,
    room.agentId === null ? null : room.agentName || room.agentUsername,
    room.visitorId,
    room.visitorName || room.visitorUsername,
    room.sourceType,
    room.closeReason,
    room.closer,
    room.tags.join('; '),
    room.comment,
    count('messagesIn'),
    count('messagesOut'),
    count('transfers'),
    first('queueWait')?.value ?? null,
    first('firstResponse')?.value ?? null,
    replies.length === 0 ? null : replies.reduce((a, b) => a + b, 0) / replies.length,
    replies.length === 0 ? null : Math.max(...replies),
    first('resolution')?.value ?? null,
    first('handleTime')?.value ?? null,
    first('queueWait')?.valueBh ?? null,
    first('firstResponse')?.valueBh ?? null,
    first('resolution')?.valueBh ?? null,
    csat,
    closed ? (count('missed') > 0 ? 'true' : 'false') : null,
    closed ? (count('abandoned') > 0 ? 'true' : 'false') : null,
  ];
}

export async function* exportRows(
  store: Store,
  range: { from: Millis; to: Millis; departmentKeys: readonly string[] | null; agentIds: readonly string[] | null },
): AsyncGenerator<string> {
  yield BOM + csvLine(EXPORT_COLUMNS);
  let after: { ts: Millis; id: string } | null = null;
  for (;;) {
    const rooms = await store.reports.exportPage(range, after, PAGE);
    if (rooms.length === 0) return;
    const events = await store.reports.eventsOfRooms(rooms.map((r) => r.id));
    const byRoom = new Map<string, ReportEvent[]>();
    for (const e of events) {
      const list = byRoom.get(e.rid);
      if (list) list.push(e);
      else byRoom.set(e.rid, [e]);
    }
    let chunk = '';
    for (const room of rooms) chunk += csvLine(exportRow(room, byRoom.get(room.id) ?? []));
    yield chunk;
    if (rooms.length < PAGE) return;
    const last = rooms[rooms.length - 1]!;
    after = { ts: last.ts, id: last.id };
  }
}
