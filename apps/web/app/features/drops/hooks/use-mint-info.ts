import { useCallback, useEffect, useState } from 'react';
import { useUserStore } from '../../../stores/user.ts';
import { mintInfo } from '../api/phases.ts';
import type { MintInfo } from '../api/types.ts';

/** While the page is open the caller's standing is refreshed this often. */
const REFRESH_MS = 4000;

/**
 * The caller's standing in a release's current phase (mintinfo), for logged-in users: loaded at
 * once, refreshed every few seconds while the page is visible and again whenever `key` changes
 * (a phase opened or closed by the page's server clock). `reload` refetches now (after an action).
 */
export function useMintInfo(projectId: number, key: string, enabled = true) {
  const token = useUserStore((s) => s.token);
  const [info, setInfo] = useState<MintInfo | null>(null);
  const reload = useCallback(async () => {
    const r = await mintInfo(projectId);
    if (r.ok) setInfo(r.data);
  }, [projectId]);
  useEffect(() => {
    if (!token || !enabled) {
      setInfo(null);
      return;
    }
    let alive = true;
    const load = async () => {
      if (document.visibilityState !== 'visible') return;
      const r = await mintInfo(projectId);
      if (alive && r.ok) setInfo(r.data);
    };
    void load();
    const id = window.setInterval(() => void load(), REFRESH_MS);
    return () => {
      alive = false;
      window.clearInterval(id);
    };
  }, [token, projectId, key, enabled]);
  return { info, reload };
}
