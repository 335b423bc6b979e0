import { Type } from '@sinclair/typebox';
import { StringEnum, Timestamp } from './common.js';

const Str = Type.String();
const Opt = Type.Optional;

export const UserStatus = StringEnum(['online', 'away', 'busy', 'offline']);

const Emails = Type.Array(Type.Object({ address: Str, verified: Type.Boolean() }));
const UserSettings = Type.Object({
  profile: Type.Record(Str, Type.Unknown()),
  preferences: Type.Record(Str, Type.Unknown()),
});
const UserServices = Type.Object({ password: Type.Object({ exists: Type.Boolean() }) });

/**
 * The user object of contract §6.1 — the only user shape any response
 * serializes. No password, token or verification fields exist here, so
 * none can leave the server.
 */
const userProperties = {
  _id: Str,
  createdAt: Timestamp,
  _updatedAt: Timestamp,
  username: Opt(Str),
  name: Opt(Str),
  emails: Opt(Emails),
  type: Str,
  status: UserStatus,
  statusConnection: Opt(Str),
  statusText: Opt(Str),
  active: Type.Boolean(),
  roles: Opt(Type.Array(Str)),
  lastLogin: Opt(Timestamp),
  utcOffset: Opt(Type.Number()),
  bio: Opt(Str),
  nickname: Opt(Str),
  customFields: Opt(Type.Record(Str, Str)),
  language: Opt(Str),
  settings: Opt(UserSettings),
  services: Opt(UserServices),
  avatarUrl: Opt(Str),
  statusLivechat: Opt(Str),
};
export const UserObject = Type.Object(userProperties);

/**
 * A user shown in full (§6.1: `me`, `users.create`, `users.updateOwnBasicInfo`):
 * `roles`, `emails`, `settings` and `services` are always there — typed clients
 * (Rocket.Chat's `IUser`, `IMeApiUser`) rely on them.
 */
export const FullUserObject = Type.Object({
  ...userProperties,
  roles: Type.Array(Str),
  emails: Emails,
  settings: UserSettings,
  services: UserServices,
});

/** `me` and the login response's `me`: the user in full plus `email` and `isOAuthUser`. */
export const MeObject = Type.Composite([FullUserObject, Type.Object({ email: Opt(Str), isOAuthUser: Type.Boolean() })]);

/** A string custom field value, or null to remove the key. */
const CustomFields = Type.Record(Str, Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]), { maxProperties: 50 });

export const CreateUserBody = Type.Object({
  email: Str,
  name: Str,
  password: Type.String({ minLength: 1 }),
  username: Type.String({ minLength: 1 }),
  active: Opt(Type.Boolean()),
  roles: Opt(Type.Array(Str)),
  joinDefaultChannels: Opt(Type.Boolean()),
  verified: Opt(Type.Boolean()),
  requirePasswordChange: Opt(Type.Boolean()),
  sendWelcomeEmail: Opt(Type.Boolean()),
  setRandomPassword: Opt(Type.Boolean()),
  customFields: Opt(Type.Record(Str, Type.String({ maxLength: 1000 }), { maxProperties: 50 })),
  bio: Opt(Type.String({ maxLength: 260 })),
  nickname: Opt(Type.String({ maxLength: 120 })),
});

export const RegisterBody = Type.Object({
  username: Type.String({ minLength: 1 }),
  email: Str,
  pass: Type.String({ minLength: 1 }),
  name: Opt(Str),
  secretURL: Opt(Str),
});

export const BasicInfoBody = Type.Object({
  data: Type.Object(
    {
      email: Opt(Str),
      name: Opt(Str),
      username: Opt(Str),
      currentPassword: Opt(Str),
      newPassword: Opt(Type.String({ minLength: 1 })),
      nickname: Opt(Str),
      bio: Opt(Str),
      statusText: Opt(Str),
      statusType: Opt(UserStatus),
      customFields: Opt(CustomFields),
    },
    { additionalProperties: false },
  ),
  customFields: Opt(CustomFields),
});

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Opt(Type.Union([schema, Type.Null()]));
const S = () => nullable(Type.String());
const I = (options: { minimum?: number; maximum?: number } = {}) => nullable(Type.Integer(options));
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
    idleTimeLimit: I(),
    utcOffset: nullable(Type.Number()),
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
    statusVisibilityDenied: B(),
    omnichannelTranscriptEmail: B(),
    omnichannelTranscriptPDF: B(),
    omnichannelHideConversationAfterClosing: B(),
    desktopNotificationVoiceCalls: B(),
    highlights: nullable(Type.Array(Type.String())),
    dontAskAgainList: nullable(
      Type.Array(Type.Object({ action: Type.String(), label: Type.String() }, { additionalProperties: false })),
    ),
    featuresPreview: nullable(
      Type.Array(Type.Object({ name: Type.String(), value: Type.Boolean() }, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false },
);
