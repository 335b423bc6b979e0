/**
 * Bulk seeding for benchmarks: writes rows straight through Kysely in large
 * multi-row inserts inside transactions (no bcrypt per user: every seeded user
 * shares one precomputed password hash).
 */
import { sql, type Kysely } from 'kysely';
import { newId, newSecret } from '../src/lib/ids.js';
import { hashLoginToken, hashPassword } from '../src/services/passwords.js';
import type { Database } from '../src/store/sql/schema.js';

/**
 * After a bulk load into PostgreSQL, what production's background work would have done before anyone measured:
 * `VACUUM ANALYZE` (autovacuum's statistics, and the GIN pending lists merged — a bulk load leaves them long, and
 * every trigram search would scan them), then a `CHECKPOINT`, so the load's dirty pages are written now and not by
 * a checkpoint that falls inside whichever row is being measured (a role that may not checkpoint gets a warning,
 * and the run goes on). SQLite needs nothing.
 */
export async function settleBulkLoad(db: Kysely<Database>, backend: 'sqlite' | 'postgres'): Promise<void> {
  if (backend !== 'postgres') return;
  await sql`VACUUM ANALYZE`.execute(db);
  try {
    await sql`CHECKPOINT`.execute(db);
  } catch (error) {
    // CHECKPOINT needs a superuser or the pg_checkpoint role; without it the run goes on, as before this step.
    console.error(`bench: no CHECKPOINT after the bulk load (${(error as Error).message}); a later one may fall inside a row`);
  }
}

export interface SeedSize {
  users: number;
  channels: number;
  /** Rooms of the one "heavy" user (rooms.get benchmark). */
  heavyUserRooms: number;
  /** Rooms of every other user. */
  roomsPerUser: number;
  agents: number;
  /** Visitors with an open livechat room (GET livechat/room, close, transfer, survey). */
  visitorsWithOpenRooms: number;
  /** Visitors with a closed room (history). */
  visitorsWithClosedRooms: number;
  /** Visitors without a room (new-room creation). */
  freshVisitors: number;
}

export const FULL: SeedSize = {
  users: 10_000,
  channels: 2_000,
  heavyUserRooms: 500,
  roomsPerUser: 5,
  agents: 200,
  visitorsWithOpenRooms: 60_000,
  visitorsWithClosedRooms: 30_000,
  freshVisitors: 50_000,
};

export const QUICK: SeedSize = {
  users: 2_000,
  channels: 500,
  heavyUserRooms: 500,
  roomsPerUser: 3,
  agents: 20,
  visitorsWithOpenRooms: 5_000,
  visitorsWithClosedRooms: 1_000,
  freshVisitors: 8_000,
};

/** How many users `Seeded.writers` holds: one per connection of the benchmark. */
export const WRITERS = 50;

export const BENCH_PASSWORD = 'bench-Password-1';

export interface Seeded {
  heavyUser: { userId: string; authToken: string; username: string };
  /** A plain user for profile writes and `me`. */
  writer: { userId: string; authToken: string; username: string };
  /** More plain users (not `writer`), each logged in: profile writes spread over users, one row each. */
  writers: Array<{ userId: string; authToken: string; username: string }>;
  openVisitorTokens: string[];
  openRoomIds: string[];
  freshVisitorTokens: string[];
  departments: [string, string];
  /** An agent of the first department, logged in: reads the canned responses. */
  agent: { userId: string; authToken: string; username: string };
  /** The directory's terms: `frequent` (users and channels), `rare` (one user's bio), `rareChannel` (one channel's name). */
  words: { frequent: string; rare: string; rareChannel: string; none: string };
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];

