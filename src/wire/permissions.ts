import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';

/** A permission on the wire (contract §4). */
export const Permission = Type.Object({ _id: Type.String(), roles: Type.Array(Type.String()), _updatedAt: Timestamp });
