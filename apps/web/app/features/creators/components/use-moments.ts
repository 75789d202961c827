import { useEffect, useRef, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { listMoments } from '../api/list-moments.ts';
import type { Moment, Page } from '../api/types.ts';

/**
 * A creator's moments on their page: the first page comes with the server-rendered page (the
 * loader); "load more" fetches the next pages in the browser (with the token, so the creator's own
 * are deletable). New and deleted moments change the list in place.
 */
export function useCreatorMoments(accountId: string, first: Page<Moment> | null, pageSize: number) {
  const [list, setList] = useState<Moment[]>(first?.list ?? []);
  const [total, setTotal] = useState(first?.total ?? 0);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(first === null);
  const pages = useRef(first ? 1 : 0);

  useEffect(() => {
    setList(first?.list ?? []);
    setTotal(first?.total ?? 0);
    setFailed(first === null);
    pages.current = first ? 1 : 0;
  }, [first]);

  const more = async () => {
    if (loading) return;
    setLoading(true);
    setFailed(false);
    const r = await listMoments(api, { accountId, pageNum: pages.current + 1, pageSize });
    setLoading(false);
    if (!r.ok || !r.data) return setFailed(true);
    pages.current += 1;
    const seen = new Set(list.map((m) => m.id));
    setList((xs) => [...xs, ...r.data!.list.filter((m) => !seen.has(m.id))]);
    setTotal(r.data.total);
  };

  return {
    list,
    total,
    loading,
    failed,
    more: () => void more(),
    added: (m: Moment) => {
      setList((xs) => [m, ...xs]);
      setTotal((n) => n + 1);
    },
    removed: (id: number) => {
      setList((xs) => xs.filter((m) => m.id !== id));
      setTotal((n) => Math.max(0, n - 1));
    },
  };
}
