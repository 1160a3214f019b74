import { z } from 'zod';

/**
 * Loopback and the private ranges (RFC 1918, RFC 4193, link-local), as dot-escaped regular expressions in the
 * spec's `net.post_allow.host` form ("Authentication" of the conversion spec). IPv4-mapped IPv6 addresses are
 * normalised to IPv4 before matching, so these cover them too.
 */
export const DEFAULT_POST_ALLOW: readonly string[] = [
  '127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}',
  '::1',
  '10\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}',
  '172\\.1[6-9]\\.\\d{1,3}\\.\\d{1,3}',
  '172\\.2[0-9]\\.\\d{1,3}\\.\\d{1,3}',
  '172\\.3[01]\\.\\d{1,3}\\.\\d{1,3}',
  '192\\.168\\.\\d{1,3}\\.\\d{1,3}',
  'f[cd][0-9a-f]{2}:[0-9a-f:]*',
  'fe80:[0-9a-f:]*',
];

const regexList = z.array(
  z.string().refine((s) => {
    try {
      new RegExp(`^(?:${s})$`, 'i');
      return true;
    } catch {
      return false;
    }
  }, 'not a valid regular expression'),
);

const port = z.number().int().min(0).max(65535);

/**
 * The Ode configuration: every key, its type, range and default. Units are in the key names (`_secs`, `_mb`,
 * `_ms`). Keys marked live in docs/config.md are re-applied when the file changes; the others need a restart.
 */
