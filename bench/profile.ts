// A CPU profile of the service under a load (node --cpu-prof), for the notes: where its time goes.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileByArea, profileInclusive, profileSummary } from './evidence.js';
import { startService, type Service } from './service.js';

export interface ProfileResult {
  top: { share: number; name: string }[];
  areas: Record<string, number>;
  /** The service's own functions by inclusive time. */
  service: { share: number; name: string }[];
}

export async function profileUnderLoad(load: (service: Service) => Promise<unknown>): Promise<ProfileResult | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'bhuktani-bench-prof-'));
  try {
    const service = await startService({}, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    try {
      await load(service);
    } finally {
      await service.stop(); // the profile is written as the process exits
    }
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) return undefined;
    return { top: profileSummary(join(dir, file)), areas: profileByArea(join(dir, file)), service: profileInclusive(join(dir, file)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
