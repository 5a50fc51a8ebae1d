import type { FastifyRequest } from 'fastify';
import { OK_CODE, translate } from '@kabuto/contract';

/** The success envelope, with "Request Success" in the request's language. */
export function ok<T>(request: FastifyRequest, data: T): { code: number; msg: string; data: T } {
  return { code: OK_CODE, msg: translate(request.locale, 'ok'), data };
}
