/** Validation rules shared by the account and user services. */
import type { SettingsService } from './settings.service.js';

/** Usernames nobody may take (contract §6.8 rule 4). */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'admin',
  'administrator',
  'system',
  'user',
  'all',
  'here',
  'rocket.cat',
]);

const regexCache = new Map<string, RegExp>();

/** Matches the whole username against `UTF8_User_Names_Validation`. */
export function isValidUsername(username: string, settings: SettingsService): boolean {
  const source = settings.get('UTF8_User_Names_Validation');
  let regex = regexCache.get(source);
  if (!regex) {
    regex = new RegExp(`^(?:${source})$`, 'u');
    regexCache.set(source, regex);
  }
  return username.length > 0 && username.length <= 255 && regex.test(username);
}

/** A display name may not contain `<`, `>`, `\` or `/` (§6.3, §6.8). */
export function hasInvalidNameCharacters(name: string): boolean {
  return /[<>\\/]/.test(name);
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\.)*[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/;

/** Normalizes an email (trim, lowercase) and says whether it looks like one. */
export function normalizeEmail(raw: string): { email: string; valid: boolean } {
  const email = raw.trim().toLowerCase();
  return { email, valid: email.length <= 254 && EMAIL.test(email) };
}

/** A BCP 47 language tag (`en`, `pt-BR`, `zh-Hans`), checked by Intl. */
export function isLanguageTag(tag: string): boolean {
  if (!/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/.test(tag)) return false;
  try {
    return Intl.getCanonicalLocales(tag.replace(/_/g, '-')).length === 1;
  } catch {
    return false;
  }
}
