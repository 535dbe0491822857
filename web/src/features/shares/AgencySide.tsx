import {
  CheckOutlined,
  CloseOutlined,
  LogoutOutlined,
  StopOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  acceptAgentOffer,
  declineAgentOffer,
  leavePrincipal,
  removeAgent,
  withdrawAgentOffer,
  type AgentLink,
  type AgentOffer,
  type SharesOverview,
} from './api';
import { Rights } from './Rights';
import { Row } from './Row';
import { Section } from './Section';
import { useAnswer } from './useAnswer';
import { GuardedPopconfirm, SubmitButton } from '@/shared/ui/guarded';

const day = (iso: string) => dayjs(iso).format('YYYY-MM-DD');

/** A row of "your agents": a request not answered yet, or an agent. */
type Mine = { kind: 'offer'; offer: AgentOffer } | { kind: 'agent'; agent: AgentLink };

/**
 * A company's agent relations both ways: requests it was asked (accept, decline) and made
 * (withdraw), the principal it serves (leave) and its own agents (remove). Changing them needs
 * company.agent.edit.
 */
export function AgencySide({ data }: { data: SharesOverview }) {
  const { t } = useTranslation();
  const edit = data.mayEditAgents;
  const accept = useAnswer((o: AgentOffer) => acceptAgentOffer(o.id), 'consent.accepted');
  const decline = useAnswer((o: AgentOffer) => declineAgentOffer(o.id), 'consent.declined');
  const withdraw = useAnswer((o: AgentOffer) => withdrawAgentOffer(o.id), 'consent.withdrawn');
  const leave = useAnswer(() => leavePrincipal(), 'consent.ended');
  const remove = useAnswer((a: AgentLink) => removeAgent(a.id), 'consent.ended');
  const principal = data.principal;

  return (
    <Flex vertical gap={16}>
      <Section
        title={t('consent.agency.received')}
        testId="agent-offers-received"
        items={data.agentOffersReceived}
        rowKey={(o) => o.id}
        empty={t('consent.agency.receivedEmpty')}
        render={(o) => (
          <Row
            testId="agent-offer"
            title={o.companyName}
            lines={[
              <Typography.Text type="secondary" key="when">
                {t('consent.askedOn', { when: day(o.createAt) })}
              </Typography.Text>,
              o.message && (
                <Typography.Text italic key="message">
                  “{o.message}”
                </Typography.Text>
              ),
              <Rights key="rights" rights={o.rights} label={t('consent.agency.rights')} />,
            ]}
            actions={
              edit && (
                <>
                  <SubmitButton
                    type="primary"
                    size="small"
                    icon={<CheckOutlined />}
                    loading={accept.isPending && accept.variables?.id === o.id}
                    onClick={() => accept.mutate(o)}
                    data-testid="agent-offer-accept"
                  >
                    {t('consent.accept')}
                  </SubmitButton>
                  <GuardedPopconfirm
                    title={t('consent.agency.declineConfirm', { company: o.companyName })}
                    okText={t('consent.decline')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => decline.mutate(o)}
                  >
                    <Button size="small" icon={<CloseOutlined />}>
                      {t('consent.decline')}
                    </Button>
                  </GuardedPopconfirm>
                </>
              )
            }
          />
        )}
      />
      <Section
        title={t('consent.agency.principal')}
        testId="agency-principal"
        items={principal ? [principal] : []}
        rowKey={(p) => p.id}
        empty={t('consent.agency.principalEmpty')}
        render={(p) => (
          <Row
            title={p.companyName}
            lines={[
              <Typography.Text type="secondary" key="since">
                {t('consent.since', { when: day(p.createAt) })}
              </Typography.Text>,
              <Rights key="rights" rights={p.rights} />,
            ]}
            actions={
              edit && (
                <GuardedPopconfirm
                  title={t('consent.agency.leaveConfirm', { company: p.companyName })}
                  okText={t('consent.end')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.cancel')}
                  onConfirm={() => leave.mutate(undefined)}
                >
                  <Button size="small" danger icon={<LogoutOutlined />}>
                    {t('consent.end')}
                  </Button>
                </GuardedPopconfirm>
              )
            }
          />
        )}
      />
      <Section
        title={t('consent.agency.agents')}
        testId="agency-agents"
        items={[
          ...data.agentOffersMade.map((offer): Mine => ({ kind: 'offer', offer })),
          ...data.agents.map((agent): Mine => ({ kind: 'agent', agent })),
        ]}
        rowKey={(m) => (m.kind === 'offer' ? `offer-${m.offer.id}` : `agent-${m.agent.id}`)}
        empty={t('consent.agency.agentsEmpty')}
        render={(m) =>
          m.kind === 'offer' ? (
            <Row
              title={m.offer.agentCompanyName}
              lines={[
                <Typography.Text type="warning" key="pending">
                  {t('consent.pendingSince', { when: day(m.offer.createAt) })}
                </Typography.Text>,
              ]}
              actions={
                edit && (
                  <SubmitButton
                    size="small"
                    icon={<UndoOutlined />}
                    onClick={() => withdraw.mutate(m.offer)}
                  >
                    {t('consent.withdraw')}
                  </SubmitButton>
                )
              }
            />
          ) : (
            <Row
              title={m.agent.companyName}
              lines={[
                <Typography.Text type="secondary" key="since">
                  {t('consent.since', { when: day(m.agent.createAt) })}
                </Typography.Text>,
              ]}
              actions={
                edit && (
                  <GuardedPopconfirm
                    title={t('consent.agency.removeConfirm', { company: m.agent.companyName })}
                    okText={t('consent.end')}
                    okButtonProps={{ danger: true }}
                    cancelText={t('common.cancel')}
                    onConfirm={() => remove.mutate(m.agent)}
                  >
                    <Button size="small" danger icon={<StopOutlined />}>
                      {t('consent.end')}
                    </Button>
                  </GuardedPopconfirm>
                )
              }
            />
          )
        }
      />
    </Flex>
  );
}
