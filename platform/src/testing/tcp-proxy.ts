import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Destroys every open connection (both sides), as a network failure would. */
  cutAll(): void;
  /** New connections are closed at once until `resume()`. */
  refuse(): void;
  resume(): void;
  close(): Promise<void>;
}

/** A TCP proxy on a random local port in front of `target`, for fault tests. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (refusing) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    cutAll,
    refuse: () => (refusing = true),
    resume: () => (refusing = false),
    close: async () => {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
