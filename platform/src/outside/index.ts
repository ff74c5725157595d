export * from './breaker';
export * from './outside-system';
export * from './rate-limit';
