import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { resolveSession, type ActiveSession } from '../modules/auth/sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser` on protected routes. */
    session: ActiveSession | null;
  }
}

/**
 * onRequest hook of every protected route (before the body is parsed or validated): the `token` header must name a live session, otherwise the
 * answer is HTTP 401 with code 401 ("User information has expired, please log in again").
 */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const header = request.headers.token;
  const token = Array.isArray(header) ? header[0] : header;
  if (!token) throw new AppError('UNAUTHENTICATED');
  const { db, clock, sessionPolicy, sessionCache } = request.server.ctx;
  const session = await resolveSession(db, clock, sessionPolicy, token, sessionCache);
  if (!session) throw new AppError('UNAUTHENTICATED');
  request.session = session;
}

/** The session of a request that passed `requireUser`. */
export function sessionOf(request: FastifyRequest): ActiveSession {
  if (!request.session) throw new AppError('UNAUTHENTICATED');
  return request.session;
}

/**
 * onRequest hook of public routes that answer more to a signed-in user (e.g. watchlist stars): a live
 * session is used when the token names one; a missing or expired token reads as anonymous.
 */
export async function optionalUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const header = request.headers.token;
  const token = Array.isArray(header) ? header[0] : header;
  if (!token) return;
  const { db, clock, sessionPolicy, sessionCache } = request.server.ctx;
  request.session = await resolveSession(db, clock, sessionPolicy, token, sessionCache);
}
