/** Pure text formatters of the dashboard: sizes, durations, times, truncation with an ellipsis, sparklines. */

/** `bytes` as B / KiB / MiB / GiB with one decimal (e.g. `512.0 MiB`); `-` when undefined. */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(1)} ${units[i]}`;
}

/** A duration in ms as the two largest units: `45s`, `3m 05s`, `2h 07m`, `3d 04h`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const p = (n: number) => String(n).padStart(2, '0');
  if (d > 0) return `${d}d ${p(h)}h`;
  if (h > 0) return `${h}h ${p(m)}m`;
  if (m > 0) return `${m}m ${p(sec)}s`;
  return `${sec}s`;
}

/** A time (ms since the epoch) as local `YYYY-MM-DD HH:MM:SS`; `-` when undefined. */
export function formatTime(ms: number | undefined): string {
  if (ms === undefined) return '-';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A time as local `HH:MM:SS` (log lines, "since"). */
export function formatClock(ms: number): string {
  return formatTime(ms).slice(11);
}

/** `text` cut to at most `width` characters, the last one an ellipsis when cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length <= width) return text;
  return width === 1 ? '…' : `${text.slice(0, width - 1)}…`;
}

/** `text` truncated or right-padded with spaces to exactly `width` characters (table columns). */
export function cell(text: string, width: number): string {
  return truncate(text, width).padEnd(width);
}

const BARS = '▁▂▃▄▅▆▇█';

/**
 * The last `width` values as a sparkline of block characters, scaled from 0 to `max` (default: the largest
 * value shown, so the shape is visible whatever the unit). Fewer values than `width`: left-padded with spaces.
 */
export function sparkline(values: readonly number[], width: number, max?: number): string {
  if (width <= 0) return '';
  const shown = values.slice(-width);
  const top = max ?? Math.max(0, ...shown);
  const bars = shown.map((v) => {
    if (!(top > 0) || !(v > 0)) return BARS[0];
    return BARS[Math.min(BARS.length - 1, Math.round((v / top) * (BARS.length - 1)))];
  });
  return bars.join('').padStart(width);
}

/** A CPU percentage with one decimal (`12.5%`). */
export function formatPercent(p: number | undefined): string {
  return p === undefined || !Number.isFinite(p) ? '-' : `${p.toFixed(1)}%`;
}
