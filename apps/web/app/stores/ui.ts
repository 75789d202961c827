import { create } from 'zustand';
import type { Lang } from '@cfx/contract/messages.ts';

/**
 * UI state. The language itself comes from the `lang` cookie through the root loader
 * (see i18n/index.ts useLang); `lang` here mirrors it on the client for non-React code.
 * Theme type: 1 on `/` (transparent header over the dark hero), 2 elsewhere.
 */
export type ThemeType = 1 | 2;

interface UiState {
  lang: Lang;
  themeType: ThemeType;
  /** Personal-center navigation index. */
  navIndex: number;
  /** Search box visibility on narrow screens. */
  searchVisible: boolean;
  online: boolean;
  setLang(lang: Lang): void;
  setThemeType(t: ThemeType): void;
  setNavIndex(i: number): void;
  setSearchVisible(v: boolean): void;
  setOnline(v: boolean): void;
}

export const useUiStore = create<UiState>()((set) => ({
  lang: 'zh',
  themeType: 2,
  navIndex: 0,
  searchVisible: false,
  online: true,
  setLang: (lang) => set({ lang }),
  setThemeType: (themeType) => set({ themeType }),
  setNavIndex: (navIndex) => set({ navIndex }),
  setSearchVisible: (searchVisible) => set({ searchVisible }),
  setOnline: (online) => set({ online }),
}));
