import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { EChart } from '@/shared/charts';
import { formatNumber, MISSING } from '@/shared/format/number';
import { formatPower } from '@/shared/format/units';
import { THEME_META, ThemeKindContext, type ThemeKind } from '@/shared/theme';
import { LogoMark } from '@/shared/ui/Logo';
import {
  energyChartOption,
  energyTotals,
  hasPredicted,
  kwh,
  percent,
  powerChartOption,
  predictedRows,
  reportPages,
  shownEnergyKeys,
  type EnergyKey,
  type ReportPage,
} from './report';
import type { PlantReport, ReportEvent } from './types';

interface Props {
  report: PlantReport;
  /** The app's theme: the branded one shows the company's logo in the header. */
  kind: ThemeKind;
}

/** The report's A4 pages (`reportPages`): summary and chart, energy table, power, events. */
export function ReportSheets({ report, kind }: Props) {
  const pages = reportPages(report);
  return (
    <div className="report-sheets" data-testid="report-sheets" data-pages={pages.length}>
      {pages.map((p, i) => (
        <section key={i} className="report-page" data-testid="report-page" data-kind={p.kind}>
          {i === 0 ? (
            <Header report={report} kind={kind} />
          ) : (
            <Running report={report} page={i + 1} count={pages.length} />
          )}
          <PageBody report={report} page={p} />
        </section>
      ))}
    </div>
  );
}

function PageBody({ report, page }: { report: PlantReport; page: ReportPage }) {
  switch (page.kind) {
    case 'summary':
      return <Summary report={report} />;
    case 'energy':
      return <EnergyTable report={report} />;
    case 'power':
      return <PowerCurve report={report} />;
    case 'events':
      return <Events events={page.events} index={page.index} count={page.count} />;
  }
}

function periodText(t: TFunction, report: PlantReport): string {
  const period = report.from === report.to ? report.from : `${report.from} – ${report.to}`;
  return `${t(`workdata.report.kind.${report.type}`)} · ${period}`;
}

function Header({ report, kind }: Props) {
  const { t } = useTranslation();
  const { plant } = report;
  const branded = kind === 'branded';
  // the sheets draw in the light palette; the mark stays the app's own
  const logo =
    branded && plant.companyLogoUrl ? (
      <img src={plant.companyLogoUrl} alt={plant.companyName ?? ''} data-testid="report-logo" />
    ) : (
      <ThemeKindContext.Provider value={kind}>
        <LogoMark size={40} />
      </ThemeKindContext.Provider>
    );
  const facts: [string, string][] = [
    [t('workdata.report.plant'), plant.name],
    [t('workdata.report.period'), periodText(t, report)],
    [
      t('workdata.report.capacity'),
      plant.capacity === null ? MISSING : `${formatNumber(plant.capacity, 2)} kWp`,
    ],
    [t('workdata.report.timezone'), plant.timezone],
    [t('workdata.report.owner'), plant.ownerName ?? MISSING],
    [t('workdata.report.company'), plant.companyName ?? MISSING],
    [t('workdata.report.address'), plant.address || MISSING],
    [t('workdata.report.generated'), dayjs(report.generatedAt).format('YYYY-MM-DD HH:mm')],
  ];
  return (
    <>
      <header className="report-header">
        {logo}
        <div>
          <h1 data-testid="report-title">
            {t(`workdata.report.heading.${report.type}`)} · {plant.name}
          </h1>
          <div>
            {branded && plant.companyName ? plant.companyName : t(THEME_META[kind].titleKey)}
          </div>
        </div>
      </header>
      <div className="report-facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <span>{label}</span>
            <span>{value}</span>
          </div>
        ))}
      </div>
    </>
  );
}

function Running({ report, page, count }: { report: PlantReport; page: number; count: number }) {
  const { t } = useTranslation();
  return (
    <div className="report-running">
      <span>
        {report.plant.name} · {periodText(t, report)}
      </span>
      <span>{t('workdata.report.page', { page, count })}</span>
    </div>
  );
}

