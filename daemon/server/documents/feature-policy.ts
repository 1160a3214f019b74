/**
 * Locked and restricted users (spec: CheckFileInfo `IsUserLocked`, "locks the user from certain features, which the
 * user can later unlock", and `IsUserRestricted`, "disables features for the user"; docs/postmessage.md, "Locked and
 * restricted users"). The spec leaves their type open: each is `true` (the default set of features below) or a list
 * of feature names. One catalogue serves both sides:
 * - the daemon refuses a request of a locked or restricted feature whatever the editor shows (`gateOf`, called by
 *   the view session for every message), with the error codes `feature_locked` / `feature_restricted`;
 * - the editor gets the editor command ids of each feature in `status.features` (`editorGates`): restricted ones are
 *   hidden, locked ones shown disabled with a lock, and choosing one posts `UI_Unlock` to the host.
 * A feature both locked and restricted is restricted (the stronger). The codes are in errors.ts (docs/errors.md).
 */
import type { ClientMessage, FeatureGate } from '../../protocol/editor.ts';

/** What one feature covers: the editor's commands (ids or `prefix.*`), and how to recognise its requests. */
interface FeatureDef {
  /** Editor command ids (daemon/editor: chrome, host, ...), or patterns ending in `*` (`file.downloadAs.*`). */
  commands: string[];
  /** UNO commands of the feature (postUnoCommand, also through PostMessage Send_UNO_Command). */
  uno?: RegExp;
  /** Other requests of the feature (download purposes, saveAs, rename, ...). */
  request?(msg: ClientMessage): boolean;
  /** A UNO command of the feature recognised by its arguments (repair is `.uno:Undo` with `Repair: true`). */
  unoArgs?(command: string, args: string): boolean;
}

/** Every feature IsUserLocked / IsUserRestricted may name, by its name in CheckFileInfo lists. */
export const FEATURES = {
  /** Download as / export in any format (not printing, not the slideshow). */
  export: {
    commands: ['file.downloadAs.*'],
    uno: /^\.uno:(ExportTo\w*|ExportDirectTo\w*|ExportAs\w*|DownloadAs\w*|SendMail\w*|SaveACopy)$/,
    request: (m) => m.type === 'download' && m.purpose === 'download',
  },
  /** Printing (the print export and LibreOffice's print commands). */
  print: {
    commands: ['file.print'],
    uno: /^\.uno:(Print|PrintDefault|PrintPreview|PrintPagePreview|PrinterSetup)$/,
    request: (m) => m.type === 'download' && m.purpose === 'print',
  },
  /** Save As (PutRelativeFile, or UI_SaveAs with SaveAsPostmessage). */
  saveAs: { commands: ['file.saveAs'], uno: /^\.uno:(SaveAs|SaveAsTemplate|SaveAsRemote)$/, request: (m) => m.type === 'saveAs' },
  /** Renaming the file in the host (RenameFile). */
  rename: { commands: ['file.rename'], request: (m) => m.type === 'rename' },
  /** Repair: going back several steps of the undo history at once. */
  repair: { commands: ['file.repair'], unoArgs: (command, args) => command === '.uno:Undo' && /"Repair"/.test(args) },
  /** Inserting from the host's storage or AI (the host does it on UI_InsertGraphic, UI_PickLink, ...: UI only). */
  remoteContent: { commands: ['insert.remoteImage', 'insert.remoteLink', 'insert.remoteFile', 'insert.aiContent'] },
  /** The host's version history (UI_FileVersions: UI only). */
  versions: { commands: ['file.versions'] },
  /** Adding, answering, editing and deleting comments. */
  comments: {
    commands: ['insert.comment'],
    uno: /^\.uno:(InsertAnnotation|EditAnnotation|DeleteAnnotation|ReplyToAnnotation|ReplyComment|DeleteComment|DeleteAllAnnotation|DeleteAllAnnotationByAuthor|ResolveComment\w*)$/,
  },
  /** Recording, accepting and rejecting tracked changes. */
  trackChanges: {
    commands: ['edit.trackChanges*', 'review.*'],
    uno: /^\.uno:(TrackChanges|AcceptTrackedChange\w*|AcceptAllTrackedChanges|RejectTrackedChange\w*|RejectAllTrackedChanges|AcceptTracked\w*|RejectTracked\w*|CommentChangeTracking|ProtectTraceChangeMode)$/,
  },
  /** Signing the document (certificates, signature lines, PDF signatures). */
  signing: {
    commands: ['file.sign*', 'insert.signature*', 'insert.eSignature*'],
    uno: /^\.uno:(Signature|SignPDF|SignatureDialog|InsertSignatureLine|SignSignatureLine|EditSignatureLine|MacroSignature)$/,
    // The editor's `sign` request (document signing with UserPrivateInfo's certificate), read loosely: it may be
    // newer than this catalogue.
    request: (m) => (m as { type: string }).type === 'sign',
  },
} as const satisfies Record<string, FeatureDef>;

