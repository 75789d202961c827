import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from '../../../i18n/index.ts';
import { useAuthOverlay } from '../../../stores/auth-overlay.ts';
import { ForgotView } from './forgot-view.tsx';
import { LoginView } from './login-view.tsx';
import { RegisterView } from './register-view.tsx';

/**
 * The login/register overlay: view 1 login, 2 register, 3 forgot password.
 * Closing resets to view 1, step 1. Loaded lazily by root.tsx on first open.
 */
export default function AuthOverlay() {
  const { t } = useTranslation();
  const open = useAuthOverlay((s) => s.open);
  const view = useAuthOverlay((s) => s.view);
  const close = useAuthOverlay((s) => s.close);
  const title = view === 'login' ? t('auth.loginTitle') : view === 'register' ? t('auth.registerTitle') : t('auth.forgotTitle');

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[200] bg-black/50" />
        <Dialog.Content
          data-testid="auth-overlay"
          data-view={view}
          aria-describedby={undefined}
          onInteractOutside={(e) => e.preventDefault()}
          className="fixed left-1/2 top-1/2 z-[201] max-h-[92vh] w-[min(420px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-card bg-surface px-6 pb-6 pt-5 shadow-pop sm:px-8"
        >
          <div className="mb-4 flex items-start justify-between">
            <Dialog.Title className="text-xl font-semibold text-ink">{title}</Dialog.Title>
            <Dialog.Close className="-mr-2 rounded px-2 text-2xl leading-none text-ink-faint hover:text-ink" aria-label={t('auth.close')} data-testid="auth-close">
              ×
            </Dialog.Close>
          </div>
          {/* key: each view starts fresh when entered */}
          {view === 'login' && <LoginView key="login" />}
          {view === 'register' && <RegisterView key="register" />}
          {view === 'forgot' && <ForgotView key="forgot" />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
