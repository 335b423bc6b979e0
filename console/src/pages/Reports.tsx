/**
 * The Reports page (DESK.md D8): a period and a time zone, the business-hours variant, the KPI tiles (count, mean,
 * median, p90 of queue wait, first response, resolution and CSAT), charts by day drawn with uPlot, each with its
 * numbers as a table, and the conversations' CSV. Loaded only when opened, and uPlot with its first chart, so the
 * first screen's script does not carry the charts; where uPlot cannot run, the tables remain. Monitors see their
 * departments only: the API scopes every figure.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './reports.css';
import { usePermissions } from '../api/data.js';
import type { ReportMetrics, ReportSnapshot } from '../api/types.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';
import {
  csatSeries,
  currentZoneName,
  DURATION_METRICS,
  durationSeries,
  formatAxisDuration,
  formatCsat,
  formatDuration,
  groupRows,
  kpis,
  PAGE_METRICS,
  periodRange,
  reportQuery,
  volumeSeries,
  weekGrid,
  WEEKDAYS,
  zoneChoices,
  type DailySeries,
  type Period,
} from '../lib/reports.js';

/** The series' colours (the legend's swatches are the same, in reports.css). */
const COLORS = ['#1d5fbf', '#b3541e', '#2e7d32'];
const PERIODS: Array<[string, string]> = [
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
  ['range', 'Dates…'],
];

function browserZone(): string {
  try {
    return currentZoneName(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  } catch {
    return 'UTC';
  }
}

/** uPlot, loaded with the first chart; null when it cannot run here (the tables beside the charts still say it all). */
let chartLibrary: Promise<typeof uPlot | null> | null = null;
function loadChartLibrary(): Promise<typeof uPlot | null> {
  chartLibrary ??= import('uplot').then(
    (m) => m.default,
    () => null,
  );
  return chartLibrary;
}

/** One uPlot chart of daily series; the canvas is hidden from assistive technology (the table beside it says it all). */
function DailyChart({ data, format, steps }: { data: DailySeries; format: (v: number) => string; steps: number[] }) {
  const axisFormat = format === formatDuration ? formatAxisDuration : format;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    const width = () => Math.max(280, el.clientWidth);
    void loadChartLibrary().then((UPlot) => {
      if (!UPlot || cancelled) return;
      const chart = new UPlot(
        {
          width: width(),
          height: 220,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
          axes: [{ stroke: '#4a5058', grid: { stroke: '#e3e6ea' } }, { stroke: '#4a5058', grid: { stroke: '#e3e6ea' }, size: 84, incrs: steps, values: (_u, splits) => splits.map(axisFormat) }],
          series: [{}, ...data.series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2, points: { show: true, size: 5 }, spanGaps: false }))],
        },
        [data.x, ...data.series.map((s) => s.values)] as uPlot.AlignedData,
        el,
      );
      plot = chart;
      observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => chart.setSize({ width: width(), height: 220 })) : null;
      observer?.observe(el);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [data, axisFormat, steps]);
  return <div className="chart-canvas" ref={box} aria-hidden="true" />;
}

function Legend({ data }: { data: DailySeries }) {
  return (
    <ul className="chart-legend" aria-hidden="true">
      {data.series.map((s, i) => (
        <li key={s.label}>
          <span className={`swatch swatch-${i % COLORS.length}`} /> {s.label}
        </li>
      ))}
    </ul>
  );
}

