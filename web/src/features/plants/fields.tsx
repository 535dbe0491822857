import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  DatePicker,
  Flex,
  Form,
  Image,
  Input,
  Radio,
  Select,
  Typography,
  Upload,
  type FormInstance,
} from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import { currentLanguage } from '@/shared/i18n';
import { isApiError } from '@/shared/http';
import {
  capacity,
  decimalInRange,
  email,
  formRule,
  maxLength,
  plantImageFile,
  plantName,
  price,
  requiredRule,
  account,
} from '@/shared/validators';
import { currenciesQuery, timezonesQuery, uploadPlantImage } from './api';
import { currencyName } from './currency';
import { PLANT_TYPES } from './fieldNames';
import { parseCoordinate } from './mapData';
import {
  addSegment,
  addTier,
  CONSTANT,
  DEFAULT_SEGMENTS,
  DEFAULT_TIERS,
  MAX_SEGMENTS,
  MAX_TIERS,
  removeSegment,
  removeTier,
  setSegmentEnd,
  TIME_CHOICES,
  TIME_OF_USE,
  validateTiers,
  validateTou,
  VOLUME,
  type Segment,
  type TariffIssue,
} from './tariff';

/** The server's limits of a plant's fields. */
const PLANT = Limits.PlantRequest;

const LocationPicker = lazy(() => import('./LocationPicker'));

// ---- basic ----------------------------------------------------------------------------------

