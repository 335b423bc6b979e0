/**
 * Managed tags and the closing rules of DESK.md D5: the tag endpoints, the validation of a room's tags (once any tag
 * is defined, a room's tags must be defined ones allowed for its department — Parley rule, Rocket.Chat checks
 * nothing), and what an agent's close requires (a comment, a tag) before the room closes.
 */
import type { Static } from '@sinclair/typebox';
import { newId } from '../lib/ids.js';
import { iso, type Clock } from '../lib/time.js';
import { ConflictError } from '../store/errors.js';
import type { LivechatRoom, Store, TagRecord, UserRecord } from '../store/store.js';
import type { Access } from './access.js';
import { ApiError, bareFailure, failure } from './errors.js';
import { parsePaging } from './paging.js';
import type { SettingsService } from './settings.service.js';
import { valueAccepted } from './custom-fields.service.js';
import { livechatSnapshot } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import { forbidden } from './errors.js';
import type { SaveRoomInfoBody, SaveTagBody, Tag, TagsQuery } from '../wire/desk.js';

export type TagWire = Static<typeof Tag>;

export function tagWire(t: TagRecord): TagWire {
  return { _id: t.id, name: t.name, description: t.description, numDepartments: t.departments.length, departments: t.departments, _updatedAt: iso(t.updatedAt) };
}

/** Trimmed, without empty ones, each once in first-seen order. */
export function cleanTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}

/** Stored values with `values` applied: `""` removes a key. */
function mergeValues(current: Record<string, string>, values: Record<string, string>): Record<string, string> {
  const out = { ...current };
  for (const [key, value] of Object.entries(values)) {
    if (value === '') delete out[key];
    else out[key] = value;
  }
  return out;
}

