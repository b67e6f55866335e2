import { useId } from 'react';
import { bandScale, linearScale } from './scale';

export interface BarItem {
  label: string;
  value: number;
}

const WIDTH = 640;
const ROW = 30;
const MARGIN = { top: 8, right: 96, bottom: 8, left: 160 };

/** Horizontal bars in inline SVG, each labelled with its value; largest first. */
export function BarChart({ title, items, format, emptyText = 'No data in this period.', tone = 1 }: { title: string; items: BarItem[]; format: (value: number) => string; emptyText?: string; tone?: 1 | 2 | 3 | 4 }) {
  const captionId = useId();
  const sorted = [...items].sort((a, b) => b.value - a.value);
  const height = MARGIN.top + MARGIN.bottom + Math.max(1, sorted.length) * ROW;
  const x = linearScale(sorted.map((item) => item.value), [MARGIN.left, WIDTH - MARGIN.right], { ticks: 4 });
  const band = bandScale(sorted.length, [MARGIN.top, height - MARGIN.bottom], 0.3);
  const summary = sorted.map((item) => `${item.label} ${format(item.value)}`).join(', ');
  return (
    <figure className="chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>{title}</figcaption>
      {sorted.length === 0 ? (
        <p className="empty-state">{emptyText}</p>
      ) : (
        <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={`${title}: ${summary}`}>
          {sorted.map((item, index) => {
            const b = band(index);
            const width = Math.max(1, x(item.value) - MARGIN.left);
            return (
              <g key={item.label} className={`bar tone-${tone}`}>
                <text className="bar-label" x={MARGIN.left - 8} y={b.center} dy="0.32em" textAnchor="end">
                  {item.label.length > 22 ? `${item.label.slice(0, 21)}…` : item.label}
                </text>
                <rect x={MARGIN.left} y={b.start} width={width} height={b.width} rx={3} />
                <text className="bar-value" x={MARGIN.left + width + 6} y={b.center} dy="0.32em">
                  {format(item.value)}
                </text>
              </g>
            );
          })}
        </svg>
      )}
    </figure>
  );
}
