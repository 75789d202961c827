import { useEffect, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { LIMITS } from '@cfx/contract/limits.ts';
import { SITE } from '../../config.ts';
import { setLangCookie, useLang, useTranslation, type Lang } from '../../i18n/index.ts';
import { logout } from '../../lib/session.ts';
import { cutChars, shortAddress } from '../../lib/text.ts';
import { useAuthOverlay } from '../../stores/auth-overlay.ts';
import { toast } from '../../stores/toast.ts';
import { useUiStore, type ThemeType } from '../../stores/ui.ts';
import { isCreatorUser, useUserStore } from '../../stores/user.ts';
import { useWalletStore } from '../../stores/wallet.ts';
import { WalletGlyph } from '../../components/ui/wallet-glyph.tsx';
import { SearchBox, SearchIcon } from '../../features/search/components/search-box.tsx';
import { Logo } from './logo.tsx';
import { Menu, MenuButton, MenuItems, MenuSeparator, menuItemClass } from '../../components/ui/menu.tsx';
import { HeaderMessagesSlot } from '../../features/messages/components/header-messages.tsx';

/**
 * Site header: logo, menu, "more" submenu, search box, language switch, link-wallet
 * button and the user area. Theme type 1 (home) is transparent over the dark hero until the page
 * scrolls (with a light dark scrim at the top, so the white text keeps its contrast over any hero
 * artwork); theme type 2 is the solid style. The forum (BBS) entry is not open yet: a click only
 * shows the warning 功能暂未开放，敬请期待.
 */
export function Header({ themeType }: { themeType: ThemeType }) {
  const { t } = useTranslation();
  const setThemeType = useUiStore((s) => s.setThemeType);
  const searchVisible = useUiStore((s) => s.searchVisible);
  const setSearchVisible = useUiStore((s) => s.setSearchVisible);
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => setThemeType(themeType), [themeType, setThemeType]);
  useEffect(() => {
    if (themeType !== 1) return;
    const onScroll = () => setScrolled(window.scrollY > 40);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [themeType]);

  const dark = themeType === 1 && !scrolled && !searchVisible;

  return (
    <header
      data-testid="site-header"
      data-theme-type={themeType}
      data-transparent={dark ? 'true' : 'false'}
      className={`fixed inset-x-0 top-0 z-50 transition-colors duration-200 ${
        dark ? 'bg-linear-to-b from-night/40 to-transparent text-white' : 'border-b border-line bg-surface/95 text-ink shadow-sm backdrop-blur'
      }`}
    >
      <div className="page-width flex h-header items-center gap-4 xl:gap-8">
        <Link to="/" className="flex shrink-0 items-center gap-2" data-testid="header-logo" aria-label={t('app.name')}>
          <Logo />
          <span className="text-lg font-semibold tracking-wide">{t('app.name')}</span>
        </Link>

        <MainMenu dark={dark} />

        <div className="ml-auto flex min-w-0 items-center gap-2 xl:gap-3">
          <div className="hidden md:block">
            <SearchBox dark={dark} />
          </div>
          <button
            type="button"
            className="flex size-9 items-center justify-center md:hidden"
            aria-label={t('header.openSearch')}
            aria-expanded={searchVisible}
            data-testid="header-search-toggle"
            onClick={() => setSearchVisible(!searchVisible)}
          >
            <SearchIcon className="size-5" />
          </button>
          <LanguageSwitch dark={dark} />
          <LinkWalletButton dark={dark} />
          <HeaderMessagesSlot dark={dark} />
          <UserArea dark={dark} />
          <MobileMenu dark={dark} />
        </div>
      </div>
      {searchVisible && (
        <div className="border-t border-line bg-surface px-4 py-2 md:hidden">
          <SearchBox dark={false} autoFocus onDone={() => setSearchVisible(false)} />
        </div>
      )}
    </header>
  );
}

function useMenuItems() {
  const { t } = useTranslation();
  const creator = useUserStore(isCreatorUser);
  const accountId = useUserStore((s) => s.accountId);
  return [
    { key: 'home', to: '/', label: t('nav.home'), end: true },
    { key: 'releases', to: '/projects', label: t('nav.releases') },
    { key: 'market', to: '/sales', label: t('nav.market') },
    { key: 'news', to: '/news', label: t('nav.news') },
    creator && accountId
      ? { key: 'project-enter', href: `/creator/${encodeURIComponent(accountId)}`, label: t('nav.projectEnter') }
      : { key: 'project-enter', to: '/project-enter', label: t('nav.projectEnter') },
  ] as Array<{ key: string; label: string; to?: string; href?: string; end?: boolean }>;
}

function MainMenu({ dark }: { dark: boolean }) {
  const { t } = useTranslation();
  const items = useMenuItems();
  const base = 'relative whitespace-nowrap py-1 text-sm transition-colors xl:text-[15px]';
  const idle = dark ? 'text-white/80 hover:text-white' : 'text-ink-soft hover:text-brand';
  const active = dark ? 'font-semibold text-white' : 'font-semibold text-brand';
  return (
    <nav aria-label={t('nav.menu')} className="hidden items-center gap-3 lg:flex xl:gap-6">
      {items.map((item) =>
        item.href ? (
          <a
            key={item.key}
            href={item.href}
            target="_blank"
            rel="noopener"
            className={`${base} ${idle}`}
            data-testid={`nav-${item.key}`}
          >
            {item.label}
          </a>
        ) : (
          <NavLink
            key={item.key}
            to={item.to!}
            end={item.end}
            prefetch="intent"
            className={({ isActive }) => `${base} ${isActive ? active : idle}`}
            data-testid={`nav-${item.key}`}
          >
            {item.label}
          </NavLink>
        ),
      )}
      {/* Below 96rem the row has no room for it (English labels at 1280 px): it moves into 更多. */}
      <button type="button" className={`${base} ${idle} hidden min-[96rem]:inline`} data-testid="nav-bbs" onClick={() => toast.warning(t('nav.bbsNotOpen'))}>
        {t('nav.bbs')}
      </button>
      <Menu>
        <MenuButton className={`${base} ${idle} flex items-center gap-1`} data-testid="nav-more">
          {t('nav.more')} <Chevron />
        </MenuButton>
        <MenuItems align="start" data-testid="nav-more-menu">
          <NarrowBbsItem />
          <MoreItems />
        </MenuItems>
      </Menu>
    </nav>
  );
}

/**
 * The BBS entry inside 更多 below 96rem (1536 px), where the row hides its own. It
 * renders only while the menu is open — in the browser, after hydration — so the width is read
 * when the menu opens and the server's HTML never depends on it.
 */
function NarrowBbsItem() {
  const { t } = useTranslation();
  if (window.matchMedia('(min-width: 96rem)').matches) return null;
  return (
    <button type="button" role="menuitem" className={menuItemClass} data-testid="more-bbs" onClick={() => toast.warning(t('nav.bbsNotOpen'))}>
      {t('nav.bbs')}
    </button>
  );
}

function MoreItems() {
  const { t } = useTranslation();
  return (
    <>
      <Link to="/help/part5-1" role="menuitem" className={menuItemClass} data-testid="more-help">
        {t('nav.helpQa')}
      </Link>
      <a href={SITE.videoSiteUrl} target="_blank" rel="noopener noreferrer" role="menuitem" className={menuItemClass} data-testid="more-video">
        {t('nav.videoAccount')}
        <span className="sr-only">{t('nav.external')}</span> <ExternalIcon />
      </a>
      <a href={SITE.microblogUrl} target="_blank" rel="noopener noreferrer" role="menuitem" className={menuItemClass} data-testid="more-microblog">
        {t('nav.microblogAccount')}
        <span className="sr-only">{t('nav.external')}</span> <ExternalIcon />
      </a>
    </>
  );
}

/** Narrow screens: the menu collapses into one dropdown. */
function MobileMenu({ dark }: { dark: boolean }) {
  const { t } = useTranslation();
  const items = useMenuItems();
  return (
    <Menu className="relative lg:hidden">
      <MenuButton
        className={`flex size-9 items-center justify-center rounded-md ${dark ? 'text-white' : 'text-ink'}`}
        aria-label={t('nav.menu')}
        data-testid="nav-mobile"
      >
        <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
          <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" />
        </svg>
      </MenuButton>
      <MenuItems data-testid="nav-mobile-menu">
        {items.map((item) =>
          item.href ? (
            <a key={item.key} href={item.href} target="_blank" rel="noopener" role="menuitem" className={menuItemClass}>
              {item.label}
            </a>
          ) : (
            <Link key={item.key} to={item.to!} role="menuitem" className={menuItemClass}>
              {item.label}
            </Link>
          ),
        )}
        <button type="button" role="menuitem" className={menuItemClass} data-testid="nav-mobile-bbs" onClick={() => toast.warning(t('nav.bbsNotOpen'))}>
          {t('nav.bbs')}
        </button>
        <MenuSeparator />
        <MoreItems />
        <MenuSeparator />
        <MobileLanguageItems />
      </MenuItems>
    </Menu>
  );
}

/** 中文 / English: sets the `lang` cookie (1 year, path /) and reloads so SSR renders in it. */
function LanguageSwitch({ dark }: { dark: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const choose = (next: Lang) => chooseLanguage(lang, next);
  const btn = (value: Lang) => (
    <button
      type="button"
      onClick={() => choose(value)}
      aria-pressed={lang === value}
      data-testid={`lang-switch-${value}`}
      lang={value === 'zh' ? 'zh-CN' : 'en'}
      className={`rounded px-1.5 py-0.5 ${
        lang === value ? (dark ? 'bg-white/20 text-white' : 'bg-brand-soft text-brand') : dark ? 'text-white/70 hover:text-white' : 'text-ink-faint hover:text-ink'
      }`}
    >
      {t(value === 'zh' ? 'lang.zh' : 'lang.en')}
    </button>
  );
  return (
    <div role="group" aria-label={t('header.language')} className="hidden shrink-0 items-center whitespace-nowrap text-xs sm:flex" data-testid="lang-switch">
      {btn('zh')}
      <span aria-hidden className={dark ? 'text-white/40' : 'text-line'}>
        /
      </span>
      {btn('en')}
    </div>
  );
}

function MobileLanguageItems() {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <>
      {(['zh', 'en'] as const).map((value) => (
        <button
          key={value}
          type="button"
          role="menuitem"
          aria-current={lang === value ? 'true' : undefined}
          className={`${menuItemClass} ${lang === value ? 'font-medium text-brand' : ''}`}
          onClick={() => chooseLanguage(lang, value)}
        >
          {t(value === 'zh' ? 'lang.zh' : 'lang.en')}
        </button>
      ))}
    </>
  );
}

function chooseLanguage(current: Lang, next: Lang) {
  if (next === current) return;
  setLangCookie(next);
  window.location.reload();
}

/**
 * the link-wallet button shows unless a wallet is linked and connected; then a wallet icon
 * (short address in a tooltip) opens the wallet home — Fluent's site in a new tab, or the dev
 * wallet's own panel. Linking needs a login; the dialog is a lazy chunk.
 */
function LinkWalletButton({ dark }: { dark: boolean }) {
  const { t } = useTranslation();
  const loggedIn = useUserStore((s) => s.token !== '');
  const walletConnected = useUserStore((s) => s.isLoginWallet && s.walletAddress !== '');
  const openDialog = useWalletStore((s) => s.openDialog);
  if (walletConnected) return <WalletIconButton dark={dark} />;
  return (
    <button
      type="button"
      data-testid="header-link-wallet"
      onClick={() => (loggedIn ? openDialog() : toast.error(t('wallet.loginFirst')))}
      className={`hidden h-8 shrink-0 items-center whitespace-nowrap rounded-full border px-3 text-xs sm:inline-flex ${
        dark ? 'border-white/40 text-white hover:bg-white/10' : 'border-brand text-brand hover:bg-brand-soft'
      }`}
    >
      {t('header.linkWallet')}
    </button>
  );
}

function WalletIconButton({ dark }: { dark: boolean }) {
  const { t } = useTranslation();
  const address = useUserStore((s) => s.walletAddress);
  const kind = useWalletStore((s) => s.kind);
  const openPanel = useWalletStore((s) => s.openPanel);
  const short = shortAddress(address);
  const openHome = () => {
    if (kind === 'dev') openPanel();
    else window.open(SITE.fluentHomeUrl, '_blank', 'noopener,noreferrer');
  };
  return (
    <span className="group relative hidden sm:inline-flex">
      <button
        type="button"
        data-testid="header-wallet"
        data-kind={kind || 'fluent'}
        data-address={address}
        aria-label={t('wallet.iconLabel', { address: short })}
        aria-describedby="header-wallet-tip"
        onClick={openHome}
        className={`flex size-8 items-center justify-center rounded-full border ${
          dark ? 'border-white/40 text-white hover:bg-white/10' : 'border-brand/60 text-brand hover:bg-brand-soft'
        }`}
      >
        <WalletGlyph className="size-[18px]" />
        {kind === 'dev' && <span aria-hidden className="absolute -right-0.5 -top-0.5 size-2.5 rounded-full border-2 border-surface bg-warning" />}
      </button>
      <span
        id="header-wallet-tip"
        role="tooltip"
        data-testid="header-wallet-tooltip"
        className="pointer-events-none absolute right-0 top-full z-10 mt-2 hidden whitespace-nowrap rounded-control bg-night px-2.5 py-1 font-mono text-xs text-white shadow-pop group-hover:block group-focus-within:block"
      >
        {kind === 'dev' ? `${t('wallet.devBadge')} · ${short}` : short}
      </span>
    </span>
  );
}

function UserArea({ dark }: { dark: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  const nickname = useUserStore((s) => s.nickname);
  const avatar = useUserStore((s) => s.avatar);
  const openOverlay = useAuthOverlay((s) => s.openOverlay);

  if (!hydrated) return <span className="inline-block h-8 w-20" aria-hidden />;
  if (!token) {
    return (
      <button
        type="button"
        data-testid="header-login"
        onClick={() => openOverlay('login')}
        className={`h-8 shrink-0 whitespace-nowrap rounded-full px-4 text-sm font-medium ${dark ? 'bg-white text-night hover:bg-white/90' : 'bg-brand text-white hover:bg-brand-strong'}`}
      >
        {t('header.login')}
      </button>
    );
  }
  return (
    <Menu>
      <MenuButton data-testid="header-user-menu" aria-label={t('header.userMenu')} className="flex items-center gap-2 rounded-full py-1 pl-1 pr-2">
        <Avatar url={avatar} />
        <span className="hidden max-w-[5em] truncate text-sm sm:inline" data-testid="header-nickname">
          {cutChars(nickname, LIMITS.headerNicknameCut)}
        </span>
        <Chevron className={dark ? 'text-white/70' : 'text-ink-faint'} />
      </MenuButton>
      <MenuItems data-testid="user-menu">
        <button type="button" role="menuitem" className={menuItemClass} data-testid="menu-personal-center" onClick={() => navigate('/personal-center')}>
          {t('header.personalCenter')}
        </button>
        <button type="button" role="menuitem" className={menuItemClass} data-testid="menu-logout" onClick={() => void logout()}>
          {t('header.logout')}
        </button>
      </MenuItems>
    </Menu>
  );
}

export function Avatar({ url, size = 'size-8' }: { url: string; size?: string }) {
  return url ? (
    <img src={url} alt="" className={`${size} rounded-full bg-canvas object-cover`} data-testid="header-avatar" />
  ) : (
    <span className={`${size} inline-block rounded-full bg-gradient-to-br from-brand to-accent`} aria-hidden />
  );
}

function Chevron({ className = '' }: { className?: string }) {
  return (
    <svg viewBox="0 0 12 12" className={`size-3 ${className}`} fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden>
      <path d="m3 4.5 3 3 3-3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function ExternalIcon() {
  return (
    <svg viewBox="0 0 12 12" className="size-3 text-ink-faint" fill="none" stroke="currentColor" strokeWidth="1.3" aria-hidden>
      <path d="M5 2H2.5v7.5H10V7M7 2h3v3M10 2 5.5 6.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
