import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  UPLOAD_MAX_BYTES,
  ZBannerImage,
  ZUpload,
  ZUploadId,
  ZUploadPurpose,
  envelope,
  translate,
} from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { operatorOf, requireEditor, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { audit } from '../console/audit.js';
import { uploadBannerImage } from '../banners/banners.js';
import { staffUploadsImage } from '../support/support.js';
import { makeThumbnail } from './image.js';
import { thumbnailKey } from './storage.js';
import { saveUpload, uploadById } from './uploads.js';

const ZUploadParams = z.object({ id: ZUploadId });
const ZConversationParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Sends stored image bytes so that a browser shows them and nothing else: no caching, no active content. */
async function sendImage(reply: FastifyReply, contentType: string, bytes: Buffer) {
  return reply
    .header('content-type', contentType)
    .header('cache-control', 'private, no-store')
    .header('content-disposition', 'inline')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(bytes);
}

/** The multipart errors of @fastify/multipart that a client causes, by their codes. */
function clientError(error: unknown): AppError | null {
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT') {
    return new AppError(code === 'FST_REQ_FILE_TOO_LARGE' ? 'UPLOAD_TOO_LARGE' : 'VALIDATION');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_NO_FORM_DATA') {
    return new AppError('UPLOAD_MISSING_FILE');
  }
  if (typeof code === 'string' && code.startsWith('FST_')) return new AppError('VALIDATION');
  return null;
}

/** The multipart form of an upload: its `purpose` field (when sent) and its one `file`. */
async function readImageForm(
  request: FastifyRequest,
): Promise<{ purpose: unknown; bytes: Buffer | undefined }> {
  let purpose: unknown;
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new AppError('UPLOAD_MISSING_FILE');
        bytes = await part.toBuffer();
      } else if (part.fieldname === 'purpose') {
        purpose = part.value;
      }
    }
  } catch (error) {
    throw clientError(error) ?? error;
  }
  return { purpose, bytes };
}

/** Uploads (multipart, one image of at most 10 MB) and reading them back: by their owner, and by operators. */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 100 },
  });

  app.post(
    '/uploads',
    {
      onRequest: requireUser,
      schema: {
        tags: ['uploads'],
        description:
          'multipart/form-data with a `purpose` field (identity_front, identity_back, bank_account, deposit_proof) and a `file` field',
        response: { 200: envelope(ZUpload) },
      },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const { purpose, bytes } = await readImageForm(request);
      const parsed = ZUploadPurpose.safeParse(purpose);
      if (!parsed.success) {
        const message = translate(request.locale, 'validation.uploadPurpose');
        throw new AppError('VALIDATION', {}, { issues: [{ field: 'purpose', rule: 'enum', message }] });
      }
      if (bytes === undefined) throw new AppError('UPLOAD_MISSING_FILE');
      const { db, clock, uploads, images } = app.ctx;
      return ok(request, await saveUpload({ db, clock, store: uploads, images }, userId, parsed.data, bytes));
    },
  );

  app.get(
    '/uploads/:id',
    { onRequest: requireUser, schema: { tags: ['uploads'], params: ZUploadParams } },
    async (request, reply) => {
      const row = await uploadById(app.ctx.db, request.params.id);
      // Another user's upload answers exactly as a missing one.
      if (!row || row.userId !== sessionOf(request).userId) throw new AppError('UPLOAD_NOT_FOUND');
      const bytes = await app.ctx.uploads.get(row.id);
      if (!bytes) throw new AppError('UPLOAD_NOT_FOUND');
      return sendImage(reply, row.contentType, bytes);
    },
  );

  /**
   * The upload, or its thumbnail (made now and kept when the upload predates thumbnails), for an operator;
   * every view is audited.
   */
  async function operatorView(request: FastifyRequest, reply: FastifyReply, thumbnail: boolean) {
    const { id } = ZUploadParams.parse(request.params);
    const row = await uploadById(app.ctx.db, id);
    if (!row) throw new AppError('UPLOAD_NOT_FOUND');
    const { uploads, images } = app.ctx;
    let bytes = await uploads.get(thumbnail ? thumbnailKey(row.id) : row.id);
    if (!bytes && thumbnail) {
      const original = await uploads.get(row.id);
      if (original) {
        bytes = await makeThumbnail(original, images.thumbnailSide);
        await uploads.put(thumbnailKey(row.id), bytes);
      }
    }
    if (!bytes) throw new AppError('UPLOAD_NOT_FOUND');
    await audit(app.ctx.db, {
      operatorId: operatorOf(request).id,
      action: 'upload.view',
      targetType: 'upload',
      targetId: row.id,
      userId: row.userId,
      after: thumbnail ? { purpose: row.purpose, thumbnail: true } : { purpose: row.purpose },
      at: app.ctx.clock.now(),
    });
    return sendImage(reply, thumbnail ? 'image/jpeg' : row.contentType, bytes);
  }

  /**
   * An operator's image for a support conversation (sent by a reply naming it) and an editor's banner image:
   * the same checks and re-encoding as a user's upload (ADR 0041). Multipart with one `file` field.
   */
  app.post(
    '/console/support/:id/images',
    {
      onRequest: requireOperator,
      schema: { tags: ['console'], params: ZConversationParams, response: { 200: envelope(ZBannerImage) } },
    },
    async (request) => {
      const { bytes } = await readImageForm(request);
      if (bytes === undefined) throw new AppError('UPLOAD_MISSING_FILE');
      const { db, clock, uploads, images } = app.ctx;
      const row = await staffUploadsImage(
        { db, clock, store: uploads, images },
        operatorOf(request).id,
        request.params.id,
        bytes,
      );
      return ok(request, { id: row.id, content_type: row.contentType, size: row.size });
    },
  );

  app.post(
    '/console/banners/images',
    { onRequest: requireEditor, schema: { tags: ['console'], response: { 200: envelope(ZBannerImage) } } },
    async (request) => {
      const { bytes } = await readImageForm(request);
      if (bytes === undefined) throw new AppError('UPLOAD_MISSING_FILE');
      const { db, clock, uploads, images } = app.ctx;
      const row = await uploadBannerImage(
        { db, clock, store: uploads, images },
        operatorOf(request).id,
        bytes,
      );
      return ok(request, { id: row.id, content_type: row.contentType, size: row.size });
    },
  );

  app.get(
    '/console/uploads/:id/thumbnail',
    { onRequest: requireOperator, schema: { tags: ['console'], params: ZUploadParams } },
    async (request, reply) => operatorView(request, reply, true),
  );

  app.get(
    '/console/uploads/:id',
    { onRequest: requireOperator, schema: { tags: ['console'], params: ZUploadParams } },
    async (request, reply) => operatorView(request, reply, false),
  );
};
