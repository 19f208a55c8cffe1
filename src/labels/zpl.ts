import type { CodeView } from './describe.js';
import type { Layout } from './layouts.js';

// Labels as ZPL II for Zebra printers (docs/labels.md): one ^XA…^XZ format per label, the same places as the PDF's
// label, in printer dots. The printer draws the symbols itself (^BQ QR code, ^BX DataMatrix, ^BC Code 128) from
// the data given: nothing is rasterized here. Text goes through ^FH so a "^" or "~" in a name cannot end a field or
// start a command, and ^CI28 makes the printer read UTF-8.

type Labelled = CodeView & { label_url: string };

/** Field data as ^FH reads it: the characters ZPL gives a meaning, and the escape character itself, as _XX hex. */
export const zplText = (s: string) => s.replace(/[\^~_\\]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/** Cut to `chars`, keeping a location path's end (its shelf and box), as the PDF does. */
function truncate(s: string, chars: number) {
  if (s.length <= chars) return s;
  const n = Math.max(0, chars - 1);
  return s.includes(' / ') ? `…${s.slice(s.length - n)}` : `${s.slice(0, n)}…`;
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
  out.push(
    `^FO${dots(text.x)},${dots(y)}^A0N,${dots(text.titleSize)},${dots(text.titleSize)}^FH^FD${zplText(truncate(v.title, charsPerLine(text.titleSize)))}^FS`,
  );
  y += text.titleSize * 1.25;
  for (const line of v.lines.slice(0, text.maxLines)) {
    out.push(
      `^FO${dots(text.x)},${dots(y)}^A0N,${dots(text.lineSize)},${dots(text.lineSize)}^FH^FD${zplText(truncate(line, charsPerLine(text.lineSize)))}^FS`,
    );
    y += text.lineSize * 1.25;
  }
  out.push('^XZ');
  return out.join('\n');
}

/** Every label, one format each, in order. */
export const renderLabelsZpl = (l: Layout, views: Labelled[]): string =>
  views.map((v) => labelZpl(l, v)).join('\n') + (views.length ? '\n' : '');
