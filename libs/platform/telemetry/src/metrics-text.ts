/**
 * Reading the Prometheus text exposition the services serve on /metrics (the benchmark and
 * tests read figures back from it).
 */

/** One sample of a Prometheus text exposition: its labels and value. */
export interface MetricSample {
  labels: Record<string, string>;
  value: number;
}

/** The samples of metric `name` in a Prometheus text exposition (a service's /metrics). */
export function metricSamples(text: string, name: string): MetricSample[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => {
      const match = /^[^{\s]+(?:\{(.*)\})?\s+(\S+)$/.exec(line)!;
      const labels: Record<string, string> = {};
      for (const pair of (match[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
      return { labels, value: Number(match[2]) };
    });
}

/** The sum of metric `name` over its samples whose labels include `labels`. */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  return metricSamples(text, name)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}
