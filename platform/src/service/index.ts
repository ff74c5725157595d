// How a service is defined once and started the same way by every launcher.
export * from './define-service';
export * from './main';
export * from './retention';
export * from './rotate-data-key';
