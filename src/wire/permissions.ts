import { Type } from '@sinclair/typebox';
import { Text, Timestamp } from './common.js';

/** A permission on the wire (contract §4). */
export const Permission = Type.Object({ _id: Type.String(), roles: Type.Array(Type.String()), _updatedAt: Timestamp });

/** `permissions.update` body: new role lists, all or nothing. */
export const PermissionsUpdateBody = Type.Object({
  permissions: Type.Array(Type.Object({ _id: Text(), roles: Type.Array(Text()) }, { additionalProperties: false }), {
    minItems: 1,
  }),
});
