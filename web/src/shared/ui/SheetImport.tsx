import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, Upload } from 'antd';

/**
 * The two halves every sheet import dialog shares (gateways, predicted generation): the row
 * with the template download and the file picker, and the footer that walks from a dry run to
 * the import. Test ids are `<testId>-template`, `-pick`, `-file`, `-check`, `-run`, `-close`.
 */
export function SheetPicker({
  testId,
  accept,
  file,
  done,
  fetching,
  onTemplate,
  onPick,
  labels,
}: {
  testId: string;
  accept: string;
  file: File | null;
  /** The import ran: no other file can be picked. */
  done: boolean;
  /** The template is being downloaded. */
  fetching: boolean;
  onTemplate: () => void;
  onPick: (f: File) => void;
  labels: { template: string; pick: string; otherFile: string };
}) {
  return (
    <Flex gap={8} wrap align="center">
      <Button
        icon={<DownloadOutlined />}
        loading={fetching}
        onClick={onTemplate}
        data-testid={`${testId}-template`}
      >
        {labels.template}
      </Button>
      {!done && (
        <Upload
          accept={accept}
          showUploadList={false}
          beforeUpload={(f) => {
            onPick(f);
            // The file is handed over, never uploaded by the picker itself.
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined />} data-testid={`${testId}-pick`}>
            {file ? labels.otherFile : labels.pick}
          </Button>
        </Upload>
      )}
      {file && (
        <Typography.Text strong data-testid={`${testId}-file`} style={{ overflowWrap: 'anywhere' }}>
          {file.name}
        </Typography.Text>
      )}
    </Flex>
  );
}

export function SheetImportFooter({
  testId,
  file,
  checked,
  done,
  ready,
  checking,
  running,
  onCheck,
  onRun,
  onClose,
  labels,
}: {
  testId: string;
  file: File | null;
  /** The dry run answered. */
  checked: boolean;
  /** The import answered. */
  done: boolean;
  /** Rows the import would write. */
  ready: number;
  checking: boolean;
  running: boolean;
  onCheck: (f: File) => void;
  onRun: (f: File) => void;
  onClose: () => void;
  labels: { close: string; cancel: string; check: string; run: string };
}) {
  if (done) {
    return (
      <Button type="primary" onClick={onClose} data-testid={`${testId}-close`}>
        {labels.close}
      </Button>
    );
  }
  return (
    <Flex gap={8} justify="flex-end" wrap>
      <Button onClick={onClose}>{labels.cancel}</Button>
      {checked ? (
        <Button
          type="primary"
          disabled={!file || ready === 0}
          loading={running}
          onClick={() => file && onRun(file)}
          data-testid={`${testId}-run`}
        >
          {labels.run}
        </Button>
      ) : (
        <Button
          type="primary"
          disabled={!file}
          loading={checking}
          onClick={() => file && onCheck(file)}
          data-testid={`${testId}-check`}
        >
          {labels.check}
        </Button>
      )}
    </Flex>
  );
}
