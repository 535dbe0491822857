import { Card, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChecksumTab } from './toolbox/ChecksumTab';
import { ConvertTab } from './toolbox/ConvertTab';
import { ParseTab } from './toolbox/ParseTab';
import { RtuTab } from './toolbox/RtuTab';

/** The remote debug toolbox (CRC, Modbus RTU, ASCII, binary) with sending to devices. */
export default function DebugToolboxPage() {
  const { t } = useTranslation();
  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="debug-title">
          {t('debug.title')}
        </Typography.Title>
      }
    >
      <Tabs
        items={[
          { key: 'rtu', label: t('debug.tabs.rtu'), children: <RtuTab /> },
          { key: 'checksum', label: t('debug.tabs.checksum'), children: <ChecksumTab /> },
          { key: 'convert', label: t('debug.tabs.convert'), children: <ConvertTab /> },
          { key: 'parse', label: t('debug.tabs.parse'), children: <ParseTab /> },
        ]}
      />
    </Card>
  );
}
