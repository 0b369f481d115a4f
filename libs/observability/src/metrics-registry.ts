/** The service's prom-client `Registry` (provided by MetricsModule; every metric registers here). */
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');
