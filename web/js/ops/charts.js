// The operator page's charts (uPlot, served by this server from its npm package): the forecast
// as bars with the rate line, lateness over time with the objective line, outcomes stacked per
// hour. Each chart fills its box's width and redraws when the window is resized.
import uPlot from '../../vendor/uplot.js';

const COLORS = {
  bar: '#3a6ea5',
  warn: '#c0392b',
  rate: '#e67e22',
  p50: '#3a6ea5',
  p95: '#8e44ad',
  max: '#95a5a6',
  objective: '#c0392b',
  confirmed: '#2e8b57',
  unconfirmed: '#e6b422',
  missed: '#e67e22',
  failed: '#c0392b',
  cancelled: '#95a5a6',
};

const secs = (ms) => ms / 1000;
const epoch = (iso) => Date.parse(iso) / 1000;

/** Makes a chart in `box` that follows the box's width; returns a function that removes it. */
function chart(box, opts, data) {
  const width = () => Math.max(280, box.clientWidth || 600);
  const plot = new uPlot({ ...opts, width: width(), height: opts.height || 220 }, data, box);
  const onResize = () => plot.setSize({ width: width(), height: opts.height || 220 });
  window.addEventListener('resize', onResize);
  return () => {
    window.removeEventListener('resize', onResize);
    plot.destroy();
  };
}

const bars = (size) => uPlot.paths.bars({ size: [0.8, size], align: 0 });
const axes = (yLabel) => [
  { stroke: '#555', grid: { stroke: '#eee' } },
  { stroke: '#555', grid: { stroke: '#eee' }, label: yLabel, size: 50 },
];

/** Calls due per minute (bars, warnings in red) and the most the rate places in a minute. */
export function forecastChart(box, f) {
  const x = f.minutes.map((m) => epoch(m.minute));
  const ok = f.minutes.map((m) => (m.warning ? null : m.calls));
  const warn = f.minutes.map((m) => (m.warning ? m.calls : null));
  const series = [
    {},
    {
      label: 'Calls due',
      stroke: COLORS.bar,
      fill: COLORS.bar,
      paths: bars(12),
      points: { show: false },
    },
    {
      label: 'Ring late (warning)',
      stroke: COLORS.warn,
      fill: COLORS.warn,
      paths: bars(12),
      points: { show: false },
    },
  ];
  const data = [x, ok, warn];
  if (f.calls_per_second !== null) {
    series.push({
      label: `Rate: ${f.calls_per_second * 60}/min`,
      stroke: COLORS.rate,
      width: 2,
      dash: [6, 4],
      points: { show: false },
    });
    data.push(x.map(() => f.calls_per_second * 60));
  }
  return chart(box, { series, axes: axes('calls / min'), legend: { live: false } }, data);
}

/** p50, p95 and max lateness per minute (seconds), and the objective. */
export function latenessChart(box, l) {
  const x = l.minutes.map((m) => epoch(m.minute));
  const data = [
    x,
    l.minutes.map((m) => secs(m.requested.p50_ms)),
    l.minutes.map((m) => secs(m.requested.p95_ms)),
    l.minutes.map((m) => secs(m.requested.max_ms)),
    x.map(() => l.objective.seconds),
  ];
  const series = [
    {},
    { label: 'p50', stroke: COLORS.p50, width: 2 },
    { label: 'p95', stroke: COLORS.p95, width: 2 },
    { label: 'max', stroke: COLORS.max, width: 1 },
    {
      label: `Objective ${l.objective.seconds} s`,
      stroke: COLORS.objective,
      width: 2,
      dash: [6, 4],
      points: { show: false },
    },
  ];
  return chart(box, { series, axes: axes('seconds late'), legend: { live: false } }, data);
}

const OUTCOMES = ['confirmed', 'unconfirmed', 'missed', 'failed', 'cancelled'];

/** Outcomes per hour, stacked: each bar is drawn at its running total, the tallest first. */
export function outcomesChart(box, o) {
  const x = o.hours.map((hr) => epoch(hr.hour));
  const totals = OUTCOMES.map((_, i) =>
    o.hours.map((hr) => OUTCOMES.slice(i).reduce((n, k) => n + hr.outcomes[k], 0)),
  );
  // totals[i] = outcomes i..end: the bar of outcome i is drawn from 0 to totals[i], under the
  // ones before it, so what shows of it is its own count.
  const series = [
    {},
    ...OUTCOMES.map((k) => ({
      label: k,
      stroke: COLORS[k],
      fill: COLORS[k],
      paths: bars(28),
      points: { show: false },
    })),
  ];
  const data = [x, ...totals.map((t) => t.map((v) => (v === 0 ? null : v)))];
  return chart(box, { series, axes: axes('calls / hour'), legend: { live: false } }, data);
}