function Figure({
  name,
  label,
  value,
  text,
  note,
}: {
  name: string;
  label: string;
  value: number | null;
  text: string;
  note?: string;
}) {
  return (
    <div
      className="report-figure"
      data-testid="report-figure"
      data-key={name}
      data-value={value === null ? '' : String(value)}
    >
      <div className="label">{label}</div>
      <div className="value" data-testid="report-figure-value">
        {text}
      </div>
      {note && <div className="note">{note}</div>}
    </div>
  );
}

function Summary({ report }: { report: PlantReport }) {
  const { t } = useTranslation();
  const s = report.summary;
  const name = (k: EnergyKey | 'predicted') => t(`workdata.metric.${k}`);
  const option = useMemo(
    () => energyChartOption(report, (k) => t(`workdata.metric.${k}`)),
    [report, t],
  );
  const currency = report.plant.currency ?? '';
  const f = report.figures;
  const basis = f.referenceYield.basis;
  const reference =
    basis === 'station' || basis === 'clearSky' || basis === 'clearSkyAssumed' ? basis : null;
  return (
    <>
      <h2>{t('workdata.report.summary')}</h2>
      <div className="report-figures">
        {shownEnergyKeys(s).map((k) => (
          <Figure key={k} name={k} label={name(k)} value={s[k]} text={kwh(s[k])} />
        ))}
        {s.generator !== 0 && (
          <Figure
            name="generator"
            label={t('workdata.metric.generator')}
            value={s.generator}
            text={kwh(s.generator)}
          />
        )}
        <Figure
          name="selfConsumption"
          label={t('workdata.metric.selfConsumption')}
          value={s.selfConsumption}
          text={percent(s.selfConsumption)}
        />
        <Figure
          name="selfSufficiency"
          label={t('workdata.metric.selfSufficiency')}
          value={s.selfSufficiency}
          text={percent(s.selfSufficiency)}
          note={
            f.gridCharge !== null && f.gridCharge > 0
              ? t('workdata.report.gridCharge', { kwh: kwh(f.gridCharge) })
              : undefined
          }
        />
        <Figure
          name="specificYield"
          label={t('workdata.metric.specificYield')}
          value={f.specificYield.value}
          text={
            f.specificYield.value === null
              ? MISSING
              : `${formatNumber(f.specificYield.value, 2)} kWh/kWp`
          }
        />
        <Figure
          name="performanceRatio"
          label={t('workdata.metric.performanceRatio')}
          value={f.performanceRatio.value}
          text={percent(f.performanceRatio.value)}
          note={reference ? t(`workdata.report.ratio.${reference}`) : undefined}
        />
        <Figure
          name="availability"
          label={t('workdata.metric.availability')}
          value={f.availability.value}
          text={percent(f.availability.value)}
        />
        <Figure
          name="co2Avoided"
          label={t('workdata.metric.co2Avoided')}
          value={f.co2Avoided.value}
          text={f.co2Avoided.value === null ? MISSING : `${formatNumber(f.co2Avoided.value, 1)} kg`}
          note={t('workdata.report.co2Factor', { factor: formatNumber(f.co2Factor) })}
        />
        <Figure
          name="income"
          label={t('workdata.metric.income')}
          value={s.income}
          text={s.income === null ? MISSING : `${formatNumber(s.income, 2)} ${currency}`.trim()}
        />
        <Figure
          name="peakPower"
          label={t('workdata.metric.peakPower')}
          value={s.peakPower}
          text={
            s.peakPower === null || (s.peakPower === 0 && !s.peakPowerAt)
              ? MISSING
              : formatPower(s.peakPower)
          }
          note={s.peakPowerAt ?? undefined}
        />
        {hasPredicted(report) && (
          <>
            <Figure
              name="predicted"
              label={name('predicted')}
              value={s.predicted}
              text={kwh(s.predicted)}
            />
            <Figure
              name="predictedRatio"
              label={t('workdata.metric.predictedRatio')}
              value={s.predictedRatio}
              text={percent(s.predictedRatio)}
            />
          </>
        )}
        <Figure
          name="events"
          label={t('workdata.metric.events')}
          value={s.events.fault + s.events.warning + s.events.info}
          text={String(s.events.fault + s.events.warning + s.events.info)}
          note={t('workdata.report.eventCounts', { ...s.events })}
        />
      </div>
      <h2>{t('workdata.report.energyChart')}</h2>
      {report.energy.length ? (
        <EChart option={option} height={300} ariaLabel={t('workdata.report.energyChart')} />
      ) : (
        <div className="report-empty">{t('workdata.report.noData')}</div>
      )}
    </>
  );
}

