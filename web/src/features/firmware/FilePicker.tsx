import { UploadOutlined } from '@ant-design/icons';
import { Button, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { sizeText } from './rules';

/**
 * The firmware file as a form value: the chosen file stays in the browser until the form is
 * saved (the upload is the save's multipart body).
 */
export function FilePicker({
  value,
  onChange,
  current,
}: {
  value?: File;
  onChange?: (file: File | undefined) => void;
  /** The file the firmware has now (editing), shown until another is chosen. */
  current?: string;
}) {
  const { t } = useTranslation();
  return (
    <div data-testid="firmware-file">
      <Upload
        accept=".bin,.hex"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          onChange?.(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>
          {value || current ? t('firmware.form.replaceFile') : t('firmware.form.chooseFile')}
        </Button>
      </Upload>
      <div style={{ marginTop: 4, wordBreak: 'break-all' }} data-testid="firmware-file-name">
        {value ? `${value.name} (${sizeText(value.size)})` : current}
      </div>
    </div>
  );
}
