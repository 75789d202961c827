/**
 * Client checks of the project application, the same rules the server applies (it checks again):
 * the form's fields through packages/contract's invalidSettledFields, and each chosen file by its
 * size and extension before it is sent (the server then judges its bytes).
 */
import { invalidSettledFields, yuanToFen, type SettledField, type SettledInput } from '@cfx/contract/settled-rules.ts';

export interface SettledFormValues {
  projectName: string;
  creatorName: string;
  category: string;
  description: string;
  /** As typed: digits. */
  supply: string;
  /** As typed, in yuan ("99", "99.5", "1,200.00"). */
  price: string;
  contactName: string;
  mobile: string;
  email: string;
  agree: boolean;
  artworkKeys: string[];
  qualificationKeys: string[];
}

export const EMPTY_FORM: SettledFormValues = {
  projectName: '',
  creatorName: '',
  category: '',
  description: '',
  supply: '',
  price: '',
  contactName: '',
  mobile: '',
  email: '',
  agree: false,
  artworkKeys: [],
  qualificationKeys: [],
};

/** The body POST /official/settled takes: text trimmed, supply a number, the price in integer fen. */
export function toSettledInput(v: SettledFormValues): SettledInput {
  const supply = v.supply.trim().replace(/[,，\s]/g, '');
  return {
    projectName: v.projectName.trim(),
    creatorName: v.creatorName.trim(),
    category: v.category,
    description: v.description.trim(),
    supply: /^\d{1,9}$/.test(supply) ? Number(supply) : NaN,
    priceFen: yuanToFen(v.price) ?? NaN,
    contactName: v.contactName.trim(),
    mobile: v.mobile.trim(),
    email: v.email.trim(),
    agree: v.agree,
    artworkKeys: v.artworkKeys,
    qualificationKeys: v.qualificationKeys,
  };
}

/** The fields that break a rule, in form order (the server answers the first of them). */
export function validateSettledForm(v: SettledFormValues): SettledField[] {
  return invalidSettledFields(toSettledInput(v));
}

export type FileProblem = 'uploadEmpty' | 'uploadTooLarge' | 'uploadBadImageType' | 'uploadBadFileType';

const IMAGE_EXT = /\.(jpe?g|png|webp|gif)$/i;
const DOCUMENT_EXT = /\.(pdf|zip|docx|jpe?g|png)$/i;

/**
 * A first look at a chosen file (the server decides by its bytes): empty, larger than the limit, or
 * an extension the field does not take. Null when it may be sent.
 */
export function checkFile(file: { name: string; size: number }, kind: 'image' | 'document', maxBytes: number): FileProblem | null {
  if (file.size === 0) return 'uploadEmpty';
  if (file.size > maxBytes) return 'uploadTooLarge';
  if (kind === 'image' && !IMAGE_EXT.test(file.name)) return 'uploadBadImageType';
  if (kind === 'document' && !DOCUMENT_EXT.test(file.name)) return 'uploadBadFileType';
  return null;
}

/** Megabytes for the messages ("5", "0.5"). */
export const megabytes = (bytes: number) => String(Math.round((bytes / (1024 * 1024)) * 10) / 10);
