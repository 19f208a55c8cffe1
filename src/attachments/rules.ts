import { fileTypeFromBuffer } from 'file-type';

// The pure rules of attachments (docs/attachments.md): chunk size, names, the download header, the type read from
// the content.

/** Bytes per stored chunk: a few statements per megabyte, and small enough that a download's memory stays flat. */
export const CHUNK_BYTES = 256 * 1024;

/** A name keeps at most this many characters (the extension kept when it has to be cut). */
export const MAX_NAME_LENGTH = 200;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const SURROGATE = /\p{Surrogate}/gu;

/**
 * The name as stored and offered for download: the last part of any path (a/b, a\b, C:\x), without control
 * characters (line breaks, NUL, bidirectional overrides that disguise an extension), lone surrogates, or leading
 * and trailing dots and spaces; null when nothing is left.
 */
export function cleanFileName(raw: string): string | null {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const withoutDrive = last.replace(/^[a-zA-Z]:/, '');
  let name = withoutDrive.replace(CONTROL, '').replace(SURROGATE, '').replace(/\s+/g, ' ');
  name = name.replace(/^[\s.]+|[\s.]+$/g, '');
  if (name === '') return null;
  if ([...name].length > MAX_NAME_LENGTH) {
    const chars = [...name];
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = chars.slice(0, MAX_NAME_LENGTH - [...ext].length).join('') + ext;
  }
  return name;
}

/**
 * The media type the content's first bytes show (file-type reads magic numbers; at most its first 4100 bytes
 * matter), or null when they show none known: a name or a Content-Type header is never trusted.
 */
export async function sniffMediaType(head: Uint8Array): Promise<string | null> {
  const found = await fileTypeFromBuffer(head);
  return found?.mime ?? null;
}

/** How a size reads in a message: "25 MiB", "300 KiB", "12 bytes". */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
