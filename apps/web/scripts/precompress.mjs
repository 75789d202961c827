// Writes .br and .gz next to every compressible client asset so the server can send them
// precompressed (@fastify/static preCompressed) instead of compressing on each request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = path.resolve(import.meta.dirname, '../build/client');
let files = 0;
const walk = (d) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.(js|mjs|css|svg|html|json|txt)$/.test(e.name) && fs.statSync(p).size > 1024) {
      const buf = fs.readFileSync(p);
      fs.writeFileSync(`${p}.br`, zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      fs.writeFileSync(`${p}.gz`, zlib.gzipSync(buf, { level: 9 }));
      files++;
    }
  }
};
walk(dir);
console.log(`precompressed ${files} files`);