export class TagsService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  /**
   * `GET livechat/tags` (route: `view-l-room` or `manage-livechat-tags`): the tags of no department plus those of
   * `department` (default: the caller's departments; every tag for a caller covering all); `viewAll=true` with
   * `manage-livechat-tags`: every tag.
   */
  async list(caller: UserRecord, query: Static<typeof TagsQuery>) {
    const paging = parsePaging(query, this.settings);
    let departments: string[] | null;
    if (query.viewAll === true && this.access.hasPermission(caller, 'manage-livechat-tags')) departments = null;
    else if (query.department) departments = [query.department];
    else departments = await this.access.departmentScope(caller);
    const { tags, total } = await this.store.tags.list({ text: query.text || undefined, departments, offset: paging.offset, count: paging.count });
    return { tags: tags.map(tagWire), count: tags.length, offset: paging.offset, total };
  }

  /** `GET livechat/tags/:tagId`: unknown → 404 `Tag not found`. */
  async get(id: string): Promise<TagWire> {
    const tag = await this.store.tags.findById(id);
    if (!tag) throw new ApiError(404, { success: false, error: 'Tag not found' });
    return tagWire(tag);
  }

  /** `POST livechat/tags.save` (route: `manage-livechat-tags`): creates, or with `_id` replaces. */
  async save(input: Static<typeof SaveTagBody>): Promise<TagWire> {
    const name = input.tagData.name.trim();
    if (name === '') throw failure('The tag name must not be blank', 'invalid-params');
    const departments = cleanTags(input.tagDepartments ?? []);
    for (const id of departments) if (!(await this.store.departments.findById(id))) throw bareFailure('error-invalid-department');
    const fields = { name, description: input.tagData.description ?? '', departments };
    try {
      if (input._id !== undefined) {
        const updated = await this.store.transaction((tx) => tx.tags.update(input._id!, fields, this.clock.now()));
        if (!updated) throw bareFailure('error-tag-not-found');
        return tagWire(updated);
      }
      const created = await this.store.transaction((tx) => tx.tags.insert({ id: newId(), ...fields, updatedAt: this.clock.now() }));
      return tagWire(created);
    } catch (error) {
      if (error instanceof ConflictError && error.isOn('livechat_tags', 'name_key')) throw bareFailure('error-tag-name-already-exists');
      throw error;
    }
  }

  /** `POST livechat/tags.delete` (and `tags.remove`): unknown → `error-removing-tag`. Rooms keep the names they have. */
  async remove(id: string): Promise<void> {
    if (!(await this.store.transaction((tx) => tx.tags.delete(id)))) throw bareFailure('error-removing-tag');
  }

  /**
   * D5's validation of tags put on a room of `departmentId`: with no tag defined, any text; once one is, each must be
   * defined (any case) and allowed for the department (a tag of no department is allowed everywhere), else
   * `"Invalid tags: <names> [error-invalid-tags]"`.
   */
  async assertRoomTags(tags: readonly string[], departmentId: string | null): Promise<void> {
    if (tags.length === 0 || !(await this.store.tags.anyDefined())) return;
    const defined = new Map((await this.store.tags.findByNames(tags)).map((t) => [t.name.toLowerCase(), t]));
    const invalid = tags.filter((name) => {
      const tag = defined.get(name.toLowerCase());
      return !tag || (tag.departments.length > 0 && (departmentId === null || !tag.departments.includes(departmentId)));
    });
    if (invalid.length > 0) throw failure(`Invalid tags: ${invalid.join(', ')}`, 'error-invalid-tags');
  }

  /**
   * D5's rules for an agent's close, after §8.5's checks: the comment when required, the request's tags, then a tag
   * when the department (`requestTagBeforeClosingChat`, one of `chatClosingTags` when listed) or the setting asks for
   * one. Returns the tags the closed room keeps: the room's, then the request's new ones.
   */
  async closingTags(room: LivechatRoom, comment: string | undefined, requested: readonly string[] | undefined): Promise<string[]> {
    if (this.settings.get('Livechat_request_comment_when_closing_conversation') && (comment ?? '').trim() === '') {
      throw bareFailure('error-comment-is-required');
    }
    const added = cleanTags(requested ?? []);
    await this.assertRoomTags(added, room.departmentId);
    const tags = cleanTags([...room.tags, ...added]);
    const department = room.departmentId === null ? null : await this.store.departments.findById(room.departmentId);
    const lower = new Set(tags.map((tag) => tag.toLowerCase()));
    if (department?.requestTagBeforeClosingChat) {
      const wanted = department.chatClosingTags;
      const ok = wanted.length === 0 ? tags.length > 0 : wanted.some((tag) => lower.has(tag.toLowerCase()));
      if (!ok) throw bareFailure('error-tags-must-be-assigned-before-closing-chat');
    } else if (this.settings.get('Livechat_request_tags_when_closing_conversation') && tags.length === 0) {
      throw bareFailure('error-tags-must-be-assigned-before-closing-chat');
    }
    return tags;
  }

  /**
   * `POST livechat/room.saveInfo` (route: `view-l-room`; a room the caller does not serve also needs
   * `save-others-livechat-room-info`): unknown room → `error-invalid-room`; `guestData._id` not the room's visitor →
   * `error-invalid-visitor` (Parley: the endpoint edits this room's visitor only); then the tags' validation. Tags
   * replace the room's, the topic is set, and the visitor's name, e-mail and phone are updated as `livechat/visitor`
   * does; `livechatData` of the room and of the visitor are checked against the custom-field definitions (W7.4).
   */
  async saveRoomInfo(caller: UserRecord, input: Static<typeof SaveRoomInfoBody>): Promise<void> {
    const room = await this.store.livechatRooms.findById(input.roomData._id);
    if (!room) throw bareFailure('error-invalid-room');
    if (room.servedBy?.id !== caller.id && !this.access.hasPermission(caller, 'save-others-livechat-room-info')) throw forbidden();
    if (input.guestData._id !== room.visitor.id) throw bareFailure('error-invalid-visitor');
    const roomValues = await this.checkedCustomValues(input.roomData.livechatData, 'room');
    const guestValues = await this.checkedCustomValues(input.guestData.livechatData, 'visitor');
    const tags = input.roomData.tags === undefined ? undefined : cleanTags(input.roomData.tags);
    if (tags) await this.assertRoomTags(tags, room.departmentId);
    const guest = input.guestData;
    const patch: { name?: string; email?: string | null; phone?: string | null } = {};
    if (guest.name !== undefined) patch.name = guest.name;
    if (guest.email !== undefined) patch.email = guest.email.trim().toLowerCase() || null;
    if (guest.phone !== undefined) patch.phone = guest.phone.trim() || null;
    const now = this.clock.now();
    await this.store.transaction(async (tx) => {
      const info: { tags?: string[]; topic?: string } = {};
      if (tags !== undefined) info.tags = tags;
      if (input.roomData.topic !== undefined) info.topic = input.roomData.topic;
      if (Object.keys(info).length > 0) await tx.livechatRooms.setInfo(room.id, info, now);
      if (Object.keys(patch).length > 0) await tx.visitors.update(room.visitor.id, patch, now);
      if (roomValues) {
        const current = (await tx.livechatRooms.findById(room.id))?.livechatData ?? {};
        await tx.customFields.setRoomData(room.id, mergeValues(current, roomValues), now);
      }
      if (guestValues) {
        await tx.visitors.lock(room.visitor.id);
        const visitor = await tx.visitors.findById(room.visitor.id);
        if (visitor) await tx.visitors.update(visitor.id, { livechatData: mergeValues(visitor.livechatData, guestValues) }, now);
      }
    });
    const snapshot = livechatSnapshot(room);
    this.events.publish({ type: 'roomInfoChanged', room: snapshot });
    if ((Object.keys(patch).length > 0 || guestValues) && room.open) this.events.publish({ type: 'visitorUpdated', visitorId: room.visitor.id, room: snapshot });
  }

  /**
   * W7.4: every key must be defined in `scope` (else `invalid-custom-field`) and every value accepted as
   * `livechat/custom.field` accepts it, all or nothing; null when nothing was sent.
   */
  private async checkedCustomValues(values: Record<string, string | number | boolean> | undefined, scope: 'room' | 'visitor'): Promise<Record<string, string> | null> {
    if (!values || Object.keys(values).length === 0) return null;
    const definitions = new Map((await this.store.customFields.all()).map((f) => [f.id, f]));
    const out: Record<string, string> = {};
    for (const [key, raw] of Object.entries(values)) {
      const field = definitions.get(key);
      if (!field || field.scope !== scope) throw bareFailure('invalid-custom-field');
      const value = String(raw);
      if (!valueAccepted(field, value)) throw bareFailure(`Invalid value for ${key} field`);
      out[key] = value;
    }
    return out;
  }
}
