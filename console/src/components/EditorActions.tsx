/** An editor form's refusal (if any), then its submit button (disabled while saving) and Cancel. */
export function EditorActions({ error, submit, pending, onCancel }: { error: string | null | undefined; submit: string; pending: boolean; onCancel: () => void }) {
  return (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary small" disabled={pending}>
          {submit}
        </button>
        <button type="button" className="ghost small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