/** A chart card: heading, legend, chart and the same numbers as a table (collapsed). */
function ChartCard({
  title,
  help,
  data,
  format,
  counts,
  countLabel,
  steps,
}: {
  title: string;
  help?: string;
  data: DailySeries;
  format: (v: number) => string;
  counts?: number[];
  countLabel?: string;
  /** The y axis' tick steps (whole seconds, whole counts or tenths of a rating). */
  steps: number[];
}) {
  const id = useId();
  return (
    <section className="card chart-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {help && <p className="muted small">{help}</p>}
      <Legend data={data} />
      <DailyChart data={data} format={format} steps={steps} />
      <details>
        <summary>Show the numbers by day</summary>
        {/* Focusable: a keyboard user can scroll a long table. */}
        <div className="table-scroll" tabIndex={0} role="region" aria-label={`${title}: the numbers by day`}>
          <table>
            <caption className="visually-hidden">{title} by day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {counts && <th scope="col">{countLabel ?? 'Count'}</th>}
                {data.series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.days.map((day, i) => (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  {counts && <td>{counts[i]}</td>}
                  {data.series.map((s) => (
                    <td key={s.label}>{s.values[i] === null ? '–' : format(s.values[i]!)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}


/** The desk now (`reports.snapshot`), re-read every 10 s. */
function DeskStrip() {
  const { api } = useConsole();
  const snapshot = useQuery({
    queryKey: ['reports', 'snapshot'],
    queryFn: () => api<ReportSnapshot>('livechat/reports.snapshot'),
    refetchInterval: 10_000,
  });
  const s = snapshot.data;
  const items: Array<[string, string]> = s
    ? [
        ['Waiting', String(s.queued)],
        ['Unassigned', String(s.unassigned)],
        ['Open', String(s.open)],
        ['On hold', String(s.onHold)],
        ['Longest wait', formatDuration(s.longestWaitSeconds)],
        ['Agents available', String(s.agents.available)],
        ['Agents busy', String(s.agents.busy)],
        ['Agents away or off', String(s.agents.unavailable)],
      ]
    : [];
  return (
    <section className="card desk-strip" aria-labelledby="desk-now">
      <h2 id="desk-now">The desk now</h2>
      {snapshot.error ? (
        <p className="error" role="alert">
          {errorText(snapshot.error)}
        </p>
      ) : (
        <dl>
          {items.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

/** Conversations started per local hour of the week: a table whose cells are shaded by count. */
function WeekGrid({ data }: { data: ReportMetrics }) {
  const grid = weekGrid(data.groups);
  return (
    <section className="card week-grid" aria-labelledby="week-grid-title">
      <h2 id="week-grid-title">Conversations by hour of the week</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Conversations by hour of the week">
        <table>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Day</span>
              </th>
              {grid[0]!.map((_, h) => (
                <th scope="col" key={h}>
                  {String(h).padStart(2, '0')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.map((row, d) => (
              <tr key={WEEKDAYS[d]}>
                <th scope="row">{WEEKDAYS[d]!.slice(0, 3)}</th>
                {row.map((cell, h) => (
                  <td key={h} className={`heat-${cell.level}`}>
                    {cell.count === 0 ? '' : cell.count}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The Closed chats page filtered to an agent or a department and the period's days (the drill-down). */
function closedChatsLink(by: 'agent' | 'department', id: string, period: { firstDay: string; lastDay: string }): string {
  const params = new URLSearchParams({ from: period.firstDay, to: period.lastDay, [by === 'agent' ? 'agentId' : 'departmentId']: id });
  return `/closed?${params}`;
}

/** Per-agent or per-department figures; a name opens the closed chats behind them. */
function GroupTable({ data, by, period }: { data: ReportMetrics; by: 'agent' | 'department'; period: { firstDay: string; lastDay: string } }) {
  const rows = groupRows(data.groups, by);
  const title = by === 'agent' ? 'By agent' : 'By department';
  return (
    <section className="card group-table" aria-labelledby={`group-${by}`}>
      <h2 id={`group-${by}`}>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">Nothing in this period.</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={title}>
          <table>
            <thead>
              <tr>
                <th scope="col">{by === 'agent' ? 'Agent' : 'Department'}</th>
                {by === 'department' && <th scope="col">Started</th>}
                <th scope="col">Closed</th>
                {by === 'department' && <th scope="col">Missed</th>}
                <th scope="col">First response (median)</th>
                <th scope="col">First response (p90)</th>
                <th scope="col">Resolution (median)</th>
                <th scope="col">CSAT (answers)</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">
                    {r.key === '' ? (
                      r.name
                    ) : (
                      <Link href={closedChatsLink(by, r.key, period)} title="Open the closed chats">
                        {r.name}
                      </Link>
                    )}
                  </th>
                  {by === 'department' && <td>{r.conversations}</td>}
                  <td>{r.closed}</td>
                  {by === 'department' && <td>{r.missed}</td>}
                  <td>{r.firstResponseMedian}</td>
                  <td>{r.firstResponseP90}</td>
                  <td>{r.resolutionMedian}</td>
                  <td>{r.csat}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const countFormat = (v: number) => String(Math.round(v * 10) / 10);
/** Tick steps: whole counts; whole seconds up to days; a rating's halves. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];
const SECOND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 21_600, 43_200, 86_400, 172_800, 604_800];
const RATING_STEPS = [0.5, 1];
const csatFormat = (v: number) => formatCsat(v);

export function ReportsPage() {
  const { api, creds } = useConsole();
  const can = usePermissions();
  const zoneDefault = useMemo(browserZone, []);
  const zones = useMemo(() => zoneChoices(zoneDefault), [zoneDefault]);
  const [periodChoice, setPeriodChoice] = useState('30');
  const today = new Date().toISOString().slice(0, 10);
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [zone, setZone] = useState(zoneDefault);
  const [businessHours, setBusinessHours] = useState(false);
  const [download, setDownload] = useState<{ kind: 'error' | 'status'; text: string } | null>(null);

  const period: Period = periodChoice === 'range' ? { kind: 'range', from, to } : { kind: 'last', days: Number(periodChoice) };
  const range = useMemo(() => periodRange(period, zone, Date.now()), [periodChoice, from, to, zone]);
  const query = reportQuery(range, zone, businessHours);
  const allowed = can.ready && can('view-livechat-reports');

  const metrics = useQuery({
    queryKey: ['reports', 'metrics', query],
    enabled: allowed,
    queryFn: () => api<ReportMetrics>('livechat/reports.metrics', { query: { ...query, groupBy: 'day', metrics: [...PAGE_METRICS] } }),
  });
  const grouped = (groupBy: 'hourOfWeek' | 'agent' | 'department') => ({
    queryKey: ['reports', groupBy, query],
    enabled: allowed,
    queryFn: () => api<ReportMetrics>('livechat/reports.metrics', { query: { ...query, groupBy, metrics: [...PAGE_METRICS] } }),
  });
  const byHour = useQuery(grouped('hourOfWeek'));
  const byAgent = useQuery(grouped('agent'));
  const byDepartment = useQuery(grouped('department'));

  async function downloadCsv() {
    setDownload({ kind: 'status', text: 'Preparing the CSV…' });
    try {
      const params = new URLSearchParams(query);
      const res = await fetch(`/api/v1/livechat/reports.export?${params}`, {
        headers: creds ? { 'x-user-id': creds.userId, 'x-auth-token': creds.authToken } : {},
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        throw new Error(body.error ?? `The export failed (${res.status}).`);
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'conversations.csv';
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setDownload({ kind: 'status', text: `Downloaded ${name}.` });
    } catch (e) {
      setDownload({ kind: 'error', text: errorText(e) });
    }
  }

  if (!can.ready) return <p aria-busy="true">Loading…</p>;
  if (!allowed) {
    return (
      <section className="page">
        <h1>Reports</h1>
        <p>You do not have permission to view reports.</p>
      </section>
    );
  }

  const data = metrics.data;
  return (
    <section className="page reports">
      <h1>Reports</h1>
      <form className="card report-controls" aria-label="Report period" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="report-period">Period</label>
          <select id="report-period" value={periodChoice} onChange={(e) => setPeriodChoice(e.target.value)}>
            {PERIODS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {periodChoice === 'range' && (
          <>
            <div className="field">
              <label htmlFor="report-from">From</label>
              <input id="report-from" type="date" value={from} max={to} onChange={(e) => e.target.value && setFrom(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="report-to">To</label>
              <input id="report-to" type="date" value={to} min={from} onChange={(e) => e.target.value && setTo(e.target.value)} />
            </div>
          </>
        )}
        <div className="field">
          <label htmlFor="report-zone">Time zone</label>
          <select id="report-zone" value={zone} onChange={(e) => setZone(e.target.value)}>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </div>
        <label className="check" htmlFor="report-bh">
          <input id="report-bh" type="checkbox" checked={businessHours} onChange={(e) => setBusinessHours(e.target.checked)} /> Business hours only
        </label>
        <button type="button" className="small" onClick={() => void downloadCsv()}>
          Download CSV
        </button>
      </form>
      <DeskStrip />
      <p className="muted" aria-live="polite">
        {range.firstDay === range.lastDay ? range.firstDay : `${range.firstDay} to ${range.lastDay}`} in {zone}
        {businessHours ? ', durations counted inside business hours' : ''}.
      </p>
      {download && (
        <p className={download.kind === 'error' ? 'error' : 'muted'} role={download.kind === 'error' ? 'alert' : 'status'}>
          {download.text}
        </p>
      )}
      {metrics.error && (
        <p className="error" role="alert">
          {errorText(metrics.error)}
        </p>
      )}
      {!data ? (
        !metrics.error && <p aria-busy="true">Loading…</p>
      ) : (
        <>
          <ul className="kpis" aria-label="Totals">
            <li className="card kpi">
              <h2>Conversations</h2>
              <p className="kpi-value">{data.totals.conversations?.count ?? 0}</p>
              <p className="muted small">
                {data.totals.closed?.count ?? 0} closed, {data.totals.missed?.count ?? 0} missed
              </p>
            </li>
            {kpis(data.totals).map((k) => (
              <li className="card kpi" key={k.id}>
                <h2>{k.label}</h2>
                <p className="kpi-value">{k.median}</p>
                <dl className="kpi-stats">
                  <div>
                    <dt>Median</dt>
                    <dd>{k.median}</dd>
                  </div>
                  <div>
                    <dt>p90</dt>
                    <dd>{k.p90}</dd>
                  </div>
                  <div>
                    <dt>Mean</dt>
                    <dd>{k.mean}</dd>
                  </div>
                  <div>
                    <dt>Count</dt>
                    <dd>{k.count}</dd>
                  </div>
                  {k.score !== undefined && (
                    <div>
                      <dt>4 or 5</dt>
                      <dd>{k.score}</dd>
                    </div>
                  )}
                </dl>
              </li>
            ))}
          </ul>
          <div className="chart-grid">
            <ChartCard title="Conversations per day" data={volumeSeries(data.groups)} format={countFormat} steps={COUNT_STEPS} />
            {DURATION_METRICS.map((m) => {
              const series = durationSeries(data.groups, m.id);
              return <ChartCard key={m.id} title={`${m.label} by day`} help={m.help} data={series} counts={series.counts} countLabel="Samples" format={formatDuration} steps={SECOND_STEPS} />;
            })}
            {(() => {
              const series = csatSeries(data.groups);
              return <ChartCard title="CSAT by day" help="The mean rating (1–5) of the answers given that day." data={series} counts={series.counts} countLabel="Answers" format={csatFormat} steps={RATING_STEPS} />;
            })()}
          </div>
          {byHour.data && <WeekGrid data={byHour.data} />}
          {byAgent.data && <GroupTable data={byAgent.data} by="agent" period={range} />}
          {byDepartment.data && <GroupTable data={byDepartment.data} by="department" period={range} />}
        </>
      )}
    </section>
  );
}
