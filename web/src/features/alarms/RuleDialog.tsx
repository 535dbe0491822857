import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, InputNumber, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GuardedModal } from '@/shared/ui/guarded';
import { customerOptionsQuery } from '@/shared/api/pickers';
import type { Scope } from '@/shared/company';
import { isApiError } from '@/shared/http';
import {
  addRule,
  alarmKeys,
  KINDS,
  plantOptionsQuery,
  saveRule,
  SEVERITIES,
  type AlarmRuleKind,
  type AlarmParams,
  type AlarmRule,
  type AlarmScope,
  type AlarmSeverity,
} from './api';
import { FIELDS, invalidParam, parseCodes } from './params';

interface Values {
  kind: AlarmRuleKind;
  enabled: boolean;
  severity: AlarmSeverity;
  scope: AlarmScope;
  scopeId?: number;
  params: AlarmParams;
  codes: string;
}

/** Adds a rule (`rule` null) or edits one: its kind's parameters with the server's ranges. */
export default function RuleDialog({
  scope,
  rule,
  onClose,
}: {
  scope: Scope;
  rule: AlarmRule | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form) ?? rule?.kind ?? 'device_silent';
  const scopeKind = Form.useWatch('scope', form) ?? rule?.scope ?? 'all';
  const [plantSearch, setPlantSearch] = useState('');
  const plants = useQuery({ ...plantOptionsQuery(plantSearch), enabled: scopeKind === 'plant' });
  const customers = useQuery({ ...customerOptionsQuery, enabled: scopeKind === 'customer' });

  const save = useMutation({
    mutationFn: async (v: Values) => {
      const params: AlarmParams = { ...v.params };
      if (v.kind === 'event_code') params.codes = parseCodes(v.codes);
      const body = {
        kind: v.kind,
        enabled: v.enabled,
        severity: v.severity,
        scope: v.scope,
        scopeId: v.scope === 'all' ? null : v.scopeId,
        params,
      };
      if (rule) await saveRule(scope, rule.id, body);
      else await addRule(scope, body);
    },
    onSuccess: async () => {
      message.success(t('alarms.rules.saved'));
      await queryClient.invalidateQueries({ queryKey: alarmKeys.all });
      onClose();
    },
    onError: (e) => {
      if (isApiError(e)) message.error(e.message);
    },
  });

  const initial: Values = {
    kind: rule?.kind ?? 'device_silent',
    enabled: rule?.enabled ?? true,
    severity: rule?.severity ?? 'alarm',
    scope: rule?.scope ?? 'all',
    scopeId: rule?.scopeId ?? undefined,
    params: rule?.params ?? {},
    codes: (rule?.params.codes ?? []).join(', '),
  };

  // The whole parameter set is checked as the server checks it (ranges and cross-checks).
  const paramsRule = {
    validator: async () => {
      const v = form.getFieldsValue(true) as Values;
      const params = { ...v.params };
      if (v.kind === 'event_code') params.codes = parseCodes(v.codes ?? '');
      const bad = invalidParam(v.kind, params);
      if (bad)
        throw new Error(t('alarms.rules.invalid', { field: t(`alarms.param.${bad.slice(7)}`) }));
    },
  };

  return (
    <GuardedModal
      open
      title={rule ? t('alarms.rules.edit') : t('alarms.rules.add')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'rule-submit' }}
      onCancel={onClose}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(v) => save.mutate({ ...initial, ...form.getFieldsValue(true), ...v })}
      >
        <Form.Item name="kind" label={t('alarms.column.kind')}>
          <Select
            disabled={!!rule}
            data-testid="rule-kind"
            options={KINDS.map((k) => ({ value: k, label: t(`alarms.kind.${k}`) }))}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('alarms.rules.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="severity" label={t('alarms.column.severity')}>
          <Select
            options={SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severity.${s}`) }))}
          />
        </Form.Item>
        <Form.Item name="scope" label={t('alarms.rules.scope')}>
          <Select
            data-testid="rule-scope"
            options={(['all', 'customer', 'plant'] as const).map((s) => ({
              value: s,
              label: t(`alarms.rules.scopes.${s}`),
            }))}
          />
        </Form.Item>
        {scopeKind !== 'all' && (
          <Form.Item
            name="scopeId"
            label={t(`alarms.rules.scopes.${scopeKind}`)}
            rules={[{ required: true, message: t('alarms.rules.scopeRequired') }]}
          >
            <Select<number>
              showSearch={
                scopeKind === 'plant'
                  ? { filterOption: false, onSearch: setPlantSearch }
                  : { optionFilterProp: 'label' }
              }
              data-testid="rule-scope-id"
              options={
                scopeKind === 'plant'
                  ? (plants.data?.infos ?? []).map((p) => ({ value: p.id, label: p.name }))
                  : (customers.data ?? []).map((c) => ({
                      value: c.id,
                      label: `${c.nickname} (${c.account})`,
                    }))
              }
            />
          </Form.Item>
        )}
        {FIELDS[kind].map((f, i) => (
          <Form.Item
            key={f.key}
            name={['params', f.key]}
            label={t(`alarms.param.${f.key}`)}
            extra={t('alarms.rules.range', { min: f.min, max: f.max })}
            rules={i === 0 ? [paramsRule] : []}
            dependencies={FIELDS[kind].map((o) => ['params', o.key])}
          >
            <InputNumber
              min={f.min}
              max={f.max}
              precision={f.integer ? 0 : undefined}
              suffix={f.unit}
              style={{ width: '100%' }}
              data-testid={`rule-param-${f.key}`}
            />
          </Form.Item>
        ))}
        {kind === 'event_code' && (
          <>
            <Form.Item
              name="codes"
              label={t('alarms.param.codes')}
              extra={t('alarms.rules.codesHint')}
              rules={[paramsRule]}
              dependencies={[['params', 'allFaults']]}
            >
              <Input data-testid="rule-codes" />
            </Form.Item>
            <Form.Item
              name={['params', 'allFaults']}
              label={t('alarms.param.allFaults')}
              valuePropName="checked"
            >
              <Switch />
            </Form.Item>
          </>
        )}
      </Form>
    </GuardedModal>
  );
}
