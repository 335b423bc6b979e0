/** Business hours (desk contract D1): Rocket.Chat's `livechat/business-hour(s)` endpoints, plus Parley's `openNow` and `nextChangeAt`. */
import { Type } from '@sinclair/typebox';
import { PagingQuery, StringEnum, Text, Timestamp } from './common.js';

const Opt = Type.Optional;

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const Weekday = StringEnum(WEEKDAY_NAMES);
const BusinessHourType = StringEnum(['default', 'custom'] as const);

// Formats are checked by the service (`Invalid time "…"`, `Invalid holiday date "…"`): request strings keep the one
// NUL-free pattern of every client string.
/** Local `HH:mm` or `HH:mm:ss`. */
const LocalTime = Text({ maxLength: 8, description: 'local time, HH:mm[:ss]' });
/** A finish may also be `24:00` (midnight at the end of the day). */
const LocalFinish = Text({ maxLength: 8, description: 'local time, HH:mm[:ss], or 24:00' });
const LocalDate = Text({ maxLength: 10, description: 'local date, YYYY-MM-DD' });

export const BusinessHourHoliday = Type.Object(
  { date: LocalDate, name: Opt(Text({ maxLength: 200 })), start: Opt(LocalTime), finish: Opt(LocalFinish) },
  { additionalProperties: false },
);

/**
 * `POST livechat/business-hours.save`: Rocket.Chat's body. Fields Rocket.Chat's client sends back from a read
 * (`ts`, `_updatedAt`, `departments`, `daysOpen`, `daysTime` …) are accepted and ignored.
 */
export const BusinessHourSaveBody = Type.Object({
  _id: Opt(Text({ maxLength: 64 })),
  name: Text({ maxLength: 200 }),
  active: Type.Boolean(),
  type: BusinessHourType,
  workHours: Type.Array(Type.Object({ day: Weekday, start: LocalTime, finish: LocalFinish, open: Type.Boolean() }), { maxItems: 100 }),
  timezoneName: Opt(Text({ maxLength: 64 })),
  timezone: Opt(Type.Union([Text({ maxLength: 64 }), Type.Object({ name: Text({ maxLength: 64 }) })])),
  departmentsToApplyBusinessHour: Opt(Text({ maxLength: 10_000, description: 'department ids, comma-separated' })),
  holidays: Opt(Type.Array(BusinessHourHoliday, { maxItems: 400 })),
});

export const BusinessHourRemoveBody = Type.Object({ _id: Text({ maxLength: 64 }), type: BusinessHourType });

export const BusinessHourQuery = Type.Object({ _id: Opt(Text({ maxLength: 64 })), type: Opt(BusinessHourType) });
export const BusinessHoursListQuery = Type.Object({ ...PagingQuery, name: Opt(Text({ maxLength: 200 })) });

const DayTime = Type.Object({ dayOfWeek: Weekday, time: Type.String() });
const WorkHourPoint = Type.Object({ time: Type.String(), utc: DayTime, cron: DayTime });

/** Rocket.Chat's `ILivechatBusinessHour`, plus `openNow` and `nextChangeAt` (computed per request). */
export const BusinessHour = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  active: Type.Boolean(),
  type: BusinessHourType,
  timezone: Type.Object({ name: Type.String(), utc: Type.String() }),
  workHours: Type.Array(Type.Object({ day: Weekday, start: WorkHourPoint, finish: WorkHourPoint, open: Type.Boolean() })),
  holidays: Type.Array(
    Type.Object({ date: Type.String(), name: Opt(Type.String()), start: Opt(Type.String()), finish: Opt(Type.String()) }),
  ),
  ts: Timestamp,
  _updatedAt: Timestamp,
  departments: Opt(Type.Array(Type.Object({ _id: Type.String(), name: Type.String() }))),
  openNow: Type.Boolean(),
  nextChangeAt: Type.Union([Timestamp, Type.Null()]),
});
