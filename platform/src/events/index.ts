/** Transport contract: EventTransport, consumer spec, delivery handler, dead letters and the two errors. */
export {
  UnprocessableEventError,
  UnroutableEventError,
  consumerDefaults,
  type ConsumerSpec,
  type DeadLetter,
  type Delivery,
  type DeliveryHandler,
  type EventTransport,
  type Subscription,
} from './transport';
/** In-process transport for the embedded mode; `topicMatcher` applies RabbitMQ topic-binding rules. */
export { MemoryTransport, topicMatcher } from './memory-transport';
/** RabbitMQ transport (amqplib) with confirms, mandatory, publish timeout, recovery and dead letters. */
export { RabbitMqTransport, type RabbitMqTransportOptions } from './rabbitmq-transport';
/** Names of the RabbitMQ exchanges and the dead-letter queue, for operators and tests. */
export { DEAD_LETTER_EXCHANGE, EVENTS_EXCHANGE, deadLetterQueue } from './rabbitmq-topology';
/** Transactional outbox: enqueue in the business transaction; the relay publishes. */
export { enqueueEvent, OutboxRelay, type OutboxRelayOptions } from './outbox';
/** Inbox consumer: validated, deduplicated, effect and inbox record in one transaction. */
export { onEvent, subscribe, type EventHandler, type SubscribeOptions } from './inbox';
/** The raw-SQL surface the outbox and inbox need (a Prisma client satisfies it). */
export { quoteSchema, type SqlClient, type TransactionalSqlClient } from './sql';
