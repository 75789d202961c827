import { useSearchParams } from 'react-router';

/**
 * The console's list/detail pages keep the open row in `?id=` (so a reload or a shared link shows
 * it): the id when it is a positive integer, else null, and `back` to the list (other params kept).
 */
export function useDetailId(): { id: number | null; back: () => void } {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('id'));
  const back = () => {
    const p = new URLSearchParams(params);
    p.delete('id');
    setParams(p);
  };
  return { id: Number.isInteger(id) && id > 0 ? id : null, back };
}
