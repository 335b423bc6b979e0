import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import type { Credentials } from './api/client.js';
import { Layout } from './components/Layout.js';
import { ConsoleProvider, isManager, useConsole } from './context.js';
import type { TransportFactory } from './live/live.js';
import { AgentsPage, ManagersPage } from './pages/RoleUsers.js';
import { ChatsPage } from './pages/Chats.js';
import { ClosedPage } from './pages/Closed.js';
import { DepartmentsPage } from './pages/Departments.js';
import { BusinessHoursPage } from './pages/BusinessHours.js';
import { EmbedPage } from './pages/Embed.js';
import { HomeRedirect, SetupPage } from './pages/Setup.js';
import { LoginPage } from './pages/Login.js';
import { QueuePage } from './pages/Queue.js';
import { SettingsPage } from './pages/Settings.js';

// Pages few people open, loaded when first visited (the first screen's script stays small).
const UsersPage = lazy(() => import('./pages/Users.js').then((m) => ({ default: m.UsersPage })));
const PermissionsPage = lazy(() => import('./pages/Permissions.js').then((m) => ({ default: m.PermissionsPage })));
const MailPage = lazy(() => import('./pages/Mail.js').then((m) => ({ default: m.MailPage })));
const OfflineMessagesPage = lazy(() => import('./pages/OfflineMessages.js').then((m) => ({ default: m.OfflineMessagesPage })));
const WebhooksPage = lazy(() => import('./pages/Webhooks.js').then((m) => ({ default: m.WebhooksPage })));
const WidgetRulesPage = lazy(() => import('./pages/WidgetRules.js').then((m) => ({ default: m.WidgetRulesPage })));
const CannedResponsesPage = lazy(() => import('./pages/CannedResponses.js').then((m) => ({ default: m.CannedResponsesPage })));
const TagsPage = lazy(() => import('./pages/Tags.js').then((m) => ({ default: m.TagsPage })));
// The Reports page carries the chart library (uPlot): only those who open it load either.
const ReportsPage = lazy(() => import('./pages/Reports.js').then((m) => ({ default: m.ReportsPage })));
const OpenChatsPage = lazy(() => import('./pages/OpenChats.js').then((m) => ({ default: m.OpenChatsPage })));

export interface AppProps {
  transport?: (creds: Credentials) => TransportFactory;
  fetchImpl?: typeof fetch;
  storage?: Storage;
  /** wouter location hook override (tests use memory locations). */
  hook?: Parameters<typeof Router>[0]['hook'];
}

export function App({ transport, fetchImpl, storage, hook }: AppProps) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 1_000, refetchOnWindowFocus: true } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ConsoleProvider transport={transport} fetchImpl={fetchImpl} storage={storage}>
        <Router hook={hook}>
          <Routes />
        </Router>
      </ConsoleProvider>
    </QueryClientProvider>
  );
}

function Routes() {
  const { creds, me, restoring } = useConsole();
  if (restoring) {
    return (
      <main className="center-page" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }
  if (!creds || !me) {
    return (
      <Switch>
        <Route path="/login" component={LoginPage} />
        <Route>
          <Redirect to="/login" replace />
        </Route>
      </Switch>
    );
  }
  const manager = isManager(me);
  return (
    <Layout>
      <Suspense fallback={<p aria-busy="true">Loading…</p>}>
        <Switch>
          <Route path="/" component={HomeRedirect} />
          <Route path="/login">
            <Redirect to="/" replace />
          </Route>
          <Route path="/setup" component={SetupPage} />
          <Route path="/queue" component={QueuePage} />
          <Route path="/chats" component={ChatsPage} />
          <Route path="/chats/:rid" component={ChatsPage} />
          <Route path="/closed" component={ClosedPage} />
          <Route path="/closed/:rid" component={ClosedPage} />
          {manager && <Route path="/admin/agents" component={AgentsPage} />}
          {manager && <Route path="/admin/managers" component={ManagersPage} />}
          {manager && <Route path="/admin/departments" component={DepartmentsPage} />}
          {manager && <Route path="/admin/business-hours" component={BusinessHoursPage} />}
          {manager && <Route path="/admin/settings" component={SettingsPage} />}
          {manager && <Route path="/admin/embed" component={EmbedPage} />}
          {manager && <Route path="/admin/widget-rules" component={WidgetRulesPage} />}
          {/* These check their own permission (an administrator may give it to anyone). */}
          <Route path="/admin/users" component={UsersPage} />
          <Route path="/admin/permissions" component={PermissionsPage} />
          <Route path="/admin/open-chats" component={OpenChatsPage} />
          <Route path="/admin/reports" component={ReportsPage} />
          <Route path="/admin/mail" component={MailPage} />
          <Route path="/admin/webhooks" component={WebhooksPage} />
          <Route path="/admin/canned-responses" component={CannedResponsesPage} />
          <Route path="/admin/tags" component={TagsPage} />
          <Route path="/admin/offline-messages" component={OfflineMessagesPage} />
          <Route path="/admin/offline-messages/:id" component={OfflineMessagesPage} />
          <Route path="/admin/open-chats/:rid" component={OpenChatsPage} />
          <Route>
            <section className="page">
              <h1>Page not found</h1>
              <p>There is nothing at this address. Use the menu to go on.</p>
            </section>
          </Route>
        </Switch>
      </Suspense>
    </Layout>
  );
}
