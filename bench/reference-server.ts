// The references the service is measured against, as a process of its own: a bare Fastify route
// (the HTTP ceiling), one prepared primary-key SELECT and one INSERT through a pg pool of the
// service's size (the one-query ceilings), on the same PostgreSQL.
//   PORT=… DATABASE_URL=postgres://… node --import tsx bench/reference-server.ts
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const ROWS = 10_000;
/** The service's pool size (src/db/postgres.ts), so the references get the same connections. */
const POOL_MAX = 10;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_MAX });

// A row shaped like a small payment: a text key, an amount, a status and a timestamp.
await pool.query(`CREATE TABLE IF NOT EXISTS reference_rows (
  id bigserial PRIMARY KEY,
  pidx text NOT NULL,
  amount bigint NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`);
const [{ n }] = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM reference_rows')).rows;
if (n < ROWS) {
  await pool.query(
    `INSERT INTO reference_rows (pidx, amount, status) SELECT md5(g::text), 1000 + g, 'Initiated' FROM generate_series(1, $1) g`,
    [ROWS - n],
  );
  await pool.query('ANALYZE reference_rows');
}

const app = Fastify({ logger: false });

app.get('/health', async () => ({ status: 'ok' }));

app.get('/json', async () => ({ ok: true }));

app.get('/select/:id', async (request, reply) => {
  const id = Number((request.params as { id: string }).id);
  const { rows } = await pool.query({ name: 'q', text: 'SELECT id, pidx, amount, status, created_at FROM reference_rows WHERE id = $1', values: [id] });
  if (!rows[0]) return reply.code(404).send({ detail: 'Not found.' });
  return rows[0];
});

app.post('/insert', async (request) => {
  const { amount } = request.body as { amount: number };
  const { rows } = await pool.query({
    name: 'i',
    text: 'INSERT INTO reference_rows (pidx, amount, status) VALUES ($1, $2, $3) RETURNING id',
    values: [randomBytes(16).toString('base64url'), amount, 'Initiated'],
  });
  return rows[0];
});

const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
