import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ActivityEntry } from '@wp/contracts';
import { EventBus } from '@wp/messaging';
import { SentinelPassesRepository, type PassUsage } from './sentinel-passes.repository.js';

/** The activity subjects of every service that records agent requests. */
export const ACTIVITY_SUBJECTS = [
  'auth.activity.recorded',
  'org.activity.recorded',
  'wallet.activity.recorded',
] as const;

/**
 * `usageCount` / `lastUsedAt` of passes from the activity events of every service
 * (docs/architecture.md § Data ownership and events, `*.activity.recorded`): each `api_request`
 * entry counts once for its agent (the pass id). One event carries a batch of entries; it becomes
 * one UPDATE. Idempotent through the bus's processed-event row (a redelivered batch is skipped);
 * entries of deleted passes are ignored. `token_generation` and `error` entries do not count.
 */
@Injectable()
export class SentinelUsageHandlers implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly passes: SentinelPassesRepository,
  ) {}

  onModuleInit(): void {
    for (const subject of ACTIVITY_SUBJECTS) {
      const name = `sentinel_usage_${subject.slice(0, subject.indexOf('.'))}`;
      this.bus.on(subject, name, (event) => this.passes.addUsage(usageOf(event.payload.entries)));
    }
  }
}

/** `api_request` entries per agent: count and latest time. */
export function usageOf(entries: readonly ActivityEntry[]): PassUsage[] {
  const byPass = new Map<string, PassUsage>();
  for (const entry of entries) {
    if (entry.activityType !== 'api_request') continue;
    const at = new Date(entry.occurredAt);
    const passId = entry.agentUserId.toLowerCase();
    const usage = byPass.get(passId);
    if (!usage) byPass.set(passId, { passId, count: 1, lastUsedAt: at });
    else {
      usage.count++;
      if (at > usage.lastUsedAt) usage.lastUsedAt = at;
    }
  }
  return [...byPass.values()];
}
