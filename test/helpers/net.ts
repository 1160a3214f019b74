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
