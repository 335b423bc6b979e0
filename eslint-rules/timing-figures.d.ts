import type { ESLint } from 'eslint';

/** The first timing figure in `text` (a measured time or rate), or null. */
export function timingFigure(text: string): string | null;

/** The `parley` ESLint plugin with its rule `no-timing-figures`. */
declare const plugin: ESLint.Plugin;
export default plugin;
