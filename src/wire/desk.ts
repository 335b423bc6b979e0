/**
 * Request and response schemas of the desk features (DESK.md D4–D6): private notes, canned responses, tags and
 * closing. Written once; routes validate and serialize with them, services take their types.
 */
import { Type } from '@sinclair/typebox';
import { Text } from './common.js';

/** The longest note or canned text (DESK.md D4, D6). */
export const MAX_NOTE_LENGTH = 10_000;

/** `POST livechat/room.note` (D6). */
export const RoomNoteBody = Type.Object({ rid: Text(), msg: Text({ minLength: 1, maxLength: MAX_NOTE_LENGTH }) });

