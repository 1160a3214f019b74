import { Box, Text } from 'ink';
import { cell, formatBytes, formatTime, truncate } from '../format.ts';
import { NoticeLine } from '../components/notice-line.tsx';
import type { Confirm, Notice } from '../state/store.ts';
import type { DocumentInfo, RecoveryCopyInfo } from '../types.ts';

/** The host's name without the scheme (`https://cloud.example.org` -> `cloud.example.org`). */
function hostName(host: string): string {
  return host.replace(/^[a-z]+:\/\//, '');
}

/** The selectable list: one row per document, the selected one marked and inverted. */
function DocumentList({ documents, selected, width, height }: { documents: DocumentInfo[]; selected?: string; width: number; height: number }) {
  const at = Math.max(
    0,
    documents.findIndex((d) => d.id === selected),
  );
  // Scroll so the selected row stays visible.
  const first = Math.max(0, Math.min(at - height + 1, documents.length - height));
  const shown = documents.slice(Math.max(0, first), Math.max(0, first) + Math.max(1, height));
  const nameW = Math.max(8, width - 36);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate-end">{`  ${cell('file', nameW)} ${cell('host', 18)} ${cell('views', 5)} ${cell('state', 8)}`}</Text>
      {shown.map((d) => {
        const sel = d.id === (documents[at]?.id ?? '');
        return (
          <Text key={d.id} inverse={sel} wrap="truncate-end">
            {`${sel ? '›' : ' '}${d.modified ? '*' : ' '}${cell(d.fileName, nameW)} ${cell(hostName(d.host), 18)} ${cell(String(d.views.length), 5)} ${cell(d.state, 8)}`}
          </Text>
        );
      })}
    </Box>
  );
}

/** The selected document's details: state, times, kit, and its views (users). */
function DocumentDetails({ doc, width, height }: { doc: DocumentInfo; width: number; height: number }) {
  const row = (label: string, value: string, color?: string) => (
    <Text wrap="truncate-end">
      <Text bold>{cell(label, 13)}</Text>
      <Text color={color}>{truncate(value, Math.max(1, width - 13))}</Text>
    </Text>
  );
  const fixed = 9 + (doc.lastUploadError ? 1 : 0);
  const viewRows = Math.max(0, height - fixed);
  return (
    <Box flexDirection="column" width={width}>
      {row('file', doc.fileName)}
      {row('host', doc.host)}
      {row('state', `${doc.state}${doc.modified ? ', modified (unsaved changes)' : ', not modified'}`, doc.modified ? 'yellow' : undefined)}
      {row('opened', formatTime(doc.openedAt))}
      {row('last save', formatTime(doc.lastSaveAt))}
      {row('last upload', formatTime(doc.lastUploadAt))}
      {doc.lastUploadError ? row('upload error', doc.lastUploadError, 'red') : null}
      {row('kit', doc.kitPid === undefined ? '-' : `pid ${doc.kitPid}, ${formatBytes(doc.kitRssBytes)}`)}
      <Text bold>{`views (${doc.views.length})`}</Text>
      {doc.views.slice(0, viewRows).map((v) => (
        <Text key={v.viewId} wrap="truncate-end">
          {truncate(`  #${v.viewId} ${v.userName} (${v.userId})${v.readOnly ? ' read-only' : ''} since ${formatTime(v.joinedAt).slice(11)}`, width)}
        </Text>
      ))}
    </Box>
  );
}

/** Why a recovery copy waits, in words. */
const WHY: Record<RecoveryCopyInfo['state'], string> = {
  uploading: 'uploading',
  host_unavailable: 'host down, retrying',
  conflict: 'stored file changed: offered to users',
  token_expired: 'token expired: offered to users',
  failed: 'refused: offered to users',
};

