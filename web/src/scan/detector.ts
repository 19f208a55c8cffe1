// The camera's decoder (docs/scanning.md): the browser's own BarcodeDetector where it has one that reads our
// symbols (Chrome on Android and macOS, Safari), otherwise ZXing-C++ compiled to WebAssembly (zxing-wasm), loaded
// only when a camera is first started so no other page pays for it.
//
// zxing-wasm would fetch its .wasm from a CDN; it is served from our own origin instead (Vite copies it into the
// build with a hashed name), which the content security policy requires (src/server/security-headers.ts allows
// 'wasm-unsafe-eval' for exactly this: compiling WebAssembly, not evaluating script) and which works offline.

/** QR and DataMatrix carry our labels; Code 128 is their fallback; GS1 DataMatrix and GS1-128 are vendors'. */
const NATIVE_FORMATS = ['qr_code', 'data_matrix', 'code_128'];
const ZXING_FORMATS = ['QRCode', 'DataMatrix', 'Code128'] as const;

export interface Detector {
  /** The text of each symbol in the frame (a GS1 symbol's separators as U+001D), best first. */
  detect(frame: HTMLVideoElement): Promise<string[]>;
}

type NativeDetector = {
  new (options: { formats: string[] }): { detect(source: ImageBitmapSource): Promise<{ rawValue: string }[]> };
  getSupportedFormats(): Promise<string[]>;
};

async function native(): Promise<Detector | null> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetector }).BarcodeDetector;
  if (!Native) return null;
  const supported = await Native.getSupportedFormats().catch(() => [] as string[]);
  if (!NATIVE_FORMATS.every((f) => supported.includes(f))) return null;
  const detector = new Native({ formats: NATIVE_FORMATS });
  return { detect: async (frame) => (await detector.detect(frame)).map((b) => b.rawValue) };
}

async function zxing(): Promise<Detector> {
  const [{ prepareZXingModule, readBarcodes }, { default: wasmUrl }] = await Promise.all([
    import('zxing-wasm/reader'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
    fireImmediately: true,
  });
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('This browser cannot read camera frames.');
  return {
    detect: async (frame) => {
      canvas.width = frame.videoWidth;
      canvas.height = frame.videoHeight;
      context.drawImage(frame, 0, 0);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const found = await readBarcodes(image, { formats: [...ZXING_FORMATS], textMode: 'Plain', tryHarder: true, maxNumberOfSymbols: 1 });
      return found.filter((r) => r.isValid).map((r) => r.text);
    },
  };
}

let made: Promise<Detector> | null = null;

/** One detector for the page's life: the WebAssembly module is compiled once. */
export function barcodeDetector(): Promise<Detector> {
  made ??= native()
    .then((d) => d ?? zxing())
    .catch((error) => {
      made = null;
      throw error;
    });
  return made;
}
