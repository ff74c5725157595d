import { describe, expect, it } from 'vitest';
import { createLogger, runWithCorrelationId } from '@bo/platform';

describe('log formats', () => {
  const capture = () => {
    const lines: string[] = [];
    return { lines, out: { write: (text: string) => lines.push(text) } };
  };

  it('writes one readable line per entry in the pretty format: time, level, service, message, fields (an error by its message)', () => {
    const { lines, out } = capture();
    const logger = createLogger('pricing', 'info', 'pretty', out);
    runWithCorrelationId('c-42', () => logger.warn({ err: new Error('broker gone'), attempts: 2, password: 'hunter2' }, 'outbox publish failed'));
    logger.debug('not shown at info');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d WARN {2}pricing: outbox publish failed {2}correlationId=c-42 err="broker gone" attempts=2 password=\[redacted\]\n$/);
  });

  it('keeps JSON lines by default', () => {
    const { lines, out } = capture();
    createLogger('gateway', 'info', 'json', out).info({ route: '/api/prices' }, 'served');
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, name: 'gateway', msg: 'served', route: '/api/prices' });
  });
});
