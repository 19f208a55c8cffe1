// A tiny local webhook receiver for trying Labstock: prints each event and checks its Standard Webhooks signature.
//   node scripts/webhook-receiver.mjs [--port 9999] [--secret whsec_...]
// It answers the CloudEvents validation handshake (OPTIONS) so the webhook becomes verified.
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const port = Number(arg('port', '9999'));
const secret = arg('secret', process.env.WEBHOOK_SECRET);

http
  .createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(200, { 'WebHook-Allowed-Origin': req.headers['webhook-request-origin'] ?? '*' }).end();
      console.log(`handshake from ${req.headers['webhook-request-origin']}: answered`);
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let verdict = 'unsigned';
      if (req.headers['webhook-signature']) {
        if (!secret) verdict = 'signed (pass --secret to verify)';
        else {
          try {
            new Webhook(secret).verify(body, req.headers);
            verdict = 'signature OK';
          } catch (err) {
            verdict = `signature INVALID: ${err.message}`;
          }
        }
      }
      let event = {};
      try {
        event = JSON.parse(body);
      } catch {
        /* printed raw below */
      }
      console.log(`\n${new Date().toISOString()}  ${event.type ?? '(not JSON)'}  id=${req.headers['webhook-id'] ?? '-'}  ${verdict}`);
      console.log(JSON.stringify(event.data ?? body, null, 2).slice(0, 2000));
      res.writeHead(204).end();
    });
  })
  .listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/ (Ctrl-C to stop)`));
