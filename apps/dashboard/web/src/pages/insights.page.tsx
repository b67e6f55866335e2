import { useState } from 'react';
import { Empty, ErrorMessage, Loading, Notice, PageHeader } from '../components/feedback';
import { ReplayPanel } from '../components/replay-panel';
import { formatDateTime, formatUsd, shortId } from '../lib/format';
import { insightLabel, insightValue } from '../lib/insight-format';
import type { Insight } from '../lib/types';
import { useApp } from '../state/app-context';
import { useAsync } from '../state/use-async';
import { NoProject } from './no-project';

const TITLE: Record<string, string> = {
  migration_alert: 'Cheaper model gives equivalent output',
  latency_alert: 'Slow task pattern',
  intent_pattern: 'Dominant task without a routing rule',
};

/** Active insights with their estimated savings; refresh, dismiss, and try one with a replay. */
export function InsightsPage() {
  const { api, project } = useApp();
  const insights = useAsync(() => (project ? api.insights(project.id) : Promise.resolve([] as Insight[])), [project?.id]);
  const traces = useAsync(() => (project ? api.traces({ project_id: project.id, per_page: 20, status: 'completed' }) : Promise.resolve(undefined)), [project?.id]);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [tryModel, setTryModel] = useState<string | undefined>(undefined);
  if (!project) return <NoProject title="Insights" />;

  const act = async (action: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      setNotice(await action());
      insights.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const list = insights.data ?? [];
  const savings = list.reduce((sum, insight) => sum + insight.estimated_savings_usd, 0);
  return (
    <section aria-labelledby="page-title">
      <PageHeader title={`Insights: ${project.name}`}>
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() =>
            void act(async () => {
              const { computed } = await api.refreshInsights(project.id);
              return `Insights refreshed: ${computed} computed.`;
            })
          }
        >
          Refresh insights
        </button>
      </PageHeader>
      <Notice>{notice}</Notice>
      <ErrorMessage error={error ?? insights.error} />
      {insights.loading && !insights.data ? <Loading /> : null}
      {insights.data && list.length === 0 ? <Empty>No active insight. Insights come from the project&apos;s traffic; refresh to compute them now.</Empty> : null}
      {list.length > 0 ? (
        <>
          <p>
            Estimated savings over 30 days if all are applied: <strong>{formatUsd(savings)}</strong> (an estimate).
          </p>
          <ul className="insights">
            {list.map((insight) => {
              const suggested = typeof insight.data.suggested_model === 'string' ? insight.data.suggested_model : undefined;
              return (
                <li key={insight.id} className="card insight">
                  <div className="insight-head">
                    <h2>{TITLE[insight.insight_type] ?? insight.insight_type}</h2>
                    <span className="savings">
                      {formatUsd(insight.estimated_savings_usd)} <span className="muted small">est. / 30 days</span>
                    </span>
                  </div>
                  <p className="muted small">
                    <code>{insight.insight_type}</code> · since {formatDateTime(insight.created_at)}
                  </p>
                  <dl className="facts compact">
                    {Object.entries(insight.data).map(([key, raw]) => (
                      <div key={key} className="fact">
                        <dt>{insightLabel(key)}</dt>
                        <dd>{insightValue(key, raw)}</dd>
                      </div>
                    ))}
                  </dl>
                  <div className="form-actions">
                    {suggested ? (
                      <button type="button" onClick={() => setTryModel(suggested)}>
                        Replay with {suggested}
                      </button>
                    ) : null}
                    <button type="button" disabled={busy} onClick={() =>
                        void act(async () => {
                          await api.dismissInsight(project.id, insight.id);
                          return 'Insight dismissed.';
                        })
                      } aria-label={`Dismiss insight ${insight.id}`}>
                      Dismiss
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
      <ReplayPanel initialModel={tryModel} traceChoices={(traces.data?.data ?? []).map((t) => ({ id: t.id, label: `${shortId(t.id)} · ${formatDateTime(t.created_at)}` }))} />
    </section>
  );
}
