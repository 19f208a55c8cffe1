import { describe, expect, it } from 'vitest';
import { dispositionOf } from '../shared/download.js';
import { cleanFileName, sizeText, sniffMediaType } from './rules.js';

describe('attachment names', () => {
  it('keep the last part of a path, without control characters or surrounding dots and spaces', () => {
    expect(cleanFileName('../../a/b/c.pdf')).toBe('c.pdf');
    expect(cleanFileName('C:\\x\\y.png')).toBe('y.png');
    expect(cleanFileName('D:z.pdf')).toBe('z.pdf');
    expect(cleanFileName('tab\there.pdf')).toBe('tabhere.pdf');
    expect(cleanFileName('a   b.pdf')).toBe('a b.pdf');
    expect(cleanFileName('\u202Egnp.pdf')).toBe('gnp.pdf');
    expect(cleanFileName('...')).toBeNull();
    expect(cleanFileName('dir/')).toBeNull();
    expect(cleanFileName('Ethanol – SDS (ü).pdf')).toBe('Ethanol – SDS (ü).pdf');
  });

  it('are cut to 200 characters keeping the extension', () => {
    const name = cleanFileName(`${'é'.repeat(250)}.jpeg`)!;
    expect([...name].length).toBe(200);
    expect(name.endsWith('.jpeg')).toBe(true);
  });

  it('are offered for download in plain ASCII and in full UTF-8', () => {
    expect(dispositionOf('a.pdf')).toBe('attachment; filename="a.pdf"');
    expect(dispositionOf('ü.pdf')).toBe(`attachment; filename="?.pdf"; filename*=UTF-8''%C3%BC.pdf`);
  });
});

describe('content types', () => {
  it('are read from the first bytes', async () => {
    expect(await sniffMediaType(Buffer.from('%PDF-1.4\n'))).toBe('application/pdf');
    expect(await sniffMediaType(Buffer.from('<html></html>'))).toBeNull();
  });

  it('sizes read as people say them', () => {
    expect(sizeText(25 * 1024 * 1024)).toBe('25 MiB');
    expect(sizeText(65536)).toBe('64 KiB');
    expect(sizeText(1000)).toBe('1000 bytes');
  });
});
