import bwipjs from 'bwip-js';

// The symbols on a label, drawn by bwip-js (docs/labels.md): it encodes and lays out the modules; the PDF and the
// picture take its SVG paths as they are. Nothing here encodes a symbol.

export interface SymbolPaths {
  /** The symbol's own size, in the units of its paths. */
  width: number;
  height: number;
  /** Filled areas (2-D symbols) and stroked lines (Code 128 bars, with their width). */
  fills: string[];
  strokes: { d: string; width: number }[];
}

const VIEWBOX = /viewBox="0 0 ([\d.]+) ([\d.]+)"/;
const PATH = /<path([^>]*)\/>/g;
const ATTR = (name: string) => new RegExp(`${name}="([^"]*)"`);

function parse(svg: string): SymbolPaths {
  const box = VIEWBOX.exec(svg);
  if (!box) throw new Error('bwip-js gave an SVG without a viewBox');
  const out: SymbolPaths = { width: Number(box[1]), height: Number(box[2]), fills: [], strokes: [] };
  for (const m of svg.matchAll(PATH)) {
    const attrs = m[1]!;
    const d = ATTR('d').exec(attrs)?.[1];
    if (!d) continue;
    const stroke = ATTR('stroke-width').exec(attrs)?.[1];
    if (stroke) out.strokes.push({ d, width: Number(stroke) });
    else out.fills.push(d);
  }
  return out;
}

/** A QR code (BWIPP's default error correction, M) of `text`. */
export const qrCode = (text: string): SymbolPaths => parse(bwipjs.toSVG({ bcid: 'qrcode', text }));

/** A square DataMatrix of `text`. */
export const dataMatrix = (text: string): SymbolPaths => parse(bwipjs.toSVG({ bcid: 'datamatrix', text }));

/** A Code 128 of `text`, bars only (the label prints the code in letters itself). */
export const code128 = (text: string): SymbolPaths => parse(bwipjs.toSVG({ bcid: 'code128', text, height: 8, includetext: false }));
