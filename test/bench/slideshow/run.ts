/**
 * test/bench/slideshow: the slideshow's pictures, today's way against LibreOffice 25.2's slide renderer (issue 15).
 *   (a) today: the whole deck exported as SVG (saveAs `svg`, what an editing kit does for the editor's slideshow,
 *       daemon/server/sessions/export.ts): the browser shows nothing until the whole export is there;
 *   (b) the slide renderer: getPresentationInfo, then per slide createSlideRenderer(1920 x 1080) and
 *       renderNextSlideLayer until done (the layers Collabora's browser player composes), with the PNG encoding of
 *       each bitmap layer a browser would need (pngjs, level 6, timed apart);
 * first slide (info + slide 0) and whole deck, median (min-max) of BENCH_RUNS runs after one warm-up, per corpus
 * deck, in one LibreOffice in this process. Also what getPresentationInfo tells about transitions and animations.
 * Run: `node bin/run-ts.js test/bench/slideshow/run.ts` (about a minute). Prints the table.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { Office } from '../../../daemon/native/index.ts';
import { copyToWork } from '../../../daemon/native/test-fixtures/fixture-env.ts';
import { fmt } from '../stats.ts';

const ALL_DECKS = [
  'presentations/layouts.pptx',
  'presentations/themes.pptx',
  'presentations/aascu.org_hbcu_leadershipsummit_cooper_.pptx',
  'presentations/Presentation1.odp',
  'presentations/test_custom_formats.odp',
];
/** BENCH_DECKS: a comma-separated subset (corpus paths), else all five. */
const DECKS = process.env.BENCH_DECKS ? process.env.BENCH_DECKS.split(',') : ALL_DECKS;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const W = 1920;
const H = 1080;

const work = mkdtempSync(join(tmpdir(), 'ode-bench-slideshow-'));
const profile = mkdtempSync(join(tmpdir(), 'ode-bench-slideshow-profile-'));
const office = Office.init({ profileUrl: pathToFileURL(profile).href });

/** One slide rendered to its layers; returns the ms of rendering and of PNG encoding, and the layer counts. */
function renderSlide(
  doc: Awaited<ReturnType<Office['documentLoad']>>,
  slide: number,
): { render: number; encode: number; layers: number; bitmaps: number; pngBytes: number } {
  let render = 0;
  let encode = 0;
  let layers = 0;
  let bitmaps = 0;
  let pngBytes = 0;
  let t = performance.now();
  const size = doc.createSlideRenderer(slide, W, H, true, true);
  for (;;) {
    const layer = doc.renderNextSlideLayer();
    render += performance.now() - t;
    if (layer.done) break;
    layers++;
    if (layer.pixels) {
      bitmaps++;
      const e = performance.now();
      const png = new PNG({ width: size.width, height: size.height });
      // BGRA premultiplied to RGBA (the alpha kept; a player draws it on its canvas).
      for (let i = 0; i < layer.pixels.length; i += 4) {
        png.data[i] = layer.pixels[i + 2]!;
        png.data[i + 1] = layer.pixels[i + 1]!;
        png.data[i + 2] = layer.pixels[i]!;
        png.data[i + 3] = layer.pixels[i + 3]!;
      }
      pngBytes += PNG.sync.write(png, { deflateLevel: 6 }).length;
      encode += performance.now() - e;
    }
    t = performance.now();
  }
  return { render, encode, layers, bitmaps, pngBytes };
}

const rows: string[] = [];
const notes: string[] = [];
for (const deck of DECKS) {
  const doc = await office.documentLoad(copyToWork(work, deck), { options: 'Batch=true' });
  doc.initializeForRendering();
  const slides = doc.getParts();
  const svg = join(work, 'deck.svg');
  const svgMs: number[] = [];
  const firstMs: number[] = [];
  const deckMs: number[] = [];
  const encodeMs: number[] = [];
  let layers = 0;
  let bitmaps = 0;
  let pngBytes = 0;
  let info: { slides?: Array<Record<string, unknown>> } = {};
  for (let run = 0; run <= RUNS; run++) {
    let t = performance.now();
    await doc.saveAs(pathToFileURL(svg).href, 'svg');
    const s = performance.now() - t;
    t = performance.now();
    info = JSON.parse(doc.getPresentationInfo()) as typeof info;
    let first = 0;
    let encode = 0;
    layers = bitmaps = pngBytes = 0;
    for (let i = 0; i < slides; i++) {
      const r = renderSlide(doc, i);
      encode += r.encode;
      layers += r.layers;
      bitmaps += r.bitmaps;
      pngBytes += r.pngBytes;
      if (i === 0) first = performance.now() - t - r.encode;
    }
    const all = performance.now() - t - encode;
    doc.postSlideshowCleanup();
    if (run === 0) continue; // warm-up
    svgMs.push(s);
    firstMs.push(first);
    deckMs.push(all);
    encodeMs.push(encode);
  }
  const svgBytes = statSync(svg).size;
  const withTransition = (info.slides ?? []).filter((s) => s.transitionType !== undefined && s.transitionType !== 'None').length;
  const withAnimations = (info.slides ?? []).filter((s) => Array.isArray(s.animations) && s.animations.length > 0).length;
  const name = deck.replace('presentations/', '');
  console.log(`(${name} done)`);
  rows.push(
    `| ${name} | ${slides} | ${fmt(svgMs)} | ${(svgBytes / 1024).toFixed(0)} kB | ${fmt(firstMs)} | ${fmt(deckMs)} | ${fmt(encodeMs)} | ${layers} (${bitmaps} bitmaps), ${(pngBytes / 1024).toFixed(0)} kB PNG |`,
  );
  notes.push(
    `${name}: getPresentationInfo keys ${JSON.stringify(Object.keys(info))}, slide keys ${JSON.stringify(Object.keys(info.slides?.[0] ?? {}))}; ${withTransition} of ${slides} slides with a transition, ${withAnimations} with animations`,
  );
  doc.destroy();
}

console.log(`Slideshow pictures, ${RUNS} runs after a warm-up, ${W}x${H}, median (min-max) ms`);
console.log(
  '| deck | slides | (a) SVG export, whole deck | SVG size | (b) renderer, first slide | (b) renderer, whole deck | (b) PNG encoding, whole deck | layers |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
for (const n of notes) console.log(n);
rmSync(work, { recursive: true, force: true });
rmSync(profile, { recursive: true, force: true });
office.exitProcess(0);
