import type { FastifyPluginAsync } from 'fastify';

/** GET /api/ws: the WebSocket of live quotes and the user's own events (protocol in the contract). */
export const realtimeRoutes: FastifyPluginAsync = async (app) => {
  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
    app.ctx.realtime.attach(socket, request.locale);
  });
};
