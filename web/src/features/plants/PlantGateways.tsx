import { DisconnectOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Empty, Form, Result, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { GuardedModal } from '@/shared/ui/guarded';
import { StatusCode, statusOf } from '@/shared/ui/status';
import { bindGateway, gatewayDetailQuery, plantGatewaysQuery, unbindGateway } from './api';
import { gatewayInput, gatewayRights, showGatewayError, signalText } from './gateway';
import { GatewayFields } from './GatewayFields';
import { plantKeys } from '@/shared/api/keys';
import type { GatewayRow } from '@/shared/api/gateways';

const when = (v: string | null | undefined) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : MISSING);

/** The devices behind one gateway (GET /gateway/{id}), shown when its row is expanded. */
function GatewayDevices({ plantId, gatewayId }: { plantId: number; gatewayId: number }) {
  const { t } = useTranslation();
  const detail = useQuery(gatewayDetailQuery(plantId, gatewayId));
  if (detail.isPending)
    return <Typography.Text type="secondary">{t('plants.gateway.loading')}</Typography.Text>;
  if (detail.isError) {
    return <Typography.Text type="danger">{t('plants.gateway.devicesFailed')}</Typography.Text>;
  }
  const devices = detail.data.devices ?? [];
  return (
    <div data-testid="gateway-devices">
      <Typography.Text strong>
        {t('plants.gateway.devicesCount', { count: devices.length })}
      </Typography.Text>
      {devices.length > 0 && (
        <ul style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
          {devices.map((d) => (
            <li key={d.sn}>
              {d.sn}
              {d.model ? ` · ${d.model}` : ''}
              {' · '}
              {d.online || d.status === StatusCode.normal
                ? t('plants.gateway.online')
                : t('plants.gateway.offline')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function AddGatewayDialog({
  plantId,
  open,
  onClose,
}: {
  plantId: number;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const add = useMutation({
    mutationFn: ({ sn, key }: { sn: string; key: string }) => bindGateway(plantId, sn, key),
    onSuccess: async () => {
      message.success(t('plants.gateway.added'));
      await queryClient.invalidateQueries({ queryKey: plantKeys.gateways(plantId) });
      form.resetFields();
      onClose();
    },
    onError: (e) => showGatewayError(form, e),
  });
  const submit = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const input = gatewayInput(form.getFieldValue('gatewaySn'), form.getFieldValue('gatewayKey'));
    if (input) add.mutate(input);
  };
  return (
    <GuardedModal
      open={open}
      title={t('plants.gateway.add')}
      okText={t('plants.gateway.addOk')}
      cancelText={t('common.cancel')}
      confirmLoading={add.isPending}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      okButtonProps={{ 'data-testid': 'gateway-add-ok' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={() => void submit()}
        data-testid="gateway-add-form"
      >
        <GatewayFields form={form} />
      </Form>
    </GuardedModal>
  );
}

/** The Gateways section of the plant edit screen. */
export function PlantGateways({
  plantId,
  plantPermission,
}: {
  plantId: number;
  plantPermission: readonly string[];
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const rights = gatewayRights(plantPermission);
  const [params, setParams] = useSearchParams();
  // "Add gateway" on the overview's empty device card leads here with ?addGateway=1
  const [adding, setAdding] = useState(() => rights.add && params.get('addGateway') === '1');
  const closeAdding = () => {
    setAdding(false);
    if (params.has('addGateway')) {
      params.delete('addGateway');
      setParams(params, { replace: true });
    }
  };
  const list = useQuery(plantGatewaysQuery(plantId));
  const unbind = useMutation({
    mutationFn: (g: GatewayRow) => unbindGateway(g.id),
    onSuccess: async () => {
      message.success(t('plants.gateway.unbound'));
      await queryClient.invalidateQueries({ queryKey: plantKeys.gateways(plantId) });
    },
  });
  const confirmUnbind = (g: GatewayRow) =>
    modal.confirm({
      title: t('plants.gateway.unbindTitle', { sn: g.sn }),
      content: t('plants.gateway.unbindText'),
      okText: t('plants.gateway.unbind'),
      okButtonProps: { danger: true, 'data-testid': 'gateway-unbind-ok' },
      cancelText: t('common.cancel'),
      onOk: () => unbind.mutateAsync(g),
    });

  const columns = [
    {
      title: t('plants.gateway.sn'),
      dataIndex: 'sn',
      key: 'sn',
      render: (sn: string, g: GatewayRow) => (
        <span data-testid="gateway-sn">
          {sn}
          {g.alias ? <Typography.Text type="secondary"> ({g.alias})</Typography.Text> : null}
        </span>
      ),
    },
    {
      title: t('plants.gateway.status'),
      dataIndex: 'status',
      key: 'status',
      width: 120,
      render: (status: number) => {
        const online = status === StatusCode.normal;
        return (
          <Badge
            color={statusOf(online ? StatusCode.normal : StatusCode.offline).color}
            text={t(online ? 'plants.gateway.online' : 'plants.gateway.offline')}
          />
        );
      },
    },
    {
      title: t('plants.gateway.signal'),
      dataIndex: 'signal',
      key: 'signal',
      width: 120,
      render: (v: unknown) => signalText(v) ?? MISSING,
    },
    {
      title: t('plants.gateway.softVer'),
      dataIndex: 'softVer',
      key: 'softVer',
      width: 160,
      render: (v: string | null) => v || MISSING,
    },
    {
      title: t('plants.gateway.updateAt'),
      dataIndex: 'updateAt',
      key: 'updateAt',
      width: 170,
      render: when,
    },
    ...(rights.unbind
      ? [
          {
            title: t('plants.gateway.actions'),
            key: 'actions',
            width: 120,
            render: (_: unknown, g: GatewayRow) => (
              <Button
                type="link"
                danger
                size="small"
                icon={<DisconnectOutlined />}
                onClick={() => confirmUnbind(g)}
                data-testid="gateway-unbind"
              >
                {t('plants.gateway.unbind')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  const rows = list.data?.infos ?? [];
  return (
    <Card
      title={t('plants.gateway.section')}
      data-testid="section-gateways"
      extra={
        rights.add && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setAdding(true)}
            data-testid="gateway-add"
          >
            {t('plants.gateway.add')}
          </Button>
        )
      }
    >
      {list.isError ? (
        <Result
          status="warning"
          title={t('plants.gateway.loadFailed')}
          extra={
            <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()}>
              {t('plants.gateway.retry')}
            </Button>
          }
          data-testid="gateways-error"
        />
      ) : (
        <Table<GatewayRow>
          rowKey="id"
          size="middle"
          loading={list.isPending}
          dataSource={rows}
          columns={columns}
          pagination={false}
          data-testid="gateway-table"
          expandable={{
            expandedRowRender: (g) => <GatewayDevices plantId={plantId} gatewayId={g.id} />,
          }}
          locale={{
            emptyText: list.isPending ? (
              ' '
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t('plants.gateway.empty')}
                data-testid="gateways-empty"
              >
                {rights.add && (
                  <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
                    {t('plants.gateway.add')}
                  </Button>
                )}
              </Empty>
            ),
          }}
          scroll={{ x: 'max-content' }}
        />
      )}
      {rights.add && <AddGatewayDialog plantId={plantId} open={adding} onClose={closeAdding} />}
    </Card>
  );
}
