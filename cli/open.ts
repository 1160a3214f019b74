import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { fileIdOf, isDocumentName, createOdeServer } from '../daemon/server/index.ts';
import { loadRuntime, stopOnSignals } from './runtime.ts';

/**
 * `ode open <file> [--no-browser]`: serves the file's folder with the built-in demo host (overriding
 * demo_host.folder, and enabling the host), starts the daemon, and opens the browser at the editor for that file
 * (the start page with `?open=<id>`, which posts the editor form at once); a folder opens its start page. The URL
 * is printed on stdout as `Opening <url>`. Runs until SIGTERM/SIGINT, then stops like `ode serve` (exit saves).
 */
export function openCommand(): Command {
  return new Command('open')
    .description("serve a document's folder with the demo host and open it in the browser")
    .argument('<file>', 'a document (its folder is served) or a folder')
    .option('--no-browser', 'do not open a browser, only print the URL')
    .action(async (file: string, opts: { browser: boolean }, cmd: Command) => {
      const path = resolve(file);
      let isDir: boolean;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        return cmd.error(`ode open: ${file} does not exist`, { exitCode: 2 });
      }
      const folder = isDir ? path : dirname(path);
      // The documented environment overrides, so a config reload keeps them too.
      process.env.ODE_DEMO_HOST__FOLDER = JSON.stringify(folder);
      process.env.ODE_DEMO_HOST__ENABLED = 'true';
      const { store, log, logBuffer } = loadRuntime(cmd);
      await store.watch();
      store.onChange((next) => {
        log.level = next.log_level;
      });
      const server = createOdeServer({ config: store, log, logBuffer, adminPort: 0 });
      let url: string;
      try {
        ({ url } = await server.start());
      } catch (e) {
        await server.stop().catch(() => undefined);
        if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
          const port = store.get().net.port;
          return cmd.error(
            `ode open: port ${port} is in use (is Ode already running? Its start page is at http://127.0.0.1:${port}/). Stop it, or choose another port with ODE_NET__PORT.`,
            { exitCode: 1 },
          );
        }
        throw e;
      }
      const local = url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//127.0.0.1:');
      const name = basename(path);
      const target = !isDir && isDocumentName(name) ? `${local}/?open=${fileIdOf(name)}` : `${local}/`;
      process.stdout.write(`Opening ${target}\n`);
      if (opts.browser) {
        const { default: open } = await import('open'); // only `ode open` needs it: not loaded by `ode serve`
        await open(target).catch((e: Error) => process.stderr.write(`ode open: no browser could be started (${e.message}); open ${target} yourself.\n`));
      }
      stopOnSignals(server, log);
    });
}
