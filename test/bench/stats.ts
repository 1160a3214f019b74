/** Median of `xs` (ms); NaN for an empty list. */
export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The p-th percentile (0..100) by nearest rank. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** `median (min-max)` in ms with one decimal below 100 ms. */
export function fmt(xs: number[]): string {
  const f = (x: number) => (x < 100 ? x.toFixed(1) : x.toFixed(0));
  return `${f(median(xs))} (${f(Math.min(...xs))}-${f(Math.max(...xs))})`;
}
