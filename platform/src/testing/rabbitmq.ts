import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestVhost {
  name: string;
  /** AMQP URL of the vhost on the local broker (guest/guest). */
  url: string;
  /** The same URL with another host:port, e.g. a TCP proxy in front of the broker. */
  urlVia(port: number): string;
  delete(): Promise<void>;
}

/** An isolated vhost `<prefix>-<random>` on the local RabbitMQ (needs `rabbitmqctl`, i.e. root), for one suite. */
export async function createTestVhost(prefix: string): Promise<TestVhost> {
  const name = `${prefix}-${randomBytes(6).toString('hex')}`;
  await run('rabbitmqctl', ['add_vhost', name]);
  await run('rabbitmqctl', ['set_permissions', '-p', name, 'guest', '.*', '.*', '.*']);
  const urlVia = (port: number) => `amqp://guest:guest@127.0.0.1:${port}/${encodeURIComponent(name)}`;
  return {
    name,
    url: urlVia(5672),
    urlVia,
    delete: async () => {
      await run('rabbitmqctl', ['delete_vhost', name]);
    },
  };
}
