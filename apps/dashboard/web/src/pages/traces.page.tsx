import { Empty, ErrorMessage, Loading, PageHeader, StatusBadge } from '../components/feedback';
import { SelectField } from '../components/fields';
import { Pagination } from '../components/pagination';
import { formatDateTime, formatRelative, formatUsd, shortId } from '../lib/format';
import { href } from '../lib/router';
import { TRACE_STATUSES, type TraceStatus } from '../lib/types';
import { useApp } from '../state/app-context';
import { useAsync } from '../state/use-async';
import { navigate } from '../state/use-route';
import { NoProject } from './no-project';

const PAGE_SIZES = [20, 50, 100];

function metadataSummary(metadata: Record<string, unknown>): string {
  const entries = Object.entries(metadata ?? {});
  if (entries.length === 0) return '';
  const text = entries.map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`).join(', ');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The current project's traces, newest first; filter and page live in the address (shareable). */
export function TracesPage({ query }: { query: Record<string, string> }) {
  const { api, project } = useApp();
  const status = (TRACE_STATUSES as string[]).includes(query.status) ? (query.status as TraceStatus) : undefined;
  const page = Math.max(1, Number(query.page) || 1);
  const perPage = PAGE_SIZES.includes(Number(query.per_page)) ? Number(query.per_page) : 20;
  const traces = useAsync(() => (project ? api.traces({ project_id: project.id, page, per_page: perPage, status }) : Promise.resolve(undefined)), [project?.id, page, perPage, status]);
  if (!project) return <NoProject title="Traces" />;

  const go = (changes: Record<string, string | number | undefined>) => navigate(href('/traces', { status, page, per_page: perPage === 20 ? undefined : perPage, ...changes }));

  return (
    <section aria-labelledby="page-title">
      <PageHeader title={`Traces: ${project.name}`}>
        <button type="button" onClick={traces.reload}>
          Refresh
        </button>
      </PageHeader>
      <form className="filters" aria-label="Filter traces" onSubmit={(event) => event.preventDefault()}>
        <SelectField label="Status" name="status" value={status ?? ''} onChange={(e) => go({ status: e.target.value || undefined, page: undefined })}>
          <option value="">All statuses</option>
          {TRACE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        <SelectField label="Per page" name="per_page" value={String(perPage)} onChange={(e) => go({ per_page: Number(e.target.value) === 20 ? undefined : e.target.value, page: undefined })}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </SelectField>
      </form>
      <ErrorMessage error={traces.error} />
      {traces.loading && !traces.data ? <Loading /> : null}
      {traces.data && traces.data.data.length === 0 ? <Empty>{status ? `No ${status} trace.` : 'No trace yet. Traces appear here once an API key of this project creates them.'}</Empty> : null}
      {traces.data && traces.data.data.length > 0 ? (
        <>
          <table className="table" aria-busy={traces.loading}>
            <caption className="sr-only">Traces, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Trace</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Metadata</th>
                <th scope="col" className="num">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {traces.data.data.map((trace) => (
                <tr key={trace.id}>
                  <th scope="row">
                    <a href={`#/traces/${trace.id}`} title={trace.id} aria-label={`Trace ${trace.id}`}>
                      <code>{shortId(trace.id)}</code>
                    </a>
                  </th>
                  <td>
                    <StatusBadge status={trace.status} />
                  </td>
                  <td title={formatDateTime(trace.created_at)}>{formatRelative(trace.created_at)}</td>
                  <td className="small muted">{metadataSummary(trace.metadata)}</td>
                  <td className="num">{trace.revenue === null ? <span className="muted">—</span> : formatUsd(trace.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination pagination={traces.data.pagination} onPage={(next) => go({ page: next === 1 ? undefined : next })} />
        </>
      ) : null}
    </section>
  );
}
