import type { FastifyRequest } from 'fastify';
import { LOCALES, OK_CODE, translate, type Locale } from '@kabuto/contract';

/** "Request Success" in each language, looked up once: every successful answer carries it. */
const OK_MESSAGES = Object.fromEntries(LOCALES.map((locale) => [locale, translate(locale, 'ok')])) as Record<
  Locale,
  string
>;

/** The success envelope, with "Request Success" in the request's language. */
export function ok<T>(request: FastifyRequest, data: T): { code: number; msg: string; data: T } {
  return { code: OK_CODE, msg: OK_MESSAGES[request.locale], data };
}
