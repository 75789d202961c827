import { useEffect, useState } from 'react';
import type { TicketDetail } from '../api/tickets.ts';
import { attachmentObjectUrl } from '../api/tickets.ts';

type Attachment = TicketDetail['messages'][number]['attachments'][number];

/** A private attachment, fetched with the token (an <img src> cannot send it) and shown from an object URL. */
export function AttachmentImage({ file, alt }: { file: Attachment; alt: string }) {
  const [src, setSrc] = useState('');
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const ctrl = new AbortController();
    let url = '';
    attachmentObjectUrl(file.key, ctrl.signal)
      .then((u) => {
        url = u;
        setSrc(u);
      })
      .catch(() => !ctrl.signal.aborted && setFailed(true));
    return () => {
      ctrl.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [file.key]);
  if (failed) return <span className="flex size-24 items-center justify-center rounded-control bg-canvas text-xs text-ink-faint">{file.name}</span>;
  return src ? (
    <a href={src} target="_blank" rel="noopener" data-testid="ticket-attachment">
      <img src={src} alt={alt} className="size-24 rounded-control border border-line object-cover" />
    </a>
  ) : (
    <span className="block size-24 animate-pulse rounded-control bg-canvas" />
  );
}
