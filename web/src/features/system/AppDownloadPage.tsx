import { AndroidFilled, AppleFilled, CheckCircleFilled } from '@ant-design/icons';
import { Alert, Button, Card, Col, Empty, Flex, Row, Segmented, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerConfig } from '@/shared/config';
import {
  keepInstallPrompt,
  runsInstalled,
  takeInstallPrompt,
  type InstallPromptEvent,
} from '@/shared/pwa/device';
import { PublicShell } from '@/shared/ui/PublicShell';
import './texts';

type Platform = 'android' | 'ios';

const isIos = () => /iphone|ipad/i.test(navigator.userAgent);

/** A QR code as an SVG image; the `qrcode` library loads with the first code shown. */
export function QrImage({ url, alt, size = 220 }: { url: string; alt: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // SVG: crisp at any size and needs no canvas
    import('qrcode')
      .then((QRCode) => QRCode.toString(url, { type: 'svg', margin: 1, width: size }))
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [url, size]);
  return src ? (
    <img
      src={src}
      alt={alt}
      width={size}
      height={size}
      style={{ background: '#fff', padding: 8, borderRadius: 8 }}
    />
  ) : (
    <div style={{ width: size, height: size }} />
  );
}

/** The install offer: the browser's prompt, the iOS steps, or "installed" (docs/pwa.md). */
function InstallOffer() {
  const { t } = useTranslation();
  const [installed, setInstalled] = useState(runsInstalled);
  const [prompt, setPrompt] = useState<InstallPromptEvent | null>(takeInstallPrompt);
  useEffect(() => {
    const offered = (e: Event) => {
      keepInstallPrompt(e);
      setPrompt(e as InstallPromptEvent);
    };
    const done = () => {
      setInstalled(true);
      setPrompt(null);
    };
    window.addEventListener('beforeinstallprompt', offered);
    window.addEventListener('appinstalled', done);
    return () => {
      window.removeEventListener('beforeinstallprompt', offered);
      window.removeEventListener('appinstalled', done);
    };
  }, []);

  if (installed) {
    return (
      <Alert
        type="success"
        showIcon
        icon={<CheckCircleFilled />}
        data-testid="app-installed"
        title={t('download.installed')}
      />
    );
  }
  if (prompt) {
    return (
      <Button
        type="primary"
        size="large"
        data-testid="app-install"
        onClick={() => {
          void prompt
            .prompt()
            .then(() =>
              prompt.userChoice.then((c) => c.outcome === 'accepted' && setInstalled(true)),
            );
          // the browser offers an event once
          keepInstallPrompt(null);
          setPrompt(null);
        }}
      >
        {t('download.install')}
      </Button>
    );
  }
  if (isIos()) {
    return (
      <div data-testid="app-ios-steps">
        <Typography.Text strong>{t('download.iosTitle')}</Typography.Text>
        <ol style={{ margin: '8px 0 0', paddingInlineStart: 20 }}>
          <li>{t('download.iosStep1')}</li>
          <li>{t('download.iosStep2')}</li>
          <li>{t('download.iosStep3')}</li>
        </ol>
      </div>
    );
  }
  return <Typography.Paragraph>{t('download.otherBrowsers')}</Typography.Paragraph>;
}

/** The operator's store apps (server config), when there are any. */
function StoreApps({ android, ios }: { android: string | null; ios: string | null }) {
  const { t } = useTranslation();
  const [platform, setPlatform] = useState<Platform>(() =>
    /iphone|ipad|mac os/i.test(navigator.userAgent) ? 'ios' : 'android',
  );
  const url = platform === 'android' ? android : ios;
  return (
    <Card title={t('download.storesTitle')} data-testid="app-stores">
      <Typography.Paragraph type="secondary">{t('download.intro')}</Typography.Paragraph>
      <Segmented<Platform>
        value={platform}
        onChange={setPlatform}
        options={[
          { value: 'android', label: t('download.android'), icon: <AndroidFilled /> },
          { value: 'ios', label: t('download.ios'), icon: <AppleFilled /> },
        ]}
        style={{ marginBottom: 24 }}
      />
      <Row gutter={[24, 16]} align="middle">
        <Col xs={24} md={10}>
          <Flex justify="center">
            {url ? (
              <QrImage
                url={url}
                alt={t('download.qrAlt', { platform: t(`download.${platform}`) })}
              />
            ) : (
              <Empty description={t('download.unavailable')} />
            )}
          </Flex>
        </Col>
        <Col xs={24} md={14}>
          {url && <Typography.Paragraph>{t(`download.${platform}Steps`)}</Typography.Paragraph>}
          {url && (
            <Typography.Link href={url} target="_blank" rel="noreferrer">
              {t('download.link', { platform: t(`download.${platform}`) })}
            </Typography.Link>
          )}
        </Col>
      </Row>
    </Card>
  );
}

/**
 * /app/download: installs the portal as an app (the browser's prompt, the iOS steps, or says
 * it is installed), a QR code of the portal's address to open it on a phone, and the store
 * apps an operator links to (server config), if any.
 */
export default function AppDownloadPage() {
  const { t } = useTranslation();
  const { config } = useServerConfig();
  const { android, ios } = config.appDownload;
  const portal = `${window.location.origin}/`;
  return (
    <PublicShell wide>
      <Flex vertical gap={16}>
        <Card>
          <Typography.Title level={3}>{t('download.installTitle')}</Typography.Title>
          <Row gutter={[24, 24]} align="middle">
            <Col xs={24} md={14}>
              <Typography.Paragraph type="secondary">
                {t('download.installIntro')}
              </Typography.Paragraph>
              <InstallOffer />
            </Col>
            <Col xs={24} md={10}>
              <Flex vertical align="center" gap={8}>
                <Typography.Text strong>{t('download.openOnPhone')}</Typography.Text>
                <QrImage url={portal} alt={t('download.portalQrAlt')} size={180} />
                <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
                  {t('download.openOnPhoneHint')}
                </Typography.Text>
                <Typography.Text code copyable>
                  {portal}
                </Typography.Text>
              </Flex>
            </Col>
          </Row>
        </Card>
        {(android || ios) && <StoreApps android={android} ios={ios} />}
      </Flex>
    </PublicShell>
  );
}
