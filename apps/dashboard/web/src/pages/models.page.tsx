import { useState } from 'react';
import { ConfirmDialog, Dialog } from '../components/dialog';
import { Empty, ErrorMessage, Notice, PageHeader } from '../components/feedback';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../components/fields';
import { modelPayload, toModelForm, type ModelForm } from '../lib/forms';
import { formatUsd } from '../lib/format';
import { PROVIDERS, type ModelDefinition } from '../lib/types';
import { useApp } from '../state/app-context';
import { NoProject } from './no-project';

/** The current project's model registry. api_key is write-only: the list says only whether one is stored. */
export function ModelsPage() {
  const { api, project, models, reloadModels } = useApp();
  const [editing, setEditing] = useState<ModelDefinition | 'new' | undefined>(undefined);
  const [deleting, setDeleting] = useState<ModelDefinition | undefined>(undefined);
  const [deleteError, setDeleteError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  if (!project) return <NoProject title="Model registry" />;

  return (
    <section aria-labelledby="page-title">
      <PageHeader title={`Model registry: ${project.name}`}>
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          Add model
        </button>
      </PageHeader>
      <Notice>{notice}</Notice>
      {models.length === 0 ? (
        <Empty>No model registered. Add one, then pick it for a routing tier in the project settings.</Empty>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <caption className="sr-only">Models registered on {project.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Identifier</th>
                <th scope="col">Provider</th>
                <th scope="col">Endpoint</th>
                <th scope="col">API key</th>
                <th scope="col">Visibility</th>
                <th scope="col" className="num">Input / 1k</th>
                <th scope="col" className="num">Output / 1k</th>
                <th scope="col">Fallback</th>
                <th scope="col">Retention</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {models.map((m) => (
                <tr key={m.id}>
                  <th scope="row">{m.name}</th>
                  <td>
                    <code>{m.identifier}</code>
                  </td>
                  <td>{m.provider}</td>
                  <td className="small break">{m.base_url || <span className="muted">provider default</span>}</td>
                  <td>{m.has_api_key ? <span className="badge badge-ok">stored</span> : <span className="muted">none</span>}</td>
                  <td>{m.is_public ? 'public' : <span className="badge badge-info">private</span>}</td>
                  <td className="num">{formatUsd(m.input_cost_per_1k)}</td>
                  <td className="num">{formatUsd(m.output_cost_per_1k)}</td>
                  <td>{m.fallback_identifier ? <code>{m.fallback_identifier}</code> : <span className="muted">—</span>}</td>
                  <td>{m.data_retention_days} d</td>
                  <td className="actions-cell">
                    <div className="row-actions">
                      <button type="button" onClick={() => setEditing(m)} aria-label={`Edit ${m.identifier}`}>
                        Edit
                      </button>
                      <button type="button" className="danger" onClick={() => setDeleting(m)} aria-label={`Delete ${m.identifier}`}>
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {editing ? (
        <ModelDialog
          projectId={project.id}
          model={editing === 'new' ? undefined : editing}
          identifiers={models.map((m) => m.identifier)}
          onClose={() => setEditing(undefined)}
          onSaved={(saved, created) => {
            setEditing(undefined);
            reloadModels();
            setNotice(created ? `Model ${saved.identifier} added.` : `Model ${saved.identifier} saved.`);
          }}
        />
      ) : null}

      <ConfirmDialog
        open={deleting !== undefined}
        title={`Delete ${deleting?.identifier ?? ''}?`}
        confirmLabel="Delete model"
        busy={busy}
        onCancel={() => {
          setDeleting(undefined);
          setDeleteError(undefined);
        }}
        onConfirm={() => {
          if (!deleting) return;
          setBusy(true);
          api
            .deleteModel(project.id, deleting.id)
            .then(() => {
              setNotice(`Model ${deleting.identifier} deleted.`);
              setDeleting(undefined);
              reloadModels();
            })
            .catch(setDeleteError)
            .finally(() => setBusy(false));
        }}
      >
        <p>Calls naming this identifier will be refused. A model used by a routing tier or as shadow model cannot be deleted.</p>
        <ErrorMessage error={deleteError} />
      </ConfirmDialog>
    </section>
  );
}

function ModelDialog({ projectId, model, identifiers, onClose, onSaved }: { projectId: number; model?: ModelDefinition; identifiers: string[]; onClose: () => void; onSaved: (model: ModelDefinition, created: boolean) => void }) {
  const { api } = useApp();
  const [form, setForm] = useState<ModelForm>(() => toModelForm(model));
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof ModelForm>(key: K, value: ModelForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async () => {
    const payload = modelPayload(form);
    if (!payload.ok) {
      setError(payload.errors);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const saved = model ? await api.updateModel(projectId, model.id, payload.value) : await api.createModel(projectId, payload.value);
      onSaved(saved, !model);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open title={model ? `Edit ${model.identifier}` : 'Add a model'} onClose={onClose} wide>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="grid-2">
          <TextField label="Name" name="name" value={form.name} onChange={(e) => set('name', e.target.value)} data-autofocus />
          <TextField label="Identifier" hint="The value passed as model in calls; unique in the project." name="identifier" value={form.identifier} onChange={(e) => set('identifier', e.target.value)} />
          <SelectField label="Provider" name="provider" value={form.provider} onChange={(e) => set('provider', e.target.value as ModelForm['provider'])}>
            {PROVIDERS.map((provider) => (
              <option key={provider} value={provider}>
                {provider}
              </option>
            ))}
          </SelectField>
          <TextField label="Base URL" hint="Only for custom or private endpoints, e.g. http://10.0.0.5:8000/v1." name="base_url" type="url" value={form.baseUrl} onChange={(e) => set('baseUrl', e.target.value)} />
          <TextField
            label="API key"
            name="api_key"
            type="password"
            autoComplete="new-password"
            hint={model?.has_api_key ? 'A key is stored (never shown). Leave empty to keep it, or type a new one to replace it.' : 'Stored encrypted and never shown again.'}
            placeholder={model?.has_api_key ? 'stored' : ''}
            value={form.apiKey}
            onChange={(e) => set('apiKey', e.target.value)}
          />
          {model?.has_api_key ? <CheckboxField label="Remove the stored key" checked={form.removeApiKey} disabled={form.apiKey !== ''} onChange={(e) => set('removeApiKey', e.target.checked)} /> : <div />}
          <TextField label="Input cost per 1k tokens (USD)" name="input_cost_per_1k" type="number" min={0} step="any" value={form.inputCostPer1k} onChange={(e) => set('inputCostPer1k', e.target.value)} />
          <TextField label="Output cost per 1k tokens (USD)" name="output_cost_per_1k" type="number" min={0} step="any" value={form.outputCostPer1k} onChange={(e) => set('outputCostPer1k', e.target.value)} />
          <TextField label="Data retention (days)" name="data_retention_days" type="number" min={1} max={3650} step={1} value={form.dataRetentionDays} onChange={(e) => set('dataRetentionDays', e.target.value)} />
          <TextField label="Region restriction" name="region_restriction" value={form.regionRestriction} onChange={(e) => set('regionRestriction', e.target.value)} />
          <TextField label="Currency" name="currency" maxLength={3} value={form.currency} onChange={(e) => set('currency', e.target.value.toUpperCase())} />
          <TextField label="Infrastructure label" hint="Groups cost by infrastructure in the statistics." name="infrastructure" value={form.infrastructure} onChange={(e) => set('infrastructure', e.target.value)} />
          <SelectField label="Fallback model" hint="Tried when this model fails." value={form.fallbackIdentifier} onChange={(e) => set('fallbackIdentifier', e.target.value)}>
            <option value="">None</option>
            {identifiers
              .filter((identifier) => identifier !== model?.identifier)
              .map((identifier) => (
                <option key={identifier} value={identifier}>
                  {identifier}
                </option>
              ))}
          </SelectField>
          <CheckboxField label="Public model" hint="Unchecked marks a private or internal model (eligible for the secure tier)." checked={form.isPublic} onChange={(e) => set('isPublic', e.target.checked)} />
        </div>
        <TextAreaField label="Other additional config (JSON object)" name="additional_config" rows={3} value={form.extraConfig} onChange={(e) => set('extraConfig', e.target.value)} />
        <ErrorMessage error={error} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {model ? 'Save model' : 'Add model'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
