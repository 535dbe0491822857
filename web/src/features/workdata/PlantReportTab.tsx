import { FileTextOutlined } from '@ant-design/icons';
import { DatePicker, Flex, Form, Segmented, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SubmitButton } from '@/shared/ui/guarded';
import { useNarrow } from '@/shared/ui/useNarrow';
import { PlantPicker } from './PlantPicker';
import { DATE_FORMAT, REPORT_TYPES, reportPath } from './report';
import type { ReportType } from './types';

/** Plant reports: pick a plant, a day, month or year, and open its printable report. */
export function PlantReportTab() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const phone = useNarrow();
  const [plantId, setPlantId] = useState<number | null>(null);
  const [type, setType] = useState<ReportType>('month');
  const [date, setDate] = useState<Dayjs>(() => dayjs());
  const open = () => {
    if (plantId !== null) void navigate(reportPath(plantId, type, date.format(DATE_FORMAT[type])));
  };
  return (
    <Flex vertical gap={16} data-testid="report-tab">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('workdata.report.hint')}
      </Typography.Paragraph>
      <Form layout={phone ? 'vertical' : 'inline'} onFinish={open} style={{ rowGap: 12 }}>
        <Form.Item label={t('workdata.filter.plant')} required>
          <PlantPicker
            value={plantId}
            onChange={setPlantId}
            width={phone ? '100%' : 260}
            testId="report-plant"
          />
        </Form.Item>
        <Form.Item label={t('workdata.report.period')}>
          <Segmented<ReportType>
            value={type}
            onChange={setType}
            options={REPORT_TYPES.map((p) => ({ value: p, label: t(`workdata.report.${p}`) }))}
            data-testid="report-type"
          />
        </Form.Item>
        <Form.Item label={t('workdata.report.date')}>
          <DatePicker
            allowClear={false}
            picker={type === 'day' ? 'date' : type}
            value={date}
            onChange={(d) => d && setDate(d)}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            aria-label={t('workdata.report.date')}
            style={phone ? { width: '100%' } : undefined}
            data-testid="report-date"
          />
        </Form.Item>
        <Form.Item>
          <SubmitButton
            type="primary"
            htmlType="submit"
            icon={<FileTextOutlined />}
            disabled={plantId === null}
            block={phone}
            data-testid="report-open"
          >
            {t('workdata.report.open')}
          </SubmitButton>
        </Form.Item>
      </Form>
    </Flex>
  );
}