export function BasicFields() {
  const { t } = useTranslation();
  const zones = useQuery(timezonesQuery(currentLanguage()));
  const options = useMemo(
    () =>
      (zones.data ?? []).map((z) => ({ value: z.code ?? String(z.id), label: z.text ?? z.code })),
    [zones.data],
  );
  return (
    <>
      <Form.Item
        name="name"
        label={t('plants.field.name')}
        rules={[requiredRule(), formRule(plantName)]}
      >
        <Input
          placeholder={t('plants.field.namePlaceholder')}
          maxLength={Limits.PlantRequest.name.maxLength}
        />
      </Form.Item>
      <Form.Item
        name="totalPower"
        label={t('plants.field.capacity')}
        rules={[requiredRule(), formRule(capacity)]}
      >
        <Input suffix="kWp" placeholder="0 ~ 50000" inputMode="decimal" />
      </Form.Item>
      <Form.Item name="joinDate" label={t('plants.field.joinDate')} rules={[requiredRule()]}>
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="type" label={t('plants.field.type')} rules={[requiredRule()]}>
        <Radio.Group
          optionType="button"
          options={PLANT_TYPES.map((v) => ({ value: v, label: t(`plants.type.${v}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="timezone"
        label={t('plants.field.timezone')}
        rules={[{ required: true, message: t('plants.field.timezoneRequired') }]}
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          loading={zones.isPending}
          options={options}
          placeholder={t('plants.field.timezoneSearch')}
        />
      </Form.Item>
    </>
  );
}

// ---- location -------------------------------------------------------------------------------

const coordinateRule = (limit: 90 | 180) =>
  formRule((v) =>
    parseCoordinate(v, limit) === null
      ? { key: 'plants.field.coordinateFormat', values: { max: limit } }
      : null,
  );

export function LocationFields({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const lon = Form.useWatch('lon', form) as string | number | undefined;
  const lat = Form.useWatch('lat', form) as string | number | undefined;
  const pLat = parseCoordinate(lat, 90);
  const pLon = parseCoordinate(lon, 180);
  const point = useMemo<[number, number] | null>(
    () => (pLat !== null && pLon !== null ? [pLat, pLon] : null),
    [pLat, pLon],
  );
  return (
    <>
      <Form.Item
        name="address"
        label={t('plants.field.address')}
        rules={[requiredRule(), formRule((v) => maxLength(v, PLANT.address.maxLength))]}
      >
        <Input data-keyfilter="off" maxLength={PLANT.address.maxLength} />
      </Form.Item>
      <Flex gap={16}>
        <Form.Item
          name="lon"
          label={t('plants.field.lon')}
          rules={[requiredRule(), coordinateRule(180)]}
          style={{ flex: 1 }}
        >
          <Input placeholder="-180 ~ 180" inputMode="decimal" />
        </Form.Item>
        <Form.Item
          name="lat"
          label={t('plants.field.lat')}
          rules={[requiredRule(), coordinateRule(90)]}
          style={{ flex: 1 }}
        >
          <Input placeholder="-90 ~ 90" inputMode="decimal" />
        </Form.Item>
      </Flex>
      <OrientationFields />
      <Typography.Text type="secondary">{t('plants.field.pickHint')}</Typography.Text>
      <Suspense fallback={<div className="location-picker" />}>
        <LocationPicker
          point={point}
          label={t('plants.field.pickHint')}
          onPick={(p) => {
            form.setFieldsValue({ lat: String(p.lat), lon: String(p.lon) });
            void form.validateFields(['lat', 'lon']);
          }}
        />
      </Suspense>
    </>
  );
}

/** An optional decimal within `min..max` (the server's limits of the field). */
const optionalRange = (min: number, max: number) =>
  formRule((v) =>
    v === undefined || v === null || String(v).trim() === '' ? null : decimalInRange(v, min, max),
  );

/**
 * How the modules face, both optional: the plant figures' clear-sky reference assumes the
 * latitude's tilt (at most 35°) facing the equator without them (docs/figures.md).
 */
function OrientationFields() {
  const { t } = useTranslation();
  const tilt = PLANT.tilt;
  const azimuth = PLANT.azimuth;
  return (
    <>
      <Flex gap={16}>
        <Form.Item
          name="tilt"
          label={t('plants.field.tilt')}
          rules={[optionalRange(tilt.minimum, tilt.maximum)]}
          style={{ flex: 1 }}
        >
          <Input
            suffix="°"
            placeholder={`${tilt.minimum} ~ ${tilt.maximum}`}
            inputMode="decimal"
            data-testid="field-tilt"
          />
        </Form.Item>
        <Form.Item
          name="azimuth"
          label={t('plants.field.azimuth')}
          rules={[optionalRange(azimuth.minimum, azimuth.maximum)]}
          style={{ flex: 1 }}
        >
          <Input
            suffix="°"
            placeholder={`${azimuth.minimum} ~ ${azimuth.maximum}`}
            inputMode="decimal"
            data-testid="field-azimuth"
          />
        </Form.Item>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
        {t('plants.field.orientationHint')}
      </Typography.Paragraph>
    </>
  );
}

// ---- picture --------------------------------------------------------------------------------

export function PictureField({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const imageUrl = Form.useWatch('imageUrl', form) as string | undefined;
  const [uploading, setUploading] = useState(false);
  return (
    <Flex vertical gap={12} align="flex-start" style={{ marginBottom: 24 }}>
      <Form.Item name="imageUrl" hidden>
        <Input />
      </Form.Item>
      <Form.Item name="thumbUrl" hidden>
        <Input />
      </Form.Item>
      {imageUrl ? (
        <Image
          src={imageUrl}
          width={280}
          alt={t('plants.field.picture')}
          data-testid="picture-preview"
        />
      ) : (
        <div className="picture-empty">{t('plants.field.noPicture')}</div>
      )}
      <Flex gap={8}>
        <Upload
          accept=".jpg,.jpeg,.png"
          showUploadList={false}
          beforeUpload={(file) => {
            const problem = plantImageFile(file);
            if (problem) {
              message.error(t(problem.key, problem.values ?? {}));
              return Upload.LIST_IGNORE;
            }
            setUploading(true);
            uploadPlantImage(file)
              .then((r) => {
                form.setFieldsValue({ imageUrl: r.url, thumbUrl: r.thumbUrl });
                message.success(t('plants.field.pictureUploaded'));
              })
              .catch((e: unknown) => {
                if (isApiError(e)) message.error(e.message);
              })
              .finally(() => setUploading(false));
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={uploading}>
            {t(imageUrl ? 'plants.field.changePicture' : 'plants.field.uploadPicture')}
          </Button>
        </Upload>
        {imageUrl && (
          <Button onClick={() => form.setFieldsValue({ imageUrl: '', thumbUrl: '' })}>
            {t('plants.field.removePicture')}
          </Button>
        )}
      </Flex>
      <Typography.Text type="secondary">{t('plants.field.pictureHint')}</Typography.Text>
    </Flex>
  );
}

// ---- contact --------------------------------------------------------------------------------

const PHONE = /^\+?[\d\s-]{5,20}$/;

export function ContactFields({ withOwner }: { withOwner: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="principal"
        label={t('plants.field.principal')}
        rules={[formRule((v) => maxLength(v, PLANT.principal.maxLength))]}
      >
        <Input maxLength={PLANT.principal.maxLength} />
      </Form.Item>
      <Form.Item
        name="phone"
        label={t('plants.field.phone')}
        rules={[formRule((v) => (PHONE.test(String(v)) ? null : { key: 'validation.phone' }))]}
      >
        <Input maxLength={20} />
      </Form.Item>
      <Form.Item name="email" label={t('plants.field.email')} rules={[formRule(email)]}>
        <Input data-keyfilter="off" maxLength={PLANT.email.maxLength} />
      </Form.Item>
      <Form.Item
        name="installer"
        label={t('plants.field.installer')}
        rules={[formRule((v) => maxLength(v, PLANT.installer.maxLength))]}
      >
        <Input maxLength={PLANT.installer.maxLength} />
      </Form.Item>
      {withOwner && (
        <Form.Item
          name="owner"
          label={t('plants.field.owner')}
          extra={t('plants.field.ownerHint')}
          rules={[formRule(account)]}
        >
          <Input data-keyfilter="off" />
        </Form.Item>
      )}
    </>
  );
}

// ---- tariff ---------------------------------------------------------------------------------

function issueText(issue: TariffIssue, t: TFunction): string {
  const text = t(issue.key, issue.values ?? {});
  return issue.row === undefined ? text : t('plants.tariff.rowIssue', { row: issue.row + 1, text });
}

function SegmentEditor({
  value = [],
  onChange,
  kind,
  unit,
}: {
  value?: Segment[];
  onChange?: (rows: Segment[]) => void;
  kind: 'tou' | 'volume';
  /** The price's unit, e.g. "€/kWh". */
  unit: string;
}) {
  const { t } = useTranslation();
  const set = (rows: Segment[]) => onChange?.(rows);
  const max = kind === 'tou' ? MAX_SEGMENTS : MAX_TIERS;
  const timeOptions = TIME_CHOICES.map((c) => ({ value: c, label: c }));
  return (
    <Flex vertical gap={8} style={{ marginBottom: 8 }} data-testid={`${kind}-editor`}>
      <div className="segment-row segment-head">
        <span>{t(kind === 'tou' ? 'plants.tariff.from' : 'plants.tariff.fromKwh')}</span>
        <span>{t(kind === 'tou' ? 'plants.tariff.to' : 'plants.tariff.toKwh')}</span>
        <span>{t('plants.tariff.priceIn', { unit })}</span>
        <span />
      </div>
      {value.map((row, i) => {
        const last = i === value.length - 1;
        const update = (patch: Partial<Segment>) =>
          set(value.map((r, j) => (j === i ? { ...r, ...patch } : r)));
        return (
          <div className="segment-row" key={i} data-testid={`${kind}-row`}>
            {kind === 'tou' ? (
              <>
                <Select
                  aria-label={t('plants.tariff.from')}
                  value={row.start}
                  options={timeOptions}
                  disabled={i === 0}
                  onChange={(v: string) => set(i > 0 ? setSegmentEnd(value, i - 1, v) : value)}
                  showSearch
                />
                <Select
                  aria-label={t('plants.tariff.to')}
                  value={row.end}
                  options={timeOptions}
                  onChange={(v: string) => set(setSegmentEnd(value, i, v))}
                  showSearch
                  data-testid={`tou-end-${i}`}
                />
              </>
            ) : (
              <>
                <Input
                  aria-label={t('plants.tariff.fromKwh')}
                  value={row.start}
                  disabled={i === 0}
                  onChange={(e) => update({ start: e.target.value })}
                />
                <Input
                  aria-label={t('plants.tariff.toKwh')}
                  value={last ? '' : row.end}
                  placeholder={last ? t('plants.tariff.open') : ''}
                  disabled={last}
                  onChange={(e) =>
                    set(
                      value.map((r, j) =>
                        j === i
                          ? { ...r, end: e.target.value }
                          : j === i + 1
                            ? { ...r, start: e.target.value }
                            : r,
                      ),
                    )
                  }
                />
              </>
            )}
            <Input
              aria-label={t('plants.tariff.price')}
              value={row.price ?? ''}
              placeholder="0 ~ 9999"
              inputMode="decimal"
              suffix={<span className="input-unit">{unit}</span>}
              data-testid={`${kind}-price-${i}`}
              onChange={(e) => update({ price: e.target.value })}
            />
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('plants.tariff.removeRow')}
              disabled={value.length <= 1}
              onClick={() => set(kind === 'tou' ? removeSegment(value, i) : removeTier(value, i))}
            />
          </div>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        disabled={value.length >= max}
        onClick={() => set(kind === 'tou' ? addSegment(value) : addTier(value))}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('plants.tariff.addRow', { count: value.length, max })}
      </Button>
    </Flex>
  );
}

export function TariffFields({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const currencies = useQuery(currenciesQuery(currentLanguage()));
  const valuation = Form.useWatch('valuation', form) as number | undefined;
  const currencyId = Form.useWatch('currency', form) as number | undefined;
  const currency = currencies.data?.find((c) => c.id === currencyId);
  // prices are per kWh in the plant's currency (its symbol, else its code)
  const symbol = currency?.text || currency?.code || '';
  const unit = `${symbol}/kWh`;
  const tariffRule = (check: (rows: Segment[]) => TariffIssue | null) => ({
    validator: (_: unknown, rows: Segment[] | undefined) => {
      const issue = check(rows ?? []);
      return issue ? Promise.reject(new Error(issueText(issue, t))) : Promise.resolve();
    },
  });
  return (
    <>
      <Form.Item name="currency" label={t('plants.field.currency')} rules={[requiredRule()]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          loading={currencies.isPending}
          options={(currencies.data ?? []).map((c) => ({
            value: c.id,
            // the server names it in the request's language; the browser's name otherwise
            label:
              `${c.code} (${c.text}) ${c.name || currencyName(c.code, currentLanguage())}`.trim(),
          }))}
        />
      </Form.Item>
      <Form.Item name="valuation" label={t('plants.field.valuation')} rules={[requiredRule()]}>
        <Radio.Group
          onChange={(e) => {
            const v = e.target.value as number;
            if (v === TIME_OF_USE && !form.getFieldValue('segments')?.length)
              form.setFieldsValue({ segments: DEFAULT_SEGMENTS });
            if (v === VOLUME && !form.getFieldValue('tiers')?.length)
              form.setFieldsValue({ tiers: DEFAULT_TIERS });
          }}
          options={[
            { value: CONSTANT, label: t('plants.valuation.1') },
            { value: TIME_OF_USE, label: t('plants.valuation.2') },
            { value: VOLUME, label: t('plants.valuation.3') },
          ]}
        />
      </Form.Item>
      {valuation === CONSTANT && (
        <Form.Item
          name="price"
          label={t('plants.tariff.priceIn', { unit })}
          rules={[requiredRule(), formRule(price)]}
        >
          <Input
            placeholder="0 ~ 9999"
            inputMode="decimal"
            suffix={<span className="input-unit">{unit}</span>}
            style={{ maxWidth: 220 }}
            data-testid="constant-price"
          />
        </Form.Item>
      )}
      {valuation === TIME_OF_USE && (
        <Form.Item
          name="segments"
          label={t('plants.tariff.touTitle')}
          extra={t('plants.tariff.touHint')}
          rules={[tariffRule(validateTou)]}
        >
          <SegmentEditor kind="tou" unit={unit} />
        </Form.Item>
      )}
      {valuation === VOLUME && (
        <Form.Item
          name="tiers"
          label={t('plants.tariff.volumeTitle')}
          extra={t('plants.tariff.volumeHint')}
          rules={[tariffRule(validateTiers)]}
        >
          <SegmentEditor kind="volume" unit={unit} />
        </Form.Item>
      )}
      <Form.Item
        name="invest"
        label={t('plants.field.invest')}
        rules={[formRule((v) => decimalInRange(v, 0, 999_999_999, 2))]}
      >
        <Input
          inputMode="decimal"
          placeholder="0 ~ 999999999"
          suffix={symbol && <span className="input-unit">{symbol}</span>}
          style={{ maxWidth: 240 }}
        />
      </Form.Item>
    </>
  );
}
