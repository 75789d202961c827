/**
 * Project application (/project-enter, /official/settled): the rules of the form, shared
 * by the server (which decides) and the web form (which checks first, with the same texts). No zod
 * here: the web bundle imports this module as values.
 */
import type { MessageKey } from './messages.ts';

/** Kinds of project an applicant may choose (labels live in the web catalogs under settled.categories). */
export const SETTLED_CATEGORIES = ['art', 'culture', 'ip', 'brand', 'music', 'other'] as const;
export type SettledCategory = (typeof SETTLED_CATEGORIES)[number];

/** Application states: submitted → reviewing → approved | rejected (staff may also decide straight from submitted). */
export const SETTLED_STATUSES = ['submitted', 'reviewing', 'approved', 'rejected'] as const;
export type SettledStatus = (typeof SETTLED_STATUSES)[number];
/** An application in one of these states is "open": a user has at most one open application at a time. */
export const SETTLED_OPEN_STATUSES: readonly SettledStatus[] = ['submitted', 'reviewing'];

export const SETTLED_LIMITS = {
  projectNameMax: 40,
  creatorNameMax: 40,
  contactNameMax: 20,
  emailMax: 100,
  descriptionMin: 20,
  descriptionMax: 2000,
  supplyMin: 1,
  supplyMax: 1_000_000,
  /** Planned issue price in fen: ￥0.01 … ￥1,000,000.00. */
  priceMinFen: 1,
  priceMaxFen: 100_000_000,
  artworkMin: 1,
  artworkMax: 9,
  qualificationMin: 1,
  qualificationMax: 5,
  rejectReasonMax: 500,
} as const;

/**
 * Upload policies (modules/uploads/policies.ts applies them by the file's magic bytes, never by its
 * name or the client's content type). Sizes are the defaults; the server may be configured lower or
 * higher (UPLOAD_IMAGE_MAX_MB, UPLOAD_FILE_MAX_MB) and tells the form its values in /official/settled/mine.
 */
export const UPLOAD_DEFAULTS = {
  imageMaxBytes: 5 * 1024 * 1024,
  fileMaxBytes: 20 * 1024 * 1024,
  /** Image sides in pixels and the largest pixel count (a decompression-bomb guard). */
  imageMinSide: 16,
  imageMaxSide: 10_000,
  imageMaxPixels: 40_000_000,
} as const;
/** Content types accepted by /official/settled/oss/upload (images). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
/** Content types accepted by /official/settled/oss/uploadfile (documents and scans). */
export const DOCUMENT_TYPES = [
  'application/pdf',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'image/jpeg',
  'image/png',
] as const;
/** What the file pickers offer (a hint only: the server sniffs the bytes). */
export const IMAGE_ACCEPT = '.jpg,.jpeg,.png,.webp,.gif,image/jpeg,image/png,image/webp,image/gif';
export const DOCUMENT_ACCEPT = '.pdf,.zip,.docx,.jpg,.jpeg,.png,application/pdf,application/zip,image/jpeg,image/png';
/** Artwork media accepted by /official/settled/oss/upload?kind=media (video and 3D collectibles). */
export const MEDIA_TYPES = ['video/mp4', 'video/webm', 'model/gltf-binary'] as const;
/** The largest artwork media file by default (UPLOAD_MEDIA_MAX_MB). */
export const MEDIA_MAX_BYTES_DEFAULT = 50 * 1024 * 1024;
export const MEDIA_ACCEPT = '.mp4,.webm,.glb,video/mp4,video/webm,model/gltf-binary';

/** The application as the form sends it (POST /official/settled). */
export interface SettledInput {
  projectName: string;
  creatorName: string;
  contactName: string;
  mobile: string;
  email: string;
  category: string;
  description: string;
  supply: number;
  /** Planned issue price, integer fen. */
  priceFen: number;
  artworkKeys: string[];
  qualificationKeys: string[];
  agree: boolean;
}

/** Fields in the order the form shows them (the first invalid one is the server's message). */
export const SETTLED_FIELDS = [
  'projectName',
  'creatorName',
  'category',
  'description',
  'supply',
  'priceFen',
  'artworkKeys',
  'qualificationKeys',
  'contactName',
  'mobile',
  'email',
  'agree',
] as const;
export type SettledField = (typeof SETTLED_FIELDS)[number];

/** The server message of each invalid field; the web catalogs hold the same texts under settled.errors.<field>. */
export const SETTLED_FIELD_MESSAGES: Record<SettledField, MessageKey> = {
  projectName: 'settledBadProjectName',
  creatorName: 'settledBadCreatorName',
  category: 'settledBadCategory',
  description: 'settledBadDescription',
  supply: 'settledBadSupply',
  priceFen: 'settledBadPrice',
  artworkKeys: 'settledBadArtwork',
  qualificationKeys: 'settledBadQualification',
  contactName: 'settledBadContactName',
  mobile: 'badMobile',
  email: 'settledBadEmail',
  agree: 'settledNotAgreed',
};

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f]/;
const MOBILE = /^1\d{10}$/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

/** Length in characters as a person counts them (code points, so 汉字 and emoji count once). */
export const charLength = (s: string) => [...s].length;

function line(v: unknown, max: number): boolean {
  if (typeof v !== 'string') return false;
  const s = v.trim();
  return s.length > 0 && charLength(s) <= max && !CONTROL_OR_NEWLINE.test(s);
}

function keys(v: unknown, min: number, max: number): boolean {
  if (!Array.isArray(v) || v.length < min || v.length > max) return false;
  if (!v.every((k) => typeof k === 'string' && k.length > 0 && k.length <= 200)) return false;
  return new Set(v).size === v.length;
}

const intIn = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/**
 * The fields that break a rule, in form order (empty: valid). Text fields are judged trimmed;
 * upload keys only by count and form here — the server also checks each key is the applicant's own
 * upload of the right kind.
 */
export function invalidSettledFields(input: Partial<Record<keyof SettledInput, unknown>>): SettledField[] {
  const L = SETTLED_LIMITS;
  const bad: Record<SettledField, boolean> = {
    projectName: !line(input.projectName, L.projectNameMax),
    creatorName: !line(input.creatorName, L.creatorNameMax),
    category: !(SETTLED_CATEGORIES as readonly unknown[]).includes(input.category),
    description: (() => {
      if (typeof input.description !== 'string') return true;
      const s = input.description.trim();
      const n = charLength(s);
      return n < L.descriptionMin || n > L.descriptionMax || CONTROL.test(s);
    })(),
    supply: !intIn(input.supply, L.supplyMin, L.supplyMax),
    priceFen: !intIn(input.priceFen, L.priceMinFen, L.priceMaxFen),
    artworkKeys: !keys(input.artworkKeys, L.artworkMin, L.artworkMax),
    qualificationKeys: !keys(input.qualificationKeys, L.qualificationMin, L.qualificationMax),
    contactName: !line(input.contactName, L.contactNameMax),
    mobile: typeof input.mobile !== 'string' || !MOBILE.test(input.mobile.trim()),
    email: typeof input.email !== 'string' || input.email.trim().length > L.emailMax || !EMAIL.test(input.email.trim()),
    agree: input.agree !== true,
  };
  return SETTLED_FIELDS.filter((f) => bad[f]);
}

/**
 * A price typed in yuan ("12", "12.5", "1,200.00") as integer fen, or null when it is not a
 * non-negative amount with at most two decimals. No floating point: the digits are shifted.
 */
export function yuanToFen(text: string): number | null {
  const s = text.trim().replace(/[,，\s]/g, '').replace(/^[￥¥]/, '');
  const m = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
