import { strFromU8, unzipSync } from 'fflate';
import type { KitEditEvent } from '../../daemon/protocol/kit.ts';

/** A draw:frame's position and size on its slide (cm: ODF svg:x, svg:y, svg:width, svg:height). */
export interface SlideFrame {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Twips per cm (1440 twips to the inch). */
export const TWIPS_PER_CM = 1440 / 2.54;

/** The draw:frames of the first slide of an odp file (its bytes), read from content.xml with fflate, in cm. */
export function slideFrames(odp: Uint8Array): SlideFrame[] {
  const xml = strFromU8(unzipSync(odp, { filter: (f) => f.name === 'content.xml' })['content.xml']!);
  const page = xml.slice(xml.indexOf('<draw:page '), xml.indexOf('</draw:page>'));
  const cm = (tag: string, name: string) => parseFloat(new RegExp(`svg:${name}="([0-9.]+)cm"`).exec(tag)?.[1] ?? 'NaN');
  return [...page.matchAll(/<draw:frame [^>]*>/g)].map((m) => ({ x: cm(m[0], 'x'), y: cm(m[0], 'y'), width: cm(m[0], 'width'), height: cm(m[0], 'height') }));
}

/** A left-button mouse event at (x, y) in twips. */
function mouse(event: 'buttondown' | 'buttonup' | 'move', x: number, y: number): Extract<KitEditEvent, { type: 'mouse' }> {
  return { type: 'mouse', event, x: Math.round(x), y: Math.round(y), count: 1, buttons: 1, modifier: 0 };
}

/**
 * The mouse input that moves `frame` by 3000 twips right and down in LibreOffice's slide view: `select` clicks its
 * middle (LibreOffice answers with a graphic selection), then `drag` grabs the selected frame by its top border (inside,
 * a selected text frame takes the click as text editing) and drags it in six moves.
 */
export function frameDrag(frame: SlideFrame): { select: KitEditEvent[]; drag: KitEditEvent[] } {
  const x = (frame.x + frame.width / 2) * TWIPS_PER_CM;
  const y = (frame.y + frame.height / 2) * TWIPS_PER_CM;
  const top = frame.y * TWIPS_PER_CM;
  const moves = [1, 2, 3, 4, 5, 6].map((i) => mouse('move', x + i * 500, top + i * 500));
  return {
    select: [mouse('buttondown', x, y), mouse('buttonup', x, y)],
    drag: [mouse('buttondown', x, top), ...moves, mouse('buttonup', x + 3000, top + 3000)],
  };
}
