/**
 * The console's client-side sections. Parley answers `GET /<section>` and
 * `GET /<section>/*` with the console's index.html (so a reload or a shared
 * link works) and leaves every other path — `/api/*`, `/livechat*`,
 * `/websocket`, `/avatar/*` — to its own routes. Plain data, no imports: the
 * server reads this list too.
 */
export const CONSOLE_SECTIONS = ['login', 'setup', 'queue', 'chats', 'closed', 'admin'] as const;

export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number];
