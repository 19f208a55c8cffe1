// The camera's decoder (docs/scanning.md): the browser's own BarcodeDetector where it has one that reads our
// symbols (Chrome on Android and macOS, Safari), otherwise the `barcode-detector` ponyfill, which runs ZXing-C++
// compiled to WebAssembly (zxing-wasm). Both answer the same Shape Detection API, so the camera code is one.
//
// The ponyfill would fetch its .wasm from a CDN; it is served from our own origin instead (Vite copies it into the
// build with a hashed name), which the content security policy requires (src/server/security-headers.ts allows
// 'wasm-unsafe-eval' for exactly this: compiling WebAssembly, not evaluating script) and which works offline.

/** QR and DataMatrix carry our labels; Code 128 is their fallback; GS1 DataMatrix and GS1-128 are vendors'. */
const FORMATS = ['qr_code', 'data_matrix', 'code_128'] as const;

export interface Detected {
  rawValue: string;
}
export interface Detector {
  detect(source: ImageBitmapSource): Promise<Detected[]>;
}

type NativeDetector = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
};

let made: Promise<Detector> | null = null;

async function make(): Promise<Detector> {
  const native = (globalThis as { BarcodeDetector?: NativeDetector }).BarcodeDetector;
  if (native) {
    const supported = await native.getSupportedFormats().catch(() => [] as string[]);
    if (FORMATS.every((f) => supported.includes(f))) return new native({ formats: [...FORMATS] });
  }
  const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
    import('barcode-detector/ponyfill'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
  });
  return new BarcodeDetector({ formats: [...FORMATS] });
}

/** One detector for the page's life: the WebAssembly module is compiled once. */
export function barcodeDetector(): Promise<Detector> {
  made ??= make().catch((error) => {
    made = null;
    throw error;
  });
  return made;
}
