import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The web app's data layer (docs/web.md, "Data layer"): a list is read whole (useAll) or a page at a time with its
// total (usePage), never the first 100 and cut there; and every cached answer is filed under its endpoint's key
// (keyOf), so one endpoint is one family that `invalidate` reaches. Hand-written keys drifted apart before: the
// spend codes lived under two families, and a change refreshed one of them.

const WEB = path.resolve('web/src');

/** The app's source files (not the data layer, whose keys.ts builds the keys, nor the session, which is no API list). */
function sources(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name)) out.push({ file: path.relative(WEB, full), text: fs.readFileSync(full, 'utf8') });
    }
  };
  walk(WEB);
  return out.filter(({ file }) => !file.startsWith(`data${path.sep}`) && file !== 'session.tsx');
}

/** `file:line` of each line a pattern matches. */
function where(pattern: RegExp): string[] {
  return sources().flatMap(({ file, text }) =>
    text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('the web app reads lists and keys through web/src/data', () => {
  it('fetches no list with per_page 100 (a silent cap at the first page)', () => {
    expect(where(/per_page:\s*100\b/)).toEqual([]);
  });

  it('writes no query key by hand: keys are keyOf(path, params), maybe followed by a word', () => {
    // `queryKey: [...keyOf(…), 'etag']` extends an endpoint's key; `queryKey: ['labs']` is a family of its own.
    expect(where(/queryKey:\s*\[(?!\.\.\.keyOf\()/)).toEqual([]);
    expect(where(/(setQueryData|getQueryData|removeQueries|invalidateQueries)\(\s*\[/)).toEqual([]);
    expect(where(/_KEY\s*=\s*\[|\bKEY\s*=\s*\[/)).toEqual([]);
  });

  it('has no hand-written keys left for keys.ts to remember', () => {
    expect(fs.readFileSync(path.join(WEB, 'data/keys.ts'), 'utf8')).not.toMatch(/\bLEGACY\b/);
  });
});
