import { useCallback, useEffect, useRef, useState } from 'react';

export interface Remote<T> {
  data: T | undefined;
  error: boolean;
  loading: boolean;
  reload(): void;
}

/**
 * A small fetch-on-mount hook for the asset page's pieces (the page does not mount TanStack Query;
 * this keeps its chunk small). `key` null = do not load; a key change reloads; the previous data is
 * kept while reloading. `load` throws (or rejects) on failure.
 */
export function useRemote<T>(key: string | null, load: () => Promise<T>): Remote<T> {
  const [state, setState] = useState<{ data?: T; error: boolean; loading: boolean }>({ error: false, loading: key !== null });
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    if (key === null) {
      setState({ error: false, loading: false });
      return;
    }
    let alive = true;
    setState((s) => ({ ...s, loading: true, error: false }));
    loadRef.current().then(
      (data) => alive && setState({ data, error: false, loading: false }),
      () => alive && setState((s) => ({ ...s, error: true, loading: false })),
    );
    return () => {
      alive = false;
    };
  }, [key, nonce]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
