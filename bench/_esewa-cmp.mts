import { esewaFormRun } from './esewa.js';
import { initiateRun } from './initiate.js';
import { admin, recreateDatabase } from './postgres.js';
import { createMerchant, startService } from './service.js';
import { pg } from './settings.js';
if (process.env.FRESH) await recreateDatabase(pg.serviceDb);
const s = await startService();
const m = await createMerchant('Cmp Shop', (email) => admin(async (c) => Number((await c.query('SELECT id FROM merchants WHERE email = $1', [email])).rows[0].id), pg.serviceDb));
const per = (r: { rps: number; cpu: { cores: Record<string, number> } }) => Object.entries(r.cpu.cores).map(([k, v]) => `${k.split(' ')[0]} ${((v / r.rps) * 1000).toFixed(3)}`).join(', ');
for (let round = 1; round <= Number(process.env.ROUNDS ?? 3); round++) {
  const f = await esewaFormRun(s, m.esewa.live, round);
  const i = await initiateRun(s, m.liveKey, round);
  console.log(`round ${round}: form ${f.rps.toFixed(0)}/s [ms CPU/req: ${per(f)}]; initiate ${i.rps.toFixed(0)}/s [${per(i)}]`);
}
await s.stop();
