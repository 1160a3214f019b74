import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import { truncate } from '../format.ts';
import { NoticeLine } from '../components/notice-line.tsx';
import { CONFIG_LISTS, type ConfigEditing, type Confirm, type Notice } from '../state/store.ts';
import type { EffectiveConfig } from '../types.ts';

/** Props of the Configuration screen; `onEditChange`/`onEditSubmit` are the text input's callbacks while editing. */
export interface ConfigScreenProps {
  config?: EffectiveConfig;
  list: number;
  index: number;
  editing?: ConfigEditing;
  confirm?: Confirm;
  notice?: Notice;
  error?: string;
  width: number;
  height: number;
  onEditChange(value: string): void;
  onEditSubmit(value: string): void;
}

/**
 * The Configuration screen: the configuration file, the CSP, and the three editable lists (frame-ancestors,
 * net.post_allow.host, storage.wopi.hosts) as tabs; the selected entry, the text input when adding or editing,
 * and the server's validation problems inline.
 */
export function ConfigScreen({ config, list, index, editing, confirm, notice, error, width, height, onEditChange, onEditSubmit }: ConfigScreenProps) {
  if (!config) return <Text color={error ? 'red' : undefined}>{error ? `config: ${error}` : 'loading the configuration…'}</Text>;
  const entries = config.editable[CONFIG_LISTS[list].key];
  const noticeRows = confirm || notice ? 2 + Math.min(4, notice?.problems?.length ?? 0) : 0;
  const rows = Math.max(1, height - 5 - noticeRows - (editing ? 1 : 0));
  const at = Math.min(index, Math.max(0, entries.length - 1));
  const first = Math.max(0, Math.min(at - rows + 1, entries.length - rows));
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold>file </Text>
        {config.file ? truncate(config.file, width - 5) : <Text color="yellow">none (running on defaults: edits cannot be saved)</Text>}
      </Text>
      <Text wrap="truncate-end">
        <Text bold>CSP </Text>
        {truncate(config.editable.contentSecurityPolicy || '(none)', width - 4)}
      </Text>
      <Text wrap="truncate-end">
        {CONFIG_LISTS.map((l, i) => (
          <Text key={l.key} inverse={i === list} bold={i === list}>
            {` ${l.title} (${config.editable[l.key].length}) `}
          </Text>
        ))}
      </Text>
      <Text dimColor>{'─'.repeat(Math.max(0, width))}</Text>
      {entries.length === 0 && !editing ? <Text dimColor> (empty: press a to add)</Text> : null}
      {entries.slice(first, first + rows).map((e, j) => {
        const i = first + j;
        const sel = i === at && !(editing?.mode === 'add');
        if (editing?.mode === 'edit' && editing.index === i)
          return (
            <Box key={i}>
              <Text color="cyan">{'› '}</Text>
              <TextInput value={editing.value} onChange={onEditChange} onSubmit={onEditSubmit} />
            </Box>
          );
        return (
          <Text key={i} inverse={sel} wrap="truncate-end">
            {`${sel ? '›' : ' '} ${truncate(e, width - 2)}`}
          </Text>
        );
      })}
      {editing?.mode === 'add' ? (
        <Box>
          <Text color="cyan">{'+ '}</Text>
          <TextInput value={editing.value} placeholder="new entry (a regular expression, or a CSP source)" onChange={onEditChange} onSubmit={onEditSubmit} />
        </Box>
      ) : null}
      <NoticeLine confirm={confirm} notice={notice} width={width} />
    </Box>
  );
}
