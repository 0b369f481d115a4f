// Types of harness.js for TypeScript benches.
import type { ChildProcess } from 'node:child_process';

export interface BenchServiceProcess {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  output(): string;
}

export interface BenchStackHandle {
  services: Map<string, BenchServiceProcess>;
  dead(): BenchServiceProcess[];
}

export interface BenchEnvironmentHandle {
  id: string;
  apiKey: string;
  env: Record<string, string>;
  backendPids(service: string): Promise<number[]>;
}

export function withServices<T>(
  options: {
    services: string[];
    envOverrides?: Record<string, string>;
    gatewayOverrides?: Record<string, string>;
  },
  body: (ctx: {
    stack: BenchStackHandle;
    env: BenchEnvironmentHandle;
    gatewayUrl: string;
    apiKey: string;
  }) => Promise<T>,
): Promise<T>;
export function machineLine(): string;
