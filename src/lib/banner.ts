/**
 * The start-up note printed on a terminal: where the console is, the admin
 * login, and the widget's embed script. Logs stay JSON (pino) either way; this
 * is printed only when stdout is a TTY (main.ts), so log collectors never see it.
 */
export interface BannerInput {
  siteUrl: string;
  adminUsername: string;
  /** Set only on the first start, when the password was generated. */
  generatedPassword?: string;
}

export function startBanner({ siteUrl, adminUsername, generatedPassword }: BannerInput): string {
  const base = siteUrl.replace(/\/+$/, '');
  const password = generatedPassword
    ? `${generatedPassword}   (generated now and shown once: note it, or set ADMIN_PASS)`
    : '(the one set on first start)';
  const rows: [string, string][] = [
    ['Agent console', `${base}/`],
    ['Admin user', adminUsername],
    ['Admin password', password],
    ['Widget script', `${base}/livechat/rocketchat-livechat.min.js`],
    ['API docs', `${base}/api/docs`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  return ['', '  Parley is running.', '', ...lines, '', '  Open the console, sign in as the admin and follow "Get started".', ''].join('\n') + '\n';
}
