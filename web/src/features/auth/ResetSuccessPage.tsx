import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PublicShell } from '@/shared/ui/PublicShell';

export default function ResetSuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PublicShell>
      <Card>
        <Result
          status="success"
          title={t('forget.doneTitle')}
          subTitle={t('forget.doneText')}
          extra={
            <Button type="primary" onClick={() => void navigate('/login', { replace: true })}>
              {t('auth.backToLogin')}
            </Button>
          }
        />
      </Card>
    </PublicShell>
  );
}
