import { useId } from 'react';
import { bandScale, linearScale, linePath } from './scale';

export interface Series {
  name: string;
  /** One value per label; null is a gap (no data in that period). */
  values: (number | null)[];
  tone: 1 | 2 | 3 | 4;
}

const MARGIN = { top: 12, right: 16, bottom: 28, left: 64 };

/**
 * A line chart in inline SVG. The figure carries a text summary for screen readers and the
 * numbers as a table below (collapsed).
 */
export function LineChart({ title, labels, series, format, width = 640, height = 240 }: { title: string; labels: string[]; series: Series[]; format: (value: number) => string; width?: number; height?: number }) {
  const captionId = useId();
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const y = linearScale(all, [height - MARGIN.bottom, MARGIN.top], { ticks: 4 });
  const band = bandScale(labels.length, [MARGIN.left, width - MARGIN.right], 0);
  const every = Math.max(1, Math.ceil(labels.length / 8));
  const summary = series.map((s) => `${s.name} up to ${all.length ? format(Math.max(0, ...s.values.filter((v): v is number => v !== null))) : 'no data'}`).join(', ');
  return (
    <figure className="chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}: ${summary}`} preserveAspectRatio="xMidYMid meet">
        {y.ticks.map((tick) => (
          <g key={tick} className="grid">
            <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} />
            <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end">
              {format(tick)}
            </text>
          </g>
        ))}
        {labels.map((label, index) =>
          index % every === 0 ? (
            <text key={`${label}-${index}`} className="axis-label" x={band(index).center} y={height - 8} textAnchor="middle">
              {label}
            </text>
          ) : null,
        )}
        {series.map((s) => (
          <g key={s.name} className={`series tone-${s.tone}`}>
            <path d={linePath(s.values.map((v, i) => (v === null ? null : { x: band(i).center, y: y(v) })))} fill="none" />
            {s.values.map((v, i) => (v === null ? null : <circle key={i} cx={band(i).center} cy={y(v)} r={3} />))}
          </g>
        ))}
      </svg>
      <ul className="legend">
        {series.map((s) => (
          <li key={s.name} className={`tone-${s.tone}`}>
            {s.name}
          </li>
        ))}
      </ul>
      <details className="chart-data">
        <summary>Data table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Period</th>
              {series.map((s) => (
                <th key={s.name} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, index) => (
              <tr key={`${label}-${index}`}>
                <th scope="row">{label}</th>
                {series.map((s) => (
                  <td key={s.name}>{s.values[index] === null ? '—' : format(s.values[index] as number)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
