import {
  DeleteOutlined,
  DragOutlined,
  EditOutlined,
  PlusOutlined,
  SubnodeOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Flex, Skeleton, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { useCan } from '@/shared/permissions';
import { Problem } from '@/shared/ui/Problem';
import { RowActionButtons, type RowAction } from '@/shared/ui/RowActionButtons';
import { deleteInverterType, firmwareKeys, inverterTypesQuery, type InverterTypeNode } from './api';
import { typeRefusal } from './rules';
import { TypeDialog, type TypeDialogTarget } from './TypeDialog';

const ALL = 'all';

/**
 * The inverter-type tree: primary titles with their secondary labels (and the codes a label
 * stands for). Choosing a node filters the firmware list; adding, editing, moving and deleting
 * need firmware.inverter.edit.
 */
export function TypeTree({
  selected,
  onSelect,
}: {
  selected: number | null;
  onSelect: (id: number | null) => void;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const mayEdit = useCan('firmware.inverter.edit');
  const tree = useQuery(inverterTypesQuery);
  const [dialog, setDialog] = useState<TypeDialogTarget | null>(null);

  const remove = useMutation({
    mutationFn: (n: InverterTypeNode) => deleteInverterType(n.id),
    onSuccess: async (_d, n) => {
      message.success(t('firmware.types.deleted'));
      if (selected === n.id) onSelect(null);
      await queryClient.invalidateQueries({ queryKey: firmwareKeys.all });
    },
    onError: (e) => {
      const refusal = typeRefusal(e);
      message.error(
        refusal ? t(refusal.key) : isApiError(e) ? e.message : t('errors.requestError'),
      );
    },
  });
  const confirmDelete = (n: InverterTypeNode) => {
    // the server refuses these too; saying so first spares a round trip
    const blocked =
      n.children.length > 0
        ? 'firmware.types.refusal.hasSubtype'
        : n.firmwareCount > 0
          ? 'firmware.types.refusal.hasFirmware'
          : null;
    if (blocked) {
      modal.warning({
        title: t('firmware.types.deleteTitle', { name: n.name }),
        content: t(blocked),
        okText: t('common.confirm'),
      });
      return;
    }
    modal.confirm({
      title: t('firmware.types.deleteTitle', { name: n.name }),
      content: t('firmware.types.deleteText'),
      okText: t('firmware.delete'),
      okButtonProps: { danger: true, 'data-testid': 'type-delete-ok' },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(n).catch(() => undefined),
    });
  };

  const actions = (n: InverterTypeNode, parentId: number | null): RowAction[] => {
    const list: RowAction[] = [];
    if (parentId === null)
      list.push({
        key: 'type-add-label',
        label: t('firmware.types.addLabel'),
        icon: <SubnodeOutlined />,
        onClick: () => setDialog({ mode: 'add', parent: n }),
      });
    list.push({
      key: 'type-edit',
      label: t('firmware.types.edit'),
      icon: <EditOutlined />,
      onClick: () => setDialog({ mode: 'edit', node: n, parentId }),
    });
    if (parentId !== null)
      list.push({
        key: 'type-move',
        label: t('firmware.types.move'),
        icon: <DragOutlined />,
        onClick: () => setDialog({ mode: 'move', node: n, parentId }),
      });
    list.push({
      key: 'type-delete',
      label: t('firmware.delete'),
      icon: <DeleteOutlined />,
      danger: true,
      onClick: () => confirmDelete(n),
    });
    return list;
  };

  const title = (n: InverterTypeNode, parentId: number | null) => (
    <Flex
      justify="space-between"
      align="center"
      gap={4}
      data-testid="type-node"
      data-type-id={n.id}
      data-name={n.name}
    >
      <Flex vertical style={{ minWidth: 0 }}>
        <Typography.Text strong={parentId === null} ellipsis={{ tooltip: n.name }}>
          {n.name}
        </Typography.Text>
        {parentId !== null && n.codes.length > 0 && (
          <span>
            {n.codes.map((c) => (
              <Tag key={c} style={{ marginInlineEnd: 2, fontSize: 11 }}>
                {c}
              </Tag>
            ))}
          </span>
        )}
      </Flex>
      {mayEdit && (
        // the tree would take the click as a selection
        <span onClick={(e) => e.stopPropagation()}>
          <RowActionButtons
            compact
            menuLabel={t('firmware.types.actions', { name: n.name })}
            actions={actions(n, parentId)}
          />
        </span>
      )}
    </Flex>
  );

  const nodes: DataNode[] = [
    { key: ALL, title: <span data-testid="type-all">{t('firmware.types.all')}</span> },
    ...(tree.data ?? []).map((p) => ({
      key: p.id,
      title: title(p, null),
      children: p.children.map((c) => ({ key: c.id, title: title(c, p.id), isLeaf: true })),
    })),
  ];

  return (
    <div data-testid="type-tree">
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('firmware.types.title')}</Typography.Text>
        {mayEdit && (
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ mode: 'add', parent: null })}
            data-testid="type-add-title"
          >
            {t('firmware.types.addTitleShort')}
          </Button>
        )}
      </Flex>
      {tree.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : tree.isError ? (
        <Problem
          title={t('firmware.types.loadFailed')}
          testId="types-error"
          extra={<Button onClick={() => void tree.refetch()}>{t('common.refresh')}</Button>}
        />
      ) : tree.data.length === 0 ? (
        <Empty description={t('firmware.types.empty')} />
      ) : (
        <Tree
          blockNode
          defaultExpandAll
          selectedKeys={[selected ?? ALL]}
          onSelect={(keys) => {
            const key = keys[0];
            onSelect(key === undefined || key === ALL ? null : Number(key));
          }}
          treeData={nodes}
        />
      )}
      {dialog && (
        <TypeDialog target={dialog} tree={tree.data ?? []} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}
