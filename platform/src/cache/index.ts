export * from './cache';
export * from './lock';
export * from './memory-cache';
export * from './redis-cache';
export * from './attempt-counter';
