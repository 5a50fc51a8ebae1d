import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { TUpload, TUploadPurpose } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { uploads } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { processImage, type ImageLimits } from './image.js';
import { thumbnailKey, type UploadStore } from './storage.js';

export type UploadRow = typeof uploads.$inferSelect;

/** A user-purpose upload as its answer (a banner image is never one). */
export function uploadView(row: UploadRow): TUpload {
  if (row.purpose === 'banner') throw new Error('a banner image is not a user upload');
  return {
    id: row.id,
    purpose: row.purpose,
    content_type: row.contentType as TUpload['content_type'],
    size: row.size,
    created_at: row.createdAt.toISOString(),
  };
}

const REFUSALS = {
  empty: 'UPLOAD_EMPTY',
  too_large: 'UPLOAD_TOO_LARGE',
  unsupported_type: 'UPLOAD_TYPE',
  heic: 'UPLOAD_HEIC',
  corrupt: 'UPLOAD_CORRUPT',
} as const;

/** Whose file an upload is: a user's own, or an operator's (for a user's conversation, or a banner). */
export type UploadOwner =
  { userId: number; operatorId?: undefined } | { userId: number | null; operatorId: number };

/**
 * Checks the bytes by content (JPEG, PNG, WebP; never by name or declared type), decodes and re-encodes
 * them upright without any metadata (image.ts), stores the new copy with its reviewer thumbnail beside it
 * and records it for its owner.
 */
export async function storeImage(
  deps: { db: Executor; clock: Clock; store: UploadStore; images: ImageLimits },
  owner: UploadOwner,
  purpose: UploadRow['purpose'],
  bytes: Uint8Array,
): Promise<UploadRow> {
  const checked = await processImage(bytes, deps.images);
  if (!checked.ok) throw new AppError(REFUSALS[checked.reason]);
  const id = randomBytes(32).toString('hex');
  await deps.store.put(thumbnailKey(id), checked.thumbnail);
  await deps.store.put(id, checked.bytes);
  const [row] = await deps.db
    .insert(uploads)
    .values({
      id,
      userId: owner.userId,
      operatorId: owner.operatorId ?? null,
      purpose,
      contentType: checked.type,
      size: checked.bytes.byteLength,
      sha256: createHash('sha256').update(checked.bytes).digest('hex'),
      createdAt: deps.clock.now(),
    })
    .returning();
  if (!row) throw new Error('upload was not recorded');
  return row;
}

/** A user's upload (storeImage), as its answer. */
export async function saveUpload(
  deps: { db: Executor; clock: Clock; store: UploadStore; images: ImageLimits },
  userId: number,
  purpose: TUploadPurpose,
  bytes: Uint8Array,
): Promise<TUpload> {
  return uploadView(await storeImage(deps, { userId }, purpose, bytes));
}

/**
 * The user's own upload of one of the given purposes, or UPLOAD_NOT_FOUND. An image staff attached to the
 * user's conversation is the user's to read, not to send as the user's own.
 */
export async function ownUpload(
  db: Executor,
  userId: number,
  id: string,
  purposes: readonly TUploadPurpose[],
): Promise<UploadRow> {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.userId, userId), isNull(uploads.operatorId)));
  if (!row || row.purpose === 'banner' || !purposes.includes(row.purpose))
    throw new AppError('UPLOAD_NOT_FOUND');
  return row;
}

export async function uploadById(db: Executor, id: string): Promise<UploadRow | undefined> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row;
}
