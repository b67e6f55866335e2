import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../components/dialog';
import { ErrorMessage, Loading, Notice, PageHeader, StatusBadge } from '../components/feedback';
import { SelectField, TextAreaField, TextField } from '../components/fields';
import { projectSettingsPatch, toProjectSettingsForm, type ProjectSettingsForm } from '../lib/forms';
import { formatUsd } from '../lib/format';
import { TIERS, type ModelDefinition, type Project, type Tier } from '../lib/types';
import { useApp } from '../state/app-context';
import { useAsync } from '../state/use-async';
import { navigate } from '../state/use-route';

const TIER_HINT: Record<Tier, string> = {
  simple: 'Short, low-stakes prompts: usually the cheapest model.',
  complex: 'Long-context, reasoning-heavy or multi-step prompts: the most capable model.',
  secure: 'Requests flagged sensitive (personal data): a private or internal model.',
};

export function ProjectSettingsPage({ projectId }: { projectId: number }) {
  const { api, reloadProjects, selectProject, project: current, reloadModels } = useApp();
  const loaded = useAsync(async () => {
    const [project, models] = await Promise.all([api.project(projectId), api.models(projectId)]);
    return { project, models };
  }, [projectId]);

  if (loaded.loading && !loaded.data) return <Loading />;
  if (!loaded.data)
    return (
      <section>
        <PageHeader title="Project settings" />
        <ErrorMessage error={loaded.error} />
      </section>
    );
  return (
    <SettingsForm
      key={loaded.data.project.id}
      project={loaded.data.project}
      models={loaded.data.models}
      onSaved={async (project) => {
        loaded.setData({ ...loaded.data!, project });
        await reloadProjects();
        if (current?.id === project.id) reloadModels();
      }}
      onDeleted={async () => {
        await reloadProjects();
        navigate('#/projects');
      }}
      onUse={() => selectProject(projectId)}
      isCurrent={current?.id === projectId}
    />
  );
}

