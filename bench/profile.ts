// A CPU profile of the service under a load (node --cpu-prof), for the notes: where its time goes.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileByArea, profileInclusive, profileSummary, readProfile, type CpuProfile } from './evidence.js';
import { startService, type Service } from './service.js';

export interface ProfileResult {
  top: { share: number; name: string }[];
  areas: Record<string, number>;
  /** The service's own functions by inclusive time. */
  service: { share: number; name: string }[];
  /** Which samples the shares are of. */
  covers: string;
}

export function profileResult(profile: CpuProfile, covers: string): ProfileResult {
  return { top: profileSummary(profile), areas: profileByArea(profile), service: profileInclusive(profile), covers };
}

export async function profileUnderLoad(load: (service: Service) => Promise<unknown>): Promise<ProfileResult | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'bhuktani-bench-prof-'));
  try {
    const service = await startService({}, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    const loadStarted = performance.now();
    let loadEnded = loadStarted;
    try {
      await load(service);
    } finally {
      loadEnded = performance.now();
      await service.stop(); // the profile is written as the process exits
    }
    const stopped = performance.now();
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) return undefined;
    // Only the samples taken while the load ran: start-up and stop are not what the load costs.
    return profileResult(readProfile(join(dir, file), { lengthMs: loadEnded - loadStarted, fromEndMs: stopped - loadEnded }), 'of the samples taken while the load ran');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
