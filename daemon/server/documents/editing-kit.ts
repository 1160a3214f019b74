import type {
  CreateViewRequest,
  DocInfoResult,
  KitEditEvent,
  KitRequestBody,
  KitSettingsManifest,
  OpenRequest,
  OpenResult,
  TileRequestMessage,
} from '../../protocol/kit.ts';

export type { DocInfoResult, KitEditEvent };

/** What `open` reports about a loaded document (kit.md, Editing: `open`): LOK_DOCTYPE_*, parts, size in twips, the first view. */
export type OpenedDocument = OpenResult;

/** A tile to paint: px size, twips position and size (kit.md, Editing: `tile`). */
export type TileRequest = Omit<TileRequestMessage, 'type' | 'id'>;

/**
 * A kit leased by one editing document, as the document logic uses it (implemented by
 * server/pool/kit-process.ts; kit.md "Editing"). `callback` events carry every LOK callback of every view;
 * `exit` means the kit died (or was retired).
 */
export interface EditingKit {
  readonly dir: string;
  readonly pid: number | undefined;
  open(req: KitRequestBody<OpenRequest>, limits: { loadMs: number; convertMs: number }): Promise<OpenedDocument>;
  createView(req: KitRequestBody<CreateViewRequest>): Promise<{ viewId: number }>;
  /** An area of a LibreOffice dialog window of a view as a PNG (kit.md, Editing: `windowPaint`); px of the window. */
  paintWindow?(req: { viewId: number; windowId: number; x: number; y: number; width: number; height: number }): Promise<Uint8Array>;
  destroyView(viewId: number): Promise<void>;
  sendEvent(viewId: number, event: KitEditEvent): void;
  paintTile(req: TileRequest): Promise<Uint8Array>;
  commandValues(viewId: number, command: string): Promise<string | null>;
  clipboardGet(viewId: number, mimeTypes: string[]): Promise<Array<{ mimeType: string; data: Uint8Array }>>;
  paste(viewId: number, mimeType: string, data: Uint8Array): Promise<boolean>;
  docInfo(viewId: number): Promise<DocInfoResult>;
  /**
   * `.uno:Save` in place; `dontTerminateEdit` keeps a cell being edited in edit mode; `reenterCell` enters it and
   * puts it back into edit mode, `editKept` when it could not (kit.md, Editing: `saveDoc`).
   */
  saveDoc(viewId: number, dontSaveIfUnmodified: boolean, dontTerminateEdit?: boolean, reenterCell?: boolean): Promise<{ saved: boolean; editKept?: boolean }>;
  /** saveAs a copy (kit.md, Editing: `exportDoc`); `inOrder`: after the input sent before it, later input waiting (the journal's snapshot). */
  exportDoc(output: string, format: string, filterOptions?: string, opts?: { inOrder?: boolean }): Promise<void>;
  closeDoc(): Promise<void>;
  /** Signs the document file in place with a view's certificate (kit.md, Editing: `signDoc`); DER bytes, PKCS#8 key. */
  signDoc?(req: { viewId: number; certificate: Uint8Array; privateKey: Uint8Array; ca: Uint8Array[] }): Promise<{ signed: boolean; signatureState: number }>;
  /** Trusts `ca` and reads LibreOffice's SignatureState number (kit.md, Editing: `signatureState`). */
  signatureState?(viewId: number, ca: Uint8Array[]): Promise<number>;
  on(event: 'callback', listener: (viewId: number, type: number, payload: string) => void): this;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  off(event: 'callback', listener: (viewId: number, type: number, payload: string) => void): this;
  off(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
}

/** The pool as the document logic uses it (server/pool/pool.ts). */
export interface EditingKitPool {
  /** A kit for one document; with `settings`, one whose LibreOffice profile holds them (kit.md, "Settings"). */
  leaseEditingKit(opts?: { settings?: KitSettingsManifest }): Promise<EditingKit>;
  retireKit(kit: EditingKit): void;
}
