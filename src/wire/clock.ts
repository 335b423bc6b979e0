/** The test clock (desk contract D0, `CLOCK=manual`): `GET`/`POST /api/v1/clock`. */
import { Type } from '@sinclair/typebox';
import { Text } from './common.js';

/** A century in seconds: far past any test, and the sum stays a time a Date can hold. */
const MAX_ADVANCE_SECONDS = 3_155_760_000;

/** Exactly one of `advance` (seconds, may be fractional) and `set` (an ISO 8601 time). */
export const ClockBody = Type.Object(
  {
    advance: Type.Optional(Type.Number({ minimum: -MAX_ADVANCE_SECONDS, maximum: MAX_ADVANCE_SECONDS, description: 'seconds to move forward' })),
    set: Type.Optional(Text({ maxLength: 64, description: 'the new time, ISO 8601' })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1 },
);

export const ClockNow = { now: Type.String({ description: 'the clock, ISO 8601' }) };
export const ClockMoved = { ...ClockNow, fired: Type.Integer({ minimum: 0, description: 'jobs that ran while the clock moved' }) };
