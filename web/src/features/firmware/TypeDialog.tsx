import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { Limits } from '@/shared/api/limits.gen';
import { isApiError } from '@/shared/http';
import { GuardedModal } from '@/shared/ui/guarded';
import { formRule, requiredRule } from '@/shared/validators';
import {
  addInverterType,
  editInverterType,
  firmwareKeys,
  moveInverterType,
  typeNameTaken,
  type InverterTypeNode,
} from './api';
import { parseCodes, TYPE_CODES, typeName, typeRefusal } from './rules';

/** What the type dialog does: add a title or a label (under `parent`), edit one, or move a label. */
export type TypeDialogTarget =
  | { mode: 'add'; parent: InverterTypeNode | null }
  | { mode: 'edit'; node: InverterTypeNode; parentId: number | null }
  | { mode: 'move'; node: InverterTypeNode; parentId: number };

interface Values {
  name: string;
  codes: (string | number)[];
  parentId?: number;
}

/** Add or edit a primary title or a secondary label (its name, a label's codes), or move a label. */
export function TypeDialog({
  target,
  tree,
  onClose,
}: {
  target: TypeDialogTarget;
  tree: readonly InverterTypeNode[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const parentId = target.mode === 'add' ? (target.parent?.id ?? null) : target.parentId;
  const secondary = target.mode === 'add' ? target.parent !== null : target.node.parentId !== null;

  const save = useMutation({
    mutationFn: (v: Values): Promise<unknown> => {
      if (target.mode === 'move') return moveInverterType(target.node.id, v.parentId ?? 0);
      const codes = secondary ? (parseCodes(v.codes ?? []) ?? []) : [];
      if (target.mode === 'add') return addInverterType({ name: v.name.trim(), parentId, codes });
      return editInverterType({
        id: target.node.id,
        name: v.name.trim(),
        ...(secondary ? { codes } : {}),
      });
    },
    onSuccess: async () => {
      message.success(t(target.mode === 'move' ? 'firmware.types.moved' : 'common.saved'));
      await queryClient.invalidateQueries({ queryKey: firmwareKeys.all });
      onClose();
    },
    onError: (e) => {
      const refusal = typeRefusal(e);
      const text = refusal
        ? t(refusal.key, refusal.values ?? {})
        : isApiError(e)
          ? e.message
          : t('errors.requestError');
      const field =
        target.mode === 'move' ? 'parentId' : refusal?.key.endsWith('.codes') ? 'codes' : 'name';
      form.setFields([{ name: field, errors: [text] }]);
    },
  });

  const title =
    target.mode === 'move'
      ? t('firmware.types.moveTitle', { name: target.node.name })
      : target.mode === 'edit'
        ? t(secondary ? 'firmware.types.editLabel' : 'firmware.types.editTitle')
        : secondary
          ? t('firmware.types.addLabelUnder', { name: target.parent?.name ?? '' })
          : t('firmware.types.addTitle');

  const nameCheck = {
    validateTrigger: 'onBlur',
    validator: async (_r: unknown, value: unknown) => {
      const name = typeof value === 'string' ? value.trim() : '';
      if (!name || typeName(name)) return;
      const taken = await typeNameTaken(
        name,
        parentId,
        target.mode === 'edit' ? target.node.id : undefined,
      );
      if (taken) throw new Error(t('firmware.types.refusal.name'));
    },
  };

  const codeOptions = TYPE_CODES.map((c) => ({
    value: c.code,
    label: `${c.code} · ${t(`firmware.codes.${c.kind}`)}`,
  }));
  const primaries = tree
    .filter((p) => target.mode !== 'move' || p.id !== target.parentId)
    .map((p) => ({ value: p.id, label: p.name }));

  return (
    <GuardedModal
      open
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'type-save' }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          target.mode === 'add'
            ? { name: '', codes: [] }
            : { name: target.node.name, codes: target.node.codes }
        }
        onFinish={(v) => save.mutate(v)}
        data-testid="type-form"
      >
        {target.mode === 'move' ? (
          <Form.Item
            name="parentId"
            label={t('firmware.types.target')}
            rules={[{ required: true, message: t('firmware.types.refusal.primaryTitle') }]}
          >
            <Select
              options={primaries}
              aria-label={t('firmware.types.target')}
              data-testid="type-move-target"
            />
          </Form.Item>
        ) : (
          <>
            <Form.Item
              name="name"
              label={t('firmware.types.name')}
              validateTrigger={['onChange', 'onBlur']}
              rules={[requiredRule(), formRule(typeName), nameCheck]}
            >
              <Input
                maxLength={Limits.InverterTypeRequest.name.maxLength}
                autoComplete="off"
                data-testid="type-name"
              />
            </Form.Item>
            {secondary && (
              <Form.Item
                name="codes"
                label={t('firmware.types.codes')}
                extra={t('firmware.types.codesHelp')}
                rules={[
                  {
                    validator: (_r, value: (string | number)[] | undefined) =>
                      parseCodes(value ?? []) === null
                        ? Promise.reject(new Error(t('firmware.types.badCode')))
                        : Promise.resolve(),
                  },
                ]}
              >
                <Select
                  mode="tags"
                  options={codeOptions}
                  tokenSeparators={[',', ' ']}
                  aria-label={t('firmware.types.codes')}
                  data-testid="type-codes"
                />
              </Form.Item>
            )}
          </>
        )}
      </Form>
    </GuardedModal>
  );
}
