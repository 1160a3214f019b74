import { NS } from './dom.ts';

/**
 * The attributes the extraction readers read from stream-built trees (read-tree.ts), by element. A tree keeps the
 * values of exactly these, copied at the element's start tag, and no others: keeping every start tag's attributes
 * would hold the parser's objects for the whole part and multiply garbage-collection time (RA001 with every filter,
 * on this 2-core machine under other work: median 22 ms holding all of them, 9 ms holding none). Asking a tree for
 * an attribute not listed here throws, so a reader that starts reading a new one fails its tests until it is added.
 *
 * Readers: tracked changes (track-changes/ooxml-redlines.ts, floating-tables.ts, odf-redlines.ts), content
 * controls (content-controls/ooxml-sdt.ts, ooxml-sdt-content.ts, odf-content-control.ts), charts
 * (charts/ooxml-chart.ts, odf-chart.ts), slides (slides/pptx-shapes.ts, pptx-text.ts, pptx-deck.ts,
 * odp-shapes.ts, odp-text.ts, odp-layouts.ts, odp-deck.ts) and relationships (read-tree.ts `readRelationships`).
 */

const W = NS.w;
const author: Attrs = [
  [W, 'author'],
  [W, 'date'],
];
const val: Attrs = [[W, 'val']];
const loext = [
  'checkbox',
  'combobox',
  'dropdown',
  'picture',
  'date',
  'plain-text',
  'id',
  'tag',
  'alias',
  'checked',
  'date-format',
  'date-rfc-language-tag',
  'current-date',
];

/**
 * The attributes the schema defines for DrawingML's a:bodyPr (CT_TextBodyProperties), a:pPr
 * (CT_TextParagraphProperties) and a:rPr (CT_TextCharacterProperties; ECMA-376 Part 1, 21.1.2.1.1, 21.1.2.2.7,
 * 21.1.2.3.9): the slides' "no own formatting" rule (slides/pptx-shapes.ts) looks for these by name.
 */
export const DRAWINGML_TEXT_ATTRIBUTES = {
  bodyPr: [
    'rot',
    'spcFirstLastPara',
    'vertOverflow',
    'horzOverflow',
    'vert',
    'wrap',
    'lIns',
    'tIns',
    'rIns',
    'bIns',
    'numCol',
    'spcCol',
    'rtlCol',
    'fromWordArt',
    'anchor',
    'anchorCtr',
    'forceAA',
    'upright',
    'compatLnSpc',
  ],
  pPr: ['marL', 'marR', 'lvl', 'indent', 'algn', 'defTabSz', 'rtl', 'eaLnBrk', 'fontAlgn', 'latinLnBrk', 'hangingPunct'],
  rPr: [
    'kumimoji',
    'lang',
    'altLang',
    'sz',
    'b',
    'i',
    'u',
    'strike',
    'kern',
    'cap',
    'spc',
    'normalizeH',
    'baseline',
    'noProof',
    'dirty',
    'err',
    'smtClean',
    'smtId',
    'bmk',
  ],
} as const;

/** Attribute names as [namespace URI ('' for none), local name]. */
export type Attrs = ReadonlyArray<readonly [string, string]>;

/** Element namespace URI, then element local name, to the attributes kept. */
export type KeptAttributes = ReadonlyMap<string, ReadonlyMap<string, Attrs>>;

function unprefixed(names: readonly string[]): Attrs {
  return names.map((n) => ['', n] as const);
}

function table(rows: ReadonlyArray<readonly [string, Record<string, Attrs>]>): KeptAttributes {
  const out = new Map<string, Map<string, Attrs>>();
  for (const [ns, byLocal] of rows) out.set(ns, new Map(Object.entries(byLocal)));
  return out;
}

