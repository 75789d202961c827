import { useEffect } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { onNewMessage, startMessageStream, stopMessageStream } from '../stream.ts';
import { UnreadBadge } from './unread-badge.tsx';

/**
 * The header's message bell (signed-in users only): a link to the message center with the live
 * unread badge. While it is mounted the tab holds the message stream; it unmounts on logout (the
 * header shows the login button instead), which closes the stream. A new message shows a toast.
 */
export function HeaderMessages({ dark }: { dark: boolean }) {
  const { t } = useTranslation();
  useEffect(() => {
    startMessageStream();
    const off = onNewMessage((m) => toast.info(m.title));
    return () => {
      off();
      stopMessageStream();
    };
  }, []);
  return (
    <Link
      to="/personal-center/message-center"
      data-testid="header-messages"
      aria-label={t('messageCenter.title')}
      title={t('messageCenter.title')}
      className={`relative flex size-8 shrink-0 items-center justify-center rounded-full ${dark ? 'text-white hover:bg-white/10' : 'text-ink-soft hover:bg-canvas hover:text-ink'}`}
    >
      <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden>
        <path d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16Z" strokeLinejoin="round" />
        <path d="M10 20a2 2 0 0 0 4 0" strokeLinecap="round" />
      </svg>
      <UnreadBadge testId="header-unread" className="absolute -right-1 -top-0.5" />
    </Link>
  );
}

/** The bell for signed-in users only (nothing — and no stream — while logged out or before the store is hydrated). */
export function HeaderMessagesSlot({ dark }: { dark: boolean }) {
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  if (!hydrated || !token) return null;
  // keyed by the token: a different login gets a fresh stream
  return <HeaderMessages key={token} dark={dark} />;
}
