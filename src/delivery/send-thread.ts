import { parentPort, workerData } from 'node:worker_threads';
import { createSender, type OutgoingMessage, type SendResult } from './sender.js';
import { describeError, type FromThread, type ThreadSettings, type ToThread } from './thread-sender.js';
import { wallNow } from './trace.js';

// The delivery thread's side (thread-sender.ts starts it): the HTTP exchanges of deliveries and validation
// handshakes, signed and checked against SSRF as before (sender.ts), on an event loop of their own, so the API's
// requests on the main thread no longer delay them (docs/decisions/0017-delivery-thread.md).

const port = parentPort!;
const settings = workerData as ThreadSettings;
const sender = createSender(settings);
const post = (msg: FromThread) => port.postMessage(msg);

port.on('message', (msg: ToThread) => {
  if (msg.op === 'close') {
    // The worker stops only once nothing is in flight (worker.ts), so closing the agent loses no exchange.
    void sender.close().finally(() => {
      post({ op: 'closed' });
      port.close();
    });
    return;
  }
  if (msg.op === 'send') {
    for (const { id, message } of msg.sends) void sendOne(id, message);
    return;
  }
  sender.handshake(msg.url, msg.origin).then(
    (result) => post({ op: 'result', id: msg.id, result }),
    (err: unknown) => post({ op: 'failed', id: msg.id, error: describeError(err) }),
  );
});

/**
 * Answers go back at most a millisecond after the first of them, together: each message costs the main thread a
 * turn of its event loop, which the API's requests keep busy, and the slots that one message frees are claimed for
 * by one claim (worker.ts), whole. The receiver has had the delivery already: only the slot waits.
 */
const RESULTS_EVERY_MS = 1;
let results: { id: number; result: SendResult }[] = [];
function postResults(): void {
  const out = results;
  results = [];
  post({ op: 'results', results: out });
}

async function sendOne(id: number, message: OutgoingMessage): Promise<void> {
  try {
    const times = settings.trace ? { received: wallNow(), requested: 0, answered: 0 } : undefined;
    const result = await sender.send(message, times);
    if (times) result.times = { ...times, answered: wallNow() };
    if (results.length === 0) setTimeout(postResults, RESULTS_EVERY_MS);
    results.push({ id, result });
  } catch (err) {
    post({ op: 'failed', id, error: describeError(err) });
  }
}
post({ op: 'ready' });
