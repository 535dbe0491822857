import { DeleteOutlined, PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Scope } from '@/shared/company';
import { useThemeKind } from '@/shared/theme';
import { SubmitButton } from '@/shared/ui/guarded';
import { userQuery } from '@/shared/user';
import { logoFile } from '@/shared/validators';
import { companyKeys, saveLogos, uploadLogo, type CompanyInfo } from './api';

type Slot = 'logoUrl' | 'iconUrl';

/** How each form is shown in the side menu: the advised size of its image. */
const SLOTS: readonly { slot: Slot; width: number; height: number }[] = [
  { slot: 'logoUrl', width: 220, height: 58 },
  { slot: 'iconUrl', width: 58, height: 58 },
];

/** One form of the logo: its preview at the side menu's size, upload and clear. */
function LogoSlot({
  slot,
  width,
  height,
  url,
  scope,
  mayEdit,
  onChange,
}: {
  slot: Slot;
  width: number;
  height: number;
  url: string;
  scope: Scope;
  mayEdit: boolean;
  onChange: (url: string) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const kind = useThemeKind();
  const upload = useMutation({
    mutationFn: (file: File) => uploadLogo(file, scope),
    onSuccess: onChange,
  });
  const label = t(`company.logo.${slot}`);
  return (
    <Flex vertical gap={8} data-testid={`logo-slot-${slot}`}>
      <Typography.Text strong>{label}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('company.logo.size', { width, height })}
      </Typography.Text>
      {/* the side menu's own background, so the preview looks as the menu will */}
      <div
        className={`logo-preview logo-preview-${kind}`}
        style={{ width: width + 16, height: height + 16 }}
      >
        {url ? (
          <img
            src={url}
            alt={label}
            style={{ width, height }}
            data-testid={`logo-preview-${slot}`}
          />
        ) : (
          <span className="logo-preview-empty" style={{ width, height }}>
            <PictureOutlined aria-hidden />
          </span>
        )}
      </div>
      {mayEdit && (
        <Space wrap>
          <Upload
            accept=".jpg,.jpeg,.png,.gif"
            showUploadList={false}
            beforeUpload={(file) => {
              const problem = logoFile(file);
              if (problem) {
                message.error(t(problem.key, problem.values ?? {}));
                return Upload.LIST_IGNORE;
              }
              upload.mutate(file);
              return false;
            }}
          >
            <Button
              icon={<UploadOutlined />}
              loading={upload.isPending}
              data-testid={`logo-upload-${slot}`}
            >
              {t('company.logo.upload')}
            </Button>
          </Upload>
          {url && (
            <Button
              icon={<DeleteOutlined />}
              onClick={() => onChange('')}
              data-testid={`logo-clear-${slot}`}
            >
              {t('company.logo.clear')}
            </Button>
          )}
        </Space>
      )}
    </Flex>
  );
}

/**
 * The company's logo: the expanded form (220 x 58) and the collapsed one (58 x 58) of the side
 * menu. Uploaded images are previewed here and saved to the company together.
 */
export function LogoCard({
  info,
  scope,
  mayEdit,
}: {
  info: CompanyInfo;
  scope: Scope;
  mayEdit: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const saved = { logoUrl: info.logoUrl ?? '', iconUrl: info.iconUrl ?? '' };
  const [draft, setDraft] = useState(saved);
  const [base, setBase] = useState(saved);
  if (base.logoUrl !== saved.logoUrl || base.iconUrl !== saved.iconUrl) {
    // adjusting state while rendering: the saved logos changed (saved here or elsewhere)
    setBase(saved);
    setDraft(saved);
  }
  const changed = draft.logoUrl !== saved.logoUrl || draft.iconUrl !== saved.iconUrl;
  const save = useMutation({
    mutationFn: () => saveLogos(info.id, draft),
    onSuccess: async () => {
      message.success(t('company.logo.saved'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: companyKeys.all }),
        queryClient.invalidateQueries({ queryKey: userQuery.queryKey }),
      ]);
    },
  });

  return (
    <Card
      title={t('company.logo.title')}
      extra={
        mayEdit && (
          <Space wrap>
            {changed && (
              <Button onClick={() => setDraft(saved)} data-testid="logo-reset">
                {t('common.cancel')}
              </Button>
            )}
            <SubmitButton
              type="primary"
              disabled={!changed}
              loading={save.isPending}
              onClick={() => save.mutate()}
              data-testid="logo-save"
            >
              {t('common.save')}
            </SubmitButton>
          </Space>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('company.logo.hint')}</Typography.Paragraph>
      <Flex gap={32} wrap>
        {SLOTS.map((s) => (
          <LogoSlot
            key={s.slot}
            {...s}
            url={draft[s.slot]}
            scope={scope}
            mayEdit={mayEdit}
            onChange={(url) => setDraft((d) => ({ ...d, [s.slot]: url }))}
          />
        ))}
      </Flex>
    </Card>
  );
}
