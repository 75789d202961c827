import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import type { ServerResponse } from 'node:http';

declare module 'fastify' {
  interface FastifyReply {
    /** This response's CSP nonce: inline scripts (SSR, the sandbox cashier) carry it. */
    scriptNonce: string;
  }
}

type WithNonce = ServerResponse & { cspNonce?: string };

/**
 * Security headers through @fastify/helmet on every response: a Content-Security-Policy with a
 * per-response script nonce (no inline script runs without it), frame-ancestors 'none',
 * nosniff, a strict referrer policy; HSTS only on requests that arrived over TLS (directly, or
 * through a trusted proxy's X-Forwarded-Proto). Styles may be inline (React style attributes).
 */
export async function installSecurityHeaders(app: FastifyInstance) {
  app.decorateReply('scriptNonce', '');
  app.addHook('onRequest', async (_req, reply) => {
    reply.scriptNonce = crypto.randomBytes(16).toString('base64');
    (reply.raw as WithNonce).cspNonce = reply.scriptNonce;
  });
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets WebAssembly compile (not JS eval): the lazily loaded 3D viewer's
        // mesh decoder is WebAssembly (components/ui/model-view.tsx).
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as WithNonce).cspNonce ?? ''}'`, "'wasm-unsafe-eval'"],
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
      },
    },
    // Set below, only over TLS: an HSTS header on plain http would pin a dev host to https.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}
