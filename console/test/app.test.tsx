import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../src/App.js';
import { SESSION_KEY } from '../src/auth/session.js';
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

function renderApp(path: string, routes: Parameters<typeof fakeServer>[0], loggedIn = true) {
  if (loggedIn) localStorage.setItem(SESSION_KEY, JSON.stringify({ userId: 'U1', authToken: 'tok' }));
  const server = fakeServer({ 'GET me': () => ME, 'GET rooms.get': () => ({ update: [], remove: [], success: true }), 'GET livechat/inquiries.queuedForUser': () => ({ inquiries: [], count: 0, offset: 0, total: 0, success: true }), ...routes });
  const location = memoryLocation({ path, record: true });
  const view = render(<App fetchImpl={server.fetchImpl} hook={location.hook} />);
  return { ...server, location, view };
}

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
