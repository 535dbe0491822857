import { queryOptions } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { api } from '@/shared/api/client';
import { SPANS, type Span } from './model';

/** GET /api/v1/battery/{sn}/health over the `span` days up to `today` (plant-local). */
export const batteryHealthQuery = (sn: string, span: Span, today: string) =>
  queryOptions({
    queryKey: ['batteries', 'one', sn, 'health', span, today] as const,
    queryFn: () =>
      api.get('/api/v1/battery/{sn}/health', {
        path: { sn },
        query: {
          from: dayjs(today)
            .subtract(SPANS[span] - 1, 'day')
            .format('YYYY-MM-DD'),
          to: today,
        },
        silent: true,
      }),
  });
