import { ErrorMessage, Loading, PageHeader, StatusBadge } from '../components/feedback';
import { ReplayPanel } from '../components/replay-panel';
import { formatDateTime, formatMs, formatOutput, formatScore, formatUsd } from '../lib/format';
import { layoutTimeline, type TimelineRow } from '../lib/timeline';
import type { TraceDetail } from '../lib/types';
import { useApp } from '../state/app-context';
import { useAsync } from '../state/use-async';
import { NoProject } from './no-project';

const STEP_LABEL: Record<string, string> = { run: 'model run', check: 'safety check', tool_call: 'tool call', log: 'log', blocked: 'blocked' };

export function TracePage({ traceId }: { traceId: string }) {
  const { api, project } = useApp();
  const trace = useAsync(() => (project ? api.trace(project.id, traceId) : Promise.resolve(undefined)), [project?.id, traceId]);
  if (!project) return <NoProject title="Trace" />;
  if (trace.loading && !trace.data) return <Loading />;
  if (!trace.data)
    return (
      <section aria-labelledby="page-title">
        <PageHeader title="Trace" />
        <ErrorMessage error={trace.error} />
        <p>
          <a href="#/traces">Back to the traces</a>
        </p>
      </section>
    );
  const t = trace.data;
  return (
    <section aria-labelledby="page-title" className="trace-page">
      <PageHeader title={`Trace ${t.id}`}>
        <StatusBadge status={t.status} />
        <button type="button" onClick={trace.reload}>
          Refresh
        </button>
      </PageHeader>
      <p className="muted">
        <a href="#/traces">All traces</a> · created {formatDateTime(t.created_at)}
        {t.routing_decision ? (
          <>
            {' '}
            · routed to <strong>{t.routing_decision.tier}</strong> tier, model <code>{t.routing_decision.model}</code>
          </>
        ) : null}
      </p>
      <ErrorMessage error={trace.error} />
      <div className="trace-top">
        <Grades trace={t} />
        <Summary trace={t} />
        <Security trace={t} />
      </div>
      <Timeline trace={t} />
      {Object.keys(t.metadata ?? {}).length > 0 ? (
        <section className="card" aria-labelledby="metadata-title">
          <h2 id="metadata-title">Metadata</h2>
          <pre className="output">{JSON.stringify(t.metadata, null, 2)}</pre>
        </section>
      ) : null}
      {t.status !== 'pending' ? <ReplayPanel traceId={t.id} /> : <p className="muted">Replay becomes available once the trace is completed.</p>}
    </section>
  );
}

function Grades({ trace }: { trace: TraceDetail }) {
  const grade = trace.summary.optimization_grade;
  const grades = trace.summary.grades;
  return (
    <section className="card grade-card" aria-labelledby="grades-title">
      <h2 id="grades-title">Grades</h2>
      {grade ? (
        <>
          <p className={`grade grade-${grade}`} aria-label={`Optimization grade ${grade}`}>
            {grade}
          </p>
          <dl className="facts compact">
            <dt>Overall</dt>
            <dd>{grades?.overall ?? '—'}</dd>
            <dt>Waste</dt>
            <dd>{grades?.waste ?? '—'}</dd>
            <dt>Latency</dt>
            <dd>{grades?.latency ?? '—'}</dd>
          </dl>
        </>
      ) : (
        <p className="muted">Graded when the trace is completed.</p>
      )}
    </section>
  );
}

