/**
 * Business hours (desk contract D1): the default schedule and one per department (time zone, several intervals a
 * day, overnight ones, holidays with optional times), with whether each is open now and when that changes.
 * Outside hours the widget shows its offline form and new chats wait for the opening.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useDepartments } from '../api/data.js';
import type { BusinessHour, BusinessHourSave } from '../api/types.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
type Day = (typeof DAYS)[number];

interface Interval {
  day: Day;
  start: string;
  finish: string;
}

interface HolidayDraft {
  date: string;
  name: string;
  start: string;
  finish: string;
}

interface Draft {
  name: string;
  active: boolean;
  timezone: string;
  intervals: Interval[];
  holidays: HolidayDraft[];
  departments: string[];
}

const TIME_PATTERN = '([01][0-9]|2[0-3]):[0-5][0-9]';
const FINISH_PATTERN = '(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)';

const zones = (): string[] => {
  const supported = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  return supported ? supported('timeZone') : ['UTC'];
};

function draftOf(bh: BusinessHour | null): Draft {
  if (!bh) {
    return {
      name: '',
      active: true,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
      intervals: DAYS.slice(0, 5).map((day) => ({ day, start: '09:00', finish: '17:00' })),
      holidays: [],
      departments: [],
    };
  }
  return {
    name: bh.name,
    active: bh.active,
    timezone: bh.timezone.name,
    intervals: bh.workHours.filter((w) => w.open).map((w) => ({ day: w.day as Day, start: w.start.time, finish: w.finish.time })),
    holidays: bh.holidays.map((h) => ({ date: h.date, name: h.name ?? '', start: h.start ?? '', finish: h.finish ?? '' })),
    departments: (bh.departments ?? []).map((d) => d._id),
  };
}

function bodyOf(draft: Draft, bh: BusinessHour | null, type: 'default' | 'custom'): BusinessHourSave {
  return {
    ...(bh && { _id: bh._id }),
    name: draft.name.trim(),
    active: draft.active,
    type,
    timezoneName: draft.timezone,
    workHours: draft.intervals.map((i) => ({ day: i.day, start: i.start, finish: i.finish, open: true })),
    holidays: draft.holidays.map((h) => ({
      date: h.date,
      ...(h.name.trim() && { name: h.name.trim() }),
      ...(h.start && h.finish && { start: h.start, finish: h.finish }),
    })),
    ...(type === 'custom' && { departmentsToApplyBusinessHour: draft.departments.join(',') }),
  };
}

function ScheduleForm({ bh, type, onDone }: { bh: BusinessHour | null; type: 'default' | 'custom'; onDone: () => void }) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const departments = useDepartments(type === 'custom');
  const [draft, setDraft] = useState<Draft>(() => draftOf(bh));
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => api('livechat/business-hours.save', { method: 'POST', body: bodyOf(draft, bh, type) }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['business-hours'] });
      onDone();
    },
    onError: (e) => setError(errorText(e)),
  });
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const setInterval = (n: number, patch: Partial<Interval>) => set('intervals', draft.intervals.map((i, k) => (k === n ? { ...i, ...patch } : i)));
  const setHoliday = (n: number, patch: Partial<HolidayDraft>) => set('holidays', draft.holidays.map((h, k) => (k === n ? { ...h, ...patch } : h)));
  const prefix = bh?._id ?? `new-${type}`;
  const label = type === 'default' ? 'Default schedule' : bh ? `Schedule ${bh.name}` : 'New schedule';

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    save.mutate();
  }

  return (
    <form className="card form-grid" onSubmit={submit} aria-label={`Edit ${label}`}>
      {type === 'custom' && (
        <>
          <label htmlFor={`${prefix}-name`}>Name</label>
          <input id={`${prefix}-name`} required value={draft.name} onChange={(e) => set('name', e.target.value)} autoFocus />
        </>
      )}
      <label htmlFor={`${prefix}-zone`}>Time zone</label>
      <input id={`${prefix}-zone`} list={`${prefix}-zones`} required value={draft.timezone} onChange={(e) => set('timezone', e.target.value)} />
      <datalist id={`${prefix}-zones`}>
        {zones().map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <label className="check">
        <input type="checkbox" checked={draft.active} onChange={(e) => set('active', e.target.checked)} /> Active (an inactive schedule is always open)
      </label>
      <fieldset>
        <legend>Opening hours</legend>
        <p className="muted small">Several intervals a day are split shifts; a finish before the start runs overnight into the next day; 24:00 is midnight.</p>
        {draft.intervals.length === 0 && <p className="muted small">No intervals: always closed.</p>}
        <ul className="bh-rows" aria-label="Intervals">
          {draft.intervals.map((interval, n) => (
            <li key={n}>
              <label htmlFor={`${prefix}-day-${n}`} className="visually-hidden">
                Day of interval {n + 1}
              </label>
              <select id={`${prefix}-day-${n}`} value={interval.day} onChange={(e) => setInterval(n, { day: e.target.value as Day })}>
                {DAYS.map((d) => (
                  <option key={d}>{d}</option>
                ))}
              </select>
              <label htmlFor={`${prefix}-start-${n}`}>from</label>
              <input id={`${prefix}-start-${n}`} required size={5} pattern={TIME_PATTERN} placeholder="HH:mm" value={interval.start} onChange={(e) => setInterval(n, { start: e.target.value })} />
              <label htmlFor={`${prefix}-finish-${n}`}>to</label>
              <input id={`${prefix}-finish-${n}`} required size={5} pattern={FINISH_PATTERN} placeholder="HH:mm" value={interval.finish} onChange={(e) => setInterval(n, { finish: e.target.value })} />
              <button type="button" className="ghost small" aria-label={`Remove interval ${n + 1}`} onClick={() => set('intervals', draft.intervals.filter((_, k) => k !== n))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="ghost small" onClick={() => set('intervals', [...draft.intervals, { day: 'Monday', start: '09:00', finish: '17:00' }])}>
          Add interval
        </button>
      </fieldset>
      <fieldset>
        <legend>Holidays</legend>
        <p className="muted small">Closed the whole date, or only between the times given.</p>
        <ul className="bh-rows" aria-label="Holidays">
          {draft.holidays.map((h, n) => (
            <li key={n}>
              <label htmlFor={`${prefix}-hdate-${n}`}>Date</label>
              <input id={`${prefix}-hdate-${n}`} type="date" required value={h.date} onChange={(e) => setHoliday(n, { date: e.target.value })} />
              <label htmlFor={`${prefix}-hname-${n}`}>Name</label>
              <input id={`${prefix}-hname-${n}`} value={h.name} onChange={(e) => setHoliday(n, { name: e.target.value })} />
              <label htmlFor={`${prefix}-hstart-${n}`}>from</label>
              <input id={`${prefix}-hstart-${n}`} size={5} pattern={TIME_PATTERN} placeholder="all day" value={h.start} onChange={(e) => setHoliday(n, { start: e.target.value })} />
              <label htmlFor={`${prefix}-hfinish-${n}`}>to</label>
              <input id={`${prefix}-hfinish-${n}`} size={5} pattern={FINISH_PATTERN} placeholder="all day" value={h.finish} onChange={(e) => setHoliday(n, { finish: e.target.value })} />
              <button type="button" className="ghost small" aria-label={`Remove holiday ${n + 1}`} onClick={() => set('holidays', draft.holidays.filter((_, k) => k !== n))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="ghost small" onClick={() => set('holidays', [...draft.holidays, { date: '', name: '', start: '', finish: '' }])}>
          Add holiday
        </button>
      </fieldset>
      {type === 'custom' && (
        <fieldset>
          <legend>Departments</legend>
          {(departments.data ?? []).length === 0 && <p className="muted small">No departments yet.</p>}
          {(departments.data ?? []).map((d) => (
            <label key={d._id} className="check">
              <input
                type="checkbox"
                checked={draft.departments.includes(d._id)}
                onChange={(e) => set('departments', e.target.checked ? [...draft.departments, d._id] : draft.departments.filter((x) => x !== d._id))}
              />{' '}
              {d.name}
            </label>
          ))}
        </fieldset>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary small" disabled={save.isPending}>
          Save hours
        </button>
        <button type="button" className="ghost small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function summary(bh: BusinessHour): string {
  const state = !bh.active ? 'Inactive (always open)' : bh.openNow ? 'Open now' : 'Closed now';
  const change = bh.nextChangeAt ? ` · ${bh.openNow ? 'closes' : 'opens'} ${new Date(bh.nextChangeAt).toLocaleString()}` : '';
  return `${state}${change} · ${bh.timezone.name}`;
}

/** A boolean or choice setting, read and saved through `settings/:_id`. */
function useSetting<T>(id: string) {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['setting', id], queryFn: async () => (await api<{ value: T }>(`settings/${id}`)).value });
  const save = useMutation({
    mutationFn: (value: T) => api(`settings/${id}`, { method: 'POST', body: { value } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['setting', id] }),
  });
  return { value: query.data, save: (value: T) => save.mutate(value) };
}

