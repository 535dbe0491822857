import { ArrowLeftOutlined, DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  ConfigProvider,
  DatePicker,
  Flex,
  Segmented,
  Skeleton,
  theme,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { ThemeKindContext, useThemeKind } from '@/shared/theme';
import { printA4 } from '@/shared/ui/print';
import { Problem } from '@/shared/ui/Problem';
import { downloadReport, reportQuery } from './api';
import { DATE_FORMAT, periodDay, REPORT_TYPES, reportPeriod, reportTitle } from './report';
import { ReportSheets } from './ReportSheets';
import { SubscriptionSwitch } from './SubscriptionSwitch';
import type { ReportType } from './types';
import './report.css';

/** Paper is white in either theme: the sheets take the light algorithm and the light palette. */
const PAPER = { algorithm: theme.defaultAlgorithm };

/**
 * workdata/info/:id: a plant's report of a day, month or year, laid out on A4 sheets. Print
 * prints the sheets alone (report.css); the download is the same report as an .xlsx.
 */
export default function ReportPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { id: raw } = useParams();
  const id = Number(raw);
  const [search, setSearch] = useSearchParams();
  const { type, date } = reportPeriod(search);
  const mayExport = useCan('workdata.export');
  const kind = useThemeKind();
  const [downloading, setDownloading] = useState(false);
  const valid = Number.isInteger(id) && id > 0;
  const report = useQuery({ ...reportQuery(id, type, date), enabled: valid });

  const go = (next: ReportType, day = periodDay(type, date)) =>
    setSearch({ type: next, date: day.format(DATE_FORMAT[next]) }, { replace: true });
  const download = () => {
    setDownloading(true);
    downloadReport(id, type, date)
      .catch((e: unknown) =>
        message.error(isApiError(e) ? e.message : t('workdata.downloadFailed')),
      )
      .finally(() => setDownloading(false));
  };

  const back = (
    <Link to="/workdata/list">
      <Button icon={<ArrowLeftOutlined />} data-testid="report-back">
        {t('workdata.report.back')}
      </Button>
    </Link>
  );

  if (!valid || report.isError) {
    return (
      <Card>
        <Problem
          title={
            isApiError(report.error) && report.error.code !== 4
              ? report.error.message
              : t('workdata.report.notFound')
          }
          testId="report-error"
          extra={
            <Flex gap={8} justify="center" wrap>
              {back}
              {valid && (
                <Button onClick={() => void report.refetch()}>{t('common.refresh')}</Button>
              )}
            </Flex>
          }
        />
      </Card>
    );
  }

  return (
    <Flex vertical gap={16}>
      <Card className="no-print" size="small" data-testid="report-toolbar">
        <Flex gap={8} wrap align="center" justify="space-between">
          <Flex gap={8} wrap align="center">
            {back}
            <Segmented<ReportType>
              value={type}
              onChange={(v) => go(v)}
              options={REPORT_TYPES.map((p) => ({ value: p, label: t(`workdata.report.${p}`) }))}
              data-testid="report-page-type"
            />
            <DatePicker
              allowClear={false}
              picker={type === 'day' ? 'date' : type}
              value={periodDay(type, date)}
              onChange={(d) => d && go(type, d)}
              disabledDate={(d) => d.isAfter(dayjs(), 'day')}
              aria-label={t('workdata.report.date')}
              data-testid="report-page-date"
            />
          </Flex>
          <Flex gap={8} wrap align="center">
            <SubscriptionSwitch plantId={id} />
            <Button
              icon={<PrinterOutlined />}
              disabled={!report.data}
              onClick={() => report.data && printA4(reportTitle(report.data))}
              data-testid="report-print"
            >
              {t('workdata.report.print')}
            </Button>
            {mayExport && (
              <Button
                icon={<DownloadOutlined />}
                loading={downloading}
                onClick={download}
                data-testid="report-download"
              >
                {t('workdata.report.download')}
              </Button>
            )}
          </Flex>
        </Flex>
      </Card>
      <ConfigProvider theme={PAPER}>
        <ThemeKindContext.Provider value="branded">
          {report.data ? (
            <ReportSheets report={report.data} kind={kind} />
          ) : (
            <div className="report-sheets">
              <section className="report-page" data-testid="report-loading">
                <Skeleton active paragraph={{ rows: 12 }} />
              </section>
            </div>
          )}
        </ThemeKindContext.Provider>
      </ConfigProvider>
      {report.isFetching && report.data && (
        <Typography.Text type="secondary" className="no-print">
          {t('workdata.report.updating')}
        </Typography.Text>
      )}
    </Flex>
  );
}
