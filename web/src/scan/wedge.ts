import { useEffect, useRef } from 'react';

// Keyboard-wedge scanners (USB or Bluetooth) type what they read as keystrokes, much faster than a person, and end
// with Enter. This tells the two apart: at least MIN_LENGTH characters typed on average less than MAX_GAP_MS apart,
// then Enter. A single gap may be longer (a busy browser delivers keys unevenly) up to BREAK_MS, which ends a burst.
// A person typing is never that fast for a whole word, so their keystrokes pass through untouched.
//
// Outside text fields the whole burst is a scan. Inside one, only a field marked `data-scan-field` takes scans (it
// receives the characters as typed and handles Enter itself); other fields are left alone, so a scan never lands in
// the middle of a form by accident and a person typing in a field is never mistaken for a scanner.

export const MAX_GAP_MS = 35;
export const BREAK_MS = 500;
export const MIN_LENGTH = 4;

/** Feeds keystrokes one by one; answers the scanned text when Enter closes a fast burst. */
export class WedgeDetector {
  private buffer = '';
  private first = 0;
  private last = Number.NEGATIVE_INFINITY;

  key(key: string, at: number): string | null {
    const gap = at - this.last;
    this.last = at;
    if (key === 'Enter') {
      const fast = gap <= BREAK_MS && (at - this.first) / this.buffer.length <= MAX_GAP_MS;
      const text = this.buffer.length >= MIN_LENGTH && fast ? this.buffer : null;
      this.buffer = '';
      return text;
    }
    // Shift comes with capitals; any other named key (Tab, Escape, arrows) is a person.
    if (key.length !== 1) {
      if (key !== 'Shift') this.buffer = '';
      return null;
    }
    if (this.buffer === '' || gap > BREAK_MS) {
      this.buffer = key;
      this.first = at;
    } else {
      this.buffer += key;
    }
    return null;
  }
}

function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset'].includes(target.type);
  return false;
}

/**
 * Listens to the whole document for scans outside text fields and calls `onScan` with the text; the Enter that ends
 * a scan is swallowed so it does not also press the focused button.
 */
export function useWedge(onScan: (text: string) => void): void {
  const handler = useRef(onScan);
  handler.current = onScan;
  useEffect(() => {
    const detector = new WedgeDetector();
    const listen = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (inTextField(event.target)) {
        // A dedicated scan field handles its own input; anything typed elsewhere starts afresh.
        detector.key('Escape', event.timeStamp);
        return;
      }
      const text = detector.key(event.key, event.timeStamp);
      if (text !== null) {
        event.preventDefault();
        handler.current(text);
      }
    };
    document.addEventListener('keydown', listen, true);
    return () => document.removeEventListener('keydown', listen, true);
  }, []);
}

/**
 * The scan as an event any page may take first (the scan page does, to move containers into a location): a page
 * listening calls preventDefault, and the app-wide default (opening the scan page) is skipped.
 */
export const SCAN_EVENT = 'labstock-scan';

export function announceScan(text: string): boolean {
  const event = new CustomEvent<string>(SCAN_EVENT, { detail: text, cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

/** For a page that handles scans itself while it is open; a handler answering false leaves the scan to others. */
export function useScanEvents(onScan: (text: string) => boolean | undefined, enabled = true): void {
  const handler = useRef(onScan);
  handler.current = onScan;
  useEffect(() => {
    if (!enabled) return;
    const listen = (event: Event) => {
      if (event.defaultPrevented) return;
      if (handler.current((event as CustomEvent<string>).detail) !== false) event.preventDefault();
    };
    window.addEventListener(SCAN_EVENT, listen);
    return () => window.removeEventListener(SCAN_EVENT, listen);
  }, [enabled]);
}
