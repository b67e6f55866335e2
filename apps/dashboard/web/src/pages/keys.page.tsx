import { useState } from 'react';
import { CopyButton } from '../components/copy-button';
import { ConfirmDialog, Dialog } from '../components/dialog';
import { Empty, ErrorMessage, Loading, Notice, PageHeader, StatusBadge } from '../components/feedback';
import { SelectField, TextField } from '../components/fields';
import { formatDateTime, formatRelative, formatUsd } from '../lib/format';
import type { ApiKey, ApiKeyCreated } from '../lib/types';
import { useApp } from '../state/app-context';
import { useAsync } from '../state/use-async';

/** The organization's keys: create (the secret shown once), reset a paused key, cap, revoke. */
export function KeysPage() {
  const { api, projects, project } = useApp();
  const keys = useAsync(() => api.keys(), []);
  const [name, setName] = useState('');
  const [projectId, setProjectId] = useState<string>('');
  const [hourlyLimit, setHourlyLimit] = useState('');
  const [createError, setCreateError] = useState<unknown>(undefined);
  const [created, setCreated] = useState<ApiKeyCreated | undefined>(undefined);
  const [actionError, setActionError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [revoking, setRevoking] = useState<ApiKey | undefined>(undefined);
  const [limitFor, setLimitFor] = useState<ApiKey | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const targetProject = projectId || (project ? String(project.id) : '');

  const create = async () => {
    setCreateError(undefined);
    const limit = hourlyLimit.trim() === '' ? undefined : Number(hourlyLimit);
    if (limit !== undefined && !Number.isFinite(limit)) {
      setCreateError(['Hourly limit must be a number (USD)']);
      return;
    }
    setBusy(true);
    try {
      const key = await api.createKey({ name, project_id: Number(targetProject), ...(limit !== undefined ? { hourly_limit: limit } : {}) });
      setCreated(key);
      setName('');
      setHourlyLimit('');
      keys.reload();
    } catch (caught) {
      setCreateError(caught);
    } finally {
      setBusy(false);
    }
  };

  const act = async (action: () => Promise<unknown>, done: string) => {
    setActionError(undefined);
    setNotice(undefined);
    setBusy(true);
    try {
      await action();
      setNotice(done);
      keys.reload();
      return true;
    } catch (caught) {
      setActionError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="API keys" />
      <form
        className="card form-card"
        aria-labelledby="create-key-title"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <h2 id="create-key-title">Create a key</h2>
        <div className="grid-3">
          <TextField label="Key name" name="key_name" value={name} onChange={(e) => setName(e.target.value)} />
          <SelectField label="Project" name="key_project" value={targetProject} onChange={(e) => setProjectId(e.target.value)}>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </SelectField>
          <TextField label="Hourly limit (USD)" hint="Rolling hourly spend cap; empty means no cap." name="hourly_limit" type="number" min={0} step="any" value={hourlyLimit} onChange={(e) => setHourlyLimit(e.target.value)} />
        </div>
        <ErrorMessage error={createError} />
        <button type="submit" className="primary" disabled={busy || !targetProject}>
          Create key
        </button>
      </form>

      <Notice>{notice}</Notice>
      <ErrorMessage error={actionError ?? keys.error} />
      {keys.loading && !keys.data ? <Loading /> : null}
      {keys.data && keys.data.length === 0 ? <Empty>No key yet.</Empty> : null}
      {keys.data && keys.data.length > 0 ? (
        <div className="table-scroll">
          <table className="table">
            <caption className="sr-only">API keys of the organization</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Project</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">Hourly limit</th>
                <th scope="col">Last used</th>
                <th scope="col" className="num">Loop interventions</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => {
                const paused = key.status === 'tripped' || key.status === 'loop_detected';
                const live = key.status !== 'revoked' && key.status !== 'expired';
                return (
                  <tr key={key.id}>
                    <th scope="row">{key.name || <span className="muted">unnamed</span>}</th>
                    <td>
                      <code>{key.masked}</code>
                    </td>
                    <td>{key.project.name}</td>
                    <td>
                      <StatusBadge status={key.status} />
                    </td>
                    <td className="num">{key.hourly_limit === null ? <span className="muted">no cap</span> : formatUsd(key.hourly_limit)}</td>
                    <td title={key.last_used ? formatDateTime(key.last_used) : undefined}>{formatRelative(key.last_used)}</td>
                    <td className="num">{key.loop_intervention_count}</td>
                    <td className="small">{key.expires_at ? formatDateTime(key.expires_at) : <span className="muted">never</span>}</td>
                    <td className="actions-cell">
                      <div className="row-actions">
                        {paused ? (
                          <button type="button" className="primary" disabled={busy} onClick={() => void act(() => api.updateKey(key.id, { status: 'active' }), `Key ${key.masked} reset to active.`)} aria-label={`Reset ${key.masked} to active`}>
                            Reset
                          </button>
                        ) : null}
                        {live ? (
                          <>
                            <button type="button" onClick={() => setLimitFor(key)} aria-label={`Change the hourly limit of ${key.masked}`}>
                              Limit
                            </button>
                            <button type="button" className="danger" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.masked}`}>
                              Revoke
                            </button>
                          </>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}

      <Dialog open={created !== undefined} title="Your new API key" onClose={() => setCreated(undefined)}>
        {created ? (
          <div className="dialog-body">
            <p>
              This is the only time the full key is shown. Store it in your secret manager now: it cannot be recovered. Keys belong in server code, never in a browser.
            </p>
            <div className="field">
              <label htmlFor="raw-key">API key for {created.project.name}</label>
              <input id="raw-key" className="secret" readOnly value={created.raw_key} onFocus={(e) => e.target.select()} data-autofocus />
            </div>
            <CopyButton text={created.raw_key} label="Copy key" />
            <div className="dialog-actions">
              <button type="button" className="primary" onClick={() => setCreated(undefined)}>
                I have stored the key
              </button>
            </div>
          </div>
        ) : null}
      </Dialog>

      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke ${revoking?.masked ?? ''}?`}
        confirmLabel="Revoke key"
        busy={busy}
        onCancel={() => setRevoking(undefined)}
        onConfirm={() => {
          const key = revoking!;
          void act(() => api.revokeKey(key.id), `Key ${key.masked} revoked.`).then(() => setRevoking(undefined));
        }}
      >
        <p>Requests with this key are refused from now on (401). This cannot be undone.</p>
      </ConfirmDialog>

      {limitFor ? <LimitDialog apiKey={limitFor} onClose={() => setLimitFor(undefined)} onSaved={(message) => { setLimitFor(undefined); setNotice(message); keys.reload(); }} /> : null}
    </section>
  );
}

function LimitDialog({ apiKey, onClose, onSaved }: { apiKey: ApiKey; onClose: () => void; onSaved: (message: string) => void }) {
  const { api } = useApp();
  const [value, setValue] = useState(apiKey.hourly_limit === null ? '' : String(apiKey.hourly_limit));
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open title={`Hourly limit of ${apiKey.masked}`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const limit = value.trim() === '' ? null : Number(value);
          if (limit !== null && !Number.isFinite(limit)) {
            setError(['Hourly limit must be a number (USD)']);
            return;
          }
          setBusy(true);
          api
            .updateKey(apiKey.id, { hourly_limit: limit })
            .then(() => onSaved(limit === null ? `Key ${apiKey.masked} has no hourly cap now.` : `Hourly limit of ${apiKey.masked} set to ${formatUsd(limit)}.`))
            .catch(setError)
            .finally(() => setBusy(false));
        }}
      >
        <TextField label="Hourly limit (USD)" hint="Empty removes the cap." type="number" min={0} step="any" value={value} onChange={(e) => setValue(e.target.value)} data-autofocus />
        <ErrorMessage error={error} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Save limit
          </button>
        </div>
      </form>
    </Dialog>
  );
}
