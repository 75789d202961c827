import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { toast } from '../../../stores/toast.ts';
import { currentPlatform, type InstallPlatform } from '../platform.ts';
import { installState, promptInstall, subscribeInstall } from '../register.ts';

const server = () => ({ prompt: null, installed: false });

/**
 * The download page's install block: the browser's own install prompt when it offered one
 * (`beforeinstallprompt`), else instructions for this platform — Safari's "Add to Home Screen" on
 * iPhone / iPad, the address bar's install icon on desktop Chrome / Edge, the menu on Android.
 */
export function InstallButton() {
  const { t } = useTranslation();
  const state = useSyncExternalStore(subscribeInstall, installState, server);
  const [platform, setPlatform] = useState<InstallPlatform | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setPlatform(currentPlatform()), []);

  const install = async () => {
    setBusy(true);
    const outcome = await promptInstall();
    setBusy(false);
    if (outcome === 'dismissed') toast.info(t('download.installDismissed'));
  };

  if (state.installed || platform === 'standalone') {
    return (
      <p className="inline-flex h-12 items-center gap-2 rounded-control bg-white/10 px-5 text-sm" data-testid="pwa-installed">
        ✓ {platform === 'standalone' ? t('download.installedHint') : t('download.installed')}
      </p>
    );
  }
  if (state.prompt) {
    return (
      <button type="button" className="btn-primary h-12 px-6 text-base" onClick={() => void install()} disabled={busy} data-testid="pwa-install">
        {busy ? t('download.installing') : t('download.install')}
      </button>
    );
  }
  const steps: { key: Exclude<InstallPlatform, 'standalone' | 'other'>; title: string; text: string }[] = [
    { key: 'ios', title: t('download.iosTitle'), text: t('download.iosSteps') },
    { key: 'android', title: t('download.androidTitle'), text: t('download.androidSteps') },
    { key: 'desktop', title: t('download.desktopTitle'), text: t('download.desktopSteps') },
  ];
  // This platform's steps first and highlighted; the others below for other devices.
  const ordered = [...steps].sort((a, b) => Number(b.key === platform) - Number(a.key === platform));
  return (
    <div data-testid="pwa-instructions" data-platform={platform ?? ''}>
      {platform === 'other' && <p className="mb-3 text-sm text-white/75">{t('download.otherSteps')}</p>}
      <ul className="grid gap-2 text-sm sm:max-w-xl">
        {ordered.map((s) => (
          <li key={s.key} className={`rounded-control px-4 py-3 ${s.key === platform ? 'bg-white/15 text-white' : 'bg-white/5 text-white/70'}`} data-testid={`pwa-steps-${s.key}`} data-current={s.key === platform ? '1' : '0'}>
            <p className="font-medium">{s.title}</p>
            <p className="mt-0.5">{s.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
