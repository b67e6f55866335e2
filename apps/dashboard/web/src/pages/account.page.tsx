import { useState } from 'react';
import { ErrorMessage, Notice, PageHeader } from '../components/feedback';
import { TextField } from '../components/fields';
import { useApp } from '../state/app-context';

/** The signed-in user, multi-factor set-up (TOTP) and log out. */
export function AccountPage() {
  const { api, user, logout } = useApp();
  const [mfaOn, setMfaOn] = useState(user.mfa_enabled);
  const [setup, setSetup] = useState<{ provisioning_uri: string; secret: string } | undefined>(undefined);
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Account" />
      <section className="card" aria-labelledby="me-title">
        <h2 id="me-title">Signed in</h2>
        <dl className="facts compact">
          <dt>Email</dt>
          <dd>{user.email}</dd>
          <dt>Name</dt>
          <dd>{user.name || '—'}</dd>
          <dt>Role</dt>
          <dd>{user.role}</dd>
          <dt>Email verified</dt>
          <dd>{user.email_verified ? 'yes' : 'no'}</dd>
        </dl>
        <button type="button" onClick={() => void logout()}>
          Log out
        </button>
      </section>

      <section className="card form-card" aria-labelledby="mfa-title">
        <h2 id="mfa-title">Multi-factor authentication</h2>
        <p>{mfaOn ? 'MFA is on: logging in asks for a code from your authenticator app.' : 'MFA is off.'}</p>
        {!mfaOn && !setup ? (
          <button type="button" className="primary" disabled={busy} onClick={() => void run(async () => setSetup(await api.startMfa()))}>
            Set up MFA
          </button>
        ) : null}
        {!mfaOn && setup ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void run(async () => {
                await api.verifyMfa(code);
                setMfaOn(true);
                setSetup(undefined);
                setCode('');
                setNotice('MFA is on.');
              });
            }}
          >
            <p>Add this account to your authenticator app with the secret below (or open the provisioning link on the device), then enter the code it shows.</p>
            <div className="field">
              <label htmlFor="mfa-secret">Secret</label>
              <input id="mfa-secret" className="secret" readOnly value={setup.secret} onFocus={(e) => e.target.select()} />
            </div>
            <p className="small break">
              <a href={setup.provisioning_uri}>Provisioning link</a>
            </p>
            <TextField label="Code from the app" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value.trim())} />
            <button type="submit" className="primary" disabled={busy}>
              Turn on MFA
            </button>
          </form>
        ) : null}
        {mfaOn ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void run(async () => {
                await api.disableMfa(code);
                setMfaOn(false);
                setCode('');
                setNotice('MFA is off.');
              });
            }}
          >
            <TextField label="Current code" hint="A code from your authenticator app turns MFA off." inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value.trim())} />
            <button type="submit" className="danger" disabled={busy}>
              Turn off MFA
            </button>
          </form>
        ) : null}
        <ErrorMessage error={error} />
        <Notice>{notice}</Notice>
      </section>
    </section>
  );
}
