import { LogoutOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cancelShare, type PlantShare } from './api';
import { Row } from './Row';
import { Section } from './Section';
import { useAnswer } from './useAnswer';
import { GuardedPopconfirm } from '@/shared/ui/guarded';

const person = (s: PlantShare) => (s.nickname ? `${s.nickname} (${s.account})` : s.account);

/** The shares of the caller's plants (cancel), or the plants shared with them (leave). */
export function PlantShares({ shares, given }: { shares: PlantShare[]; given: boolean }) {
  const { t } = useTranslation();
  const end = useAnswer(
    (s: PlantShare) => cancelShare(s.plantId, given ? s.userId : undefined),
    given ? 'consent.shares.cancelled' : 'consent.shares.left',
  );
  const part = given ? 'given' : 'received';
  return (
    <Section
      title={t(`consent.shares.${part}`)}
      testId={`shares-${part}`}
      items={shares}
      rowKey={(s) => `${s.plantId}-${s.userId}`}
      empty={t(`consent.shares.${part}Empty`)}
      render={(s) => (
        <Row
          testId="share"
          title={<Link to={`/plants/overview/${s.plantId}/${s.plantType}`}>{s.plantName}</Link>}
          lines={[
            <span key="who">
              {t(given ? 'consent.shares.with' : 'consent.shares.owner', { who: person(s) })}{' '}
              <Tag color={s.role === 'maintainer' ? 'blue' : undefined}>
                {t(`consent.shares.role.${s.role === 'maintainer' ? 'maintainer' : 'visitor'}`)}
              </Tag>
            </span>,
            <Typography.Text type="secondary" key="since">
              {t('consent.since', { when: dayjs(s.createAt).format('YYYY-MM-DD') })}
            </Typography.Text>,
          ]}
          actions={
            <GuardedPopconfirm
              title={t(given ? 'consent.shares.cancelConfirm' : 'consent.shares.leaveConfirm', {
                plant: s.plantName,
                who: person(s),
              })}
              okText={t(given ? 'consent.shares.cancel' : 'consent.shares.leave')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.cancel')}
              onConfirm={() => end.mutate(s)}
            >
              <Button
                size="small"
                danger
                icon={given ? <StopOutlined /> : <LogoutOutlined />}
                data-testid={given ? 'share-cancel' : 'share-leave'}
              >
                {t(given ? 'consent.shares.cancel' : 'consent.shares.leave')}
              </Button>
            </GuardedPopconfirm>
          }
        />
      )}
    />
  );
}
