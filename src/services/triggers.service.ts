/**
 * Widget triggers (WIDGET.md W6): the managers' REST and what `livechat/config` lists. Triggers run in the visitor's
 * browser only; the server keeps them and checks what would break the widget (a `page-url` pattern that does not
 * compile throws there and stops every trigger).
 */
import type { Static } from '@sinclair/typebox';
import { newId } from '../lib/ids.js';
import { iso, type Clock } from '../lib/time.js';
import type { Store, TriggerAction, TriggerCondition, TriggerRecord } from '../store/store.js';
import { failure } from './errors.js';
import { invalidSort, parsePaging } from './paging.js';
import type { SettingsService } from './settings.service.js';
import type { ConfigTrigger, SaveTriggerBody, Trigger, TriggersQuery } from '../wire/widget.js';

export type TriggerWire = Static<typeof Trigger>;
export type ConfigTriggerWire = Static<typeof ConfigTrigger>;

/** The longest `send-message` text (W6.2). */
const MAX_MESSAGE = 1000;
/** The longest `time-on-site`, in seconds (a day). */
const MAX_TIME_ON_SITE = 86_400;

export function triggerWire(t: TriggerRecord): TriggerWire {
  return {
    _id: t.id,
    name: t.name,
    description: t.description,
    enabled: t.enabled,
    runOnce: t.runOnce,
    conditions: t.conditions.map((c) => ({ name: c.name, value: c.value })),
    actions: t.actions.map((a) => ({ name: a.name, ...(a.params && { params: a.params }) })),
    _updatedAt: iso(t.updatedAt),
  };
}

/** W6.1: an enabled trigger as the widget gets it, its `send-message` actions only. */
export function configTriggerWire(t: TriggerRecord): ConfigTriggerWire {
  return {
    _id: t.id,
    actions: t.actions.filter((a) => a.name === 'send-message').map((a) => ({ name: a.name, ...(a.params && { params: a.params }) })),
    conditions: t.conditions.map((c) => ({ name: c.name, value: c.value })),
    runOnce: t.runOnce,
  };
}

/** Whether `value` compiles as the widget compiles it (`new RegExp(value, "g")`). */
function compiles(value: string): boolean {
  try {
    new RegExp(value, 'g');
    return true;
  } catch {
    return false;
  }
}

function invalidCondition(name: string) {
  return failure(`Invalid value for condition ${name}`, 'error-invalid-trigger-condition');
}

function invalidAction(name: string) {
  return failure(`Invalid parameters for action ${name}`, 'error-invalid-trigger-action');
}

/** The conditions as stored (numbers as strings), or the W6.2 refusal. */
export function checkConditions(conditions: Static<typeof SaveTriggerBody>['conditions']): TriggerCondition[] {
  return conditions.map(({ name, value }) => {
    const text = value === undefined || value === null ? null : String(value);
    if (name === 'page-url' && (text === null || !compiles(text))) throw invalidCondition(name);
    if (name === 'time-on-site' && (text === null || !/^\d{1,5}$/.test(text.trim()) || Number(text) > MAX_TIME_ON_SITE)) throw invalidCondition(name);
    return { name, value: name === 'time-on-site' && text !== null ? String(Number(text)) : text };
  });
}

/** The actions as stored (every parameter a string), or the W6.2 refusal. */
export function checkActions(actions: Static<typeof SaveTriggerBody>['actions']): TriggerAction[] {
  return actions.map(({ name, params }) => {
    const stored: Record<string, string> = {};
    for (const [key, value] of Object.entries(params ?? {})) stored[key] = String(value);
    if (name === 'send-message') {
      const msg = stored.msg ?? '';
      if (msg.trim() === '' || msg.length > MAX_MESSAGE) throw invalidAction(name);
      if (stored.sender !== 'queue' && stored.sender !== 'custom') throw invalidAction(name);
      if (stored.sender === 'custom' && (stored.name ?? '').trim() === '') throw invalidAction(name);
    }
    return { name, params: stored };
  });
}

export class TriggersService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  /** `GET livechat/triggers`: by name (`sort` `{name: ±1}` only). */
  async list(query: Static<typeof TriggersQuery>) {
    const paging = parsePaging(query, this.settings);
    if (paging.sort.length > 1 || (paging.sort[0] && paging.sort[0][0] !== 'name')) throw invalidSort(query.sort);
    const descending = paging.sort[0]?.[1] === -1;
    const { triggers, total } = await this.store.triggers.list({ offset: paging.offset, count: paging.count, descending });
    return { triggers: triggers.map(triggerWire), count: triggers.length, offset: paging.offset, total };
  }

  /** `GET livechat/triggers/:_id`: `{trigger: null}` when unknown (RC). */
  async get(id: string) {
    const trigger = await this.store.triggers.findById(id);
    return { trigger: trigger ? triggerWire(trigger) : null };
  }

  /** `POST livechat/triggers`: creates, or with `_id` replaces; answers the saved trigger (Parley rule). */
  async save(body: Static<typeof SaveTriggerBody>) {
    if (body.name.trim() === '') throw failure("Name can't be empty", 'error-invalid-name');
    const conditions = checkConditions(body.conditions);
    const actions = checkActions(body.actions);
    const trigger: TriggerRecord = {
      id: body._id ?? newId(),
      name: body.name.trim(),
      description: body.description ?? '',
      enabled: body.enabled ?? true,
      runOnce: body.runOnce ?? false,
      conditions,
      actions,
      updatedAt: this.clock.now(),
    };
    if (body._id !== undefined) {
      if (!(await this.store.triggers.update(trigger))) throw failure('Trigger not found', 'error-trigger-not-found');
    } else {
      await this.store.triggers.insert(trigger);
    }
    return { trigger: triggerWire(trigger) };
  }

  /** `DELETE livechat/triggers/:_id`: success also when unknown (RC). */
  async remove(id: string): Promise<void> {
    await this.store.triggers.delete(id);
  }

  /** W6.1: `config.triggers`. */
  async forConfig(): Promise<ConfigTriggerWire[]> {
    const enabled = await this.store.triggers.listEnabled();
    return enabled.filter((t) => t.actions.some((a) => a.name === 'send-message')).map(configTriggerWire);
  }
}
