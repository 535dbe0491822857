import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Flex, Input, Select, Typography, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settingKeys } from '@/shared/api/keys';
import { isApiError } from '@/shared/http';
import { GuardedModal, GuardedPopconfirm } from '@/shared/ui/guarded';
import { deleteProfile, profilesQuery, saveProfile, selectableQuery, type Field } from './api';
import { isOn } from './form';

const NAME_MAX = 32;

/**
 * Custom profiles: apply one to the form (the user then submits as usual), save some of the
 * form's current values as a profile (at most 6 parameters, 6 profiles), delete one.
 */
export function Profiles({
  sn,
  form,
  fields,
}: {
  sn: string;
  form: FormInstance<Record<string, string | boolean>>;
  fields: Map<string, Field>;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const profiles = useQuery(profilesQuery);
  const selectable = useQuery(selectableQuery(sn));
  const [chosen, setChosen] = useState<number | null>(null);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [keys, setKeys] = useState<string[]>([]);
  const maxParams = selectable.data?.maxParams ?? 6;
  const maxProfiles = selectable.data?.maxProfiles ?? 6;
  const list = profiles.data ?? [];
  const current = list.find((p) => p.id === chosen) ?? null;
  const refresh = () => client.invalidateQueries({ queryKey: settingKeys.profiles });

  const save = useMutation({
    mutationFn: () => {
      const params: Record<string, string> = {};
      for (const k of keys) {
        const v = form.getFieldValue(k) as string | boolean | undefined;
        params[k] = typeof v === 'boolean' ? String(v) : (v ?? '');
      }
      return saveProfile({ name: name.trim(), params });
    },
    onSuccess: (p) => {
      message.success(t('settings.profiles.saved'));
      setOpen(false);
      if (p) setChosen(p.id);
      void refresh();
    },
    onError: (e) => {
      if (!isApiError(e)) message.error(t('settings.sendFailed'));
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteProfile(id),
    onSuccess: () => {
      setChosen(null);
      void refresh();
    },
  });
  const apply = () => {
    if (!current) return;
    const patch: Record<string, string | boolean> = {};
    let skipped = 0;
    for (const [k, v] of Object.entries(current.params ?? {})) {
      const f = fields.get(k);
      if (!f) skipped += 1;
      else patch[k] = f.type === 'bool' ? isOn(v) : v;
    }
    form.setFieldsValue(patch);
    void form.validateFields(Object.keys(patch));
    message.info(
      skipped > 0
        ? t('settings.profiles.appliedPartly', { n: skipped })
        : t('settings.profiles.applied'),
    );
  };

  return (
    <Flex gap={8} wrap align="center" style={{ marginBottom: 16 }} data-testid="profiles">
      <Typography.Text strong>{t('settings.profiles.title')}</Typography.Text>
      <Select
        style={{ minWidth: 200 }}
        placeholder={
          profiles.isError ? t('settings.profiles.loadFailed') : t('settings.profiles.none')
        }
        loading={profiles.isPending}
        value={chosen ?? undefined}
        onChange={(v: number) => setChosen(v)}
        options={list.map((p) => ({ value: p.id, label: p.name }))}
        notFoundContent={t('settings.profiles.empty')}
        data-testid="profile-select"
      />
      <Button disabled={!current} onClick={apply} data-testid="profile-apply">
        {t('settings.profiles.apply')}
      </Button>
      <GuardedPopconfirm
        title={t('settings.profiles.confirmDelete')}
        disabled={!current}
        onConfirm={() => current && remove.mutate(current.id)}
      >
        <Button danger disabled={!current} loading={remove.isPending}>
          {t('settings.profiles.delete')}
        </Button>
      </GuardedPopconfirm>
      <Button
        disabled={list.length >= maxProfiles || !selectable.data}
        title={
          list.length >= maxProfiles ? t('settings.profiles.full', { n: maxProfiles }) : undefined
        }
        onClick={() => {
          setName('');
          setKeys([]);
          setOpen(true);
        }}
        data-testid="profile-new"
      >
        {t('settings.profiles.saveAs')}
      </Button>
      <GuardedModal
        open={open}
        title={t('settings.profiles.saveAs')}
        onCancel={() => setOpen(false)}
        okButtonProps={{
          disabled: !name.trim() || name.trim().length > NAME_MAX || keys.length === 0,
          loading: save.isPending,
        }}
        onOk={() => save.mutate()}
      >
        <Flex vertical gap={12}>
          <Input
            value={name}
            maxLength={NAME_MAX}
            placeholder={t('settings.profiles.name')}
            aria-label={t('settings.profiles.name')}
            onChange={(e) => setName(e.target.value)}
          />
          <Typography.Text type="secondary">
            {t('settings.profiles.pick', { n: maxParams })}
          </Typography.Text>
          <Checkbox.Group value={keys} onChange={(v) => setKeys(v.slice(0, maxParams))}>
            <Flex vertical gap={4}>
              {(selectable.data?.infos ?? []).map((f) => (
                <Checkbox
                  key={f.key}
                  value={f.key}
                  disabled={
                    !fields.has(f.key) || (keys.length >= maxParams && !keys.includes(f.key))
                  }
                >
                  {t(`settings.field.${f.key}`)}
                </Checkbox>
              ))}
            </Flex>
          </Checkbox.Group>
        </Flex>
      </GuardedModal>
    </Flex>
  );
}
