/**
 * The user object of contract §6.1, built in one place. Response schemas
 * (wire/users.ts) list the same fields, so nothing else (password
 * hash, token hashes) can leave the server even if it were added here by mistake.
 */
import type { Static } from '@sinclair/typebox';
import { iso } from '../lib/time.js';
import type { UserRecord } from '../store/store.js';
import { optional } from '../lib/values.js';
import type { FullUserObject, MeObject, UserObject } from '../wire/users.js';

/** The wire types are those of the response schemas (wire/users.ts): written once. */
export type UserView = Static<typeof UserObject>;
/** A user shown in full: `roles`, `emails`, `settings` and `services` always there (§6.1). */
export type FullUserView = Static<typeof FullUserObject>;
export type MeView = Static<typeof MeObject>;

/** Fields anyone who may see the user gets. */
export function publicUserView(user: UserRecord, siteUrl: string): UserView {
  return {
    _id: user.id,
    createdAt: iso(user.createdAt),
    _updatedAt: iso(user.updatedAt),
    username: optional(user.username),
    name: optional(user.name),
    type: user.type,
    status: user.status,
    statusText: user.statusText ?? '',
    active: user.active,
    utcOffset: optional(user.utcOffset),
    bio: optional(user.bio),
    nickname: optional(user.nickname),
    avatarUrl: user.username ? `${siteUrl}/avatar/${encodeURIComponent(user.username)}` : undefined,
    lastLogin: user.lastLogin === null ? undefined : iso(user.lastLogin),
    statusLivechat: optional(user.statusLivechat),
  };
}

/**
 * The full view: self, `view-full-other-user-info`, users.create, updateOwnBasicInfo.
 * Built by adding to the public view in place rather than by an object spread
 * with extra properties (`{...view, more}`): V8 copies a spread of an object
 * this size slowly, and this is on the path of every `me`.
 */
export function fullUserView(user: UserRecord, siteUrl: string): FullUserView {
  const view = publicUserView(user, siteUrl) as FullUserView;
  view.emails = user.email ? [{ address: user.email.address, verified: user.email.verified }] : [];
  view.statusConnection = user.statusConnection;
  view.roles = user.roles;
  view.customFields = user.customFields;
  view.language = optional(user.language);
  view.settings = { profile: {}, preferences: user.preferences };
  view.services = { password: { exists: user.passwordHash !== null } };
  return view;
}

/** `GET me` and the login response's `me`: the full view plus `email` and `isOAuthUser`. */
export function meView(user: UserRecord, siteUrl: string): MeView {
  const view = fullUserView(user, siteUrl) as MeView;
  view.email = user.email?.verified ? user.email.address : undefined;
  view.isOAuthUser = false;
  return view;
}
