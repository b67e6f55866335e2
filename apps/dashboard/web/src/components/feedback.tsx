import type { ReactNode } from 'react';
import { ApiError } from '../lib/http';

/** The API's own message (spec error texts), or each message of a validation list. */
export function errorMessages(error: unknown): string[] {
  if (!error) return [];
  if (error instanceof ApiError) {
    const body = error.body as { errors?: unknown } | undefined;
    if (body && Array.isArray(body.errors) && body.errors.length > 1) return body.errors.map(String);
    return [error.message];
  }
  if (Array.isArray(error)) return error.map(String);
  return [error instanceof Error ? error.message : String(error)];
}

/** Errors are announced at once (role=alert) and stay on the page until the next attempt. */
export function ErrorMessage({ error, id }: { error: unknown; id?: string }) {
  const messages = errorMessages(error);
  return (
    <div id={id} role="alert" className={messages.length ? 'error-box' : 'error-box empty'}>
      {messages.length === 1 ? <p>{messages[0]}</p> : null}
      {messages.length > 1 ? (
        <ul>
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Success and progress messages, announced politely. */
export function Notice({ children }: { children?: ReactNode }) {
  return (
    <div role="status" aria-live="polite" className={children ? 'notice' : 'notice empty'}>
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty-state">{children}</p>;
}

const BADGE_TONE: Record<string, string> = {
  active: 'ok',
  completed: 'ok',
  pending: 'info',
  replay: 'info',
  queued: 'info',
  running: 'info',
  archived: 'muted',
  revoked: 'muted',
  expired: 'muted',
  dismissed: 'muted',
  tripped: 'warn',
  loop_detected: 'warn',
  failed: 'bad',
  blocked: 'bad',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${BADGE_TONE[status] ?? 'info'}`}>{status.replace(/_/g, ' ')}</span>;
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children ? <div className="page-actions">{children}</div> : null}
    </header>
  );
}
