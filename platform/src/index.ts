export * from './config';
export * from './errors';
export * from './identity';
export * from './logging';
export * from './http/access';
export * from './http/metrics';
export * from './http/routes';
export * from './http/service-app';
