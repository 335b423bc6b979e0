/**
 * Livechat custom fields (WIDGET.md W7): the definitions (RC's endpoints), what `livechat/config` offers the widget,
 * and the values visitors send (`livechat/custom.field(s)`), checked against the definitions before anything is
 * stored. A `regexp` is matched server-side against anonymous input, so only patterns that match in linear time
 * are accepted: no backreferences or lookaround (RE2's syntax) and no nested repetition.
 */
import type { Static } from '@sinclair/typebox';
import safeRegex from 'safe-regex2';
import { iso, type Clock } from '../lib/time.js';
import { extend } from '../lib/values.js';
import { ConflictError } from '../store/errors.js';
import type { CustomFieldRecord, LivechatRoom, Store, VisitorPatch, VisitorRecord } from '../store/store.js';
import { livechatSnapshot } from '../events/domain.js';
import type { EventBus } from '../events/event-bus.js';
import { bareFailure, failure, invalidParams } from './errors.js';
import { parsePaging } from './paging.js';
import type { SettingsService } from './settings.service.js';
import type { ConfigCustomField, CustomField, CustomFieldsQuery, CustomValuesBody, SaveCustomFieldBody } from '../wire/widget.js';

export type CustomFieldWire = Static<typeof CustomField>;

/** The longest value a custom field takes (W7.3). */
export const MAX_CUSTOM_VALUE = 1000;
/** The longest `regexp` (W7.1). */
const MAX_REGEXP = 500;

export function customFieldWire(f: CustomFieldRecord): CustomFieldWire {
  return {
    _id: f.id,
    label: f.label,
    scope: f.scope,
    visibility: f.visibility,
    type: f.type,
    regexp: f.regexp,
    required: f.required,
    defaultValue: f.defaultValue,
    options: f.options,
    public: f.public,
    searchable: f.searchable,
    _updatedAt: iso(f.updatedAt),
  };
}

/** A `select`'s options: split on commas, trimmed, empty ones dropped. */
export function optionsOf(options: string): string[] {
  return options
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
}

/** Whether `source` is a pattern Parley matches anonymous input against: bounded, RE2's syntax, no nested repetition. */
export function acceptablePattern(source: string): boolean {
  if (source.length > MAX_REGEXP) return false;
  // Backreferences (\1…\9, \k<name>) and lookaround are not RE2; neither are possessive or atomic groups (JS has none).
  if (/\\[1-9]|\\k<|\(\?<?[=!]/.test(source)) return false;
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, 'i');
  } catch {
    return false;
  }
  return safeRegex(compiled);
}

/** W7.3's check of one value against its definition (the value already a string). */
export function valueAccepted(field: CustomFieldRecord, value: string): boolean {
  if (value.length > MAX_CUSTOM_VALUE) return false;
  if (value === '') return !field.required;
  if (field.type === 'select') return optionsOf(field.options).includes(value);
  if (field.regexp !== '') {
    // Case-insensitive, as the widget's form tests it (Parley rule, W7.3); the pattern was accepted as linear.
    try {
      return new RegExp(field.regexp, 'i').test(value);
    } catch {
      return false;
    }
  }
  return true;
}

/** One value a visitor sends: `key`, the value as a string, and whether it replaces a stored one. */
export interface CustomValue {
  key: string;
  value: string;
  overwrite: boolean;
}

