import { LineCapStyle, type PDFPage, rgb } from 'pdf-lib';

// The nine GHS pictograms on PDF labels (docs/labels.md "Hazards"): a black symbol in a red diamond frame (UN GHS,
// Annex 1), as vector paths in a 100 × 100 box, the same simplified shapes as the web application's
// (web/src/components/hazards/Pictogram.tsx) so a label and the item's page look alike. pdf-lib draws SVG path data
// (page.drawSvgPath), so circles are two arcs and rotated bars are their four corners.

type Part = { d: string; fill?: 'black' | 'white'; stroke?: number };

const circle = (cx: number, cy: number, r: number) => `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`;
const rect = (x: number, y: number, w: number, h: number) => `M${x} ${y}h${w}v${h}h${-w}z`;

/** A w × h bar at (x, y) turned `deg` degrees about (cx, cy), as SVG's rotate() does. */
function turnedRect(x: number, y: number, w: number, h: number, deg: number, cx: number, cy: number): string {
  const a = (deg * Math.PI) / 180;
  const turn = ([px, py]: [number, number]) => {
    const dx = px - cx;
    const dy = py - cy;
    return `${(cx + dx * Math.cos(a) - dy * Math.sin(a)).toFixed(2)} ${(cy + dx * Math.sin(a) + dy * Math.cos(a)).toFixed(2)}`;
  };
  const corners: [number, number][] = [
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
  ];
  return `M${corners.map(turn).join('L')}z`;
}

/** The flame, moved by (dx, dy) and scaled by s about its start (its other commands are relative). */
const flame = (dx: number, dy: number, s: number) =>
  `M${50 + dx} ${20 + dy}c${9 * s} ${12 * s} ${17 * s} ${19 * s} ${15 * s} ${33 * s}c${-1 * s} ${9 * s} ${-7 * s} ${15 * s} ${-15 * s} ${15 * s}` +
  `c${-9 * s} 0 ${-15 * s} ${-6 * s} ${-15 * s} ${-15 * s}c0 ${-9 * s} ${6 * s} ${-13 * s} ${8 * s} ${-21 * s}c${2 * s} ${8 * s} ${4 * s} ${10 * s} ${6 * s} ${12 * s}` +
  `c${2 * s} ${-8 * s} ${1 * s} ${-16 * s} ${1 * s} ${-24 * s}z`;

export const PICTOGRAM_SHAPES: Record<string, Part[]> = {
  GHS01: [
    { d: circle(44, 60, 12) },
    { d: 'M52 50l6-8M56 56l10-4M50 46l0-10M62 62l9 3M40 46l-5-8', stroke: 3.5 },
    { d: 'M60 30l4 6-6 1zM70 44l6 3-5 4zM30 36l5 2-4 4zM72 60l5 4-6 2z' },
  ],
  GHS02: [{ d: flame(0, 0, 1) }, { d: rect(30, 71, 40, 5) }],
  GHS03: [{ d: flame(12.5, 4, 0.75) }, { d: circle(50, 62, 9), stroke: 5 }, { d: rect(30, 73, 40, 4) }],
  GHS04: [{ d: 'M34 48h26a8 8 0 0 1 0 16h-26a8 8 0 0 1 0-16z' }, { d: rect(66, 52, 6, 8) }, { d: rect(72, 50, 4, 12) }],
  GHS05: [
    { d: turnedRect(30, 22, 8, 20, -25, 34, 32) },
    { d: turnedRect(60, 22, 8, 20, 25, 64, 32) },
    { d: 'M40 46l-2 6h4zM60 46l-2 6h4zM40 56l-2 4h4zM60 56l-2 4h4z' },
    { d: 'M24 66h22v8H24zM54 64c6-2 14-2 20 2v8H54z' },
    { d: 'M36 66l4 4 4-4z', fill: 'white' },
  ],
  GHS06: [
    { d: 'M50 26c-10 0-16 7-16 15 0 6 3 9 6 11v5h20v-5c3-2 6-5 6-11 0-8-6-15-16-15z' },
    { d: `${circle(44, 41, 4)}${circle(56, 41, 4)}`, fill: 'white' },
    { d: 'M32 62l36 12M68 62L32 74', stroke: 5 },
  ],
  GHS07: [{ d: rect(45, 26, 10, 32) }, { d: circle(50, 68, 5.5) }],
  GHS08: [{ d: circle(50, 27, 7) }, { d: 'M36 38h28l4 40H32z' }, { d: 'M50 44l3 7 7 1-5 5 1 7-6-3-6 3 1-7-5-5 7-1z', fill: 'white' }],
  GHS09: [
    { d: 'M34 70V36M34 46l-8-8M34 52l8-9M34 42l6-6', stroke: 3.5 },
    { d: rect(24, 70, 52, 3) },
    { d: 'M50 64c6-5 14-5 20 0-6 5-14 5-20 0zM70 64l6-4v8z' },
    { d: circle(55, 63, 1.5), fill: 'white' },
  ],
};

const RED = rgb(0.894, 0, 0.169);
const BLACK = rgb(0, 0, 0);
const WHITE = rgb(1, 1, 1);

/** Pictogram `code` (GHS01…GHS09) with its top-left corner at (left, top) from the page's top-left, `size` wide. */
export function drawPictogram(page: PDFPage, code: string, left: number, top: number, size: number): void {
  const at = { x: left, y: page.getHeight() - top, scale: size / 100 };
  page.drawSvgPath('M50 4L96 50L50 96L4 50z', {
    ...at,
    color: WHITE,
    borderColor: RED,
    borderWidth: 7,
    borderLineCap: LineCapStyle.Round,
  });
  for (const part of PICTOGRAM_SHAPES[code] ?? []) {
    if (part.stroke) page.drawSvgPath(part.d, { ...at, borderColor: BLACK, borderWidth: part.stroke, borderLineCap: LineCapStyle.Round });
    else page.drawSvgPath(part.d, { ...at, color: part.fill === 'white' ? WHITE : BLACK });
  }
}
