export * from './breaker';
export * from './outside-system';
export * from './rate-limit';
export * from './outbound-guard';
