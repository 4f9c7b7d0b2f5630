import type { Certificate } from '@vrtc/contract';
import { useEffect, useState } from 'react';
import { api } from './client';
import { routes } from './routes';

export type CertificateLookup =
  | { state: 'loading' }
  | { state: 'found'; certificate: Certificate }
  | { state: 'failed'; error: unknown };

/**
 * A certificate by its code (GET /v1/certificates/:code, no sign-in), for the public verify page
 * and the printed certificate. Asked for once per code with a plain request: those pages stand
 * outside the signed-in layout and its query cache.
 */
export function useCertificate(code: string): CertificateLookup {
  const [lookup, setLookup] = useState<{ code: string; result: CertificateLookup }>();
  useEffect(() => {
    const controller = new AbortController();
    api.call(routes.getCertificate, { params: { code }, signal: controller.signal }).then(
      (certificate) => setLookup({ code, result: { state: 'found', certificate } }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLookup({ code, result: { state: 'failed', error } });
      },
    );
    return () => controller.abort();
  }, [code]);
  return lookup?.code === code ? lookup.result : { state: 'loading' };
}

/** The public page a certificate's QR code opens: `{origin}/verify/:code`. */
export function verifyUrl(origin: string, code: string): string {
  return `${origin}/verify/${encodeURIComponent(code)}`;
}
