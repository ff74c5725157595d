// Durable background runs and the one scheduler (docs/background-work.md).
export { RunCancelled, runKind, Runs, type ProgressUpdate, type RunContext, type RunKind, type PressOptions, type RunsOptions, type StartOptions } from './runs';
export { cronEvery, isClockStep, isCronExpression, schedule, Scheduler, type Schedule } from './scheduler';
export { registerRunListRoutes, registerRunRoutes, startedByOf } from './routes';
export { STREAM_HEARTBEAT_MS } from '../http/event-stream';
