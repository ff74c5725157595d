export * from './envelope';
export * from './events/pricing-price-updated';
export * from './http/prices';
