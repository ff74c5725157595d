import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Destroys every open connection (both sides), as a network failure would. */
  cutAll(): void;
  /** New connections are closed at once until `resume()`. */
  refuse(): void;
  /**
   * From now on what clients send never reaches the target (e.g. a consumer's acks), while the
   * target's data still reaches the clients. The byte stream is broken from here: cutAll() next.
   */
  swallowFromClients(): void;
  /** Takes new connections again, forwarding both ways. */
  resume(): void;
  close(): Promise<void>;
}

/** A TCP proxy on a random local port in front of `target`, for fault tests. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  let swallowing = false;
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
    client.on('data', (chunk) => {
      if (!swallowing) upstream.write(chunk);
    });
    upstream.pipe(client);
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
    swallowFromClients: () => (swallowing = true),
    resume: () => {
      refusing = false;
      swallowing = false;
    },
    close: async () => {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
