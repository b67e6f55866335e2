/** Scales for the inline SVG charts (no chart library: a few pure functions). */
export interface LinearScale {
  (value: number): number;
  domain: [number, number];
  range: [number, number];
  ticks: number[];
}

/**
 * A "nice" step for about `count` ticks over [min, max]: 1, 2, 2.5 or 5 times a power of ten.
 */
export function niceStep(min: number, max: number, count: number): number {
  const span = Math.abs(max - min);
  if (span === 0 || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/** Ticks from 0 (or the floor of min) up to a nice maximum covering max. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (max <= min) max = min + 1;
  const step = niceStep(min, max, count);
  const start = Math.floor(min / step) * step;
  const end = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  // Rounded to the step's precision so 0.1 + 0.2 style drift never shows in labels.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  for (let value = start; value <= end + step / 2; value += step) ticks.push(Number(value.toFixed(decimals)));
  return ticks;
}

/**
 * Maps [min, max] of the data onto pixel range, the domain widened to nice ticks. A domain
 * without extent (all values equal, or no data) still maps into the range.
 */
export function linearScale(values: number[], range: [number, number], options: { zero?: boolean; ticks?: number } = {}): LinearScale {
  const finite = values.filter(Number.isFinite);
  let min = finite.length ? Math.min(...finite) : 0;
  const max = finite.length ? Math.max(...finite) : 1;
  if (options.zero !== false) min = Math.min(0, min);
  const ticks = niceTicks(min, max, options.ticks ?? 5);
  const domain: [number, number] = [ticks[0], ticks[ticks.length - 1]];
  const span = domain[1] - domain[0] || 1;
  const scale = ((value: number) => range[0] + ((value - domain[0]) / span) * (range[1] - range[0])) as LinearScale;
  scale.domain = domain;
  scale.range = range;
  scale.ticks = ticks;
  return scale;
}

export interface Band {
  start: number;
  width: number;
  center: number;
}

/** `count` equal bands over the range with `padding` (0..1) of each band left empty. */
export function bandScale(count: number, range: [number, number], padding = 0.2): (index: number) => Band {
  const step = count > 0 ? (range[1] - range[0]) / count : 0;
  const width = step * (1 - padding);
  return (index: number) => {
    const start = range[0] + index * step + (step - width) / 2;
    return { start, width, center: start + width / 2 };
  };
}

/** The `d` of an SVG path through the points; gaps (null) break the line. */
export function linePath(points: ({ x: number; y: number } | null)[]): string {
  let d = '';
  let drawing = false;
  for (const point of points) {
    if (!point) {
      drawing = false;
      continue;
    }
    d += `${drawing ? 'L' : 'M'}${round(point.x)},${round(point.y)}`;
    drawing = true;
  }
  return d;
}

const round = (value: number) => Math.round(value * 10) / 10;
