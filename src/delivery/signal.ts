import { EventEmitter } from 'node:events';

// In-process wake-up for workers in this process. On SQLite it is the only signal (one process serves and
// delivers); on PostgreSQL it complements LISTEN/NOTIFY, which reaches workers in other processes.
const emitter = new EventEmitter();
emitter.setMaxListeners(0);

export const PG_CHANNEL = 'labstock_deliveries';

export const deliverySignal = {
  kick(): void {
    emitter.emit('kick');
  },
  onKick(listener: () => void): () => void {
    emitter.on('kick', listener);
    return () => emitter.off('kick', listener);
  },
};