/** What the extraction readers read (see the module comment). */
export const EXTRACTION_ATTRIBUTES: KeptAttributes = table([
  [
    W,
    {
      // revisions (17.13.5) and notes, sections, headers/footers, floating tables (tracked changes)
      ins: author,
      del: author,
      moveFrom: author,
      moveTo: author,
      pPrChange: author,
      rPrChange: author,
      footnote: [
        [W, 'type'],
        [W, 'id'],
      ],
      endnote: [
        [W, 'type'],
        [W, 'id'],
      ],
      footnoteReference: [[W, 'id']],
      endnoteReference: [[W, 'id']],
      headerReference: [
        [W, 'type'],
        [NS.r, 'id'],
      ],
      footerReference: [
        [W, 'type'],
        [NS.r, 'id'],
      ],
      br: [[W, 'type']],
      sym: [[W, 'char']],
      pgSz: [
        [W, 'w'],
        [W, 'h'],
      ],
      pgMar: [
        [W, 'left'],
        [W, 'right'],
      ],
      gridCol: [[W, 'w']],
      tblpPr: [
        [W, 'horzAnchor'],
        [W, 'vertAnchor'],
        [W, 'tblpXSpec'],
        [W, 'tblpYSpec'],
        [W, 'tblpX'],
        [W, 'tblpY'],
      ],
      // content-control properties (17.5.2)
      id: val,
      tag: val,
      alias: val,
      dateFormat: val,
      lid: val,
      date: [[W, 'fullDate']],
    },
  ],
  [NS.w14, { checked: [[NS.w14, 'val']] }],
  // charts: DrawingML graphic frames (docx, pptx), the pptx slide list; slides: names, placeholders, fields,
  // markup-compatibility choices and the text properties of the "no own formatting" rule
  [
    NS.a,
    {
      graphicData: [['', 'uri']],
      fld: [['', 'type']],
      bodyPr: unprefixed(DRAWINGML_TEXT_ATTRIBUTES.bodyPr),
      pPr: unprefixed(DRAWINGML_TEXT_ATTRIBUTES.pPr),
      rPr: unprefixed(DRAWINGML_TEXT_ATTRIBUTES.rPr),
    },
  ],
  // charts: the chart part's caches (c:ptCount, c:pt) and its automatic title switch (ooxml-chart.ts)
  [NS.c, { chart: [[NS.r, 'id']], ptCount: [['', 'val']], pt: [['', 'idx']], autoTitleDeleted: [['', 'val']] }],
  [NS.wp, { docPr: [['', 'name']] }],
  [
    NS.p,
    {
      cNvPr: [['', 'name']],
      sldId: [
        [NS.r, 'id'],
        ['', 'id'],
      ],
      cSld: [['', 'name']],
      sldLayout: [['', 'type']],
      ph: [['', 'type']],
    },
  ],
  [NS.mc, { Choice: [['', 'Requires']] }],
  [
    NS.rel,
    {
      Relationship: [
        ['', 'Id'],
        ['', 'Type'],
        ['', 'Target'],
        ['', 'TargetMode'],
      ],
    },
  ],
  // ODF: tracked changes, spaces, content controls, embedded objects, the manifest
  [
    NS.text,
    {
      'changed-region': [
        [NS.text, 'id'],
        ['http://www.w3.org/XML/1998/namespace', 'id'],
      ],
      change: [[NS.text, 'change-id']],
      'change-start': [[NS.text, 'change-id']],
      'change-end': [[NS.text, 'change-id']],
      s: [[NS.text, 'c']],
      span: [[NS.text, 'style-name']],
    },
  ],
  [NS.loext, { 'content-control': loext.map((l) => [NS.loext, l] as const) }],
  [
    NS.draw,
    {
      frame: [[NS.draw, 'name']],
      object: [[NS.xlink, 'href']],
      'object-ole': [[NS.xlink, 'href']],
      // slides of an odp: the page's names, master and layout
      page: [
        [NS.draw, 'name'],
        [NS.draw, 'master-page-name'],
        [NS.presentation, 'presentation-page-layout-name'],
      ],
    },
  ],
  // an odp's styles.xml: master pages, presentation page layouts and their placeholders
  [
    NS.style,
    {
      'master-page': [
        [NS.style, 'name'],
        [NS.style, 'display-name'],
      ],
      'presentation-page-layout': [[NS.style, 'name']],
    },
  ],
  [
    NS.presentation,
    {
      placeholder: [
        [NS.presentation, 'object'],
        [NS.svg, 'x'],
      ],
    },
  ],
  [
    NS.manifest,
    {
      'file-entry': [
        [NS.manifest, 'full-path'],
        [NS.manifest, 'media-type'],
      ],
    },
  ],
]);

/**
 * Elements under which (themselves included) a tree made for extraction keeps every attribute and their list: the
 * old run properties of a format change (w:rPrChange), which tracked changes compare whole to decide whether two
 * format changes combine (track-changes/format-keys.ts). Few and small, so holding them costs little.
 */
export const EXTRACTION_FULL_ATTRIBUTES_UNDER: ReadonlyArray<readonly [string, string]> = [[W, 'rPrChange']];