/** A feature name that IsUserLocked / IsUserRestricted can cover (docs/postmessage.md, section 5). */
export type Feature = keyof typeof FEATURES;

/** What `true` means: the features a host locking or restricting "the user" most likely means. */
export const DEFAULT_FEATURES: readonly Feature[] = ['export', 'print', 'saveAs', 'rename', 'repair', 'remoteContent', 'versions', 'signing'];

/**
 * Other names a host may use, lower-cased: Collabora Online's command names for its `feature_lock.locked_commands`
 * and `restricted_commands` (so a host written for it works unchanged), and a few obvious spellings.
 */
const ALIASES: Record<string, Feature> = {
  downloadas: 'export',
  exportpdf: 'export',
  exportdirectpdf: 'export',
  exportepub: 'export',
  download: 'export',
  printoptions: 'print',
  saveas: 'saveAs',
  savetocloud: 'saveAs',
  remotegraphic: 'remoteContent',
  remotemultimedia: 'remoteContent',
  remotelink: 'remoteContent',
  remoteaicontent: 'remoteContent',
  insertremote: 'remoteContent',
  revisionhistory: 'versions',
  insertannotation: 'comments',
  insertcomment: 'comments',
  comment: 'comments',
  changesmenu: 'trackChanges',
  trackchanges: 'trackChanges',
  acceptchanges: 'trackChanges',
  signature: 'signing',
  sign: 'signing',
  signpdf: 'signing',
  esignature: 'signing',
};

const BY_LOWER = new Map<string, Feature>([...Object.keys(FEATURES).map((k) => [k.toLowerCase(), k as Feature] as const), ...Object.entries(ALIASES)]);

/** The features of one CheckFileInfo value, and the names in it that name none (logged by the caller). */
export function resolveFeatures(value: boolean | string[] | undefined): { features: Feature[]; unknown: string[] } {
  if (value === true) return { features: [...DEFAULT_FEATURES], unknown: [] };
  if (!Array.isArray(value)) return { features: [], unknown: [] };
  const features = new Set<Feature>();
  const unknown: string[] = [];
  for (const name of value) {
    const f = BY_LOWER.get(
      name
        .trim()
        .toLowerCase()
        .replace(/^\.uno:/, ''),
    );
    if (f) features.add(f);
    else unknown.push(name);
  }
  return { features: [...features], unknown };
}

/** A view's locked and restricted features (restricted wins when both name one). */
export interface FeaturePolicy {
  locked: Feature[];
  restricted: Feature[];
  /** Names in IsUserLocked / IsUserRestricted that are no feature. */
  unknown: string[];
}

const cache = new WeakMap<object, FeaturePolicy>();

/** The policy of a view from its CheckFileInfo (cached per FileInfo object). */
export function featurePolicy(fileInfo: { IsUserLocked: boolean | string[]; IsUserRestricted: boolean | string[] }): FeaturePolicy {
  const hit = cache.get(fileInfo);
  if (hit) return hit;
  const r = resolveFeatures(fileInfo.IsUserRestricted);
  const l = resolveFeatures(fileInfo.IsUserLocked);
  const policy = { restricted: r.features, locked: l.features.filter((f) => !r.features.includes(f)), unknown: [...r.unknown, ...l.unknown] };
  cache.set(fileInfo, policy);
  return policy;
}

/** The feature a client message uses, if it is one of the catalogue's. */
export function featureOf(msg: ClientMessage): Feature | undefined {
  for (const [name, def] of Object.entries(FEATURES) as Array<[Feature, FeatureDef]>) {
    if (def.request?.(msg)) return name;
    if (msg.type === 'uno' && (def.uno?.test(msg.command) || def.unoArgs?.(msg.command, msg.args ?? ''))) return name;
  }
  return undefined;
}

/** Why a message is refused: its feature and whether the user is locked from it or restricted. */
export interface Refusal {
  feature: Feature;
  kind: 'locked' | 'restricted';
  code: 'feature_locked' | 'feature_restricted';
  message: string;
}

/** The refusal of `msg` for a view with `policy`, or undefined when it may go on. */
export function gateOf(policy: FeaturePolicy, msg: ClientMessage): Refusal | undefined {
  if (policy.locked.length === 0 && policy.restricted.length === 0) return undefined;
  const feature = featureOf(msg);
  if (!feature) return undefined;
  if (policy.restricted.includes(feature))
    return { feature, kind: 'restricted', code: 'feature_restricted', message: `"${feature}" is not available to this user (IsUserRestricted).` };
  if (policy.locked.includes(feature))
    return { feature, kind: 'locked', code: 'feature_locked', message: `"${feature}" is locked for this user (IsUserLocked): it can be unlocked in the host.` };
  return undefined;
}

/** `status.features`: the editor command ids of each locked and restricted feature. */
export function editorGates(policy: FeaturePolicy): { locked: FeatureGate[]; restricted: FeatureGate[] } {
  const gate = (f: Feature): FeatureGate => ({ feature: f, commands: [...FEATURES[f].commands] });
  return { locked: policy.locked.map(gate), restricted: policy.restricted.map(gate) };
}
