import { Button, Flex, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { tokenStore } from '@/shared/session';

/** No access: offers a way back to sign-in (and home when signed in). */
export function Forbidden({ inLayout = false }: { inLayout?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const result = (
    <Result
      status="403"
      title={t('forbidden.title')}
      subTitle={t('forbidden.text')}
      data-testid="forbidden"
      extra={[
        <Button
          key="login"
          type="primary"
          onClick={() => {
            tokenStore.clear();
            window.location.assign('/login');
          }}
        >
          {t('forbidden.login')}
        </Button>,
        ...(inLayout
          ? [
              <Button key="home" onClick={() => void navigate('/')}>
                {t('notFound.home')}
              </Button>,
            ]
          : []),
      ]}
    />
  );
  return inLayout ? (
    result
  ) : (
    <Flex style={{ minHeight: '100vh' }} justify="center" align="center">
      {result}
    </Flex>
  );
}

export default function ForbiddenPage() {
  return <Forbidden />;
}
