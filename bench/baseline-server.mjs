// The physical reference: a bare node:http server answering a small fixed JSON
// body. Every Parley figure is reported as a ratio to this one, measured in the
// same run with the same load generator and settings.
import { createServer } from 'node:http';

const body = JSON.stringify({ version: '0.0.0', success: true });
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
