export function Spinner({ className = '' }: { className?: string }) {
  return (
    <span
      aria-hidden
      className={`inline-block size-4 animate-spin rounded-full border-2 border-current border-r-transparent align-[-2px] ${className}`}
    />
  );
}

/** A block loading state with a visible label. */
export function LoadingBlock({ label }: { label: string }) {
  return (
    <div className="flex items-center justify-center gap-2 py-12 text-ink-faint" role="status" data-testid="loading">
      <Spinner />
      <span>{label}</span>
    </div>
  );
}

export function EmptyBlock({ label }: { label: string }) {
  return (
    <div className="py-12 text-center text-ink-faint" data-testid="empty">
      {label}
    </div>
  );
}
