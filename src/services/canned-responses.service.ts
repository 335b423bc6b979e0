/**
 * Canned responses (DESK.md D4) on Rocket.Chat's endpoints, with the access rule of D4 on every path: V (who
 * reads) and W (who writes) are the named checks of `Access`, and the store lists only the visible set, so a filter
 * (`?departmentId=`, `?scope=`) can narrow what a caller sees but never widen it. The server expands nothing in the
 * text: the console does, on insertion.
 */
import type { Static } from '@sinclair/typebox';
import { newId } from '../lib/ids.js';
import { iso, type Clock } from '../lib/time.js';
import { ConflictError } from '../store/errors.js';
import type { CannedFilter, CannedResponseFields, CannedResponseRecord, CannedScope, CannedSortKey, Store, UserRecord } from '../store/store.js';
import type { Access, CannedFacts } from './access.js';
import { ApiError, failure, invalidParams } from './errors.js';
import type { EventBus } from '../events/event-bus.js';
import { invalidSort, parsePaging } from './paging.js';
import type { SettingsService } from './settings.service.js';
import type { CannedResponse, CannedResponsesQuery, SaveCannedResponseBody } from '../wire/desk.js';

export type CannedResponseWire = Static<typeof CannedResponse>;

/** The sort keys of `GET canned-responses` (wire name → store key). */
const SORT_KEYS: Record<string, CannedSortKey> = { shortcut: 'shortcut', scope: 'scope', _createdAt: 'createdAt', _updatedAt: 'updatedAt' };

const SHORTCUT = /^\S{1,50}$/u;

export function cannedResponseWire(r: CannedResponseRecord): CannedResponseWire {
  return {
    _id: r.id,
    shortcut: r.shortcut,
    text: r.text,
    scope: r.scope,
    tags: r.tags,
    ...(r.userId !== null && { userId: r.userId }),
    ...(r.departmentId !== null && { departmentId: r.departmentId }),
    createdBy: { _id: r.createdBy.id, username: r.createdBy.username },
    _createdAt: iso(r.createdAt),
    _updatedAt: iso(r.updatedAt),
  };
}

const facts = (r: CannedFacts): CannedFacts => ({ scope: r.scope, userId: r.userId, departmentId: r.departmentId });

const notFound = () => failure('Canned Response not found', 'error-canned-response-not-found');

/** D4's refusal when W fails, named by the scope it failed on. */
function notAllowed(scope: CannedScope): ApiError {
  if (scope === 'user') return failure('Not allowed', 'error-not-allowed');
  return failure(`Not allowed to modify canned responses on *${scope}* scope`, 'error-not-allowed');
}

export class CannedResponsesService {
  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  /** `Canned_Responses_Enable` off: every D4 endpoint refuses (the stream too: `enabled`). */
  private assertEnabled(): void {
    if (!this.enabled) throw failure('Canned responses are disabled', 'error-canned-responses-disabled');
  }

  get enabled(): boolean {
    return this.settings.get('Canned_Responses_Enable');
  }

  /** `GET canned-responses.get`: every response the caller sees, by shortcut. */
  async all(caller: UserRecord) {
    this.assertEnabled();
    const visibility = await this.access.cannedVisibility(caller);
    const { responses } = await this.store.cannedResponses.list(visibility, {}, {
      offset: 0,
      count: Number.MAX_SAFE_INTEGER,
      sort: { key: 'shortcut', direction: 'asc' },
    });
    return { responses: responses.map(cannedResponseWire) };
  }

  /** `GET canned-responses`: the visible set narrowed by the filters, paged (§1.4), default `{shortcut: 1}`. */
  async list(caller: UserRecord, query: Static<typeof CannedResponsesQuery>) {
    this.assertEnabled();
    const paging = parsePaging(query, this.settings);
    if (paging.sort.length > 1) throw invalidSort(query.sort);
    const [sortKey, direction] = paging.sort[0] ?? ['shortcut', 1];
    const key = Object.hasOwn(SORT_KEYS, sortKey) ? SORT_KEYS[sortKey] : undefined;
    if (!key) throw invalidSort(query.sort);
    const filter: CannedFilter = {};
    if (query.shortcut !== undefined && query.shortcut.trim() !== '') filter.shortcut = query.shortcut.trim();
    if (query.text) filter.text = query.text;
    if (query.scope) filter.scope = query.scope;
    if (query.tags) filter.tags = query.tags.filter((tag) => tag !== '');
    if (query.departmentId) filter.departmentId = query.departmentId;
    if (query.createdBy) filter.createdBy = query.createdBy;
    const visibility = await this.access.cannedVisibility(caller);
    const { responses, total } = await this.store.cannedResponses.list(visibility, filter, {
      offset: paging.offset,
      count: paging.count,
      sort: { key, direction: direction === 1 ? 'asc' : 'desc' },
    });
    return { cannedResponses: responses.map(cannedResponseWire), count: responses.length, offset: paging.offset, total };
  }