export class CustomFieldsService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  // ── W7.1 definitions ──

  async list(query: Static<typeof CustomFieldsQuery>) {
    const paging = parsePaging(query, this.settings);
    const { customFields, total } = await this.store.customFields.list({ text: query.text || undefined, offset: paging.offset, count: paging.count });
    return { customFields: customFields.map(customFieldWire), count: customFields.length, offset: paging.offset, total };
  }

  async get(id: string) {
    const field = await this.store.customFields.findById(id);
    return { customField: field ? customFieldWire(field) : null };
  }

  /** `POST livechat/custom-fields.save`: creates, or with `customFieldId` replaces (the id stays). */
  async save(body: Static<typeof SaveCustomFieldBody>) {
    const data = body.customFieldData;
    if (!/^[0-9a-zA-Z_-]+$/.test(data.field)) throw invalidParams('must match pattern "^[0-9a-zA-Z_-]+$"');
    if (data.label.trim() === '') throw failure('Invalid label', 'error-invalid-custom-field');
    const regexp = data.regexp ?? '';
    if (regexp !== '' && !acceptablePattern(regexp)) throw failure('Invalid regular expression', 'error-invalid-regexp');
    const type = data.type ?? 'input';
    const options = data.options ?? '';
    const defaultValue = data.defaultValue ?? '';
    if (type === 'select') {
      const list = optionsOf(options);
      if (list.length === 0 || (defaultValue !== '' && !list.includes(defaultValue))) throw failure('Invalid options', 'error-invalid-custom-field-options');
    }
    const field: CustomFieldRecord = {
      id: body.customFieldId ?? data.field,
      label: data.label.trim(),
      scope: data.scope,
      visibility: data.visibility,
      type,
      regexp,
      required: data.required ?? false,
      defaultValue,
      options,
      public: data.public ?? false,
      searchable: data.searchable ?? false,
      updatedAt: this.clock.now(),
    };
    if (body.customFieldId !== undefined) {
      const updated = await this.store.customFields.update(field);
      if (!updated) throw bareFailure('Custom Field Not found');
      return { customField: customFieldWire(updated) };
    }
    try {
      await this.store.customFields.insert(field);
    } catch (error) {
      if (error instanceof ConflictError) throw bareFailure('Custom Field already exists');
      throw error;
    }
    return { customField: customFieldWire(field) };
  }

  async remove(id: string): Promise<void> {
    if (!(await this.store.customFields.delete(id))) throw bareFailure('Custom field not found');
  }

  /** W7.2: visible, public visitor-scope fields, by label. */
  async forConfig(): Promise<Array<Static<typeof ConfigCustomField>>> {
    const all = await this.store.customFields.all();
    return all
      .filter((f) => f.scope === 'visitor' && f.visibility === 'visible' && f.public)
      .map((f) => {
        const options = optionsOf(f.options);
        return {
          _id: f.id,
          label: f.label,
          regexp: f.regexp,
          required: f.required,
          type: f.type,
          defaultValue: f.defaultValue === '' ? null : f.defaultValue,
          ...(options.length > 0 && { options }),
        };
      });
  }

  // ── W7.3 visitor routes ──

  /**
   * Checks every value against its definition (the first failure is the answer, nothing stored), then stores them in
   * one transaction: visitor scope on the visitor, room scope on the open room or, with none, kept for the next one.
   */
  async setValues(token: string, values: CustomValue[]): Promise<CustomValue[]> {
    const visitor = token === '' ? null : await this.store.visitors.findByToken(token);
    if (!visitor) throw bareFailure('invalid-token');
    const definitions = new Map((await this.store.customFields.all()).map((f) => [f.id, f]));
    const checked: Array<CustomValue & { field: CustomFieldRecord }> = [];
    for (const v of values) {
      const field = definitions.get(v.key);
      if (!field) throw bareFailure('invalid-custom-field');
      if (!valueAccepted(field, v.value)) throw bareFailure(`Invalid value for ${v.key} field`);
      checked.push(extend(v, { field }));
    }
    const now = this.clock.now();
    const result = await this.store.transaction(async (tx) => {
      await tx.visitors.lock(visitor.id);
      const current = await tx.visitors.findById(visitor.id);
      if (!current) return null;
      const room = await tx.livechatRooms.findOpenOfVisitor(visitor.id);
      const visitorData = { ...current.livechatData };
      const roomData = room ? { ...(room.livechatData ?? {}) } : { ...current.pendingRoomData };
      let visitorChanged = false;
      let roomChanged = false;
      for (const v of checked) {
        const target = v.field.scope === 'visitor' ? visitorData : roomData;
        if (!v.overwrite && Object.hasOwn(target, v.key) && target[v.key] !== '') continue;
        if (v.value === '') delete target[v.key];
        else target[v.key] = v.value;
        if (v.field.scope === 'visitor') visitorChanged = true;
        else roomChanged = true;
      }
      if (visitorChanged || (roomChanged && !room)) {
        const patch: VisitorPatch = {};
        if (visitorChanged) patch.livechatData = visitorData;
        if (roomChanged && !room) patch.pendingRoomData = roomData;
        await tx.visitors.update(visitor.id, patch, now);
      }
      let updatedRoom: LivechatRoom | null = null;
      if (roomChanged && room) updatedRoom = await tx.customFields.setRoomData(room.id, roomData, now);
      return { visitorChanged, room, updatedRoom, visitor: await tx.visitors.findById(visitor.id) };
    });
    if (!result) throw bareFailure('invalid-token');
    this.announce(result.visitor, result.visitorChanged ? result.room : null, result.updatedRoom);
    return values;
  }

  /** `visitorData` while the visitor has the open room (visitor scope), `rooms-changed` to its agent (room scope). */
  private announce(visitor: VisitorRecord | null, openRoom: LivechatRoom | null, updatedRoom: LivechatRoom | null): void {
    if (visitor && openRoom) this.events.publish({ type: 'visitorUpdated', visitorId: visitor.id, room: livechatSnapshot(openRoom) });
    if (updatedRoom) this.events.publish({ type: 'roomInfoChanged', room: livechatSnapshot(updatedRoom) });
  }

  async setValue(token: string, value: CustomValue) {
    await this.setValues(token, [value]);
    return { field: value };
  }

  async setMany(body: Static<typeof CustomValuesBody>) {
    const values = body.customFields.map((f) => ({ key: f.key, value: String(f.value), overwrite: f.overwrite }));
    await this.setValues(body.token, values);
    return { fields: values.map((v) => ({ Key: v.key, value: v.value, overwrite: v.overwrite })) };
  }
}
