// Initiate under load: POST /api/v2/epayment/initiate/ with a typical body, a new order each time,
// 50 connections. Every answered request stores one payment.
import { measureLoad, type LoadResult } from './load.js';
import { cpuWindow, type CpuSplit } from './processes.js';
import { initiateBody, type Service } from './service.js';
import { pg } from './settings.js';

export interface InitiateRun extends LoadResult {
  cpu: CpuSplit;
}

export async function initiateRun(service: Service, key: string, round: number): Promise<InitiateRun> {
  let i = round * 10_000_000;
  let cpu: ReturnType<typeof cpuWindow> | undefined;
  let split: CpuSplit | undefined;
  const result = await measureLoad(
    {
      port: service.port,
      method: 'POST',
      path: '/api/v2/epayment/initiate/',
      headers: { authorization: `Key ${key}`, 'content-type': 'application/json' },
      body: () => JSON.stringify(initiateBody(i++)),
    },
    {
      start: () => (cpu = cpuWindow({ service: service.proc.pid }, pg.serviceDb)),
      stop: () => (split = cpu!.stop()),
    },
  );
  return { ...result, cpu: split! };
}
