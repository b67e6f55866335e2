import { useState } from 'react';
import { CopyButton } from '../components/copy-button';
import { ErrorMessage, PageHeader } from '../components/feedback';
import { SelectField, TextField } from '../components/fields';
import type { Invite } from '../lib/types';
import { useApp } from '../state/app-context';

/** Invites (admin or owner): the answer carries the token an email would; the link is shown to pass on. */
export function MembersPage() {
  const { api } = useApp();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [invite, setInvite] = useState<Invite | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const link = invite ? `${window.location.origin}${window.location.pathname}#/accept?token=${encodeURIComponent(invite.invite_token)}` : '';

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Members" />
      <form
        className="card form-card"
        aria-labelledby="invite-title"
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          setInvite(undefined);
          api
            .invite({ email, role })
            .then((created) => {
              setInvite(created);
              setEmail('');
            })
            .catch(setError)
            .finally(() => setBusy(false));
        }}
      >
        <h2 id="invite-title">Invite a member</h2>
        <div className="grid-2">
          <TextField label="Email" type="email" name="invite_email" value={email} onChange={(e) => setEmail(e.target.value)} />
          <SelectField label="Role" name="invite_role" value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="member">member</option>
            <option value="admin">admin</option>
          </SelectField>
        </div>
        <ErrorMessage error={error} />
        <button type="submit" className="primary" disabled={busy}>
          Send invite
        </button>
      </form>
      {invite ? (
        <section className="card" aria-labelledby="invite-link-title" role="status">
          <h2 id="invite-link-title">Invite for {invite.email}</h2>
          <p>
            Pass this link to {invite.email} ({invite.role}); it sets their password. It is shown once
            {invite.expires_at ? ` and works until ${new Date(invite.expires_at).toUTCString()}` : ''}.
          </p>
          <div className="field">
            <label htmlFor="invite-link">Invite link</label>
            <input id="invite-link" className="secret" readOnly value={link} onFocus={(e) => e.target.select()} />
          </div>
          <CopyButton text={link} label="Copy link" />
        </section>
      ) : null}
    </section>
  );
}
