import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * A modal on the native <dialog>: the browser traps focus inside, Escape closes it, and focus
 * returns to what opened it. Focus starts on the element marked `data-autofocus` (showModal
 * would otherwise pick the first focusable one, the close button).
 */
export function Dialog({ open, title, onClose, children, wide }: { open: boolean; title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
      return () => {
        if (dialog.open) dialog.close();
        opener?.focus?.();
      };
    }
    return undefined;
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close">
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}

/**
 * Asks before a destructive action. With `confirmText`, the button works only once that text
 * (e.g. the project name) is typed.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  confirmText,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  confirmText?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  useEffect(() => {
    if (!open) setTyped('');
  }, [open]);
  const ready = !confirmText || typed === confirmText;
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready && !busy) onConfirm();
        }}
      >
        <div className="dialog-body">{children}</div>
        {confirmText ? (
          <div className="field">
            <label htmlFor={inputId}>
              Type <strong>{confirmText}</strong> to confirm
            </label>
            <input id={inputId} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" data-autofocus />
          </div>
        ) : null}
        <div className="dialog-actions">
          {/* Without a name to type, focus starts on the harmless choice. */}
          <button type="button" onClick={onCancel} data-autofocus={confirmText ? undefined : true}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={!ready || busy}>
            {confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
