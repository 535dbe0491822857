import { CloseOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HARDWARE_COUNT_MAX, HARDWARE_MAX } from './rules';

/**
 * A product's hardware versions as tags: each removable, a new one typed and added with Enter
 * or the button. A version already in the list is not added twice.
 */
export function HardwareTags({
  value = [],
  onChange,
  id,
}: {
  value?: string[];
  onChange?: (value: string[]) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const full = value.length >= HARDWARE_COUNT_MAX;
  const add = () => {
    const version = draft.trim();
    if (!version || full) return;
    if (!value.includes(version)) onChange?.([...value, version]);
    setDraft('');
  };
  return (
    <Flex vertical gap={8}>
      {value.length > 0 && (
        <Flex wrap gap={4} data-testid="hardware-tags">
          {value.map((v) => (
            <Tag
              key={v}
              closable
              closeIcon={
                <CloseOutlined aria-label={t('products.hardwareRemove', { version: v })} />
              }
              onClose={(e) => {
                e.preventDefault();
                onChange?.(value.filter((x) => x !== v));
              }}
              data-testid="hardware-tag"
            >
              {v}
            </Tag>
          ))}
        </Flex>
      )}
      <Space.Compact style={{ width: '100%' }}>
        <Input
          id={id}
          value={draft}
          maxLength={HARDWARE_MAX}
          placeholder={t('products.hardwarePlaceholder')}
          aria-label={t('products.hardwareAdd')}
          autoComplete="off"
          data-keyfilter="off"
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={(e) => {
            // Enter adds the version; it must not submit the dialog's form
            e.preventDefault();
            add();
          }}
          data-testid="hardware-input"
        />
        <Button icon={<PlusOutlined />} onClick={add} disabled={full} data-testid="hardware-add">
          {t('products.hardwareAdd')}
        </Button>
      </Space.Compact>
    </Flex>
  );
}