  /** `GET canned-responses/:_id`: unknown or invisible → 404 `Resource not found`. */
  async get(caller: UserRecord, id: string) {
    this.assertEnabled();
    const found = await this.visible(caller, id);
    if (!found) throw new ApiError(404, { success: false, error: 'Resource not found' });
    return { cannedResponse: cannedResponseWire(found) };
  }

  /** The response when the caller sees it (V), else null. */
  private async visible(caller: UserRecord, id: string): Promise<CannedResponseRecord | null> {
    const found = await this.store.cannedResponses.findById(id);
    if (!found) return null;
    return this.access.seesCannedResponse(await this.access.cannedVisibility(caller), found) ? found : null;
  }

  /**
   * `POST canned-responses`: creates, or with `_id` updates (W on the response as stored and as it will be, so a
   * scope change needs both). Refusals in order: invalid input, not found or invisible, W, bad department, taken
   * shortcut (unique within its scope: among globals, per department, per owner).
   */
  async save(caller: UserRecord, input: Static<typeof SaveCannedResponseBody>) {
    this.assertEnabled();
    const shortcut = input.shortcut.trim();
    if (!SHORTCUT.test(shortcut)) throw invalidParams('The "shortcut" must be 1 to 50 characters without whitespace');
    if (input.text.trim() === '') throw invalidParams('The "text" must not be blank');
    let existing: CannedResponseRecord | null = null;
    if (input._id !== undefined) {
      existing = await this.visible(caller, input._id);
      if (!existing) throw notFound();
      if (!(await this.access.writesCannedResponse(caller, existing))) throw notAllowed(existing.scope);
    }
    const departmentId = input.scope === 'department' ? (input.departmentId ?? '') : null;
    // A user response keeps its owner on update; a new one (or one moved into the user scope) is the caller's.
    const userId = input.scope === 'user' ? (existing?.scope === 'user' ? existing.userId : caller.id) : null;
    const fields: CannedResponseFields = {
      shortcut,
      text: input.text,
      scope: input.scope,
      tags: [...new Set((input.tags ?? []).map((tag) => tag.trim()).filter((tag) => tag !== ''))],
      userId,
      departmentId,
    };
    if (!(await this.access.writesCannedResponse(caller, fields))) throw notAllowed(fields.scope);
    if (departmentId !== null && (departmentId === '' || !(await this.store.departments.findById(departmentId)))) {
      throw failure('Invalid department', 'error-invalid-department');
    }
    const now = this.clock.now();
    let saved: CannedResponseRecord | null;
    try {
      saved = existing
        ? await this.store.cannedResponses.update(existing.id, fields, now)
        : await this.store.cannedResponses.insert({
            id: newId(),
            ...fields,
            createdBy: { id: caller.id, username: caller.username ?? '' },
            createdAt: now,
            updatedAt: now,
          });
    } catch (error) {
      if (error instanceof ConflictError && error.isOn('canned_responses', 'shortcut_key')) {
        throw failure('Shortcut provided already exists', 'error-invalid-shortcut');
      }
      throw error;
    }
    if (!saved) throw notFound(); // removed concurrently
    const wire = cannedResponseWire(saved);
    this.events.publish({ type: 'cannedResponseChanged', action: 'changed', response: wire, facts: facts(saved), ...(existing && { previous: facts(existing) }) });
    return { cannedResponse: wire };
  }

  /** `DELETE canned-responses/:_id` (route: also `remove-canned-responses`): not found or invisible, then W. */
  async remove(caller: UserRecord, id: string) {
    this.assertEnabled();
    const existing = await this.visible(caller, id);
    if (!existing) throw notFound();
    if (!(await this.access.writesCannedResponse(caller, existing))) throw notAllowed(existing.scope);
    if (!(await this.store.cannedResponses.delete(existing.id))) throw notFound();
    this.events.publish({ type: 'cannedResponseChanged', action: 'removed', response: cannedResponseWire(existing), facts: facts(existing) });
    return {};
  }

  /** The stream's subscribe rule: canned responses on and `view-canned-responses`. */
  maySubscribe(caller: Pick<UserRecord, 'roles'>): boolean {
    return this.enabled && this.access.hasPermission(caller, 'view-canned-responses');
  }

  /** The stream's delivery rule (D4's V), for one event and one user. */
  async mayReceive(caller: UserRecord, response: CannedFacts): Promise<boolean> {
    if (!this.maySubscribe(caller)) return false;
    return this.access.seesCannedResponse(await this.access.cannedVisibility(caller), response);
  }
}
