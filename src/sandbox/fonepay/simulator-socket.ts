// Fonepay's QR notifications, as its Dynamic QR document (v1.1, "Web Socket Connection") defines
// them: the QR answer names a socket per QR (`thirdpartyQrWebSocketUrl`); the merchant's system opens
// it and sends nothing; Fonepay tells it when a bank app has scanned the QR (`QRVerified`) and when
// the payment is done (`paymentSuccess`), each message JSON whose `transactionStatus` is JSON again,
// as a string. The document asks the merchant to confirm every message with the status check.
// The socket reads the simulated payment from the store (once a second), not from this process's
// memory, so a bank app any instance served is heard on a socket any instance holds.
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../context.js';
import { findSimulation, findSimulationByDetail, type Simulation } from '../simulator-store.js';

/** Where the sockets are, in Fonepay's pattern (`…/convergent-webSocket-web/merchantEndPoint/<device>/<merchant>/Y`). */
export const SOCKET_PATH = '/sandbox/fonepay/convergent-webSocket-web/merchantEndPoint';

/** How often an open socket reads its payment; and how many sockets one instance holds at most. */
const READ_EVERY_MS = 1000;
const MOST_SOCKETS = 100;

/** Fonepay's numeric id of the merchant, which every message carries (70 in the document's examples). */
const MERCHANT_ID = 1;

/** `MMM d, yyyy h:mm:ss a` in Nepal, as Java prints the payment message's `transactionDate` (`Apr 11, 2019 1:43:23 PM`). */
function javaDate(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kathmandu', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: true })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.month} ${parts.day}, ${parts.year} ${parts.hour}:${parts.minute}:${parts.second} ${parts.dayPeriod}`;
}

/**
 * What the socket has to tell of a QR's payment, in order: the scan (a bank app read it; one that
 * paid or declined read it too), then the payment. A payment paid at the bank is `paymentSuccess`
 * even when the status check will not say so yet (pending, then paid) or at all (never answers).
 * A declined one is `paymentSuccess: false`, a shape no published sample shows.
 */
function qrNotifications(simulation: Simulation, deviceId: string): { scan?: object; payment?: object } {
  const envelope = (status: object) => ({ merchantId: MERCHANT_ID, deviceId, transactionStatus: JSON.stringify(status) });
  const { details } = simulation;
  const decided = simulation.outcome !== 'open';
  const scan = details.scanned_at || decided ? envelope({ success: true, message: 'VERIFIED', QRVerified: true }) : undefined;
  if (!decided) return { scan };
  const paid = simulation.outcome !== 'canceled';
  const amount = Number(details.amt);
  const payment = envelope({
    traceId: Number(simulation.transaction_id ?? details.trace),
    remarks1: details.name,
    remarks2: details.remarks2,
    transactionDate: javaDate(details.decided_at ? new Date(details.decided_at) : simulation.created_at),
    productNumber: simulation.reference,
    amount: details.amt,
    message: paid ? 'Request Complete' : details.declined === 'failed' ? 'Request Failed' : 'Request Cancelled',
    success: paid,
    ...(paid ? { commissionType: 'CHARGE', commissionAmount: 0, totalCalculatedAmount: amount } : {}),
    paymentSuccess: paid,
  });
  return { scan, payment };
}

/**
 * Serves the sockets the QR answers name, with @fastify/websocket in a scope of their own (its
 * upgrade listener sees every upgrade of the server: registered once, here). An address the
 * simulator never named is refused before the upgrade, as a 404.
 */
export function registerQrSockets(app: FastifyInstance, { ctx, provider, merchantCode }: { ctx: AppContext; provider: string; merchantCode: string }) {
  const found = new WeakMap<FastifyRequest, Simulation>();
  const open = new Set<WebSocket>();
  type Params = { deviceId: string; merchantCode: string; flag: string };

  app.register(async (scope) => {
    await scope.register(websocket, { options: { maxPayload: 1024 } });
    scope.get<{ Params: Params }>(
      `${SOCKET_PATH}/:deviceId/:merchantCode/:flag`,
      {
        websocket: true,
        preValidation: async (request, reply) => {
          const { deviceId, merchantCode: merchant, flag } = request.params;
          const simulation = merchant === merchantCode && flag === 'Y' && /^T\w{1,64}$/.test(deviceId) ? await findSimulationByDetail(ctx.db, provider, 'device', deviceId) : undefined;
          if (!simulation) return reply.code(404).type('text/plain').send('Not found');
          if (open.size >= MOST_SOCKETS) return reply.code(503).type('text/plain').send('Too many sockets');
          found.set(request, simulation);
        },
      },
      (socket, request) => {
        const { reference } = found.get(request)!;
        const { deviceId } = request.params;
        open.add(socket);
        let scanTold = false;
        let reading = false;
        const tell = async () => {
          if (reading || socket.readyState !== socket.OPEN) return;
          reading = true;
          try {
            const simulation = await findSimulation(ctx.db, provider, reference);
            if (!simulation || socket.readyState !== socket.OPEN) return;
            const { scan, payment } = qrNotifications(simulation, deviceId);
            if (scan && !scanTold) socket.send(JSON.stringify(scan));
            scanTold ||= Boolean(scan);
            // Once the payment is told, the socket has nothing more to say.
            if (payment) {
              socket.send(JSON.stringify(payment));
              socket.close(1000, 'Request Complete');
            }
          } catch {
            // The store closed under it (the instance stopping): the socket ends with it.
            socket.close(1011);
          } finally {
            reading = false;
          }
        };
        const timer = setInterval(() => void tell(), READ_EVERY_MS).unref();
        socket.on('close', () => {
          clearInterval(timer);
          open.delete(socket);
        });
        // The client sends nothing: anything it sends is ignored.
        void tell();
      },
    );
  });
}
