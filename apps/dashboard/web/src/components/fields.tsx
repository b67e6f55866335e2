import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';

interface FieldFrame {
  label: string;
  hint?: ReactNode;
  /** Messages tied to this input (aria-describedby). */
  error?: string;
}

function Frame({ id, label, hint, error, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

const describedBy = (id: string, hint: unknown, error: unknown) => [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

export function TextField({ label, hint, error, ...input }: FieldFrame & ComponentPropsWithRef<'input'>) {
  const id = useId();
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...input} />
    </Frame>
  );
}

export function TextAreaField({ label, hint, error, ...input }: FieldFrame & ComponentPropsWithRef<'textarea'>) {
  const id = useId();
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...input} />
    </Frame>
  );
}

export function SelectField({ label, hint, error, children, ...select }: FieldFrame & ComponentPropsWithRef<'select'>) {
  const id = useId();
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <select id={id} aria-describedby={describedBy(id, hint, error)} {...select}>
        {children}
      </select>
    </Frame>
  );
}

export function CheckboxField({ label, hint, ...input }: { label: string; hint?: ReactNode } & ComponentPropsWithRef<'input'>) {
  const id = useId();
  return (
    <div className="field checkbox">
      <input id={id} type="checkbox" aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