/** Rows the recovery list takes: a title and up to 3 copies (the rest counted), none without copies. */
function recoveryRows(copies: readonly RecoveryCopyInfo[]): number {
  return copies.length === 0 ? 0 : 1 + Math.min(copies.length, 3) + (copies.length > 3 ? 1 : 0);
}

/**
 * The recovery copies (admin API `documents.recovery`): edits the host does not have yet, kept after a crash or a
 * refused upload (docs/reliability.md), each with its file, host, age and why it waits. Nothing when there are none.
 */
function RecoveryList({ copies, width }: { copies: readonly RecoveryCopyInfo[]; width: number }) {
  if (copies.length === 0) return null;
  const shown = [...copies].sort((a, b) => a.createdAt - b.createdAt).slice(0, 3);
  const nameW = Math.max(8, width - 60);
  return (
    <Box flexDirection="column" width={width}>
      <Text
        bold
        color="yellow"
        wrap="truncate-end"
      >{`${copies.length} recovery cop${copies.length === 1 ? 'y' : 'ies'} waiting (edits the host does not have)`}</Text>
      {shown.map((c) => (
        <Text key={c.id} wrap="truncate-end">
          {truncate(`  ${cell(c.fileName, nameW)} ${cell(hostName(c.host), 18)} ${formatTime(c.createdAt).slice(5, 16)} ${WHY[c.state]}`, width)}
        </Text>
      ))}
      {copies.length > 3 ? <Text dimColor>{`  and ${copies.length - 3} more`}</Text> : null}
    </Box>
  );
}

/**
 * The Documents screen: the open documents (selectable), the selected one's details, the y/n question or the last
 * action's result. At 120 columns and more the list and the details sit side by side.
 */
export function DocumentsScreen({
  documents,
  selected,
  confirm,
  notice,
  error,
  width,
  height,
  recovery = [],
}: {
  documents: DocumentInfo[];
  selected?: DocumentInfo;
  confirm?: Confirm;
  notice?: Notice;
  error?: string;
  width: number;
  height: number;
  recovery?: readonly RecoveryCopyInfo[];
}) {
  const noticeRows = confirm || notice ? 1 + (notice?.problems?.length ?? 0) + ((confirm?.prompt ?? notice?.text ?? '').length > width ? 1 : 0) : 0;
  const body = Math.max(3, height - noticeRows - recoveryRows(recovery));
  const header = (
    <Text wrap="truncate-end" color={error ? 'red' : undefined}>
      {error ? `documents: ${error}` : `${documents.length} open document${documents.length === 1 ? '' : 's'}`}
    </Text>
  );
  if (documents.length === 0 || !selected)
    return (
      <Box flexDirection="column" width={width}>
        {header}
        <Text dimColor>No document is open.</Text>
        <RecoveryList copies={recovery} width={width} />
        <NoticeLine confirm={confirm} notice={notice} width={width} />
      </Box>
    );
  const side = width >= 120;
  const listW = side ? Math.floor(width * 0.55) : width;
  const listRows = side ? body - 2 : Math.min(documents.length, Math.max(2, Math.floor((body - 3) / 3)));
  return (
    <Box flexDirection="column" width={width}>
      {header}
      {side ? (
        <Box flexDirection="row" width={width} height={body - 1}>
          <DocumentList documents={documents} selected={selected.id} width={listW} height={listRows} />
          <Box marginLeft={2} flexDirection="column">
            <DocumentDetails doc={selected} width={width - listW - 2} height={body - 1} />
          </Box>
        </Box>
      ) : (
        <Box flexDirection="column" width={width} height={body - 1}>
          <DocumentList documents={documents} selected={selected.id} width={listW} height={listRows} />
          <Text dimColor>{'─'.repeat(Math.max(0, width))}</Text>
          <DocumentDetails doc={selected} width={width} height={body - 1 - listRows - 2} />
        </Box>
      )}
      <RecoveryList copies={recovery} width={width} />
      <NoticeLine confirm={confirm} notice={notice} width={width} />
    </Box>
  );
}
