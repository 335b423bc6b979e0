/** The conversation's live details: who types, a chat that leaves the agent, readable errors on the Agents page. */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../src/App.js';
import { SESSION_KEY } from '../src/auth/session.js';
import type { LiveSink } from '../src/live/live.js';
import { fakeServer } from './fake-server.js';

const ME = { _id: 'U1', username: 'ann', name: 'Ann Agent', roles: ['user', 'livechat-agent', 'livechat-manager'], status: 'online', statusLivechat: 'available', success: true };
const NOW = Date.parse('2026-11-23T10:00:00.000Z');
const ROOM = {
  _id: 'R1',
  t: 'l',
  fname: 'Vera Visitor',
  msgs: 1,
  ts: new Date(NOW - 60_000).toISOString(),
  _updatedAt: new Date(NOW).toISOString(),
  open: true,
  v: { _id: 'V1', username: 'guest-1', status: 'online' },
  servedBy: { _id: 'U1', username: 'ann' },
};
const MESSAGES = [{ _id: 'm1', rid: 'R1', msg: 'Hi, see *this* https://shop.example/x', ts: new Date(NOW - 1000).toISOString(), u: { _id: 'V1', username: 'guest-1', name: 'Vera Visitor' } }];
const PERMISSIONS = [
  { _id: 'view-l-room', roles: ['livechat-manager', 'livechat-agent', 'admin'] },
  { _id: 'manage-livechat-agents', roles: ['livechat-manager', 'admin'] },
];

function renderApp(path: string, routes: Parameters<typeof fakeServer>[0]) {
  localStorage.setItem(SESSION_KEY, JSON.stringify({ userId: 'U1', authToken: 'tok' }));
  const server = fakeServer({
    'GET me': () => ME,
    'GET rooms.get': () => ({ update: [], remove: [], success: true }),
    'GET livechat/inquiries.queuedForUser': () => ({ inquiries: [], count: 0, offset: 0, total: 0, success: true }),
    'GET permissions.listAll': () => ({ update: PERMISSIONS, remove: [], success: true }),
    'GET livechat/config': () => ({ config: { departments: [] }, success: true }),
    'GET livechat/visitors.info': () => ({ visitor: { _id: 'V1', username: 'guest-1', name: 'Vera Visitor' }, success: true }),
    'GET livechat/rooms': () => ({ rooms: [], count: 0, offset: 0, total: 0, success: true }),
    ...routes,
  });
  let sink: LiveSink | null = null;
  const transport = () => (s: LiveSink) => {
    sink = s;
    queueMicrotask(() => s.status('polling'));
    return { watchRoom: () => () => {}, sendTyping: () => {}, close: () => {} };
  };
  const location = memoryLocation({ path, record: true });
  render(<App fetchImpl={server.fetchImpl} hook={location.hook} transport={transport} />);
  return { ...server, sink: () => sink! };
}

beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 700 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 900 });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 60 });
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

