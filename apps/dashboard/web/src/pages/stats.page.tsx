import { BarChart } from '../charts/bar-chart';
import { LineChart } from '../charts/line-chart';
import { ErrorMessage, Loading, PageHeader } from '../components/feedback';
import { SelectField } from '../components/fields';
import { formatMs, formatNumber, formatPercent, formatScore, formatUsd } from '../lib/format';
import { href } from '../lib/router';
import { bucketLabel, statsBuckets, STATS_WINDOWS } from '../lib/stats-buckets';
import type { Stats } from '../lib/types';
import { useApp } from '../state/app-context';
import { useAsync } from '../state/use-async';
import { navigate } from '../state/use-route';
import { NoProject } from './no-project';

/** Runs `tasks` at most `limit` at a time (the over-time charts ask one range per point). */
async function limited<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

export function StatsPage({ query }: { query: Record<string, string> }) {
  const { api, project } = useApp();
  const selected = STATS_WINDOWS.find((w) => String(w.hours) === query.window) ?? STATS_WINDOWS[1];
  const stats = useAsync(
    async (signal) => {
      if (!project) return undefined;
      const buckets = statsBuckets(selected, new Date());
      const [total, series] = await Promise.all([
        api.stats({ project_id: project.id, window: selected.hours }, signal),
        limited(
          buckets.map((bucket) => () => api.stats({ project_id: project.id, start_date: bucket.start, end_date: bucket.end }, signal)),
          4,
        ),
      ]);
      return { total, series, labels: buckets.map((bucket) => bucketLabel(bucket, selected.hours)) };
    },
    [project?.id, selected.hours],
  );
  if (!project) return <NoProject title="Statistics" />;

  return (
    <section aria-labelledby="page-title">
      <PageHeader title={`Statistics: ${project.name}`}>
        <SelectField label="Window" name="window" value={String(selected.hours)} onChange={(e) => navigate(href('/stats', { window: e.target.value }))}>
          {STATS_WINDOWS.map((w) => (
            <option key={w.hours} value={w.hours}>
              {w.label}
            </option>
          ))}
        </SelectField>
        <button type="button" onClick={stats.reload}>
          Refresh
        </button>
      </PageHeader>
      <ErrorMessage error={stats.error} />
      {stats.loading && !stats.data ? <Loading label="Loading statistics…" /> : null}
      {stats.data ? <StatsView total={stats.data.total} series={stats.data.series} labels={stats.data.labels} busy={stats.loading} /> : null}
    </section>
  );
}

function Tile({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="tile">
      <dt>{label}</dt>
      <dd>
        <span className="tile-value">{value}</span>
        {note ? <span className="tile-note">{note}</span> : null}
      </dd>
    </div>
  );
}

