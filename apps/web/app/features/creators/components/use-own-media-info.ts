import { useCallback, useEffect, useState } from 'react';
import { getOwnMediaInfo } from '../api/own-creator.ts';
import type { MediaInfo } from '../api/types.ts';

export interface OwnMediaInfo {
  status: 'loading' | 'ready' | 'error';
  info: MediaInfo | null;
  /** The server's message when the call failed. */
  error: string;
  retry(): void;
}

/**
 * The signed-in creator's own media links and stats (selectCreatorMediaRelatedInfo without an id),
 * fetched when the profile editor opens: the page may have been rendered before the last edit (in
 * another tab or device), the editor must start from what the server holds now.
 */
export function useOwnMediaInfo(): OwnMediaInfo {
  const [state, setState] = useState<Omit<OwnMediaInfo, 'retry'>>({ status: 'loading', info: null, error: '' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const ctl = new AbortController();
    setState((s) => ({ ...s, status: 'loading', error: '' }));
    void getOwnMediaInfo(ctl.signal).then((r) => {
      if (ctl.signal.aborted) return;
      if (r.ok && r.data) setState({ status: 'ready', info: r.data, error: '' });
      else setState((s) => ({ ...s, status: 'error', error: r.message }));
    });
    return () => ctl.abort();
  }, [attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