describe('conversation', () => {
  it('names the visitor who types by the chat name, not the internal guest username', async () => {
    const { sink } = renderApp('/chats/R1', {
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 1, offset: 0, total: 1, success: true }),
    });
    await screen.findByLabelText('Message to Vera Visitor');
    act(() => sink().typing('R1', 'guest-1', true));
    expect(await screen.findByText('Vera Visitor is typing…')).toBeTruthy();
    expect(screen.queryByText(/guest-1 is typing/)).toBeNull();
    act(() => sink().typing('R1', 'bob', true));
    expect(await screen.findByText('Vera Visitor, bob are typing…')).toBeTruthy();
  });

  it('renders the markdown of messages: bold and a link that opens in a new tab', async () => {
    renderApp('/chats/R1', {
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 1, offset: 0, total: 1, success: true }),
    });
    await screen.findByLabelText('Message to Vera Visitor');
    const link = await screen.findByRole('link', { name: 'https://shop.example/x' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.closest('.msg-text')!.querySelector('strong')!.textContent).toBe('this');
  });

  it('shows images inline (opening the file), other files as download links with size and type (W5.4)', async () => {
    const image = { type: 'file', title: 'shot.png', title_link: '/file-upload/F1/shot.png', title_link_download: true, image_url: '/file-upload/F1/shot.png', image_type: 'image/png', image_size: 10, image_dimensions: { width: 40, height: 30 } };
    const pdf = { type: 'file', title: 'report.pdf', title_link: '/file-upload/F2/report.pdf', title_link_download: true, description: 'Q3', format: 'pdf', size: 1536 };
    const files = [
      { _id: 'm2', rid: 'R1', msg: '', ts: new Date(NOW - 900).toISOString(), u: { _id: 'V1', username: 'guest-1' }, attachments: [image] },
      { _id: 'm3', rid: 'R1', msg: 'the report', ts: new Date(NOW - 800).toISOString(), u: { _id: 'V1', username: 'guest-1' }, attachments: [pdf] },
    ];
    renderApp('/chats/R1', {
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: files, count: 2, offset: 0, total: 2, success: true }),
    });
    const img = await screen.findByRole('img', { name: 'shot.png' });
    expect(img.getAttribute('src')).toBe('/file-upload/F1/shot.png');
    expect(img.closest('a')!.getAttribute('href')).toBe('/file-upload/F1/shot.png');
    const link = await screen.findByRole('link', { name: 'report.pdf' });
    expect(link.getAttribute('href')).toBe('/file-upload/F2/report.pdf?download');
    expect(link.closest('.msg-file')!.textContent).toBe('report.pdf (1.5 KiB, pdf) Q3');
  });

  it('attaches a file with the Attach button: one rooms.upload with the file and the typed text, refusals shown as sent', async () => {
    let answer: { status: number; body: unknown } = { status: 400, body: { success: false, error: 'File type is not accepted. [error-invalid-file-type]', errorType: 'error-invalid-file-type' } };
    const server = renderApp('/chats/R1', {
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 1, offset: 0, total: 1, success: true }),
      'POST rooms.upload/R1': () => answer,
    });
    const composer = await screen.findByLabelText('Message to Vera Visitor');
    fireEvent.change(composer, { target: { value: 'see this' } });
    const input = document.getElementById('attach-R1') as HTMLInputElement;
    const file = new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await screen.findByText('File type is not accepted.')).toBeTruthy();
    const call = server.calls.find((c) => c.path === 'rooms.upload/R1')!;
    const form = call.body as FormData;
    expect(form.get('msg')).toBe('see this');
    expect((form.get('file') as File).name).toBe('x.svg');
    answer = { status: 200, body: { message: {}, success: true } };
    fireEvent.change(input, { target: { files: [new File(['a'], 'a.txt')] } });
    await waitFor(() => expect((composer as HTMLTextAreaElement).value).toBe(''));
    expect(screen.getByRole('button', { name: 'Attach file' })).toBeTruthy();
  });

  it("the visitor panel's current page and pages visited follow visitorData (visitor:<rid>), not a timer", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const page = (title: string, i: number) => ({
      _id: `p${i}`,
      ts: new Date(NOW - 10_000 + i).toISOString(),
      msg: `${title} - https://shop.example/${title.toLowerCase()}`,
      title,
      href: `https://shop.example/${title.toLowerCase()}`,
      change: 'url',
      rid: 'R1',
      navigation: { page: { change: 'url', title, location: { href: `https://shop.example/${title.toLowerCase()}` } } },
    });
    const pages = [page('Pricing', 0)];
    const { calls, sink } = renderApp('/chats/R1', {
      'GET rooms.info': () => ({ room: ROOM, success: true }),
      'GET livechat/R1/messages': () => ({ messages: MESSAGES, count: 1, offset: 0, total: 1, success: true }),
      'GET livechat/visitors.pagesVisited/R1': () => ({ pages: [...pages].reverse(), count: pages.length, offset: 0, total: pages.length, success: true }),
      'GET livechat/visitors.info': () => {
        const last = pages[pages.length - 1]!;
        return { visitor: { _id: 'V1', username: 'guest-1', name: 'Vera Visitor', lastPage: { title: last.title, href: last.href, ts: last.ts } }, success: true };
      },
    });
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Pricing' })).toHaveLength(2));
    const trailReads = () => calls.filter((c) => c.path === 'livechat/visitors.pagesVisited/R1').length;
    const before = trailReads();
    pages.push(page('Checkout', 1));
    // Another room's visitor, or an event of this room that is not about its visitor: the trail is not re-read.
    act(() => {
      sink().invalidate('visitor:R2');
      sink().invalidate('room:R1');
    });
    await act(async () => {
      await Promise.resolve();
    });
    expect(trailReads()).toBe(before);
    act(() => sink().invalidate('visitor:R1'));
    // Both the trail and the current page show it, with no timer having run.
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Checkout' })).toHaveLength(2));
    expect(trailReads()).toBe(before + 1);
  });

  it('a chat transferred away says so once and stops asking the server', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let transferred = false;
    const { calls, sink } = renderApp('/chats/R1', {
      'GET rooms.info': () =>
        transferred
          ? {
              status: 400,
              body: {
                success: false,
                error: 'The required "roomId" or "roomName" param provided does not match any channel [error-room-not-found]',
                errorType: 'error-room-not-found',
              },
            }
          : { room: ROOM, success: true },
      'GET livechat/R1/messages': () =>
        transferred
          ? { status: 403, body: { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' } }
          : { messages: MESSAGES, count: 1, offset: 0, total: 1, success: true },
    });
    await screen.findByLabelText('Message to Vera Visitor');
    transferred = true;
    act(() => sink().invalidate('room:R1'));
    expect(await screen.findByText('This chat is no longer yours: it was transferred to someone else or closed.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    const asked = () => calls.filter((c) => c.path === 'rooms.info' || c.path === 'livechat/R1/messages').length;
    const before = asked();
    // Several polling periods and live invalidations later: not one more request for this chat.
    for (let i = 0; i < 5; i += 1) {
      act(() => {
        vi.advanceTimersByTime(3_000);
        sink().invalidate('room:R1');
        sink().invalidate('*');
      });
    }
    await act(async () => {
      await Promise.resolve();
    });
    expect(asked()).toBe(before);
    expect(screen.getAllByText('This chat is no longer yours: it was transferred to someone else or closed.')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Back to the list' }).getAttribute('href')).toBe('/chats');
  });
});

describe('agents page', () => {
  it('explains an unknown username in a sentence, not [error-invalid-user]', async () => {
    renderApp('/admin/agents', {
      'GET livechat/users/agent': () => ({ users: [], count: 0, offset: 0, total: 0, success: true }),
      'POST livechat/users/agent': () => ({ status: 400, body: { success: false, error: '[error-invalid-user]', errorType: 'error-invalid-user' } }),
    });
    fireEvent.change(await screen.findByLabelText('Add by username'), { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('No user with that username. Create the user first on the Users page.');
    await waitFor(() => expect(document.body.textContent).not.toContain('[error-invalid-user]'));
  });
});
