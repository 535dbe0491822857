import { api } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import { ErrorCode, isApiError } from '@/shared/http';
import type { Schemas } from '@/shared/api/schema';
import type { ProtocolConfig } from './config';

/** An item of GET /api/v1/logger/functions: a stored protocol config, summed up. */
export type LoggerFunction = Schemas['LoggerFunction'];

/** A decoded value: a number or text (a one-bit field reads 0 or 1); null when not in the frame. */
export type DecodedValue = number | string | boolean | null;

/** One decoded value of POST /logger/function/preview. */
export type PreviewValue = Omit<Schemas['PreviewValue'], 'value'> & { value: DecodedValue };

/** What a frame decodes to; `format` is `rtu` (a whole RTU answer) or `registers`. */
export type PreviewAnswer = Omit<Schemas['PreviewAnswer'], 'values'> & { values: PreviewValue[] };

export const protocolKeys = {
  all: ['protocols'] as const,
  list: ['protocols', 'list'] as const,
  one: (code: string) => ['protocols', 'one', code] as const,
};

export const protocolListQuery = () =>
  queryOptions({
    queryKey: protocolKeys.list,
    queryFn: () => api.get('/api/v1/logger/functions', { silent: true }),
  });

export const protocolQuery = (code: string) =>
  queryOptions({
    queryKey: protocolKeys.one(code),
    queryFn: () =>
      // the document has the config as a free-form object; it is a ProtocolConfig (./config), the
      // shape the server checks on every save
      api.get('/api/v1/logger/function/{code}', {
        path: { code },
        silent: true,
      }) as Promise<ProtocolConfig>,
    // an editor open on a config must not be overwritten by a refetch under the user's hands
    staleTime: Infinity,
  });

/** Whether a config has the code (GET /logger/function/check answers 5000); null: no answer. */
export async function codeTaken(code: string): Promise<boolean | null> {
  try {
    await api.get('/api/v1/logger/function/check', {
      query: { code: code.trim() },
      handledCodes: [ErrorCode.DictCodeExists],
      silent: true,
    });
    return false;
  } catch (e) {
    return isApiError(e, ErrorCode.DictCodeExists) ? true : null;
  }
}

/** Saves a whole config (new or edited); a refusal (4) names every problem in its message. */
export const saveProtocol = (config: ProtocolConfig) =>
  api.post('/api/v1/logger/function', { body: config, handledCodes: [ErrorCode.InvalidParameter] });

/** Decodes a captured frame with a config as it is being edited (nothing is stored). */
export const previewFrame = (config: ProtocolConfig, frame: string, start: number | null) =>
  // the document has a decoded value as an object (any JSON); it is a number, text or a bit
  api.post('/api/v1/logger/function/preview', {
    body: start === null ? { config, frame } : { config, frame, start },
    handledCodes: [ErrorCode.InvalidParameter],
  }) as Promise<PreviewAnswer>;
