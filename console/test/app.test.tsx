import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../src/App.js';
import { SESSION_KEY } from '../src/auth/session.js';
import { LIVECHAT_SETTINGS } from '../src/pages/Settings.js';
import { fakeServer } from './fake-server.js';

const ME = { _id: 'U1', username: 'ann', name: 'Ann Agent', roles: ['user', 'livechat-agent'], status: 'online', statusLivechat: 'available', success: true };
const NOW = Date.parse('2026-11-23T10:00:00.000Z');
const ROOM = {
  _id: 'R1',
  t: 'l',
  fname: 'Vera Visitor',
  msgs: 2,
  ts: new Date(NOW - 60_000).toISOString(),
  _updatedAt: new Date(NOW).toISOString(),
  open: true,
  v: { _id: 'V1', username: 'guest-1', status: 'online' },
  servedBy: { _id: 'U1', username: 'ann' },
  source: { type: 'widget' },
  surveyFeedback: { satisfaction: '5', additionalFeedback: 'Great' },
  lastMessage: { _id: 'm2', msg: 'hi', ts: new Date(NOW).toISOString(), u: { _id: 'V1', username: 'guest-1' } },
};
const MESSAGES = [
  { _id: 'm2', rid: 'R1', msg: '<img src=x onerror="window.__pwned=1"><b>bold?</b>', ts: new Date(NOW - 1000).toISOString(), u: { _id: 'V1', username: 'guest-1', name: 'Vera Visitor' } },
  { _id: 'm1', rid: 'R1', msg: '', t: 'livechat-started', ts: new Date(NOW - 60_000).toISOString(), u: { _id: 'V1', username: 'guest-1' } },
];

/** Rocket.Chat's default role lists (contract §4) of the permissions the console asks about. */
const MANAGERS = ['livechat-manager', 'admin'];
const PERMISSIONS = [
  { _id: 'view-l-room', roles: ['livechat-manager', 'livechat-agent', 'admin'] },
  ...['transfer-livechat-guest', 'view-livechat-rooms', 'view-livechat-departments', 'view-livechat-manager', 'close-others-livechat-room'].map((_id) => ({ _id, roles: MANAGERS })),
];

function renderApp(path: string, routes: Parameters<typeof fakeServer>[0], loggedIn = true) {
  if (loggedIn) localStorage.setItem(SESSION_KEY, JSON.stringify({ userId: 'U1', authToken: 'tok' }));
  const server = fakeServer({
    'GET me': () => ME,
    'GET rooms.get': () => ({ update: [], remove: [], success: true }),
    'GET livechat/inquiries.queuedForUser': () => ({ inquiries: [], count: 0, offset: 0, total: 0, success: true }),
    'GET permissions.listAll': () => ({ update: PERMISSIONS, remove: [], success: true }),
    'GET livechat/config': () => ({ config: { departments: [{ _id: 'D1', name: 'Sales' }] }, success: true }),
    'GET livechat/rooms': () => ({ rooms: [], count: 0, offset: 0, total: 0, success: true }),
    ...routes,
  });
  const location = memoryLocation({ path, record: true });
  const view = render(<App fetchImpl={server.fetchImpl} hook={location.hook} />);
  return { ...server, location, view };
}

