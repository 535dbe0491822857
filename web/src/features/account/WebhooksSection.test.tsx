import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp, reply } from '@/test/http';
import { renderScreen } from '@/test/render';
import { WebhooksSection } from './WebhooksSection';
import type { DeliveryAttempt, Webhook } from './webhooksApi';

const SECRET = `whsec_${'ab12'.repeat(16)}`;

const hook = (over: Partial<Webhook> = {}): Webhook => ({
  id: 7,
  url: 'https://hooks.example.com/portal',
  enabled: true,
  kinds: ['offline', 'fault'],
  minSeverity: 'alarm',
  secretHint: '…9f3c',
  createAt: '2026-11-30T10:00:00.000+00:00',
  ...over,
});

const attempt = (over: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
  deliveryId: 41,
  event: 'opened',
  attempt: 1,
  at: 1_780_000_000_000,
  status: 500,
  error: '',
  durationMs: 12,
  state: 'pending',
  ...over,
});

const show = () => renderScreen(<WebhooksSection />);

describe('WebhooksSection', () => {
  it('lists endpoints by their hint, never a secret, with kinds and severity', async () => {
    fakeHttp({ 'GET /api/v1/user/webhooks': () => envelope([hook()]) });
    await show();
    const card = await screen.findByTestId('webhook-card');
    expect(within(card).getByText('https://hooks.example.com/portal')).toBeInTheDocument();
    expect(within(card).getByText('…9f3c')).toBeInTheDocument();
    expect(within(card).getByText('Gateway offline')).toBeInTheDocument();
    expect(within(card).getByText('≥ Alarm')).toBeInTheDocument();
    expect(within(card).getByRole('switch')).toBeChecked();
  });

  it('says so when there is none, and when the list fails', async () => {
    const api = fakeHttp({ 'GET /api/v1/user/webhooks': () => envelope([]) });
    await show();
    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
    api.on({ 'GET /api/v1/user/webhooks': () => reply(500) });
    await show();
    expect(await screen.findByTestId('webhooks-error')).toBeInTheDocument();
  });

  it('adds an endpoint and shows its secret once with a copy button', async () => {
    const api = fakeHttp({
      'GET /api/v1/user/webhooks': () => envelope([]),
      'POST /api/v1/user/webhooks': () =>
        envelope({ webhook: hook({ kinds: [] }), secret: SECRET }),
    });
    await show();
    fireEvent.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = await screen.findByTestId('webhook-form');
    fireEvent.change(within(form).getByLabelText('URL'), {
      target: { value: ' https://hooks.example.com/portal ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('POST /api/v1/user/webhooks')).toHaveLength(1));
    expect(api.calls('POST /api/v1/user/webhooks')[0]?.body).toEqual({
      url: 'https://hooks.example.com/portal',
      enabled: true,
      kinds: [],
      minSeverity: 'warning',
    });
    const secret = await screen.findByTestId('webhook-secret');
    expect(secret).toHaveTextContent(SECRET);
    expect(within(secret).getByRole('button', { name: /copy/i })).toBeInTheDocument();
  });

  it('refuses an address that is not http or https before sending it', async () => {
    const api = fakeHttp({ 'GET /api/v1/user/webhooks': () => envelope([]) });
    await show();
    fireEvent.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = await screen.findByTestId('webhook-form');
    fireEvent.change(within(form).getByLabelText('URL'), {
      target: { value: 'ftp://hooks.example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Enter an address starting with https:// or http://'),
    ).toBeInTheDocument();
    expect(api.calls('POST /api/v1/user/webhooks')).toHaveLength(0);
  });

  it('sends a test and tells how it went', async () => {
    const api = fakeHttp({
      'GET /api/v1/user/webhooks': () => envelope([hook()]),
      'POST /api/v1/user/webhooks/{id}/test': () =>
        envelope({ state: 'failed', status: 503, error: '', durationMs: 20 }),
    });
    await show();
    fireEvent.click(await screen.findByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(api.calls('POST /api/v1/user/webhooks/{id}/test')).toHaveLength(1));
    expect(api.calls('POST /api/v1/user/webhooks/{id}/test')[0]?.params).toEqual({ id: '7' });
    expect(await screen.findByText('Test not delivered: 503')).toBeInTheDocument();
  });

  it('switches an endpoint off', async () => {
    const api = fakeHttp({
      'GET /api/v1/user/webhooks': () => envelope([hook()]),
      'POST /api/v1/user/webhooks/{id}': () => envelope(hook({ enabled: false })),
    });
    await show();
    fireEvent.click(await screen.findByRole('switch'));
    await waitFor(() => expect(api.calls('POST /api/v1/user/webhooks/{id}')).toHaveLength(1));
    expect(api.calls('POST /api/v1/user/webhooks/{id}')[0]?.body).toEqual({ enabled: false });
  });

  it('shows the delivery log with the result of each attempt', async () => {
    fakeHttp({
      'GET /api/v1/user/webhooks': () => envelope([hook()]),
      'GET /api/v1/user/webhooks/{id}/deliveries': () =>
        envelope({
          pageSize: 10,
          pageNumber: 1,
          total: 2,
          infos: [
            attempt({ attempt: 2, status: 200, state: 'delivered' }),
            attempt({ status: null, error: 'connect: refused', state: 'delivered' }),
          ],
        }),
    });
    await show();
    fireEvent.click(await screen.findByRole('button', { name: 'Delivery log' }));
    const drawer = await screen.findByTestId('webhook-log');
    expect(await within(drawer).findByText('HTTP 200')).toBeInTheDocument();
    expect(within(drawer).getByText('connect: refused')).toBeInTheDocument();
    expect(within(drawer).getAllByText('Delivered')).toHaveLength(2);
  });
});