function SettingsForm({
  project,
  models,
  onSaved,
  onDeleted,
  onUse,
  isCurrent,
}: {
  project: Project;
  models: ModelDefinition[];
  onSaved: (project: Project) => Promise<void>;
  onDeleted: () => Promise<void>;
  onUse: () => void;
  isCurrent: boolean;
}) {
  const { api } = useApp();
  const [form, setForm] = useState<ProjectSettingsForm>(() => toProjectSettingsForm(project));
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(undefined);
  useEffect(() => setForm(toProjectSettingsForm(project)), [project]);

  const set = <K extends keyof ProjectSettingsForm>(key: K, value: ProjectSettingsForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const identifiers = models.map((m) => m.identifier);

  const run = async (action: () => Promise<Project>, done: string) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      const updated = await action();
      await onSaved(updated);
      setNotice(done);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const save = () => {
    const patch = projectSettingsPatch(form);
    if (!patch.ok) {
      setError(patch.errors);
      setNotice(undefined);
      return;
    }
    void run(() => api.updateProject(project.id, patch.value), 'Settings saved.');
  };

  const archived = project.status === 'archived';
  const modelOptions = (
    <>
      <option value="">Not set</option>
      {identifiers.map((identifier) => (
        <option key={identifier} value={identifier}>
          {identifier}
        </option>
      ))}
    </>
  );

  return (
    <section aria-labelledby="page-title">
      <PageHeader title={`Project settings: ${project.name}`}>
        <StatusBadge status={project.status} />
        {isCurrent ? <span className="muted small">Current project</span> : <button type="button" onClick={onUse}>Switch to this project</button>}
      </PageHeader>
      <p className="muted">
        Spend this month: <strong>{formatUsd(project.total_monthly_spend)}</strong> · Project id {project.id}
      </p>

      <form
        className="card form-card"
        aria-label="Project settings"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <h2>General</h2>
        <div className="grid-2">
          <TextField label="Name" name="name" value={form.name} onChange={(e) => set('name', e.target.value)} />
          <TextField label="Description" name="description" value={form.description} onChange={(e) => set('description', e.target.value)} />
        </div>

        <h2>Routing tiers</h2>
        <p className="muted small">
          Each request is classified and sent to the model of its tier. Models come from this project&apos;s registry{' '}
          {identifiers.length === 0 ? (
            <>
              (none yet: <a href="#/models">add models</a> first).
            </>
          ) : (
            '.'
          )}
        </p>
        <div className="grid-3">
          {TIERS.map((tier) => (
            <SelectField key={tier} label={`${tier[0].toUpperCase()}${tier.slice(1)} tier`} hint={TIER_HINT[tier]} value={form.tiers[tier]} onChange={(e) => set('tiers', { ...form.tiers, [tier]: e.target.value })}>
              {modelOptions}
              {form.tiers[tier] && !identifiers.includes(form.tiers[tier]) ? <option value={form.tiers[tier]}>{form.tiers[tier]} (not registered)</option> : null}
            </SelectField>
          ))}
        </div>

        <h2>Protection and spend</h2>
        <div className="grid-3">
          <TextField
            label="Risk threshold"
            hint="0 to 1. Requests whose risk score is above it are blocked (default 0.7)."
            name="risk_threshold"
            type="number"
            min={0}
            max={1}
            step={0.05}
            value={form.riskThreshold}
            onChange={(e) => set('riskThreshold', e.target.value)}
          />
          <TextField
            label="Monthly budget (USD)"
            hint="Empty means no cap. Once reached, calls answer 402 Monthly budget exceeded."
            name="monthly_budget_usd"
            type="number"
            min={0}
            step="any"
            value={form.monthlyBudget}
            onChange={(e) => set('monthlyBudget', e.target.value)}
          />
          <SelectField label="Shadow model" hint="Re-answers requests off the request path; agreement becomes the shadow score." value={form.shadowModel} onChange={(e) => set('shadowModel', e.target.value)}>
            {modelOptions}
          </SelectField>
        </div>

        <h2>Policy rules</h2>
        <p className="muted small">One entry per line. Matching requests are blocked by the guardrail.</p>
        <div className="grid-3">
          <TextAreaField label="Blocked terms" name="blocked_terms" rows={5} value={form.blockedTerms} onChange={(e) => set('blockedTerms', e.target.value)} />
          <TextAreaField label="Blocked patterns (regular expressions)" name="blocked_patterns" rows={5} value={form.blockedPatterns} onChange={(e) => set('blockedPatterns', e.target.value)} />
          <TextAreaField label="Blocked topics" name="blocked_topics" rows={5} value={form.blockedTopics} onChange={(e) => set('blockedTopics', e.target.value)} />
        </div>

        <ErrorMessage error={error} />
        <Notice>{notice}</Notice>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy}>
            Save settings
          </button>
        </div>
      </form>

      <section className="card danger-zone" aria-labelledby="danger-title">
        <h2 id="danger-title">Archive or delete</h2>
        <p className="muted small">An archived project refuses new traces and executions; its data stays. Deleting removes the project and all its data.</p>
        <div className="form-actions">
          <button type="button" disabled={busy} onClick={() => void run(() => api.updateProject(project.id, { status: archived ? 'active' : 'archived' }), archived ? 'Project restored.' : 'Project archived.')}>
            {archived ? 'Restore project' : 'Archive project'}
          </button>
          <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>
            Delete project
          </button>
        </div>
      </section>

      <ConfirmDialog
        open={confirmDelete}
        title={`Delete ${project.name}?`}
        confirmLabel="Delete project"
        confirmText={project.name}
        busy={busy}
        onCancel={() => {
          setConfirmDelete(false);
          setDeleteError(undefined);
        }}
        onConfirm={() => {
          setBusy(true);
          api
            .deleteProject(project.id)
            .then(async () => {
              setConfirmDelete(false);
              await onDeleted();
            })
            .catch(setDeleteError)
            .finally(() => setBusy(false));
        }}
      >
        <p>This deletes the project, its models, keys, traces and statistics. It cannot be undone.</p>
        <ErrorMessage error={deleteError} />
      </ConfirmDialog>
    </section>
  );
}
