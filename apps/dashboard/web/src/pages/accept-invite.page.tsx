import { useState } from 'react';
import { ErrorMessage, Notice } from '../components/feedback';
import { TextField } from '../components/fields';
import type { Api } from '../lib/api';

/** The invite link's page: set a password (and a name) to join the organization. */
export function AcceptInvitePage({ api, token: initialToken }: { api: Api; token: string }) {
  const [token, setToken] = useState(initialToken);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <main className="login" id="main">
      <form
        className="card login-card"
        aria-labelledby="accept-title"
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          api
            .acceptInvite({ token, password, ...(name ? { name } : {}) })
            .then((user) => setDone(`Welcome, ${user.email}. You can log in now.`))
            .catch(setError)
            .finally(() => setBusy(false));
        }}
      >
        <h1 id="accept-title">Join the organization</h1>
        {done ? (
          <>
            <Notice>{done}</Notice>
            <a className="button primary" href="#/login">
              Log in
            </a>
          </>
        ) : (
          <>
            {initialToken ? null : <TextField label="Invite token" value={token} onChange={(e) => setToken(e.target.value.trim())} />}
            <TextField label="Your name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
            <TextField label="Choose a password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            <ErrorMessage error={error} />
            <button type="submit" className="primary" disabled={busy}>
              Join
            </button>
          </>
        )}
      </form>
    </main>
  );
}
