import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, translate } from '@kabuto/contract';

/**
 * Whether a browser page of this origin may open the socket (ADR 0032). A browser always sends Origin on a
 * WebSocket handshake and a page cannot forge it: a page elsewhere that opens our socket (and would ride on
 * what the browser holds for us) is refused. A client that sends no Origin is not a browser page, and is
 * bound by the token it must send like any other client.
 */
export function originAllowed(origin: string | undefined, host: string, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a file) and anything else that is not an origin
  }
  return parsed.host === host || allowed.includes(parsed.origin);
}

function refuse(request: FastifyRequest, reply: FastifyReply, name: 'WS_ORIGIN_REFUSED' | 'WS_TOO_MANY') {
  const { code, http } = ERRORS[name];
  return reply.status(http).send({ code, msg: translate(request.locale, `errors.${name}`), data: null });
}

/**
 * GET /api/ws: the WebSocket of live quotes and the user's own events (protocol in the contract). Before the
 * upgrade: a browser page of another origin is refused (403), and so is a client address that already holds
 * WS_MAX_PER_CLIENT sockets in this process (429).
 */
export const realtimeRoutes: FastifyPluginAsync = async (app) => {
  const { WS_ALLOWED_ORIGINS: allowed, WS_MAX_PER_CLIENT: cap } = app.ctx.config;
  const open = new Map<string, number>();

  app.get(
    '/ws',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        if (!originAllowed(request.headers.origin, request.host, allowed)) {
          request.log.warn({ origin: request.headers.origin }, 'websocket from a foreign origin refused');
          return refuse(request, reply, 'WS_ORIGIN_REFUSED');
        }
        if ((open.get(request.ip) ?? 0) >= cap) return refuse(request, reply, 'WS_TOO_MANY');
        return undefined;
      },
    },
    (socket, request) => {
      const count = (open.get(request.ip) ?? 0) + 1;
      open.set(request.ip, count);
      socket.on('close', () => {
        const left = (open.get(request.ip) ?? 1) - 1;
        if (left <= 0) open.delete(request.ip);
        else open.set(request.ip, left);
      });
      // two handshakes that passed the check together: the later one is over the cap
      if (count > cap) {
        socket.close(1013, 'too many connections');
        return;
      }
      // Without extensions (the server offers none) the hub may write its shared frames to the connection.
      app.ctx.realtime.attach(
        socket,
        request.locale,
        socket.extensions === '' ? request.raw.socket : undefined,
      );
    },
  );
};
