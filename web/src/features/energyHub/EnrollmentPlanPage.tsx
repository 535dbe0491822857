import './texts';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '@/shared/permissions';
import { EnrollmentList } from './EnrollmentList';
import { ProgramsTab } from './ProgramsTab';
import { VtnTab } from './VtnTab';

const TABS = ['enrollments', 'programs', 'connections'] as const;

/**
 * /energyHub/enrollmentPlan: the enrollments; the utility (sys.energyhub.edit) also finds its
 * programmes (and the enrollments waiting for its decision) and its OpenADR connections.
 */
export default function EnrollmentPlanPage() {
  const { t } = useTranslation();
  const utility = useCan('sys.energyhub.edit');
  const [params, setParams] = useSearchParams();
  if (!utility) return <EnrollmentList />;
  const asked = params.get('tab');
  const tab = TABS.find((x) => x === asked) ?? 'enrollments';
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setParams(key === 'enrollments' ? {} : { tab: key }, { replace: true })}
      destroyOnHidden
      data-testid="hub-tabs"
      items={[
        {
          key: 'enrollments',
          label: t('energyHub.tabs.enrollments'),
          children: <EnrollmentList />,
        },
        { key: 'programs', label: t('energyHub.tabs.programs'), children: <ProgramsTab /> },
        { key: 'connections', label: t('energyHub.tabs.connections'), children: <VtnTab /> },
      ]}
    />
  );
}
