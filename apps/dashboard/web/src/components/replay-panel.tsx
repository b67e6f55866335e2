import { useEffect, useRef, useState } from 'react';
import { formatMs, formatUsd } from '../lib/format';
import type { ReplayJob, ReplayOverrides, ReplaySide } from '../lib/types';
import { useApp } from '../state/app-context';
import { ErrorMessage, Notice, StatusBadge } from './feedback';
import { CheckboxField, SelectField, TextField } from './fields';

const POLL_MS = 1_500;

/**
 * Replays a trace with overrides (one forced model, or several compared) and shows the result
 * beside the original. A cached replay of the same overrides answers at once; otherwise the job
 * is polled every 1.5 s until it completes or fails.
 */
export function ReplayPanel({ traceId, initialModel, traceChoices }: { traceId?: string; initialModel?: string; traceChoices?: { id: string; label: string }[] }) {
  const { api, project, models } = useApp();
  const [chosenTrace, setChosenTrace] = useState(traceId ?? traceChoices?.[0]?.id ?? '');
  const [mode, setMode] = useState<'force' | 'compare'>('force');
  const [forceModel, setForceModel] = useState(initialModel ?? '');
  const [compare, setCompare] = useState<string[]>([]);
  const [maxCost, setMaxCost] = useState('');
  const [job, setJob] = useState<ReplayJob | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (initialModel) {
      setMode('force');
      setForceModel(initialModel);
    }
  }, [initialModel]);
  useEffect(() => {
    if (!traceId && traceChoices && !traceChoices.some((t) => t.id === chosenTrace)) setChosenTrace(traceChoices[0]?.id ?? '');
  }, [traceChoices, traceId, chosenTrace]);

  if (!project) return null;
  const target = traceId ?? chosenTrace;

  const poll = (jobId: string) => {
    timer.current = setTimeout(() => {
      api.replayJob(project.id, jobId).then(
        (next) => {
          setJob({ ...next, job_id: next.job_id ?? jobId });
          if (next.status === 'queued' || next.status === 'running') poll(jobId);
          else setBusy(false);
        },
        (caught: unknown) => {
          setError(caught);
          setBusy(false);
        },
      );
    }, POLL_MS);
  };

  const submit = async () => {
    clearTimeout(timer.current);
    setError(undefined);
    setJob(undefined);
    const overrides: ReplayOverrides = {};
    if (mode === 'force' && forceModel) overrides.force_model = forceModel;
    if (mode === 'compare') overrides.compare_models = compare;
    if (maxCost.trim() !== '') {
      const value = Number(maxCost);
      if (!Number.isFinite(value) || value < 0) {
        setError(['Max cost must be a non-negative number (USD)']);
        return;
      }
      overrides.max_cost = value;
    }
    setBusy(true);
    try {
      const answer = await api.replay(project.id, target, overrides);
      setJob(answer);
      if ((answer.status === 'queued' || answer.status === 'running') && answer.job_id) poll(answer.job_id);
      else setBusy(false);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  const identifiers = models.map((m) => m.identifier);
  return (
    <section className="card" aria-labelledby="replay-title">
      <h2 id="replay-title">Replay with overrides</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {traceId ? null : (
          <SelectField label="Trace to replay" value={chosenTrace} onChange={(e) => setChosenTrace(e.target.value)}>
            {(traceChoices ?? []).length === 0 ? <option value="">No completed trace yet</option> : null}
            {(traceChoices ?? []).map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </SelectField>
        )}
        <fieldset className="radio-group">
          <legend>Override</legend>
          <label>
            <input type="radio" name="replay-mode" value="force" checked={mode === 'force'} onChange={() => setMode('force')} /> Force one model on every run step
          </label>
          <label>
            <input type="radio" name="replay-mode" value="compare" checked={mode === 'compare'} onChange={() => setMode('compare')} /> Compare several models
          </label>
        </fieldset>
        {mode === 'force' ? (
          <SelectField label="Model" name="force_model" value={forceModel} onChange={(e) => setForceModel(e.target.value)}>
            <option value="">Same models as the original</option>
            {identifiers.map((identifier) => (
              <option key={identifier} value={identifier}>
                {identifier}
              </option>
            ))}
          </SelectField>
        ) : (
          <fieldset className="checkbox-group">
            <legend>Models to compare</legend>
            {identifiers.map((identifier) => (
              <CheckboxField
                key={identifier}
                label={identifier}
                checked={compare.includes(identifier)}
                onChange={(e) => setCompare((list) => (e.target.checked ? [...list, identifier] : list.filter((m) => m !== identifier)))}
              />
            ))}
          </fieldset>
        )}
        <TextField label="Max cost per step (USD)" hint="Steps estimated above it are skipped. Optional." name="max_cost" type="number" min={0} step="any" value={maxCost} onChange={(e) => setMaxCost(e.target.value)} />
        <ErrorMessage error={error} />
        <button type="submit" className="primary" disabled={busy || !target}>
          {busy ? 'Replaying…' : 'Replay trace'}
        </button>
      </form>
      <Notice>{job && job.status !== 'completed' ? <>Replay {job.status === 'failed' ? 'failed' : `${job.status}…`}</> : job ? 'Replay completed.' : undefined}</Notice>
      {job?.status === 'failed' ? <ErrorMessage error={[job.error ?? 'Replay failed']} /> : null}
      {job?.status === 'completed' && job.comparison ? <Comparison job={job} /> : null}
    </section>
  );
}

function delta(source: number, replay: number): string {
  if (!source) return '';
  const pct = ((replay - source) / source) * 100;
  if (Math.abs(pct) < 0.05) return ' (same)';
  return ` (${pct > 0 ? '+' : ''}${pct.toFixed(1)}%)`;
}

/** Original and replay(s) side by side, one column each. */
export function Comparison({ job }: { job: ReplayJob }) {
  const source = job.comparison?.source;
  const replays: { title: string; side: ReplaySide }[] = job.comparison?.replays
    ? job.comparison.replays.map((side) => ({ title: side.model ?? 'replay', side }))
    : job.comparison?.replay
      ? [{ title: 'Replay', side: job.comparison.replay }]
      : [];
  if (!source) return null;
  const rows: { label: string; value: (side: ReplaySide, isSource: boolean) => string }[] = [
    { label: 'Models used', value: (side) => side.models_used.join(', ') || '—' },
    { label: 'Total cost', value: (side, isSource) => formatUsd(side.total_cost) + (isSource ? '' : delta(source.total_cost, side.total_cost)) },
    { label: 'Total latency', value: (side, isSource) => formatMs(side.total_latency_ms) + (isSource ? '' : delta(source.total_latency_ms, side.total_latency_ms)) },
    { label: 'Optimization grade', value: (side) => side.optimization_grade ?? '—' },
    { label: 'Waste grade', value: (side) => side.grades?.waste ?? '—' },
    { label: 'Latency grade', value: (side) => side.grades?.latency ?? '—' },
    { label: 'Steps skipped by max cost', value: (side, isSource) => (isSource ? '—' : String(side.skipped_steps?.length ?? 0)) },
  ];
  return (
    <div className="table-scroll">
      <table className="table comparison" aria-label="Replay comparison">
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Measure</span>
            </th>
            <th scope="col">
              Original{' '}
              {job.source_trace_id ? (
                <a href={`#/traces/${job.source_trace_id}`} className="small">
                  trace
                </a>
              ) : null}
            </th>
            {replays.map(({ title, side }, index) => {
              const id = side.replay_trace_id ?? (replays.length === 1 ? job.replay_trace_id : undefined);
              return (
                <th scope="col" key={`${title}-${index}`}>
                  {title} <StatusBadge status="completed" />{' '}
                  {id ? (
                    <a href={`#/traces/${id}`} className="small">
                      trace
                    </a>
                  ) : null}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>{row.value(source, true)}</td>
              {replays.map(({ title, side }, index) => (
                <td key={`${title}-${index}`}>{row.value(side, false)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
