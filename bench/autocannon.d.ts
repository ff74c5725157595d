// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  /** One request of a run's rotation: each connection sends them in turn. */
  export interface Request {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    overallRate?: number;
    warmup?: { connections: number; duration: number };
    requests?: Request[];
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    warmup?: Result;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