async function insertChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Seeds on a migrated, bootstrapped (admin + GENERAL exist) database. */
export async function seedBenchData(db: Kysely<Database>, size: SeedSize): Promise<Seeded> {
  const now = Date.now();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const chunk = 400;

  const users = Array.from({ length: size.users }, (_, i) => {
    const username = `${WORDS[i % WORDS.length]}.user${i}`;
    return {
      id: newId(),
      created_at: now - i,
      updated_at: now - i,
      username,
      username_key: username.toLowerCase(),
      name: `${WORDS[(i * 7) % WORDS.length]} Person ${i}`,
      email: `${username}@bench.example`,
      email_key: `${username}@bench.example`.toLowerCase(),
      email_verified: 1,
      type: 'user',
      status: 'online',
      active: 1,
      bio: i % 1000 === 0 ? 'zebracrossing enthusiast' : null,
      password_hash: passwordHash,
    };
  });
  const agentIds = users.slice(0, size.agents).map((u) => u.id);
  // Every fifth channel is private: the charlie and hotel ones, so that the directory rows' terms (the frequent
  // `alpha`, the rare name of the last channel) find public channels, which every caller may list. Until the
  // seventeenth round the private ones were `i % 5 === 0`, every alpha channel among them: the frequent channel
  // row matched rooms its caller could not see and answered an empty page, without members to read.
  const channels = Array.from({ length: size.channels }, (_, i) => {
    const name = `${WORDS[i % WORDS.length]}-channel-${i}`;
    return { id: newId(), t: i % 5 === 2 ? 'p' : 'c', name, name_key: name, fname: name, ts: now - i, updated_at: now - 1_000_000 + i, users_count: 0 };
  });

  await db.transaction().execute(async (tx) => {
    await insertChunks(users, chunk, (c) => tx.insertInto('users').values(c).execute());
    await insertChunks(users, chunk, (c) =>
      tx.insertInto('user_roles').values(c.map((u) => ({ user_id: u.id, role: 'user' }))).execute(),
    );
    await insertChunks(agentIds, chunk, (c) =>
      tx.insertInto('user_roles').values(c.map((id) => ({ user_id: id, role: 'livechat-agent' }))).execute(),
    );
    // Available and present (as an agent's REST claim leaves her): routing needs both.
    await tx.updateTable('users').set({ status_livechat: 'available', status_connection: 'online' }).where('id', 'in', agentIds.slice(0, 1000)).execute();
    await insertChunks(channels, chunk, (c) => tx.insertInto('rooms').values(c).execute());
  });

  // Memberships: the heavy user in `heavyUserRooms` rooms, everyone else in a few.
  const subs: Array<{ id: string; rid: string; user_id: string; username: string; name: string; fname: string; t: string; ts: number; updated_at: number }> = [];
  const counts = new Map<string, number>();
  const join = (user: (typeof users)[number], room: (typeof channels)[number]) => {
    subs.push({ id: newId(), rid: room.id, user_id: user.id, username: user.username, name: room.name, fname: room.fname, t: room.t, ts: now, updated_at: now });
    counts.set(room.id, (counts.get(room.id) ?? 0) + 1);
  };
  const heavy = users[size.agents]!;
  for (let r = 0; r < Math.min(size.heavyUserRooms, channels.length); r++) join(heavy, channels[r]!);
  users.forEach((user, i) => {
    if (user === heavy) return;
    for (let k = 0; k < size.roomsPerUser; k++) join(user, channels[(i * 31 + k * 17) % channels.length]!);
  });
  const seenPairs = new Set<string>();
  const uniqueSubs = subs.filter((s) => {
    const key = `${s.user_id}|${s.rid}`;
    if (seenPairs.has(key)) return false;
    seenPairs.add(key);
    return true;
  });

  const departments: [string, string] = [newId(), newId()];
  const visitor = (i: number, kind: string) => ({
    id: newId(),
    token: `${kind}-${i}-${newSecret()}`,
    username: `guest-${kind}-${i}`,
    name: `Visitor ${i}`,
    status: 'online',
    ts: now,
    updated_at: now,
  });
  const openVisitors = Array.from({ length: size.visitorsWithOpenRooms }, (_, i) => visitor(i, 'open'));
  const closedVisitors = Array.from({ length: size.visitorsWithClosedRooms }, (_, i) => visitor(i, 'closed'));
  const freshVisitors = Array.from({ length: size.freshVisitors }, (_, i) => visitor(i, 'fresh'));
  const livechatRoom = (v: (typeof openVisitors)[number], i: number, open: boolean) => {
    const agent = users[i % size.agents]!;
    return {
      id: newId(),
      t: 'l',
      fname: v.name,
      ts: now,
      updated_at: now,
      users_count: 2,
      msgs: 0,
      lm: now,
      open: open ? 1 : null,
      visitor_id: v.id,
      visitor_token: v.token,
      visitor_username: v.username,
      visitor_status: 'online',
      served_by_id: agent.id,
      served_by_username: agent.username,
      served_by_ts: now,
      waiting_response: 1,
      department_id: departments[i % 2]!,
      source_type: 'api',
      closed_at: open ? null : now,
      closer: open ? null : 'visitor',
    };
  };
  const openRooms = openVisitors.map((v, i) => livechatRoom(v, i, true));
  const closedRooms = closedVisitors.map((v, i) => livechatRoom(v, i, false));

  await db.transaction().execute(async (tx) => {
    await insertChunks(uniqueSubs, chunk, (c) => tx.insertInto('subscriptions').values(c).execute());
    for (const [rid, n] of counts) await tx.updateTable('rooms').set({ users_count: n }).where('id', '=', rid).execute();
    await tx
      .insertInto('livechat_departments')
      .values(departments.map((id, i) => ({ id, name: `Department ${i}`, enabled: 1, show_on_registration: 1, show_on_offline_form: 1, num_agents: size.agents / 2, updated_at: now })))
      .execute();
    await insertChunks(agentIds, chunk, (c) =>
      tx
        .insertInto('livechat_department_agents')
        .values(c.map((id, i) => ({ department_id: departments[i % 2]!, agent_id: id, username: users.find((u) => u.id === id)!.username })))
        .execute(),
    );
    await insertChunks([...openVisitors, ...closedVisitors, ...freshVisitors], chunk, (c) => tx.insertInto('livechat_visitors').values(c).execute());
    await insertChunks([...openRooms, ...closedRooms], chunk, (c) => tx.insertInto('rooms').values(c).execute());
    // What serving left on each open room, as on a live server: its agent's subscription and its taken inquiry
    // (which a close removes and a transfer queues again and hands on).
    await insertChunks(openRooms, chunk, (c) =>
      tx
        .insertInto('subscriptions')
        .values(c.map((r) => ({ id: newId(), rid: r.id, user_id: r.served_by_id, username: r.served_by_username, name: null, fname: r.fname, t: 'l', roles: null, open: 1, alert: 0, unread: 0, ts: now, updated_at: now })))
        .execute(),
    );
    const visitorsById = new Map(openVisitors.map((v) => [v.id, v]));
    await insertChunks(openRooms, chunk, (c) =>
      tx
        .insertInto('livechat_inquiries')
        .values(
          c.map((r) => {
            const v = visitorsById.get(r.visitor_id)!;
            return { id: newId(), rid: r.id, name: r.fname, status: 'taken', ts: now, updated_at: now, visitor_id: v.id, visitor_username: v.username, visitor_token: v.token, visitor_status: 'online', department_id: r.department_id, taken_by: r.served_by_id };
          }),
        )
        .execute(),
    );
  });

  const token = async (userId: string) => {
    const raw = newSecret();
    await db.insertInto('login_tokens').values({ hashed_token: hashLoginToken(raw), user_id: userId, created_at: Date.now() }).execute();
    return raw;
  };
  // DESK.md D4: 10,000 canned responses (the figure, whatever the size): a fifth global, two fifths of the two
  // departments, two fifths agents' own; `bravo` is in the text of one in ten.
  const cannedCount = 10_000;
  const canned = Array.from({ length: cannedCount }, (_, i) => {
    const kind = i % 5;
    const scope = kind === 0 ? 'global' : kind <= 2 ? 'department' : 'user';
    const departmentId = scope === 'department' ? departments[kind - 1]! : null;
    const userId = scope === 'user' ? users[i % size.agents]!.id : null;
    const shortcut = `cr-${i}`;
    return {
      id: newId(),
      shortcut,
      shortcut_key: shortcut,
      text: `${WORDS[i % WORDS.length]} answer number ${i}: thank you for waiting, we will get back to you shortly.`,
      scope,
      owner_key: scope === 'global' ? 'global' : scope === 'department' ? `department:${departmentId}` : `user:${userId}`,
      user_id: userId,
      department_id: departmentId,
      tags: JSON.stringify([WORDS[(i * 3) % WORDS.length]]),
      created_by_id: users[0]!.id,
      created_by_username: users[0]!.username,
      created_at: now,
      updated_at: now,
    };
  });
  await insertChunks(canned, chunk, (c) => db.insertInto('canned_responses').values(c).execute());

  const writer = users[size.agents + 1]!;
  const writers = [];
  for (const user of users.slice(size.agents + 2, size.agents + 2 + WRITERS)) writers.push({ userId: user.id, authToken: await token(user.id), username: user.username });
  return {
    heavyUser: { userId: heavy.id, authToken: await token(heavy.id), username: heavy.username },
    writer: { userId: writer.id, authToken: await token(writer.id), username: writer.username },
    writers,
    openVisitorTokens: openVisitors.map((v) => v.token),
    openRoomIds: openRooms.map((r) => r.id),
    freshVisitorTokens: freshVisitors.map((v) => v.token),
    departments,
    agent: { userId: users[0]!.id, authToken: await token(users[0]!.id), username: users[0]!.username },
    words: { frequent: 'alpha', rare: 'zebracrossing', rareChannel: `channel-${size.channels - 1}`, none: 'qqqqnomatch' },
  };
}
