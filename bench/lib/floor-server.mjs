// The floor: a bare node:http server that reads the request and answers every request with one precomputed
// JSON body of a given size and status. What Labstock's answer would cost if building it were free.
//   node bench/lib/floor-server.mjs <bodyBytes> [status]      prints "listening <port>"
import http from 'node:http';

const size = Math.max(2, Number(process.argv[2]) || 2);
const status = Number(process.argv[3]) || 200;
const pad = Math.max(0, size - '{"p":""}'.length);
const body = Buffer.from(size < 8 ? '{}'.padEnd(size) : `{"p":"${'x'.repeat(pad)}"}`);
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(status, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