// jsdom has no layout: every element gets a 900×700 box, so the virtualized lists render the rows "in view".
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 700 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 900 });
  // A list row measures 60 px (what the virtualizer reads from a rendered row).
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 60 });
  // Scroll positions are kept (jsdom keeps none), and scrolling tells the listeners.
  const offsets = new WeakMap<Element, number>();
  Object.defineProperty(HTMLElement.prototype, 'scrollTop', {
    configurable: true,
    get(this: HTMLElement) {
      return offsets.get(this) ?? 0;
    },
    set(this: HTMLElement, value: number) {
      offsets.set(this, value);
    },
  });
  HTMLElement.prototype.scrollTo = function (this: HTMLElement, options?: ScrollToOptions | number) {
    this.scrollTop = typeof options === 'number' ? options : (options?.top ?? this.scrollTop);
    this.dispatchEvent(new Event('scroll'));
  } as HTMLElement['scrollTo'];
});
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('login', () => {
  it('asks for the second-factor code when the server answers totp-required, then signs in and keeps the token', async () => {
    let attempts = 0;
    const { calls, location } = renderApp(
      '/queue',
      {
        'POST login': (call) => {
          attempts += 1;
          const body = call.body as { code?: string };
          if (!body.code) return { status: 401, body: { success: false, error: 'totp-required', errorType: 'totp-required', details: { method: 'totp' } } };
          return { status: 200, body: { status: 'success', data: { userId: 'U1', authToken: 'tok', me: ME }, success: true } };
        },
      },
      false,
    );
    await screen.findByRole('heading', { name: 'Parley console' });
    expect(location.history).toContain('/login');
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'ann' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const code = await screen.findByLabelText('Verification code');
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    await screen.findByRole('heading', { name: 'Queue' });
    expect(attempts).toBe(2);
    expect(calls.find((c) => c.path === 'login' && (c.body as { code?: string }).code === '123456')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(SESSION_KEY)!)).toEqual({ userId: 'U1', authToken: 'tok' });
  });

  it('drops a stored session the server no longer accepts', async () => {
    renderApp('/chats', { 'GET me': () => ({ status: 401, body: { success: false, status: 'error', error: 'You must be logged in to do this.' } }) });
    await screen.findByLabelText('Username or email');
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('logs out: the server is told and the token is forgotten', async () => {
    const { calls } = renderApp('/queue', { 'POST logout': () => ({ status: 'success', data: { message: "You've been logged out!" }, success: true }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    await screen.findByLabelText('Username or email');
    expect(calls.some((c) => c.method === 'POST' && c.path === 'logout' && c.headers['x-auth-token'] === 'tok')).toBe(true);
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });
});

describe('availability', () => {
  it('is a switch in the top bar that calls livechat/agent.status', async () => {
    let status = 'available';
    const { calls } = renderApp('/queue', {
      'GET me': () => ({ ...ME, statusLivechat: status }),
      'POST livechat/agent.status': (call) => {
        status = (call.body as { status: string }).status;
        return { status, success: true };
      },
    });
    const toggle = await screen.findByRole('switch', { name: /Available/ });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByRole('switch').getAttribute('aria-checked')).toBe('false'));
    expect(calls.find((c) => c.path === 'livechat/agent.status')!.body).toEqual({ status: 'not-available' });
  });
});

describe('settings', () => {
  it('shows the form only once every setting has been read, then saves an edit through settings/:_id', async () => {
    const values: Record<string, unknown> = Object.fromEntries(
      LIVECHAT_SETTINGS.map((s) => [s.id, s.kind === 'boolean' ? true : s.kind === 'integer' ? 0 : typeof s.kind === 'object' ? s.kind.options[0]![0] : s.kind === 'color' ? '#112233' : 'Text']),
    );
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const routes: Parameters<typeof fakeServer>[0] = Object.fromEntries(
      LIVECHAT_SETTINGS.map((s) => [
        `GET settings/${s.id}`,
        async () => {
          // The last setting answers late: the form must not appear, and then grow under the pointer, before it.
          if (s.id === LIVECHAT_SETTINGS.at(-1)!.id) await held;
          return { _id: s.id, value: values[s.id], success: true };
        },
      ]),
    );
    const { calls } = renderApp('/admin/settings', {
      'GET me': () => ({ ...ME, roles: ['user', 'admin'] }),
      ...routes,
      'POST settings/Livechat_Routing_Method': (call) => {
        values.Livechat_Routing_Method = (call.body as { value: unknown }).value;
        return { success: true };
      },
    });
    await screen.findByRole('heading', { name: 'Live chat settings' });
    await waitFor(() => expect(calls.filter((c) => c.path.startsWith('settings/'))).toHaveLength(LIVECHAT_SETTINGS.length));
    expect(screen.getByText('Loading…').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByLabelText('Routing')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();

    release();
    const routing = (await screen.findByLabelText('Routing')) as HTMLSelectElement;
    expect(screen.getByLabelText(LIVECHAT_SETTINGS.at(-1)!.label)).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
    const save = screen.getByRole('button', { name: 'Save changes' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(routing, { target: { value: 'Manual_Selection' } });
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    await screen.findByText('Saved 1 setting; they are in force now.');
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([['settings/Livechat_Routing_Method', { value: 'Manual_Selection' }]]);
    // Read again after the save, the form stays on screen (no second "Loading…") and shows the stored value.
    expect(screen.queryByText('Loading…')).toBeNull();
    expect((screen.getByLabelText('Routing') as HTMLSelectElement).value).toBe('Manual_Selection');
  });
});

describe('queue', () => {
  it('lists waiting chats oldest first with a ticking wait, and takes one', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    const inquiries = [
      { _id: 'I2', rid: 'R2', name: 'Second', message: 'later', status: 'queued', ts: new Date(NOW - 10_000).toISOString(), v: { _id: 'V2', username: 'guest-2' } },
      { _id: 'I1', rid: 'R1', name: 'First', message: 'earlier', status: 'queued', ts: new Date(NOW - 70_000).toISOString(), v: { _id: 'V1', username: 'guest-1' } },
    ];
    const { calls, location } = renderApp('/queue', {
      'GET livechat/inquiries.queuedForUser': () => ({ inquiries, count: 2, offset: 0, total: 2, success: true }),
      'POST livechat/inquiries.take': () => ({ success: true }),
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 2, offset: 0, total: 2, success: true }),
    });
    const list = await screen.findByRole('list', { name: 'Waiting chats' });
    await waitFor(() => expect(list.querySelectorAll('li')).toHaveLength(2));
    const titles = [...list.querySelectorAll('.list-title')].map((e) => e.textContent);
    expect(titles).toEqual(['First', 'Second']);
    expect(list.querySelector('.waiting')!.textContent).toBe('1m 10s');
    act(() => {
      vi.advanceTimersByTime(5_000);
    });
    expect(list.querySelector('.waiting')!.textContent).toBe('1m 15s');
    fireEvent.click(screen.getByRole('button', { name: 'Take chat with First' }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/chats/R1'));
    expect(calls.find((c) => c.path === 'livechat/inquiries.take')!.body).toEqual({ inquiryId: 'I1' });
  });
});

describe('conversation', () => {
  it('shows messages as text, system lines, the visitor panel and the survey', async () => {
    renderApp('/chats/R1', {
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 2, offset: 0, total: 2, success: true }),
      'GET livechat/visitors.info': () => ({ visitor: { _id: 'V1', username: 'guest-1', name: 'Vera Visitor', visitorEmails: [{ address: 'vera@example.com' }], lastPage: { title: 'Pricing', href: 'https://shop.example/pricing' } }, success: true }),
    });
    const text = await screen.findByText('<img src=x onerror="window.__pwned=1"><b>bold?</b>');
    expect(text.querySelector('img, b')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    expect(screen.getByText('Chat started')).toBeTruthy();
    expect(await screen.findByText('vera@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Pricing' }).getAttribute('href')).toBe('https://shop.example/pricing');
    expect(screen.getByText('Website widget')).toBeTruthy();
    expect(screen.getByText('5 / 5')).toBeTruthy();
    expect(screen.getByText('Great')).toBeTruthy();
  });

  it('sends on Enter, not on Shift+Enter', async () => {
    const { calls } = renderApp('/chats/R1', {
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 2, offset: 0, total: 2, success: true }),
      'POST chat.sendMessage': (call) => ({ message: { _id: 'm3', rid: 'R1', msg: (call.body as { message: { msg: string } }).message.msg }, success: true }),
    });
    const box = (await screen.findByLabelText('Message to Vera Visitor')) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'line one' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(calls.some((c) => c.path === 'chat.sendMessage')).toBe(false);
    fireEvent.change(box, { target: { value: 'line one\nline two' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(box.value).toBe(''));
    expect(calls.find((c) => c.path === 'chat.sendMessage')!.body).toEqual({ message: { rid: 'R1', msg: 'line one\nline two' } });
  });

  it('closes with a comment through livechat/room.closeByUser', async () => {
    const { calls } = renderApp('/chats/R1', {
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 2, offset: 0, total: 2, success: true }),
      'POST livechat/room.closeByUser': () => ({ success: true }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    fireEvent.change(screen.getByLabelText('Closing comment (optional)'), { target: { value: 'Solved' } });
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'livechat/room.closeByUser')?.body).toEqual({ rid: 'R1', comment: 'Solved' }));
  });
});

