// client/README.md, "Webhook verification" (quoted after the marker; compiled by client/test/readme.test.ts).
// ---- README ----
import http from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '@labstock/client';

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        // The raw body, exactly as received: not JSON parsed and serialized again.
        const event = verifyWebhook(Buffer.concat(chunks).toString('utf8'), req.headers, process.env.LABSTOCK_SIGNING_KEY!);
        if (event.type === 'com.labstock.inventory-item.updated') console.log(event.data.inventory_item.quantity);
        if (event.type === 'com.labstock.order-request.ordered') console.log(event.data.order_request.events.at(-1));
        res.writeHead(204).end();
      } catch (err) {
        res.writeHead(err instanceof WebhookVerificationError ? 400 : 500).end();
      }
    });
  })
  .listen(3000);