function bucketLabel(type: PlantReport['type'], label: string): string {
  return type === 'day' ? `${label}:00` : label;
}

function EnergyTable({ report }: { report: PlantReport }) {
  const { t } = useTranslation();
  const keys = shownEnergyKeys(report.summary);
  const predicted = predictedRows(report);
  const totals = energyTotals(report.energy);
  const cell = (v: number | null) => (v === null ? MISSING : formatNumber(v, 2));
  return (
    <>
      <h2>{t('workdata.report.energyTable')}</h2>
      <div className="report-scroll">
        <table className="report-table" data-testid="report-energy-table">
          <thead>
            <tr>
              <th>{t(`workdata.report.bucket.${report.type}`)}</th>
              {keys.map((k) => (
                <th key={k}>{t(`workdata.metric.${k}`)}</th>
              ))}
              {predicted && <th>{t('workdata.metric.predicted')}</th>}
            </tr>
          </thead>
          <tbody>
            {report.energy.map((e) => (
              <tr key={e.label} data-testid="report-energy-row" data-label={e.label}>
                <td>{bucketLabel(report.type, e.label)}</td>
                {keys.map((k) => (
                  <td key={k} data-key={k}>
                    {cell(e[k])}
                  </td>
                ))}
                {predicted && <td data-key="predicted">{cell(e.predicted)}</td>}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td>{t('workdata.report.total')} (kWh)</td>
              {keys.map((k) => (
                <td key={k}>{cell(totals[k])}</td>
              ))}
              {predicted && <td>{cell(totals.predicted)}</td>}
            </tr>
          </tfoot>
        </table>
      </div>
    </>
  );
}

function PowerCurve({ report }: { report: PlantReport }) {
  const { t } = useTranslation();
  const option = useMemo(
    () => powerChartOption(report, (k) => t(`workdata.series.${k}`)),
    [report, t],
  );
  return (
    <>
      <h2>{t('workdata.report.powerCurve')}</h2>
      {report.power.length ? (
        <EChart option={option} height={360} ariaLabel={t('workdata.report.powerCurve')} />
      ) : (
        <div className="report-empty">{t('workdata.report.noData')}</div>
      )}
    </>
  );
}

function Events({ events, index, count }: { events: ReportEvent[]; index: number; count: number }) {
  const { t } = useTranslation();
  return (
    <>
      <h2>
        {t('workdata.report.events')}
        {count > 1 ? ` (${index + 1}/${count})` : ''}
      </h2>
      {events.length === 0 ? (
        <div className="report-empty" data-testid="report-no-events">
          {t('workdata.report.noEvents')}
        </div>
      ) : (
        <div className="report-scroll">
          <table className="report-table" data-testid="report-events-table">
            <colgroup>
              <col style={{ width: '19%' }} />
              <col style={{ width: '19%' }} />
              <col style={{ width: '10%' }} />
              <col style={{ width: '8%' }} />
              <col style={{ width: '16%' }} />
              <col />
            </colgroup>
            <thead>
              <tr>
                <th className="text">{t('workdata.events.occurTime')}</th>
                <th className="text">{t('workdata.events.recoverTime')}</th>
                <th className="text">{t('workdata.events.severity')}</th>
                <th className="text">{t('workdata.events.code')}</th>
                <th className="text">{t('workdata.events.device')}</th>
                <th className="text">{t('workdata.events.meaning')}</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id} data-testid="report-event-row">
                  <td className="text">{e.openedAt}</td>
                  <td className="text">{e.closedAt ?? MISSING}</td>
                  <td className="text">
                    {t(`workdata.severity.${e.severity}`, { defaultValue: e.severity })}
                  </td>
                  <td className="text">{e.code}</td>
                  <td className="text">{e.sn ?? MISSING}</td>
                  <td className="text" title={e.content ?? ''}>
                    {e.content ?? MISSING}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
