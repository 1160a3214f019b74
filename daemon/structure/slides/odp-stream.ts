/**
 * Streaming reads of ODP parts for the slides extraction and the commands' lookups: the same results as the DOM
 * reads of odp-deck.ts without a DOM of the whole part. styles.xml (often 300 kB of styles) is streamed for the
 * master pages' names and the presentation page layouts' AutoLayout ids; of content.xml only the draw:page
 * elements are parsed into DOM elements (parseFragments), not the automatic styles around them.
 */
import type { Element } from '@xmldom/xmldom';
import { NS } from '../xml/dom.ts';
import { parseFragments, streamXml } from '../xml/stream.ts';
import { layoutIdOfPlaceholders, lengthToCm } from './odp-layouts.ts';

/** What the slides extraction needs of styles.xml. */
export interface OdpStylesSummary {
  /** style:master-page of the first office:master-styles, in order: style:name and the reported name. */
  masters: Array<{ styleName: string; name: string }>;
  /** style:presentation-page-layout of the first office:styles by style:name (the last one of a name wins), with its AutoLayout id. */
  layouts: Map<string, number>;
}

/**
 * Reads the master pages and the presentation page layouts of an ODP styles.xml by streaming (ODF 1.3 Part 3,
 * 16.9 style:master-page, 16.41 style:presentation-page-layout).
 * @throws StructureError bad_package when the part is not well formed.
 */
export function readOdpStyles(text: string, part: string): OdpStylesSummary {
  const out: OdpStylesSummary = { masters: [], layouts: new Map() };
  let seenStyles = false;
  let seenMasters = false;
  let section: 'styles' | 'masters' | undefined;
  let layout: { name: string; list: Array<{ name: string; x: number }> } | undefined;
  streamXml(text, part, {
    onOpen: (el) => {
      if (el.depth === 0) return undefined;
      if (el.depth === 1) {
        section = undefined;
        if (el.ns === NS.office && el.local === 'styles' && !seenStyles) section = 'styles';
        else if (el.ns === NS.office && el.local === 'master-styles' && !seenMasters) section = 'masters';
        if (section === 'styles') seenStyles = true;
        if (section === 'masters') seenMasters = true;
        return section ? undefined : 'skip';
      }
      if (el.depth === 2) {
        if (section === 'masters' && el.ns === NS.style && el.local === 'master-page') {
          const styleName = el.attr(NS.style, 'name') ?? '';
          out.masters.push({ styleName, name: el.attr(NS.style, 'display-name') || styleName });
        } else if (section === 'styles' && el.ns === NS.style && el.local === 'presentation-page-layout') {
          layout = { name: el.attr(NS.style, 'name') ?? '', list: [] };
          out.layouts.set(layout.name, 20);
          return undefined;
        }
        return 'skip';
      }
      if (el.depth === 3 && layout && el.ns === NS.presentation && el.local === 'placeholder') {
        layout.list.push({ name: el.attr(NS.presentation, 'object') ?? '', x: lengthToCm(el.attr(NS.svg, 'x') ?? '0') });
      }
      return 'skip';
    },
    onClose: (ns, local, depth) => {
      if (depth === 2 && layout) {
        out.layouts.set(layout.name, layoutIdOfPlaceholders(layout.list));
        layout = undefined;
      }
    },
  });
  return out;
}

/**
 * The draw:page elements of the first office:presentation of an ODP content.xml (office:document-content /
 * office:body / office:presentation / draw:page), each parsed on its own; `presentation` is false when there is no
 * office:presentation in the first office:body.
 * @throws StructureError bad_package when the part is not well formed.
 */
export function readOdpPages(text: string, part: string): { presentation: boolean; pages: Element[] } {
  let seenBody = false;
  let inBody = false;
  let seenPresentation = false;
  let inPresentation = false;
  const pages = parseFragments(text, part, (ns, local, depth) => {
    if (depth === 1) {
      inBody = !seenBody && ns === NS.office && local === 'body';
      seenBody ||= inBody;
    } else if (depth === 2) {
      inPresentation = inBody && !seenPresentation && ns === NS.office && local === 'presentation';
      seenPresentation ||= inPresentation;
    } else if (depth === 3) {
      return inPresentation && ns === NS.draw && local === 'page';
    }
    return false;
  });
  return { presentation: seenPresentation, pages };
}
