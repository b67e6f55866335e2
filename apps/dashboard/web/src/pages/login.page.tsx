import { useRef, useState } from 'react';
import { ErrorMessage, Notice } from '../components/feedback';
import { TextField } from '../components/fields';
import type { Api } from '../lib/api';
import { ApiError } from '../lib/http';
import type { User } from '../lib/types';

/**
 * Email and password; when the account has MFA the API answers `MFA code required` and the
 * form asks for the authenticator code, then sends all three.
 */
export function LoginPage({ api, notice, onLoggedIn }: { api: Api; notice?: string; onLoggedIn: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [needsOtp, setNeedsOtp] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const otpRef = useRef<HTMLInputElement>(null);

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const session = await api.login({ email, password, ...(needsOtp ? { otp } : {}) });
      onLoggedIn(session.user);
    } catch (caught) {
      if (caught instanceof ApiError && (caught.body as { mfa_required?: boolean } | undefined)?.mfa_required) {
        setNeedsOtp(true);
        // The code field appears on this render; focus it on the next.
        setTimeout(() => otpRef.current?.focus(), 0);
        if (needsOtp) setError(caught);
      } else setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login" id="main">
      <form
        className="card login-card"
        aria-labelledby="login-title"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="brand login-brand">
          <span aria-hidden="true" className="brand-mark">
            G
          </span>
          Gateway console
        </div>
        <h1 id="login-title">Log in</h1>
        <Notice>{notice}</Notice>
        <TextField label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
        <TextField label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {needsOtp ? (
          <TextField
            ref={otpRef}
            label="Authentication code"
            hint="The 6-digit code from your authenticator app."
            name="otp"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={8}
            required
            value={otp}
            onChange={(e) => setOtp(e.target.value.trim())}
          />
        ) : null}
        <ErrorMessage error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in…' : needsOtp ? 'Verify and log in' : 'Log in'}
        </button>
      </form>
    </main>
  );
}
