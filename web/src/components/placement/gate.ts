import type { components } from '@labstock/client';
import { useCallback, useRef, useState } from 'react';
import { api, LabstockError, unwrap } from '../../api';

// Asking before a container goes somewhere (docs/safety.md, "What the app shows"): the server's placement check
// (POST /placement-checks, or GET /order-requests/{id}/placement-check before an approval) is read first; with no
// finding the action goes ahead at once, else a dialog shows the findings and the person decides (warn mode) or
// reads the refusal (block mode). The action itself is still a useSubmission's submit: sent once.

export type PlacementCheck = components['schemas']['PlacementCheck'];

/** What a check is asked about: containers moved to a location, or new containers of items added there. */
export interface PlacementQuestion {
  location_id: string;
  instances?: { instance_id: string; quantity?: string }[];
  items?: { item_id: string; quantity: string }[];
}

/** POST /placement-checks (writes nothing). */
export const checkPlacement = (body: PlacementQuestion): Promise<PlacementCheck> => unwrap(api.POST('/placement-checks', { body }));

/** GET /order-requests/{id}/placement-check: what approving the request would run into. */
export const checkApproval = (orderId: string): Promise<PlacementCheck> =>
  unwrap(api.GET('/order-requests/{id}/placement-check', { params: { path: { id: orderId } } }));

/** Nothing to tell: no conflict and no limit passed (an amount not understood alone does not stop anyone). */
export const isQuiet = (c: PlacementCheck): boolean => c.segregation.length === 0 && c.limits.length === 0;

export interface PlacementGate {
  /** The findings on show (the dialog is open), or the error that kept the check from being read. */
  shown: { check?: PlacementCheck; error?: unknown } | null;
  /** The check is on its way. */
  asking: boolean;
  /**
   * Reads the check, then runs `go` at once when there is nothing to tell; else shows the findings. `question`
   * answering null: nothing to check (no location). A second ask while one is open is ignored.
   */
  ask: (question: () => Promise<PlacementCheck | null>, go: () => void) => void;
  /** "Go ahead anyway": runs the action once (a double-click runs it once) and closes the dialog. */
  confirm: () => void;
  /** Closes the dialog without acting. */
  cancel: () => void;
}

export function usePlacementGate(): PlacementGate {
  const [shown, setShown] = useState<PlacementGate['shown']>(null);
  const [asking, setAsking] = useState(false);
  const busy = useRef(false);
  const pending = useRef<(() => void) | null>(null);
  const ask = useCallback((question: () => Promise<PlacementCheck | null>, go: () => void) => {
    if (busy.current) return;
    busy.current = true;
    setAsking(true);
    question().then(
      (check) => {
        setAsking(false);
        if (!check || isQuiet(check)) {
          busy.current = false;
          go();
          return;
        }
        pending.current = go;
        setShown({ check });
      },
      (error: unknown) => {
        setAsking(false);
        // The check could not be read: the person may still go ahead (the server checks again as it writes).
        pending.current = go;
        setShown({ error });
      },
    );
  }, []);
  const confirm = useCallback(() => {
    const go = pending.current;
    pending.current = null;
    busy.current = false;
    setShown(null);
    go?.();
  }, []);
  const cancel = useCallback(() => {
    pending.current = null;
    busy.current = false;
    setShown(null);
  }, []);
  return { shown, asking, ask, confirm, cancel };
}

/** A refusal by the lab's safety settings (409), as the server says it. */
export const isPlacementRefusal = (err: unknown): err is LabstockError =>
  err instanceof LabstockError && (err.code === 'limit_exceeded' || err.code === 'segregation_conflict');

/** The sentences of a refusal: its findings when the error carries them, else the server's message. */
export function refusalSentences(err: LabstockError): string[] {
  const findings = err.body?.findings as unknown;
  const messages = (list: unknown): string[] =>
    Array.isArray(list) ? list.map((f) => (f && typeof f === 'object' && 'message' in f ? String(f.message) : '')).filter(Boolean) : [];
  if (Array.isArray(findings)) {
    const out = messages(findings);
    if (out.length > 0) return out;
  } else if (findings && typeof findings === 'object') {
    const f = findings as { segregation?: unknown; limits?: unknown };
    const out = [...messages(f.limits), ...messages(f.segregation)];
    if (out.length > 0) return out;
  }
  // The message joins the findings with "; " (a limit's own sentence has "; this adds" inside it).
  return err.message
    .replace(/^Refused by the lab's safety settings:\s*/, '')
    .split(/; (?!this adds )/)
    .filter((line) => line.trim() !== '');
}
