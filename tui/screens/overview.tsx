import { Box, Text } from 'ink';
import { cell, formatBytes, formatClock, formatDuration, formatPercent, sparkline, truncate } from '../format.ts';
import type { ConnectionState, Sample } from '../state/store.ts';
import type { ServerStatus } from '../types.ts';

/** Overall health from the status: `ok`, or `degraded` with the reasons. */
export function health(s: ServerStatus, connection: ConnectionState): { ok: boolean; text: string } {
  if (connection.kind !== 'connected') return { ok: false, text: 'unknown (not connected; last known below)' };
  const why: string[] = [];
  if (!s.kits.some((k) => k.state === 'ready') && s.kits.length >= s.maxKits) why.push('no kit free');
  if (s.queue.max > 0 && s.queue.length >= s.queue.max) why.push('queue full');
  if (s.failures.lastUpload && s.uptimeMs > 0 && s.startedAt + s.uptimeMs - s.failures.lastUpload.at < 10 * 60_000) why.push('upload failed recently');
  if (s.failures.lastSave && s.uptimeMs > 0 && s.startedAt + s.uptimeMs - s.failures.lastSave.at < 10 * 60_000) why.push('save failed recently');
  return why.length ? { ok: false, text: `degraded: ${why.join(', ')}` } : { ok: true, text: 'ok' };
}

/** The Overview screen: health, version, uptime, kits, memory and CPU over time, queue, failures, the kit table. */
export function OverviewScreen({
  status,
  samples,
  connection,
  error,
  width,
  height,
}: {
  status?: ServerStatus;
  samples: Sample[];
  connection: ConnectionState;
  error?: string;
  width: number;
  height: number;
}) {
  if (!status) return <Text color={error ? 'red' : undefined}>{error ? `status: ${error}` : 'waiting for the first status…'}</Text>;
  const h = health(status, connection);
  const count = (state: string) => status.kits.filter((k) => k.state === state).length;
  // Label 8 + value 10 + space on each side of the two sparklines of a row.
  const spark = Math.max(5, Math.floor((width - 2 * 24) / 2));
  const line = (label: string, rss: number, cpu: number, rssSeries: number[], cpuSeries: number[]) => (
    <Text wrap="truncate-end">
      <Text bold>{cell(label, 8)}</Text>
      {cell(`mem ${formatBytes(rss)}`, 15)}
      <Text color="cyan">{sparkline(rssSeries, spark)}</Text>
      {'  '}
      {cell(`cpu ${formatPercent(cpu)}`, 11)}
      <Text color="magenta">{sparkline(cpuSeries, spark)}</Text>
    </Text>
  );
  const kitsRss = status.kits.reduce((n, k) => n + k.rssBytes, 0);
  const kitsCpu = status.kits.reduce((n, k) => n + k.cpuPercent, 0);
  const f = status.failures;
  // Nine lines above the kit table; when the kits do not fit, the last row says how many more there are.
  // One more line when there is TLS to report (the certificate's expiry, unverified host certificates).
  const tlsLine = status.certificate !== undefined || status.insecureHostTls === true;
  const room = Math.max(0, height - 9 - (tlsLine ? 1 : 0));
  const kitRows = status.kits.length > room ? Math.max(0, room - 1) : room;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold>Health </Text>
        <Text color={h.ok ? 'green' : 'yellow'}>{h.text}</Text>
        {`   version ${status.version}${status.versionHash ? ` (${status.versionHash.slice(0, 8)})` : ''}   up ${formatDuration(status.uptimeMs)}`}
      </Text>
      <Text wrap="truncate-end">
        <Text bold>Kits </Text>
        {`${count('ready')} ready, ${count('busy')} busy, ${count('editing')} editing, ${count('starting')} starting (max ${status.maxKits})   `}
        <Text bold>Queue </Text>
        {`${status.queue.length}/${status.queue.max}`}
      </Text>
      <Text wrap="truncate-end">
        <Text bold>Documents </Text>
        {`${status.documents}  views ${status.views}   `}
        <Text bold>Conversions </Text>
        {`${status.conversions.ok} ok, ${status.conversions.failed} failed`}
      </Text>
      {tlsLine ? (
        <Text wrap="truncate-end">
          <Text bold>TLS </Text>
          {status.certificate ? (
            <Text
              color={status.certificate.expiresSoon ? 'yellow' : undefined}
            >{`certificate ${status.certificate.daysLeft} days left (${status.certificate.notAfter.slice(0, 10)})${status.certificate.expiresSoon ? ', renew it' : ''}   `}</Text>
          ) : null}
          {status.insecureHostTls ? <Text color="red">host certificates NOT verified (storage.ssl.verify: false)</Text> : null}
        </Text>
      ) : null}
      <Text wrap="truncate-end">
        <Text bold>Failures </Text>
        <Text
          color={f.saves + f.uploads + f.conversions > 0 ? 'red' : undefined}
        >{`saves ${f.saves}  uploads ${f.uploads}  conversions ${f.conversions}`}</Text>
      </Text>
      <Text wrap="truncate-end" color={f.lastSave ? 'red' : 'gray'}>
        {f.lastSave ? `  last save failure ${formatClock(f.lastSave.at)} ${f.lastSave.documentId}: ${f.lastSave.message}` : '  last save failure: none'}
      </Text>
      <Text wrap="truncate-end" color={f.lastUpload ? 'red' : 'gray'}>
        {f.lastUpload
          ? `  last upload failure ${formatClock(f.lastUpload.at)} ${f.lastUpload.documentId}: ${f.lastUpload.message}`
          : '  last upload failure: none'}
      </Text>
      {line(
        'Daemon',
        status.daemon.rssBytes,
        status.daemon.cpuPercent,
        samples.map((s) => s.daemonRss),
        samples.map((s) => s.daemonCpu),
      )}
      {line(
        'Kits',
        kitsRss,
        kitsCpu,
        samples.map((s) => s.kitsRss),
        samples.map((s) => s.kitsCpu),
      )}
      <Text bold wrap="truncate-end">
        {`${cell('kit pid', 9)}${cell('state', 9)}${cell('mem', 11)}${cell('cpu', 8)}${cell('jobs', 6)}${cell('up', 9)}document`}
      </Text>
      {status.kits.slice(0, kitRows).map((k) => (
        <Text key={k.pid} wrap="truncate-end">
          {`${cell(String(k.pid), 9)}${cell(k.state, 9)}${cell(formatBytes(k.rssBytes), 11)}${cell(formatPercent(k.cpuPercent), 8)}${cell(String(k.jobs), 6)}${cell(formatDuration(status.startedAt + status.uptimeMs - k.startedAt), 9)}${truncate(k.documentId ?? '', Math.max(0, width - 52))}`}
        </Text>
      ))}
      {status.kits.length > kitRows ? <Text dimColor>{`… ${status.kits.length - kitRows} more kits`}</Text> : null}
    </Box>
  );
}
