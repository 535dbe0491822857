import { ApiError } from './errors';
import { codeMessage, http } from './index';

/** The file name a Content-Disposition header names (RFC 5987 form first), or `fallback`. */
export function fileNameOf(disposition: string | undefined, fallback: string): string {
  if (!disposition) return fallback;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1]);
    } catch {
      // a broken encoding: fall back to the plain name
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? fallback;
}

/**
 * Downloads a file answer (an .xlsx) through the one HTTP client and hands it to the browser.
 * A refusal comes back as a JSON envelope instead of the file: it rejects with its code (the
 * client's toast is not involved, the caller shows the message).
 */
export async function downloadFile(
  url: string,
  params: object | undefined,
  fallbackName: string,
): Promise<void> {
  const response = await http.send<Blob>({
    method: 'GET',
    url,
    params: params as Record<string, unknown> | undefined,
    responseType: 'blob',
  });
  const blob = response.data;
  if (blob.type.includes('json')) {
    const body = JSON.parse(await blob.text()) as { code?: number; msg?: string };
    const code = body.code ?? -1;
    throw new ApiError(code, body.msg || codeMessage(code), null);
  }
  const disposition = response.headers.get('content-disposition') ?? undefined;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileNameOf(disposition, fallbackName);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
