import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZMyNumberReveal, ZMyNumberRevealed, envelope } from '@kabuto/contract';
import { eq } from 'drizzle-orm';
import { identityVerifications } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { operatorOf, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { audit } from '../console/audit.js';
import { decryptMyNumber } from './my-number.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * The reviewer's look at an application's My Number (ADR 0022): only with a written reason, and every
 * look leaves an audit row (`identity.my_number_viewed`) written before the number is answered.
 */
export const openingConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/identity/:id/my-number',
    {
      onRequest: requireOperator,
      schema: {
        tags: ['console'],
        params: ZIdParams,
        body: ZMyNumberReveal,
        response: { 200: envelope(ZMyNumberRevealed) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const operator = operatorOf(request);
      const myNumber = await app.ctx.db.transaction(async (tx) => {
        const [row] = await tx
          .select({ userId: identityVerifications.userId, cipher: identityVerifications.myNumberCipher })
          .from(identityVerifications)
          .where(eq(identityVerifications.id, id));
        if (!row?.cipher) throw new AppError('NOT_FOUND');
        await audit(tx, {
          operatorId: operator.id,
          action: 'identity.my_number_viewed',
          targetType: 'identity',
          targetId: id,
          userId: row.userId,
          reason: request.body.reason,
          at: app.ctx.clock.now(),
        });
        return decryptMyNumber(app.ctx.myNumberKey, row.cipher);
      });
      return ok(request, { my_number: myNumber });
    },
  );
};
