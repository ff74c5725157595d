/** The events module: how services publish (outbox), consume (inbox), call outside systems, and the two transports. See README.md. */
export {
  UnprocessableEventError,
  UnroutableEventError,
  consumerDefaults,
  MAX_ATTEMPTS_LIMIT,
  topicMatcher,
  type ConsumerSpec,
  type DeadLetter,
  type Delivery,
  type DeliveryHandler,
  type EventTransport,
  type Subscription,
  type TransportHealth,
} from './transport';
/** The embedded run's durable bus in PostgreSQL. */
export { PgTransport, type PgTransportOptions } from './pg-transport';
/** RabbitMQ transport (amqplib) with confirms, mandatory, publish timeout, recovery and dead letters. */
export { RabbitMqTransport, type RabbitMqTransportOptions } from './rabbitmq-transport';
/** Names of the RabbitMQ exchanges and the dead-letter queue, for operators and tests. */
export { DEAD_LETTER_EXCHANGE, EVENTS_EXCHANGE, QUEUE_ARGUMENTS, deadLetterQueue } from './rabbitmq-topology';
/** Transactional outbox: commit a change with its events; the relay publishes; operators see failed rows. */
export {
  createOutbox,
  enqueueEvent,
  listFailedOutbox,
  outboxDefaults,
  OutboxRelay,
  retryFailedOutbox,
  type Emit,
  type FailedOutboxRow,
  type Outbox,
  type OutboxRelayOptions,
} from './outbox';
/** Inbox consumer: validated, deduplicated, ordered by revision, effect and inbox record in one transaction. */
export { onEvent, subscribe, type EventHandler, type SubscribeOptions } from './inbox';
/** Outside calls: recorded in the consumer's transaction, executed after commit with retries. */
export {
  EffectDeadlineError,
  LEASE_MARGIN_MS,
  outsideEffect,
  outsideEffectDefaults,
  OutsideEffects,
  type FailedOutsideEffect,
  type OutsideEffect,
  type OutsideEffectContext,
  type OutsideEffectsOptions,
} from './outside-effects';
/** Waiting out a dependency that is down (see isTransientError in errors.ts). */
export { TRANSIENT_RETRY_MAX_WAIT_MS } from './transient';
/** Sweeping, metrics and readiness for the lead's wiring. */
export { eventsReadinessCheck, registerEventMetrics, sweepDefaults, sweepMessaging, type SweepSettings } from './operations';
/** The SQL surface the module needs (a Prisma client satisfies it). */
export { quoteSchema, type SqlClient, type TransactionalDb, type TransactionalSqlClient } from './sql';
