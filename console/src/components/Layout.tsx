import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { pollInterval } from '../live/live.js';
import { useMyRooms, usePermissions, useQueue } from '../api/data.js';
import { isAgent, isManager, useConsole } from '../context.js';
import { titleWithUnread } from '../lib/format.js';
import { useSeen } from '../lib/hooks.js';
import { createArrivalTracker, notificationsSupported, notify } from '../lib/notify.js';
import { unreadOf } from '../lib/unread.js';
import { AvailabilityToggle } from './AvailabilityToggle.js';

const BASE_TITLE = 'Parley console';

function NavLink({ href, children, badge }: { href: string; children: ReactNode; badge?: number }) {
  const [location] = useLocation();
  const active = location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} className={active ? 'nav-link active' : 'nav-link'} aria-current={active ? 'page' : undefined}>
      {children}
      {badge ? (
        <span className="badge" aria-label={`${badge} new`}>
          {badge}
        </span>
      ) : null}
    </Link>
  );
}

const MANAGE_LINKS: Array<[string, string]> = [
  ['/admin/agents', 'Agents'],
  ['/admin/managers', 'Managers'],
  ['/admin/departments', 'Departments'],
  ['/admin/settings', 'Settings'],
  ['/admin/embed', 'Embed widget'],
  ['/admin/widget-rules', 'Triggers and fields'],
  ['/admin/business-hours', 'Business hours'],
  ['/setup', 'Get started'],
];

/**
 * The managers' pages. Wide: a labelled group under the agent's sections. Narrow
 * (phones): one "Manage" button that opens the group as a list (a disclosure),
 * naming the current page when it is one of them, so nothing is cut off or hidden.
 */
