import { Type } from '@sinclair/typebox';
import { Int, MAX_INT, PagingQuery, StringEnum, Text, TextRecord, Timestamp } from './common.js';

const Opt = Type.Optional;

export const UserStatus = StringEnum(['online', 'away', 'busy', 'offline']);

const Emails = Type.Array(Type.Object({ address: Type.String(), verified: Type.Boolean() }));
/** Stored preferences as responses show them (any JSON values by key). */
export const Preferences = Type.Record(Type.String(), Type.Unknown());
const UserSettings = Type.Object({
  profile: Type.Record(Type.String(), Type.Unknown()),
  preferences: Preferences,
});
const UserServices = Type.Object({ password: Type.Object({ exists: Type.Boolean() }) });

/**
 * The user object of contract §6.1 — the only user shape any response
 * serializes. No password, token or verification fields exist here, so
 * none can leave the server.
 */
const userProperties = {
  _id: Type.String(),
  createdAt: Timestamp,
  _updatedAt: Timestamp,
  username: Opt(Type.String()),
  name: Opt(Type.String()),
  emails: Opt(Emails),
  type: Type.String(),
  status: UserStatus,
  statusConnection: Opt(Type.String()),
  statusText: Opt(Type.String()),
  active: Type.Boolean(),
  roles: Opt(Type.Array(Type.String())),
  lastLogin: Opt(Timestamp),
  utcOffset: Opt(Type.Number()),
  bio: Opt(Type.String()),
  nickname: Opt(Type.String()),
  customFields: Opt(Type.Record(Type.String(), Type.String())),
  language: Opt(Type.String()),
  settings: Opt(UserSettings),
  services: Opt(UserServices),
  avatarUrl: Opt(Type.String()),
  statusLivechat: Opt(Type.String()),
};
export const UserObject = Type.Object(userProperties);

/**
 * A user shown in full (§6.1: `me`, `users.create`, `users.updateOwnBasicInfo`):
 * `roles`, `emails`, `settings` and `services` are always there — typed clients
 * (Rocket.Chat's `IUser`, `IMeApiUser`) rely on them.
 */
export const FullUserObject = Type.Object({
  ...userProperties,
  roles: Type.Array(Type.String()),
  emails: Emails,
  settings: UserSettings,
  services: UserServices,
});

/** `me` and the login response's `me`: the user in full plus `email` and `isOAuthUser`. */
export const MeObject = Type.Composite([FullUserObject, Type.Object({ email: Opt(Type.String()), isOAuthUser: Type.Boolean() })]);

/** A string custom field value, or null to remove the key (§6.8 rule 9). */
const CustomFields = TextRecord(Type.Union([Text({ maxLength: 1000 }), Type.Null()]), { maxProperties: 50 });

export const CreateUserBody = Type.Object({
  email: Text(),
  name: Text(),
  password: Text({ minLength: 1 }),
  username: Text({ minLength: 1 }),
  active: Opt(Type.Boolean()),
  roles: Opt(Type.Array(Text())),
  joinDefaultChannels: Opt(Type.Boolean()),
  verified: Opt(Type.Boolean()),
  requirePasswordChange: Opt(Type.Boolean()),
  sendWelcomeEmail: Opt(Type.Boolean()),
  setRandomPassword: Opt(Type.Boolean()),
  customFields: Opt(TextRecord(Text({ maxLength: 1000 }), { maxProperties: 50 })),
  bio: Opt(Text({ maxLength: 260 })),
  nickname: Opt(Text({ maxLength: 120 })),
});

export const RegisterBody = Type.Object({
  username: Text({ minLength: 1 }),
  email: Text(),
  pass: Text({ minLength: 1 }),
  name: Opt(Text()),
  secretURL: Opt(Text()),
});

export const BasicInfoBody = Type.Object({
  data: Type.Object(
    {
      email: Opt(Text()),
      name: Opt(Text()),
      username: Opt(Text()),
      currentPassword: Opt(Text()),
      newPassword: Opt(Text({ minLength: 1 })),
      nickname: Opt(Text()),
      bio: Opt(Text()),
      statusText: Opt(Text()),
      statusType: Opt(UserStatus),
      customFields: Opt(CustomFields),
    },
    { additionalProperties: false },
  ),
  customFields: Opt(CustomFields),
});

/** users.register's 200 `user`: the new account's public summary. */
export const RegisteredUser = Type.Object({
  _id: Type.String(),
  username: Opt(Type.String()),
  name: Opt(Type.String()),
  type: Type.String(),
  status: Type.String(),
  active: Type.Boolean(),
});

/** `users.info` query: a user by id or username. */
export const UserRefQuery = Type.Object({ userId: Opt(Text()), username: Opt(Text()) });

export const DeleteUserBody = Type.Object({ userId: Text({ minLength: 1 }), confirmRelinquish: Opt(Type.Boolean()) });

export const SetStatusBody = Type.Object({
  status: Opt(UserStatus),
  message: Opt(Text({ maxLength: 120 })),
  userId: Opt(Text()),
});

/** users.setActiveStatus body (Rocket.Chat's; `confirmRelinquish` accepted and ignored: Parley has no room ownership to hand over). */
export const ActiveStatusBody = Type.Object({ userId: Text({ minLength: 1 }), activeStatus: Type.Boolean(), confirmRelinquish: Opt(Type.Boolean()) });
/** users.setActiveStatus' 200 `user`. */
export const ActiveStatusUser = Type.Object({ _id: Type.String(), active: Type.Boolean() });