export function BusinessHoursPage() {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const enabled = useSetting<boolean>('Livechat_enable_business_hours');
  const mode = useSetting<'Single' | 'Multiple'>('Livechat_business_hour_type');
  const list = useQuery({
    queryKey: ['business-hours'],
    queryFn: async () => (await api<{ businessHours: BusinessHour[] }>('livechat/business-hours', { query: { count: 100 } })).businessHours,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api('livechat/business-hours.remove', { method: 'POST', body: { _id: id, type: 'custom' } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['business-hours'] }),
    onError: (e) => setError(errorText(e)),
  });
  const schedules = list.data ?? [];
  const defaultSchedule = schedules.find((s) => s.type === 'default') ?? null;
  const custom = schedules.filter((s) => s.type === 'custom');

  return (
    <section className="page" aria-labelledby="bh-title">
      <h1 id="bh-title">Business hours</h1>
      <p className="muted">Outside business hours the widget shows its offline form, and chats opened anyway wait in the queue and go to an agent at the opening.</p>
      <div className="card form-grid">
        <label className="check">
          <input id="bh-enabled" type="checkbox" checked={enabled.value === true} onChange={(e) => enabled.save(e.target.checked)} /> Use business hours
        </label>
        <label className="check">
          <input id="bh-multiple" type="checkbox" checked={mode.value === 'Multiple'} onChange={(e) => mode.save(e.target.checked ? 'Multiple' : 'Single')} /> Departments may have schedules of their own
        </label>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <h2>Default schedule</h2>
      {defaultSchedule &&
        (editing === defaultSchedule._id ? (
          <ScheduleForm bh={defaultSchedule} type="default" onDone={() => setEditing(null)} />
        ) : (
          <div className="list-item">
            <div className="list-main">
              <span className="list-title">Default</span>
              <span className="list-preview wrap" data-testid="default-summary">
                {summary(defaultSchedule)}
              </span>
            </div>
            <div className="list-side actions">
              <button type="button" className="ghost small" onClick={() => setEditing(defaultSchedule._id)} aria-label="Edit the default schedule">
                Edit
              </button>
            </div>
          </div>
        ))}
      <h2>Department schedules</h2>
      {mode.value !== 'Multiple' && <p className="muted small">Department schedules apply once departments may have schedules of their own.</p>}
      {editing === 'new' ? (
        <ScheduleForm bh={null} type="custom" onDone={() => setEditing(null)} />
      ) : (
        <button type="button" className="primary small" onClick={() => setEditing('new')}>
          New schedule
        </button>
      )}
      <ul className="list" aria-label="Department schedules">
        {custom.map((s) =>
          editing === s._id ? (
            <li key={s._id}>
              <ScheduleForm bh={s} type="custom" onDone={() => setEditing(null)} />
            </li>
          ) : (
            <li key={s._id} className="list-item">
              <div className="list-main">
                <span className="list-title">{s.name}</span>
                <span className="list-preview wrap">
                  {summary(s)}
                  {(s.departments ?? []).length > 0 ? ` · ${(s.departments ?? []).map((d) => d.name).join(', ')}` : ' · no departments'}
                </span>
              </div>
              <div className="list-side actions">
                <button type="button" className="ghost small" onClick={() => setEditing(s._id)} aria-label={`Edit ${s.name}`}>
                  Edit
                </button>
                <button type="button" className="ghost small" onClick={() => window.confirm(`Remove the schedule ${s.name}?`) && remove.mutate(s._id)} aria-label={`Remove ${s.name}`}>
                  Remove
                </button>
              </div>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}

/**
 * For the Departments page: each department's hours as a short text ("closed until …"), while business hours are
 * on; a department follows its own schedule in `Multiple` mode, else the default.
 */
export function useDepartmentHours(): (departmentId: string) => string | null {
  const { api } = useConsole();
  const enabled = useSetting<boolean>('Livechat_enable_business_hours');
  const mode = useSetting<'Single' | 'Multiple'>('Livechat_business_hour_type');
  const list = useQuery({
    queryKey: ['business-hours'],
    enabled: enabled.value === true,
    queryFn: async () => (await api<{ businessHours: BusinessHour[] }>('livechat/business-hours', { query: { count: 100 } })).businessHours,
  });
  return (departmentId) => {
    if (enabled.value !== true || !list.data) return null;
    const own = mode.value === 'Multiple' ? list.data.find((s) => s.type === 'custom' && s.active && (s.departments ?? []).some((d) => d._id === departmentId)) : undefined;
    const schedule = own ?? list.data.find((s) => s.type === 'default');
    if (!schedule || !schedule.active) return null;
    if (schedule.openNow) return 'open now';
    return schedule.nextChangeAt ? `closed until ${new Date(schedule.nextChangeAt).toLocaleString()}` : 'closed';
  };
}
