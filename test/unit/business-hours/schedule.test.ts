/**
 * Business-hours evaluation (src/services/business-hours/schedule.ts, desk contract D1): intervals, split shifts,
 * overnight intervals, holidays, and DST changes in both directions, against instants written out by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  compile,
  instantOf,
  isOpen,
  isValidTimeZone,
  localTime,
  nextChange,
  nextOpening,
  offsetAt,
  parseDate,
  parseTime,
  toUtc,
  utcOffsetHours,
  type Holiday,
  type Weekday,
  type WorkHour,
} from '../../../src/services/business-hours/schedule.js';

const t = (isoString: string) => Date.parse(isoString);
const row = (day: Weekday, start: string, finish: string, open = true): WorkHour => ({ day, start, finish, open });
const weekdays: Weekday[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const schedule = (timezone: string, workHours: WorkHour[], holidays: Holiday[] = []) => compile({ timezone, workHours, holidays });

describe('parsing', () => {
  it('reads HH:mm and HH:mm:ss, 24:00 only as a finish, and real calendar dates only', () => {
    expect(parseTime('08:00')).toBe(8 * 3600);
    expect(parseTime('23:59:30')).toBe(86_370);
    expect(parseTime('24:00')).toBeNull();
    expect(parseTime('24:00', true)).toBe(86_400);
    for (const bad of ['8:00', '25:00', '12:60', '12:00:60', '', '12:00 ', 'noon']) expect(parseTime(bad, true)).toBeNull();
    expect(parseDate('2026-12-25')).toBe(Date.UTC(2026, 11, 25) / 86_400_000);
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-01', '26-01-01', '2026-02-29']) expect(parseDate(bad)).toBeNull();
    expect(parseDate('2028-02-29')).not.toBeNull();
  });

  it('knows the zones ICU knows', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(canonicalTimeZone('utc')).toBe('UTC');
  });
});

describe('time-zone arithmetic', () => {
  it('offsets and local times, half-hour zones included', () => {
    expect(offsetAt('Asia/Kolkata', t('2026-06-01T00:00:00Z'))).toBe(5.5 * 3600_000);
    expect(utcOffsetHours('Asia/Kolkata', t('2026-06-01T00:00:00Z'))).toBe('5.5');
    expect(utcOffsetHours('America/Sao_Paulo', t('2026-06-01T00:00:00Z'))).toBe('-3');
    expect(utcOffsetHours('UTC', t('2026-06-01T00:00:00Z'))).toBe('0');
    const local = localTime('America/New_York', t('2026-01-02T03:30:00Z'));
    expect(local).toEqual({ day: Date.UTC(2026, 0, 1) / 86_400_000, seconds: 22 * 3600 + 30 * 60 });
  });

  it('a skipped local time is the first instant after the gap; a repeated one its first occurrence', () => {
    const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);
    // Paris, 2026-03-29: 02:00 local jumps to 03:00 (01:00Z).
    expect(instantOf('Europe/Paris', day(2026, 3, 29) + 2.5 * 3600_000)).toBe(t('2026-03-29T01:00:00Z'));
    expect(instantOf('Europe/Paris', day(2026, 3, 29) + 3 * 3600_000)).toBe(t('2026-03-29T01:00:00Z'));
    expect(instantOf('Europe/Paris', day(2026, 3, 29) + 1.5 * 3600_000)).toBe(t('2026-03-29T00:30:00Z'));
    // Paris, 2026-10-25: 03:00 local goes back to 02:00 (01:00Z); 02:30 happens at 00:30Z and again at 01:30Z.
    expect(instantOf('Europe/Paris', day(2026, 10, 25) + 2.5 * 3600_000)).toBe(t('2026-10-25T00:30:00Z'));
    expect(instantOf('Europe/Paris', day(2026, 10, 25) + 3 * 3600_000)).toBe(t('2026-10-25T02:00:00Z'));
    // New York, 2026-03-08: 02:00 → 03:00 (07:00Z).
    expect(instantOf('America/New_York', day(2026, 3, 8) + 2 * 3600_000)).toBe(t('2026-03-08T07:00:00Z'));
    // Lord Howe moves by half an hour: 02:00 (UTC+10:30) → 02:30 on 2026-10-04, at 15:30Z the day before.
    expect(instantOf('Australia/Lord_Howe', day(2026, 10, 4) + 2.25 * 3600_000)).toBe(t('2026-10-03T15:30:00Z'));
  });

  it('UTC times of a local work hour at the current offset (shown, never used to decide)', () => {
    expect(toUtc('America/Sao_Paulo', 'Monday', 22 * 3600, t('2026-06-01T00:00:00Z'))).toEqual({ dayOfWeek: 'Tuesday', time: '01:00' });
    expect(toUtc('Asia/Kolkata', 'Sunday', 3600, t('2026-06-01T00:00:00Z'))).toEqual({ dayOfWeek: 'Saturday', time: '19:30' });
    expect(toUtc('UTC', 'Friday', 86_400, t('2026-06-01T00:00:00Z'))).toEqual({ dayOfWeek: 'Saturday', time: '00:00' });
  });
});

describe('open or closed', () => {
  // 2026-12-07 is a Monday.
  const office = schedule('Europe/Paris', weekdays.map((d) => row(d, '08:00', '20:00')));

  it('weekly intervals in the schedule zone: [start, finish)', () => {
    expect(isOpen(office, t('2026-12-07T06:59:59Z'))).toBe(false);
    expect(isOpen(office, t('2026-12-07T07:00:00Z'))).toBe(true); // 08:00 Paris (UTC+1)
    expect(isOpen(office, t('2026-12-07T18:59:59Z'))).toBe(true);
    expect(isOpen(office, t('2026-12-07T19:00:00Z'))).toBe(false); // 20:00 Paris
    expect(isOpen(office, t('2026-12-12T12:00:00Z'))).toBe(false); // Saturday
    // Summer: UTC+2.
    expect(isOpen(office, t('2026-07-06T06:00:00Z'))).toBe(true);
    expect(isOpen(office, t('2026-07-06T05:59:59Z'))).toBe(false);
  });

  it('split shifts; rows with open:false ignored; overlapping and touching intervals merge', () => {
    const s = schedule('UTC', [
      row('Monday', '09:00', '12:00'),
      row('Monday', '14:00', '18:00'),
      row('Monday', '11:00', '12:30'),
      row('Monday', '18:00', '19:00'),
      row('Tuesday', '09:00', '17:00', false),
    ]);
    expect(isOpen(s, t('2026-12-07T12:15:00Z'))).toBe(true);
    expect(isOpen(s, t('2026-12-07T13:00:00Z'))).toBe(false);
    expect(nextChange(s, t('2026-12-07T08:00:00Z'))).toBe(t('2026-12-07T09:00:00Z'));
    expect(nextChange(s, t('2026-12-07T10:00:00Z'))).toBe(t('2026-12-07T12:30:00Z'));
    expect(nextChange(s, t('2026-12-07T15:00:00Z'))).toBe(t('2026-12-07T19:00:00Z')); // 18:00 touches, no change
    expect(isOpen(s, t('2026-12-08T10:00:00Z'))).toBe(false);
    expect(nextOpening(s, t('2026-12-07T20:00:00Z'))).toBe(t('2026-12-14T09:00:00Z'));
  });

  it('an overnight interval crosses midnight, into the next weekday', () => {
    const s = schedule('America/New_York', [row('Friday', '22:00', '06:00')]);
    // Friday 2026-12-11 22:00 EST = Sat 03:00Z; ends Saturday 06:00 EST = 11:00Z.
    expect(isOpen(s, t('2026-12-12T02:59:59Z'))).toBe(false);
    expect(isOpen(s, t('2026-12-12T03:00:00Z'))).toBe(true);
    expect(isOpen(s, t('2026-12-12T05:00:00Z'))).toBe(true); // Saturday 00:00 local
    expect(isOpen(s, t('2026-12-12T10:59:59Z'))).toBe(true);
    expect(isOpen(s, t('2026-12-12T11:00:00Z'))).toBe(false);
    expect(nextChange(s, t('2026-12-12T04:00:00Z'))).toBe(t('2026-12-12T11:00:00Z'));
    // Sunday is closed.
    expect(isOpen(s, t('2026-12-13T05:00:00Z'))).toBe(false);
  });

  it('finish 24:00 is midnight; a whole week open never changes', () => {
    const s = schedule('UTC', [row('Monday', '20:00', '24:00'), row('Tuesday', '00:00', '02:00')]);
    expect(isOpen(s, t('2026-12-07T23:59:59Z'))).toBe(true);
    expect(isOpen(s, t('2026-12-08T00:00:00Z'))).toBe(true);
    expect(nextChange(s, t('2026-12-07T21:00:00Z'))).toBe(t('2026-12-08T02:00:00Z'));
    const always = schedule('Europe/Paris', (['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as Weekday[]).map((d) => row(d, '00:00', '24:00')));
    expect(isOpen(always, t('2026-10-25T01:30:00Z'))).toBe(true);
    expect(nextChange(always, t('2026-12-07T12:00:00Z'))).toBeNull();
    const never = schedule('UTC', [row('Monday', '09:00', '17:00', false)]);
    expect(isOpen(never, t('2026-12-07T12:00:00Z'))).toBe(false);
    expect(nextChange(never, t('2026-12-07T12:00:00Z'))).toBeNull();
    expect(nextOpening(never, t('2026-12-07T12:00:00Z'))).toBeNull();
  });

  it('holidays close the whole local date, or part of it, and the after-midnight tail of an overnight interval on it', () => {
    const s = schedule(
      'Europe/Paris',
      [...weekdays.map((d) => row(d, '08:00', '20:00')), row('Thursday', '22:00', '02:00')],
      [{ date: '2026-12-25', name: 'Christmas' }, { date: '2026-12-24', start: '12:00', finish: '24:00' }],
    );
    expect(isOpen(s, t('2026-12-24T10:00:00Z'))).toBe(true); // Thursday 11:00
    expect(isOpen(s, t('2026-12-24T11:00:00Z'))).toBe(false); // 12:00: the partial closure
    expect(isOpen(s, t('2026-12-24T22:30:00Z'))).toBe(false); // Thursday 23:30, still the 24th
    expect(isOpen(s, t('2026-12-24T23:30:00Z'))).toBe(false); // Friday 00:30: the overnight tail, on Christmas
    expect(isOpen(s, t('2026-12-25T09:00:00Z'))).toBe(false);
    expect(isOpen(s, t('2026-12-28T09:00:00Z'))).toBe(true); // next Monday
    expect(nextChange(s, t('2026-12-24T10:00:00Z'))).toBe(t('2026-12-24T11:00:00Z'));
    expect(nextOpening(s, t('2026-12-24T11:00:00Z'))).toBe(t('2026-12-28T07:00:00Z'));
    // The tail of the overnight interval of the evening before a holiday is closed only on the holiday's date.
    const tail = schedule('UTC', [row('Thursday', '22:00', '02:00')], [{ date: '2026-12-17' }]);
    expect(isOpen(tail, t('2026-12-17T23:00:00Z'))).toBe(false);
    expect(isOpen(tail, t('2026-12-18T01:00:00Z'))).toBe(true);
  });
});

describe('DST', () => {
  const office = schedule('Europe/Paris', weekdays.map((d) => row(d, '08:00', '20:00')));

  it('the same local hours move in UTC across the spring change, and the next change is found across it', () => {
    // Friday 2026-03-27 is UTC+1; Monday 2026-03-30 is UTC+2.
    expect(nextChange(office, t('2026-03-27T19:30:00Z'))).toBe(t('2026-03-30T06:00:00Z'));
    expect(isOpen(office, t('2026-03-27T07:00:00Z'))).toBe(true);
    expect(isOpen(office, t('2026-03-30T06:00:00Z'))).toBe(true);
    expect(isOpen(office, t('2026-03-30T05:59:59Z'))).toBe(false);
    expect(nextChange(office, t('2026-10-23T12:00:00Z'))).toBe(t('2026-10-23T18:00:00Z'));
    expect(nextChange(office, t('2026-10-23T18:00:00Z'))).toBe(t('2026-10-26T07:00:00Z'));
  });

  it('an interval starting in the spring gap opens at the first instant after it; one ending in it closes there', () => {
    // Sunday 2026-03-29 in Paris: 02:00–03:00 does not exist.
    const s = schedule('Europe/Paris', [row('Sunday', '02:30', '05:00'), row('Saturday', '23:00', '02:30')]);
    expect(isOpen(s, t('2026-03-28T22:00:00Z'))).toBe(true); // Saturday 23:00 (UTC+1)
    expect(isOpen(s, t('2026-03-29T00:59:59Z'))).toBe(true); // 01:59:59 local
    expect(isOpen(s, t('2026-03-29T01:00:00Z'))).toBe(true); // 03:00 CEST: both boundaries resolve here, one interval
    expect(isOpen(s, t('2026-03-29T02:59:59Z'))).toBe(true);
    expect(isOpen(s, t('2026-03-29T03:00:00Z'))).toBe(false); // 05:00 CEST
    expect(nextChange(s, t('2026-03-28T22:00:00Z'))).toBe(t('2026-03-29T03:00:00Z'));
  });

  it('an overnight interval across the autumn change lasts an hour longer; a repeated time is its first occurrence', () => {
    // Saturday 2026-10-24 22:00 CEST (20:00Z) to Sunday 06:00 CET (05:00Z): nine hours.
    const overnight = schedule('Europe/Paris', [row('Saturday', '22:00', '06:00')]);
    expect(isOpen(overnight, t('2026-10-24T19:59:59Z'))).toBe(false);
    expect(isOpen(overnight, t('2026-10-24T20:00:00Z'))).toBe(true);
    expect(isOpen(overnight, t('2026-10-25T04:59:59Z'))).toBe(true);
    expect(nextChange(overnight, t('2026-10-24T20:00:00Z'))).toBe(t('2026-10-25T05:00:00Z'));
    // 02:30 happens twice that night (00:30Z and 01:30Z): a shift ending at 02:30 ends at the first.
    const ending = schedule('Europe/Paris', [row('Sunday', '01:00', '02:30')]);
    expect(isOpen(ending, t('2026-10-25T00:29:59Z'))).toBe(true);
    expect(isOpen(ending, t('2026-10-25T00:30:00Z'))).toBe(false);
    expect(isOpen(ending, t('2026-10-25T01:15:00Z'))).toBe(false); // 02:15 the second time
    // One starting at 02:30 starts at the first and stays open through the repeated hour.
    const starting = schedule('Europe/Paris', [row('Sunday', '02:30', '04:00')]);
    expect(isOpen(starting, t('2026-10-25T00:30:00Z'))).toBe(true);
    expect(isOpen(starting, t('2026-10-25T01:10:00Z'))).toBe(true); // 02:10 the second time
    expect(nextChange(starting, t('2026-10-25T00:30:00Z'))).toBe(t('2026-10-25T03:00:00Z'));
  });

  it('an overnight interval across the spring change in New York lasts an hour less', () => {
    // Saturday 2026-03-07 22:00 EST (03:00Z Sunday) to Sunday 06:00 EDT (10:00Z).
    const s = schedule('America/New_York', [row('Saturday', '22:00', '06:00')]);
    expect(isOpen(s, t('2026-03-08T03:00:00Z'))).toBe(true);
    expect(isOpen(s, t('2026-03-08T07:30:00Z'))).toBe(true); // 03:30 EDT, just after the gap
    expect(nextChange(s, t('2026-03-08T03:00:00Z'))).toBe(t('2026-03-08T10:00:00Z'));
  });
});