/** A fake `livechat/inquiries.queuedForUser` over `all` (oldest first), paged newest first as the server does. */
function pagedQueue(all: unknown[]) {
  return (call: { query: URLSearchParams }) => {
    const offset = Number(call.query.get('offset') ?? 0);
    const count = Math.min(100, Number(call.query.get('count') ?? 50));
    const page = [...all].reverse().slice(offset, offset + count);
    return { inquiries: page, count: page.length, offset, total: all.length, success: true };
  };
}

describe('long lists are virtualized', () => {
  it('the queue holds all 500 waiting chats but renders only the rows in view', async () => {
    const inquiries = Array.from({ length: 500 }, (_, i) => ({
      _id: `I${i}`,
      rid: `R${i}`,
      name: `Visitor ${i}`,
      message: 'hello',
      status: 'queued',
      ts: new Date(NOW - (500 - i) * 1000).toISOString(),
      v: { _id: `V${i}`, username: `guest-${i}` },
    }));
    const { calls } = renderApp('/queue', { 'GET livechat/inquiries.queuedForUser': pagedQueue(inquiries) });
    await screen.findByText('Visitor 0');
    expect(screen.getByText(/500 waiting/)).toBeTruthy();
    const rows = screen.getByRole('list', { name: 'Waiting chats' }).querySelectorAll('li');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]!.getAttribute('aria-setsize')).toBe('500');
    // Five pages of 100, read once.
    expect(calls.filter((c) => c.path === 'livechat/inquiries.queuedForUser').map((c) => c.query.get('offset'))).toEqual(['0', '100', '200', '300', '400']);
  });

  it('a 5,000-message conversation opens at the newest message with a bounded number of rows', async () => {
    const all = Array.from({ length: 5000 }, (_, i) => ({ _id: `m${i}`, rid: 'R1', msg: `message ${i}`, ts: new Date(NOW - (5000 - i) * 1000).toISOString(), u: { _id: 'V1', username: 'guest-1' } }));
    const { calls } = renderApp('/chats/R1', {
      'GET rooms.info': () => ({ room: { ...ROOM, msgs: 5000 }, success: true }),
      'GET livechat/R1/messages': (call) => {
        const offset = Number(call.query.get('offset'));
        const count = Number(call.query.get('count'));
        const page = [...all].reverse().slice(offset, offset + count);
        return { messages: page, count: page.length, offset, total: all.length, success: true };
      },
    });
    await waitFor(() => expect(document.querySelectorAll('.message-list li').length).toBeGreaterThan(5));
    // jsdom has no layout, so where the list opens is the browser test's to check; here: few rows, few reads.
    expect(document.querySelectorAll('.message-list li').length).toBeLessThan(60);
    expect(document.querySelector('.message-list li')!.getAttribute('aria-setsize')).toBe('5000');
    const reads = calls.filter((c) => c.path === 'livechat/R1/messages').map((c) => [c.query.get('offset'), c.query.get('count')]);
    expect(reads[0]).toEqual(['0', '100']);
    expect(reads.length).toBeLessThan(5);
  });
});

