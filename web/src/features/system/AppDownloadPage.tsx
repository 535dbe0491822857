import { AndroidFilled, AppleFilled } from '@ant-design/icons';
import { Card, Col, Empty, Flex, Row, Segmented, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerConfig } from '@/shared/config';
import { PublicShell } from '@/shared/ui/PublicShell';

type Platform = 'android' | 'ios';

function QrImage({ url, alt }: { url: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // SVG: crisp at any size and needs no canvas
    QRCode.toString(url, { type: 'svg', margin: 1, width: 220 })
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [url]);
  return src ? (
    <img
      src={src}
      alt={alt}
      width={220}
      height={220}
      style={{ background: '#fff', padding: 8, borderRadius: 8 }}
    />
  ) : (
    <div style={{ width: 220, height: 220 }} />
  );
}

/** /app/download: Android or iOS, a QR code and a link for each (links from server config). */
export default function AppDownloadPage() {
  const { t } = useTranslation();
  const { config } = useServerConfig();
  const [platform, setPlatform] = useState<Platform>(() =>
    /iphone|ipad|mac os/i.test(navigator.userAgent) ? 'ios' : 'android',
  );
  const url = config.appDownload[platform];
  return (
    <PublicShell wide>
      <Card>
        <Typography.Title level={3}>{t('download.title')}</Typography.Title>
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
        <Row gutter={24} align="middle">
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
    </PublicShell>
  );
}
