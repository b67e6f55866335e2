import { useState } from 'react';
import { Empty, ErrorMessage, Notice, PageHeader, StatusBadge } from '../components/feedback';
import { TextField } from '../components/fields';
import { formatDateTime, formatUsd } from '../lib/format';
import { useApp } from '../state/app-context';

export function ProjectsPage() {
  const { api, projects, project: current, selectProject, reloadProjects, isAdmin } = useApp();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const create = async () => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      const created = await api.createProject({ name, description });
      await reloadProjects();
      selectProject(created.id);
      setName('');
      setDescription('');
      setNotice(`Project “${created.name}” created and selected.`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Projects" />
      {projects.length === 0 ? (
        <Empty>No project yet. Create the first one below.</Empty>
      ) : (
        <table className="table">
          <caption className="sr-only">Projects of the organization</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Spend this month</th>
              <th scope="col">Routing tiers</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => {
              const tiers = p.settings?.routing_tiers ?? {};
              return (
                <tr key={p.id} aria-current={p.id === current?.id ? 'true' : undefined}>
                  <th scope="row">
                    <a href={`#/projects/${p.id}`}>{p.name}</a>
                    {p.description ? <div className="muted small">{p.description}</div> : null}
                  </th>
                  <td>
                    <StatusBadge status={p.status} />
                  </td>
                  <td className="num">{formatUsd(p.total_monthly_spend)}</td>
                  <td className="small">
                    {(['simple', 'complex', 'secure'] as const)
                      .filter((tier) => tiers[tier])
                      .map((tier) => `${tier}: ${tiers[tier]}`)
                      .join(' · ') || <span className="muted">not set</span>}
                  </td>
                  <td className="small">{formatDateTime(p.created_at)}</td>
                  <td className="actions-cell">
                    <div className="row-actions">
                      {p.id === current?.id ? (
                        <span className="muted small">Current project</span>
                      ) : (
                        <button type="button" onClick={() => selectProject(p.id)} aria-label={`Switch to ${p.name}`}>
                          Switch to
                        </button>
                      )}
                      <a className="button" href={`#/projects/${p.id}`} aria-label={`Settings of ${p.name}`}>
                        Settings
                      </a>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <form
        className="card form-card"
        aria-labelledby="create-project-title"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <h2 id="create-project-title">Create a project</h2>
        {!isAdmin ? <p className="muted">Creating projects needs the admin or owner role.</p> : null}
        <div className="grid-2">
          <TextField label="Project name" name="name" value={name} onChange={(e) => setName(e.target.value)} />
          <TextField label="Description" name="description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <ErrorMessage error={error} />
        <Notice>{notice}</Notice>
        <button type="submit" className="primary" disabled={busy}>
          Create project
        </button>
      </form>
    </section>
  );
}
