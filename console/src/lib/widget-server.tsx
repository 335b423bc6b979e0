import { useQuery } from '@tanstack/react-query';

/** The widget page's `SERVER_URL` (the address every widget call goes to), or null when the page has none. */
export function serverUrlOf(page: string): string | null {
  return /<script>SERVER_URL = '([^'\\<]*)';<\/script>/.exec(page)?.[1] ?? null;
}

/**
 * What the widget served by this server will call: `served` false when `/livechat` does not answer; `serverUrl` its
 * SERVER_URL (SITE_URL, or with it unset the address the console was opened at).
 */
export function useWidgetServer(reloadKey = 0) {
  return useQuery({
    queryKey: ['widget-server', reloadKey],
    queryFn: async () => {
      const res = await fetch('/livechat');
      return res.ok ? { served: true, serverUrl: serverUrlOf(await res.text()) } : { served: false, serverUrl: null };
    },
    retry: false,
  });
}

/**
 * Says so when SITE_URL sends the widget elsewhere than the address this console is opened at: a visitor's widget
 * calls SITE_URL, so a wrong one means no chat button on the customer's site.
 */
export function SiteUrlNotice({ serverUrl }: { serverUrl: string | null | undefined }) {
  const here = window.location.origin;
  if (!serverUrl || serverUrl === here) return null;
  return (
    <p className="notice" role="note">
      The widget will call <code>{serverUrl}</code> (the server&apos;s SITE_URL), but you opened this console at <code>{here}</code>. Visitors
      must be able to reach {serverUrl}; if they cannot, change SITE_URL (or leave it unset, and the widget follows the address it is
      loaded from).
    </p>
  );
}
