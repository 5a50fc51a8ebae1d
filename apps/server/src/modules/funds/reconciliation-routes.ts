import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  STATEMENT_MAX_BYTES,
  ZBankTransferPage,
  ZBankTransferQuery,
  ZCreditMatched,
  ZCreditMatchedResult,
  ZStatementImport,
  ZStatementImportResult,
  ZTransferToDeposit,
  envelope,
} from '@kabuto/contract';
import { bankTransfers } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { operatorOf, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import { loadSettings } from '../settings/settings.js';
import { depositFromTransfer, importStatement, listTransfers } from './reconciliation.js';
import { reviewDeposit } from './review.js';
import { eq } from 'drizzle-orm';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const ZDepositCreated = z.object({ deposit_id: z.number().int() });

/**
 * Deposit reconciliation in the console (reviewers): import the bank's statement file, list the transfers
 * (unmatched ones first to look at), make a deposit from a transfer to a known account (with a reason),
 * and credit matched transfers in a batch (each its own audited decision).
 */
export const reconciliationRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['console'];
  const user = { onRequest: requireOperator };
  const { db, config } = app.ctx;
  const deps = (request: Parameters<typeof operatorOf>[0]) => ({
    clock: app.ctx.clock,
    operator: operatorOf(request),
  });

  app.post(
    '/reconciliation/statements',
    {
      ...user,
      bodyLimit: Math.ceil(STATEMENT_MAX_BYTES / 3) * 4 + 4096,
      schema: { tags, body: ZStatementImport, response: { 200: envelope(ZStatementImportResult) } },
    },
    async (request) => {
      const bytes = Buffer.from(request.body.content_base64, 'base64');
      if (bytes.length > STATEMENT_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
      const { number_prefix: prefix } = (await loadSettings(db, config)).deposit;
      const result = await db.transaction((tx) =>
        importStatement(tx, deps(request), { filename: request.body.filename, bytes }, prefix),
      );
      return ok(request, result);
    },
  );

  app.get(
    '/reconciliation/transfers',
    {
      ...user,
      schema: { tags, querystring: ZBankTransferQuery, response: { 200: envelope(ZBankTransferPage) } },
    },
    async (request) => ok(request, await listTransfers(db, request.query)),
  );

  app.post(
    '/reconciliation/transfers/:id/deposit',
    {
      ...user,
      schema: {
        tags,
        params: ZIdParams,
        body: ZTransferToDeposit,
        response: { 200: envelope(ZDepositCreated) },
      },
    },
    async (request) => {
      const outbox: EventOutbox = [];
      const { depositId } = await db.transaction((tx) =>
        depositFromTransfer(tx, deps(request), request.params.id, request.body.reason, outbox),
      );
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, { deposit_id: depositId });
    },
  );

  app.post(
    '/reconciliation/credit',
    { ...user, schema: { tags, body: ZCreditMatched, response: { 200: envelope(ZCreditMatchedResult) } } },
    async (request) => {
      const items = [];
      for (const transferId of request.body.transfer_ids) {
        const outbox: EventOutbox = [];
        try {
          const depositId = await db.transaction(async (tx) => {
            const [transfer] = await tx.select().from(bankTransfers).where(eq(bankTransfers.id, transferId));
            if (!transfer) throw new AppError('TRANSFER_NOT_FOUND');
            if (transfer.status !== 'matched' || transfer.depositId === null) {
              throw new AppError('TRANSFER_NOT_MATCHED');
            }
            await reviewDeposit(tx, deps(request), transfer.depositId, { approve: true }, outbox);
            return transfer.depositId;
          });
          await publishOutbox(app.ctx.realtime, outbox);
          items.push({ transfer_id: transferId, deposit_id: depositId, outcome: 'credited' });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          items.push({ transfer_id: transferId, deposit_id: null, outcome: error.errorName });
        }
      }
      return ok(request, { items });
    },
  );
};
