import { api, apiData } from '../../../lib/api.ts';
import { PAYOUT } from './paths.ts';
import type { StrayCreditPage, StrayRefund, WithdrawPreview, Withdrawal, WithdrawalPage } from './types.ts';

export const previewWithdrawal = (amountFen: number, signal?: AbortSignal) => apiData<WithdrawPreview>(PAYOUT.withdrawPreview, { amountFen }, { silent: true, signal });
export const withdraw = (amountFen: number, smsCode: string) => api<Withdrawal>(PAYOUT.withdraw, { amountFen, smsCode });
export const listWithdrawals = (pageNum: number) => apiData<WithdrawalPage>(PAYOUT.pageListWithdraw, { pageNum, pageSize: 10 }, { silent: true });
export const listStrayCredits = (pageNum: number) => apiData<StrayCreditPage>(PAYOUT.pageListStrayCredit, { pageNum, pageSize: 10 }, { silent: true });
export const refundStrayCredit = (paymentId: number) => api<StrayRefund>(PAYOUT.refundStrayCredit, { paymentId });
