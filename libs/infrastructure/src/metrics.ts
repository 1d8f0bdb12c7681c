import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The process's Prometheus metrics; gauges that need a query are filled when scraped. */
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly eventsAppended = new Counter({
    name: 'events_appended_total',
    help: 'Events appended to the event store by this process, by type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  readonly callbackAttempts = new Counter({
    name: 'callback_attempts_total',
    help: 'Callback delivery attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly projectorLagEvents = new Gauge({
    name: 'projector_lag_events',
    help: 'Events in the log the read models have not applied yet',
    registers: [this.registry],
  });

  readonly projectorLagSeconds = new Gauge({
    name: 'projector_lag_seconds',
    help: 'Age of the oldest event the read models have not applied yet',
    registers: [this.registry],
  });

  readonly queueDepth = new Gauge({
    name: 'queue_depth',
    help: 'Jobs waiting, delayed or active, by queue',
    labelNames: ['queue', 'state'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
