import {
  ZApplicationProfileView,
  ageOn,
  maskTail,
  type TAccountApplication,
  type TApplicationView,
  type TOpeningSettings,
} from '@kabuto/contract';
import type { identityVerifications } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { encryptMyNumber } from './my-number.js';

type IdentityRow = typeof identityVerifications.$inferSelect;

/**
 * The account application's columns of identity_verifications (ADR 0022): the reading, the birth date, the
 * profile, the document, the encrypted My Number with its last four digits, the tax-account choices. The
 * application refuses an applicant under the published minimum age at the server's Tokyo date.
 */
export function applicationColumns(
  input: TAccountApplication,
  key: Buffer,
  settings: TOpeningSettings,
  today: string,
) {
  if (ageOn(input.birth_date, today) < settings.min_age) {
    throw new AppError('APPLICANT_UNDER_AGE', { min: settings.min_age });
  }
  return {
    fullName: input.full_name,
    fullNameKana: input.full_name_kana,
    birthDate: input.birth_date,
    profile: input.profile,
    documentType: input.document_type,
    myNumberCipher: encryptMyNumber(key, input.my_number),
    myNumberLast4: input.my_number.slice(-4),
    // The document's own number is not asked for: views show the masked My Number in its place.
    idNumber: '',
    frontUploadId: input.front_upload_id,
    // A passport has no back worth a photo: its front stands for both.
    backUploadId: input.back_upload_id === '' ? input.front_upload_id : input.back_upload_id,
    specificAccount: input.specific_account,
    openNisa: input.open_nisa,
  } satisfies Partial<typeof identityVerifications.$inferInsert>;
}

/** The masked My Number (••••••••1234), or the older form's document number masked alike. */
export function maskedIdNumber(row: Pick<IdentityRow, 'idNumber' | 'myNumberLast4'>): string {
  return row.myNumberLast4 === null ? maskTail(row.idNumber, 4) : maskTail(`00000000${row.myNumberLast4}`, 4);
}

/** The application's answers as the customer and the reviewer see them (null before issue 23's form). */
export function applicationView(row: IdentityRow): TApplicationView | null {
  if (row.fullNameKana === null) return null;
  const profile = ZApplicationProfileView.safeParse(row.profile);
  return {
    full_name_kana: row.fullNameKana,
    birth_date: row.birthDate,
    profile: profile.success ? profile.data : null,
    document_type: row.documentType,
    my_number_masked: row.myNumberLast4 === null ? null : maskedIdNumber(row),
    specific_account: row.specificAccount,
    open_nisa: row.openNisa,
  };
}
