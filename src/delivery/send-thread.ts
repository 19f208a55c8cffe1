import { parentPort, workerData } from 'node:worker_threads';
import { createSender } from './sender.js';
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
  if (msg.op === 'send' && settings.trace) {
    const times = { received: wallNow(), requested: 0, answered: 0 };
    sender.send(msg.message, times).then(
      (result) => post({ op: 'result', id: msg.id, result: { ...result, times: { ...times, answered: wallNow() } } }),
      (err: unknown) => post({ op: 'failed', id: msg.id, error: describeError(err) }),
    );
    return;
  }
  const work = msg.op === 'send' ? sender.send(msg.message) : sender.handshake(msg.url, msg.origin);
  work.then(
    (result) => post({ op: 'result', id: msg.id, result }),
    (err: unknown) => post({ op: 'failed', id: msg.id, error: describeError(err) }),
  );
});
post({ op: 'ready' });
