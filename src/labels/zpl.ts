import { PICTOGRAMS, type Pictogram } from '../hazards/ghs-classes.js';
import type { CodeView } from './describe.js';
import type { LabelHazards } from './hazards.js';
import type { Layout } from './layouts.js';

// Labels as ZPL II for Zebra printers (docs/labels.md): one ^XA…^XZ format per label, the same places as the PDF's
// label, in printer dots. The printer draws the symbols itself (^BQ QR code, ^BX DataMatrix, ^BC Code 128) from
// the data given: nothing is rasterized here. Text goes through ^FH so a "^" or "~" in a name cannot end a field or
// start a command, and ^CI28 makes the printer read UTF-8. Every byte outside printable ASCII is written as a ^FH
// escape of its UTF-8 byte ("α" is _CE_B1), so the file is plain ASCII and no spooler or terminal on the way can
// re-encode it. The printer's built-in font 0 has Latin letters only: a line with any other character is set in
// Zebra's Unicode font Swiss 721 (E:TT0003M_.FNT, resident on current Zebra printers), which has Greek and
// Cyrillic too (docs/labels.md "ZPL").

type Labelled = CodeView & { label_url: string; hazards?: LabelHazards };

/**
 * A reagent's hazards as one line of text: "Danger: Flame, Exclamation mark". Drawing the pictograms would mean
 * sending each as a bitmap (^GF) with every label; the printer's text is what a Zebra prints fast and sharp.
 */
export function hazardLine(h: LabelHazards): string {
  const names = h.pictograms.map((p) => PICTOGRAMS[p as Pictogram] ?? p).join(', ');
  return [h.signalWord, names].filter(Boolean).join(': ');
}

const hex = (b: number) => `_${b.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * Field data as ^FH reads it: the characters ZPL gives a meaning, the escape character itself, control characters
 * and every non-ASCII character (as its UTF-8 bytes, which ^CI28 reads) as _XX hex.
 */
export const zplText = (s: string) => s.replace(/[\^~_\\]|[^\x20-\x7e]/gu, (c) => [...new TextEncoder().encode(c)].map(hex).join(''));

/** The font command for a text field: font 0 for Latin-1 text (and the ellipsis), Swiss 721 for anything beyond. */
const UNICODE_FONT = 'E:TT0003M_.FNT';
const fontFor = (s: string, h: number) => (/^[\x20-\xff…]*$/.test(s) ? `^A0N,${h},${h}` : `^A@N,${h},${h},${UNICODE_FONT}`);

/** Cut to `chars` characters (not UTF-16 units: a character is never split), keeping a location path's end. */
function truncate(text: string, chars: number) {
  const s = [...text];
  if (s.length <= chars) return text;
  const n = Math.max(0, chars - 1);
  return text.includes(' / ') ? `…${s.slice(s.length - n).join('')}` : `${s.slice(0, n).join('')}…`;
}

function textField(x: number, y: number, h: number, value: string) {
  return `^FO${x},${y}${fontFor(value, h)}^FH^FD${zplText(value)}^FS`;
}

export function labelZpl(l: Layout, v: Labelled): string {
  const dots = (pt: number) => Math.round((pt * 25.4 * l.zplDotsPerMm) / 72);
  const out = ['^XA', '^CI28', `^PW${dots(l.label.width)}`, `^LL${dots(l.label.height)}`, '^LH0,0'];
  const { symbol, codeText, text } = l;
  if (symbol.kind === 'qrcode') {
    // Magnification: the module size in dots that fits the URL's symbol (version 3-4, up to 33 modules) in the box.
    const mag = Math.max(1, Math.min(10, Math.floor(dots(symbol.size) / 33)));
    // ^BQ's data: error correction M, automatic input ("MA,"). The QR code's own quiet zone is the printer's.
    out.push(`^FO${dots(symbol.x)},${dots(symbol.y)}^BQN,2,${mag}^FDMA,${v.label_url}^FS`);
  } else {
    const module = Math.max(1, Math.floor(dots(symbol.size) / 14));
    out.push(`^FO${dots(symbol.x)},${dots(symbol.y)}^BXN,${module},200^FD${v.code}^FS`);
  }
  out.push(`^FO${dots(codeText.x)},${dots(codeText.y)}^A0N,${dots(codeText.size)},${dots(codeText.size)}^FD${v.code}^FS`);
  if (l.code128) {
    const c = l.code128;
    // Code 128 of 10 characters is about 145 modules: the widest module that fits the box.
    const module = Math.max(1, Math.min(4, Math.floor(dots(c.width) / 150)));
    out.push(`^FO${dots(c.x)},${dots(c.y)}^BY${module}^BCN,${dots(c.height)},N,N,N^FD${v.code}^FS`);
  }
  const charsPerLine = (size: number) => Math.floor(text.width / (size * 0.5));
  let y = text.y;
  out.push(textField(dots(text.x), dots(y), dots(text.titleSize), truncate(v.title, charsPerLine(text.titleSize))));
  y += text.titleSize * 1.25;
  // As on the PDF: the hazards' line takes the place of the lines below its row.
  const row = l.hazards && v.hazards ? l.hazards : null;
  let lines = v.lines.slice(0, text.maxLines);
  if (row) lines = lines.slice(0, Math.max(0, Math.floor((row.y - y - text.lineSize) / (text.lineSize * 1.25)) + 1));
  for (const line of lines) {
    out.push(textField(dots(text.x), dots(y), dots(text.lineSize), truncate(line, charsPerLine(text.lineSize))));
    y += text.lineSize * 1.25;
  }
  if (row) {
    const line = truncate(hazardLine(v.hazards!), charsPerLine(text.lineSize));
    out.push(textField(dots(row.x), dots(row.y + row.size / 2 - text.lineSize / 2), dots(text.lineSize), line));
  }
  out.push('^XZ');
  return out.join('\n');
}

/** Every label, one format each, in order. */
export const renderLabelsZpl = (l: Layout, views: Labelled[]): string =>
  views.map((v) => labelZpl(l, v)).join('\n') + (views.length ? '\n' : '');
