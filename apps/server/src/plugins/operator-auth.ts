import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { resolveOperator, type OperatorPrincipal } from '../modules/console/operators.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireOperator` on console routes. */
    operator: OperatorPrincipal | null;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length).trim();
}

async function authenticate(request: FastifyRequest): Promise<OperatorPrincipal> {
  const token = bearer(request);
  if (!token) throw new AppError('UNAUTHENTICATED');
  const { db, clock, consoleSessionPolicy } = request.server.ctx;
  const operator = await resolveOperator({ db, clock, policy: consoleSessionPolicy }, token);
  if (!operator) throw new AppError('UNAUTHENTICATED');
  request.operator = operator;
  return operator;
}

/**
 * An administrator without a passkey reaches only the passkey registration, who-am-I, the password change
 * and sign-out, while CONSOLE_ADMIN_PASSKEY is `required` (ADR 0033).
 */
function holdUntilPasskey(request: FastifyRequest, operator: OperatorPrincipal): void {
  if (
    operator.role === 'administrator' &&
    !operator.hasPasskey &&
    request.server.ctx.config.CONSOLE_ADMIN_PASSKEY === 'required'
  ) {
    throw new AppError('OPERATOR_PASSKEY_REQUIRED');
  }
}

/**
 * onRequest hook of console routes: a live operator session (header `Authorization: Bearer <token>`; a
 * user's `token` header is not accepted here) whose one-time password has been changed.
 */
export async function requireOperator(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const operator = await authenticate(request);
  if (operator.mustChangePassword) throw new AppError('OPERATOR_PASSWORD_CHANGE_REQUIRED');
  holdUntilPasskey(request, operator);
  // An editor writes news and nothing else: no review queue, no customer's data (ADR 0029).
  if (operator.role === 'editor') throw new AppError('FORBIDDEN');
}

/** As `requireOperator`, and the operator must be an administrator. */
export async function requireAdministrator(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireOperator(request, reply);
  if (request.operator?.role !== 'administrator') throw new AppError('FORBIDDEN');
}

/** As `requireOperator`, and the operator must be an editor or an administrator (news articles, ADR 0029). */
export async function requireEditor(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const operator = await authenticate(request);
  if (operator.mustChangePassword) throw new AppError('OPERATOR_PASSWORD_CHANGE_REQUIRED');
  holdUntilPasskey(request, operator);
  if (operator.role !== 'editor' && operator.role !== 'administrator') throw new AppError('FORBIDDEN');
}

/**
 * The operator's own passkeys: any role, once the one-time password is changed, and before an
 * administrator has a passkey (registering one is the way out of the hold).
 */
export async function requireOperatorOwnPasskeys(
  request: FastifyRequest,
  _reply: FastifyReply,
): Promise<void> {
  const operator = await authenticate(request);
  if (operator.mustChangePassword) throw new AppError('OPERATOR_PASSWORD_CHANGE_REQUIRED');
}

/** For the few routes an operator may call before changing the one-time password (me, password, logout). */
export async function requireOperatorSession(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  await authenticate(request);
}

export function operatorOf(request: FastifyRequest): OperatorPrincipal {
  if (!request.operator) throw new AppError('UNAUTHENTICATED');
  return request.operator;
}
