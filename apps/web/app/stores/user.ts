import { create } from 'zustand';
import type { UserProfile } from '@cfx/contract/user.ts';
import { STORAGE } from '../config.ts';
import { readStorage, writeStorage } from '../lib/storage.ts';

/** Client user state. The token lives in localStorage under `token`. */
export interface UserFields {
  token: string;
  avatar: string;
  nickname: string;
  isRealname: '0' | '1' | '';
  walletAddress: string;
  isLoginWallet: boolean;
  mobile: string;
  /** The server sends 1 for a creator. */
  isCreator: number;
  accountId: string;
}

interface UserState extends UserFields {
  /** True once the stored token has been read (client only). */
  hydrated: boolean;
  /** True once the profile of the current token has been fetched. */
  profileLoaded: boolean;
  loadFromStorage(): void;
  setToken(token: string): void;
  setProfile(profile: UserProfile): void;
  /** Wallet link state: the linked address and whether it is connected in this session. */
  setWallet(walletAddress: string, isLoginWallet: boolean): void;
  /** Clears the user state, the stored token and the wallet address (logout, session lost). */
  clear(): void;
}

const empty: UserFields = {
  token: '',
  avatar: '',
  nickname: '',
  isRealname: '',
  walletAddress: '',
  isLoginWallet: false,
  mobile: '',
  isCreator: 0,
  accountId: '',
};

export const useUserStore = create<UserState>()((set) => ({
  ...empty,
  hydrated: false,
  profileLoaded: false,
  loadFromStorage() {
    set({ token: readStorage(STORAGE.token) ?? '', hydrated: true });
  },
  setToken(token) {
    writeStorage(STORAGE.token, token);
    set({ token, profileLoaded: false });
  },
  setProfile(p) {
    set({
      avatar: p.profpicUrl,
      nickname: p.nickname,
      isRealname: p.isRealname,
      walletAddress: p.walletAddress,
      mobile: p.mobile,
      isCreator: p.isCreator,
      accountId: p.accountId,
      profileLoaded: true,
    });
  },
  setWallet(walletAddress, isLoginWallet) {
    set({ walletAddress, isLoginWallet: isLoginWallet && walletAddress !== '' });
  },
  clear() {
    writeStorage(STORAGE.token, null);
    set({ ...empty, hydrated: true, profileLoaded: false });
  },
}));

export const isLoggedIn = (s: { token: string }) => s.token !== '';
export const isCreatorUser = (s: { isCreator: number }) => s.isCreator === 1;
