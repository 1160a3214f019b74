/**
 * The kit's end of the fetch proxy (daemon/server/sandbox/fetch-proxy.ts): LibreOffice speaks HTTP proxy over
 * TCP, while the daemon's proxy listens on a unix socket bound into the sandbox. The bridge listens on the kit's
 * own loopback (inside the sandbox's network namespace, only this kit can reach it) on a free port and relays each
 * connection byte for byte to the socket; it returns the proxy URL (`http://127.0.0.1:<port>`), which the kit
 * puts in `http_proxy`/`https_proxy` before LibreOffice starts, so that its fetches of external data go there.
 */
import { connect, createServer } from 'node:net';

/**
 * Starts the bridge to the daemon's proxy socket `socketPath`; resolves with the proxy URL.
 * @throws Error when no loopback port can be bound.
 */
export function startFetchBridge(socketPath: string): Promise<string> {
  const server = createServer((client) => {
    const up = connect(socketPath);
    client.pipe(up).pipe(client);
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  server.unref();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    });
  });
}