function StatsView({ total, series, labels, busy }: { total: Stats; series: Stats[]; labels: string[]; busy: boolean }) {
  const requests = total.security.total_requests;
  // A period without traffic has no latency: a gap, not a zero.
  const point = (s: Stats, value: number) => (s.security.total_requests > 0 || value > 0 ? value : null);
  const mcp = total.agent.mcp_latency;
  return (
    <div aria-busy={busy}>
      <dl className="tiles" aria-label="Totals for the window">
        <Tile label="Requests" value={formatNumber(requests)} />
        <Tile label="Total cost" value={formatUsd(total.cost.total)} />
        <Tile label="Revenue" value={formatUsd(total.revenue)} note={`margin ${formatUsd(total.gross_margin)} (${formatPercent(total.gross_margin_pct)})`} />
        <Tile label="Latency p50 / p95" value={`${formatMs(total.latency.p50)} / ${formatMs(total.latency.p95)}`} note={`p99 ${formatMs(total.latency.p99)} · avg ${formatMs(total.latency.avg_ms)}`} />
      </dl>

      <div className="chart-grid">
        <section className="card wide" aria-labelledby="latency-title">
          <h2 id="latency-title">Latency percentiles over time</h2>
          <LineChart
            title="Step latency (ms) per period"
            width={1100}
            height={260}
            labels={labels}
            format={formatMs}
            series={[
              { name: 'p50', tone: 1, values: series.map((s) => point(s, s.latency.p50)) },
              { name: 'p95', tone: 2, values: series.map((s) => point(s, s.latency.p95)) },
              { name: 'p99', tone: 3, values: series.map((s) => point(s, s.latency.p99)) },
            ]}
          />
        </section>
        <section className="card wide" aria-labelledby="cost-time-title">
          <h2 id="cost-time-title">Cost over time</h2>
          <LineChart title="Cost (USD) per period" width={1100} height={220} labels={labels} format={formatUsd} series={[{ name: 'cost', tone: 4, values: series.map((s) => s.cost.total) }]} />
        </section>
        <section className="card" aria-labelledby="cost-model-title">
          <h2 id="cost-model-title">Cost by model</h2>
          <BarChart title="Cost by model (USD)" items={total.cost.by_model.map((m) => ({ label: m.model, value: m.cost }))} format={formatUsd} />
        </section>
        <section className="card" aria-labelledby="cost-infra-title">
          <h2 id="cost-infra-title">Cost by infrastructure</h2>
          <BarChart title="Cost by infrastructure (USD)" tone={2} items={total.cost.by_infrastructure.map((i) => ({ label: i.infrastructure, value: i.cost }))} format={formatUsd} />
        </section>
        <section className="card" aria-labelledby="security-title">
          <h2 id="security-title">Security</h2>
          <BarChart
            title="Share of traces (%)"
            tone={3}
            format={(v) => formatPercent(v)}
            emptyText="No traffic in this period."
            items={
              requests === 0
                ? []
                : [
                    { label: 'PII detected', value: total.security.pii_block_rate },
                    { label: 'Injection pattern', value: total.security.injection_shadow_rate },
                    { label: 'Secret leakage', value: total.security.secret_leakage_rate },
                  ]
            }
          />
          <dl className="facts compact">
            <dt>Tool fidelity (average)</dt>
            <dd>{formatScore(total.security.tool_fidelity_score)}</dd>
            <dt>Loop interventions</dt>
            <dd>{total.security.loop_interventions}</dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="agent-title">
          <h2 id="agent-title">Agents</h2>
          <BarChart
            title="Model think time vs tool execution (ms)"
            tone={4}
            format={formatMs}
            emptyText="No tool calls in this period."
            items={
              mcp.tool_call_count === 0
                ? []
                : [
                    { label: 'avg model think', value: mcp.avg_model_think_ms },
                    { label: 'p95 model think', value: mcp.p95_model_think_ms },
                    { label: 'avg tool exec', value: mcp.avg_tool_exec_ms },
                    { label: 'p95 tool exec', value: mcp.p95_tool_exec_ms },
                  ]
            }
          />
          <dl className="facts compact">
            <dt>Tool calls</dt>
            <dd>{mcp.tool_call_count}</dd>
            <dt>Tool overhead ratio</dt>
            <dd>{formatScore(mcp.overhead_ratio)}</dd>
            <dt>Tool cycles avg / max</dt>
            <dd>
              {formatNumber(total.agent.chain_depth.avg_tool_cycles)} / {total.agent.chain_depth.max_tool_cycles}
            </dd>
            <dt>Deep loops</dt>
            <dd>{total.agent.chain_depth.deep_loop_count}</dd>
            <dt>Stall probability (avg)</dt>
            <dd>{formatScore(total.agent.stall.avg_probability)}</dd>
            <dt>Stall alerts / monitored</dt>
            <dd>
              {total.agent.stall.alert_count} / {total.agent.stall.monitor_count} ({formatPercent(total.agent.stall.alert_rate_pct)})
            </dd>
          </dl>
        </section>
        <section className="card wide" aria-labelledby="drift-title">
          <h2 id="drift-title">Model drift</h2>
          {total.agent.bias_drift.length === 0 ? (
            <p className="muted">No model has enough samples to report drift in this period.</p>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col" className="num">Samples</th>
                  <th scope="col" className="num">Output length drift</th>
                  <th scope="col" className="num">Refusal rate drift</th>
                  <th scope="col" className="num">Latency drift</th>
                  <th scope="col">Drifting</th>
                </tr>
              </thead>
              <tbody>
                {total.agent.bias_drift.map((d) => (
                  <tr key={d.model}>
                    <th scope="row">
                      <code>{d.model}</code>
                    </th>
                    <td className="num">{d.sample_count}</td>
                    <td className="num">{formatPercent(d.output_length_drift_pct)}</td>
                    <td className="num">{formatPercent(d.refusal_rate_drift_pct)}</td>
                    <td className="num">{formatPercent(d.latency_drift_pct)}</td>
                    <td>{d.drifting ? <span className="badge badge-warn">drifting</span> : 'stable'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
      <p className="muted small">
        Period {total.period.label.replace(/_/g, ' ')}: {total.period.start} to {total.period.end}.
      </p>
    </div>
  );
}
