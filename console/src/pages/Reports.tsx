/**
 * The Reports page (DESK.md D8): a period and a time zone, the business-hours variant, the KPI tiles (count, mean,
 * median, p90 of queue wait, first response, resolution and CSAT), charts by day drawn with uPlot, each with its
 * numbers as a table, and the conversations' CSV. Loaded only when opened (with uPlot), so the first screen's
 * script does not carry the charts. Monitors see their departments only: the API scopes every figure.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './reports.css';
import { usePermissions } from '../api/data.js';
import type { ReportMetrics } from '../api/types.js';
import { useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';
import {
  csatSeries,
  DURATION_METRICS,
  durationSeries,
  formatCsat,
  formatDuration,
  kpis,
  PAGE_METRICS,
  periodRange,
  reportQuery,
  volumeSeries,
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
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** One uPlot chart of daily series; the canvas is hidden from assistive technology (the table beside it says it all). */
function DailyChart({ data, format }: { data: DailySeries; format: (v: number) => string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(280, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 220,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
        axes: [{ stroke: '#4a5058', grid: { stroke: '#e3e6ea' } }, { stroke: '#4a5058', grid: { stroke: '#e3e6ea' }, size: 84, values: (_u, splits) => splits.map(format) }],
        series: [{}, ...data.series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2, points: { show: true, size: 5 }, spanGaps: false }))],
      },
      [data.x, ...data.series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => plot.setSize({ width: width(), height: 220 })) : null;
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      plot.destroy();
    };
  }, [data, format]);
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
}: {
  title: string;
  help?: string;
  data: DailySeries;
  format: (v: number) => string;
  counts?: number[];
  countLabel?: string;
}) {
  const id = useId();
  return (
    <section className="card chart-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {help && <p className="muted small">{help}</p>}
      <Legend data={data} />
      <DailyChart data={data} format={format} />
      <details>
        <summary>Show the numbers by day</summary>
        <div className="table-scroll">
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

const countFormat = (v: number) => String(Math.round(v * 10) / 10);
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
            <ChartCard title="Conversations per day" data={volumeSeries(data.groups)} format={countFormat} />
            {DURATION_METRICS.map((m) => {
              const series = durationSeries(data.groups, m.id);
              return <ChartCard key={m.id} title={`${m.label} by day`} help={m.help} data={series} counts={series.counts} countLabel="Samples" format={formatDuration} />;
            })}
            {(() => {
              const series = csatSeries(data.groups);
              return <ChartCard title="CSAT by day" help="The mean rating (1–5) of the answers given that day." data={series} counts={series.counts} countLabel="Answers" format={csatFormat} />;
            })()}
          </div>
        </>
      )}
    </section>
  );
}
