// What a scan of one of our labels holds (docs/product.md §14 "Codes"): the code alone, or the label's URL
// `<APP_URL>/app/c/<code>` so that any phone camera app opens the page. Either form reads to the code here.

/** Case, spaces and dashes do not matter to the server either (GET /codes/{code}); the longest code is well below. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9 -]{2,40}$/;

/** The label code in a scanned text, or null when the text is not one of our labels (a vendor barcode, a word). */
export function codeFromScan(text: string): string | null {
  const scanned = text.trim();
  const fromUrl = /^https?:\/\/[^/\s]+(?:\/[^\s]*)?\/app\/c\/([^/?#\s]+)\/?(?:[?#].*)?$/i.exec(scanned);
  if (fromUrl) {
    const code = decodeURIComponent(fromUrl[1]!);
    return CODE.test(code) ? code : null;
  }
  return CODE.test(scanned) ? scanned : null;
}

/** A GS1 element string rather than a label: a symbology identifier, a group separator or the "(01)" printed form. */
export function looksLikeGs1(text: string): boolean {
  // A label code is at most 12 characters: 16 digits starting with AI 01 are a GTIN, never one of ours.
  return /^\](?:C1|d2|Q3|e0)/.test(text) || text.includes('\u001d') || /^\(\d{2,4}\)/.test(text.trim()) || /^01\d{14}/.test(text.trim());
}