describe('transfer and an agent\'s lists', () => {
  const plainAgent = { ...ME, roles: ['user', 'livechat-agent'] };
  const manager = { ...ME, roles: ['user', 'livechat-agent', 'livechat-manager'] };

  it('a plain agent is not offered Transfer and is told why; its closed chats and earlier chats are its own', async () => {
    const { calls } = renderApp('/chats/R1', {
      'GET me': () => plainAgent,
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 2, offset: 0, total: 2, success: true }),
    });
    await screen.findByText(/No Transfer here: moving chats needs the transfer-livechat-guest permission/);
    expect(screen.queryByRole('button', { name: 'Transfer' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.path === 'livechat/rooms')).toBe(true));
    const earlier = calls.find((c) => c.path === 'livechat/rooms')!;
    expect(earlier.query.get('visitorId')).toBe('V1');
    expect(earlier.query.getAll('agents[]')).toEqual(['U1']);
    // No department list for a plain agent: the names come from the widget's public config.
    expect(calls.some((c) => c.path === 'livechat/department')).toBe(false);
  });

  it('the closed chats of a plain agent are asked for with agents[] = itself; a manager\'s with no such filter', async () => {
    const first = renderApp('/closed', { 'GET me': () => plainAgent });
    await screen.findByText('The chats you served. Managers see everyone’s.');
    await waitFor(() => expect(first.calls.some((c) => c.path === 'livechat/rooms')).toBe(true));
    expect(first.calls.filter((c) => c.path === 'livechat/rooms').map((c) => c.query.getAll('agents[]'))).toEqual([['U1']]);
    expect(screen.queryByLabelText('Agent')).toBeNull();
    cleanup();
    const second = renderApp('/closed', {
      'GET me': () => manager,
      'GET livechat/department': () => ({ departments: [], count: 0, offset: 0, total: 0, success: true }),
      'GET livechat/users/agent': () => ({ users: [], count: 0, offset: 0, total: 0, success: true }),
    });
    await waitFor(() => expect(second.calls.some((c) => c.path === 'livechat/rooms')).toBe(true));
    expect(second.calls.filter((c) => c.path === 'livechat/rooms').map((c) => c.query.getAll('agents[]'))).toEqual([[]]);
  });

  it('searches closed chats by name, e-mail or message text (text=), and by name alone below three characters', async () => {
    const { calls } = renderApp('/closed', { 'GET me': () => plainAgent });
    const box = await screen.findByLabelText('Visitor, e-mail or message text');
    const searched = async (value: string) => {
      const before = calls.length;
      fireEvent.change(box, { target: { value } });
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
      await waitFor(() => expect(calls.slice(before).some((c) => c.path === 'livechat/rooms')).toBe(true));
      const query = calls.slice(before).filter((c) => c.path === 'livechat/rooms').at(-1)!.query;
      return { text: query.get('text'), roomName: query.get('roomName') };
    };
    expect(await searched('  refund 4711 ')).toEqual({ text: 'refund 4711', roomName: null });
    expect(await searched('Vé')).toEqual({ text: null, roomName: 'Vé' });
  });

  /** A manager on chat R1, with department D2 to transfer to. */
  const transferChat = {
    'GET me': () => manager,
    'GET rooms.info': () => ({ room: ROOM, success: true }),
    'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 2, offset: 0, total: 2, success: true }),
    'GET livechat/department': () => ({ departments: [{ _id: 'D2', name: 'Support', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: '' }], count: 1, offset: 0, total: 1, success: true }),
  };

  it('a manager transfers to a department with a note through livechat/room.forward', async () => {
    const { calls } = renderApp('/chats/R1', {
      ...transferChat,
      'GET livechat/users/agent': () => ({ users: [{ _id: 'U2', username: 'bob', statusLivechat: 'not-available' }], count: 1, offset: 0, total: 1, success: true }),
      'POST livechat/room.forward': () => ({ success: true }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Transfer' }));
    const select = screen.getByLabelText('Transfer to') as HTMLSelectElement;
    await waitFor(() => expect(select.querySelector('option[value="dep:D2"]') && select.querySelector('option[value="agent:U2"]')).toBeTruthy());
    expect(document.activeElement).toBe(select);
    expect((select.querySelector('option[value="agent:U2"]') as HTMLOptionElement).disabled).toBe(true);
    fireEvent.change(select, { target: { value: 'dep:D2' } });
    fireEvent.change(screen.getByLabelText('Note for the next agent (optional)'), { target: { value: 'Refund' } });
    fireEvent.click(within(screen.getByRole('form', { name: 'Transfer chat' })).getByRole('button', { name: 'Transfer' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'livechat/room.forward')?.body).toEqual({ roomId: 'R1', departmentId: 'D2', comment: 'Refund' }));
  });

  it('a manager transfers to an agent within a chosen department (departmentId and userId)', async () => {
    const { calls } = renderApp('/chats/R1', {
      ...transferChat,
      'GET livechat/department/D2': () => ({ department: { _id: 'D2', name: 'Support' }, agents: [{ agentId: 'U2', username: 'bob' }, { agentId: 'U3', username: 'cleo' }], success: true }),
      'GET livechat/users/agent': () => ({
        users: [
          { _id: 'U2', username: 'bob', name: 'Bob', statusLivechat: 'available' },
          { _id: 'U3', username: 'cleo', statusLivechat: 'not-available' },
        ],
        count: 2,
        offset: 0,
        total: 2,
        success: true,
      }),
      'POST livechat/room.forward': () => ({ success: true }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Transfer' }));
    const select = screen.getByLabelText('Transfer to') as HTMLSelectElement;
    await waitFor(() => expect(select.querySelector('option[value="dep:D2"]')).toBeTruthy());
    // No agent list before a department is chosen.
    expect(screen.queryByLabelText('Agent in Support (optional)')).toBeNull();
    fireEvent.change(select, { target: { value: 'dep:D2' } });
    const inDepartment = (await screen.findByLabelText('Agent in Support (optional)')) as HTMLSelectElement;
    await waitFor(() => expect(inDepartment.querySelector('option[value="U2"]')).toBeTruthy());
    expect([...inDepartment.options].map((o) => [o.value, o.textContent, o.disabled])).toEqual([
      ['', "Anyone: the department's routing decides", false],
      ['U2', 'Bob', false],
      ['U3', 'cleo (not available)', true],
    ]);
    fireEvent.change(inDepartment, { target: { value: 'U2' } });
    fireEvent.click(within(screen.getByRole('form', { name: 'Transfer chat' })).getByRole('button', { name: 'Transfer' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'livechat/room.forward')?.body).toEqual({ roomId: 'R1', departmentId: 'D2', userId: 'U2' }));
  });
});