/** users.setPreferences' 200 `user`. */
export const PreferencesUser = Type.Object({ _id: Type.String(), settings: Type.Object({ preferences: Preferences }) });

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Opt(Type.Union([schema, Type.Null()]));
const S = () => nullable(Text());
const I = (options: { minimum?: number; maximum?: number } = {}) => nullable(Int(options));
const B = () => nullable(Type.Boolean());

/**
 * users.setPreferences `data` (§6.9): every key optional, `null` removes it,
 * unknown keys refused.
 */
export const PreferencesData = Type.Object(
  {
    newRoomNotification: S(),
    newMessageNotification: S(),
    emailNotificationMode: S(),
    roomsListExhibitionMode: S(),
    desktopNotifications: S(),
    mobileNotifications: S(),
    pushNotifications: S(),
    sendOnEnter: S(),
    language: S(),
    sidebarSortby: S(),
    sidebarViewMode: S(),
    themeAppearence: S(),
    fontSize: S(),
    alsoSendThreadToChannel: S(),
    notificationsSoundVolume: I({ minimum: 0, maximum: 100 }),
    desktopNotificationDuration: I(),
    viewMode: I(),
    messageViewMode: I(),
    clockMode: I(),
    masterVolume: I(),
    voipRingerVolume: I(),
    // Below 60 (negative values included) the service answers `invalid-idle-time-limit-value` (§6.9), not the schema.
    idleTimeLimit: I({ minimum: -MAX_INT }),
    // Hours from UTC; any finite number within the integer bounds (§6.9 says only "number").
    utcOffset: nullable(Type.Number({ minimum: -MAX_INT, maximum: MAX_INT })),
    useEmojis: B(),
    convertAsciiEmoji: B(),
    saveMobileBandwidth: B(),
    collapseMediaByDefault: B(),
    autoImageLoad: B(),
    unreadAlert: B(),
    enableAutoAway: B(),
    hideUsernames: B(),
    hideRoles: B(),
    hideAvatars: B(),
    hideFlexTab: B(),
    displayAvatars: B(),
    roomCounterSidebar: B(),
    sidebarShowFavorites: B(),
    sidebarShowUnread: B(),
    sidebarHideAvatar: B(),
    sidebarDisplayAvatar: B(),
    groupByType: B(),
    sidebarGroupByType: B(),
    muteFocusedConversations: B(),
    showThreadsInMainChannel: B(),
    desktopNotificationRequireInteraction: B(),
    receiveLoginDetectionEmail: B(),
    notifyCalendarEvents: B(),
    enableMobileRinging: B(),
    mentionsWithSymbol: B(),
    omnichannelTranscriptEmail: B(),
    omnichannelTranscriptPDF: B(),
    omnichannelHideConversationAfterClosing: B(),
    desktopNotificationVoiceCalls: B(),
    highlights: nullable(Type.Array(Text())),
    // Rocket.Chat 8 sends it as a list (its web client sends []), §6.9.
    statusVisibilityDenied: nullable(Type.Array(Text())),
    dontAskAgainList: nullable(
      Type.Array(Type.Object({ action: Text(), label: Text() }, { additionalProperties: false })),
    ),
    featuresPreview: nullable(
      Type.Array(Type.Object({ name: Text(), value: Type.Boolean() }, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false },
);

export const SetPreferencesBody = Type.Object({ userId: Opt(Text()), data: PreferencesData });

/** A login password: plain text or its SHA-256 digest (contract §5). */
const Password = Type.Union([Text(), Type.Object({ digest: Text(), algorithm: Text() })]);

export const LoginBody = Type.Object({
  user: Opt(Text()),
  username: Opt(Text()),
  email: Opt(Text()),
  password: Opt(Password),
  resume: Opt(Text()),
});

/** The login response's `data`. */
export const LoginData = Type.Object({ userId: Type.String(), authToken: Type.String(), me: MeObject });
/** The logout response's `data`. */
export const LogoutData = Type.Object({ message: Type.String() });

/**
 * `users.list` query (§6.10): paging, `sort` (one of username, name, email,
 * createdAt, lastLogin, status/active), `fields`; Parley's `text` filters by a
 * substring of the username, name or e-mail. Rocket.Chat's Mongo `query` is
 * accepted and ignored (§1.1: Parley has no Mongo queries).
 */
export const UsersListQuery = Type.Object({ ...PagingQuery, query: Opt(Text()), text: Opt(Text({ maxLength: 200 })) });

/**
 * `users.update` body (§6.11), Rocket.Chat's shape: `data` with the fields to
 * change; unknown keys are refused. `joinDefaultChannels`, `sendWelcomeEmail`
 * and `setRandomPassword` are accepted and ignored (Parley sends no e-mail; the
 * console generates a password itself and shows it once).
 */
export const UpdateUserBody = Type.Object({
  userId: Text({ minLength: 1 }),
  data: Type.Object(
    {
      email: Opt(Text()),
      name: Opt(Text()),
      username: Opt(Text()),
      password: Opt(Text({ minLength: 1 })),
      active: Opt(Type.Boolean()),
      roles: Opt(Type.Array(Text(), { minItems: 1 })),
      verified: Opt(Type.Boolean()),
      requirePasswordChange: Opt(Type.Boolean()),
      bio: Opt(Text()),
      nickname: Opt(Text()),
      statusText: Opt(Text()),
      customFields: Opt(CustomFields),
      joinDefaultChannels: Opt(Type.Boolean()),
      sendWelcomeEmail: Opt(Type.Boolean()),
      setRandomPassword: Opt(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  confirmRelinquish: Opt(Type.Boolean()),
});
