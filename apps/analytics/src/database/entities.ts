/** Every entity of the analytics database (the platform adds the outbox tables). */
export const ANALYTICS_ENTITIES: (new () => unknown)[] = [];
