import type { Static } from '@sinclair/typebox';
import { failure, type ApiError } from './errors.js';
import type { SettingsService } from './settings.service.js';
import { parseJsonObject } from '../lib/values.js';
import type { ListQuery } from '../wire/common.js';

/** Raw list parameters as they arrive in the query string (contract §1.4): the request schema's type. */
export type PagingQuery = Static<typeof ListQuery>;

export type SortDirection = 1 | -1;

export interface Paging {
  offset: number;
  count: number;
  /** Sort keys in the order given; endpoints decide how many they accept. */
  sort: Array<[string, SortDirection]>;
  /** Field projection, or null for "all documented fields". */
  fields: Record<string, 0 | 1> | null;
}

/**
 * `Invalid sort parameter provided: "<raw>" [error-invalid-sort]`: the raw text
 * as sent, unescaped, as Rocket.Chat does (contract §1.4). For bad JSON or values
 * here, and for sort keys an endpoint does not support.
 */
export function invalidSort(raw: string | undefined): ApiError {
  return failure(`Invalid sort parameter provided: "${raw ?? ''}"`, 'error-invalid-sort');
}

/** Parses `sort`: a JSON object whose values are 1 or -1 (else `invalidSort`). */
export function parseSort(raw: string | undefined): Array<[string, SortDirection]> {
  if (raw === undefined || raw === '') return [];
  const error = () => invalidSort(raw);
  return Object.entries(parseJsonObject(raw, error)).map(([key, value]) => {
    if (value !== 1 && value !== -1) throw error();
    return [key, value];
  });
}

/** Parses `fields`: a JSON object whose values are 0 or 1. */
export function parseFields(raw: string | undefined): Record<string, 0 | 1> | null {
  if (raw === undefined || raw === '') return null;
  const error = () => failure(`Invalid fields parameter provided: "${raw}"`, 'error-invalid-fields');
  const parsed = parseJsonObject(raw, error);
  for (const value of Object.values(parsed)) if (value !== 0 && value !== 1) throw error();
  return parsed as Record<string, 0 | 1>;
}

/** offset/count/sort/fields with the settings' default and upper count limit applied. */
export function parsePaging(query: PagingQuery, settings: SettingsService): Paging {
  const upper = settings.get('API_Upper_Count_Limit');
  const requested = query.count ?? 0;
  const count = requested === 0 ? settings.get('API_Default_Count') : requested;
  return {
    offset: query.offset ?? 0,
    count: Math.min(count, upper),
    sort: parseSort(query.sort),
    fields: parseFields(query.fields),
  };
}

/**
 * Applies a `fields` projection to an entry. `_id` is always kept. Only keys the
 * entry already has can appear, so a projection never reveals more than the
 * endpoint exposes.
 */
export function project<T extends { _id: string }>(entry: T, fields: Record<string, 0 | 1> | null): Partial<T> & { _id: string } {
  if (!fields) return entry;
  const includes = Object.entries(fields).filter(([, v]) => v === 1).map(([k]) => k);
  const out: Record<string, unknown> = { _id: entry._id };
  if (includes.length > 0) {
    for (const key of includes) if (Object.hasOwn(entry, key)) out[key] = (entry as Record<string, unknown>)[key];
  } else {
    for (const [key, value] of Object.entries(entry)) if (fields[key] !== 0 || key === '_id') out[key] = value;
  }
  return out as Partial<T> & { _id: string };
}
