/**
 * Wire objects of the widget's triggers, custom fields, data removal and page trail (WIDGET.md W6–W9).
 */
import { Type } from '@sinclair/typebox';
import { PagingQuery, StringEnum, Text, TextRecord, Timestamp } from './common.js';

const Opt = Type.Optional;

/** A number a client may send where RC takes one for a string (stored as its text): finite and bounded. */
const Num = () => Type.Number({ minimum: -1e15, maximum: 1e15 });

// ── W6 triggers ──

export const TriggerCondition = Type.Object({ name: Type.String(), value: Type.Union([Type.String(), Type.Null()]) });
export const TriggerAction = Type.Object({ name: Type.String(), params: Opt(Type.Record(Type.String(), Type.String())) });

/** A trigger (RC's `ILivechatTrigger`). */
export const Trigger = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  enabled: Type.Boolean(),
  runOnce: Type.Boolean(),
  conditions: Type.Array(TriggerCondition),
  actions: Type.Array(TriggerAction),
  _updatedAt: Timestamp,
});

/** A trigger as `livechat/config` lists it (W6.1). */
export const ConfigTrigger = Type.Object({
  _id: Type.String(),
  actions: Type.Array(TriggerAction),
  conditions: Type.Array(TriggerCondition),
  runOnce: Type.Boolean(),
});

const Scalar = Type.Union([Text({ maxLength: 10_000 }), Num(), Type.Boolean()]);

/** `POST livechat/triggers` (RC 8.8's body; `_id` updates). */
export const SaveTriggerBody = Type.Object({
  _id: Opt(Text()),
  name: Text({ maxLength: 200 }),
  description: Opt(Text({ maxLength: 1000 })),
  enabled: Opt(Type.Boolean()),
  runOnce: Opt(Type.Boolean()),
  conditions: Type.Array(
    Type.Object({
      name: StringEnum(['time-on-site', 'page-url', 'chat-opened-by-visitor', 'after-guest-registration']),
      value: Opt(Type.Union([Text({ maxLength: 1000 }), Num(), Type.Null()])),
    }),
    { minItems: 1, maxItems: 10 },
  ),
  actions: Type.Array(
    Type.Object({
      name: StringEnum(['send-message', 'use-external-service']),
      params: Opt(TextRecord(Scalar, { maxProperties: 20 })),
    }),
    { minItems: 1, maxItems: 10 },
  ),
});

export const TriggersQuery = Type.Object({ ...PagingQuery });

// ── W7 custom fields ──

/** A custom-field definition (W7.1; RC's `ILivechatCustomField`). */
export const CustomField = Type.Object({
  _id: Type.String(),
  label: Type.String(),
  scope: StringEnum(['visitor', 'room']),
  visibility: StringEnum(['visible', 'hidden']),
  type: StringEnum(['input', 'select']),
  regexp: Type.String(),
  required: Type.Boolean(),
  defaultValue: Type.String(),
  options: Type.String(),
  public: Type.Boolean(),
  searchable: Type.Boolean(),
  _updatedAt: Timestamp,
});

/** A custom field as `livechat/config` lists it (W7.2). */
export const ConfigCustomField = Type.Object({
  _id: Type.String(),
  label: Type.String(),
  regexp: Type.String(),
  required: Type.Boolean(),
  type: Type.String(),
  defaultValue: Type.Union([Type.String(), Type.Null()]),
  options: Opt(Type.Array(Type.String())),
});

export const CustomFieldsQuery = Type.Object({ ...PagingQuery, text: Opt(Text()) });

/** `POST livechat/custom-fields.save`. */
export const SaveCustomFieldBody = Type.Object({
  customFieldId: Opt(Text()),
  customFieldData: Type.Object({
    /** `^[0-9a-zA-Z_-]+$` (checked by the service: request strings keep the NUL-free pattern). */
    field: Text({ minLength: 1, maxLength: 50 }),
    label: Text({ maxLength: 200 }),
    scope: StringEnum(['visitor', 'room']),
    visibility: StringEnum(['visible', 'hidden']),
    type: Opt(StringEnum(['input', 'select'])),
    regexp: Opt(Text({ maxLength: 10_000 })),
    required: Opt(Type.Boolean()),
    defaultValue: Opt(Text({ maxLength: 1000 })),
    options: Opt(Text({ maxLength: 10_000 })),
    public: Opt(Type.Boolean()),
    searchable: Opt(Type.Boolean()),
  }),
});

export const DeleteCustomFieldBody = Type.Object({ customFieldId: Text() });

const CustomValue = Type.Union([Text({ maxLength: 100_000 }), Num(), Type.Boolean()]);

/** `POST livechat/custom.field` (no auth). */
export const CustomValueBody = Type.Object({ token: Text(), key: Text(), value: CustomValue, overwrite: Type.Boolean() });

/** `POST livechat/custom.fields` (no auth). */
export const CustomValuesBody = Type.Object({
  token: Text(),
  customFields: Type.Array(Type.Object({ key: Text(), value: CustomValue, overwrite: Type.Boolean() }), { minItems: 1, maxItems: 50 }),
});

// ── W8 removal ──

export const RemoveVisitorBody = Type.Object({ visitorId: Text() });

// ── W9 page trail ──

/** One page of the trail as agents read it (`livechat/visitors.pagesVisited`): no token. */
export const PageVisited = Type.Object({
  _id: Type.String(),
  ts: Timestamp,
  msg: Type.String(),
  title: Type.String(),
  href: Type.String(),
  change: Type.String(),
  rid: Type.Union([Type.String(), Type.Null()]),
  navigation: Type.Object({
    page: Type.Object({ change: Type.String(), title: Type.String(), location: Type.Object({ href: Type.String() }) }),
  }),
});

export const PagesVisitedQuery = Type.Object({ ...PagingQuery });

// ── W6.3 ──

export const AgentNextQuery = Type.Object({ department: Opt(Text()) });