export const configSchema = z
  .object({
    /** Where Ode keeps its state (proof key, recovery copies). Relative paths are resolved against the config file's folder. */
    state_dir: z.string().min(1).default('.ode-state'),
    /** pino log level. */
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** LibreOffice's program directory (the one holding libmergedlo.so / soffice). */
    lo_path: z.string().min(1).default('/usr/lib/libreoffice/program'),
    /** Path of the proof-key PEM file; empty: `<state_dir>/proof_key`, generated on first start. */
    proof_key: z.string().default(''),
    net: z
      .object({
        listen: z.string().min(1).default('127.0.0.1'),
        port: port.default(9980),
        /** Absolute base URL written into discovery and pages (e.g. https://office.example.com); empty: taken from each request's Host header. */
        public_url: z
          .string()
          .default('')
          .refine((s) => s === '' || /^https?:\/\/[^/]+$/.test(s), 'an absolute http(s) URL without a path or trailing slash'),
        post_allow: z.object({ host: regexList.default([...DEFAULT_POST_ALLOW]) }).prefault({}),
        /**
         * Hosts a document's external data (linked images, OLE and section links, spreadsheet external references,
         * remote fonts) may be fetched from, through the daemon's fetch proxy (Collabora Online's `net.lok_allow`;
         * whole-host regular expressions like post_allow). Empty (default, unlike Collabora's): none. Live.
         */
        lok_allow: z.object({ host: regexList.default([]) }).prefault({}),
        /** The Content-Security-Policy value in HTTP header format (spec: Authentication 6). */
        content_security_policy: z.string().default(''),
        /**
         * true: the editor talks PostMessage only with CheckFileInfo's PostMessageOrigin (none without it); false
         * (default, Collabora Online's behaviour): without PostMessageOrigin it talks to its parent frame
         * (docs/hosts.md, "PostMessage without PostMessageOrigin").
         */
        post_message_origin_required: z.boolean().default(false),
        /**
         * Reverse proxies whose X-Forwarded-Proto / X-Forwarded-Host are believed (regular expressions on the
         * connecting address, like post_allow). Default: loopback only.
         */
        proxy_addresses: regexList.default(['127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}', '::1']),
      })
      .prefault({}),
    /** TLS of the public listener (issue 8). */
    ssl: z
      .object({
        /** Serve HTTPS with cert_file/key_file (needs a restart to switch on or off; the files are reloaded when they change). */
        enable: z.boolean().default(false),
        /** TLS ends at a proxy: Ode speaks HTTP but writes https:// and wss:// URLs. */
        termination: z.boolean().default(false),
        /** Server certificate, PEM; may hold the chain after the leaf. */
        cert_file: z.string().default(''),
        /** Its private key, PEM. */
        key_file: z.string().default(''),
        /** Intermediate CA certificates, PEM, when not in cert_file. */
        ca_file: z.string().default(''),
      })
      .prefault({}),
    admin: z
      .object({
        listen: z.string().min(1).default('127.0.0.1'),
        port: port.default(9981),
        /** A unix socket path for the admin API instead of listen/port (mode 0600); empty: TCP. */
        socket: z.string().default(''),
      })
      .prefault({}),
    kits: z
      .object({
        /** Warm kits kept ready. */
        prespawn: z.number().int().min(0).max(64).default(2),
        /** Most kits alive at once (editing documents and conversions together). */
        max: z.number().int().min(1).max(256).default(16),
        /** Conversions running at once; more wait in the queue. */
        convert_concurrency: z.number().int().min(1).max(64).default(2),
        /**
         * Nice value (setpriority(2), 1-19) of kits that run conversions, so typing in editing kits (nice 0) wins the
         * CPU over batch conversions; such a kit stays a conversion kit (pool.ts, kit-priority.ts). 0 = off. (live)
         */
        convert_nice: z.number().int().min(0).max(19).default(10),
        /** A kit is recycled after this many jobs (its memory grows with each). */
        max_jobs: z.number().int().min(1).default(100),
        /** Kits above `prespawn` that stay idle this long are stopped. */
        idle_secs: z.number().int().min(1).default(60),
      })
      .prefault({}),
    limits: z
      .object({
        load_secs: z.number().positive().default(100),
        convert_secs: z.number().positive().default(100),
        /**
         * Resident memory of one kit (LibreOffice and its Node process), MB: past it the kit is killed and replaced and
         * its request fails with kit_memory_limit (kit-limits.ts; polled every 250 ms). 0 = no limit. (live)
         */
        kit_memory_mb: z.number().int().min(0).default(2048),
        /**
         * CPU time one kit job may use (a conversion, an inspection, loading a document for editing), seconds: past it
         * the kit is killed and replaced and the request fails with kit_cpu_limit. 0 = no limit. (live)
         */
        kit_cpu_secs: z.number().min(0).default(120),
        /** Jobs waiting for a kit; past it requests get 429. */
        queue: z.number().int().min(0).default(16),
        max_upload_mb: z.number().positive().default(100),
        /** Longest silence of a request body, seconds; past it 408 body_timeout (a lying Content-Length, a stalled client). */
        body_idle_secs: z.number().positive().default(10),
        /** Deepest element nesting accepted in any XML part, checked before a kit or the structure engine (422 xml_too_deep). */
        xml_depth: z.number().int().positive().default(500),
        /** Most commands in a transformation recipe (array entries at any level); past it 413 recipe_too_large. */
        recipe_commands: z.number().int().positive().default(1000),
        /** Worker threads running the structure engine and the package checks (0: one per core, at most 4). Read at start. */
        structure_threads: z.number().int().min(0).default(2),
        /** Longest run of one structure-engine job, seconds; past it the worker is ended and the answer is 422 too_complex. */
        structure_secs: z.number().positive().default(30),
        /** Heap of one structure worker thread, MB (worker resourceLimits); past it 422 too_complex. Read at start. */
        structure_memory_mb: z.number().int().positive().default(768),
        /**
         * Nice value (1-19) of the structure worker threads (package checks before every conversion, extract,
         * transform), set per thread by piscina's niceIncrement, so the daemon's main thread and the editing kits win
         * the CPU over this batch work (issue 17). 0 = off. Read at start.
         */
        structure_nice: z.number().int().min(0).max(19).default(10),
        /** Zip packages (docx, odt, xlsx, ...), checked before a kit or the engine inflates them (413 package_too_large). */
        package: z
          .object({
            /** Sum of the entries' uncompressed sizes, MB. */
            max_uncompressed_mb: z.number().positive().default(1024),
            /** Number of entries. */
            max_entries: z.number().int().positive().default(10000),
            /** Uncompressed/compressed ratio of one entry larger than 1 MB (Apache POI refuses past 100 too). */
            max_ratio: z.number().positive().default(100),
          })
          .prefault({}),
      })
      .prefault({}),
    documents: z
      .object({
        /** Save this long after the last change (issue 4: idle save). Seconds. */
        idle_save_secs: z.number().positive().default(30),
        /** Save this often while the document is modified. Seconds. */
        autosave_secs: z.number().positive().default(300),
        /** Ask the host for CheckFileInfo this often while a document is open, to see changes made elsewhere. Seconds; 0 = never. */
        check_secs: z.number().min(0).default(60),
        /** Longest wait between retries of an upload the host could not take (5xx, time-out). Seconds. */
        upload_retry_max_secs: z.number().positive().default(30),
        /**
         * On SIGTERM/SIGINT, the longest wait for the exit saves' uploads (retried at most every second meanwhile);
         * what the host has not taken by then stays in `<state_dir>/recovery` for the next start. Seconds.
         */
        exit_save_secs: z.number().positive().default(20),
        /** Unload a document (exit save, views closed) after this long without input from any view. Seconds; 0 = never. */
        idle_unload_secs: z.number().min(0).default(3600),
        /**
         * The edit journal (docs/reliability.md): every input is written to `<state_dir>/journal` before it reaches
         * the kit, so a kit crash or a daemon kill loses none. false turns it off (a kit crash then reloads the
         * stored file).
         */
        journal: z.boolean().default(true),
        /** The journal's snapshot is taken this long after the last input (bounds what a rebuild replays). Seconds. */
        journal_snapshot_secs: z.number().positive().default(2),
        /** Longest time an input written to the journal waits for fdatasync (a machine crash loses at most this). Milliseconds. */
        journal_sync_ms: z.number().int().positive().default(150),
      })
      .prefault({}),
    storage: z
      .object({
        wopi: z
          .object({
            hosts: regexList.default([]),
            /** Time-out of each request to a WOPI host, seconds. */
            timeout_secs: z.number().positive().default(30),
            /** Also send the PutFile headers as X-COOL-WOPI-* and X-LOOL-WOPI-* (hosts written for Collabora). */
            compat_headers: z.boolean().default(true),
          })
          .prefault({}),
        /** TLS of Ode's requests to WOPI hosts (WOPI, settings). */
        ssl: z
          .object({
            /** Verify the host's certificate (system CAs plus ca_file). false is for tests only: logged as a warning at start and on every connection. */
            verify: z.boolean().default(true),
            /** Extra CA certificates (PEM) trusted for hosts, e.g. a company CA. */
            ca_file: z.string().default(''),
          })
          .prefault({}),
      })
      .prefault({}),
    /** What hosts written for Collabora Online see of Ode (docs/hosts.md, "Capabilities and version"). */
    hosting: z
      .object({
        /**
         * The Collabora Online version Ode's capabilities advertise as `productVersion` (hosts such as richdocuments
         * switch features on by comparing it: form filling from 24.04.5.2). Default: the level whose gated features
         * Ode has. `productName` stays Ode and Ode's own version is `odeVersion`. Live.
         */
        collabora_version: z
          .string()
          .default('24.04.5.2')
          .refine((s) => /^\d+(\.\d+){1,3}$/.test(s), 'a dotted version such as 24.04.5.2'),
      })
      .prefault({}),
    /** The update check (spec: Update check) and Ode's own update feed. */
    updates: z
      .object({
        /** Base URL of the update server: Ode asks GET {url}/UpdateCheck?product=&version=. Empty: no check. */
        url: z
          .string()
          .default('')
          .refine((s) => s === '' || /^https?:\/\/[^\s]+$/.test(s), 'an absolute http(s) URL'),
        /** How long an answer is cached before Ode asks again, hours. */
        check_hours: z.number().positive().default(24),
        /** Ode answers GET /UpdateCheck itself from this table (a company's own feed); both empty: 404. */
        feed: z
          .object({
            /** odewsd_version for the development line (product omitted or the development edition's name). */
            development: z.string().default(''),
            /** odewsd_version for the release line (any other product). */
            release: z.string().default(''),
          })
          .prefault({}),
      })
      .prefault({}),
    /** The citation service for users with UserPrivateInfo.CitationAPIKey (docs/citations.md). */
    citations: z
      .object({
        /** Base URL of its web API (Zotero Web API v3). */
        base_url: z
          .string()
          .default('https://api.zotero.org')
          .refine((s) => /^https?:\/\/[^\s]+$/.test(s), 'an absolute http(s) URL'),
      })
      .prefault({}),
    /** Electronic signatures of PDFs through the provider in ServerPrivateInfo.ESignature* (docs/esignature.md). */
    esignature: z
      .object({
        /** How often Ode asks the provider whether the user has signed, seconds. */
        poll_secs: z.number().positive().default(2),
        /** How long Ode waits for the user to sign before giving up, seconds. */
        timeout_secs: z.number().positive().default(900),
      })
      .prefault({}),
    /** The built-in demo WOPI host (daemon/server/demo-host): a folder of documents served at /demo/wopi/files/<id>, the start page at /. */
    demo_host: z
      .object({
        /** Serve the demo host and its start page (needs a restart). */
        enabled: z.boolean().default(true),
        /** Folder of documents; relative paths are resolved against the config file's folder (like state_dir). */
        folder: z.string().min(1).default('./documents'),
        /** Lifetime of the access tokens the start page issues, seconds. */
        token_ttl_secs: z.number().int().min(1).default(36000),
      })
      .prefault({}),
    /** What a document can reach (docs/security.md). */
    security: z
      .object({
        /**
         * Kits in a bubblewrap sandbox: `required` (refuse to start without), `auto` (use it where it runs, say
         * loudly where not) or `off`. Needs a restart.
         */
        sandbox: z.enum(['required', 'auto', 'off']).default('auto'),
        /** Limits of one fetch of external data through the fetch proxy (net.lok_allow). Live. */
        external_data: z
          .object({
            timeout_secs: z.number().positive().default(10),
            max_mb: z.number().positive().default(20),
          })
          .prefault({}),
      })
      .prefault({}),
  })
  .strict();

/** The validated configuration. */
export type OdeConfig = z.infer<typeof configSchema>;
