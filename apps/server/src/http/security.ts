import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyReply {
    /** This response's CSP nonce: inline scripts (SSR, the sandbox cashier) carry it. Made on first use. */
    scriptNonce: string;
  }
}

/** Stands for the nonce in the CSP computed once; replaced per response. Base64 letters only, so helmet accepts it. */
const NONCE_MARK = 'NonceMarkNonceMarkNonceMark0';
const kNonce = Symbol('scriptNonce');
type WithNonce = { [kNonce]?: string };

const directives = (scriptNonce: boolean) => ({
  defaultSrc: ["'self'"],
  // 'wasm-unsafe-eval' lets WebAssembly compile (not JS eval): the lazily loaded 3D viewer's
  // mesh decoder is WebAssembly (components/ui/model-view.tsx).
  scriptSrc: ["'self'", ...(scriptNonce ? [`'nonce-${NONCE_MARK}'`] : []), "'wasm-unsafe-eval'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  mediaSrc: ["'self'", 'https:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  manifestSrc: ["'self'"],
  workerSrc: ["'self'"],
});

const options = (scriptNonce: boolean): HelmetOptions => ({
  contentSecurityPolicy: { useDefaults: false, directives: directives(scriptNonce) },
  // Set below, only over TLS: an HSTS header on plain http would pin a dev host to https.
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: { policy: 'same-site' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
});

/** The headers helmet sets for these options (run once against a recording response). */
export function helmetHeaders(opts: HelmetOptions): Map<string, string> {
  const out = new Map<string, string>();
  const res = {
    setHeader: (k: string, v: unknown) => void out.set(k.toLowerCase(), String(v)),
    removeHeader: (k: string) => void out.delete(k.toLowerCase()),
  };
  let failed: unknown;
  helmet(opts)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return out;
}

/**
 * Security headers from helmet on every response: a Content-Security-Policy, frame-ancestors
 * 'none', nosniff, a strict referrer policy; HSTS only on requests that arrived over TLS (directly,
 * or through a trusted proxy's X-Forwarded-Proto). Styles may be inline (React style attributes).
 *
 * Helmet's headers do not depend on the request, so they are computed once at start (through helmet
 * itself) and copied onto each response: @fastify/helmet built a new helmet middleware, CSP
 * directives parsed anew, on every request — ≈ 5 % of a drop-day request's CPU. The only part
 * that varies is the script nonce: a response that renders inline script (SSR, the sandbox
 * cashier) reads `reply.scriptNonce`, which makes a fresh random nonce and puts it into that
 * response's CSP. A response that never reads it (the JSON API) gets a CSP whose script-src has
 * no nonce at all, so no inline script can run in it.
 */
export async function installSecurityHeaders(app: FastifyInstance) {
  const base = helmetHeaders(options(false));
  const withNonce = helmetHeaders(options(true)).get('content-security-policy')!;
  if (!withNonce.includes(NONCE_MARK)) throw new Error('security headers: the CSP lost its nonce source');
  const fixed = [...base];
  app.decorateReply('scriptNonce', {
    getter(this: { raw: ServerResponse & WithNonce }) {
      const raw = this.raw;
      let nonce = raw[kNonce];
      if (nonce === undefined) {
        nonce = raw[kNonce] = crypto.randomBytes(16).toString('base64');
        if (!raw.headersSent) raw.setHeader('content-security-policy', withNonce.replace(NONCE_MARK, nonce));
      }
      return nonce;
    },
  });
  app.addHook('onRequest', (req, reply, done) => {
    const raw = reply.raw;
    for (const [k, v] of fixed) raw.setHeader(k, v);
    raw.removeHeader('x-powered-by');
    if (req.protocol === 'https') raw.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
    done();
  });
}
