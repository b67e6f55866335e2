import { Empty, ErrorMessage, Loading, PageHeader } from '../components/feedback';
import { formatDateTime } from '../lib/format';
import { useApp } from '../state/app-context';
import { useAsync } from '../state/use-async';

/** The organization's last 50 control-plane events (admin or owner; the API answers 403 otherwise). */
export function AuditPage() {
  const { api } = useApp();
  const events = useAsync(() => api.auditEvents(), []);
  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Audit events">
        <button type="button" onClick={events.reload}>
          Refresh
        </button>
      </PageHeader>
      <p className="muted small">The last 50 account-level events, newest first.</p>
      <ErrorMessage error={events.error} />
      {events.loading && !events.data ? <Loading /> : null}
      {events.data && events.data.length === 0 ? <Empty>No event yet.</Empty> : null}
      {events.data && events.data.length > 0 ? (
        <div className="table-scroll">
          <table className="table">
            <caption className="sr-only">Audit events</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">IP</th>
                <th scope="col">User agent</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {events.data.map((event) => (
                <tr key={event.id}>
                  <td className="small nowrap">{formatDateTime(event.occurred_at)}</td>
                  <th scope="row">
                    <code>{event.event}</code>
                  </th>
                  <td className="small">{event.ip || '—'}</td>
                  <td className="small break">{event.user_agent || '—'}</td>
                  <td className="small break">
                    {Object.entries(event.metadata ?? {})
                      .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
                      .join(', ') || '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
