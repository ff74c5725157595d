export * from './faults';
export * from './journal';
export * from './page';
export * from './ports';
export * from './simulator';
export * from './random';
