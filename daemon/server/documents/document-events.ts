/**
 * What happens to open documents, as one typed union (the Hocuspocus habit: lifecycle hooks as one table).
 * EditDocument emits them, DocumentRegistry fans them out (`registry.onEvent`); the admin backend turns them into
 * admin-api DocumentEvents and the status/metrics part counts save and upload results from them.
 *
 * | type       | emitted when                                                                 |
 * |------------|------------------------------------------------------------------------------|
 * | `opened`   | the document is live and its first view joined                               |
 * | `changed`  | a view joined or left (`views`), the modified flag flipped (`modified`), the state changed (`state`: reloading, live again, unloading) |
 * | `saved`    | the kit saved the document (`.uno:Save`), or failed to; `kind` says why it was saved |
 * | `uploaded` | a PutFile ended (`ms` from the upload's start, retries included), or failed for good |
 * | `recovered`| the kit died and the document was rebuilt in a fresh kit (edit journal; `ms` from the death to live again, `replayed` inputs) |
 * | `closed`   | the document closed (unloaded, the kit died, or it failed to open after `opened`) |
 */
import type { SaveKind } from './document-saving.ts';
import type { EditDocument } from './edit-document.ts';

/** One document event; `doc` is the document it is about (read its state, views, times from it). */
export type DocumentEvent =
  | { type: 'opened'; doc: EditDocument }
  | { type: 'changed'; doc: EditDocument; what: 'views' | 'modified' | 'state' }
  | { type: 'saved'; doc: EditDocument; ok: boolean; kind: SaveKind; error?: string }
  | { type: 'uploaded'; doc: EditDocument; ok: boolean; ms: number; error?: string }
  | { type: 'recovered'; doc: EditDocument; ms: number; replayed: number }
  | { type: 'closed'; doc: EditDocument };

/** A document event without its `doc`: what a document's parts (document-saving.ts ...) emit; EditDocument adds itself. */
export type DocumentEventBody = DocumentEvent extends infer E ? (E extends DocumentEvent ? Omit<E, 'doc'> : never) : never;

/** A listener of document events; it must not throw (a throwing listener is logged and skipped). */
export type DocumentEventListener = (e: DocumentEvent) => void;
