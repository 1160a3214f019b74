import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';

/**
 * A free TCP port on `address` (default 127.0.0.1): bound to port 0, then released, for a daemon or proxy whose
 * configuration takes a number (a closed one also stands for a host that is down).
 * @throws Error when `address` cannot be bound.
 */
export async function freePort(address = '127.0.0.1'): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve, reject) => s.once('error', reject).listen(0, address, resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/**
 * Starts `server` listening on 127.0.0.1 at a free port (port 0); resolves with its base URL, `http://<name>:<port>`
 * (`name` 127.0.0.1 unless given, e.g. localhost for a host page's origin).
 */
export async function listenLocal(server: Server, name = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://${name}:${(server.address() as AddressInfo).port}`;
}

/** Closes `server` (nothing when undefined), ending its open keep-alive connections first so that close() returns. */
export async function closeServer(server: Server | undefined): Promise<void> {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
}