function Summary({ trace }: { trace: TraceDetail }) {
  const s = trace.summary;
  const stalled = s.stall_probability > 0.7;
  return (
    <section className="card" aria-labelledby="summary-title">
      <h2 id="summary-title">Summary</h2>
      <dl className="facts">
        <dt>Total cost</dt>
        <dd>{formatUsd(s.total_cost)}</dd>
        <dt>Revenue</dt>
        <dd>{formatUsd(s.revenue)}</dd>
        <dt>Gross margin</dt>
        <dd>{formatUsd(s.gross_margin)}</dd>
        <dt>Total latency</dt>
        <dd>{formatMs(s.total_latency_ms)}</dd>
        <dt>Step latency p50 / p95 / p99</dt>
        <dd>
          {formatMs(s.latency_p50)} / {formatMs(s.latency_p95)} / {formatMs(s.latency_p99)}
        </dd>
        <dt>Steps</dt>
        <dd>{s.step_count}</dd>
        <dt>Chain depth</dt>
        <dd>{s.chain_depth}</dd>
        <dt>Tool overhead</dt>
        <dd>{s.tool_overhead_ms === null ? 'no tool calls' : formatMs(s.tool_overhead_ms)}</dd>
        <dt>Stall probability</dt>
        <dd>
          {formatScore(s.stall_probability)} {stalled ? <span className="badge badge-warn">flagged</span> : null}
        </dd>
        {Object.keys(s.by_model).length > 0 ? (
          <>
            <dt>Cost by model</dt>
            <dd>
              {Object.entries(s.by_model)
                .map(([model, cost]) => `${model} ${formatUsd(cost)}`)
                .join(' · ')}
            </dd>
          </>
        ) : null}
        {Object.keys(s.by_infrastructure).length > 0 ? (
          <>
            <dt>Cost by infrastructure</dt>
            <dd>
              {Object.entries(s.by_infrastructure)
                .map(([infrastructure, cost]) => `${infrastructure} ${formatUsd(cost)}`)
                .join(' · ')}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function Flag({ label, on }: { label: string; on: boolean }) {
  return (
    <li className={on ? 'flag on' : 'flag'}>
      <span className={`badge ${on ? 'badge-bad' : 'badge-ok'}`}>{on ? 'detected' : 'clear'}</span> {label}
    </li>
  );
}

function Security({ trace }: { trace: TraceDetail }) {
  const s = trace.security;
  return (
    <section className="card" aria-labelledby="security-title">
      <h2 id="security-title">Security</h2>
      <ul className="flags">
        <Flag label="Personal data (PII)" on={s.pii_detected} />
        <Flag label="Prompt injection attempt" on={s.injection_attempt} />
        <Flag label="Secret or credential leaked" on={s.secret_leaked} />
      </ul>
      <dl className="facts compact">
        <dt>Tool fidelity</dt>
        <dd>
          {formatScore(s.tool_fidelity_score)} {s.tool_fidelity_score < 0.8 ? <span className="badge badge-warn">invalid tool calls</span> : null}
        </dd>
        <dt>Shadow score</dt>
        <dd>{s.shadow_score === null ? 'shadow mode off' : formatScore(s.shadow_score)}</dd>
      </dl>
    </section>
  );
}

function Timeline({ trace }: { trace: TraceDetail }) {
  const { rows, spanMs } = layoutTimeline(trace.steps);
  return (
    <section className="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Steps ({trace.steps.length})</h2>
      {rows.length === 0 ? (
        <p className="muted">No step recorded yet.</p>
      ) : (
        <>
          <p className="muted small">Bars show when each step ran within the trace ({formatMs(spanMs)} from the first step&apos;s start to the last step&apos;s end). Open a step for its input and output.</p>
          <ol className="timeline">
            {rows.map((row) => (
              <TimelineStep key={row.step.id} row={row} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function TimelineStep({ row }: { row: TimelineRow }) {
  const { step } = row;
  const toolNames = step.tool_calls?.map((call) => call.name) ?? (step.tool_name ? [step.tool_name] : []);
  return (
    <li className={`step step-${step.type}`} data-step-type={step.type}>
      <details>
        <summary>
          <span className="step-head">
            <span className={`badge step-badge step-badge-${step.type}`}>{STEP_LABEL[step.type] ?? step.type}</span>
            {step.model ? <code>{step.model}</code> : null}
            {toolNames.length > 0 ? <span className="small">tools: {toolNames.join(', ')}</span> : null}
            {step.type === 'blocked' && step.reason ? <span className="blocked-reason">{step.reason}</span> : null}
            {step.error ? <span className="badge badge-bad">{step.error}</span> : null}
          </span>
          <span className="step-figures">
            <span>{formatMs(step.latency_ms)}</span>
            {step.cost !== undefined ? <span>{formatUsd(step.cost)}</span> : null}
          </span>
          <span className="bar-track" aria-hidden="true">
            <span className="bar-fill" style={{ marginLeft: `${row.offsetPct}%`, width: `${row.widthPct}%` }} />
          </span>
        </summary>
        <div className="step-detail">
          <dl className="facts compact">
            <dt>Step</dt>
            <dd>
              #{step.id}
              {step.parent_step_id !== null ? ` (after #${step.parent_step_id})` : ''} · started +{formatMs(row.startMs)} · recorded {formatDateTime(step.created_at)}
            </dd>
            {step.prompt_tokens !== undefined ? (
              <>
                <dt>Tokens</dt>
                <dd>
                  {step.prompt_tokens} in / {step.completion_tokens ?? 0} out
                </dd>
              </>
            ) : null}
            {step.tool_latency_ms !== undefined && step.tool_latency_ms !== null ? (
              <>
                <dt>Tool execution</dt>
                <dd>{formatMs(step.tool_latency_ms)}</dd>
              </>
            ) : null}
          </dl>
          {step.input ? (
            <>
              <h3>Input</h3>
              <pre className="output">{step.input}</pre>
            </>
          ) : null}
          {step.tool_calls && step.tool_calls.length > 0 ? (
            <>
              <h3>Tool calls</h3>
              <ul className="tool-calls">
                {step.tool_calls.map((call) => (
                  <li key={call.id}>
                    <code>{call.name}</code>
                    <pre className="output">{JSON.stringify(call.arguments, null, 2)}</pre>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {formatOutput(step.output) ? (
            <>
              <h3>Output</h3>
              <pre className="output">{formatOutput(step.output)}</pre>
            </>
          ) : null}
        </div>
      </details>
    </li>
  );
}