function ManageMenu() {
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const can = usePermissions();
  const links: Array<[string, string]> = [
    ...MANAGE_LINKS.slice(0, 2),
    ...(can('create-user') || can('edit-other-user-info') ? [['/admin/users', 'Users'] as [string, string]] : []),
    ...MANAGE_LINKS.slice(2, 4),
    ...(can('access-permissions') ? [['/admin/permissions', 'Permissions'] as [string, string]] : []),
    ...(can('manage-email-outbox') ? [['/admin/mail', 'E-mail'] as [string, string]] : []),
    ...(can('view-livechat-webhooks') ? [['/admin/webhooks', 'Webhooks'] as [string, string]] : []),
    ...(can('manage-livechat-tags') ? [['/admin/tags', 'Tags'] as [string, string]] : []),
    ...MANAGE_LINKS.slice(4),
  ];
  const current = links.find(([href]) => location === href || location.startsWith(`${href}/`));
  useEffect(() => setOpen(false), [location]);
  return (
    <div className="nav-group">
      <span className="nav-heading" id="nav-manage-heading">
        Manage
      </span>
      <button type="button" className="nav-toggle" aria-expanded={open} aria-controls="nav-manage" onClick={() => setOpen(!open)}>
        Manage{current ? `: ${current[1]}` : ''} <span aria-hidden="true">{open ? '▴' : '▾'}</span>
      </button>
      <ul id="nav-manage" className={open ? 'nav-list nav-manage open' : 'nav-list nav-manage'} aria-labelledby="nav-manage-heading">
        {links.map(([href, label]) => (
          <li key={href}>
            <NavLink href={href}>{label}</NavLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** W2.4: while mails are `failed` or `unsent-no-smtp`, holders of `manage-email-outbox` see how many, linking to the E-mail page. */
function UnsentMailBanner() {
  const { api, liveStatus } = useConsole();
  const can = usePermissions();
  const allowed = can.ready && can('manage-email-outbox');
  const unsent = useQuery({
    queryKey: ['mail', 'unsent'],
    enabled: allowed,
    refetchInterval: pollInterval(liveStatus),
    queryFn: async () => {
      const total = async (status: string) => (await api<{ total: number }>('email-outbox', { query: { status, count: 1 } })).total;
      return (await total('failed')) + (await total('unsent-no-smtp'));
    },
  });
  if (!allowed || !unsent.data) return null;
  return (
    <div className="banner" role="status">
      {unsent.data} e-mail{unsent.data === 1 ? '' : 's'} not sent. <Link href="/admin/mail">Open the outbox</Link>
    </div>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const { me, signOut, liveStatus } = useConsole();
  const [, navigate] = useLocation();
  const agent = isAgent(me);
  const manager = isManager(me);
  const queue = useQueue(agent || manager);
  const rooms = useMyRooms();
  const seen = useSeen();
  const can = usePermissions();

  const queueCount = queue.data?.inquiries.length ?? 0;
  const myOpen = (rooms.data ?? []).filter((r) => r.t === 'l' && r.open === true);
  const unread = myOpen.reduce((sum, r) => sum + unreadOf(r, seen), 0);

  useEffect(() => {
    document.title = titleWithUnread(BASE_TITLE, unread + queueCount);
  }, [unread, queueCount]);

  // Alerts: a chat entering the queue, or a new message in a chat I serve.
  const queueTracker = useRef(createArrivalTracker());
  useEffect(() => {
    if (!queue.data) return;
    for (const id of queueTracker.current(queue.data.inquiries.map((i) => i._id))) {
      const inquiry = queue.data.inquiries.find((i) => i._id === id);
      notify('New chat waiting', inquiry ? `${inquiry.name}${inquiry.message ? `: ${inquiry.message}` : ''}` : 'A visitor is waiting', () => navigate('/queue'));
    }
  }, [queue.data, navigate]);
  const lastCounts = useRef<Map<string, number> | null>(null);
  useEffect(() => {
    if (!rooms.data) return;
    const next = new Map(myOpen.map((r) => [r._id, r.msgs ?? 0]));
    const previous = lastCounts.current;
    lastCounts.current = next;
    if (!previous) return;
    for (const room of myOpen) {
      const before = previous.get(room._id);
      const fromVisitor = room.lastMessage?.u?._id !== me?._id;
      if ((before === undefined || (room.msgs ?? 0) > before) && fromVisitor && unreadOf(room, seen) > 0) {
        notify(`New message from ${room.fname ?? room.v?.username ?? 'a visitor'}`, room.lastMessage?.msg ?? '', () => navigate(`/chats/${room._id}`));
      }
    }
  }, [rooms.data]);

  const [permission, setPermission] = useState(() => (notificationsSupported() ? Notification.permission : 'denied'));

  return (
    <div className="shell" data-live={liveStatus}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          Parley
        </Link>
        <AvailabilityToggle />
        <div className="topbar-user">
          {permission === 'default' && (
            <button type="button" className="ghost small" onClick={() => void Notification.requestPermission().then(setPermission)}>
              Enable notifications
            </button>
          )}
          <span className="muted user-name" title={me?.username}>
            {me?.name || me?.username}
          </span>
          <button type="button" className="ghost small" onClick={() => void signOut()}>
            Log out
          </button>
        </div>
      </header>
      <nav className="sidenav" aria-label="Main">
        <ul className="nav-list">
          <li>
            <NavLink href="/queue" badge={queueCount}>
              Queue
            </NavLink>
          </li>
          <li>
            <NavLink href="/chats" badge={unread}>
              My chats
            </NavLink>
          </li>
          {can('view-livechat-rooms') && (
            <li>
              <NavLink href="/admin/open-chats">All open chats</NavLink>
            </li>
          )}
          <li>
            <NavLink href="/closed">Closed</NavLink>
          </li>
          {can('view-livechat-reports') && (
            <li>
              <NavLink href="/admin/reports">Reports</NavLink>
            </li>
          )}
          {can('view-l-room') && (
            <li>
              <NavLink href="/admin/offline-messages">Messages left</NavLink>
            </li>
          )}
          {can('view-canned-responses') && (
            <li>
              <NavLink href="/admin/canned-responses">Canned responses</NavLink>
            </li>
          )}
        </ul>
        {manager && <ManageMenu />}
      </nav>
      <div className="banners">
        {liveStatus === 'reconnecting' && (
          <div className="banner" role="status">
            Connection lost — reconnecting… Chats keep updating every few seconds meanwhile.
          </div>
        )}
        <UnsentMailBanner />
        {(queue.error || rooms.error) && (queue.error as { status?: number } | null)?.status === 0 && (
          <div className="banner" role="status">
            The server cannot be reached. Retrying…
          </div>
        )}
      </div>
      {/* A scroll region of its own (narrow screens: under the open Manage menu it may be short), so it takes the
          keyboard's focus too: arrow keys then scroll a page that has nothing else to focus. */}
      <main id="main" className="content" tabIndex={0}>
        {children}
      </main>
    </div>
  );
}
